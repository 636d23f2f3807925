"""rn.solve_ivp against closed forms and SciPy's solutions at tight tolerance."""

import numpy as np
import pytest
from scipy.integrate import solve_ivp as scipy_solve_ivp

import robonum as rn

METHODS = ["bs23", "dopri5", "radau5", "radau", "bdf"]


def linear_system():
    """y' = A y with a stiff (-1000) and a slow (-1) mode: exact y = V exp(Λt) V⁻¹ y0."""
    A = np.array([[-1.0, 0.0], [999.0, -1000.0]])
    y0 = np.array([1.0, 2.0])

    def exact(t):
        # eigenvectors: (1, 1) for -1, (0, 1) for -1000
        a = y0[0]
        return np.array([a * np.exp(-t), a * np.exp(-t) + (y0[1] - a) * np.exp(-1000 * t)])

    return A, y0, exact


@pytest.mark.parametrize("method", METHODS)
def test_closed_form_linear(method):
    A, y0, exact = linear_system()
    s = rn.solve_ivp(
        lambda t, y: A @ y, (0, 2), y0, method=method, rtol=1e-8, atol=1e-10, jac=lambda t, y: A
    )
    assert s.success and s.status == 0
    assert np.abs(s.y[:, -1] - exact(2.0)).max() < 1e-7
    assert s.y.shape == (2, s.t.size)


@pytest.mark.parametrize("method", METHODS)
def test_stiff_cosine_closed_form(method):
    p = rn.problems.stiff_cosine(lam=-1000)
    s = rn.solve_ivp(p.f, (0, 1), [1.0], method=method, rtol=1e-8, atol=1e-10, jac=p.jac)
    assert abs(s.y[0, -1] - np.cos(1.0)) < 1e-7


@pytest.mark.parametrize("method", ["radau5", "radau", "bdf"])
def test_against_scipy_tight(method):
    """Van der Pol μ = 10 on [0, 20] at rtol 1e-10 agrees with SciPy's Radau at 1e-12."""
    p = rn.problems.van_der_pol(mu=10, t_span=(0, 20))
    ref = scipy_solve_ivp(p.f, (0, 20), p.y0, method="Radau", rtol=1e-12, atol=1e-12, jac=p.jac).y[
        :, -1
    ]
    s = rn.solve_ivp(p.f, (0, 20), p.y0, method=method, rtol=1e-10, atol=1e-10, jac=p.jac)
    assert s.success
    assert np.abs(s.y[:, -1] - ref).max() < 1e-6


@pytest.mark.parametrize("ours, scipys", [("dopri5", "RK45"), ("bs23", "RK23")])
def test_explicit_pair_matches_scipy_count(ours, scipys):
    """dopri5 and bs23 are RK45's and RK23's methods and controller: the same f-calls in the
    same run (not a literal, which one machine's rounding could move by a step on both sides)."""
    p = rn.problems.stiff_cosine(lam=-1000)
    theirs = scipy_solve_ivp(p.f, (0, 1), [1.0], method=scipys, rtol=1e-6, atol=1e-9).nfev
    assert theirs > 1000  # stiff for an explicit method: the count is the stability limit's
    assert rn.solve_ivp(p.f, (0, 1), [1.0], method=ours, rtol=1e-6, atol=1e-9).nfev == theirs


@pytest.mark.parametrize("method", METHODS)
def test_dense_output_and_t_eval(method):
    p = rn.problems.stiff_cosine(lam=-100)
    te = np.linspace(0, 1, 7)
    s = rn.solve_ivp(
        p.f,
        (0, 1),
        [1.0],
        method=method,
        rtol=1e-8,
        atol=1e-10,
        jac=p.jac,
        dense_output=True,
        t_eval=te,
    )
    np.testing.assert_array_equal(s.t, te)
    assert np.abs(s.y[0] - np.cos(te)).max() < 1e-6
    tt = np.linspace(0, 1, 201)
    assert np.abs(s.sol(tt)[0] - np.cos(tt)).max() < 1e-6
    assert s.sol(0.5).shape == (1,)
    # Outside [0, 1] the end pieces are extended, as SciPy's OdeSolution does.
    last, first = s.sol.pieces[-1], s.sol.pieces[0]
    np.testing.assert_array_equal(s.sol(2.0), last(np.array([2.0]))[:, 0])
    np.testing.assert_array_equal(s.sol([-0.5]), first(np.array([-0.5])))


def test_no_dense_output_gives_none():
    assert rn.solve_ivp(lambda t, y: -y, (0, 1), [1.0]).sol is None


@pytest.mark.parametrize("method", ["radau5", "radau", "bdf"])
def test_singularity_reported_not_raised(method):
    s = rn.solve_ivp(lambda t, y: y**2, (0, 2), [1.0], method=method)
    assert s.status == -1 and s.reason == "step_underflow"
    assert abs(s.t[-1] - 1.0) < 0.05


