"""Test functions for the differentiation chapter: a planar 2-link arm and a chain sum.

The forward kinematics is written once with :mod:`robonum.autodiff.functions`,
so the same code evaluates on floats, complex numbers (complex step),
:class:`~robonum.autodiff.Dual` (forward mode) and
:class:`~robonum.autodiff.Var` (reverse mode).

Planar 2R arm (Lynch & Park, *Modern Robotics*, 2017, sec. 5.1, planar 2R example)::

    p(q) = [ l1 cos q1 + l2 cos(q1 + q2),
             l1 sin q1 + l2 sin(q1 + q2) ]

with ``l1 = 1``, ``l2 = 0.7`` as in the chapter.
"""
from __future__ import annotations

import math

import numpy as np

from . import _validate as check
from .autodiff.functions import cos, sin

L1 = 1.0
L2 = 0.7


def _pair(q):
    try:
        n = len(q)
    except TypeError:
        raise TypeError(f"q must be a sequence of 2 joint angles, got {type(q).__name__}") from None
    if n != 2:
        raise ValueError(f"q must hold exactly 2 joint angles (q1, q2), got {n}")
    return q[0], q[1]


def arm_fk(q, l1: float = L1, l2: float = L2):
    """End-effector position ``p(q) = (l1 c1 + l2 c12, l1 s1 + l2 s12)``.

    ``q`` is any length-2 sequence of floats, complex numbers, Duals or Vars;
    returns a numpy array of shape (2,) of the same kind (object for Dual/Var).
    """
    q1, q2 = _pair(q)
    q12 = q1 + q2
    x = l1 * cos(q1) + l2 * cos(q12)
    y = l1 * sin(q1) + l2 * sin(q12)
    return np.array([x, y])


def arm_jacobian(q, l1: float = L1, l2: float = L2) -> np.ndarray:
    """Analytic Jacobian ``∂p/∂q`` of :func:`arm_fk`::

        J = [[-l1 s1 - l2 s12, -l2 s12],
             [ l1 c1 + l2 c12,  l2 c12]]
    """
    q1, q2 = (float(v) for v in check.finite_vector("q", np.asarray(_pair(q), dtype=float)))
    q12 = q1 + q2
    # math (libm), the same functions the Dual/Var code calls, not numpy's SIMD loops
    s1, c1, s12, c12 = math.sin(q1), math.cos(q1), math.sin(q12), math.cos(q12)
    return np.array([[-l1 * s1 - l2 * s12, -l2 * s12],
                     [l1 * c1 + l2 * c12, l2 * c12]])


def sin_chain(x):
    """The chapter's scalar test function ``f(x) = Σ_{i=1}^{n-1} sin(x_i) x_{i+1}``.

    Written as a plain loop so it runs on floats, complex numbers, Duals and Vars.
    """
    if len(x) < 2:
        raise ValueError(f"x must have at least 2 entries, got {len(x)}")
    total = sin(x[0]) * x[1]
    for i in range(1, len(x) - 1):
        total = total + sin(x[i]) * x[i + 1]
    return total


def sin_chain_grad(x) -> np.ndarray:
    """Hand-derived gradient of :func:`sin_chain`:
    ``∂f/∂x_k = cos(x_k) x_{k+1} [k < n] + sin(x_{k-1}) [k > 1]``.
    """
    x = check.finite_vector("x", x)
    if x.size < 2:
        raise ValueError(f"x must have at least 2 entries, got {x.size}")
    g = np.zeros_like(x)
    g[:-1] += np.cos(x[:-1]) * x[1:]
    g[1:] += np.sin(x[:-1])
    return g
