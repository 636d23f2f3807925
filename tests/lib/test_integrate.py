"""The one driver: fixed and adaptive steps, work counters, failure reasons."""

import warnings

import numpy as np
import pytest
from scipy.integrate import solve_ivp

import robonum as rn
from robonum import problems


@pytest.mark.parametrize(
    "key, p", [("euler", 1), ("heun", 2), ("midpoint", 2), ("rk3", 3), ("rk4", 4), ("dopri5", 5)]
)
def test_explicit_methods_converge_at_their_order(key, p):
    # y' = y cos t has y = exp(sin t): smooth, nonlinear in t.  The step range
    # stays above the rounding floor (DOPRI5 reaches ~1e-14 at h = 0.0125).
    problem = rn.ODEProblem(
        lambda t, y: y * np.cos(t), [1.0], (0.0, 2.0), exact=lambda t: np.array([np.exp(np.sin(t))])
    )
    study = rn.convergence_study(problem, key, rn.halving(0.05, 4 if p < 5 else 3))
    assert abs(study.fitted_order() - p) < 0.1


def test_work_counters_match_stage_counts():
    sol = rn.integrate(problems.logistic(t_span=(0.0, 1.0)), "rk4", 0.1)
    assert (sol.nsteps, sol.nfev, sol.njev, sol.nlu, sol.nreject) == (10, 40, 0, 0, 0)
    assert sol.y.shape == (1, 11) and sol.t[-1] == 1.0 and sol.reason == "success"


def test_fsal_fixed_steps_cost_six_evaluations_after_the_first():
    sol = rn.integrate(problems.logistic(t_span=(0.0, 1.0)), "dopri5", 0.01)
    assert rn.methods.get("dopri5").fsal and not rn.methods.get("rk4").fsal
    assert sol.nfev == 1 + 6 * 100


def test_step_never_exceeds_the_requested_h_and_lands_on_t1():
    sol = rn.integrate(problems.logistic(t_span=(0.0, 1.0)), "euler", 0.3)
    assert sol.h == pytest.approx(0.25) and sol.nsteps == 4 and sol.t[-1] == 1.0
    sub = rn.integrate(problems.logistic(t_span=(0.0, 1.0)), "euler", 0.01, save_every=25)
    assert np.allclose(sub.t, [0, 0.25, 0.5, 0.75, 1.0])
    # 1/0.1 is 10.000000000000002 in floating point: still 10 steps of exactly 0.1
    assert rn.integrate(problems.logistic(t_span=(0.0, 1.0)), "euler", 0.1).nsteps == 10


