"""Integrating the attitude ``Ṙ = R [ω]×`` (body-frame angular velocity ω), and measuring the result.

The printed chapter 1.18 ④ compares four ways for a constant ω; the book adds more (``METHODS``):

``"euler"``        ``R ← R + h R[ω]×``: the matrix entries as an ODE (forward Euler);
``"euler_gs"``     the same, then Gram-Schmidt on the columns (1, 2, 3 in order);
``"euler_polar"``  the same, then the polar factor ``U Vᵀ`` (nearest rotation);
``"rk4"``          classical RK4 on the 9 entries;  ``"rk4_polar"`` then the polar factor;
``"exp"``          ``R ← R Exp(h ω(t + h/2))``, the exponential-map step (exact for constant ω);
``"lie_euler"``    ``R ← R Exp(h ω(t, R))``, order 1;
``"rkmk4"``        Runge-Kutta-Munthe-Kaas with the RK4 tableau, order 4;
``"cg3"``          Crouch-Grossman, order 3.

All of them run through robonum's one step loop (:func:`robonum.loop.run`, equal steps)
on the state ``vec(R)`` (9 entries, row-major) of an :class:`AttitudeProblem`; the
steppers are built from tableaux in :mod:`robonum.lie.group_methods`.  The result is a
:class:`robonum.Solution` with layout ``"so3"`` (``sol.R`` has shape ``(len(t), 3, 3)``).
Reference: Hairer, Lubich & Wanner, *Geometric Numerical Integration*,
sec. IV.8 (Lie group methods); Murray, Li & Sastry, sec. 2.2.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .. import _validate as check
from .. import methods
from ..loop import run
from ..policy import EqualSteps, equal_steps
from . import group_methods, so3
from .attitude import AttitudeProblem
from .projection import _polar

METHODS = tuple(group_methods.METHODS)
MAX_ROTATION_STEPS = 200_000  # ~15 µs per exp step, ~80 µs per RKMK4 step: seconds


def orthogonality_errors(R) -> np.ndarray:
    """``max_ij |(RᵀR - I)_ij|`` for each matrix of a stack of shape ``(m, 3, 3)``.

    A matrix with a non-finite entry (the last point of a diverged run) is ``inf``, not NaN.
    """
    R = _stack("R", R)
    finite = np.isfinite(R).all(axis=(1, 2))
    with np.errstate(invalid="ignore", over="ignore"):
        E = np.einsum("kji,kjl->kil", R, R) - np.eye(3)
        return np.where(finite, np.max(np.abs(E), axis=(1, 2)), np.inf)


def angle_errors(R, R_ref) -> np.ndarray:
    """Rotation angle (rad) between ``polar(R_k)`` and ``R_ref_k``, for stacks of shape ``(m, 3, 3)``.

    ``θ = atan2(|vee(M)|, (tr M - 1)/2)`` with ``M = R_refᵀ polar(R)`` -- the geodesic
    distance on SO(3), well conditioned at every angle.  The polar factor makes it
    meaningful for a matrix that drifted off SO(3) (its rotation part); for a
    rotation ``polar(R) = R`` to rounding.
    """
    R, R_ref = _stack("R", R), _stack("R_ref", R_ref)
    if R.shape != R_ref.shape:
        raise ValueError(f"R and R_ref must have the same shape, got {R.shape} and {R_ref.shape}")
    if not (np.isfinite(R).all() and np.isfinite(R_ref).all()):
        raise ValueError("R and R_ref must contain only finite values")
    for name, A in (("R", R), ("R_ref", R_ref)):
        if A.size and float(np.max(np.abs(A))) > so3.MAX_MATRIX_ENTRY:
            raise ValueError(f"{name} must have entries |x| <= {so3.MAX_MATRIX_ENTRY:g}")
    out = np.empty(len(R))
    for k, (A, B) in enumerate(zip(R, R_ref)):
        if not np.linalg.det(A) > 0:
            raise ValueError(
                f"R[{k}] must have det > 0 to have a rotation part, got {np.linalg.det(A):.3g}"
            )
        M = B.T @ _polar(A)
        out[k] = np.arctan2(np.linalg.norm(so3.vee(M)), 0.5 * (np.trace(M) - 1.0))
    return out


def _stack(name, R):
    R = check.real_array(name, R, finite=False, max_size=9 * 10**6)
    if R.ndim != 3 or R.shape[1:] != (3, 3):
        raise ValueError(f"{name} must have shape (m, 3, 3), got {R.shape}")
    return R


def integrate_rotation(
    R0,
    omega,
    t_span,
    h: float,
    method="exp",
    *,
    state_dependent: bool = False,
    save_every: int = 1,
    blowup: float = 1e8,
):
    """Integrate ``Ṙ = R [ω]×`` from ``R(t0) = R0`` in equal steps of at most ``h``.

    Parameters
    ----------
    R0 : (3, 3) array -- initial attitude (used as given, even if not exactly orthogonal).
    omega : 3-vector, callable ``omega(t)``, or with ``state_dependent=True`` callable
        ``omega(t, R)`` -- the body-frame angular velocity (see :class:`AttitudeProblem`).
    t_span : (t0, t1); h : largest step (the run uses ``(t1-t0)/ceil((t1-t0)/h)``, see ``sol.h``).
    method : a name in ``METHODS`` or a stepper from :mod:`robonum.lie.group_methods`
        (e.g. ``lie.RKMK("rk4", dexpinv_terms=0)``).
    save_every, blowup : as for :func:`robonum.integrate`.
    Returns a :class:`robonum.Solution` with ``layout = "so3"`` (``sol.R``); a run whose
    matrices blow up (matrix Euler with a large ``h``) stops with ``reason = "diverged"``.
    Example: ``integrate_rotation(np.eye(3), [0.3, -0.5, 0.8], (0, 100), 0.01, "euler")``.
    """
    R0 = so3._mat3("R0", R0)
    step = group_methods.stepper(method)
    t_span = check.interval("t_span", t_span)
    h = check.positive("h", h)
    n, h_used = equal_steps(t_span, h, MAX_ROTATION_STEPS, "integrate_rotation")
    save_every = check.integer("save_every", save_every, 1, n)
    problem = AttitudeProblem(omega, R0, t_span, state_dependent=state_dependent)
    return run(problem, step, EqualSteps(n, h_used, save_every), blowup=blowup)


def integrate_attitude(
    problem: AttitudeProblem, method, h: float, *, save_every: int = 1, blowup: float = 1e8
):
    """A thin wrapper: ``rn.integrate(problem, lie.stepper(method), h)`` for an
    :class:`AttitudeProblem` (``coning()``, ``FreeRigidBody``), with the rotation
    integrators' step cap and method names; ``sol.R`` for the attitudes.
    """
    if not isinstance(problem, AttitudeProblem):
        raise TypeError(f"problem must be an AttitudeProblem, got {type(problem).__name__}")
    step = group_methods.stepper(method)
    h = check.positive("h", h)
    n, h_used = equal_steps(problem.t_span, h, MAX_ROTATION_STEPS, "integrate_attitude")
    save_every = check.integer("save_every", save_every, 1, n)
    return run(problem, step, EqualSteps(n, h_used, save_every), blowup=blowup)


def exact_rotation(R0, omega, t) -> np.ndarray:
    """``R(t) = R0 Exp(t ω)`` for constant ω, at every ``t`` (shape ``(len(t), 3, 3)``)."""
    R0, w = so3._mat3("R0", R0), so3._vec3("omega", omega)
    t = check.real_array("t", t, ndim=1, max_size=1_000_000)
    if float(np.max(np.abs(t))) * float(np.max(np.abs(w))) > so3.MAX_ANGLE_RATE:
        raise ValueError(
            f"t and omega must keep the angle |t| max|omega_i| <= {so3.MAX_ANGLE_RATE:g} rad "
            "(beyond, the angle has no digits left modulo 2π)"
        )
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
    return rk_orthogonality_prediction("euler", omega, h, n)


def rk_orthogonality_prediction(method, omega, h: float, n: int) -> float:
    """Predicted ``max_ij |(RₙᵀRₙ - I)_ij|`` of ``n`` steps of an explicit RK method on the
    9 entries of ``R``, constant ω, from the method's stability polynomial ``P``.

    One step is ``R ← R P(hΩ)`` (``Ω = [ω]×``, linear ODE), so ``RₙᵀRₙ = (P(-hΩ) P(hΩ))ⁿ``.
    ``Ω`` has eigenvalues ``0`` on ``ω̂`` and ``±i|ω|`` on the plane ⟂ ``ω̂``, hence
    ``RₙᵀRₙ - I = (|P(iθ)|^{2n} - 1)(I - ω̂ω̂ᵀ)``, ``θ = h|ω|``: ``|P(iθ)|² = 1 + θ²`` for Euler,
    ``1 - θ⁶/72 + θ⁸/576`` for RK4 (see :func:`imag_axis_gain`).  The largest entry of
    ``I - ω̂ω̂ᵀ`` is ``max_i (1 - ω̂_i²)`` (diagonal ``>= 2/3`` beats off-diagonal ``<= 1/2``).
    """
    w = so3._rate("omega", omega)
    h = check.positive("h", h, hi=1e6)
    n = check.integer("n", n, 0, 10**12)
    w2 = float(w @ w)
    if w2 == 0.0 or n == 0:
        return 0.0
    d = imag_axis_gain(method, h * np.sqrt(w2))
    return abs(_power_minus_one(d, n)) * float(np.max(1.0 - w * w / w2))


def imag_axis_gain(method, theta: float) -> float:
    """``|P(iθ)|² - 1`` for an explicit RK tableau's stability polynomial ``P``, without cancellation.

    ``|P(iθ)|² = P(z) P(-z)`` at ``z² = -θ²``; the product's coefficients are formed exactly
    (``Fraction``) and the constant 1 drops out before any rounding.
    """
    tab = methods.get(method)
    if tab.family != "rk" or not tab.is_explicit:
        raise ValueError(f"method must be an explicit Runge-Kutta tableau, got {tab.name!r}")
    theta = check.real("theta", theta, 0.0, 1e6)
    P, _ = tab.stability_polynomials(exact=True)  # ascending, P(z) = Σ p_k z^k
    S = np.convolve(
        np.array(P, dtype=object), np.array([p * (-1) ** k for k, p in enumerate(P)], dtype=object)
    )
    x = Fraction(theta) ** 2
    return float(sum(S[2 * j] * (-1) ** j * x**j for j in range(1, len(S) // 2 + 1)))


def _power_minus_one(d: float, n: float) -> float:
    """``(1 + d)^n - 1`` accurately for tiny ``d`` (inf past overflow, -1 if ``1 + d <= 0``)."""
    if d <= -1.0:
        return -1.0
    log_growth = n * np.log1p(d)
    return float(np.expm1(log_growth)) if log_growth < 700 else float("inf")
