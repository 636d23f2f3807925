"""The rotation group SO(3): ``hat``/``vee``, ``exp``/``log`` and the orthogonality error.

Conventions: ``hat(ω) = [ω]×`` is the skew matrix with ``[ω]× v = ω × v``;
``exp(ω) = Exp(ω)`` maps a rotation vector (axis ``ω/|ω|``, angle ``θ = |ω|``)
to a rotation matrix by Rodrigues' formula; ``log`` is its inverse on
``θ ∈ [0, π]``.  References: Murray, Li & Sastry, *A Mathematical
Introduction to Robotic Manipulation*, sec. 2.2; Solà, Deray & Atchuthan,
"A micro Lie theory for state estimation in robotics" (2018), sec. 4 / app. B.
"""
from __future__ import annotations

import math

import numpy as np

from .. import _validate as check

_SMALL_ANGLE = 1e-4   # below it the Taylor series of the coefficients is used
_NEAR_PI_COS = -0.7   # cos θ below it: take the axis from the symmetric part


_ROTATION_TOL = 1e-6   # log() accepts R with max|RᵀR - I| below this (and det R > 0)
MAX_ANGLE_RATE = 1e6   # |ω| in rad per unit time; beyond it exp/integration lose all meaning


def _vec3(name, w) -> np.ndarray:
    w = check.real_array(name, w)
    if w.shape != (3,):
        raise ValueError(f"{name} must have shape (3,), got {w.shape}")
    return w


def _mat3(name, R) -> np.ndarray:
    R = check.real_array(name, R)
    if R.shape != (3, 3):
        raise ValueError(f"{name} must have shape (3, 3), got {R.shape}")
    return R


def hat(w) -> np.ndarray:
    """``[ω]× = [[0, -ω3, ω2], [ω3, 0, -ω1], [-ω2, ω1, 0]]``, so ``[ω]× v = ω × v``."""
    return _hat(_vec3("w", w))


def _hat(w):
    x, y, z = w
    return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])


def vee(W) -> np.ndarray:
    """Inverse of :func:`hat`: ``(W32, W13, W21)`` of a skew matrix ``W``.

    Only the skew part is read, ``vee(W) = vee((W - Wᵀ)/2)``.
    """
    W = _mat3("W", W)
    return 0.5 * np.array([W[2, 1] - W[1, 2], W[0, 2] - W[2, 0], W[1, 0] - W[0, 1]])


def _rodrigues_coefficients(theta: float) -> tuple[float, float]:
    """``a = sin θ / θ`` and ``b = (1 - cos θ)/θ²``.

    ``b`` is evaluated as ``2 sin²(θ/2)/θ²``: the textbook ``1 - cos θ``
    cancels catastrophically for small θ.  Below ``_SMALL_ANGLE`` the Taylor
    series (truncation ~θ⁶/5040 < 1e-27) also avoids 0/0 at θ = 0.
    """
    if theta < _SMALL_ANGLE:
        t2 = theta * theta
        return 1.0 - t2 / 6.0 + t2 * t2 / 120.0, 0.5 - t2 / 24.0 + t2 * t2 / 720.0
    s = math.sin(0.5 * theta) / theta
    return math.sin(theta) / theta, 2.0 * s * s


def exp(w) -> np.ndarray:
    """``Exp(ω) = I + a [ω]× + b [ω]×²`` with ``a = sin θ/θ``, ``b = (1-cos θ)/θ²``, ``θ = |ω|``.

    Rodrigues' formula (Murray-Li-Sastry sec. 2.2); exact
    to rounding for every θ, including θ ~ 1e-8 (Taylor branch).
    """
    w = _vec3("w", w)
    if float(np.max(np.abs(w))) > 1e6:      # checked before squaring: |w|^2 could overflow
        raise ValueError(f"w must have |w| <= 1e6 rad (an angle that large has no digits left "
                         f"modulo 2π), got max|w_i| = {np.max(np.abs(w)):.3g}")
    return _exp(w)


def _exp(w):
    """:func:`exp` without input checks, for the inner loops of the integrators."""
    a, b = _rodrigues_coefficients(float(np.sqrt(w @ w)))
    W = _hat(w)
    return np.eye(3) + a * W + b * (W @ W)


def log(R) -> np.ndarray:
    """Rotation vector ``ω`` (``|ω| ∈ [0, π]``) with ``Exp(ω) = R``.

    ``θ = atan2(|vee(R - Rᵀ)|, tr R - 1)`` is well conditioned for every angle
    (``arccos`` is not near 0 and π).  The axis comes from ``vee(R - Rᵀ) =
    2 sin θ u`` except near θ = π, where ``sin θ → 0``; there it comes from
    the symmetric part ``(R + Rᵀ)/2 = cos θ I + (1 - cos θ) u uᵀ``.
    """
    R = _mat3("R", R)
    err, det = float(np.max(np.abs(R.T @ R - np.eye(3)))), float(np.linalg.det(R))
    if err > _ROTATION_TOL or det <= 0:
        raise ValueError(f"R must be a rotation matrix (RᵀR = I within {_ROTATION_TOL:g}, det R = +1); "
                         f"got max|RᵀR - I| = {err:.3g}, det R = {det:.3g} "
                         "(project it first, e.g. with robonum.lie.polar)")
    v = vee(R)                           # = sin θ · u for a rotation
    s, c = float(np.linalg.norm(v)), 0.5 * (np.trace(R) - 1.0)
    theta = float(np.arctan2(s, c))
    if c >= _NEAR_PI_COS:
        a, _ = _rodrigues_coefficients(theta)
        return v / a                      # v / (sin θ/θ) = θ u
    uu = (0.5 * (R + R.T) - c * np.eye(3)) / (1.0 - c)   # u uᵀ
    j = int(np.argmax(np.diag(uu)))
    u = uu[:, j] / np.sqrt(uu[j, j])
    if u @ v < 0:                         # sin θ >= 0 fixes the sign of the axis
        u = -u
    return theta * u / np.linalg.norm(u)


def orthogonality_error(R) -> float:
    """``max_ij |(RᵀR - I)_ij|``, the largest entry in magnitude (the seed's measure).

    For ``R`` near a rotation it is within a factor 3 of the spectral norm.
    """
    R = _mat3("R", R)
    return float(np.max(np.abs(R.T @ R - np.eye(3))))
