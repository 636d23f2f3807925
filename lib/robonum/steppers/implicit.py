"""One generic implicit Runge-Kutta step for any implicit tableau.

The stage equations are written for the *increments* ``Z_i = Y_i - y``
(Hairer & Wanner, *Solving ODEs II*, sec. IV.8):

    Z_i = h sum_j A_ij f(t + c_j h, y + Z_j),      i = 1..s.

* Fully implicit ``A`` (Gauss, Radau IIA): Newton on the whole ``s n``
  system with iteration matrix ``I - h (A kron J)``.
* Lower-triangular ``A`` (DIRK/SDIRK, backward Euler, trapezoid): stage by
  stage, each an ``n x n`` system with matrix ``I - h a_ii J``; an SDIRK has
  one ``a_ii = gamma`` and so one LU for all its stages (and for later
  steps while ``J`` and ``h`` stay).  A stage with ``a_ii = 0`` is explicit.

The new value avoids extra ``f`` calls and does not amplify the Newton
error by ``h lambda`` on stiff problems: the stage slopes are recovered from
the increments, ``F = A^{-1} Z / h``, so ``y_{n+1} = y + b^T A^{-1} Z``
(leading explicit stages are split off first).  Initial guess
(``predictor``): ``"zero"``, ``Z = 0`` (the default: safe for stiff problems,
where an explicit predictor can be off by ``h lambda``), or ``"euler"``, the
explicit Euler value of every stage, ``Y_i = y + c_i h f(t, y)`` (one more
``f`` per step; for backward Euler ``y + h f(t_n, y_n)``, printed ch. 7.50 sec. 6.1).
``record=True`` keeps the Newton trace of the last run (:meth:`ImplicitRK.per_step`).
No embedded pair: ``err`` is ``None``.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from .. import methods
from ..modified_newton import ModifiedNewton, NewtonAttempt
from ..newton import NewtonOptions
from .base import Stepper, check_h

PREDICTORS = ("zero", "euler")


def newton_options(newton) -> NewtonOptions:
    """``None`` (the defaults) or a :class:`NewtonOptions`."""
    if newton is None:
        return NewtonOptions()
    if not isinstance(newton, NewtonOptions):
        raise TypeError(
            f"newton must be a NewtonOptions (e.g. rn.NewtonOptions(tol=1e-12)), "
            f"got {type(newton).__name__}"
        )
    return newton


class ImplicitRK(Stepper):
    """Implicit Runge-Kutta stepper with modified Newton.

    Parameters
    ----------
    method : a catalogue name (e.g. ``"radau3"``) or a ``ButcherTableau``; not explicit.
    newton : :class:`robonum.NewtonOptions`, optional (tolerance, iteration limits,
        Jacobian strategy ``jacobian="reuse" | "step" | "full"``).
    predictor : ``"zero"`` (``Y_i = y_n``) or ``"euler"`` (``Y_i = y_n + c_i h f(t_n, y_n)``),
        the first Newton iterate.
    record : keep every Newton attempt of the last run in ``self.trace``.

    Example: ``rn.integrate(problem, ImplicitRK("radau3", newton=rn.NewtonOptions(tol=1e-12)), h=0.01)``.
    Reference: Hairer & Wanner, *Solving ODEs II*, sec. IV.8 (implementation
    of implicit RK methods).
    """

    def __init__(
        self,
        method,
        *,
        newton: NewtonOptions | None = None,
        predictor: str = "zero",
        record: bool = False,
    ):
        tab = methods.get(method)
        if tab.family != "rk":
            raise ValueError(f"method {tab.name!r} is not a Runge-Kutta method; use make_stepper")
        if tab.is_explicit:
            raise ValueError(f"method {tab.name!r} is explicit; use ExplicitRK for it")
        self.opts = newton_options(newton)
        if not isinstance(predictor, str) or predictor not in PREDICTORS:
            raise ValueError(f"predictor must be one of {PREDICTORS}, got {predictor!r}")
        self.predictor, self.record = predictor, check.boolean("record", record)
        self.trace = None  # the last run's list of NewtonAttempt (record=True)
        self.tableau, self.name, self.order = tab, tab.name, tab.order
        self.stagewise = tab.kind in ("DIRK", "SDIRK")
        if not self.stagewise:
            self._split_explicit(tab)

    def _split_explicit(self, tab):
        """Leading zero rows of A are explicit stages (``Y_i = y``); the rest must be invertible."""
        e = 0
        while e < tab.s and not np.any(tab.A[e]):
            e += 1
        A_II = tab.A[e:, e:]
        if np.linalg.cond(A_II) > 1e12:
            raise ValueError(
                f"tableau {tab.name!r}: the implicit block of A is singular; "
                "this stepper needs it invertible"
            )
        self._e = e
        self._A_II, self._A_IE = A_II, tab.A[e:, :e]
        self._d = np.linalg.solve(A_II.T, tab.b[e:])  # y_new = y + h b_E F_E + d^T (Z - h A_IE F_E)

    def init(self, work, t0, y0, h):
        check_h(h)
        newton = ModifiedNewton(self.opts, record=self.record)
        self.trace = newton.trace
        return newton

    def per_step(self) -> dict:
        """The last run's Newton work per step, as arrays (needs ``record=True``).

        Keys: ``t`` (start of each step), ``iterations``, ``njev``, ``nlu``,
        ``solves`` (converged solves: one per implicit stage, or one per step
        for a fully implicit tableau), ``theta`` (largest final contraction
        rate ``||dx_k|| / ||dx_{k-1}||`` among the step's solves that took two
        or more iterations; NaN if none did).  Hairer & Wanner II, sec. IV.8.
        """
        if self.trace is None:
            raise ValueError(
                "per_step needs a run with record=True: ImplicitRK(method, record=True)"
            )
        return per_step(self.trace)

    def step(self, work, t, y, h, state):
        h = check_h(h)
        if self.stagewise:
            return self._step_dirk(work, t, y, h, state), None, state
        return self._step_full(work, t, y, h, state), None, state

    # -- lower-triangular A: one n x n solve per implicit stage -------------
    def _f0(self, work, t, y, F0=None):
        """``f(t_n, y_n)`` for the explicit Euler predictor (reused if a stage has it)."""
        return None if self.predictor == "zero" else (work.f(t, y) if F0 is None else F0)

    def _step_dirk(self, work, t, y, h, newton):
        tab, n = self.tableau, y.size
        F = np.empty((tab.s, n))
        eye = np.eye(n)
        f0 = None
        for i in range(tab.s):
            ti = t + tab.c[i] * h
            base = y + h * (tab.A[i, :i] @ F[:i])
            hg = h * tab.A[i, i]
            if hg == 0.0:
                F[i] = work.f(ti, base)
                continue
            if f0 is None:  # a leading explicit stage at c = 0 is f(t_n, y_n)
                f0 = self._f0(work, t, y, F[0] if i > 0 and tab.c[0] == 0.0 else None)
            z0 = np.zeros(n) if f0 is None else y + tab.c[i] * h * f0 - base

            def G(z, ti=ti, base=base, hg=hg):  # z = h a_ii F_i, so Y_i = base + z
                return z - hg * work.f(ti, base + z)

            z = newton.solve(
                work,
                t,
                y,
                G,
                z0,
                ("dirk", hg),
                lambda J, hg=hg: eye - hg * J,
                point=lambda z, ti=ti, base=base: (ti, base + z),
            )
            F[i] = z / hg
        return y + h * (tab.b @ F)

    # -- full A: Newton on the s n system ------------------------------------
    def _step_full(self, work, t, y, h, newton):
        tab, n, e = self.tableau, y.size, self._e
        FE = np.array([work.f(t + tab.c[i] * h, y) for i in range(e)]).reshape(e, n)
        const = h * (self._A_IE @ FE)
        cI = tab.c[e:]
        m = cI.size

        def G(Z):
            Fv = np.array([work.f(t + cI[i] * h, y + Z[i]) for i in range(m)])
            return Z - const - h * (self._A_II @ Fv)

        def build(J):
            return np.eye(m * n) - h * np.kron(self._A_II, J)

        f0 = self._f0(work, t, y, FE[0] if e and tab.c[0] == 0.0 else None)
        Z0 = np.zeros((m, n)) if f0 is None else np.outer(cI * h, f0)
        last = int(np.argmax(cI))  # if J must follow the iterate, take it at the latest stage
        Z = newton.solve(
            work, t, y, G, Z0, ("irk", h), build, point=lambda Z: (t + cI[last] * h, y + Z[last])
        )
        return y + h * (tab.b[:e] @ FE) + self._d @ (Z - const)


def per_step(trace) -> dict:
    """Totals per step of a list of :class:`robonum.modified_newton.NewtonAttempt` (see ``ImplicitRK.per_step``)."""
    if not isinstance(trace, list) or not all(isinstance(a, NewtonAttempt) for a in trace):
        raise TypeError(
            "trace must be a list of NewtonAttempt (ImplicitRK(..., record=True).trace)"
        )
    rows: dict = {}
    for a in trace:
        r = rows.setdefault(a.t, [0, 0, 0, 0, np.nan])
        r[0] += a.result.iterations
        r[1] += a.njev
        r[2] += a.nlu
        r[3] += int(a.result.converged)
        if a.result.converged and a.result.iterations >= 2:
            r[4] = a.result.theta if np.isnan(r[4]) else max(r[4], a.result.theta)
    ts = sorted(rows)
    cols = np.array([rows[t] for t in ts], dtype=float).reshape(-1, 5)
    names = ("iterations", "njev", "nlu", "solves")
    return {
        "t": np.array(ts, dtype=float),
        **{k: cols[:, i].astype(int) for i, k in enumerate(names)},
        "theta": cols[:, 4],
    }
