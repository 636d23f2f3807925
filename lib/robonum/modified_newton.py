"""The modified Newton method's caches: one Jacobian and one LU per iteration matrix, shared by a run.

:class:`ModifiedNewton` keeps ``J`` and the LU factors of ``M = I - h (coefficient) J``
across iterations *and* steps and refreshes them when :func:`robonum.newton.newton_solve`
reports slow convergence or a failure (``NewtonOptions(jacobian="reuse" | "step" |
"full")``); :class:`NewtonAttempt` records each call when asked.
Reference: Hairer & Wanner, *Solving ODEs II*, sec. IV.8.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from . import _validate as check
from .errors import EvaluationError, NonlinearSolveError
from .newton import NewtonOptions, NewtonResult, iterate, newton_solve


@dataclass(frozen=True)
class NewtonAttempt:
    """One call of the iteration inside :meth:`ModifiedNewton.solve`, as recorded.

    ``t``: start of the step; ``key``: the iteration matrix (``("dirk", h a_ii)``, ``("irk", h)``);
    ``jacobian``: where ``J`` came from -- ``"kept"`` (an earlier step's), ``"new"`` (at
    ``(t_n, y_n)``), ``"refreshed"`` (after a failed attempt), ``"at_iterate"``, ``"full"``
    (at every iterate), ``"fallback"`` (the same, last resort); ``njev``, ``nlu``: its cost.
    """

    t: float
    key: tuple
    jacobian: str
    result: NewtonResult
    njev: int
    nlu: int


class ModifiedNewton:
    """Jacobian and LU caches for one run, shared by all solves of a stepper.

    * ``J`` is evaluated once and reused across iterations *and* steps; it is
      marked stale when a converged solve contracted slower than
      ``theta_reuse``, and re-evaluated at once (the solve retried) when a
      solve with an old ``J`` fails or contracts slower than ``theta_max``
      (``opts.jacobian = "step"``: at every step, ``"full"``: at every iterate).
    * The LU of ``M = build(J)`` is cached under a ``key`` that contains the
      step (e.g. ``("bdf", h * beta0)``): a new ``h`` means a new key and a
      new factorisation; a new ``J`` clears every cached LU.
    * ``record=True`` keeps every attempt in ``self.trace``, a list of
      :class:`NewtonAttempt` (``ImplicitRK.per_step`` sums it per step).

    Counters go through ``work`` (``njev``, ``nlu``, ``n_newton``).
    Reference: Hairer & Wanner, *Solving ODEs II*, sec. IV.8.
    """

    _MAX_LU = 4  # DIRKs with distinct diagonal entries need a few at once

    def __init__(self, opts: NewtonOptions | None = None, *, record: bool = False):
        if opts is not None and not isinstance(opts, NewtonOptions):
            raise TypeError(f"opts must be a NewtonOptions, got {type(opts).__name__}")
        self.opts = opts or NewtonOptions()
        self.J = None
        self.J_t = None  # time at which J was evaluated
        self.stale = True
        self.eta = 1.0  # eta_old of Hairer-Wanner, carried between solves
        self._lu: dict = {}
        self.trace = [] if check.boolean("record", record) else None

    def jacobian(self, work, t: float, y: np.ndarray) -> np.ndarray:
        """The cached ``J``, re-evaluated at ``(t, y)`` if missing or stale.

        A ``J`` taken at this same ``t`` is kept even if stale: re-evaluating
        at the same point (e.g. for the next SDIRK stage) would change nothing.
        """
        if self.J is None or (self.stale and self.J_t != t):
            self.J = work.jac(t, y)
            self.J_t, self.stale = t, False
            self._lu.clear()
        return self.J

    def lu(self, work, key, build: Callable):
        """LU of ``build(J)``, factorised once per ``(key, J)``."""
        if key not in self._lu:
            if len(self._lu) >= self._MAX_LU:
                self._lu.pop(next(iter(self._lu)))
            M = build(self.J)
            if not np.all(np.isfinite(M)):
                raise NonlinearSolveError("iteration matrix is not finite", 0, np.inf)
            self._lu[key] = work.lu_factor(M)
        return self._lu[key]

    def _refresh(self, work, t_eval: float, y_eval: np.ndarray, t: float):
        """Evaluate ``J`` at ``(t_eval, y_eval)``; it counts as fresh for the step at ``t``."""
        self.J, self.J_t, self.stale = work.jac(t_eval, y_eval), t, False
        self._lu.clear()

    def _log(self, t, key, label, r, before, work):
        if self.trace is not None:
            self.trace.append(
                NewtonAttempt(t, key, label, r, work.njev - before[0], work.nlu - before[1])
            )
        return r

    def _iterate(self, work, t, y, G, x0, key, build, last_chance=False, label=None, at=None):
        before = (work.njev, work.nlu)
        if at is not None:  # a fresh J at this (t, y), for the step at t
            self._refresh(work, *at, t)
        self.jacobian(work, t, y)
        lu = self.lu(work, key, build)
        label = label or ("new" if work.njev > before[0] else "kept")
        r = iterate(  # newton_solve's loop: x0 and the options come from the stepper, checked
            G,
            lambda g: work.lu_solve(lu, g),
            np.asarray(x0, dtype=float),
            1.0 + np.abs(y),
            self.opts,
            self.eta,
            abort_slow=self.J_t != t,
            predict=not last_chance,
            work=work,
        )
        if r.converged:
            self.eta = r.eta
            self.stale = r.theta > self.opts.theta_reuse
        else:
            self.stale, self.eta = True, 1.0
        return self._log(t, key, label, r, before, work)

    def _iterate_full(self, work, t, y, G, x0, key, build, point, fallback=False):
        """Newton proper: ``J`` at ``point(x_k)`` and a new LU at every iterate.

        As the ``fallback`` (step 4 of :meth:`solve`): up to ``2 max_iter`` iterations,
        from ``eta = 1``, not stopped by a growing correction."""
        before, current = (work.njev, work.nlu), {}
        opts = self.opts
        if fallback:
            opts = NewtonOptions(
                tol=opts.tol, kappa=opts.kappa, max_iter=min(100, 2 * opts.max_iter)
            )

        def G_at(x):
            current["x"] = x
            return G(x)

        def solve(g):
            self._refresh(work, *point(current["x"]), t)
            return work.lu_solve(self.lu(work, key, build), g)

        try:
            r = newton_solve(
                G_at,
                solve,
                x0,
                weight=1.0 + np.abs(y),
                opts=opts,
                eta0=1.0 if fallback else self.eta,
                predict=False,
                work=work,
                allow_growth=fallback,
            )
        except EvaluationError as exc:  # f not finite at x0: a failed fallback, else the caller's
            if not fallback:
                raise
            r = NewtonResult(
                np.array(x0, dtype=float), False, 0, 0.0, 1.0, np.inf, f"non-finite ({exc})"
            )
        self.stale, self.eta = True, (r.eta if r.converged and not fallback else 1.0)
        return self._log(t, key, "fallback" if fallback else "full", r, before, work)

    def solve(
        self,
        work,
        t: float,
        y: np.ndarray,
        G: Callable,
        x0,
        key,
        build: Callable,
        point: Callable | None = None,
    ):
        """Solve ``G(x) = 0`` from ``x0`` for the step that starts at ``(t, y)``.

        0. ``opts.jacobian == "full"`` (with ``point``): Newton proper, ``J`` at every
           iterate; on failure go to 4.  ``"step"``: ``J`` re-evaluated once per step.
        1. Iterate with the cached ``J`` (re-evaluated at ``(t, y)`` if stale).
        2. If that fails and ``J`` is from an earlier step, re-evaluate it at
           ``(t, y)`` and restart from ``x0``.
        3. If it still fails without diverging and ``point`` is given, evaluate
           ``J`` at ``point(x)`` -- the ``(t, y)`` of the current iterate -- and
           continue from ``x`` (no early "too slow" abort): this rescues problems
           whose Jacobian changes a lot within one step.
        4. Last, full Newton from ``x0`` (``J`` at every iterate): it converges
           where a ``J`` frozen at ``(t, y)`` points the wrong way -- Robertson's
           ``J`` at ``y0 = (1, 0, 0)`` misses every term of the fast reactions.
        Otherwise raise :class:`robonum.errors.NonlinearSolveError`.
        """
        if self.opts.jacobian == "full" and point is not None:
            r = self._iterate_full(work, t, y, G, x0, key, build, point)
        else:
            if self.opts.jacobian == "step" and self.J_t != t:
                self.stale = True
            r = self._iterate(work, t, y, G, x0, key, build)
            if not r.converged and self.J_t != t:
                r = self._iterate(work, t, y, G, x0, key, build, label="refreshed", at=(t, y))
            diverged = r.reason.startswith(("diverging", "non-finite"))
            if not r.converged and point is not None and not diverged:
                r = self._iterate(
                    work,
                    t,
                    y,
                    G,
                    r.x,
                    key,
                    build,
                    last_chance=True,
                    label="at_iterate",
                    at=point(r.x),
                )
        if not r.converged and point is not None:
            r = self._iterate_full(work, t, y, G, x0, key, build, point, fallback=True)
        if r.converged:
            return r.x
        raise NonlinearSolveError(
            f"Newton iteration failed at t = {t:g}: {r.reason}", r.iterations, r.residual
        )
