"""Convergence studies: error against step size, the observed order, and the work it cost.

If the global error behaves like ``e(h) ~ C h^p``, two runs with steps
``h1 > h2`` give the observed order ``p = log(e1/e2) / log(h1/h2)``
(Hairer-Norsett-Wanner I, sec. II.3).  It approaches the method's order
only when ``h`` is small enough for the leading term to dominate and large
enough for rounding (~1e-16 / h) not to.

:func:`convergence_study` runs the method once per step size and keeps the
runs, so the errors, the orders and the work (``nfev`` ...) all come from
the same integrations -- a work-precision plot never re-runs anything.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _validate as check
from .integrate import integrate
from .policy import equal_steps
from .problem import ODEProblem, check_problem
from .solution import Solution

MAX_RUNS = 40


@dataclass
class ConvergenceStudy:
    """The runs of one method at several equal steps, with their errors at ``t1``.

    ``h`` are the steps actually used (``sol.h``), ``errors`` the max-norm
    errors at ``t1`` against the exact solution (``inf`` for a run that
    failed), ``solutions`` the runs themselves.
    """

    method: str
    h: np.ndarray
    errors: np.ndarray
    solutions: list

    @property
    def nfev(self) -> np.ndarray:
        return np.array([s.nfev for s in self.solutions])

    @property
    def observed_orders(self) -> np.ndarray:
        """Orders from consecutive pairs (length ``len(h) - 1``); NaN where an error is not usable."""
        e = np.where(np.isfinite(self.errors) & (self.errors > 0), self.errors, np.nan)
        return np.log(e[:-1] / e[1:]) / np.log(self.h[:-1] / self.h[1:])

    def fitted_order(self) -> float:
        """Least-squares slope of ``log e`` against ``log h`` over the usable runs."""
        return fitted_order(self.h, self.errors)

    def __repr__(self):
        return f"ConvergenceStudy({self.method}, {len(self.h)} runs, fitted order {self.fitted_order():.3g})"


def convergence_study(problem: ODEProblem, method, hs) -> ConvergenceStudy:
    """Integrate ``problem`` with ``method`` once per step in ``hs``; errors at ``t1`` vs ``exact``.

    A run that failed (``status = -1``) gets error ``inf``, so it shows up in
    a table instead of silently breaking a fit.
    Example: ``rn.convergence_study(rn.problems.logistic(), "rk4", rn.halving(0.4, 4)).fitted_order()``.
    """
    check_problem(problem)
    if problem.exact is None:
        raise ValueError(f"problem {problem.name!r} has no exact solution; give one with exact=")
    hs = _steps(hs)
    for k, h in enumerate(hs):  # each run's step count, before any run: the error names hs
        try:
            equal_steps(problem.t_span, float(h))
        except ValueError as exc:
            raise ValueError(f"hs[{k}]: {exc}") from None
    y_exact = np.asarray(problem.exact(problem.t_span[1]), dtype=float)
    sols: list[Solution] = [integrate(problem, method, h) for h in hs]
    errors = np.array([np.max(np.abs(s.y_final - y_exact)) if s.success else np.inf for s in sols])
    return ConvergenceStudy(sols[0].method, np.array([s.h for s in sols]), errors, sols)


def observed_orders(hs, errors) -> np.ndarray:
    """``log(e_k / e_{k+1}) / log(h_k / h_{k+1})`` for consecutive pairs (length n - 1)."""
    hs, errors = _steps(hs), check.real_array("errors", errors, ndim=1, finite=False)
    if errors.shape != hs.shape:
        raise ValueError(f"errors must have the same length as hs ({hs.size}), got {errors.size}")
    if np.any(~np.isfinite(errors)) or np.any(errors <= 0):
        raise ValueError("errors must be finite and > 0 to take logarithms")
    return _log_ratio(errors) / _log_ratio(hs)


def _log_ratio(x: np.ndarray) -> np.ndarray:
    """``log(x_k / x_{k+1})``; as a difference of logs where the ratio over- or underflows
    (``1e308 / 1e-3``), so that extreme but valid inputs give a finite order, not a warning."""
    with np.errstate(over="ignore", under="ignore"):
        r = x[:-1] / x[1:]
    ok = np.isfinite(r) & (r > 0)
    return np.where(ok, np.log(np.where(ok, r, 1.0)), np.log(x[:-1]) - np.log(x[1:]))


def fitted_order(hs, errors) -> float:
    """Least-squares slope of ``log e`` against ``log h`` over the pairs with a finite error > 0."""
    hs, errors = _steps(hs), check.real_array("errors", errors, ndim=1, finite=False)
    if errors.shape != hs.shape:
        raise ValueError(f"errors must have the same length as hs ({hs.size}), got {errors.size}")
    ok = np.isfinite(errors) & (errors > 0)
    if ok.sum() < 2:
        raise ValueError("need at least 2 finite errors > 0 to fit an order")
    slope, _ = np.polyfit(np.log(hs[ok]), np.log(errors[ok]), 1)
    return float(slope)


def halving(h0: float, n: int) -> np.ndarray:
    """``h0, h0/2, ..., h0/2^(n-1)``: the classic step-halving sequence."""
    h0 = check.positive("h0", h0, hi=1e6)
    n = check.integer("n", n, 2, MAX_RUNS)
    return h0 / 2.0 ** np.arange(n)


def _steps(hs) -> np.ndarray:
    hs = check.real_array("hs", hs, ndim=1, max_size=MAX_RUNS)
    if hs.size < 2:
        raise ValueError(f"hs must hold at least 2 step sizes, got {hs.size}")
    if np.any(hs <= 0):
        raise ValueError("hs must contain step sizes > 0")
    if np.any(hs[1:] == hs[:-1]):
        raise ValueError("hs must not repeat a step size next to itself (log(h_k / h_k+1) = 0)")
    return hs
