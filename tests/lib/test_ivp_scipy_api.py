"""``solve_ivp`` with SciPy's arguments: events, backward runs, args, vectorized, matrix jac.

Each test checks the numbers against an exact solution or against the same run
written another way, not against SciPy's own counts.
"""

import numpy as np
import pytest
from scipy.sparse import csc_matrix

import robonum as rn

G = 9.80665


def ballistic(t, y):
    return [y[1], -G]


def ground(t, y):
    return y[0]


ground.terminal = True
ground.direction = -1


def test_a_terminal_event_stops_the_run_at_the_contact():
    sol = rn.solve_ivp(ballistic, (0, 10), [0.0, 10.0], events=ground, rtol=1e-8)
    # the polynomial of a quadratic solution is exact, so the root is found to a few ulps
    assert sol.status == 1 and sol.success
    assert sol.t_events[0] == pytest.approx([2 * 10 / G], rel=1e-13)
    assert sol.t[-1] == sol.t_events[0][0]
    np.testing.assert_allclose(sol.y_events[0], [[0.0, -10.0]], atol=1e-12)


def test_events_count_and_direction():
    def osc(t, y):
        return [y[1], -y[0]]

    def x_zero(t, y):
        return y[0]

    rising = rn.solve_ivp(osc, (0, 20), [1.0, 0.0], events=x_zero, rtol=1e-10, atol=1e-12)
    x_zero.direction = 1  # only where x goes from - to +: t = 3pi/2 + 2k pi
    up = rn.solve_ivp(osc, (0, 20), [1.0, 0.0], events=x_zero, rtol=1e-10, atol=1e-12)
    x_zero.terminal = 2
    two = rn.solve_ivp(osc, (0, 20), [1.0, 0.0], events=x_zero, rtol=1e-10, atol=1e-12)
    both = np.pi / 2 + np.pi * np.arange(6)  # the zeros of cos t in (0, 20)
    np.testing.assert_allclose(rising.t_events[0], both, atol=1e-8)  # rtol 1e-10 over 20 s
    np.testing.assert_allclose(up.t_events[0], both[1::2], atol=1e-8)
    np.testing.assert_allclose(two.t_events[0], both[1:4:2], atol=1e-8)
    assert two.status == 1 and two.t[-1] == two.t_events[0][-1]


@pytest.mark.parametrize("terminal", [-1, 3.5, "yes"])
def test_a_bad_terminal_count_is_refused_by_name(terminal):
    def ev(t, y):
        return y[0]

    ev.terminal = terminal
    with pytest.raises(ValueError, match=r"`terminal` attribute of events\[0\]"):
        rn.solve_ivp(lambda t, y: -y, (0, 1), [1.0], events=[ev])


def test_an_event_returning_nan_is_refused():
    with pytest.raises(ValueError, match=r"events\[0\] must return one finite real number"):
        rn.solve_ivp(lambda t, y: -y, (0, 1), [1.0], events=lambda t, y: np.nan)


@pytest.mark.parametrize("method", ["dopri5", "radau5", "bdf"])
def test_a_backward_run_is_the_mirror_of_a_forward_one(method):
    def f(t, y):
        return [np.cos(t) * y[0]]

    def f_mirror(s, z):
        return [-np.cos(-s) * z[0]]

    back = rn.solve_ivp(f, (2, -1), [1.0], method=method, rtol=1e-7, dense_output=True)
    ahead = rn.solve_ivp(f_mirror, (-2, 1), [1.0], method=method, rtol=1e-7)
    np.testing.assert_array_equal(back.t, -ahead.t)  # the same steps, mirrored
    np.testing.assert_array_equal(back.y, ahead.y)
    exact = np.exp(np.sin(back.t) - np.sin(2))
    assert np.max(np.abs(back.y[0] - exact)) < 1e-5  # rtol 1e-7 over 3 time units
    assert back.sol(0.5)[0] == pytest.approx(np.exp(np.sin(0.5) - np.sin(2)), rel=1e-5)


