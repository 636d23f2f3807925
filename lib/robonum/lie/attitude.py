"""Attitude problems ``Ṙ = R [ω(t, R)]×`` on SO(3), and two of them with known answers.

:class:`AttitudeProblem` is an :class:`robonum.ODEProblem` on ``vec(R)`` (9 entries,
row-major) that also keeps the body-frame angular velocity ``ω`` itself, so a
Lie-group stepper can take ``Exp(h ω)`` while a classical method integrates the
9 entries -- the same problem, only the method differs.  ``rn.integrate`` and
``rn.convergence_study`` accept it with a stepper from :mod:`robonum.lie.group_methods`.

* :func:`coning` -- the coning motion of strapdown navigation, a time-varying ``ω(t)``
  with a closed-form attitude (exact reference for orders);
* :class:`FreeRigidBody` -- the torque-free rigid body, ``ω = I⁻¹ Rᵀ L`` with the
  spatial angular momentum ``L`` constant (Hairer, Lubich & Wanner 2006, sec. IV.1,
  VII.5): a state-dependent ``ω``; kinetic energy and ``|Rᵀ L|`` are invariants.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from ..errors import EvaluationError
from ..problem import ODEProblem
from . import so3

MAX_RATE = 1e3  # rad per unit time for the factory problems (a spinning wheel: ~1e3)


class AttitudeProblem(ODEProblem):
    """``Ṙ = R [ω]×`` from ``R(t0) = R0``, ``ω`` in the body frame.

    Parameters
    ----------
    omega : 3-vector (constant), callable ``omega(t)``, or, with ``state_dependent=True``,
        callable ``omega(t, R)`` returning a 3-vector.
    R0 : (3, 3) initial attitude (used as given).
    t_span : (t0, t1).
    exact : callable ``exact(t) -> (3, 3)``, optional (a constant ``omega`` gets
        ``R0 Exp((t - t0) ω)`` automatically).
    name, params : as for :class:`robonum.ODEProblem`.
    """

    layout = "so3"  # Solution.R reads y as the rows of R

    def __init__(
        self,
        omega,
        R0,
        t_span,
        *,
        state_dependent: bool = False,
        exact=None,
        name: str = "attitude",
        params=None,
    ):
        R0 = so3._mat3("R0", R0, so3.MAX_MATRIX_ENTRY)
        self.state_dependent = check.boolean("state_dependent", state_dependent)
        self.omega_input = omega
        self._omega = _omega_function(omega, self.state_dependent)
        if exact is not None:
            check.callable_("exact", exact)
        elif not callable(omega):
            w, t0 = self._omega(0.0, R0), check.interval("t_span", t_span)[0]
            exact = lambda t: R0 @ so3._exp((t - t0) * w)  # noqa: E731
        self.exact_R = exact
        omega_fn = self._omega

        def f(t, y):
            R = y.reshape(3, 3)
            return (R @ so3._hat(omega_fn(t, R))).ravel()

        vec_exact = None if exact is None else (lambda t: so3._mat3("exact(t)", exact(t)).ravel())
        super().__init__(f, R0.ravel(), t_span, exact=vec_exact, name=name, params=params)
        self.R0 = self.y0.reshape(3, 3)

    def omega(self, t: float, R: np.ndarray) -> np.ndarray:
        """``ω(t, R)`` (``R`` is ignored unless the problem is state dependent), checked."""
        return self._omega(t, R)

    def _fields(self) -> dict:
        return dict(
            omega=self.omega_input,
            R0=self.R0,
            t_span=self.t_span,
            state_dependent=self.state_dependent,
            exact=self.exact_R,
            name=self.name,
            params=self.params,
        )

    def __repr__(self):
        kind = (
            "ω(t, R)"
            if self.state_dependent
            else ("ω(t)" if callable(self.omega_input) else "constant ω")
        )
        return f"AttitudeProblem({self.name!r}, {kind}, t_span={self.t_span})"


def _omega_function(omega, state_dependent):
    """``(t, R) -> ω`` from a constant, ``omega(t)`` or ``omega(t, R)``, its output checked."""
    if callable(omega):
        if state_dependent:
            return lambda t, R: _checked(omega(t, R), "omega(t, R)", t, R)
        return lambda t, R: _checked(omega(t), "omega(t)", t, R)
    if state_dependent:
        raise TypeError("omega must be a callable omega(t, R) when state_dependent=True")
    w = so3._vec3("omega", omega)
    if float(np.max(np.abs(w))) > so3.MAX_ANGLE_RATE:
        raise ValueError(
            f"omega must have |omega_i| <= {so3.MAX_ANGLE_RATE:g} rad per unit time, "
            f"got {np.max(np.abs(w)):.3g}"
        )
    return lambda t, R: w


class OmegaNotFinite(EvaluationError, ValueError):
    """``ω`` came out NaN/inf: a bad input when the problem is made, a run status during a run."""


def _checked(w, name, t, R):
    """A real 3-vector; NaN/inf raises :class:`OmegaNotFinite` (no cap: Exp copes with any size)."""
    if not (type(w) is np.ndarray and w.dtype == np.float64):  # fast path for the inner loops
        w = check.real_array(name, w, finite=False)
    if w.shape != (3,):
        raise ValueError(f"{name} must return shape (3,), got {w.shape} at t = {t:g}")
    if not np.isfinite(w).all():
        finite_state = bool(np.isfinite(R).all())
        raise OmegaNotFinite(
            f"{name} must return finite values, got {w} at t = {t:g}"
            + ("" if finite_state else " (the attitude itself is no longer finite)"),
            "nan_in_f" if finite_state else "diverged",
            t,
        )
    return w


def coning(rate: float = 2.0, half_angle: float = 0.5, t_span=(0.0, 3.0)) -> AttitudeProblem:
    """Coning motion ``R(t) = Exp(Ω t ẑ) Exp(β x̂) Exp(-Ω t ẑ)``: the body's z axis sweeps a cone.

    Its body-frame rate is ``ω(t) = Ω (-sin β sin Ωt, sin β cos Ωt, cos β - 1)``
    (from ``[ω]× = Rᵀ Ṙ``; derivation in the chapter), whose direction turns with
    time, so ``R ← R Exp(h ω)`` with a frozen ``ω`` is not exact: the classic test of
    attitude algorithms in strapdown inertial navigation.  ``rate`` Ω in ``(0, 1e3]``,
    ``half_angle`` β in ``(0, π)``.
    """
    Om = check.positive("rate", rate, hi=MAX_RATE)
    beta = check.real("half_angle", half_angle, 1e-6, np.pi - 1e-6)
    sb, cb = np.sin(beta), np.cos(beta)
    B = so3._exp(np.array([beta, 0.0, 0.0]))

    def omega(t):
        return Om * np.array([-sb * np.sin(Om * t), sb * np.cos(Om * t), cb - 1.0])

    def exact(t):
        A = so3._exp(np.array([0.0, 0.0, Om * t]))
        return A @ B @ A.T

    t_span = check.interval("t_span", t_span, max_length=1e6)
    return AttitudeProblem(
        omega,
        exact(t_span[0]),
        t_span,
        exact=exact,
        name="coning",
        params={"rate": Om, "half_angle": beta},
    )


class FreeRigidBody(AttitudeProblem):
    """Torque-free rigid body: ``Ṙ = R [I⁻¹ Rᵀ L]×`` with constant spatial momentum ``L``.

    The body momentum ``m = Rᵀ L`` obeys Euler's equations ``ṁ = m × I⁻¹ m``; writing it
    through ``R`` leaves an ODE on SO(3) alone.  Invariants: ``|m| = |L|`` (kept exactly
    by any method whose ``R`` stays orthogonal) and the energy ``T = ½ mᵀ I⁻¹ m``.
    ``inertia``: principal moments ``(I1, I2, I3)``, each in ``[1e-3, 1e3]``;
    ``L``: 3-vector with ``0 < |L| <= 1e3``.  No closed form is used: references come
    from tight-tolerance SciPy runs (``robonum.problems.reference_solution``).
    """

    def __init__(
        self,
        inertia=(1.0, 2.0, 3.0),
        L=(0.1, 1.0, 0.1),
        R0=None,
        t_span=(0.0, 10.0),
        name: str = "free rigid body",
    ):
        inertia = so3._vec3("inertia", inertia)
        if np.any(inertia < 1e-3) or np.any(inertia > 1e3):
            raise ValueError(f"inertia must hold principal moments in [1e-3, 1e3], got {inertia}")
        L = so3._vec3("L", L)
        if not 0.0 < float(np.linalg.norm(L)) <= 1e3:
            raise ValueError(f"L must have 0 < |L| <= 1e3, got |L| = {np.linalg.norm(L):.3g}")
        self.inertia, self.L = inertia, L
        inv = 1.0 / inertia

        def omega(t, R):
            return inv * (R.T @ L)

        super().__init__(
            omega,
            np.eye(3) if R0 is None else R0,
            t_span,
            state_dependent=True,
            name=name,
            params={"inertia": tuple(inertia), "L": tuple(L)},
        )

    def _fields(self) -> dict:
        return dict(inertia=self.inertia, L=self.L, R0=self.R0, t_span=self.t_span, name=self.name)

    def body_momentum(self, R) -> np.ndarray:
        """``m = Rᵀ L`` for one attitude ``(3, 3)`` or a stack ``(k, 3, 3)`` -> ``(3,)`` / ``(k, 3)``."""
        R3 = _stack("R", R)
        m = np.einsum("kji,j->ki", R3, self.L)
        return m[0] if np.ndim(R) == 2 else m

    def energy(self, R) -> np.ndarray:
        """Kinetic energy ``T = ½ Σ m_i² / I_i`` of ``m = Rᵀ L`` (for each matrix of a stack)."""
        m = self.body_momentum(R)
        return 0.5 * np.sum(m * m / self.inertia, axis=-1)


def _stack(name, R):
    R = check.real_array(name, R, finite=False)
    if R.shape == (3, 3):
        R = R[None]
    if R.ndim != 3 or R.shape[1:] != (3, 3):
        raise ValueError(f"{name} must have shape (3, 3) or (k, 3, 3), got {R.shape}")
    return R
