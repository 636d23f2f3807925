"""Fixed-step and adaptive drivers: convergence, work counters, failure reporting."""
import warnings

import numpy as np
import pytest
from scipy.integrate import solve_ivp

import robonum as rn
from robonum import problems


@pytest.mark.parametrize("key, p", [("euler", 1), ("heun", 2), ("midpoint", 2), ("rk3", 3),
                                    ("rk4", 4), ("dopri5", 5)])
def test_explicit_methods_converge_at_their_order(key, p):
    # y' = y cos t has y = exp(sin t): smooth, nonlinear in t.  The step range
    # stays above the rounding floor (DOPRI5 reaches ~1e-14 at h = 0.0125).
    problem = rn.ODEProblem(lambda t, y: y * np.cos(t), [1.0], (0.0, 2.0),
                            exact=lambda t: np.array([np.exp(np.sin(t))]))
    hs = rn.halving(0.05, 4 if p < 5 else 3)
    assert abs(rn.fitted_order(hs, rn.final_errors(problem, key, hs)) - p) < 0.1


def test_work_counters_match_stage_counts():
    problem = problems.logistic(t_span=(0.0, 1.0))
    sol = rn.integrate(problem, "rk4", 0.1)
    assert (sol.nsteps, sol.nfev, sol.njev, sol.nlu) == (10, 40, 0, 0)
    assert sol.y.shape == (1, 11) and sol.t[-1] == 1.0


def test_step_never_exceeds_the_requested_h_and_lands_on_t1():
    sol = rn.integrate(problems.logistic(t_span=(0.0, 1.0)), "euler", 0.3)
    assert sol.h == pytest.approx(0.25) and sol.nsteps == 4 and sol.t[-1] == 1.0
    sub = rn.integrate(problems.logistic(t_span=(0.0, 1.0)), "euler", 0.01, save_every=25)
    assert np.allclose(sub.t, [0, 0.25, 0.5, 0.75, 1.0])


def test_divergence_is_a_status_not_a_warning_flood():
    stiff = problems.stiff_cosine(lam=1000.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sol = rn.integrate(stiff, "euler", 2.5e-3)           # z = -2.5: |R| = 1.5
    assert sol.status == -1 and not sol.success
    assert "unstable" in sol.message and np.all(np.isfinite(sol.y))
    assert rn.integrate(stiff, "euler", 1.9e-3).success     # z = -1.9: stable


def test_seed_stability_thresholds_on_the_stiff_problem():
    stiff = problems.stiff_cosine(lam=1000.0)
    assert rn.integrate(stiff, "rk4", 2.94e-3).status == -1
    ok = rn.integrate(stiff, "rk4", 2.5e-3)
    assert ok.success and abs(ok.y_final[0] - np.cos(1.0)) < 1e-4
    be = rn.integrate(stiff, "backward_euler", 0.1)          # lambda h = 100
    assert be.success and abs(be.y_final[0] - np.cos(1.0)) < 5e-5


def test_adaptive_dopri5_agrees_with_scipy_and_counts_work():
    problem = problems.van_der_pol(mu=1.0, t_span=(0.0, 5.0))
    ours = rn.integrate_adaptive(problem, "dopri5", rtol=1e-8, atol=1e-10)
    ref = solve_ivp(problem.f, problem.t_span, problem.y0, rtol=1e-12, atol=1e-12)
    assert ours.success
    assert np.max(np.abs(ours.y_final - ref.y[:, -1])) < 1e-6
    assert ours.nfev == 7 * (ours.nsteps + ours.nreject) + 1   # 7 stages, +1 for h0


def test_make_stepper_understands_names():
    assert rn.make_stepper("bdf3").name == "BDF3"
    assert isinstance(rn.make_stepper("radau3"), rn.ImplicitRK)
    assert isinstance(rn.make_stepper(rn.methods.get("rk4")), rn.ExplicitRK)


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(h=0.0), ValueError, "h must be finite and > 0"),
    (dict(h=float("nan")), ValueError, "h must be finite"),
    (dict(h="0.1"), TypeError, "h must be a real number"),
    (dict(h=0.1, save_every=0), ValueError, "save_every"),
    (dict(h=1e-12), ValueError, "steps"),
])
def test_bad_integrate_input(kwargs, error, match):
    with pytest.raises(error, match=match):
        rn.integrate(problems.logistic(), "euler", **kwargs)


def test_bad_problem_input():
    with pytest.raises(ValueError, match="y0 must contain only finite"):
        rn.ODEProblem(lambda t, y: y, [np.nan], (0, 1))
    with pytest.raises(ValueError, match="t_span must satisfy"):
        rn.ODEProblem(lambda t, y: y, [1.0], (1, 0))
    with pytest.raises(TypeError, match="f must be callable"):
        rn.ODEProblem(None, [1.0], (0, 1))
    with pytest.raises(ValueError, match=r"f\(t0, y0\) must have shape"):
        rn.ODEProblem(lambda t, y: np.zeros(3), [1.0, 2.0], (0, 1))
    with pytest.raises(TypeError, match="problem must be an ODEProblem"):
        rn.integrate(lambda t, y: y, "euler", 0.1)
    with pytest.raises(ValueError, match="no embedded error estimate"):
        rn.integrate_adaptive(problems.logistic(), "rk4")
    emb = rn.ButcherTableau("implicit pair", A=[[1, 0], [-1, 1]], b=[0, 1], b_hat=[1, 0],
                            order=1, order_hat=1)
    with pytest.raises(ValueError, match="explicit method with b_hat"):
        rn.integrate_adaptive(problems.logistic(), emb)
    with pytest.raises(ValueError, match="rtol must be finite and > 0"):
        rn.integrate_adaptive(problems.logistic(), rtol=-1)
