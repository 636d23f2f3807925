"""Integrating the attitude ``Ṙ = R [ω]×`` (body-frame angular velocity ω).

Five ways, compared in seed 003 ④ (the first four) and the text:

``"euler"``        ``R ← R + h R[ω]×``: the matrix entries as an ODE (forward Euler);
``"euler_gs"``     the same, then Gram-Schmidt on the columns (1, 2, 3 in order);
``"euler_polar"``  the same, then the polar factor ``U Vᵀ`` (nearest rotation);
``"rk4"``          classical RK4 on the 9 entries;
``"exp"``          ``R ← R Exp(h ω)``, the Lie-group (exponential-map) step.

``"euler"`` and ``"rk4"`` run the library's own ``ExplicitRK`` stepper with
the tableaux of :mod:`robonum.methods` on ``vec(R)``.  For a time-varying ω
the ``"exp"`` step uses ``ω(t + h/2)`` (second order; exact for constant ω).
Reference: Hairer, Lubich & Wanner, *Geometric Numerical Integration*,
sec. IV.8 (Lie group methods); Murray, Li & Sastry, sec. 2.2.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _validate as check
from .. import methods
from ..problem import ODEProblem, Work
from ..steppers import ExplicitRK
from . import so3

METHODS = ("euler", "euler_gs", "euler_polar", "rk4", "exp")


@dataclass
class RotationTrajectory:
    """Attitudes ``R`` of shape ``(len(t), 3, 3)`` from :func:`integrate_rotation`."""

    t: np.ndarray
    R: np.ndarray
    method: str
    h: float
    nsteps: int

    def orthogonality_error(self) -> np.ndarray:
        """``max_ij |(RᵀR - I)_ij|`` at every saved time."""
        E = np.einsum("kji,kjl->kil", self.R, self.R) - np.eye(3)
        return np.max(np.abs(E), axis=(1, 2))

    def distance_to(self, R_ref) -> np.ndarray:
        """``max_ij |(R - R_ref)_ij|`` at every saved time (``R_ref`` like ``self.R``)."""
        R_ref = np.asarray(R_ref, dtype=float)
        if R_ref.shape != self.R.shape:
            raise ValueError(f"R_ref must have shape {self.R.shape}, got {R_ref.shape}")
        return np.max(np.abs(self.R - R_ref), axis=(1, 2))


def gram_schmidt(M) -> np.ndarray:
    """Orthonormalise the columns of ``M`` in order (modified Gram-Schmidt).

    ``q1 = m1/|m1|``, ``q2 ∝ m2 - (q1·m2) q1``, ``q3 ∝ m3 - (q1·m3) q1 - (q2·m3) q2``.
    The first column keeps its direction, so the result depends on the
    column order -- unlike :func:`polar`.
    """
    return _gram_schmidt(so3._mat3("M", M).copy())


def _gram_schmidt(Q):
    """In-place modified Gram-Schmidt on the columns of ``Q`` (no input checks)."""
    for j in range(3):
        for i in range(j):
            Q[:, j] -= (Q[:, i] @ Q[:, j]) * Q[:, i]
        norm = np.linalg.norm(Q[:, j])
        if norm < 1e-12:
            raise ValueError("M must have linearly independent columns for Gram-Schmidt")
        Q[:, j] /= norm
    return Q


def polar(M) -> np.ndarray:
    """The orthogonal polar factor ``U Vᵀ`` of ``M = U Σ Vᵀ``: the rotation nearest
    to ``M`` in the Frobenius norm (for ``det M > 0``; Higham, *Functions of
    Matrices*, sec. 8.1)."""
    return _polar(so3._mat3("M", M))


def _polar(M):
    U, _, Vt = np.linalg.svd(M)
    return U @ Vt


def _omega_fn(omega):
    """``ω(t)`` from a constant 3-vector or a callable, with its output checked."""
    if callable(omega):
        return lambda t: so3._vec3("omega(t)", omega(t))
    w = so3._vec3("omega", omega)
    return lambda t: w


def _rk_stepper(method, w_of_t, R0, t_end):
    """The generic explicit RK stepper on ``vec(R)`` with ``f = vec(R [ω(t)]×)``."""
    def f(t, y):
        return (y.reshape(3, 3) @ so3._hat(w_of_t(t))).ravel()
    work = Work(ODEProblem(f, R0.ravel(), (0.0, t_end), name="attitude"))
    stepper = ExplicitRK(methods.get(method))
    return lambda t, R, h: stepper.step(work, t, R.ravel(), h, None)[0].reshape(3, 3)


def _step_function(method, w_of_t, R0, t_end):
    if method in ("euler", "rk4"):
        return _rk_stepper(method, w_of_t, R0, t_end)
    if method == "exp":
        return lambda t, R, h: R @ so3._exp(h * w_of_t(t + 0.5 * h))
    fix = _gram_schmidt if method == "euler_gs" else _polar
    return lambda t, R, h: fix(R + h * (R @ so3._hat(w_of_t(t))))


def integrate_rotation(R0, omega, h: float, n_steps: int, method: str = "exp", *,
                       save_every: int = 1) -> RotationTrajectory:
    """Integrate ``Ṙ = R [ω(t)]×`` from ``R(0) = R0`` with ``n_steps`` steps of size ``h``.

    Parameters
    ----------
    R0 : (3, 3) array
        Initial attitude (need not be exactly orthogonal; it is used as given).
    omega : 3-vector or callable ``omega(t) -> 3-vector``
        Body-frame angular velocity (rad per unit time).
    h : float > 0
    n_steps : int >= 1
    method : one of ``METHODS``
    save_every : int >= 1
        Keep every ``save_every``-th step (and always the last).
    Example: ``integrate_rotation(np.eye(3), [0.3, -0.5, 0.8], 0.01, 10_000, "euler")``.
    """
    R = so3._mat3("R0", R0)
    check.one_of("method", method, METHODS)
    h = check.positive("h", h)
    n_steps = check.integer("n_steps", n_steps, 1, 10_000_000)
    save_every = check.integer("save_every", save_every, 1)
    step = _step_function(method, _omega_fn(omega), R, n_steps * h)
    ts, Rs = [0.0], [R]
    for k in range(1, n_steps + 1):
        R = step((k - 1) * h, R, h)
        if k % save_every == 0 or k == n_steps:
            ts.append(k * h)
            Rs.append(R)
    return RotationTrajectory(t=np.array(ts), R=np.array(Rs), method=method, h=h, nsteps=n_steps)


def exact_rotation(R0, omega, t) -> np.ndarray:
    """``R(t) = R0 Exp(t ω)`` for constant ω, at every ``t`` (shape ``(len(t), 3, 3)``)."""
    R0, w = so3._mat3("R0", R0), so3._vec3("omega", omega)
    t = np.atleast_1d(np.asarray(t, dtype=float))
    return np.array([R0 @ so3.exp(tk * w) for tk in t])


def euler_orthogonality_prediction(omega, h: float, n: int) -> float:
    """Predicted ``max_ij |(RₙᵀRₙ - I)_ij|`` of ``n`` matrix-Euler steps, constant ω.

    Derivation: ``Rₙ = R0 (I + hΩ)ⁿ`` with ``Ω = [ω]×``; since ``Ωᵀ = -Ω``
    commutes with ``Ω``, ``RₙᵀRₙ = (I - h²Ω²)ⁿ`` and ``Ω² = ωωᵀ - |ω|² I``.
    ``I - h²Ω²`` is 1 on ``ω̂`` and ``1 + h²|ω|²`` on the plane ⟂ ``ω̂``, so
    ``RₙᵀRₙ - I = ((1 + h²|ω|²)ⁿ - 1)(I - ω̂ω̂ᵀ)``, whatever the orthogonal ``R0``.
    The largest entry of ``I - ω̂ω̂ᵀ`` is on the diagonal (``max_i 1 - ω̂_i² >= 2/3``
    beats ``|ω̂_i ω̂_j| <= 1/2``), hence ``((1 + h²|ω|²)ⁿ - 1) max_i (1 - ω̂_i²)``.
    """
    w = so3._vec3("omega", omega)
    h = check.positive("h", h)
    n = check.integer("n", n, 0)
    w2 = float(w @ w)
    if w2 == 0.0:
        return 0.0
    growth = np.expm1(n * np.log1p(h * h * w2))
    return float(growth * np.max(1.0 - w * w / w2))
