"""Lie groups for attitude: SO(3) maps and rotation integrators.

``from robonum import lie`` gives ``hat``, ``vee``, ``exp``, ``log``,
``orthogonality_error``; :func:`integrate_rotation` integrates ``Ṙ = R [ω]×``
five ways and returns a :class:`robonum.Solution` (``sol.R``).
"""
from . import so3
from .rotation_integrators import (METHODS, euler_orthogonality_prediction, exact_rotation,
                                   gram_schmidt, integrate_rotation, orthogonality_errors, polar)
from .so3 import exp, hat, log, orthogonality_error, vee

__all__ = ["so3", "hat", "vee", "exp", "log", "orthogonality_error", "orthogonality_errors",
           "integrate_rotation", "exact_rotation", "gram_schmidt", "polar",
           "euler_orthogonality_prediction", "METHODS"]
