"""Newton matrices of a large problem with ``jac_sparsity`` are factored by SuperLU (robonum.work)."""

import numpy as np
import pytest

import robonum as rn
from robonum import work as W
from robonum.errors import NonlinearSolveError
from robonum.problems import chains


def _work(n, sparsity):
    p = rn.ODEProblem(lambda t, y: -y, np.ones(n), (0, 1), jac_sparsity=sparsity)
    return W.Work(p)


@pytest.mark.parametrize("dtype", [float, complex])
def test_sparse_factor_solves_like_a_dense_one(dtype):
    n = W.SPARSE_MIN_N
    S = np.eye(n) + np.eye(n, k=1) + np.eye(n, k=-1)
    rng = np.random.default_rng(3)
    M = (np.eye(n) * 4 + S * rng.normal(size=(n, n))).astype(dtype)
    b = rng.normal(size=n).astype(dtype)
    work = _work(n, S)
    lu = work.iteration_lu(M)
    assert not isinstance(lu, tuple) and work.nlu == 1  # SuperLU, counted as SciPy counts it
    x = W.iteration_solve(lu, b)
    # a tridiagonal, diagonally dominant M: condition number below 10, so a few eps
    assert np.max(np.abs(M @ x - b)) <= 64 * np.finfo(float).eps * np.max(np.abs(b))


def test_small_or_dense_problems_keep_lapack():
    assert isinstance(_work(W.SPARSE_MIN_N - 1, None).iteration_lu(np.eye(3)), tuple)
    n = W.SPARSE_MIN_N
    assert isinstance(_work(n, None).iteration_lu(np.eye(n)), tuple)  # no jac_sparsity


def test_an_exactly_singular_sparse_matrix_is_a_failed_solve():
    n = W.SPARSE_MIN_N
    M = np.eye(n)
    M[5, 5] = 0.0
    with pytest.raises(NonlinearSolveError, match="singular"):
        _work(n, np.eye(n)).iteration_lu(M)


@pytest.fixture(scope="module")
def chain():
    """50 links, 102 unknowns, and a reference end state (5-stage Radau at rtol 1e-10)."""
    p = chains.flexible_chain(n=50)
    ref = rn.solve_ivp(p.f, p.t_span, p.y0, method="radau", rtol=1e-10, atol=1e-12,
                       jac_sparsity=p.jac_sparsity).y[:, -1]  # fmt: skip
    return p, ref


@pytest.mark.parametrize("method", ["radau5", "bdf"])
def test_a_chain_above_the_threshold_is_as_accurate_as_with_dense_lus(method, chain, monkeypatch):
    """The same run with SuperLU and with dense LUs.

    The factorisations differ in rounding only; Newton and the step control pass that
    through their tolerances, so the runs take slightly different steps and end at
    different points inside the method's global error.  Measured (error at t1 in units
    of atol + rtol |y|, sparse / dense): radau5 6.9 / 6.6, bdf 225 / 135 (BDF's global
    error on this chain is that loose with either).  Margin: a factor 3 either way.
    """
    p, ref = chain
    assert p.n >= W.SPARSE_MIN_N and p.jac_sparsity is not None

    def error():
        y = rn.solve_ivp(p.f, p.t_span, p.y0, method=method, rtol=1e-6, atol=1e-8,
                         jac_sparsity=p.jac_sparsity).y[:, -1]  # fmt: skip
        return np.max(np.abs(y - ref) / (1e-8 + 1e-6 * np.abs(ref)))

    sparse = error()
    monkeypatch.setattr(W, "SPARSE_MIN_N", 10**9)
    dense = error()
    assert sparse <= 3 * dense + 1 and dense <= 3 * sparse + 1
