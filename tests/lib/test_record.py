"""rn.record.run_record: what an execution record holds, and the runs it refuses to misdescribe."""

import json

import numpy as np
import pytest

import robonum as rn
from robonum.record import MAX_SETTINGS, run_record, versions

P = rn.problems.stiff_cosine(lam=-1000.0)  # y' = λ(y - cos t) - sin t, exact y = cos t


def test_equal_steps_record_h_counts_and_the_verdict():
    sol = rn.integrate(P, "radau3", 0.01)
    r = run_record(sol, exact=P.exact, tol=1e-6, problem="stiff_cosine", lam=-1000.0)
    assert (r.step, r.h, r.rtol, r.atol) == ("h", 0.01, None, None)
    assert r.counts == {k: getattr(sol, k) for k in r.counts}
    assert r.counts["nsteps"] == 100 and r.t_final == 1.0
    assert r.error == abs(sol.y_final[0] - np.cos(1.0)) and r.error < 1e-10
    assert r.passed is True and r.status == 0 and r.reason == "success"
    assert r.settings == {"problem": "stiff_cosine", "lam": -1000.0}


def test_adaptive_run_records_the_tolerances_given():
    sol = rn.integrate(P, "dopri5", rtol=1e-6, atol=1e-9)
    r = run_record(sol, exact=P.exact, tol=1e-6, rtol=1e-6, atol=1e-9)
    assert (r.step, r.h, r.rtol, r.atol) == ("adaptive", None, 1e-6, 1e-9)
    assert r.counts["nfev"] == sol.nfev and r.passed
    per_component = run_record(sol, rtol=1e-6, atol=[1e-9])
    assert per_component.atol == [1e-9] and per_component.error is None
    assert per_component.passed is None


def test_solve_ivp_runs_are_recorded_too():
    sol = rn.solve_ivp(P.f, P.t_span, P.y0, method="bdf", rtol=1e-6, atol=1e-9)
    r = run_record(sol, exact=P.exact(1.0), tol=1e-6, rtol=1e-6, atol=1e-9)
    assert r.step == "adaptive" and r.passed and r.error < 1e-7


def test_run_by_rule_records_its_smallest_and_largest_step():
    sol = rn.integrate(
        P.replace(t_span=(0.0, 0.1)), "radau3", lambda n, t, y: 0.01 if n % 2 else 0.02
    )
    r = run_record(sol)
    assert r.step == "rule" and r.h is None
    assert (r.h_min, r.h_max) == (float(np.min(sol.info["h"])), float(np.max(sol.info["h"])))


def test_a_failed_run_fails_even_where_its_error_is_small():
    bad = rn.integrate(P, "rk4", 0.01)  # outside RK4's stability interval: diverges
    r = run_record(bad, exact=P.exact, tol=1e30)
    assert r.status == -1 and r.reason == "diverged" and r.passed is False
    assert r.t_final < 1.0 and "diverged" in r.message


def test_a_successful_run_above_the_tolerance_fails():
    r = run_record(rn.integrate(P, "backward_euler", 0.01), exact=P.exact, tol=1e-6)
    assert r.status == 0 and r.error > 1e-6 and r.passed is False


def test_the_record_is_plain_data_with_the_versions_apart():
    r = run_record(rn.integrate(P, "radau3", 0.1), exact=P.exact, tol=1e-3)
    d = json.loads(json.dumps(r.as_dict()))
    assert d["versions"] == versions()
    assert set(d["versions"]) == {"python", "numpy", "scipy", "robonum"}
    assert d["versions"]["robonum"] == rn.__version__ and d["versions"]["numpy"] == np.__version__


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        (dict(rtol=1e-6, atol=1e-9), ValueError, "equal steps"),  # tolerances did not act
        (dict(tol=1e-6), ValueError, "exact"),  # a verdict with nothing to judge by
        (dict(exact=[1.0, 2.0]), ValueError, "shape"),
        (dict(exact=[np.nan]), ValueError, "finite"),
        (dict(exact=lambda t: 1 / 0), ValueError, "exact(t) failed"),
        (dict(exact=P.exact, tol=-1.0), ValueError, "tol"),
        (dict(exact=P.exact, tol=np.inf), ValueError, "tol"),
        (dict(where=object()), TypeError, "setting where"),
        (dict(where=np.nan), TypeError, "setting where"),
    ],
)
def test_bad_input_to_an_equal_step_record_is_named(kwargs, error, words):
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")):
        run_record(rn.integrate(P, "radau3", 0.1), **kwargs)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        (dict(), "rtol and atol"),
        (dict(rtol=1e-6), "rtol and atol"),
        (dict(rtol=-1e-6, atol=1e-9), "rtol"),
        (dict(rtol=1e-6, atol=[[1e-9]]), "atol"),
        (dict(rtol="tight", atol=1e-9), "rtol"),
    ],
)
def test_an_adaptive_record_needs_its_tolerances(kwargs, words):
    sol = rn.integrate(P, "dopri5", rtol=1e-6, atol=1e-9)
    with pytest.raises((ValueError, TypeError), match=words):
        run_record(sol, **kwargs)


def test_not_a_solution_and_too_many_settings():
    with pytest.raises(TypeError, match="sol must be a robonum Solution"):
        run_record({"t": [0.0, 1.0]})
    sol = rn.integrate(P, "radau3", 0.1)
    with pytest.raises(ValueError, match="settings"):
        run_record(sol, **{f"s{i}": i for i in range(MAX_SETTINGS + 1)})
    empty = rn.Solution(np.array([]), np.zeros((1, 0)), "dopri5", None, 0, "success", "")
    with pytest.raises(ValueError, match="no times"):
        run_record(empty, rtol=1e-3, atol=1e-6)
