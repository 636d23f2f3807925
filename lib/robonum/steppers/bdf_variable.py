"""Variable-order (1-5), quasi-constant-step NDF/BDF in backward-difference form.

Shampine & Reichelt (1997, ode15s): the numerical differentiation formulas
(NDF) of order ``k`` are, with the predictor ``y^(0) = sum_{j=0}^{k} D_j``
(``D_j = nabla^j y_n``, the backward differences of the last ``k + 1``
values) and ``d = y_{n+1} - y^(0)``,

    (1 - kappa_k) gamma_k d - h f(t_{n+1}, y^(0) + d) + sum_{j=1}^{k} gamma_j D_j = 0,

``gamma_k = sum_{j=1}^{k} 1/j``; ``kappa = 0`` gives BDF, the NDF values
``kappa = (-0.185, -1/9, -0.0823, -0.0415, 0)`` trade a little stability
angle for a smaller error constant.  Dividing by ``alpha = (1 - kappa_k)
gamma_k``: ``d - (h/alpha) f(y^(0) + d) + psi = 0``, solved by simplified
Newton with ``I - (h/alpha) J``.  The local error is
``(kappa_k gamma_k + 1/(k + 1)) d``.

The step size changes only after ``k + 1`` equal steps ("quasi-constant");
a change rescales the differences ``D`` to the new step exactly (the
interpolation polynomial through the past values is kept).  After those
steps the errors of orders ``k - 1`` and ``k + 1`` are estimated from ``D``
and the order whose step would be largest is taken.

Newton: at most 4 iterations, converged when ``eta ||dy|| < tol`` with the
rate ``eta = theta/(1-theta)`` measured in this solve (at least two
corrections, as SciPy's BDF; see ``_newton``).  A solve is abandoned as soon
as its rate predicts a miss: ``theta^(4-k)/(1-theta) ||dy|| > tol`` after
``k`` iterations (RADAU5's test, as in :mod:`.radau`, when ``J`` is analytic;
SciPy's, one factor ``theta`` more lenient, when ``J`` costs ``n`` f-calls by
differences; see ``init``).  ``J`` is evaluated afresh when a solve with an old
``J`` fails, and otherwise by what it costs:

* an analytic ``J`` after ``JAC_MAX_AGE`` = 20 accepted steps (LSODE's and CVODE's
  MSBP): the convergence test reads the size of the corrections, and a ``J`` wrong
  enough makes them small without solving the equations (VDPOL, rtol 1e-4: a ``J``
  from the middle of the jump served to ``t = 2`` and the run ended off the
  solution, -0.2 digits; SciPy's BDF 2.9; ``tests/lib/test_ivp.py``);
* a ``J`` by differences, which costs ``c`` calls of ``f`` (``Work.difference_cost``),
  once the solves since it was made have taken ``c`` iterations beyond the two each
  needs (:func:`stale`; "ski rental": it never spends more than twice the better of
  keeping and renewing in hindsight).  The age cap spent more, ignoring the price;
  without ``jac``, f-calls at rtol 10^-6.5 (digits within 0.1): HIRES (n = 8) 1337 ->
  1243, ROBER 2194 -> 2115, VDPOL 3756 -> 3458, OREGO 5254 -> 4886.  A ``J`` that
  stopped fitting shows in the rate each solve measures, so it is not kept for good.

Measured at rtol 1e-6 on HIRES, ROBER and VDPOL against SciPy's BDF, both given
``jac``: 0.73-0.91 times its f-evaluations for 2.1-2.5 times its Jacobians
(chapter 11, table 11.9, also without ``jac``); ``make bench`` prints both counts
and the CPU time.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from ..control import StepController
from ..dense import BackwardDifferencePiece
from ..errors import NonlinearSolveError
from ..work import iteration_solve
from .base import Stepper, check_h

_EPS = np.finfo(float).eps
MAX_ORDER = 5
NEWTON_MAXITER = 4
JAC_MAX_AGE = 20  # steps a J may serve (LSODE's and CVODE's MSBP; module docstring)
KAPPA = np.array([0.0, -0.1850, -1.0 / 9.0, -0.0823, -0.0415, 0.0])
GAMMA = np.concatenate([[0.0], np.cumsum(1.0 / np.arange(1, MAX_ORDER + 1))])
ALPHA = (1.0 - KAPPA) * GAMMA
ERROR_CONST = KAPPA * GAMMA + 1.0 / np.arange(1, MAX_ORDER + 2)


def _rms(v) -> float:
    return float(np.sqrt(np.vdot(v, v).real / v.size))  # vdot: |v|^2 for a complex state too


def rescale_matrix(order: int, factor: float) -> np.ndarray:
    """``R`` with ``D_new[1:k+1] = R^T D[1:k+1]``: backward differences of the same polynomial
    at spacing ``factor * h`` (``R = P(factor) P(1)^{-1}``, ``P(r)_{ij} = prod_{m<i} (m - r j)/(m + 1)``).
    """

    def P(r):
        i = np.arange(1, order + 1)[:, None]
        j = np.arange(1, order + 1)[None, :]
        M = np.zeros((order + 1, order + 1))
        M[1:, 1:] = (i - 1 - r * j) / i
        M[0] = 1.0
        return np.cumprod(M, axis=0)

    return (P(factor) @ P(1.0))[1:, 1:] if order else np.zeros((0, 0))


def stale(excess: int, cost: int) -> bool:
    """A Jacobian by differences is stale once the iterations it cost beyond two per solve
    (``excess``) reach what a new one costs (``cost`` calls of ``f``): ski rental, buy once
    the rent paid equals the price, at most twice the cost of the better choice in hindsight.
    """
    return excess >= cost


class _State:
    def __init__(self, n, dtype=float):
        self.D = np.zeros((MAX_ORDER + 3, n), dtype=dtype)
        self.order, self.h, self.n_equal = 1, None, 0
        self.J, self.J_fresh, self.lu, self.lu_c = None, False, None, None
        self.J_age = 0  # accepted steps since J was evaluated
        self.J_excess = 0  # Newton iterations beyond two per solve since then
        self.J_at = None  # (t, y) where it was: a retry with a smaller h keeps it
        self.nit_used = 0  # Newton iterations of the last converged solve (the stepper contract)
        self.pending = None
        self.t_D = self.y_D = None
        self.f0 = self.f0_at = None  # f at the start, and (t, y) where: handed over by seed


class VariableBDF(Stepper):
    """Adaptive NDF/BDF of orders 1-5 (``ndf=False``: plain BDF), quasi-constant step size.

    ``jac_max_age``: accepted steps an analytic Jacobian may serve (``None``: until a
    solve fails, SciPy's rule; the module docstring says why 20).  One by differences
    serves until its extra Newton iterations have cost what a new one costs (:func:`stale`).
    Use with the adaptive driver: ``rn.solve_ivp(f, t_span, y0, method="bdf")``.
    References: Shampine & Reichelt (1997), the MATLAB ODE suite (ode15s);
    Hairer & Wanner, *Solving ODEs II*, sec. V.1-V.2.
    """

    complex_ok = True  # every operation below is defined for complex states (SciPy's BDF too)

    name = "NDF/BDF 1-5 (adaptive)"
    order = 5
    error_order = 1
    initial_order = 1
    # The error estimate (kappa_k gamma_k + 1/(k+1)) d is the local error of y_{n+1}: weighed
    # by |y_{n+1}|, as SciPy's BDF and the order choice below (scale of D[0] = y_{n+1}) do.
    # On x' = Ax (SciPy's test_integration_const_jac, rtol 1e-3) the global error was 23x
    # the tolerance with max(|y_n|, |y_{n+1}|), 7x with |y_{n+1}| (SciPy's: 7x).
    weight_by_new = True

    def __init__(
        self,
        ndf: bool = True,
        jac_max_age: int | None = JAC_MAX_AGE,
        *,
        rtol: float = 1e-3,
        atol: float = 1e-6,
    ):
        self.ndf = check.boolean("ndf", ndf)
        self.jac_max_age = (
            None if jac_max_age is None else check.integer("jac_max_age", jac_max_age, 1, 10**6)
        )
        self.kappa = KAPPA if ndf else np.zeros_like(KAPPA)
        self.alpha = (1.0 - self.kappa) * GAMMA
        self.error_const = self.kappa * GAMMA + 1.0 / np.arange(1, MAX_ORDER + 2)
        self.rtol = check.rtol(rtol)
        self.atol = check.atol(atol)
        tight = check.rtol_min(self.rtol)  # per-component rtol: Newton serves the tightest
        self.newton_tol = max(10 * _EPS / tight, min(0.03, tight**0.5))

    def with_tolerances(self, rtol, atol) -> VariableBDF:
        if check.same(rtol, self.rtol) and check.same(atol, self.atol):
            return self
        return VariableBDF(self.ndf, self.jac_max_age, rtol=rtol, atol=atol)

    def default_controller(self) -> StepController:
        return StepController(2, safety=0.9, fac_min=0.2, fac_max=10.0)

    def init(self, work, t0, y0, h):
        state = _State(y0.size, y0.dtype)
        # A solve whose rate predicts a miss is abandoned for a fresh J.  With an analytic J
        # (cheap) RADAU5's test; a J by differences costs n f-calls, so SciPy's test, one
        # factor theta more lenient.  Measured without jac at rtol 1e-4 ... 1e-7 (calls
        # counted): HIRES 1304 -> 1172 calls at 1e-6 (Jacobians 53 -> 32), VDPOL 3488 -> 3287,
        # OREGO 4769 -> 4615, ROBER 1850 -> 1883, the digits within 0.1 (ch. 11 table 11.9);
        # with jac RADAU5's test needs 4-7 % fewer calls on HIRES, VDPOL and OREGO.
        state.miss_slack = 0 if work.problem.jac is not None else 1
        return state

    def seed(self, state, t, y, fy):
        state.f0, state.f0_at = fy, (t, y)

    def _f_known(self, state, t, y):
        """``f(t, y)`` if the driver handed it over (the start), else None."""
        if state.f0_at is None:
            return None
        t0, y0 = state.f0_at
        return state.f0 if t0 == t and (y0 is y or np.array_equal(y0, y)) else None

    def _restart(self, work, state, t, y, h):
        f0 = self._f_known(state, t, y)
        state.D[:] = 0.0
        state.D[0] = y
        state.D[1] = h * (work.f(t, y) if f0 is None else f0)
        state.order, state.h, state.n_equal, state.t_D = 1, h, 0, t
        state.lu = None

    def step(self, work, t, y, h, state):
        h = check_h(h)
        # A restart unless (t, y) is the point the last accepted step ended at (the driver
        # hands back the very array this stepper returned; compare values otherwise).
        if state.t_D != t or (y is not state.y_D and not np.array_equal(state.D[0], y)):
            self._restart(work, state, t, y, h)
        elif h != state.h:
            k = state.order
            R = rescale_matrix(k, h / state.h)
            state.D[1 : k + 1] = R.T @ state.D[1 : k + 1]
            state.h, state.n_equal, state.lu = h, 0, None
        k, D = state.order, state.D
        t_new = t + h
        y_pred = D[: k + 1].sum(axis=0)
        scale = self.atol + self.rtol * np.abs(y_pred)
        psi = (GAMMA[1 : k + 1] @ D[1 : k + 1]) / self.alpha[k]
        c = h / self.alpha[k]
        f_pred = None  # f(t_new, y_pred): the base of a difference J and Newton's first f
        for attempt in (0, 1):
            if state.J is None or self._stale(work, state):
                if f_pred is None and work.jac_by_differences:
                    f_pred = work.f(t_new, y_pred)
                J = work.jac(t_new, y_pred, f_pred, w=scale, hgamma=c)
                state.J, state.J_fresh, state.J_age, state.J_excess = J, True, 0, 0
                state.J_at = (t_new, y_pred)
                state.lu = None
            if state.lu is None or state.lu_c != c:
                state.lu = work.iteration_lu(np.eye(y.size) - c * state.J)
                state.lu_c = c
            d = self._newton(work, state, t_new, y_pred, c, psi, scale, f_pred)
            if d is not None:
                break
            if attempt == 0 and not state.J_fresh:
                state.J = None
                continue
            if work.recheck_jac(*state.J_at, state.J):  # a fresh J failed: is it f's (there)?
                state.J = None  # no: differences from here on (Work.recheck_jac)
            raise NonlinearSolveError(
                f"Newton failed at t = {t:g} (h = {h:.3g}, order {k})", NEWTON_MAXITER, float("inf")
            )
        y_new = y_pred + d
        state.pending = (t_new, d, y_new)
        return y_new, self.error_const[k] * d, state

    def _stale(self, work, state) -> bool:
        """Whether to evaluate ``J`` afresh before this solve (module docstring)."""
        if work.jac_by_differences:
            return stale(state.J_excess, work.difference_cost)
        return self.jac_max_age is not None and state.J_age >= self.jac_max_age

    def _newton(self, work, state, t_new, y_pred, c, psi, scale, f_pred=None):
        """Simplified Newton for ``d``; ``None`` when it fails or would miss the tolerance.

        ``f_pred``: ``f(t_new, y_pred)`` if already known (a difference Jacobian's base
        point is the predictor), the first iteration's ``f``: one call fewer per ``J``.

        Converged only on evidence from this solve: ``eta ||dy|| < tol`` with the
        rate ``eta = theta/(1-theta)`` measured between two of its corrections (or a
        zero correction), as SciPy's BDF.  A rate carried over from the last solve
        let a first correction pass alone; with a poor ``J`` that accepted wrong
        iterates (ROBER without ``jac``: status 0 at -14.6 digits, issue 24).
        CVODE's guarded carry-over (reset when the matrix changes, lowered at most
        3x a solve) measured the same f-calls on HIRES, ROBER and VDPOL.
        """
        d = np.zeros_like(y_pred)
        y = y_pred.copy()
        eta, dy_old = np.inf, None  # no rate measured yet: a first correction never suffices
        for k in range(1, NEWTON_MAXITER + 1):
            f = f_pred if k == 1 and f_pred is not None else work.f(t_new, y)
            work.n_newton += 1
            dy = iteration_solve(state.lu, c * f - psi - d)
            dy_norm = _rms(dy / scale)
            if not np.isfinite(dy_norm):
                return None
            if dy_old is not None:
                rate = dy_norm / dy_old
                left = NEWTON_MAXITER - k + state.miss_slack  # a rate too slow for the tolerance:
                if rate >= 1.0 or rate**left / (1.0 - rate) * dy_norm > self.newton_tol:
                    return None  # stop now (the caller tries a fresh J)
                eta = rate / (1.0 - rate)
            y += dy
            d += dy
            if dy_norm == 0.0 or eta * dy_norm < self.newton_tol:
                state.nit_used = k
                state.J_excess += max(0, k - 2)  # two: the fewest that measure a rate
                return d
            dy_old = dy_norm
        return None

    def judge(self, controller, work, h, err_norm, state):
        """Accept/reject; on acceptance update the differences and choose order and step."""
        k = state.order
        if not np.isfinite(err_norm):
            controller.adapt(h, np.inf)
            return False, 0.5 * h
        safety = 0.9 * (2 * NEWTON_MAXITER + 1) / (2 * NEWTON_MAXITER + state.nit_used)
        controller.q = k + 1
        accepted, h_next = controller.adapt(h, err_norm, safety=min(0.9, safety))
        if not accepted:
            return False, h_next
        t_new, d, y_new = state.pending
        D = state.D
        D[k + 2] = d - D[k + 1]
        D[k + 1] = d
        for i in range(k, -1, -1):
            D[i] += D[i + 1]
        D[0] = y_new  # the value the driver holds, bit for bit
        state.t_D, state.y_D, state.J_fresh, state.k_last = t_new, y_new, False, k
        state.J_age += 1
        state.n_equal += 1
        if state.n_equal < k + 1:
            return True, h
        scale = self.atol + self.rtol * np.abs(D[0])
        e_m = _rms(self.error_const[k - 1] * D[k] / scale) if k > 1 else np.inf
        e_p = _rms(self.error_const[k + 1] * D[k + 2] / scale) if k < MAX_ORDER else np.inf
        norms = np.array([e_m, err_norm, e_p])
        with np.errstate(divide="ignore"):
            factors = norms ** (-1.0 / np.arange(k, k + 3))
        best = int(np.argmax(factors))
        state.order = k + best - 1
        factor = min(controller.fac_max, safety * factors[best])
        return True, h * max(factor, controller.fac_min)

    def interpolant(self, work, state, t, h, y, y_new):
        k = state.k_last
        return BackwardDifferencePiece(state.t_D, state.h, state.D[: k + 1].copy())