@pytest.mark.parametrize("method", ["radau5", "radau", "bdf"])
def test_max_steps_reported(method):
    p = rn.problems.van_der_pol(mu=1000, t_span=(0, 3000))
    s = rn.solve_ivp(p.f, p.t_span, p.y0, method=method, max_steps=20, jac=p.jac)
    assert s.status == -1 and s.reason == "max_steps"


def test_nan_in_f_reported():
    s = rn.solve_ivp(
        lambda t, y: -y if t < 0.5 else np.array([np.nan]), (0, 1), [1.0], method="radau5"
    )
    assert s.status == -1 and s.reason == "nan_in_f"


@pytest.mark.parametrize(
    "kwargs, err",
    [
        (dict(method="LSODA"), ValueError),
        (dict(rtol=-1e-3), ValueError),
        (dict(atol=-1.0), ValueError),
        (dict(max_step=0.0), ValueError),
        (dict(dense_output=1), TypeError),
        (dict(t_eval=[0.5, 0.2]), ValueError),
        (dict(t_eval=[2.0]), ValueError),
        (dict(first_step=-1.0), ValueError),
        (dict(max_steps=0), ValueError),
    ],
)
def test_bad_input_named(kwargs, err):
    with pytest.raises(err):
        rn.solve_ivp(lambda t, y: -y, (0, 1), [1.0], **kwargs)


def test_scipy_aliases():
    p = rn.problems.stiff_cosine(lam=-1000)
    a = rn.solve_ivp(p.f, (0, 1), [1.0], method="Radau", jac=p.jac)
    b = rn.solve_ivp(p.f, (0, 1), [1.0], method="radau5", jac=p.jac)
    assert a.nfev == b.nfev and np.array_equal(a.y, b.y)


def test_finite_difference_jacobian_counts_in_nfev_jac():
    """As SciPy's: ``nfev`` leaves out the difference Jacobian's calls, ``nfev_jac`` has them,
    and the two add up to every call a wrapper sees (n = 1: one call per Jacobian here, the
    base point being the step's own ``f``)."""
    p = rn.problems.stiff_cosine(lam=-1000)
    calls = [0]

    def f(t, y):
        calls[0] += 1
        return p.f(t, y)

    a = rn.solve_ivp(f, (0, 1), [1.0], method="bdf", jac=p.jac)
    assert a.nfev_jac == 0
    calls[0] = 0
    b = rn.solve_ivp(f, (0, 1), [1.0], method="bdf")
    assert b.njev == a.njev and b.nfev_jac == b.njev
    assert b.nfev + b.nfev_jac == calls[0] and b.nfev == a.nfev


def test_a_stepper_as_method():
    """As SciPy takes a solver class: a stepper with an error estimate runs, one without is refused."""
    p = rn.problems.stiff_cosine(lam=-1000)
    five = rn.solve_ivp(p.f, (0, 1), [1.0], method=rn.steppers.RadauIIA(5), rtol=1e-3, jac=p.jac)
    auto = rn.solve_ivp(p.f, (0, 1), [1.0], method="radau", rtol=1e-3, jac=p.jac)  # 3 stages here
    assert five.success and abs(five.y[0, -1] - np.cos(1.0)) < 1e-4
    assert five.nfev != auto.nfev
    with pytest.raises(ValueError, match="method .* gives no embedded error estimate"):
        rn.solve_ivp(p.f, (0, 1), [1.0], method=rn.ExplicitRK("rk4"))


@pytest.mark.parametrize("rtol", [1e-3, 1e-4])
def test_bdf_refreshes_an_old_jacobian_and_stays_on_the_solution(rtol):
    """VDPOL (eps = 1e-6) at loose tolerances: a Jacobian evaluated in the middle of the jump
    (y2 ~ -5e5) made the Newton corrections tiny without solving the equations; kept for
    good, it carried the run off the solution (t = 2: y = (-1.20, 0.667) for (1.71, -0.893),
    -0.2 digits).  With at most JAC_MAX_AGE steps per Jacobian the end value is as good as
    SciPy's BDF at the same tolerances (1.8 and 2.9 digits), within half a digit."""
    p = rn.problems.testset.vdpol()
    ours = rn.solve_ivp(p.f, p.t_span, p.y0, method="bdf", rtol=rtol, atol=rtol, jac=p.jac)
    theirs = scipy_solve_ivp(p.f, p.t_span, p.y0, method="BDF", rtol=rtol, atol=rtol, jac=p.jac)
    digits = [rn.problems.testset.digits(s.y[:, -1], p.params["reference"]) for s in (ours, theirs)]
    assert ours.success and digits[0] > digits[1] - 0.5, digits
