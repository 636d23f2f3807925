"""Integrating the attitude ``Ṙ = R [ω]×`` (body-frame angular velocity ω).

Five ways, compared in seed 1.18 ④ (the first four) and the text:

``"euler"``        ``R ← R + h R[ω]×``: the matrix entries as an ODE (forward Euler);
``"euler_gs"``     the same, then Gram-Schmidt on the columns (1, 2, 3 in order);
``"euler_polar"``  the same, then the polar factor ``U Vᵀ`` (nearest rotation);
``"rk4"``          classical RK4 on the 9 entries;
``"exp"``          ``R ← R Exp(h ω)``, the Lie-group (exponential-map) step.

All of them run through robonum's one fixed-step loop (:func:`robonum.fixed.march`)
on the state ``vec(R)`` (9 entries, row-major); ``"euler"`` and ``"rk4"`` are
the library's own ``ExplicitRK`` with the catalogue tableaux.  The result is
a :class:`robonum.Solution` with layout ``"so3"`` (``sol.R`` has shape
``(len(t), 3, 3)``).  For a time-varying ω the ``"exp"`` step uses
``ω(t + h/2)`` (second order; exact for constant ω).
Reference: Hairer, Lubich & Wanner, *Geometric Numerical Integration*,
sec. IV.8 (Lie group methods); Murray, Li & Sastry, sec. 2.2.
"""
from __future__ import annotations

import numpy as np

from .. import _validate as check
from ..fixed import equal_steps, march
from ..problem import ODEProblem
from ..steppers import ExplicitRK, Stepper
from . import so3

METHODS = ("euler", "euler_gs", "euler_polar", "rk4", "exp")
MAX_ROTATION_STEPS = 200_000     # ~15 µs per exp step: a few seconds


def orthogonality_errors(R) -> np.ndarray:
    """``max_ij |(RᵀR - I)_ij|`` for each matrix of a stack of shape ``(m, 3, 3)``."""
    R = check.real_array("R", R, finite=False)
    if R.ndim != 3 or R.shape[1:] != (3, 3):
        raise ValueError(f"R must have shape (m, 3, 3), got {R.shape}")
    E = np.einsum("kji,kjl->kil", R, R) - np.eye(3)
    return np.max(np.abs(E), axis=(1, 2))


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
        if not norm > 1e-12:
            raise ValueError("M must have linearly independent, finite columns for Gram-Schmidt")
        Q[:, j] /= norm
    return Q


def polar(M) -> np.ndarray:
    """The orthogonal polar factor ``U Vᵀ`` of ``M = U Σ Vᵀ``: the rotation nearest
    to ``M`` in the Frobenius norm (for ``det M > 0``; Higham, *Functions of
    Matrices*, sec. 8.1)."""
    M = so3._mat3("M", M)
    if not np.linalg.det(M) > 0:
        raise ValueError(f"M must have det M > 0 to be near a rotation, got det M = {np.linalg.det(M):.3g}")
    return _polar(M)


def _polar(M):
    U, _, Vt = np.linalg.svd(M)
    return U @ Vt


def _omega_fn(omega):
    """``ω(t)`` from a constant 3-vector or a callable, with its output checked."""
    if callable(omega):
        return lambda t: so3._vec3("omega(t)", omega(t))
    w = so3._vec3("omega", omega)
    if float(np.max(np.abs(w))) > so3.MAX_ANGLE_RATE:
        raise ValueError(f"omega must have |omega_i| <= {so3.MAX_ANGLE_RATE:g} rad per unit time, "
                         f"got {np.max(np.abs(w)):.3g}")
    return lambda t: w


class _RotationStep(Stepper):
    """``"exp"``, ``"euler_gs"`` and ``"euler_polar"``: one step on the 9-vector ``vec(R)``."""

    def __init__(self, method, w_of_t):
        self.method, self.w = method, w_of_t
        self.name = {"exp": "exponential map", "euler_gs": "Euler + Gram-Schmidt",
                     "euler_polar": "Euler + polar"}[method]
        self.order = 1 if method != "exp" else 2

    def init(self, work, t0, y0, h):
        return None

    def step(self, work, t, y, h, state):
        R = y.reshape(3, 3)
        if self.method == "exp":
            work.nfev += 1                     # one evaluation of ω
            R_new = R @ so3._exp(h * self.w(t + 0.5 * h))
        else:
            work.nfev += 1
            M = R + h * (R @ so3._hat(self.w(t)))
            if not np.isfinite(M).all():
                return M.ravel(), None, state  # the driver reports the divergence
            R_new = _gram_schmidt(M) if self.method == "euler_gs" else _polar(M)
        return R_new.ravel(), None, state


def integrate_rotation(R0, omega, t_span, h: float, method: str = "exp", *,
                       save_every: int = 1, blowup: float = 1e8):
    """Integrate ``Ṙ = R [ω(t)]×`` from ``R(t0) = R0`` in equal steps of at most ``h``.

    Parameters
    ----------
    R0 : (3, 3) array -- initial attitude (used as given, even if not exactly orthogonal).
    omega : 3-vector or callable ``omega(t) -> 3-vector`` -- body-frame angular velocity.
    t_span : (t0, t1); h : largest step (the run uses ``(t1-t0)/ceil((t1-t0)/h)``, see ``sol.h``).
    method : one of ``METHODS``; save_every, blowup : as for :func:`robonum.integrate`.
    Returns a :class:`robonum.Solution` with ``layout = "so3"``; a run whose matrices
    blow up (matrix Euler with a large ``h``) stops with ``reason = "diverged"``.
    Example: ``integrate_rotation(np.eye(3), [0.3, -0.5, 0.8], (0, 100), 0.01, "euler")``.
    """
    R0 = so3._mat3("R0", R0)
    check.one_of("method", method, METHODS)
    t_span = check.interval("t_span", t_span)
    h = check.positive("h", h)
    w_of_t = _omega_fn(omega)
    n, h_used = equal_steps(t_span, h, MAX_ROTATION_STEPS, "integrate_rotation")
    save_every = check.integer("save_every", save_every, 1, n)

    def f(t, y):
        return (y.reshape(3, 3) @ so3._hat(w_of_t(t))).ravel()

    exact = None
    if not callable(omega):
        w = w_of_t(0.0)
        exact = lambda t: (R0 @ so3._exp((t - t_span[0]) * w)).ravel()   # noqa: E731
    problem = ODEProblem(f, R0.ravel(), t_span, exact=exact, name="attitude")
    stepper = ExplicitRK(method) if method in ("euler", "rk4") else _RotationStep(method, w_of_t)
    sol = march(problem, stepper, n, h_used, save_every=save_every, blowup=blowup)
    sol.layout = "so3"
    return sol


def exact_rotation(R0, omega, t) -> np.ndarray:
    """``R(t) = R0 Exp(t ω)`` for constant ω, at every ``t`` (shape ``(len(t), 3, 3)``)."""
    R0, w = so3._mat3("R0", R0), so3._vec3("omega", omega)
    t = check.real_array("t", t, ndim=1, max_size=1_000_000)
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
    h = check.positive("h", h, hi=1e6)
    n = check.integer("n", n, 0, 10**12)
    w2 = float(w @ w)
    if w2 == 0.0:
        return 0.0
    growth = np.expm1(n * np.log1p(h * h * w2))
    return float(growth * np.max(1.0 - w * w / w2))
