"""Simplified (modified) Newton iteration for the equations of implicit methods.

An implicit step must solve ``G(x) = 0``.  Newton's method needs
``G'(x) = I - h (coefficient) J`` with ``J = df/dy``; the *modified* Newton
method keeps one approximate ``J`` and one LU factorisation of the iteration
matrix ``M`` and only recomputes them when convergence becomes slow or when
``h`` changes:

    M dx_k = -G(x_k),   x_{k+1} = x_k + dx_k.

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

from dataclasses import dataclass
from typing import Callable

import numpy as np

from . import _validate as check
from .errors import EvaluationError, NonlinearSolveError

_EPS = np.finfo(float).eps


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
    """

    tol: float = 1e-10
    kappa: float = 0.1
    max_iter: int = 10
    theta_max: float = 0.5
    theta_reuse: float = 1e-3

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


@dataclass
class NewtonResult:
    """Outcome of :func:`newton_solve`; ``reason`` says why it stopped."""

    x: np.ndarray
    converged: bool
    iterations: int
    theta: float        # last contraction rate (0 if only one iteration)
    eta: float          # last eta, handed to the next solve
    residual: float     # RMS norm of the last evaluated G(x)
    reason: str


def newton_solve(G: Callable, solve: Callable, x0, *, weight=1.0,
                 opts: NewtonOptions | None = None, eta0: float = 1.0, abort_slow: bool = False, predict: bool = True,
                 work=None) -> NewtonResult:
    """Simplified Newton for ``G(x) = 0`` with a fixed iteration matrix ``M``.

    ``x_{k+1} = x_k - M^{-1} G(x_k)`` where ``solve(r)`` returns ``M^{-1} r``
    (an LU solve).  Stops when ``eta_k ||dx_k|| <= kappa tol`` (converged),
    or ``theta_k >= 1`` (diverging), or -- if ``predict`` -- the predicted
    error after the remaining iterations ``theta^(max_iter-1-k) / (1-theta) ||dx_k||``
    stays above ``kappa tol`` (too slow), or -- if ``abort_slow`` -- when
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
    for k in range(opts.max_iter):
        try:
            g = np.asarray(G(x), dtype=float)
        except EvaluationError as exc:
            if k == 0:
                raise            # f is not finite at the starting point itself: not Newton's fault
            return NewtonResult(x, False, k, theta, eta, np.inf, f"non-finite iterate ({exc})")
        res = float(np.sqrt(np.mean(g ** 2)))
        dx = -np.asarray(solve(g.ravel()), dtype=float).reshape(x.shape)
        if work is not None:
            work.n_newton += 1
        if not (np.all(np.isfinite(dx)) and np.isfinite(res)):
            return NewtonResult(x, False, k + 1, theta, eta, res, "non-finite iterate")
        x = x + dx
        dx_norm = float(np.sqrt(np.mean((dx / weight) ** 2)))
        if dx_old is not None:
            theta = dx_norm / dx_old
            if dx_norm <= 10 * _EPS:  # correction at rounding level: nothing left to gain
                return NewtonResult(x, True, k + 1, min(theta, 0.5), min(theta, 0.5),
                                    res, "converged (rounding level)")
            if theta >= 1.0:
                return NewtonResult(x, False, k + 1, theta, eta, res, f"diverging (theta = {theta:.3g})")
            eta = theta / (1.0 - theta)
        elif dx_norm <= 10 * _EPS:
            return NewtonResult(x, True, 1, theta, eta, res, "converged (rounding level)")
        if eta * dx_norm <= target:
            return NewtonResult(x, True, k + 1, theta, eta, res, "converged")
        if dx_old is not None:
            if abort_slow and theta > opts.theta_max:
                return NewtonResult(x, False, k + 1, theta, eta, res, f"slow (theta = {theta:.3g})")
            left = opts.max_iter - 1 - k
            if predict and theta ** left / (1.0 - theta) * dx_norm > target:
                return NewtonResult(x, False, k + 1, theta, eta, res,
                                    f"too slow to converge in max_iter (theta = {theta:.3g})")
        dx_old = dx_norm
    return NewtonResult(x, False, opts.max_iter, theta, eta, res, "max_iter reached")


class ModifiedNewton:
    """Jacobian and LU caches for one run, shared by all solves of a stepper.

    * ``J`` is evaluated once and reused across iterations *and* steps; it is
      marked stale when a converged solve contracted slower than
      ``theta_reuse``, and re-evaluated at once (the solve retried) when a
      solve with an old ``J`` fails or contracts slower than ``theta_max``.
    * The LU of ``M = build(J)`` is cached under a ``key`` that contains the
      step (e.g. ``("bdf", h * beta0)``): a new ``h`` means a new key and a
      new factorisation; a new ``J`` clears every cached LU.

    Counters go through ``work`` (``njev``, ``nlu``, ``n_newton``).
    Reference: Hairer & Wanner, *Solving ODEs II*, sec. IV.8.
    """

    _MAX_LU = 4  # DIRKs with distinct diagonal entries need a few at once

    def __init__(self, opts: NewtonOptions | None = None):
        self.opts = opts or NewtonOptions()
        self.J = None
        self.J_t = None          # time at which J was evaluated
        self.stale = True
        self.eta = 1.0           # eta_old of Hairer-Wanner, carried between solves
        self._lu: dict = {}

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

    def _iterate(self, work, t, y, G, x0, key, build, last_chance=False):
        self.jacobian(work, t, y)
        lu = self.lu(work, key, build)
        r = newton_solve(G, lambda g: work.lu_solve(lu, g), x0, weight=1.0 + np.abs(y),
                         opts=self.opts, eta0=self.eta, abort_slow=self.J_t != t,
                         predict=not last_chance, work=work)
        if r.converged:
            self.eta = r.eta
            self.stale = r.theta > self.opts.theta_reuse
        else:
            self.stale, self.eta = True, 1.0
        return r

    def solve(self, work, t: float, y: np.ndarray, G: Callable, x0, key, build: Callable,
              point: Callable | None = None):
        """Solve ``G(x) = 0`` from ``x0`` for the step that starts at ``(t, y)``.

        1. Iterate with the cached ``J`` (re-evaluated at ``(t, y)`` if stale).
        2. If that fails and ``J`` is from an earlier step, re-evaluate it at
           ``(t, y)`` and restart from ``x0``.
        3. If it still fails without diverging (too slow) and ``point`` is
           given, evaluate ``J`` at ``point(x)`` -- the ``(t, y)`` of the
           current iterate -- and continue from ``x`` (up to ``max_iter`` more
           iterations, without the early "too slow" abort): this rescues
           problems whose Jacobian changes a lot within one step.
        4. Last, full Newton from ``x0`` (``J`` at every iterate): slower
           per iteration, but it converges where a Jacobian frozen at
           ``(t, y)`` points the wrong way -- Robertson's ``J`` at
           ``y0 = (1, 0, 0)`` misses every term of the fast reactions.
        Otherwise raise :class:`robonum.integrate.NonlinearSolveError`.
        """
        r = self._iterate(work, t, y, G, x0, key, build)
        if not r.converged and self.J_t != t:
            self._refresh(work, t, y, t)
            r = self._iterate(work, t, y, G, x0, key, build)
        diverged = r.reason.startswith(("diverging", "non-finite"))
        if not r.converged and point is not None and not diverged:
            self._refresh(work, *point(r.x), t)
            r = self._iterate(work, t, y, G, r.x, key, build, last_chance=True)
        if not r.converged and point is not None:
            r = self._full_newton(work, t, y, G, x0, key, build, point)
        if r.converged:
            return r.x
        raise NonlinearSolveError(f"Newton iteration failed at t = {t:g}: {r.reason}",
                                  r.iterations, r.residual)

    def _full_newton(self, work, t, y, G, x0, key, build, point):
        """Newton with ``J`` re-evaluated at each iterate (at most ``2 max_iter`` steps)."""
        x, total, residual = np.array(x0, dtype=float), 0, np.inf
        single = NewtonOptions(tol=self.opts.tol, kappa=self.opts.kappa, max_iter=1)
        for _ in range(2 * self.opts.max_iter):
            self._refresh(work, *point(x), t)
            lu = self.lu(work, key, build)
            # one plain Newton step; converged once the step is below the tolerance
            try:
                r = newton_solve(G, lambda g: work.lu_solve(lu, g), x, weight=1.0 + np.abs(y),
                                 opts=single, eta0=0.0, predict=False, work=work)
            except EvaluationError:      # f not finite at this iterate: full Newton failed too
                break
            step = float(np.sqrt(np.mean(((r.x - x) / (1.0 + np.abs(y))) ** 2)))
            x, total, residual = r.x, total + 1, r.residual
            if not np.all(np.isfinite(x)):
                break
            if step <= self.opts.kappa * self.opts.tol:
                self.stale, self.eta = True, 1.0   # J was taken off-step: refresh next step
                return NewtonResult(x, True, total, 0.0, 1.0, residual, "converged (full Newton)")
        return NewtonResult(x, False, total, 0.0, 1.0, residual, "full Newton did not converge")
