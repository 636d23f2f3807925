"""What a run reports about itself: times of a backward run, failures of a stepped run,
bad times given to dense output, complex event states, non-finite values at the start."""

import warnings

import numpy as np
import pytest

import robonum as rn
from robonum import events
from robonum.ivp_inputs import unmirrored


def test_a_backward_run_reports_its_own_times():
    """Backward runs integrate z(s) = y(-s); their messages are printed at t = -s."""
    assert rn.solve_ivp(lambda t, y: -y, (5, 2), [1.0]).message == "reached t = 2"
    nan_below = lambda t, y: -y if t > 2.88 else np.array([np.nan])  # noqa: E731
    sol = rn.solve_ivp(nan_below, (5, 1), [1.0])
    t_bad = float(sol.message.split("t = ")[1].split()[0])
    assert sol.status == -1 and 1 < t_bad <= 2.88
    capped = rn.solve_ivp(lambda t, y: -y, (5, -1e11), [1.0], max_steps=30)
    assert float(capped.message.split("t = ")[1].split(";")[0]) < 0  # negative, as the run had
    assert unmirrored("at t = 0 and t = -1e+11, t = 2.5") == "at t = 0 and t = 1e+11, t = -2.5"


def test_a_backward_dense_output_checks_its_times_by_name():
    sol = rn.solve_ivp(lambda t, y: -y, (5, 2), [1.0], dense_output=True)
    for bad, err in (("a", TypeError), (np.nan, ValueError), (0.5 + 1j, TypeError)):
        with pytest.raises(err, match=r"\bt\b"):
            sol.sol(bad)
    assert sol.sol(3.0).shape == (1,) and sol.sol([3.0, 4.0]).shape == (1, 2)
    assert sol.sol(3.0)[0] == pytest.approx(np.exp(2.0), rel=1e-2)


def test_a_stepped_run_that_an_exception_ended_is_failed():
    """SciPy's OdeSolver: after the user's function raised, step() refuses to go on."""
    solver = rn.IVPSolver(lambda t, y: -y if t < 0.5 else 1 / 0, 0, [1.0], 1)
    with pytest.raises(ZeroDivisionError):
        while solver.status == "running":
            solver.step()
    assert solver.status == "failed"
    with pytest.raises(RuntimeError, match="failed"):
        solver.step()


def test_a_stepped_run_that_fails_at_once_keeps_its_message_and_counts():
    solver = rn.IVPSolver(lambda t, y: -y if t == 0 else np.array([np.nan]), 0, [1.0], 1)
    assert solver.status == "failed" and "NaN" in solver.message
    assert solver.nfev == 2  # f(t0) and the first-step probe
    back = rn.IVPSolver(lambda t, y: -y if t > 0.3 else np.array([np.nan]), 1, [1.0], 0)
    while back.status == "running":
        back.step()
    assert 0 < float(back.message.split("t = ")[1].split()[0]) <= 0.3  # a time of the run


def test_a_stepped_run_checks_the_times_of_its_dense_output():
    solver = rn.IVPSolver(lambda t, y: -y, 0, [1.0], 1)
    solver.step()
    dense = solver.dense_output()
    for bad in ("a", np.nan, [[0.1]]):
        with pytest.raises((TypeError, ValueError), match=r"\bt\b"):
            dense(bad)
    assert dense(0.01).shape == (1,) and dense([0.01, 0.02]).shape == (1, 2)


def test_event_states_of_a_complex_run_stay_complex():
    g = lambda t, y: y[0].real - 0.5  # noqa: E731
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no ComplexWarning: nothing is cast to float
        sol = rn.solve_ivp(lambda t, y: 1j * y, (0, 3), [1 + 0j], events=g, rtol=1e-8)
    (y_hit,) = sol.y_events[0]
    assert y_hit.dtype.kind == "c"
    assert y_hit[0] == pytest.approx(np.exp(1j * np.pi / 3), abs=1e-6)  # Re y = 1/2 at t = pi/3


@pytest.mark.parametrize("name", ["fun", "jac"])
def test_non_finite_values_at_the_start_are_bad_input(name):
    nan = lambda t, y: np.array([np.nan])  # noqa: E731
    kw = {"jac": lambda t, y: np.array([[np.nan]])} if name == "jac" else {}
    f = nan if name == "fun" else (lambda t, y: -y)
    with pytest.raises(ValueError, match="f must be finite" if name == "fun" else "jac must be"):
        rn.solve_ivp(f, (0, 1), [1.0], method="bdf", **kw)


def test_the_jacobian_size_is_capped_before_it_is_built():
    """A dense (n, n) Jacobian of 1e5 equations is 80 GB: refused by name, not a MemoryError."""
    from robonum.declarations import MAX_SPARSITY_DIM
    from robonum.work import MAX_JAC_DENSE

    n = MAX_JAC_DENSE + 1
    for method in ("radau5", "bdf"):
        with pytest.raises(ValueError, match=f"y0 has {n} components"):
            rn.solve_ivp(lambda t, y: -y, (0, 0.01), np.ones(n), method=method)
    assert rn.solve_ivp(lambda t, y: -y, (0, 0.01), np.ones(n)).success  # dopri5 needs none
    pattern = rn.solve_ivp(
        lambda t, y: -y, (0, 0.01), np.ones(n), method="bdf", jac_sparsity=np.eye(n)
    )
    assert pattern.success and MAX_SPARSITY_DIM > n
    with pytest.raises(ValueError, match="y0 has"):
        rn.integrate(rn.ODEProblem(lambda t, y: -y, np.ones(n), (0, 1)), "backward_euler", 0.5)