def test_t_eval_runs_along_the_direction_of_the_run():
    te = [2.0, 1.0, 0.0, -1.0]
    sol = rn.solve_ivp(lambda t, y: -y, (2, -1), [1.0], t_eval=te, rtol=1e-8)
    np.testing.assert_array_equal(sol.t, te)
    np.testing.assert_allclose(sol.y[0], np.exp(2 - np.array(te)), rtol=1e-6)
    with pytest.raises(ValueError, match="decreasing times inside t_span"):
        rn.solve_ivp(lambda t, y: -y, (2, -1), [1.0], t_eval=[-1.0, 2.0])


def test_args_vectorized_and_a_constant_jacobian_give_the_same_run():
    A = np.array([[-1.0, -5.0], [1.0, 1.0]])

    def plain(t, y):
        return A @ y

    def scaled(t, y, a):
        return a * (A @ y)

    ref = rn.solve_ivp(plain, (0, 2), [0.0, 2.0], method="radau5", jac=lambda t, y: A)
    for kwargs in (
        dict(fun=scaled, args=(1.0,), jac=A),
        dict(fun=plain, jac=csc_matrix(A)),
        dict(fun=plain, vectorized=True, jac=lambda t, y: csc_matrix(A)),
    ):
        fun = kwargs.pop("fun")
        sol = rn.solve_ivp(fun, (0, 2), [0.0, 2.0], method="radau5", **kwargs)
        np.testing.assert_array_equal(sol.y, ref.y)
    const = rn.solve_ivp(plain, (0, 2), [0.0, 2.0], method="radau5", jac=A)
    assert const.njev == 0 < ref.njev  # a constant matrix is never evaluated


def test_args_must_unpack():
    with pytest.raises(TypeError, match=r"'args' cannot be unpacked: give a tuple .* got float"):
        rn.solve_ivp(lambda t, y, a: -a * y, (0, 1), [1.0], args=2.0)


def test_a_zero_length_span_returns_y0_without_calling_f():
    calls = []

    def f(t, y):
        calls.append(t)
        return -y

    sol = rn.solve_ivp(f, (4, 4), [2.0, 3.0], dense_output=True)
    assert sol.status == 0 and calls == []
    np.testing.assert_array_equal(sol.sol(4), [2.0, 3.0])
    np.testing.assert_array_equal(sol.sol([4, 5]), [[2.0, 2.0], [3.0, 3.0]])  # y0 everywhere


def test_a_state_with_no_components_jumps_to_the_end_without_calling_f():
    def f(t, y):
        raise AssertionError("f must not be called")

    sol = rn.solve_ivp(f, (0, np.inf), [], dense_output=True)
    assert sol.status == 0 and sol.t.tolist() == [0.0, np.inf] and sol.y.shape == (0, 2)
    assert sol.sol([1, 2, 3]).shape == (0, 3)
    solver = rn.IVPSolver(f, 0.0, [], 10.0)
    assert solver.step() is None and (solver.status, solver.t, solver.t_old) == ("finished", 10, 0)


def test_rtol_per_component_weighs_each_component():
    f = lambda t, y: y  # noqa: E731
    loose = rn.solve_ivp(f, (0, 1), [1.0, 1.0], rtol=[1e-2, 1e-2], atol=1e-12)
    mixed = rn.solve_ivp(f, (0, 1), [1.0, 1.0], rtol=[1e-2, 1e-8], atol=1e-12)
    err = lambda s: abs(s.y[:, -1] - np.e).max()  # noqa: E731
    assert err(mixed) < err(loose) / 100  # the tight component drives the steps
    for method in ("radau5", "bdf"):
        s = rn.solve_ivp(f, (0, 1), [1.0, 1.0], method=method, rtol=[1e-2, 1e-8], atol=1e-12)
        assert abs(s.y[1, -1] - np.e) < 1e-6, method
    with pytest.raises(ValueError, match=r"every rtol must be in \[2.22045e-14, 1\]"):
        rn.steppers.RadauIIA(3, rtol=[1e-2, 1e-16])  # a stepper's own door refuses
    with pytest.raises(ValueError, match=r"rtol must be in"):
        rn.solve_ivp(f, (0, 1), [1.0, 1.0], rtol=[1e-2, -1e-3])  # negative: refused by name