def test_divergence_is_a_status_not_a_warning_flood():
    stiff = problems.stiff_cosine(lam=-1000.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sol = rn.integrate(stiff, "euler", 2.5e-3)  # z = -2.5: |R| = 1.5
    assert (sol.status, sol.reason) == (-1, "diverged") and not sol.success
    assert "diverged at t" in sol.message and sol.t[-1] < 1.0
    assert np.all(np.isfinite(sol.y)) and sol.nsteps == len(sol.t) - 1
    assert rn.integrate(stiff, "euler", 1.9e-3).success  # z = -1.9: stable


def test_nan_from_f_is_reported_as_such_not_as_instability():
    def f(t, y):
        return -y if t < 0.5 else np.array([np.nan])

    sol = rn.integrate(rn.ODEProblem(f, [1.0], (0.0, 1.0)), "rk4", 0.1)
    assert (sol.status, sol.reason) == (-1, "nan_in_f")
    assert "from a finite state" in sol.message and "stability" not in sol.message
    assert 0.4 <= sol.t[-1] <= 0.5
    ad = rn.integrate(rn.ODEProblem(f, [1.0], (0.0, 1.0)), "dopri5", rtol=1e-6)
    assert ad.reason == "nan_in_f"


def test_complex_output_of_f_is_refused_not_cast():
    def f(t, y):
        return y * (1j if t > 0.2 else 1.0)

    with pytest.raises(TypeError, match="f must return real values"):
        rn.integrate(rn.ODEProblem(f, [1.0], (0.0, 1.0)), "rk4", 0.1)
    with pytest.raises(TypeError, match="f must return real values"):
        rn.ODEProblem(lambda t, y: 1j * y, [1.0], (0, 1))


def test_an_exception_in_f_says_where_it_came_from():
    def f(t, y):
        if t > 0.3:
            raise ZeroDivisionError("model singular")
        return -y

    with pytest.raises(ZeroDivisionError) as info:
        rn.integrate(rn.ODEProblem(f, [1.0], (0.0, 1.0)), "euler", 0.1)
    assert any("raised inside f(" in note for note in info.value.__notes__)


def test_seed_stability_thresholds_on_the_stiff_problem():
    stiff = problems.stiff_cosine(lam=-1000.0)
    assert rn.integrate(stiff, "rk4", 2.94e-3).reason == "diverged"
    ok = rn.integrate(stiff, "rk4", 2.5e-3)
    assert ok.success and abs(ok.y_final[0] - np.cos(1.0)) < 1e-4
    be = rn.integrate(stiff, "backward_euler", 0.1)  # lambda h = 100
    assert be.success and abs(be.y_final[0] - np.cos(1.0)) < 5e-5


def test_adaptive_dopri5_agrees_with_scipy_and_counts_work():
    problem = problems.van_der_pol(mu=1.0, t_span=(0.0, 5.0))
    ours = rn.integrate(problem, "dopri5", rtol=1e-8, atol=1e-10)
    ref = solve_ivp(problem.f, problem.t_span, problem.y0, rtol=1e-12, atol=1e-12)
    assert ours.success and ours.h is None
    assert np.max(np.abs(ours.y_final - ref.y[:, -1])) < 1e-6
    # FSAL: 6 new stages per attempted step, plus f(t0) and one f for the first step size
    assert ours.nfev == 6 * (ours.nsteps + ours.nreject) + 2


def test_dopri5_needs_no_more_evaluations_than_scipy_rk45_on_the_seed_problem():
    stiff = problems.stiff_cosine(lam=-1000.0)
    ours = rn.integrate(stiff, "dopri5", rtol=1e-6, atol=1e-9)
    theirs = solve_ivp(stiff.f, stiff.t_span, stiff.y0, method="RK45", rtol=1e-6, atol=1e-9)
    assert ours.success and ours.nfev <= theirs.nfev
    assert abs(ours.y_final[0] - np.cos(1.0)) < 1e-6


def test_adaptive_failures_have_reasons():
    # y' = y^2, y(0) = 1 blows up at t = 1: the step size underflows before it
    blow = rn.ODEProblem(lambda t, y: y**2, [1.0], (0.0, 2.0))
    sol = rn.integrate(blow, "dopri5", rtol=1e-6, blowup=1e300)
    assert sol.reason in ("step_underflow", "diverged") and sol.t[-1] < 1.0 + 1e-6
    few = rn.integrate(problems.van_der_pol(mu=1.0, t_span=(0, 20)), "dopri5", max_steps=10)
    assert (few.status, few.reason) == (-1, "max_steps")


def test_make_stepper_understands_names_and_families():
    assert rn.make_stepper("bdf3").name == "BDF3"
    assert isinstance(rn.make_stepper("radau3"), rn.ImplicitRK)
    assert isinstance(rn.make_stepper(rn.methods.get("rk4")), rn.ExplicitRK)
    assert isinstance(rn.make_stepper("verlet"), rn.Symplectic)
    assert rn.ExplicitRK("rk4").order == 4


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(h=0.0), ValueError, "h must be finite and > 0"),
        (dict(h=float("nan")), ValueError, "h must be finite"),
        (dict(h="0.1"), TypeError, "h must be a real number"),
        (dict(h=10**400), ValueError, "h must be a finite real number"),
        (dict(h=1e-320), ValueError, "steps"),
        (dict(h=0.1, save_every=0), ValueError, "save_every"),
        (dict(h=1e-12), ValueError, "steps"),
        (dict(h=0.1, rtol=1e-3), ValueError, "either h"),
        (dict(h=0.1, blowup=0.5), ValueError, "blowup"),
    ],
)
def test_bad_integrate_input(kwargs, error, match):
    with pytest.raises(error, match=match):
        rn.integrate(problems.logistic(), "euler", **kwargs)


def test_bad_problem_input():
    with pytest.raises(ValueError, match="initial state `y0` must be finite"):
        rn.ODEProblem(lambda t, y: y, [np.nan], (0, 1))
    with pytest.raises(ValueError, match="t_span must satisfy"):
        rn.ODEProblem(lambda t, y: y, [1.0], (1, 0))
    with pytest.raises(ValueError, match="t_span is too long"):
        rn.ODEProblem(lambda t, y: y, [1.0], (-1e308, 1e308))
    with pytest.raises(TypeError, match="f must be callable"):
        rn.ODEProblem(None, [1.0], (0, 1))
    with pytest.raises(ValueError, match=r"f must return shape \(2,\)"):
        rn.ODEProblem(lambda t, y: np.zeros(3), [1.0, 2.0], (0, 1))
    with pytest.raises(ValueError, match=r"jac must return shape \(1, 1\)"):
        rn.ODEProblem(lambda t, y: y, [1.0], (0, 1), jac=lambda t, y: np.eye(2))
    with pytest.raises(ValueError, match=r"exact\(t0\) must equal y0"):
        rn.ODEProblem(lambda t, y: y, [1.0], (0, 1), exact=lambda t: np.array([2.0]))
    with pytest.raises(TypeError, match="problem must be an ODEProblem"):
        rn.integrate(lambda t, y: y, "euler", 0.1)
    with pytest.raises(ValueError, match="no embedded error estimate"):
        rn.integrate(problems.logistic(), "rk4")
    with pytest.raises(ValueError, match="method must be one of"):
        rn.integrate(problems.logistic(), "bdf²", 0.1)
    with pytest.raises(ValueError, match="rtol must be"):
        rn.integrate(problems.logistic(), "dopri5", rtol=-1)


def test_on_grid_keeps_the_step_exact():
    p = problems.logistic(t_span=(0.0, 5.0))
    g = p.on_grid(1.5)  # 4 steps of exactly 1.5: t1 = 6
    assert g.t_span == (0.0, 6.0) and rn.integrate(g, "euler", 1.5).h == 1.5
    assert p.on_grid(0.5).t_span == (0.0, 5.0)
    with pytest.raises(ValueError, match="h must be finite and > 0"):
        p.on_grid(-1.0)
