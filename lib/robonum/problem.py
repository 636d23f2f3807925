"""An initial-value problem, kept apart from the method that solves it.

``ODEProblem`` holds ``y' = f(t, y)``, ``y(t0) = y0`` and what we know about
it (an analytic Jacobian, an exact solution).  ``Work`` wraps a problem for
one run and counts the work the way SciPy's ``solve_ivp`` reports it:
``nfev`` (right-hand side calls), ``njev`` (Jacobian evaluations) and
``nlu`` (LU factorisations), plus Newton iterations.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import scipy.linalg

from . import _validate as check


@dataclass(frozen=True, eq=False)
class ODEProblem:
    """``y' = f(t, y)`` on ``t_span`` from ``y0``.

    Parameters
    ----------
    f : callable ``f(t, y) -> array of shape (n,)``
    y0 : array_like of shape (n,) (a scalar is treated as ``n = 1``)
    t_span : (t0, t1) with t0 < t1
    jac : callable ``jac(t, y) -> (n, n) array``, optional
        Analytic Jacobian ``df/dy``; without it implicit methods use forward
        differences.
    exact : callable ``exact(t) -> array of shape (n,)``, optional
        Exact solution, used by error and order studies.
    name : str
    params : dict
        Physical parameters, for display (units in the key names).
    """

    f: Callable
    y0: np.ndarray
    t_span: tuple
    jac: Callable | None = None
    exact: Callable | None = None
    name: str = "ODE"
    params: dict = field(default_factory=dict)

    def __post_init__(self):
        check.callable_("f", self.f)
        if self.jac is not None:
            check.callable_("jac", self.jac)
        if self.exact is not None:
            check.callable_("exact", self.exact)
        y0 = check.finite_vector("y0", self.y0)
        y0.setflags(write=False)
        object.__setattr__(self, "y0", y0)
        object.__setattr__(self, "t_span", check.interval("t_span", self.t_span))
        fy = np.asarray(self.f(self.t_span[0], y0.copy()), dtype=float)
        if fy.shape != y0.shape:
            raise ValueError(f"f(t0, y0) must have shape {y0.shape} like y0, got {fy.shape}")

    @property
    def n(self) -> int:
        """Dimension of the state."""
        return self.y0.size

    def replace(self, **changes) -> "ODEProblem":
        """A copy with some fields changed, e.g. ``problem.replace(t_span=(0, 5))``."""
        fields = dict(f=self.f, y0=self.y0, t_span=self.t_span, jac=self.jac,
                      exact=self.exact, name=self.name, params=self.params)
        fields.update(changes)
        return ODEProblem(**fields)


class Work:
    """The right-hand side of one run, with SciPy-style work counters.

    Steppers call ``work.f``, ``work.jac`` and ``work.lu_factor`` /
    ``work.lu_solve`` instead of the raw functions, so every result reports
    exactly what it cost.
    """

    def __init__(self, problem: ODEProblem):
        self.problem = problem
        self.nfev = 0        # calls of f (including those for FD Jacobians)
        self.njev = 0        # Jacobian evaluations
        self.nlu = 0         # LU factorisations
        self.n_newton = 0    # Newton iterations, summed over all solves

    def f(self, t: float, y: np.ndarray) -> np.ndarray:
        self.nfev += 1
        return np.asarray(self.problem.f(t, y), dtype=float)

    def jac(self, t: float, y: np.ndarray, fy: np.ndarray | None = None) -> np.ndarray:
        """``df/dy`` at ``(t, y)``: analytic if the problem has it, else forward differences.

        The difference step ``sqrt(eps) * max(1, |y_j|)`` balances truncation
        (O(delta)) against rounding (O(eps/delta)); see chapter on finite differences.
        """
        self.njev += 1
        if self.problem.jac is not None:
            return np.atleast_2d(np.asarray(self.problem.jac(t, y), dtype=float))
        if fy is None:
            fy = self.f(t, y)
        n = y.size
        J = np.empty((n, n))
        for j in range(n):
            delta = np.sqrt(np.finfo(float).eps) * max(1.0, abs(y[j]))
            yj = y.copy()
            yj[j] += delta
            J[:, j] = (self.f(t, yj) - fy) / delta
        return J

    def lu_factor(self, M: np.ndarray):
        self.nlu += 1
        return scipy.linalg.lu_factor(M, check_finite=False)

    @staticmethod
    def lu_solve(lu, rhs: np.ndarray) -> np.ndarray:
        return scipy.linalg.lu_solve(lu, rhs, check_finite=False)

    def counters(self) -> dict:
        return dict(nfev=self.nfev, njev=self.njev, nlu=self.nlu, n_newton=self.n_newton)
