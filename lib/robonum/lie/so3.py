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

_SMALL_ANGLE = 1e-4  # below it the Taylor series of the coefficients is used
_NEAR_PI_COS = -0.7  # cos θ below it: take the axis from the symmetric part


_ROTATION_TOL = 1e-6  # log() accepts R with max|RᵀR - I| below this (and det R > 0)
MAX_ANGLE_RATE = 1e6  # |ω| in rad per unit time; beyond it exp/integration lose all meaning


def _vec3(name, w) -> np.ndarray:
    w = check.real_array(name, w)
    if w.shape != (3,):
        raise ValueError(f"{name} must have shape (3,), got {w.shape}")
    return w


def _rate(name, w) -> np.ndarray:
    """An angular velocity: shape (3,), every |w_i| <= MAX_ANGLE_RATE (so h|w| stays finite)."""
    w = _vec3(name, w)
    if float(np.max(np.abs(w))) > MAX_ANGLE_RATE:
        raise ValueError(f"{name} must have |{name}_i| <= {MAX_ANGLE_RATE:g} rad per unit time")
    return w


def _mat3(name, R, hi: float | None = None) -> np.ndarray:
    """A finite (3, 3) float array; ``hi`` bounds its entries where products must not overflow."""
    R = check.real_array(name, R)
    if R.shape != (3, 3):
        raise ValueError(f"{name} must have shape (3, 3), got {R.shape}")
    if hi is not None and float(np.max(np.abs(R))) > hi:
        raise ValueError(f"{name} must have entries |x| <= {hi:g} (a rotation's are at most 1)")
    return R


MAX_MATRIX_ENTRY = (
    1e100  # a matrix to orthonormalise: far above any rotation, and R^T R stays finite
)


def hat(w) -> np.ndarray:
    """``[ω]× = [[0, -ω3, ω2], [ω3, 0, -ω1], [-ω2, ω1, 0]]``, so ``[ω]× v = ω × v``."""
    return _hat(_vec3("w", w))


def _require_rotation(name: str, R: np.ndarray, tol: float) -> None:
    """A ``ValueError`` naming ``name`` unless ``max|RᵀR - I| <= tol`` and ``det R > 0``.

    A reflection (``det R = -1``) is orthogonal too, and ``log`` would return nonsense for it.
    """
    err, det = float(np.max(np.abs(R.T @ R - np.eye(3)))), float(np.linalg.det(R))
    if err > tol or det <= 0:
        raise ValueError(
            f"{name} must be a rotation matrix (RᵀR = I within {tol:g}, det R = +1); "
            f"got max|RᵀR - I| = {err:.3g}, det R = {det:.3g} "
            "(project it first, e.g. with robonum.lie.polar)"
        )


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
    if float(np.max(np.abs(w))) > 1e6:  # checked before squaring: |w|^2 could overflow
        raise ValueError(
            f"w must have |w| <= 1e6 rad (an angle that large has no digits left "
            f"modulo 2π), got max|w_i| = {np.max(np.abs(w)):.3g}"
        )
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
    _require_rotation("R", R, _ROTATION_TOL)
    v = vee(R)  # = sin θ · u for a rotation
    s, c = float(np.linalg.norm(v)), 0.5 * (np.trace(R) - 1.0)
    theta = float(np.arctan2(s, c))
    if c >= _NEAR_PI_COS:
        a, _ = _rodrigues_coefficients(theta)
        return v / a  # v / (sin θ/θ) = θ u
    uu = (0.5 * (R + R.T) - c * np.eye(3)) / (1.0 - c)  # u uᵀ
    j = int(np.argmax(np.diag(uu)))
    u = uu[:, j] / np.sqrt(uu[j, j])
    if u @ v < 0:  # sin θ >= 0 fixes the sign of the axis
        u = -u
    return theta * u / np.linalg.norm(u)


