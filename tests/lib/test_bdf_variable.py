"""Variable-order NDF/BDF: difference rescaling, order changes, accuracy."""

import numpy as np
import pytest

import robonum as rn
from robonum.steppers.bdf_variable import ERROR_CONST, VariableBDF, rescale_matrix, stale


def test_rescale_matrix_keeps_the_polynomial():
    """Backward differences of a cubic at spacing h, rescaled to 0.37 h, equal the direct ones."""
    poly = np.polynomial.Polynomial([0.3, -1.0, 0.5, 2.0])
    h, r, k = 0.1, 0.37, 3
    t = 1.0

    def diffs(step):
        vals = poly(t - step * np.arange(k + 1))
        D = [vals]
        for _ in range(k):
            D.append(D[-1][:-1] - D[-1][1:])
        return np.array([d[0] for d in D])

    D = diffs(h)
    new = rescale_matrix(k, r).T @ D[1:]
    np.testing.assert_allclose(new, diffs(r * h)[1:], rtol=1e-12, atol=1e-14)


def test_bdf_error_constants():
    # kappa = 0: BDF_k error constant 1/(k+1) (in this normalisation)
    st = VariableBDF(ndf=False)
    np.testing.assert_allclose(st.error_const[1:], 1 / np.arange(2, 7))
    assert ERROR_CONST[1] == pytest.approx(-0.185 + 0.5)


def test_uses_several_orders():
    p = rn.problems.van_der_pol(mu=10, t_span=(0, 20))
    orders = []
    st = VariableBDF(rtol=1e-8, atol=1e-8)  # built for the run's tolerances: used as is
    orig = st.judge

    def spy(*a):
        out = orig(*a)
        orders.append(a[-1].order)
        return out

    st.judge = spy
    s = rn.integrate(p, st, rtol=1e-8, atol=1e-8)
    assert s.success and max(orders) >= 4 and min(orders) == 1


@pytest.mark.parametrize("ndf", [True, False])
def test_accuracy_exp(ndf):
    p = rn.ODEProblem(lambda t, y: -y, [1.0], (0, 5), jac=lambda t, y: -np.eye(1))
    s = rn.integrate(p, VariableBDF(ndf=ndf), rtol=1e-9, atol=1e-12)
    assert abs(s.y_final[0] - np.exp(-5)) < 1e-8


def test_robertson_long_run_conserves_mass():
    p = rn.problems.robertson(t_span=(0, 1e6))
    s = rn.integrate(p, VariableBDF(), rtol=1e-6, atol=1e-12)
    assert s.success and abs(s.y_final.sum() - 1) < 1e-9


def test_a_restart_elsewhere_does_not_reuse_the_start_value_of_f():
    """``seed`` hands over ``f(t0, y0)``; a restart at another point must evaluate ``f`` there
    (with ``f(t0, y0)`` the first difference ``D_1 = h f`` would belong to the wrong point)."""
    from robonum.work import Work

    p = rn.ODEProblem(lambda t, y: -2.0 * y + t, [1.0], (0.0, 1.0))
    st = VariableBDF()
    work = Work(p)
    state = st.init(work, 0.0, p.y0, 1e-3)
    st.seed(state, 0.0, p.y0, work.f(0.0, p.y0))
    st.step(work, 0.0, p.y0.copy(), 1e-3, state)
    assert state.D[1, 0] == 1e-3 * -2.0  # the start: f(0, 1) = -2, handed over
    y = np.array([0.25])
    st.step(work, 0.5, y, 1e-3, state)  # not where the last step ended: a restart
    assert state.D[1, 0] == 1e-3 * (-2.0 * 0.25 + 0.5)


def test_a_jacobian_by_differences_is_kept_while_it_costs_no_extra_iterations():
    """``J = A`` never goes stale: Newton takes its two iterations each step, so the one
    difference Jacobian serves the whole run (341 steps).  The age cap of 20 steps it
    replaced made 18 (798 calls of f against 696 now)."""
    p = rn.problems.stiff_linear()  # y' = Ay, eigenvalues -1 ... -1e4: J = A everywhere
    sol = rn.solve_ivp(p.f, p.t_span, p.y0, method="bdf", rtol=1e-6, atol=1e-9)
    assert sol.success and sol.nsteps > 200
    assert sol.njev == 1
    # an analytic J (a callable: a constant matrix is never evaluated again) still serves
    # at most JAC_MAX_AGE accepted steps
    given = rn.solve_ivp(p.f, p.t_span, p.y0, method="bdf", rtol=1e-6, atol=1e-9, jac=p.jac)
    assert given.njev >= given.nsteps // 20


def test_a_jacobian_by_differences_is_renewed_once_its_iterations_cost_a_new_one():
    """``stale``: the iterations beyond two per solve pay for a new J of ``cost`` f-calls."""
    assert not stale(7, 8) and stale(8, 8) and stale(1, 1) and not stale(0, 1)
    # the price: n columns, the groups of jac_sparsity, one call of a vectorized f
    p = rn.problems.stiff_linear()
    assert rn.Work(p.replace(jac=None)).difference_cost == 6
    chain = rn.problems.chains.flexible_chain(n=10, t_span=(0.0, 0.2))
    groups = int(chain.jac_groups.max()) + 1
    assert rn.Work(chain.replace(jac=None)).difference_cost == groups < chain.n
    vec = rn.solve_ivp(p.f, p.t_span, p.y0, method="bdf", vectorized=True, rtol=1e-6)
    assert vec.success and vec.njev == 1
    # VDPOL without jac, where J changes fast: renewed often, and the run stays on the
    # solution as SciPy's BDF does (measured 2.89 and 2.92 digits at rtol 1e-4)
    v = rn.problems.testset.vdpol()
    sol = rn.solve_ivp(v.f, v.t_span, v.y0, method="bdf", rtol=1e-4, atol=1e-4)
    assert sol.success and sol.njev > sol.nsteps // 20
    assert rn.problems.testset.digits(sol.y[:, -1], v.params["reference"]) > 2.4
