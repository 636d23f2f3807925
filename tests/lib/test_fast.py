"""The compiled long-run path must reproduce the generic numpy steppers, and
the seed 003 ③ pendulum run (10^6 steps) is measured with it.
"""
import numba
import numpy as np
import pytest

import robonum as rn
from robonum import fast
from robonum.analysis.energy import energy_error, growth_exponent, max_error_up_to
from robonum.problems import pendulum_energy
from robonum.symplectic import integrate_symplectic


@numba.njit
def forced_oscillator(t, y):
    """y'' + 0.1 y' + y = cos(1.3 t): exercises the nodes c_i through t."""
    out = np.empty(2)
    out[0] = y[1]
    out[1] = -y[0] - 0.1 * y[1] + np.cos(1.3 * t)
    return out


def forced_oscillator_py(t, y):
    return np.array([y[1], -y[0] - 0.1 * y[1] + np.cos(1.3 * t)])


@pytest.mark.parametrize("method", ["euler", "rk3", "rk4", "dopri5"])
def test_fast_rk_agrees_with_the_generic_stepper(method):
    prob = rn.ODEProblem(forced_oscillator_py, [1.0, -0.5], (0.0, 30.0))
    ref = rn.integrate(prob, method, 0.1, save_every=7)
    got = fast.fast_integrate(forced_oscillator, [1.0, -0.5], (0.0, 30.0), 0.1, method,
                              save_every=7)
    np.testing.assert_array_equal(got.t, ref.t)
    assert np.max(np.abs(got.y - ref.y)) < 1e-12
    assert got.nsteps == ref.nsteps == 300
    assert got.nfev == 300 * rn.methods.get(method).s
    assert got.success and got.compile_time >= 0 and got.run_time >= 0


def test_fast_pendulum_rhs_agrees_with_numpy():
    prob = rn.ODEProblem(lambda t, y: np.array([y[1], -np.sin(y[0])]), [1.0, 0.0], (0, 40))
    ref = rn.integrate(prob, "rk4", 0.1)
    got = fast.fast_integrate(fast.pendulum_rhs, [1.0, 0.0], (0, 40), 0.1, "rk4")
    assert np.max(np.abs(got.y - ref.y)) < 1e-12


@pytest.mark.parametrize("method", ["symplectic_euler", "verlet", "yoshida4"])
def test_fast_symplectic_agrees_with_the_generic_loop(method):
    # Two uncoupled pendulums (d = 2) with the grad_V of the long run: the same
    # compiled loop serves both tests (each new grad_V costs a JIT compile).
    q0, p0 = [1.0, -2.5], [0.3, 0.15]
    ref = integrate_symplectic(np.sin, q0, p0, (0.0, 40.0), 0.1, method, save_every=3)
    got = fast.fast_symplectic(fast.pendulum_grad_V, q0, p0, (0.0, 40.0), 0.1, method,
                               save_every=3)
    np.testing.assert_allclose(got.t, ref.t, rtol=0, atol=1e-13)
    assert np.max(np.abs(got.q - ref.q)) < 1e-12
    assert np.max(np.abs(got.p - ref.p)) < 1e-12
    assert got.ngrad == ref.ngrad and got.nsteps == ref.nsteps == 400


def test_pendulum_grad_matches_numpy():
    q = np.array([0.7, -3.0, 12.0])
    np.testing.assert_array_equal(fast.pendulum_grad_V(q), np.sin(q))
    np.testing.assert_array_equal(fast.pendulum_rhs(0.0, np.array([0.7, 0.2])),
                                  [0.2, -np.sin(0.7)])


@pytest.fixture(scope="module")
def long_run():
    """Seed 003 ③: pendulum q0 = 1 rad, p0 = 0, h = 0.1, T = 1e5 (10^6 steps)."""
    T, h = 1e5, 0.1
    rk4 = fast.fast_integrate(fast.pendulum_rhs, [1.0, 0.0], (0, T), h, "rk4")
    ver = fast.fast_symplectic(fast.pendulum_grad_V, [1.0], [0.0], (0, T), h, "verlet")
    return {"rk4": (rk4.t, energy_error(pendulum_energy(rk4.y))),
            "verlet": (ver.t, energy_error(pendulum_energy(np.vstack([ver.q[0], ver.p[0]])))),
            "runs": (rk4, ver)}


