"""Radau IIA with ``s`` = 3 or 5 stages (order 5 or 9) and its own step-size and Jacobian control.

Hairer & Wanner II, sec. IV.8 (code RADAU5) for ``s = 3``; Hairer & Wanner,
"Stiff differential equations solved by Radau methods", J. Comput. Appl.
Math. 111 (1999) (code RADAU) for five.  The tableau
(``rn.methods.radau_iia(s)``) solves for the stage increments ``Z_i = Y_i - y``::

    Z = h (A kron I) F(Z),    F_i = f(t + c_i h, y + Z_i).

Multiplying by ``(h A)^{-1}`` and writing ``A^{-1} = T Lambda T^{-1}`` (one real
eigenvalue ``mu`` and ``(s - 1)/2`` complex pairs ``a_j +- i b_j``),
the simplified Newton iteration for ``W = T^{-1} Z`` splits into one real and
``(s - 1)/2`` complex ``n x n`` systems::

    (mu/h I - J) dW_0 = r_0,    ((a_j - i b_j)/h I - J) (dW_2j-1 + i dW_2j) = r_2j-1 + i r_2j,

``r = T^{-1} F - Lambda W / h``.  All of it is computed here from the tableau
(eigenvectors by numpy), not typed in.

Error estimate (HW II, eqs. IV.8.19-8.20, and the 1999 paper for any ``s``):
an embedded formula of order ``s``,
``y_hat = y + h (gamma_0 f(t, y) + sum_i b_hat_i F_i)`` with ``gamma_0 = 1/mu``,
filtered by the real LU:
``err = (mu/h I - J)^{-1} (f(t, y) + (mu/h) (b_hat - b)^T A^{-1} Z)``.  After a
rejection or on the first step a too large estimate is filtered once more
with ``f(t, y + err)``.

Heuristics (RADAU5's): Newton stops when ``eta ||dW|| <= fnewt``,
``fnewt = max(10 eps / rtol, min(0.03, rtol^(1/2)))``, where
``eta = theta / (1 - theta)`` comes from the previous solve on the first
iteration (so a step may need a single iteration); a contraction
``theta >= 0.99`` or a predicted miss of ``fnewt`` within ``NIT[s]``
iterations (7 and 12, RADAU's counts) rejects the step early; ``J`` is kept
while ``theta <= 0.001``, or 0.1 for a finite-difference ``J`` of a larger
system (:func:`jac_reuse_theta`); a new ``h`` within ``[1, 1.2] h`` is not taken, so
that the LU factorisations are kept; the safety factor falls with the number
of Newton iterations; the step-size controller is Gustafsson's predictive one
(:class:`robonum.StepController` with ``predictive=True``).  The rules are plain functions in
:mod:`.radau_rules` and :mod:`.radau_jac`, which :mod:`robonum.fast` compiles.

Order: the stage count is fixed when the stepper is built.  ``solve_ivp``'s
``method="radau"`` is a named policy, :func:`stages_for`: 5 stages when
``rtol <= AUTO_RTOL``, else 3, once per run.  RADAU switches during a run, from
the Newton contraction rate: up at ``theta <= 0.002``, down at ``theta >= 0.8``
(its defaults).  Measured on the 3-stage runs of HIRES, ROBER, VDPOL and OREGO
without jac (rtol 1e-4 to 1e-6): ``theta <= 0.002`` at 1-31 % of the accepted
steps, ``theta >= 0.8`` at none, so that rule would run five stages nearly from
the start at every rtol, where they cost more at 1e-4 (below).
Measured by ``tests/benchmarks/bench_ivp.py`` ("3 or 5 stages": the f-calls
five stages need for the digits of each 3-stage run) on nine problems with and
without ``jac`` (18 series) at every quarter decade of rtol: five were cheaper
in all 18 from ``10^-4.75`` on (but 16 at ``10^-5.75``: the penalty-contact leg,
1.01 and 1.16 times), about a third at ``1e-8``; in 15, 14 and 9 of 18 at
``10^-4.5``, ``10^-4.25`` and ``1e-4``; looser, up to 1.7 times dearer.  At
``AUTO_RTOL = 2e-5`` (``10^-4.7``) five stages needed 0.32-0.97 of the calls with
``jac`` and 0.40-1.00 without (E5 1.00); at ``10^-4.5`` three series were dearer
(HIRES 1.01 and OREGO 1.07 with ``jac``, E5 1.14 without).  Issue 24's comparison
without ``jac`` (HIRES, ROBER, VDPOL, OREGO, rtol ``1e-4 ... 1e-8``; ours / SciPy's
better of Radau and BDF at equal digits) with five stages from 2e-5 instead of 1e-5:
the half-decade grid has no run in between and is unchanged; on that grid shifted
by a quarter decade HIRES at 6 and 6.5 digits went from 1.16 and 1.16 to 1.04 and
1.09, on the quarter-decade grid from 1.20 and 1.16 to 1.08 and 1.09.  With ``jac``
the quarter-decade grid's went from 1.18 and 1.15 to 1.09 and 1.08, but the shifted
grid's from 1.15 and 1.19 to 1.32 and 1.32: there the 5-stage run at ``10^-4.75``
reached 5.51 digits in 1,157 calls, the 3-stage one 5.60 in 989.  Cells above 1.1
over the four grids of ``tests/benchmarks/bench_ivp_grids.py``, with and without
``jac``: 11 with 1e-5 and 4-6 with 2e-5, under each of five BLAS kernels.  Five stages
from ``3.2e-5`` (``10^-4.5``) cleared the half-decade grid (VDPOL at 6.5 digits,
1.01 -> 0.91) but put HIRES at 6 digits on the quarter-decade grid back at 1.16,
and from ``7.5e-5`` (``10^-4.25``) moved OREGO at 5 digits on the shifted grid to 1.12.
Where the controller's growth limit, not the error, sets the steps, five stages cost more:
the stiff cosine problem at ``lam = -1e6`` (``bench_ivp_grids.py``'s held-out set) takes
the same 7 steps from rtol ``10^-4.75`` to ``10^-7.25``; ours / SciPy's at 6.5-8 digits
reaches 1.35 with this policy (1.09-1.17 on the half-decade grid), 1.24 with three stages
throughout (at most 0.97 on the half-decade grid).
Seven stages are left out: their transformation, computed in double precision,
reproduces ``A`` only to about 3e-12 (five stages: 7e-14); RADAU types its
constants in to 20 digits.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from ..control import StepController
from ..dense import PowerPiece
from ..errors import NonlinearSolveError
from ..work import iteration_solve
from .base import Stepper, check_h
from .radau_constants import constants
from .radau_jac import THET, jac_reuse_theta, refresh_jac
from .radau_rules import (
    NEWTON_FAIL,
    carried_rate,
    contraction,
    converged,
    kept_step,
    rejected_step,
    stage_guess,
    step_safety,
)

_EPS = np.finfo(float).eps
STAGES = (3, 5)
NIT = {3: 7, 5: 12}  # Newton iterations per step (RADAU: 7 and 7 + 5)
AUTO_RTOL = 2e-5  # method="radau": 5 stages at rtol <= this, else 3 (module docstring)


def stages_for(rtol: float) -> int:
    """The policy behind ``method="radau"``: 5 stages at ``rtol <= AUTO_RTOL``, else 3."""
    return 5 if rtol <= AUTO_RTOL else 3


def _rms(v) -> float:
    v = v.ravel()
    return float(np.sqrt(np.dot(v, v) / v.size))


class _State:
    def __init__(self):
        self.J = None
        self.J_fresh = False  # J taken at the start of the current step
        self.need_jac = True
        self.lu_h = None
        self.lu = None
        self.f0 = None  # f at the start of the step
        self.f0_t = None
        self.poly = None  # (t_a, h_a, y_a, Q) of the last accepted step
        self.faccon = 1.0
        self.theta = THET
        self.first = True
        self.rejected = False
        self.nit_used = 0  # Newton iterations of the last converged solve (the stepper contract)
        self.fail_factor = NEWTON_FAIL
        self.pending = None


class RadauIIA(Stepper):
    """Adaptive Radau IIA with 3 (RADAU5) or 5 stages (order 5 or 9, L-stable).

    Use with the adaptive loop: ``rn.solve_ivp(f, t_span, y0, method="radau5")`` or
    ``rn.integrate(problem, RadauIIA(5), rtol=..., atol=...)``.
    Made for adaptive steps: its Newton tolerance and Jacobian reuse follow ``rtol``, fixed
    at construction (an adaptive run builds the stepper for its own ``rtol``/``atol`` with
    :meth:`with_tolerances`).  Given equal steps (``h=``) it runs with the tolerances it
    was built with; for fixed-step Radau IIA with your own Newton options use
    ``ImplicitRK(rn.methods.radau_iia(s), newton=...)``.
    References: Hairer & Wanner, *Solving ODEs II*, sec. IV.8 (RADAU5); Hairer & Wanner,
    J. Comput. Appl. Math. 111 (1999) 93-111 (RADAU).
    """

    def __init__(self, stages: int = 3, *, rtol: float = 1e-6, atol: float = 1e-9):
        stages = check.integer("stages", stages, min(STAGES), max(STAGES))
        check.one_of("stages", stages, STAGES)
        self.stages = stages
        self.rtol = check.rtol(rtol)
        self.atol = check.atol(atol)
        tight = check.rtol_min(self.rtol)  # per-component rtol: Newton serves the tightest
        self.fnewt = max(10 * _EPS / tight, min(0.03, tight**0.5))
        self.C, self.nit = constants(self.stages), NIT[self.stages]

    @property
    def name(self) -> str:
        return f"Radau IIA {self.stages}-stage order {2 * self.stages - 1} (adaptive)"

    @property
    def order(self) -> int:
        return 2 * self.stages - 1

    @property
    def error_order(self) -> int:
        return self.stages

    @property
    def initial_order(self) -> int:
        return self.stages

    def with_tolerances(self, rtol, atol) -> RadauIIA:
        if check.same(rtol, self.rtol) and check.same(atol, self.atol):
            return self
        return RadauIIA(self.stages, rtol=rtol, atol=atol)

    def default_controller(self) -> StepController:
        return StepController(
            self.stages + 1, safety=0.9, fac_min=0.2, fac_max=8.0, predictive=True
        )

    def init(self, work, t0, y0, h):
        check_h(h)
        state = _State()
        state.has_jac = work.problem.jac is not None
        state.thet = jac_reuse_theta(state.has_jac, work.problem.n)
        return state

    def seed(self, state, t, y, fy):
        state.f0, state.f0_t = fy, t

    # -- one step -------------------------------------------------------------
    def _factor(self, work, state, h):
        J, C = state.J, self.C
        eye = np.eye(J.shape[0])
        state.lu = [work.iteration_lu(C["mu"] / h * eye - J)] + [
            work.iteration_lu(k / h * eye - J) for k in C["kappas"]
        ]
        state.lu_h = h

    def _guess(self, state, t, y, h):
        """The last collocation polynomial extrapolated to the new stages (zero on the first step)."""
        if state.poly is None:
            return np.zeros((self.stages, y.size))
        return stage_guess(t, y, h, *state.poly, self.C["c"])

    def _solve(self, state, F, W, h):
        """``dW`` for the residuals ``T^{-1} F - Lambda W / h``: one real, the rest complex."""
        C, lu = self.C, state.lu
        dW = np.empty_like(W)
        dW[0] = iteration_solve(lu[0], C["Tinv"][0] @ F - C["mu"] / h * W[0])
        for j, (kappa, tic) in enumerate(zip(C["kappas"], C["tics"])):
            r = tic @ F - kappa / h * (W[2 * j + 1] + 1j * W[2 * j + 2])
            d = iteration_solve(lu[j + 1], r)
            dW[2 * j + 1], dW[2 * j + 2] = d.real, d.imag
        return dW

    def _newton(self, work, state, t, y, h, scale):
        C, nit_max = self.C, self.nit
        ch = t + C["c"] * h
        Z = self._guess(state, t, y, h)
        W = C["Tinv"] @ Z
        F = np.empty_like(Z)
        faccon = carried_rate(state.faccon)
        theta, dyno_old, thq_old = THET, -1.0, -1.0  # -1: none yet
        for k in range(1, nit_max + 1):
            for i in range(self.stages):
                F[i] = work.f(ch[i], y + Z[i])
            work.n_newton += 1
            dW = self._solve(state, F, W, h)
            dyno = _rms(dW / scale)
            theta, thq_old, faccon, fail = contraction(
                dyno, dyno_old, thq_old, theta, faccon, k, nit_max, self.fnewt
            )
            if fail > 0.0:
                return None, k, fail
            dyno_old = max(dyno, _EPS)
            W += dW
            Z = C["T"] @ W
            if converged(faccon, dyno, self.fnewt):
                state.faccon, state.theta = faccon, theta
                return Z, k, None
        return None, nit_max, NEWTON_FAIL

    def step(self, work, t, y, h, state):
        h = check_h(h)
        if state.f0 is None or state.f0_t != t:
            state.f0, state.f0_t = work.f(t, y), t
        scale = self.atol + self.rtol * np.abs(y)
        for attempt in (0, 1):
            if state.J is None or state.need_jac:
                J = work.jac(t, y, state.f0, w=scale, hgamma=h / self.C["mu"])
                state.J, state.J_fresh, state.need_jac = J, True, False
                state.lu = None
            if state.lu is None or state.lu_h != h:
                self._factor(work, state, h)
            Z, nit, fail = self._newton(work, state, t, y, h, scale)
            if Z is not None:
                break
            state.faccon = 1.0
            if attempt == 0 and not state.J_fresh:  # old J: refresh it, same h
                state.need_jac = True
                continue
            state.fail_factor = fail
            state.need_jac = not state.J_fresh
            if state.J_fresh and work.recheck_jac(t, y, state.J):
                state.need_jac = True  # differences from here on (Work.recheck_jac)
            raise NonlinearSolveError(
                f"simplified Newton failed at t = {t:g} (h = {h:.3g})", nit, float("inf")
            )
        y_new = y + Z[-1]
        err = self._error(work, state, t, y, y_new, h, Z)
        state.nit_used, state.pending = nit, (t, h, y, Z, y_new)
        return y_new, err, state

    def _error(self, work, state, t, y, y_new, h, Z):
        ez = (self.C["mu"] / h) * (self.C["e"] @ Z)
        err = iteration_solve(state.lu[0], state.f0 + ez)
        if state.first or state.rejected:
            scale = self.atol + self.rtol * np.maximum(np.abs(y), np.abs(y_new))
            if _rms(err / scale) >= 1.0:
                f1 = work.f(t, y + err)
                err = iteration_solve(state.lu[0], f1 + ez)
        return err

    # -- accept / reject: called by the controlled policy ----------------------
    def judge(self, controller, work, h, err_norm, state):
        """``(accepted, h_next)``; commits the step (dense polynomial, ``f`` at the new point)."""
        if not np.isfinite(err_norm):  # Newton failed
            state.rejected = True
            controller.adapt(h, np.inf)  # the controller hears of it
            return False, h * state.fail_factor
        accepted, h_next = controller.adapt(
            h, err_norm, safety=step_safety(state.nit_used, self.nit)
        )
        if not accepted:
            h_next = rejected_step(h_next, h, state.first)
            state.rejected = True
            state.need_jac = not state.J_fresh
            return False, h_next
        t, h, y, Z, y_new = state.pending
        state.poly = (t, h, y, self.C["Vinv"] @ Z)
        state.f0, state.f0_t = work.f(t + h, y_new), t + h
        state.first = state.rejected = False
        state.J_fresh = False
        state.need_jac = refresh_jac(
            state.theta, state.nit_used, state.thet, state.has_jac, self.stages
        )
        return True, kept_step(h_next, h, state.need_jac)

    def interpolant(self, work, state, t, h, y, y_new):
        """The collocation polynomial of the last accepted step, for dense output."""
        return PowerPiece(*state.poly)