def orthogonality_error(R) -> float:
    """``max_ij |(RᵀR - I)_ij|``, the largest entry in magnitude (the printed chapter's measure).

    For ``R`` near a rotation it is within a factor 3 of the spectral norm.
    """
    R = _mat3("R", R)
    with np.errstate(over="ignore", invalid="ignore"):  # entries beyond 1e154: inf, honestly
        return float(np.max(np.abs(R.T @ R - np.eye(3))))


# Coefficients B_k/k! (-1)^k of dexp⁻¹ = Σ_k B_k/k! (-ad_u)^k, k = 0..8 (Bernoulli numbers B_k;
# B_3 = B_5 = B_7 = 0).  Iserles, Munthe-Kaas, Nørsett & Zanna (2000), sec. 2.5 / eq. (3.6).
_DEXPINV_SERIES = (
    1.0,
    0.5,
    1.0 / 12.0,
    0.0,
    -1.0 / 720.0,
    0.0,
    1.0 / 30240.0,
    0.0,
    -1.0 / 1209600.0,
)
MAX_DEXPINV_TERMS = len(_DEXPINV_SERIES) - 1


def dexp_inv(u, v, terms: int | None = None) -> np.ndarray:
    """``dexp⁻¹_u(v)`` for the body-frame (right-trivialised) exponential: ``u̇ = dexp⁻¹_u(ω)``.

    If ``R(t) = R₀ Exp(u(t))`` solves ``Ṙ = R [ω]×``, then ``u̇ = J_r(u)⁻¹ ω``, the inverse
    right Jacobian of SO(3) (Solà et al. 2018, eq. 144):

        ``J_r⁻¹(u) v = v + ½ u×v + c(θ) u×(u×v)``,  ``c(θ) = (1 - (θ/2) cot(θ/2)) / θ²``,  ``θ = |u|``.

    Its series is ``Σ_k B_k/k! (-ad_u)^k v = v + ½ u×v + (1/12) u×(u×v) - (1/720) ad_u⁴ v + …``
    (``ad_u v = u × v``; Bernoulli numbers).  ``terms=None`` uses the closed form
    (needs ``|u| < 2π``); ``terms=k`` (0..8) keeps ``ad_u^j`` for ``j <= k``, as Runge-Kutta-Munthe-Kaas
    methods do (Munthe-Kaas 1999: order ``p`` needs ``j <= p - 2``, and the ``j = 3`` term is 0).
    """
    u, v = _vec3("u", u), _vec3("v", v)
    if terms is not None:
        terms = check.integer("terms", terms, 0, MAX_DEXPINV_TERMS)
        if float(np.max(np.abs(u))) > MAX_ANGLE_RATE:
            raise ValueError(
                f"u must have |u_i| <= {MAX_ANGLE_RATE:g}, got {np.max(np.abs(u)):.3g}"
            )
        return _dexp_inv_series(u, v, terms)
    theta = float(np.sqrt(u @ u))
    if not theta < 2 * np.pi - 1e-6:
        raise ValueError(
            f"u must have |u| < 2π for the closed form of dexp⁻¹ (it is singular at 2π), "
            f"got |u| = {theta:.6g}; use terms=k for the truncated series"
        )
    return _dexp_inv_exact(u, v, theta)


def _dexp_inv_exact(u, v, theta):
    if theta < 1e-3:  # series of c(θ): truncation θ⁶/1209600 < 1e-24
        t2 = theta * theta
        c = 1.0 / 12.0 + t2 / 720.0 + t2 * t2 / 30240.0
    else:
        half = 0.5 * theta
        c = (1.0 - half * math.cos(half) / math.sin(half)) / (theta * theta)
    W = _hat(u)  # W v = u × v (np.cross is ~20x slower on 3-vectors)
    uv = W @ v
    return v + 0.5 * uv + c * (W @ uv)


def _dexp_inv_series(u, v, terms):
    """``Σ_{j<=terms} B_j/j! (-ad_u)^j v`` with ``ad_u v = u × v`` (no input checks)."""
    out, t, W = v.copy(), v, _hat(u)
    for j in range(1, terms + 1):
        t = W @ t
        if _DEXPINV_SERIES[j]:
            out = out + _DEXPINV_SERIES[j] * t
    return out