def test_long_run_takes_the_full_million_steps(long_run):
    rk4, ver = long_run["runs"]
    assert rk4.nsteps == ver.nsteps == 1_000_000
    assert rk4.t[-1] == ver.t[-1] == pytest.approx(1e5)


def test_long_run_verlet_energy_error_stays_at_its_early_bound(long_run):
    t, err = long_run["verlet"]
    early, whole = max_error_up_to(t, err, [1e3, 1e5])
    assert whole < 1.01 * early
    assert whole == pytest.approx(1.1e-3, abs=5e-5)     # seed ③: "bounded at 1.1e-3"


def test_long_run_rk4_energy_error_grows_linearly(long_run):
    t, err = long_run["rk4"]
    assert growth_exponent(t, err, 1e3, 1e5) == pytest.approx(1.0, abs=0.01)
    at_1e3, at_1e5 = max_error_up_to(t, err, [1e3, 1e5])
    assert at_1e3 == pytest.approx(4.6e-5, rel=0.02)     # seed ③
    assert at_1e5 == pytest.approx(4.6e-3, rel=0.02)     # seed ③
    # RK4 is better than Verlet at T = 1e3 and worse at T = 1e5
    verlet_bound = long_run["verlet"][1].max()
    assert at_1e3 < verlet_bound < at_1e5


def test_save_every_thins_the_output_but_not_the_run():
    full = fast.fast_symplectic(fast.pendulum_grad_V, [1.0], [0.0], (0, 100), 0.1, "verlet")
    thin = fast.fast_symplectic(fast.pendulum_grad_V, [1.0], [0.0], (0, 100), 0.1, "verlet",
                                save_every=300)
    assert thin.t.size == 5                                   # 0, 300, 600, 900, 1000
    np.testing.assert_array_equal(thin.q, full.q[:, [0, 300, 600, 900, 1000]])


def test_divergence_is_reported():
    # Forward Euler on the oscillator grows by |1 + 2.5i| = 2.7 per step: past the
    # bound 1e8 after ~19 steps, inf/NaN long before t = 1e4.
    bad = fast.fast_integrate(forced_oscillator, [1.0, 0.0], (0, 1e4), 2.5, "euler")
    assert bad.status == -1 and "diverged" in bad.message and not bad.success
    assert np.all(np.isfinite(bad.y)) and np.max(np.abs(bad.y)) <= 1e8 and bad.t[-1] < 60
    # Verlet on the pendulum with h = 4 (> 2, the linear limit) leaves |q|,|p| <= 10.
    bad = fast.fast_symplectic(fast.pendulum_grad_V, [1.0], [0.0], (0, 1e4), 4.0, "verlet",
                               blowup=10.0, save_every=7)
    assert bad.status == -1 and bad.t[-1] < 1e4
    assert np.max(np.abs(np.r_[bad.q, bad.p])) <= 10.0


def test_bad_input_names_the_parameter():
    with pytest.raises(TypeError, match="f must be a numba"):
        fast.fast_integrate(forced_oscillator_py, [1.0, 0.0], (0, 1), 0.1)
    with pytest.raises(TypeError, match="grad_V must be a numba"):
        fast.fast_symplectic(np.sin, [1.0], [0.0], (0, 1), 0.1)
    implicit = rn.ButcherTableau("backward Euler", A=[[1]], b=[1])
    with pytest.raises(ValueError, match="explicit methods only"):
        fast.fast_integrate(fast.pendulum_rhs, [1.0, 0.0], (0, 1), 0.1, implicit)
    with pytest.raises(ValueError, match="f\\(t0, y0\\) must have shape"):
        fast.fast_integrate(fast.pendulum_rhs, [1.0, 0.0, 0.0], (0, 1), 0.1)
    with pytest.raises(ValueError, match="q0 and p0"):
        fast.fast_symplectic(fast.pendulum_grad_V, [1.0], [0.0, 1.0], (0, 1), 0.1)
    with pytest.raises(ValueError, match="save_every"):
        fast.fast_symplectic(fast.pendulum_grad_V, [1.0], [0.0], (0, 1), 0.1, save_every=0)
    with pytest.raises(ValueError, match="method"):
        fast.fast_symplectic(fast.pendulum_grad_V, [1.0], [0.0], (0, 1), 0.1, "rk4")
    with pytest.raises(ValueError, match="use save_every >= 5"):   # (1e8/5 + 2)·2 <= 5e7
        fast.fast_integrate(fast.pendulum_rhs, [1.0, 0.0], (0, 1e7), 0.1)