def test_an_adaptive_run_stops_at_the_output_it_may_keep():
    """Equal steps are checked before the run; adaptive ones at each step (was a MemoryError
    after 35 s for 1e5 equations and max_step = 1e-4)."""
    from robonum.loop import MAX_SAVED

    n = 100_000
    sol = rn.solve_ivp(lambda t, y: -y, (0, 1), np.ones(n), max_step=1e-4)
    assert sol.status == -1 and sol.reason == "max_steps" and "160 MB" in sol.message
    assert len(sol.t) * n <= MAX_SAVED + n  # stopped at the first point past the budget


def test_dense_output_extrapolates_as_scipy_but_never_returns_overflow():
    """SciPy's own tests read sol(t) five spans past the end; at t = 1e300 the polynomials
    overflow, and a ValueError naming t replaces the NaN (and its warnings)."""
    fwd = rn.solve_ivp(lambda t, y: -y, (0, 1), [1.0], dense_output=True, rtol=1e-8)
    back = rn.solve_ivp(lambda t, y: -y, (1, 0), [1.0], dense_output=True, rtol=1e-8)
    solver = rn.IVPSolver(lambda t, y: -y, 0, [1.0], 1)
    solver.step()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isfinite(fwd.sol(5.0)).all() and np.isfinite(back.sol(-4.0)).all()
        for sol in (fwd.sol, back.sol, solver.dense_output()):
            for far in (1e300, -1e300):
                with pytest.raises(ValueError, match=r"\bt\b is too far"):
                    sol(far)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):  # the backward run names its own interval
        back.sol(1e300)


def test_args_and_terminal_take_what_scipy_users_pass():
    import itertools

    for endless in (range(10**9), itertools.count()):  # refused at the cap, not unpacked whole
        with pytest.raises(ValueError, match="args: at most"):
            rn.solve_ivp(lambda t, y, *a: -y, (0, 1), [1.0], args=endless)
    g = lambda t, y: y[0] - 0.5  # noqa: E731
    g.terminal = np.True_  # what a comparison of numpy values gives
    assert rn.solve_ivp(lambda t, y: -y, (0, 3), [1.0], events=g).status == 1


def test_events_of_the_wrong_arity_and_ragged_outputs_are_refused_by_name():
    with pytest.raises(TypeError, match=r"events\[0\] must take 2"):
        rn.solve_ivp(lambda t, y: -y, (0, 1), [1.0], events=lambda t: 1.0)
    for vectorized in (False, True):
        with pytest.raises(ValueError, match=r"must return .*, got a ragged sequence at t = 0"):
            rn.solve_ivp(lambda t, y: [y[0], [1, 2]], (0, 1), [1.0, 2.0], vectorized=vectorized)


def test_a_complex_y0_is_sized_as_a_real_one():
    """The same words and the same limits as a real y0 (an empty one included, as SciPy's)."""
    with pytest.raises(ValueError, match="at most 100,000"):
        rn.solve_ivp(lambda t, y: -y, (0, 1), np.zeros(100_001, complex))
    assert rn.solve_ivp(lambda t, y: -y, (0, 1), np.zeros(0, complex)).status == 0
    with pytest.raises(ValueError, match="1-D"):
        rn.solve_ivp(lambda t, y: -y, (0, 1), np.zeros((2, 2), complex))


def test_a_chattering_event_past_its_record_is_counted_and_reported(monkeypatch):
    """Occurrences past ``MAX_OCCURRENCES`` are counted, not located (no Brent search for
    nothing kept), and the message says how many the record left out; a terminal count
    beyond the record still stops the run at the right occurrence."""
    monkeypatch.setattr(events, "MAX_OCCURRENCES", 5)

    def osc(t, y):
        return [y[1], -y[0]]

    def x_zero(t, y):
        return y[0]

    common = dict(rtol=1e-10, atol=1e-12, max_step=0.5)
    sol = rn.solve_ivp(osc, (0, 30), [1.0, 0.0], events=x_zero, **common)
    crossings = int((30 - np.pi / 2) // np.pi) + 1  # x = cos t vanishes at pi/2 + k pi
    assert sol.status == 0 and len(sol.t_events[0]) == 5
    assert f"events[0] occurred {crossings} times; t_events[0] keeps the first 5" in sol.message
    np.testing.assert_allclose(sol.t_events[0], np.pi / 2 + np.pi * np.arange(5), atol=1e-8)
    x_zero.terminal = 7  # the 7th occurrence, two past the record, ends the run
    stop = rn.solve_ivp(osc, (0, 30), [1.0, 0.0], events=x_zero, **common)
    assert stop.status == 1 and stop.t[-1] == pytest.approx(np.pi / 2 + 6 * np.pi, abs=1e-8)
    assert len(stop.t_events[0]) == 5 and "occurred 7 times" in stop.message
