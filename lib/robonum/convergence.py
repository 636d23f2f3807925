"""Convergence studies: error against step size, and the observed order.

If the global error behaves like ``e(h) ~ C h^p``, two runs with steps
``h1 > h2`` give the observed order ``p = log(e1/e2) / log(h1/h2)``
(Hairer-Norsett-Wanner I, sec. II.3).  It approaches the method's order
only when ``h`` is small enough for the leading term to dominate and large
enough for rounding (~1e-16 / h) not to.
"""
from __future__ import annotations

import numpy as np

from . import _validate as check
from .integrate import integrate
from .problem import ODEProblem


def final_errors(problem: ODEProblem, method, hs) -> np.ndarray:
    """Max-norm error at ``t1`` against ``problem.exact`` for each step in ``hs``.

    A run that diverged (status -1) gives ``inf``, so it shows up in a table
    instead of silently breaking a fit.
    """
    if problem.exact is None:
        raise ValueError(f"problem {problem.name!r} has no exact solution; pass one via exact=")
    hs = _steps(hs)
    t1 = problem.t_span[1]
    y_exact = np.asarray(problem.exact(t1), dtype=float)
    errs = []
    for h in hs:
        sol = integrate(problem, method, h)
        errs.append(np.max(np.abs(sol.y_final - y_exact)) if sol.success else np.inf)
    return np.array(errs)


def observed_orders(hs, errors) -> np.ndarray:
    """``log(e_k / e_{k+1}) / log(h_k / h_{k+1})`` for consecutive pairs (length n - 1)."""
    hs, errors = _steps(hs), np.asarray(errors, dtype=float)
    if errors.shape != hs.shape:
        raise ValueError(f"errors must have the same length as hs ({hs.size}), got {errors.shape}")
    if np.any(~np.isfinite(errors)) or np.any(errors <= 0):
        raise ValueError("errors must be finite and > 0 to take logarithms")
    return np.log(errors[:-1] / errors[1:]) / np.log(hs[:-1] / hs[1:])


def fitted_order(hs, errors) -> float:
    """Least-squares slope of ``log e`` against ``log h``."""
    observed_orders(hs, errors)  # same validation
    slope, _ = np.polyfit(np.log(_steps(hs)), np.log(np.asarray(errors, float)), 1)
    return float(slope)


def halving(h0: float, n: int) -> np.ndarray:
    """``h0, h0/2, ..., h0/2^(n-1)``: the classic step-halving sequence."""
    h0 = check.positive("h0", h0)
    n = check.integer("n", n, 2, 40)
    return h0 / 2.0 ** np.arange(n)


def _steps(hs) -> np.ndarray:
    hs = np.asarray(hs, dtype=float)
    if hs.ndim != 1 or hs.size < 2:
        raise ValueError(f"hs must be a 1-D sequence of at least 2 step sizes, got shape {hs.shape}")
    if np.any(~np.isfinite(hs)) or np.any(hs <= 0):
        raise ValueError("hs must contain finite step sizes > 0")
    return hs
