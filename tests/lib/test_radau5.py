"""RADAU5 (RadauIIA(3)): constants from the tableau, one step of a linear problem, controller hooks."""

import numpy as np
import pytest

import robonum as rn
from robonum.steppers.radau import RadauIIA, constants

S6 = np.sqrt(6.0)
_C = constants(3)


def test_transformation_from_tableau():
    A = rn.methods.get("radau3").A
    Lam = _C["Tinv"] @ np.linalg.inv(A) @ _C["T"]
    # real eigenvalue of A^-1 and the complex pair (Hairer & Wanner II, Table IV.5.? values)
    assert abs(Lam[0, 0] - (3 + 3 ** (2 / 3) - 3 ** (1 / 3))) < 1e-12
    assert abs(_C["kappas"][0].real - (3 + 0.5 * (3 ** (1 / 3) - 3 ** (2 / 3)))) < 1e-12
    assert abs(abs(_C["kappas"][0].imag) - 0.5 * (3 ** (5 / 6) + 3 ** (7 / 6))) < 1e-12


def test_embedded_coefficients_hand_derived():
    # mu * e = ((-13 - 7 sqrt 6)/3, (-13 + 7 sqrt 6)/3, -1/3): the embedded order-3 formula
    np.testing.assert_allclose(
        _C["mu"] * _C["e"], np.array([-13 - 7 * S6, -13 + 7 * S6, -1]) / 3, rtol=1e-12
    )


def test_embedded_formula_has_order_3():
    c, A = _C["c"], _C["A"]
    b = A[-1]
    gamma0 = 1 / _C["mu"]
    b_hat = b + _C["e"] @ A  # (b_hat - b) = e A
    assert abs(gamma0 + b_hat.sum() - 1) < 1e-12
    assert abs(b_hat @ c - 0.5) < 1e-12 and abs(b_hat @ c**2 - 1 / 3) < 1e-12


def test_one_step_linear_equals_R_of_hA():
    """On y' = L y one step is R(hL) y0 with Radau IIA's R (Newton exact in one iteration)."""
    L = np.array([[-2.0, 1.0], [0.0, -500.0]])
    p = rn.ODEProblem(lambda t, y: L @ y, [1.0, 1.0], (0, 1), jac=lambda t, y: L)
    st, w = RadauIIA(3, rtol=1e-10, atol=1e-12), rn.Work(p)
    state = st.init(w, 0.0, p.y0, 0.05)
    y, err, _ = st.step(w, 0.0, p.y0.copy(), 0.05, state)
    R = rn.methods.get("radau3").stability_function()
    lam, V = np.linalg.eig(0.05 * L)
    expected = (V @ np.diag(R(lam)) @ np.linalg.inv(V) @ p.y0).real
    assert np.abs(y - expected).max() < 1e-12


def test_order_5_on_smooth_problem():
    """Global error falls like rtol^(5/6)-ish: check it shrinks with rtol and meets it loosely."""
    p = rn.problems.logistic(t_span=(0, 5))
    errs = [
        abs(rn.integrate(p, RadauIIA(3), rtol=r, atol=r).y_final[0] - p.exact(5.0)[0])
        for r in (1e-4, 1e-6, 1e-8)
    ]
    assert errs[0] > errs[1] > errs[2] and errs[2] < 1e-7


def test_jacobian_reused():
    p = rn.problems.robertson(t_span=(0, 1e5))
    s = rn.integrate(p, RadauIIA(3), rtol=1e-6, atol=1e-10)
    assert s.success and s.njev < s.nsteps


def test_works_through_integrate_with_controller():
    p = rn.problems.stiff_cosine()
    c = rn.StepController(4, predictive=True)
    s = rn.integrate(p, RadauIIA(3), rtol=1e-6, atol=1e-9, controller=c)
    assert s.success and abs(s.y_final[0] - np.cos(1)) < 1e-5


def test_predictive_controller_limits_growth():
    c = rn.StepController(4, predictive=True)
    c.adapt(1.0, 0.1)
    _, h_pred = c.adapt(1.0, 0.5)  # error grew 5x: the predictive step is smaller
    _, h_plain = rn.StepController(4).adapt(1.0, 0.5)
    assert h_pred < h_plain


def test_controller_safety_override_and_validation():
    assert rn.StepController(5).adapt(0.1, 2.0)[1] == pytest.approx(0.0783, abs=1e-4)
    with pytest.raises(ValueError):
        rn.StepController(5).adapt(0.1, 0.5, safety=2.0)
    with pytest.raises(TypeError):
        rn.StepController(5, predictive=1)
