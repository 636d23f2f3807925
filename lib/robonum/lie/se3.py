"""Rigid motions SE(3): the exponential and logarithm of twists, with ``V(ω)`` and its inverse.

A twist is ``ξ = (ω, v)`` in R⁶, angular part first (Lynch & Park, *Modern Robotics*, 2017,
sec. 3.3.3; Murray, Li & Sastry 1994, sec. 2.3, write ``(v, ω)``).  Its matrix is
``[ξ] = [[ [ω]×, v ], [0, 0]]`` and

    ``Exp(ξ) = [[ Exp(ω), V(ω) v ], [0, 1]]``,  ``V(ω) = I + b [ω]× + c [ω]×²``,
    ``b = (1 - cos θ)/θ²``,  ``c = (θ - sin θ)/θ³``,  ``θ = |ω|``;

    ``Log(T) = (ω, V(ω)⁻¹ p)``,  ``ω = Log(R)``,  ``V(ω)⁻¹ = I - ½[ω]× + d [ω]×²``,
    ``d = (1 - (θ/2) cot(θ/2))/θ²``.

``V(ω)`` is the left Jacobian of SO(3), ``V(ω) = J_r(-ω)`` (Solà, Deray & Atchuthan 2018,
app. D), so ``V(ω)⁻¹ p`` is ``so3.dexp_inv(-ω, p)``: this module reuses the SO(3) maps and
their small-angle series instead of repeating them.  The coefficients are taken from series
where the closed forms cancel (``c`` below ``_SMALL_ANGLE``; ``b`` and ``d`` in :mod:`.so3`),
so a twist of angle 1e-12 comes back to rounding.

The textbook recipe for the screw (angle from ``arccos((tr R - 1)/2)``, axis from
``(R - Rᵀ)/(2 sin θ)``, ``v = G(θ)⁻¹ p`` with ``1/θ`` terms) loses digits at small θ; the
book's chapter 4 measures it against :func:`se3_log`.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _validate as check
from . import so3

_SMALL_ANGLE = 1e-2  # below it c(θ) by its series: truncation θ⁶/362880 < 3e-18 (relative 2e-17)
FRAME_TOL = 1e-6  # se3_log accepts max|RᵀR - I| and the bottom row's deviation below this
MAX_TRANSLATION = 1e100  # |p_i| and |v_i|: products with V and V⁻¹ (entries < 10) stay finite
MAX_ANGLE = 1e6  # |ω_i| in rad, as so3.exp: beyond it no digits of the angle mod 2π are left


def _twist(xi) -> np.ndarray:
    xi = check.real_array("xi", xi)
    if xi.shape != (6,):
        raise ValueError(f"xi must have shape (6,) = (omega, v), got {xi.shape}")
    w_max, v_max = float(np.max(np.abs(xi[:3]))), float(np.max(np.abs(xi[3:])))
    if w_max > MAX_ANGLE:
        raise ValueError(
            f"xi[:3] (omega) must have entries |x| <= {MAX_ANGLE:g} rad, got {w_max:.3g}"
        )
    if v_max > MAX_TRANSLATION:
        raise ValueError(
            f"xi[3:] (v) must have entries |x| <= {MAX_TRANSLATION:g}, got {v_max:.3g}"
        )
    return xi


def se3_hat(xi) -> np.ndarray:
    """The 4×4 twist matrix ``[ξ] = [[ [ω]×, v ], [0, 0]]`` of ``ξ = (ω, v)``.

    ``scipy.linalg.expm(se3_hat(xi))`` is :func:`se3_exp` (``xi``) by the matrix series.
    """
    xi = _twist(xi)
    M = np.zeros((4, 4))
    M[:3, :3] = so3._hat(xi[:3])
    M[:3, 3] = xi[3:]
    return M


def _c_coefficient(theta: float) -> float:
    """``c = (θ - sin θ)/θ³``; the series ``1/6 - θ²/120 + θ⁴/5040`` below ``_SMALL_ANGLE``.

    The closed form subtracts two numbers that agree to ``θ²/6`` relative: at θ = 1e-6 it
    keeps about 4 digits, at θ = 1e-9 none.
    """
    if theta < _SMALL_ANGLE:
        t2 = theta * theta
        return 1.0 / 6.0 - t2 / 120.0 + t2 * t2 / 5040.0
    return (theta - math.sin(theta)) / theta**3


def se3_exp(xi) -> np.ndarray:
    """``Exp(ξ) = [[Exp(ω), V(ω) v], [0, 1]]`` for a twist ``ξ = (ω, v)`` (shape (6,)).

    ``V(ω) v = v + b ω×v + c ω×(ω×v)`` with ``b = (1 - cos θ)/θ²``, ``c = (θ - sin θ)/θ³``
    (Lynch & Park 2017, sec. 3.3.3, with the angle folded into ``ω``).  Accurate to rounding at
    every angle: the rotation is :func:`robonum.lie.so3.exp`, and ``b``, ``c`` come from their
    series near θ = 0.  ``|ω_i| <= 1e6`` rad and ``|v_i| <= 1e100``.
    """
    xi = _twist(xi)
    w, v = xi[:3], xi[3:]
    theta = float(np.sqrt(w @ w))
    _, b = so3._rodrigues_coefficients(theta)
    W = so3._hat(w)
    wv = W @ v
    T = np.eye(4)
    T[:3, :3] = so3._exp(w)
    T[:3, 3] = v + b * wv + _c_coefficient(theta) * (W @ wv)
    return T


def _frame(T) -> np.ndarray:
    T = check.real_array("T", T)
    if T.shape != (4, 4):
        raise ValueError(f"T must have shape (4, 4), got {T.shape}")
    dev = float(np.max(np.abs(T[3] - np.array([0.0, 0.0, 0.0, 1.0]))))
    if dev > FRAME_TOL:
        raise ValueError(
            f"T must have bottom row [0, 0, 0, 1] (within {FRAME_TOL:g}), got {T[3].tolist()}"
        )
    p_max = float(np.max(np.abs(T[:3, 3])))
    if p_max > MAX_TRANSLATION:
        raise ValueError(
            f"T[:3, 3] (the translation) must have entries |x| <= {MAX_TRANSLATION:g}, "
            f"got {p_max:.3g}"
        )
    so3._require_rotation("T[:3, :3]", T[:3, :3], FRAME_TOL)
    return T


def se3_log(T) -> np.ndarray:
    """The twist ``ξ = (ω, v)`` with ``Exp(ξ) = T``, ``|ω| ∈ [0, π]``.

    ``ω = Log(R)`` by :func:`robonum.lie.so3.log` (``θ`` from ``atan2``, accurate at every
    angle), then ``v = V(ω)⁻¹ p = p - ½ ω×p + d ω×(ω×p)`` with
    ``d = (1 - (θ/2) cot(θ/2))/θ²`` (its series ``1/12 + θ²/720 + …`` near 0), which is
    :func:`robonum.lie.so3.dexp_inv` at ``-ω``.  No ``1/θ`` or ``1/sin θ`` appears, so a pure
    translation (θ = 0) and θ = 1e-12 need no special case.  ``T`` is a 4×4 homogeneous
    matrix: finite, bottom row ``[0, 0, 0, 1]`` and ``RᵀR = I`` within ``FRAME_TOL`` = 1e-6,
    ``det R > 0``, ``|p_i| <= 1e100``.
    """
    T = _frame(T)
    w = so3.log(T[:3, :3])
    return np.concatenate([w, so3.dexp_inv(-w, T[:3, 3])])
