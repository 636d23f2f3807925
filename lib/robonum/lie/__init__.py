"""Lie groups for attitude: SO(3) maps, rotation integrators, unit quaternions.

``from robonum import lie`` gives ``hat``, ``vee``, ``exp``, ``log``, ``dexp_inv``,
``orthogonality_error``; :func:`integrate_rotation` integrates ``Ṙ = R [ω]×`` in any
of ``METHODS`` and returns a :class:`robonum.Solution` (``sol.R``);
:func:`integrate_attitude` does the same for an :class:`AttitudeProblem`
(:func:`coning`, :class:`FreeRigidBody`).  :mod:`.se3` has the rigid motions:
``se3_hat``, ``se3_exp``, ``se3_log`` of twists ``ξ = (ω, v)``.  The Lie-group steppers (:class:`RKMK`,
:class:`CrouchGrossman`, :class:`Projected`) are built from Butcher tableaux.
:mod:`.quaternion` integrates unit quaternions the same ways.
"""

from . import quaternion, se3, so3
from .attitude import AttitudeProblem, FreeRigidBody, coning
from .group_methods import CG3, RKMK, CrouchGrossman, ExpMidpoint, Projected, stepper
from .projection import gram_schmidt, polar
from .rotation_integrators import (
    METHODS,
    angle_errors,
    euler_orthogonality_prediction,
    exact_rotation,
    imag_axis_gain,
    integrate_attitude,
    integrate_rotation,
    orthogonality_errors,
    rk_orthogonality_prediction,
)
from .se3 import se3_exp, se3_hat, se3_log
from .so3 import dexp_inv, exp, hat, log, orthogonality_error, vee

__all__ = [
    "so3",
    "se3",
    "quaternion",
    "hat",
    "vee",
    "exp",
    "log",
    "dexp_inv",
    "orthogonality_error",
    "se3_hat",
    "se3_exp",
    "se3_log",
    "orthogonality_errors",
    "angle_errors",
    "integrate_rotation",
    "integrate_attitude",
    "exact_rotation",
    "gram_schmidt",
    "polar",
    "euler_orthogonality_prediction",
    "rk_orthogonality_prediction",
    "imag_axis_gain",
    "METHODS",
    "AttitudeProblem",
    "FreeRigidBody",
    "coning",
    "RKMK",
    "CrouchGrossman",
    "Projected",
    "ExpMidpoint",
    "CG3",
    "stepper",
]
