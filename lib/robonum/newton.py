"""Newton and simplified (modified) Newton iterations for the equations of implicit methods.

An implicit step must solve ``G(x) = 0``: ``M dx_k = -G(x_k)``, ``x_{k+1} = x_k + dx_k``
with ``M ≈ G'(x) = I - h (coefficient) J``, ``J = df/dy``.  Newton proper evaluates
``J`` at every iterate; the *modified* Newton method keeps one ``J`` and one LU of
``M`` across iterations and steps, recomputed when convergence becomes slow or
``h`` changes (``NewtonOptions(jacobian="full" | "step" | "reuse")``).

Convergence is judged as in Hairer & Wanner, *Solving ODEs II*, sec. IV.8
(the simplified Newton iteration of implicit RK methods): with the
contraction rate ``theta_k = ||dx_k|| / ||dx_{k-1}||`` and
``eta_k = theta_k / (1 - theta_k)`` the remaining error is about
``eta_k ||dx_k||``, and the iteration stops when

    eta_k ||dx_k|| <= kappa * tol.

For ``k = 0`` there is no rate yet and ``eta_0 = max(eta_old, eps)^0.8`` is
taken from the previous solve.  The norm is the RMS norm weighted by
``1 + |y|`` (absolute for small, relative for large components).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from . import _validate as check
from .errors import EvaluationError, NonlinearSolveError

_EPS = np.finfo(float).eps
JACOBIAN_STRATEGIES = ("reuse", "step", "full")


@dataclass(frozen=True)
class NewtonOptions:
    """Tolerances of the modified Newton iteration (validated).

    tol : the target ``eta ||dx|| <= kappa * tol`` in the norm above, in [1e-14, 0.1].
    kappa : safety factor in (0, 1] (Hairer-Wanner suggest 0.01..0.1).
    max_iter : iterations per solve, 1..100.
    theta_max : a rate above this with an *old* Jacobian aborts the solve and
        retries with a fresh ``J`` (slow convergence), in (0, 1).
    theta_reuse : after a converged solve, a rate above this marks ``J`` for
        re-evaluation at the next step (Hairer's Radau5 uses 1e-3), in (0, 1].
    jacobian : when ``J`` is evaluated, one of ``JACOBIAN_STRATEGIES``:
        ``"reuse"`` keeps ``J`` and its LU across iterations and steps (refreshed
        by the two rates above or a new ``h``); ``"step"`` evaluates ``J`` at
        ``(t_n, y_n)`` once per step; ``"full"`` at every iterate (Newton proper,
        quadratic convergence; for a fully implicit tableau the one ``J`` is
        taken at the iterate of the last stage).
    """

    tol: float = 1e-10
    kappa: float = 0.1
    max_iter: int = 10
    theta_max: float = 0.5
    theta_reuse: float = 1e-3
    jacobian: str = "reuse"

    def __post_init__(self):
        tol = check.positive("tol", self.tol)
        if not 1e-14 <= tol <= 0.1:
            raise ValueError(f"tol must be in [1e-14, 0.1], got {self.tol!r}")
        kappa = check.positive("kappa", self.kappa)
        if kappa > 1:
            raise ValueError(f"kappa must be in (0, 1], got {self.kappa!r}")
        check.integer("max_iter", self.max_iter, 1, 100)
        if not 0 < check.real("theta_max", self.theta_max) < 1:
            raise ValueError(f"theta_max must be in (0, 1), got {self.theta_max!r}")
        if not 0 < check.real("theta_reuse", self.theta_reuse) <= 1:
            raise ValueError(f"theta_reuse must be in (0, 1], got {self.theta_reuse!r}")
        if not isinstance(self.jacobian, str) or self.jacobian not in JACOBIAN_STRATEGIES:
            raise ValueError(f"jacobian must be one of {JACOBIAN_STRATEGIES}, got {self.jacobian!r}")


@dataclass
class NewtonResult:
    """Outcome of :func:`newton_solve`; ``reason`` says why it stopped.

    ``residuals[k]`` = RMS of ``G(x_k)``, ``corrections[k]`` = weighted RMS of ``dx_k``, one
    per iteration (``G`` of the returned ``x`` is not evaluated: it would cost an ``f``).
    """

    x: np.ndarray
    converged: bool
    iterations: int
    theta: float        # last contraction rate (0 if only one iteration)
    eta: float          # last eta, handed to the next solve
    residual: float     # RMS norm of the last evaluated G(x)
    reason: str
    residuals: list = field(default_factory=list)
    corrections: list = field(default_factory=list)


def newton_solve(G: Callable, solve: Callable, x0, *, weight=1.0,
                 opts: NewtonOptions | None = None, eta0: float = 1.0, abort_slow: bool = False, predict: bool = True,
                 work=None, allow_growth: bool = False) -> NewtonResult:
    """Simplified Newton for ``G(x) = 0`` with a fixed iteration matrix ``M``.

    ``x_{k+1} = x_k - M^{-1} G(x_k)`` where ``solve(r)`` returns ``M^{-1} r``
    (an LU solve).  Stops when ``eta_k ||dx_k|| <= kappa tol`` (converged),
    or ``theta_k >= 1`` (diverging; not if ``allow_growth``: Newton proper far from
    the root), or -- if ``predict`` -- the predicted error after the remaining iterations
    ``theta^(max_iter-1-k) / (1-theta) ||dx_k||`` stays above ``kappa tol`` (too slow), or -- if ``abort_slow`` -- when
    ``theta_k > theta_max``.  ``weight`` scales the RMS norm: ``||v|| = rms(v / weight)``.
    Reference: Hairer & Wanner, *Solving ODEs II*, sec. IV.8.

    Example: for ``G(x) = x - 2`` with ``solve = lambda r: r`` it converges
    in one iteration (plus one to confirm the rate when ``eta0 = 1``).
    """
    check.callable_("G", G)
    check.callable_("solve", solve)
    opts = NewtonOptions() if opts is None else opts
    if not isinstance(opts, NewtonOptions):
        raise TypeError(f"opts must be a NewtonOptions, got {type(opts).__name__}")
    x = np.array(x0, dtype=float)
    if not np.all(np.isfinite(x)):
        raise ValueError("x0 must contain only finite values")
    if not np.all(np.asarray(weight) > 0):
        raise ValueError("weight must be > 0")
    eta0 = check.positive("eta0", eta0, allow_zero=True)
    target = opts.kappa * opts.tol
    eta, theta, dx_old, res = max(eta0, _EPS) ** 0.8, 0.0, None, np.inf
    residuals, corrections = [], []

    def out(ok, k, th, et, reason):
        return NewtonResult(x, ok, k, th, et, res, reason, residuals, corrections)

    for k in range(opts.max_iter):
        try:
            g = np.asarray(G(x), dtype=float)
        except EvaluationError as exc:
            if k == 0:
                raise            # f is not finite at the starting point itself: not Newton's fault
            res = np.inf
            return out(False, k, theta, eta, f"non-finite iterate ({exc})")
        res = float(np.sqrt(np.mean(g ** 2)))
        dx = -np.asarray(solve(g.ravel()), dtype=float).reshape(x.shape)
        if work is not None:
            work.n_newton += 1
        residuals.append(res)
        if not (np.all(np.isfinite(dx)) and np.isfinite(res)):
            return out(False, k + 1, theta, eta, "non-finite iterate")
        x = x + dx
        dx_norm = float(np.sqrt(np.mean((dx / weight) ** 2)))
        corrections.append(dx_norm)
        if dx_old is not None:
            theta = dx_norm / dx_old
            if dx_norm <= 10 * _EPS:  # correction at rounding level: nothing left to gain
                return out(True, k + 1, min(theta, 0.5), min(theta, 0.5), "converged (rounding level)")
            if theta >= 1.0 and not allow_growth:
                return out(False, k + 1, theta, eta, f"diverging (theta = {theta:.3g})")
            eta = theta / (1.0 - theta) if theta < 1.0 else np.inf
        elif dx_norm <= 10 * _EPS:
            return out(True, 1, theta, eta, "converged (rounding level)")
        if eta * dx_norm <= target:
            return out(True, k + 1, theta, eta, "converged")
        if dx_old is not None:
            if abort_slow and theta > opts.theta_max:
                return out(False, k + 1, theta, eta, f"slow (theta = {theta:.3g})")
            left = opts.max_iter - 1 - k
            if predict and theta ** left / (1.0 - theta) * dx_norm > target:
                return out(False, k + 1, theta, eta, f"too slow to converge in max_iter (theta = {theta:.3g})")
        dx_old = dx_norm
    return out(False, opts.max_iter, theta, eta, "max_iter reached")


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
        self.opts = opts or NewtonOptions()
        self.J = None
        self.J_t = None          # time at which J was evaluated
        self.stale = True
        self.eta = 1.0           # eta_old of Hairer-Wanner, carried between solves
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
            self.trace.append(NewtonAttempt(t, key, label, r, work.njev - before[0], work.nlu - before[1]))
        return r

    def _iterate(self, work, t, y, G, x0, key, build, last_chance=False, label=None, at=None):
        before = (work.njev, work.nlu)
        if at is not None:                   # a fresh J at this (t, y), for the step at t
            self._refresh(work, *at, t)
        self.jacobian(work, t, y)
        lu = self.lu(work, key, build)
        label = label or ("new" if work.njev > before[0] else "kept")
        r = newton_solve(G, lambda g: work.lu_solve(lu, g), x0, weight=1.0 + np.abs(y),
                         opts=self.opts, eta0=self.eta, abort_slow=self.J_t != t,
                         predict=not last_chance, work=work)
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
            opts = NewtonOptions(tol=opts.tol, kappa=opts.kappa, max_iter=min(100, 2 * opts.max_iter))

        def G_at(x):
            current["x"] = x
            return G(x)

        def solve(g):
            self._refresh(work, *point(current["x"]), t)
            return work.lu_solve(self.lu(work, key, build), g)

        try:
            r = newton_solve(G_at, solve, x0, weight=1.0 + np.abs(y), opts=opts,
                             eta0=1.0 if fallback else self.eta, predict=False, work=work,
                             allow_growth=fallback)
        except EvaluationError as exc:      # f not finite at x0: a failed fallback, else the caller's
            if not fallback:
                raise
            r = NewtonResult(np.array(x0, dtype=float), False, 0, 0.0, 1.0, np.inf, f"non-finite ({exc})")
        self.stale, self.eta = True, (r.eta if r.converged and not fallback else 1.0)
        return self._log(t, key, "fallback" if fallback else "full", r, before, work)

    def solve(self, work, t: float, y: np.ndarray, G: Callable, x0, key, build: Callable,
              point: Callable | None = None):
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
                r = self._iterate(work, t, y, G, r.x, key, build, last_chance=True, label="at_iterate",
                                  at=point(r.x))
        if not r.converged and point is not None:
            r = self._iterate_full(work, t, y, G, x0, key, build, point, fallback=True)
        if r.converged:
            return r.x
        raise NonlinearSolveError(f"Newton iteration failed at t = {t:g}: {r.reason}",
                                  r.iterations, r.residual)
