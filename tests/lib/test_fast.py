"""The compiled path: same signature and result as rn.integrate, the seed ③ run (10^6 steps) on it."""

import numba
import numpy as np
import pytest

import robonum as rn
from robonum import fast
from robonum.analysis.energy import energy_error, growth_exponent, max_error_up_to

EPS = np.finfo(float).eps


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
    ref = rn.integrate(
        rn.ODEProblem(forced_oscillator_py, [1.0, -0.5], (0.0, 30.0)), method, 0.1, save_every=7
    )
    got = fast.integrate(
        rn.ODEProblem(forced_oscillator, [1.0, -0.5], (0.0, 30.0)), method, 0.1, save_every=7
    )
    np.testing.assert_array_equal(got.t, ref.t)
    # the same operations in a different order (element loops vs BLAS-free numpy rows):
    # 300 steps of |y| ~ 1, rounding differences grow at most ~n eps
    assert np.max(np.abs(got.y - ref.y)) < 300 * 8 * EPS
    assert got.nsteps == ref.nsteps == 300 and got.h == ref.h
    assert got.nfev == 300 * rn.methods.get(method).s  # no FSAL on the fast path
    assert got.success and got.info["compile_time"] >= 0 and got.info["run_time"] >= 0
    assert type(got) is type(ref) is rn.Solution


@pytest.mark.parametrize("method", ["symplectic_euler", "verlet", "yoshida4", "rk4"])
def test_fast_hamiltonian_agrees_with_the_generic_loop(method):
    # Two uncoupled pendulums (d = 2) with the jitted grad_V of the long run.
    prob = rn.HamiltonianProblem(np.sin, [1.0, -2.5], [0.3, 0.15], (0.0, 40.0))
    jit = rn.HamiltonianProblem(fast.pendulum_grad_V, [1.0, -2.5], [0.3, 0.15], (0.0, 40.0))
    ref = rn.integrate(prob, method, 0.1, save_every=3)
    got = fast.integrate(jit, method, 0.1, save_every=3)
    np.testing.assert_allclose(got.t, ref.t, rtol=4 * EPS, atol=0)
    assert np.max(np.abs(got.y - ref.y)) < 400 * 8 * EPS  # 400 steps, as above
    assert got.nfev == ref.nfev and got.nsteps == ref.nsteps == 400
    assert got.layout == ref.layout == "hamiltonian"


def test_pendulum_grad_matches_numpy():
    q = np.array([0.7, -3.0, 12.0])
    np.testing.assert_array_equal(fast.pendulum_grad_V(q), np.sin(q))


@pytest.fixture(scope="module")
def long_run():
    """Seed 1.18 ③: pendulum q0 = 1 rad, p0 = 0, h = 0.1, T = 1e5 (10^6 steps)."""
    P = fast.pendulum(1.0, 0.0, (0.0, 1e5))
    runs = {m: fast.integrate(P, m, 0.1) for m in ("rk4", "verlet")}
    return {m: (s.t, energy_error(P.energy(s.y))) for m, s in runs.items()} | {"runs": runs}


def test_long_run_takes_the_full_million_steps(long_run):
    runs = long_run["runs"]
    assert runs["rk4"].nsteps == runs["verlet"].nsteps == 1_000_000
    assert runs["rk4"].t[-1] == runs["verlet"].t[-1] == pytest.approx(1e5)


def test_long_run_verlet_energy_error_stays_at_its_early_bound(long_run):
    t, err = long_run["verlet"]
    early, whole = max_error_up_to(t, err, [1e3, 1e5])
    assert whole < 1.01 * early
    assert whole == pytest.approx(1.1e-3, abs=5e-5)  # seed ③: "bounded at 1.1e-3"


def test_long_run_rk4_energy_error_grows_linearly(long_run):
    t, err = long_run["rk4"]
    assert growth_exponent(t, err, 1e3, 1e5) == pytest.approx(1.0, abs=0.01)
    at_1e3, at_1e5 = max_error_up_to(t, err, [1e3, 1e5])
    assert at_1e3 == pytest.approx(4.6e-5, rel=0.02)  # seed ③
    assert at_1e5 == pytest.approx(4.6e-3, rel=0.02)  # seed ③
    verlet_bound = long_run["verlet"][1].max()  # RK4 better at 1e3, worse at 1e5
    assert at_1e3 < verlet_bound < at_1e5


def test_save_every_thins_the_output_but_not_the_run():
    P = fast.pendulum(1.0, 0.0, (0.0, 100.0))
    full, thin = fast.integrate(P, "verlet", 0.1), fast.integrate(P, "verlet", 0.1, save_every=300)
    assert thin.t.size == 5  # 0, 300, 600, 900, 1000
    np.testing.assert_array_equal(thin.y, full.y[:, [0, 300, 600, 900, 1000]])


def test_divergence_stops_the_run_and_counts_only_the_steps_taken():
    # Forward Euler on the oscillator grows by |1 + 2.5i| = 2.7 per step: past the
    # bound 1e8 after ~19 steps, long before t = 1e4.
    bad = fast.integrate(rn.ODEProblem(forced_oscillator, [1.0, 0.0], (0, 1e4)), "euler", 2.5)
    assert (bad.status, bad.reason) == (-1, "diverged") and not bad.success
    assert np.all(np.isfinite(bad.y)) and bad.t[-1] < 60 and bad.nsteps == round(bad.t[-1] / 2.5)
    assert bad.nfev == bad.nsteps  # was n = 4000 before
    ver = fast.integrate(
        fast.pendulum(1.0, 0.0, (0, 1e4)), "verlet", 4.0, blowup=10.0, save_every=7
    )
    assert ver.reason == "diverged" and ver.t[-1] < 1e4


def test_bad_input_names_the_parameter():
    with pytest.raises(TypeError, match="f must be a numba"):
        fast.integrate(rn.ODEProblem(forced_oscillator_py, [1.0, 0.0], (0, 1)), "rk4", 0.1)
    with pytest.raises(TypeError, match="grad_V must be a numba"):
        fast.integrate(rn.HamiltonianProblem(np.sin, [1.0], [0.0], (0, 1)), "verlet", 0.1)
    with pytest.raises(ValueError, match="explicit Runge-Kutta and splitting"):
        fast.integrate(fast.pendulum(), "backward_euler", 0.1)
    with pytest.raises(TypeError, match="integrates a HamiltonianProblem"):
        fast.integrate(rn.ODEProblem(forced_oscillator, [1.0, 0.0], (0, 1)), "verlet", 0.1)
    with pytest.raises(ValueError, match="save_every"):
        fast.integrate(fast.pendulum(), "verlet", 0.1, save_every=0)
    with pytest.raises(ValueError, match="at most 100,000,000"):
        fast.integrate(fast.pendulum(t_span=(0, 1e3)), "verlet", 1e-320)
    with pytest.raises(ValueError, match="use save_every >= "):
        fast.integrate(fast.pendulum(t_span=(0, 1e6)), "verlet", 0.1)