def test_an_rtol_below_100_eps_is_raised_to_it_with_one_warning_as_scipys():
    f = lambda t, y: -y  # noqa: E731
    floor = 100 * np.finfo(float).eps
    for call in (
        lambda r: rn.solve_ivp(f, (0, 1), [1.0, 1.0], method="radau5", rtol=r, atol=1e-12),
        lambda r: rn.IVPSolver(f, 0, [1.0, 1.0], 1, method="bdf", rtol=r, atol=1e-12),
    ):
        with pytest.warns(UserWarning, match="At least one element of `rtol`") as caught:
            call([1e-2, 1e-16])
        assert len(caught) == 1
        assert "2.22e-14" in str(caught[0].message)
    with pytest.warns(UserWarning, match="raised to 2.22e-14") as caught:
        low = rn.solve_ivp(f, (0, 1), [1.0], rtol=0.0, atol=1e-300)
    assert len(caught) == 1
    at_floor = rn.solve_ivp(f, (0, 1), [1.0], rtol=floor, atol=1e-300)
    # raised, not refused: the same run as asking for the floor itself
    assert low.nfev == at_floor.nfev and np.array_equal(low.y, at_floor.y)
    with pytest.raises(ValueError, match=r"rtol must be a number or have shape \(2,\)"):
        rn.solve_ivp(f, (0, 1), [1.0, 1.0], rtol=[1e-2, 1e-2, 1e-2])


def test_first_step_longer_than_the_span_is_refused():
    with pytest.raises(ValueError, match="first_step must be at most"):
        rn.solve_ivp(lambda t, y: -y, (5, 9), [1.0], first_step=5)


def test_the_result_reads_as_a_dict():
    sol = rn.solve_ivp(lambda t, y: -y, (0, 1), [1.0])
    assert sol["t"] is sol.t and sol["status"] == 0
    with pytest.raises(KeyError):
        sol["nonsense"]


@pytest.mark.parametrize("method", ["dopri5", "radau5", "bdf"])
def test_atol_per_component_is_a_change_of_units(method):
    # measuring y2 in units 2^30 times smaller (exact in binary) with atol scaled alike
    # must give the same steps: the error norm weighs err_i / (atol_i + rtol |y_i|)
    s = 2.0**-30

    def f(t, y):
        return np.array([-y[0] + y[1] / s, -3 * y[1]])

    def f_unit(t, y):
        return np.array([-y[0] + y[1], -3 * y[1]])

    mixed = rn.solve_ivp(f, (0, 5), [1.0, s], method=method, rtol=1e-6, atol=[1e-8, 1e-8 * s])
    unit = rn.solve_ivp(f_unit, (0, 5), [1.0, 1.0], method=method, rtol=1e-6, atol=1e-8)
    assert mixed.nfev == unit.nfev and mixed.t.size == unit.t.size
    np.testing.assert_allclose(mixed.y[1] / s, unit.y[1], rtol=1e-12)
    np.testing.assert_allclose(mixed.y[0], unit.y[0], rtol=1e-12)
    # one common atol would ignore the small component's own scale
    common = rn.solve_ivp(f, (0, 5), [1.0, s], method=method, rtol=1e-6, atol=1e-8)
    assert common.nfev < mixed.nfev


def test_atol_per_component_is_checked():
    with pytest.raises(ValueError, match=r"atol must be a number or have shape \(2,\)"):
        rn.solve_ivp(lambda t, y: -y, (0, 1), [1.0, 1.0], atol=[1e-6, 1e-6, 1e-6])
    with pytest.raises(ValueError, match=r"every atol must be in \(0, 1e\+10\]"):
        rn.solve_ivp(lambda t, y: -y, (0, 1), [1.0, 1.0], atol=[1e-6, 0.0])


@pytest.mark.parametrize("method", ["dopri5", "bs23", "bdf"])
def test_a_complex_state_is_integrated_in_complex_arithmetic(method):
    y0 = 0.5 + 1j
    sol = rn.solve_ivp(lambda t, y: -y, (0, 1), [y0], method=method, rtol=1e-8, atol=1e-10)
    assert sol.status == 0 and sol.y.dtype == complex
    assert np.max(np.abs(sol.y[0] - y0 * np.exp(-sol.t))) < 1e-7  # rtol 1e-8 over one unit


