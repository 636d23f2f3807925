"""Lie groups for attitude: SO(3) maps and rotation integrators.

``from robonum.lie import so3`` gives ``hat``, ``vee``, ``exp``, ``log``,
``orthogonality_error``; :mod:`robonum.lie.rotation_integrators` integrates
``Ṙ = R [ω]×`` five ways.
"""
from . import so3
from .rotation_integrators import (METHODS, RotationTrajectory, euler_orthogonality_prediction,
                                   exact_rotation, gram_schmidt, integrate_rotation, polar)
from .so3 import exp, hat, log, orthogonality_error, vee

__all__ = ["so3", "hat", "vee", "exp", "log", "orthogonality_error", "integrate_rotation",
           "exact_rotation", "gram_schmidt", "polar", "euler_orthogonality_prediction",
           "RotationTrajectory", "METHODS"]
