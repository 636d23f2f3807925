"""The work of one run: every call of ``f``, ``jac`` and every LU, checked and counted.

:class:`Work` wraps a problem for one run, checks every value the user's
functions return, and counts the work the way SciPy's ``solve_ivp`` reports
it: ``nfev``, ``njev``, ``nlu``, plus Newton iterations.

``nfev`` has SciPy's meaning (and CVODE's ``nfe``): the calls of ``f`` the method
makes, *not* those that build a finite-difference Jacobian; those are counted
apart in ``nfev_jac`` (CVODE's ``nfeLS``), so a run's every call of ``f`` is
``nfev + nfev_jac``.  One meaning for both libraries lets a reader compare
``rn.solve_ivp`` with SciPy's ``solve_ivp`` field for field; the work a user pays
is the sum (benchmarks count it with a wrapper on both sides).
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from . import _scipy, jacobian
from .declarations import MAX_SPARSITY_DIM, check_jacobian
from .errors import NonlinearSolveError
from .problem import ODEProblem, _as_output, _call, check_problem

_GETRF = {"d": "dgetrf", "D": "zgetrf"}  # LAPACK routine by dtype char
_GETRS = {"d": "dgetrs", "D": "zgetrs"}
SPARSE_MIN_N = 100  # with jac_sparsity, Newton matrices of this size and more are factored sparse
# The Jacobian is an (n, n) array: a dense LU of 2000 equations takes ~0.2 s and 32 MB.  With
# jac_sparsity SuperLU factors it, and the pattern's own cap (MAX_SPARSITY_DIM) bounds n.
MAX_JAC_DENSE = 2000
RECHECK_AFTER = 8  # Newton failures with a fresh analytic J before jac is checked again, wherever


def iteration_solve(lu, rhs: np.ndarray) -> np.ndarray:
    """``M^{-1} rhs`` for a factor from :meth:`Work.iteration_lu` (LAPACK's pair, or SuperLU's)."""
    if isinstance(lu, tuple):
        return getattr(_scipy.lapack(), _GETRS[lu[0].dtype.char])(*lu, rhs)[0]
    return lu.solve(rhs)


class Work:
    """The right-hand side of one run, with checks and SciPy-style work counters.

    Steppers call ``work.f``, ``work.grad``, ``work.jac`` and
    ``work.lu_factor`` / ``work.lu_solve`` instead of the raw functions, so
    every result reports exactly what it cost and a NaN from ``f`` is
    reported as such (:class:`robonum.errors.EvaluationError`), never
    mistaken for an unstable step.
    """

    def __init__(self, problem: ODEProblem):
        check_problem(problem)
        self.problem = problem
        self._shape = (problem.n,)
        self._dtype = getattr(problem, "dtype", np.dtype(float))
        self.nfev = 0  # calls of f by the method (and of grad_V: one per f-equivalent)
        self.nfev_jac = 0  # calls of f that built difference Jacobians (SciPy leaves them out)
        self.njev = 0  # Jacobian evaluations
        self.nlu = 0  # LU factorisations
        self.n_newton = 0  # Newton iterations, summed over all solves
        self._rechecked = False  # a user jac is checked again once, where Newton first fails
        self.jac_replaced_at = None  # the time from which differences replaced a jac found wrong
        self._failed_at = None  # where Newton last failed with a fresh analytic J
        self._fresh_failures = 0  # how often it has failed so in this run
        # f(t0, y0), evaluated when the problem checked f: a run's first call is nearly always
        # there, and a second evaluation would be one uncounted call (a wrapper around f saw
        # nfev + 1 calls).  Used once, and counted in nfev as the run's own.
        f0 = getattr(problem, "f0", None)
        self._first = None if f0 is None else (problem.t_span[0], problem.y0, f0)

    def f(self, t: float, y: np.ndarray) -> np.ndarray:
        self.nfev += 1
        if self._first is not None:
            t0, y0, f0 = self._first
            self._first = None
            if t == t0 and np.array_equal(y, y0):
                return f0.copy()
        return _as_output("f", _call("f", self.problem.f, t, y), self._shape, t, y, self._dtype)

    @property
    def jac_by_differences(self) -> bool:
        """Whether :meth:`jac` differences ``f`` (and so needs ``f`` at its point)."""
        return self.problem.jac is None or self.jac_replaced_at is not None

    @cached_property  # read before every BDF step; the problem does not change in a run
    def difference_cost(self) -> int:
        """Calls of ``f`` one difference Jacobian takes: 1 (a vectorized ``f``), the groups of
        ``jac_sparsity``, else ``n`` (its base point ``f(t, y)`` is the caller's)."""
        groups = self.problem.jac_groups
        if groups is not None:
            return int(groups.max()) + 1
        return 1 if getattr(self.problem.f, "columns", None) is not None else self._shape[0]

    def grad(self, t: float, q: np.ndarray) -> np.ndarray:
        """``∇V(q)`` of a :class:`HamiltonianProblem` (counted in ``nfev``)."""
        self.nfev += 1
        return _as_output(
            "grad_V", _call("grad_V", self.problem.grad_V, q), (self.problem.d,), t, q
        )

    def jac(self, t: float, y: np.ndarray, fy=None, *, w=None, hgamma: float = 0.0) -> np.ndarray:
        """``df/dy`` at ``(t, y)``: analytic if the problem has it, else forward differences
        (their calls of ``f`` counted in ``nfev_jac``, as SciPy leaves them out of ``nfev``).

        A solver passes its error weights ``w = atol + rtol |y|`` and ``hγ``, the
        coefficient of ``J`` in its iteration matrix ``I - hγ J``:
        the increments are then scaled to each component and to the tolerance
        (:func:`robonum.jacobian.increments`), and columns are grouped by the
        problem's ``jac_sparsity``.  Without ``w`` (a fixed step, no tolerance)
        the step is ``sqrt(eps) max(1, |y_j|)``, balancing truncation (O(delta))
        against rounding (O(eps/delta)); see the finite-difference chapter.
        """
        n = self._shape[0]
        if n > MAX_JAC_DENSE and self.problem.jac_sparsity is None:
            raise ValueError(
                f"y0 has {n} components, but a method that solves with the Jacobian builds it as "
                f"an n x n array: at most {MAX_JAC_DENSE} components, {MAX_SPARSITY_DIM} with "
                "jac_sparsity (then factored sparse); an explicit method has no such limit"
            )
        jac = self.problem.jac
        if not getattr(jac, "constant", False):  # a constant matrix costs no evaluation
            self.njev += 1
        if jac is not None and self.jac_replaced_at is None:
            out = _call("jac", self.problem.jac, t, y)
            return _as_output("jac", out, (n, n), t, y, self._dtype)
        method_calls = self.nfev  # the differences' calls go to nfev_jac (SciPy's nfev)
        try:
            if fy is None:
                fy = self.f(t, y)
            if w is None:  # no tolerance known: the rule of the finite-difference chapter
                delta = jacobian.SQRT_EPS * np.maximum(1.0, np.abs(y))
            else:
                delta = (y + jacobian.increments(y, fy, w, hgamma)) - y  # the step y really took
            return self._differences(t, y, fy, delta)
        finally:
            self.nfev_jac += self.nfev - method_calls
            self.nfev = method_calls

    def recheck_jac(self, t, y, J) -> bool:
        """Where Newton failed with a fresh analytic ``J``: does it agree with ``f`` here?

        A ``jac`` right at ``y0`` (checked when the problem was made) can be wrong
        elsewhere -- a term that vanishes at ``y0``, a sign in one branch.  Checked when a
        fresh ``J`` has failed twice from the same ``t`` (Newton stalls: once is only a step
        too long, as often the first one) or ``RECHECK_AFTER`` times in the run (a ``J`` far
        too stiff lets tiny steps pass, each failing once at a new ``t``), once per run, three counted calls of ``f``.  On a mismatch the run goes on with differences of
        ``f`` in place of ``jac`` (returns True; the run's message says so): ending it would
        also end honest runs, since Newton fails most often at a kink of ``f`` (a contact),
        where a difference across the kink disagrees with a right ``jac`` too.
        """
        if self.problem.jac is None or self._rechecked:
            return False
        self._fresh_failures += 1
        stalled = self._failed_at == t or self._fresh_failures >= RECHECK_AFTER
        if not stalled:  # one failure is a step too long; two at one t, a stall
            self._failed_at = t
            return False
        self._rechecked = True
        fy = self.f(t, y)
        self.nfev += 2  # the two calls check_jacobian makes
        try:
            t0, t1 = self.problem.t_span
            check_jacobian(self.problem.f, J, t, y, fy, t + (t1 - t0))
        except ValueError:
            self.jac_replaced_at = t
            return True
        return False

    def _differences(self, t, y, fy, delta) -> np.ndarray:
        """Forward differences, one call of ``f`` per column or per group of ``jac_sparsity``."""
        n, groups, S = y.size, self.problem.jac_groups, self.problem.jac_sparsity
        columns = getattr(self.problem.f, "columns", None)
        if groups is None and columns is not None:
            return self._columns(columns, t, y, fy, delta)
        if groups is None:
            J = np.empty((n, n), dtype=y.dtype)
            for j in range(n):
                yj = y.copy()
                yj[j] += delta[j]
                J[:, j] = (self.f(t, yj) - fy) / delta[j]
            return J
        J = np.zeros((n, n), dtype=y.dtype)
        for g in range(self.difference_cost):  # one call of f per group
            cols = np.flatnonzero(groups == g)
            yg = y.copy()
            yg[cols] += delta[cols]
            df = self.f(t, yg) - fy
            for j in cols:  # within a group, each of these rows belongs to column j alone
                rows = S[:, j]
                J[rows, j] = df[rows] / delta[j]
        return J

    def _columns(self, columns, t, y, fy, delta) -> np.ndarray:
        """All ``n`` perturbed states in one call of a vectorized ``f`` (counted as one call)."""
        self.nfev += 1
        n = y.size
        Y = y[:, None] + np.diag(delta)
        F = _as_output("f", _call("f", columns, t, Y), (n, n), t, y, self._dtype)
        return (F - fy[:, None]) / delta

    def lu_factor(self, M: np.ndarray):
        """LU of the iteration matrix; an exactly singular one is a failed solve, not a warning.

        LAPACK's ``getrf`` is called directly: ``scipy.linalg.lu_factor`` would
        warn on ``info > 0``, and catching that warning costs more than the
        factorisation of a small matrix (it runs once or twice per step).
        """
        self.nlu += 1
        name = _GETRF.get(M.dtype.char)
        getrf = (
            getattr(_scipy.lapack(), name)
            if name
            else _scipy.linalg().get_lapack_funcs("getrf", (M,))
        )
        lu, piv, info = getrf(M)
        if info > 0:
            raise NonlinearSolveError(
                "the iteration matrix I - h*gamma*J is singular", 0, float("inf")
            )
        if info < 0:  # an illegal argument: a bug here, not the user's
            raise RuntimeError(f"LAPACK getrf: argument {-info} is illegal")
        return lu, piv

    def iteration_lu(self, M: np.ndarray):
        """LU of a Newton iteration matrix ``M``: dense LAPACK, or sparse when ``f`` is large
        and sparse; solve with :func:`iteration_solve`.

        With ``jac_sparsity`` and ``n >= SPARSE_MIN_N`` the matrix is factored by SuperLU
        (``scipy.sparse.linalg.splu``, as SciPy's Radau and BDF): a dense LU costs
        ``n^3/3`` flops, a banded or block-sparse one about ``n b^2``.  Measured: SciPy's
        ``test_integration_sparse_difference`` (``n = 400``) took 7-25 s with dense LUs,
        0.3-0.5 s with SuperLU (SciPy: 0.3-0.5 s); the flexible chain with radau5 at rtol
        1e-6, dense / sparse: ``n = 42`` 0.10 / 0.18 s, ``n = 82`` 0.22 / 0.33 s,
        ``n = 102`` 1.5 / 0.27 s.  Below ``SPARSE_MIN_N`` ``splu``'s overhead exceeds the saving.
        """
        if self.problem.jac_sparsity is None or M.shape[0] < SPARSE_MIN_N:
            return self.lu_factor(M)
        self.nlu += 1
        try:
            return _scipy.sparse_linalg().splu(_scipy.sparse().csc_matrix(M))
        except RuntimeError as exc:  # SuperLU: "Factor is exactly singular"
            raise NonlinearSolveError(
                f"the iteration matrix I - h*gamma*J is singular ({exc})", 0, float("inf")
            ) from None

    @staticmethod
    def lu_solve(lu, rhs: np.ndarray) -> np.ndarray:
        """``M^{-1} rhs`` for :meth:`lu_factor`'s pair: LAPACK's ``getrs``, called directly.

        ``scipy.linalg.lu_solve`` calls the same routine (the same bits) through a
        wrapper that cost 6.7 us a call against getrs' 0.5 us for a 4 x 4 system,
        measured with SciPy 1.17; a fixed-step implicit run makes one such solve per
        Newton iteration.  Mixed dtypes (a real LU, a complex right-hand side) go through
        SciPy, which picks the routine for both.
        """
        if rhs.dtype == lu[0].dtype and rhs.dtype.char in _GETRS:
            return iteration_solve(lu, rhs)
        return _scipy.linalg().lu_solve(lu, rhs, check_finite=False)

    def counters(self) -> dict:
        return dict(
            nfev=self.nfev,
            nfev_jac=self.nfev_jac,
            njev=self.njev,
            nlu=self.nlu,
            n_newton=self.n_newton,
        )