COMPLEX_NEEDS = (
    r"works in real arithmetic; a complex y0 needs an explicit Runge-Kutta method "
    r"\(e.g. 'rk4', 'bs23', 'dopri5'\) or, in solve_ivp, 'bdf'"
)


def test_a_real_arithmetic_method_refuses_a_complex_state_by_name():
    with pytest.raises(TypeError, match=COMPLEX_NEEDS):
        rn.solve_ivp(lambda t, y: -y, (0, 1), [1j], method="radau5")
    problem = rn.ODEProblem(lambda t, y: -y, [1j], (0, 1))
    for method in ("backward_euler", "bdf2"):  # integrate's names: its 'bdf2' is not 'bdf'
        with pytest.raises(TypeError, match=COMPLEX_NEEDS):
            rn.integrate(problem, method, 0.1)


@pytest.mark.parametrize("method", ["euler", "rk4", "bs23", "dopri5"])
def test_integrate_steps_a_complex_state_with_an_explicit_method(method):
    y0 = 0.5 + 1j
    sol = rn.integrate(rn.ODEProblem(lambda t, y: -y, [y0], (0, 1)), method, 0.01)
    assert sol.success and sol.y.dtype == complex
    # the first-order Euler's global error at h = 0.01 is about h/2 |y| e^-1 = 2e-3 here
    assert np.abs(sol.y[0, -1] - y0 * np.exp(-1.0)) < 3e-3


@pytest.mark.parametrize("method", ["dopri5", "bdf"])
def test_the_complex_step_differentiates_a_whole_run(method):
    # d y(T)/dk from one run with k + i 1e-30: every decision of the step control reads |y|,
    # which the tiny imaginary part does not change, so Im y / 1e-30 is the derivative of
    # the discrete solution -- no subtraction, no step to choose (chapter 6's method)
    k, T, tiny = 2.0, 3.0, 1e-30

    def f(t, y, k):
        return -k * y * np.sin(t) ** 2

    real = rn.solve_ivp(f, (0, T), [1.0], method=method, args=(k,), rtol=1e-10, atol=1e-12)
    cplx = rn.solve_ivp(
        f, (0, T), [1.0 + 0j], method=method, args=(k + 1j * tiny,), rtol=1e-10, atol=1e-12
    )
    # complex BLAS sums in another order, so a step may be accepted or rejected differently:
    # the real parts agree to the tolerance, not to the bit
    assert abs(cplx.y[0, -1].real - real.y[0, -1]) < 1e-8
    S = 0.5 * T - np.sin(2 * T) / 4  # integral of sin^2 over (0, T)
    exact = -S * np.exp(-k * S)  # d/dk of y(T) = exp(-k S)
    assert cplx.y[0, -1].imag / tiny == pytest.approx(exact, rel=1e-7)


def test_vectorized_f_gives_the_difference_jacobian_in_one_call():
    # Robertson's kinetics: the same run with f called per column or on all columns at once
    def rober(t, y):
        y1, y2, y3 = y
        return np.array(
            [-0.04 * y1 + 1e4 * y2 * y3, 0.04 * y1 - 1e4 * y2 * y3 - 3e7 * y2**2, 3e7 * y2**2]
        )

    # radau5: its J reuse does not read the price of a J, so both runs take the same steps
    kw = dict(method="radau5", rtol=1e-6, atol=[1e-8, 1e-14, 1e-8])
    one = rn.solve_ivp(rober, (0, 100), [1.0, 0.0, 0.0], **kw)
    many = rn.solve_ivp(rober, (0, 100), [1.0, 0.0, 0.0], vectorized=True, **kw)
    # the same differences up to rounding (numpy may vectorize the (n, n) evaluation with other
    # SIMD kernels): the runs agree to their tolerance, and each Jacobian costs one call, not 3
    np.testing.assert_allclose(many.y[:, -1], one.y[:, -1], rtol=1e-5, atol=1e-12)
    saved = one.nfev_jac - many.nfev_jac
    assert one.njev > 0 and saved > 0
    assert abs(saved - 2 * one.njev) <= 0.05 * one.nfev  # 2 calls saved per Jacobian
    # bdf renews a J by its price (bdf_variable.stale), one call here: measured 18 Jacobians
    # against 16, for fewer calls (428 against 486; the count of Jacobians is left free, a
    # flipped decision moves it by a few)
    kw["method"] = "bdf"
    one = rn.solve_ivp(rober, (0, 100), [1.0, 0.0, 0.0], **kw)
    many = rn.solve_ivp(rober, (0, 100), [1.0, 0.0, 0.0], vectorized=True, **kw)
    np.testing.assert_allclose(many.y[:, -1], one.y[:, -1], rtol=1e-5, atol=1e-12)
    assert many.nfev + many.nfev_jac < one.nfev + one.nfev_jac


