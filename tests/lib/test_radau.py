"""RadauIIA with 3 and 5 stages: constants from the tableau, one linear step, order, choice of stages."""

import numpy as np
import pytest

import robonum as rn
from robonum.book import bench
from robonum.ivp import make_ivp_stepper
from robonum.problems import testset as ts
from robonum.steppers.radau import AUTO_RTOL, STAGES, RadauIIA, constants

EPS = np.finfo(float).eps


def _tableau_used(s):
    """``T Lambda^-1 T^-1``: the A that the transformed Newton iteration really solves with."""
    C = constants(s)
    Lam = np.zeros((s, s))
    Lam[0, 0] = C["mu"]
    for j, k in enumerate(C["kappas"]):
        i = 2 * j + 1
        Lam[i : i + 2, i : i + 2] = [[k.real, -k.imag], [k.imag, k.real]]
    return C["T"] @ np.linalg.inv(Lam) @ C["Tinv"]


@pytest.mark.parametrize("s", STAGES)
def test_transformation_reproduces_the_tableau(s):
    """T diag(mu, [[a_j, b_j], [-b_j, a_j]], ...)^-1 T^-1 = A: the Newton iteration solves Radau IIA.

    Rounding in the eigenvectors enters through T and its inverse, so the bound
    is a hundred eps times the condition number of T (9 for 3 stages, 89 for 5).
    """
    C = constants(s)
    assert np.abs(_tableau_used(s) - C["A"]).max() < 100 * EPS * np.linalg.cond(C["T"])
    eig = np.linalg.eigvals(np.linalg.inv(C["A"]))
    for lam in [C["mu"]] + [k.conjugate() for k in C["kappas"]]:
        assert np.min(np.abs(eig - lam)) < 1e-12 * abs(lam)


def test_seven_stages_are_left_out_for_a_reason():
    """The module docstring: in double precision the 7-stage transformation misses A by
    about 3e-12 (5 stages: 7e-14); each bound leaves a factor 7-10 for another LAPACK."""

    def miss(s):
        return np.abs(_tableau_used(s) - constants(s)["A"]).max()

    assert miss(5) < 5e-13 and miss(7) > 3e-13


@pytest.mark.parametrize("s", STAGES)
def test_embedded_formula_has_order_s(s):
    """gamma0 + sum b_hat = 1 and sum b_hat c^(k-1) = 1/k up to k = s (HW 1999), not k = s + 1."""
    C = constants(s)
    c, b = C["c"], C["A"][-1]
    b_hat = b + C["e"] @ C["A"]
    assert abs(1 / C["mu"] + b_hat.sum() - 1) < 1e-11
    for k in range(2, s + 1):
        assert abs(b_hat @ c ** (k - 1) - 1 / k) < 1e-11
    assert abs(b_hat @ c**s - 1 / (s + 1)) > 1e-6


@pytest.mark.parametrize("s", STAGES)
def test_one_linear_step_is_R_of_hL(s):
    """On y' = L y one step is R(hL) y0 with the s-stage Radau IIA stability function.

    The bound, 1e-12 for |y| <= 1, leaves room for the transformation's rounding
    (test above) amplified by the stiff mode, h * 500 = 25.
    """
    L = np.array([[-2.0, 1.0], [0.0, -500.0]])
    p = rn.ODEProblem(lambda t, y: L @ y, [1.0, 1.0], (0, 1), jac=lambda t, y: L)
    st, w = RadauIIA(s, rtol=1e-10, atol=1e-12), rn.Work(p)
    y, _, _ = st.step(w, 0.0, p.y0.copy(), 0.05, st.init(w, 0.0, p.y0, 0.05))
    R = rn.methods.radau_iia(s).stability_function()
    lam, V = np.linalg.eig(0.05 * L)
    expected = (V @ np.diag(R(lam)) @ np.linalg.inv(V) @ p.y0).real
    assert np.abs(y - expected).max() < 1e-12


@pytest.mark.parametrize("s", STAGES)
def test_accurate_and_dense_on_a_closed_form(s):
    """The run and its collocation polynomials (dense output) against the logistic's closed form."""
    p = rn.problems.logistic(t_span=(0, 5))
    sol = rn.solve_ivp(
        p.f,
        p.t_span,
        p.y0,
        method=RadauIIA(s),
        rtol=1e-10,
        atol=1e-12,
        jac=p.jac,
        dense_output=True,
    )
    assert sol.success and abs(sol.y_final[0] - p.exact(5.0)[0]) < 1e-8
    tt = np.linspace(0, 5, 41)
    assert np.abs(sol.sol(tt)[0] - p.exact(tt)[0]).max() < 1e-8


def test_method_radau_chooses_the_stages_from_rtol_and_fixes_them():
    for rtol, s in ((1e-3, 3), (10 * AUTO_RTOL, 3), (AUTO_RTOL, 5), (1e-9, 5)):
        st = make_ivp_stepper("radau", rtol)
        assert (st.stages, st.order, st.error_order) == (s, 2 * s - 1, s)
        assert st.default_controller().q == s + 1
        built = st.with_tolerances(rtol / 10, rtol)  # new tolerances, same stages
        assert (
            built is not st and built.stages == s and (built.rtol, built.atol) == (rtol / 10, rtol)
        )
        assert st.rtol == 1e-6  # the one built first is unchanged
    assert RadauIIA(5).stages == 5 and RadauIIA(3).stages == 3
    with pytest.raises(ValueError, match="stages"):
        RadauIIA(4)


def test_more_stages_pay_at_tight_tolerance():
    """The module docstring's measurement at one point: HIRES, the 3-stage run at rtol 1e-8 (about
    9.3 digits) against the 5-stage runs at 1e-6 and 1e-7 around those digits (measured 0.36)."""
    p = ts.hires()
    three = bench.run(p, "robonum", RadauIIA(3), 1e-8, 1e-12)
    five = [bench.run(p, "robonum", RadauIIA(5), r, r * 1e-4) for r in (1e-6, 1e-7)]
    w5 = bench.work_at(
        [c["digits"] for c in five], [c["nfev"] for c in five], three["digits"], front=True
    )
    assert w5 is not None and w5 < 0.5 * three["nfev"]


def test_newton_failure_shrinks_the_step_and_reports_the_singularity():
    s = rn.integrate(
        rn.ODEProblem(lambda t, y: y**2, [1.0], (0, 2), jac=lambda t, y: np.array([[2 * y[0]]])),
        RadauIIA(5),
        rtol=1e-8,
        atol=1e-8,
    )
    assert s.status == -1 and abs(s.t[-1] - 1.0) < 0.05


def test_equal_steps_run_with_the_default_tolerances():
    """The class docstring: h= works too; Newton then stops at the default rtol 1e-6."""
    p = rn.problems.logistic(t_span=(0, 5))
    s = rn.integrate(p, RadauIIA(5), 0.25)
    assert s.success and s.nsteps == 20
    assert abs(s.y_final[0] - p.exact(5.0)[0]) < 1e-6
