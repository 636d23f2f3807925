"""The Newton record (residuals, corrections, attempts) and the explicit-Euler predictor.

Truth used: for a constant right-hand side the explicit-Euler stage values
are exact, so the first residual must vanish; residuals recorded by the
stepper are recomputed by hand from the recorded start; convergence orders
on y' = -2 t y² (exact 1/(1 + t²)) must not depend on the start or the
Jacobian strategy.
"""

import numpy as np
import pytest

import robonum as rn
from robonum.modified_newton import ModifiedNewton, NewtonAttempt
from robonum.newton import NewtonOptions, newton_solve
from robonum.steppers import ImplicitRK
from robonum.steppers.implicit import per_step

EPS = np.finfo(float).eps


def riccati():
    return rn.ODEProblem(
        lambda t, y: -2 * t * y**2,
        [1.0],
        (0, 2),
        jac=lambda t, y: np.array([[-4 * t * y[0]]]),
        exact=lambda t: np.array([1 / (1 + t * t)]),
    )


@pytest.mark.parametrize("method", ["backward_euler", "sdirk2", "trapezoid", "radau2", "gauss2"])
def test_euler_predictor_is_exact_for_constant_f(method):
    drift = rn.ODEProblem(
        lambda t, y: np.array([1.5, -0.5]),
        [0.0, 1.0],
        (0.0, 1.0),
        jac=lambda t, y: np.zeros((2, 2)),
    )
    for predictor, first_is_zero in [("euler", True), ("zero", False)]:
        st = ImplicitRK(method, predictor=predictor, record=True)
        sol = rn.integrate(drift, st, 0.25)
        assert np.allclose(sol.y_final, [1.5, 0.5], atol=1e-14)
        firsts = [a.result.residuals[0] for a in st.trace]
        if first_is_zero:
            assert max(firsts) < 4 * EPS  # Y_i = y + c_i h f is the exact stage value
        else:
            assert min(firsts) > 0.01


def test_recorded_residual_is_G_at_the_predictor():
    """Backward Euler on the logistic: G(y) = y - y_n - h y (1 - y), start y_n + h y_n (1 - y_n)."""
    y_n, h = 0.2, 0.7
    p = rn.problems.logistic(y0=y_n, t_span=(0.0, h))
    st = ImplicitRK("backward_euler", predictor="euler", record=True)
    sol = rn.integrate(p, st, h)
    y0 = y_n + h * y_n * (1 - y_n)
    assert st.trace[0].result.residuals[0] == pytest.approx(
        abs(y0 - y_n - h * y0 * (1 - y0)), rel=1e-14
    )
    assert sol.nfev == 1 + sol.n_newton  # f(t_n, y_n) once, then one f per iteration
    zero = rn.integrate(p, ImplicitRK("backward_euler"), h)
    assert zero.nfev == zero.n_newton


@pytest.mark.parametrize(
    "method, strategy, h0",
    [
        ("gauss2", "full", 0.1),
        ("radau2", "step", 0.1),
        ("sdirk2", "reuse", 0.2),
        ("sdirk3", "full", 0.05),
    ],
)
def test_orders_do_not_depend_on_the_start_or_strategy(method, strategy, h0):
    p = riccati()
    st = ImplicitRK(
        method, newton=NewtonOptions(tol=1e-14, max_iter=30, jacobian=strategy), predictor="euler"
    )
    order = rn.convergence_study(p, st, rn.halving(h0, 3)).fitted_order()
    assert abs(order - rn.methods.get(method).order) < 0.1, order


def test_record_lengths_and_attempt_fields():
    st = ImplicitRK("radau2", record=True)
    sol = rn.integrate(rn.problems.van_der_pol(mu=10.0, t_span=(0.0, 0.5)), st, 0.01)
    assert sol.success and len(st.trace) >= sol.nsteps
    for a in st.trace:
        assert isinstance(a, NewtonAttempt) and a.key == ("irk", 0.01)
        r = a.result
        assert len(r.residuals) == len(r.corrections) == r.iterations
        assert a.jacobian in ("kept", "new", "refreshed", "at_iterate", "full", "fallback")
    ps = st.per_step()
    assert ps["t"].size == sol.nsteps and np.all(np.diff(ps["t"]) > 0)
    assert ps["iterations"].sum() == sol.n_newton
    ok = ~np.isnan(ps["theta"])
    assert ok.any() and np.all((ps["theta"][ok] >= 0) & (ps["theta"][ok] < 1))


def test_a_new_run_starts_a_new_trace():
    st = ImplicitRK("sdirk2", record=True)
    p = rn.problems.stiff_cosine(t_span=(0.0, 0.1))
    rn.integrate(p, st, 0.01)
    first = st.trace
    rn.integrate(p, st, 0.05)
    assert st.trace is not first and st.per_step()["t"].size == 2
    assert ImplicitRK("sdirk2").trace is None


def test_allow_growth_never_claims_convergence():
    # x -> x - 2x = -x: every correction is as large as the last (theta = 1)
    kw = dict(opts=NewtonOptions(max_iter=6), eta0=1.0, predict=False)
    stop = newton_solve(lambda x: 2 * x, lambda g: g, [1.0], **kw)
    assert not stop.converged and stop.reason.startswith("diverging") and stop.iterations == 2
    grow = newton_solve(lambda x: 2 * x, lambda g: g, [1.0], allow_growth=True, **kw)
    assert not grow.converged and grow.reason == "max_iter reached" and grow.iterations == 6
    assert grow.corrections == [2.0] * 6 and grow.residuals == [2.0] * 6


def test_bad_input():
    with pytest.raises(ValueError, match="predictor must be one of"):
        ImplicitRK("radau2", predictor="linear")
    with pytest.raises(ValueError, match="predictor"):
        ImplicitRK("radau2", predictor=None)
    with pytest.raises(TypeError, match="record must be True or False"):
        ImplicitRK("radau2", record=1)
    with pytest.raises(TypeError, match="record"):
        ModifiedNewton(record="yes")
    with pytest.raises(ValueError, match="record=True"):
        ImplicitRK("radau2").per_step()
    with pytest.raises(TypeError, match="trace must be a list of NewtonAttempt"):
        per_step([1, 2])
    with pytest.raises(TypeError, match="trace"):
        per_step(None)
    assert per_step([])["t"].size == 0