@pytest.mark.parametrize("method", ["dopri5", "radau5", "bdf"])
@pytest.mark.parametrize("span", [(5.0, 9.0), (5.0, 1.0)])
def test_a_run_stepped_by_hand_takes_solve_ivps_steps(method, span):
    def f(t, y):
        return np.array([y[1] / t, y[1] * (y[0] + 2 * y[1] - 1) / (t * (y[0] - 1))])

    y0 = [1 / 3, 2 / 9]
    ref = rn.solve_ivp(f, span, y0, method=method, rtol=1e-6)
    solver = rn.IVPSolver(f, span[0], y0, span[1], method=method, rtol=1e-6)
    with pytest.raises(RuntimeError, match="after a successful step"):
        solver.dense_output()
    ts, ys = [solver.t], [solver.y]
    while solver.status == "running":
        assert solver.step() is None
        ts.append(solver.t)
        ys.append(solver.y)
        local = solver.dense_output()
        np.testing.assert_allclose(local(solver.t), solver.y, rtol=1e-13)
    np.testing.assert_array_equal(ts, ref.t)
    np.testing.assert_array_equal(np.array(ys).T, ref.y)
    assert (solver.nfev, solver.njev, solver.nlu) == (ref.nfev, ref.njev, ref.nlu)
    assert solver.status == "finished" and solver.t == span[1]
    with pytest.raises(RuntimeError, match="finished solver"):
        solver.step()


def test_a_failing_run_stepped_by_hand_reports_its_message():
    solver = rn.IVPSolver(lambda t, y: y**2, 0.0, [1.0], 2.0, rtol=1e-6)  # y = 1/(1 - t)
    message = None
    while solver.status == "running" and message is None:
        message = solver.step()
    assert solver.status == "failed" and "t = 1" in message
    assert abs(solver.t - 1.0) < 1e-3  # it stops at the pole, not at t_bound


def test_an_open_ended_run_stops_at_its_terminal_event():
    sol = rn.solve_ivp(ballistic, (0, np.inf), [0.0, 10.0], events=ground, rtol=1e-8)
    assert sol.status == 1 and sol.t[-1] == pytest.approx(2 * 10 / G, rel=1e-12)
    with pytest.raises(ValueError, match="needs a terminal event"):
        rn.solve_ivp(ballistic, (0, np.inf), [0.0, 10.0])
    solver = rn.IVPSolver(lambda t, y: -y, 0.0, [1.0], np.inf)
    for _ in range(3):
        solver.step()
    assert solver.status == "running" and solver.t > 0


def test_an_event_at_a_steps_start_does_not_repeat_the_last_time():
    # SciPy's own case (test_duplicate_timestamps): steps so short that the root of the
    # ground event is found at the start of the step that detects it
    sol = rn.solve_ivp(
        ballistic,
        (0, np.inf),
        [0.0, 0.01],
        max_step=0.05 * 0.001 / G,
        events=ground,
        dense_output=True,
    )
    assert sol.status == 1 and np.all(np.diff(sol.t) > 0)
    assert sol.sol(sol.t[-1])[1] == pytest.approx(-0.01, rel=1e-9)
