"""Symplectic splitting methods (seed 1.18.3.3) on HamiltonianProblem, and the energy helpers.

Truth: the harmonic oscillator's exact solution and one-step matrices derived
by hand, finite-difference Jacobians of the one-step map, time reversal, and
the generic RK steppers as the non-symplectic contrast.
"""

import numpy as np
import pytest

import robonum as rn
from robonum.analysis.energy import (
    energy_error,
    growth_exponent,
    max_error_in_windows,
    max_error_up_to,
    separable_energy,
)
from robonum.methods.splitting import YOSHIDA4_GAMMAS
from robonum.problem import HamiltonianProblem, ODEProblem
from robonum.problems import pendulum_energy
from robonum.steppers import ExplicitRK, Symplectic
from robonum.work import Work


def integrate_symplectic(grad_V, q0, p0, t_span, h, method="verlet", **kw):
    return rn.integrate(HamiltonianProblem(grad_V, q0, p0, t_span), method, h, **kw)


def symplectic_step(grad_V, q, p, h, method="verlet"):
    prob = HamiltonianProblem(grad_V, q, p, (0.0, 1.0))
    st = Symplectic(method)
    work = Work(prob)
    y = st.step(work, 0.0, prob.y0.copy(), h, st.init(work, 0.0, prob.y0, h))[0]
    return y[: prob.d], y[prob.d :]


# Two uncoupled oscillators with frequencies ω = (1, 2): V = Σ ω_i² q_i² / 2.
W = np.array([1.0, 2.0])
Q0, P0 = np.array([1.0, 0.5]), np.array([0.0, 0.3])
J4 = np.block([[np.zeros((2, 2)), np.eye(2)], [-np.eye(2), np.zeros((2, 2))]])


def grad_oscillator(q):
    return W**2 * q


def exact_oscillator(t):
    return (
        Q0 * np.cos(W * t) + P0 / W * np.sin(W * t),
        -Q0 * W * np.sin(W * t) + P0 * np.cos(W * t),
    )


def grad_henon_heiles(q):
    """V = (x² + y²)/2 + x²y - y³/3."""
    x, y = q
    return np.array([x + 2 * x * y, y + x * x - y * y])


def grad_pendulum(q):
    return np.sin(q)


@pytest.mark.parametrize(
    "method, order, hs",
    [
        ("symplectic_euler", 1, (0.01, 0.005)),
        ("verlet", 2, (0.05, 0.025)),
        ("yoshida4", 4, (0.05, 0.025)),
    ],
)
def test_observed_order_on_the_harmonic_oscillator(method, order, hs):
    T = 10.0
    q_ex, p_ex = exact_oscillator(T)
    errs = []
    for h in hs:
        sol = integrate_symplectic(grad_oscillator, Q0, P0, (0, T), h, method)
        assert sol.t[-1] == pytest.approx(T)
        errs.append(max(np.max(np.abs(sol.q[:, -1] - q_ex)), np.max(np.abs(sol.p[:, -1] - p_ex))))
    assert np.log2(errs[0] / errs[1]) == pytest.approx(order, abs=0.1)


def test_yoshida_coefficients_cancel_the_third_order_terms():
    g1, g0, _ = YOSHIDA4_GAMMAS
    assert 2 * g1 + g0 == pytest.approx(1.0, abs=1e-15)  # consistency
    assert 2 * g1**3 + g0**3 == pytest.approx(0.0, abs=1e-14)  # order-3 error cancels


def test_gradient_evaluations_are_counted_and_reused():
    calls = []

    def counted(q):
        calls.append(1)
        return grad_pendulum(q)

    n = 50
    for method, per_step in (("symplectic_euler", 1), ("verlet", 1), ("yoshida4", 3)):
        calls.clear()
        sol = integrate_symplectic(counted, [1.0], [0.0], (0, 5), 0.1, method)
        assert sol.nsteps == n
        # -2: constructing the problem checks grad_V and f once each at (t0, y0)
        assert sol.nfev == len(calls) - 2 == 1 + per_step * n


def test_verlet_one_step_matrix_on_the_oscillator_is_the_hand_derived_one():
    # V = q²/2: p½ = p - h q/2, q1 = (1 - h²/2) q + h p, p1 = -h(1 - h²/4) q + (1 - h²/2) p
    h = 0.3
    M = np.column_stack(
        [
            np.r_[symplectic_step(lambda q: q, [1.0], [0.0], h)],
            np.r_[symplectic_step(lambda q: q, [0.0], [1.0], h)],
        ]
    )
    expected = np.array([[1 - h * h / 2, h], [-h * (1 - h * h / 4), 1 - h * h / 2]])
    EPS = np.finfo(float).eps  # entries <= 1 from 3 multiply-adds: a few eps
    np.testing.assert_allclose(M, expected, rtol=0, atol=8 * EPS)
    J2 = np.array([[0.0, 1.0], [-1.0, 0.0]])
    np.testing.assert_allclose(M.T @ J2 @ M, J2, rtol=0, atol=16 * EPS)


def _fd_jacobian(step_map, z, delta=1e-5):
    cols = []
    for j in range(z.size):
        e = np.zeros_like(z)
        e[j] = delta
        cols.append((step_map(z + e) - step_map(z - e)) / (2 * delta))
    return np.column_stack(cols)


@pytest.mark.parametrize("method", ["symplectic_euler", "verlet", "yoshida4"])
def test_one_step_map_is_symplectic_on_henon_heiles(method):
    h, z0 = 0.3, np.array([0.1, -0.2, 0.3, 0.15])
    M = _fd_jacobian(
        lambda z: np.r_[symplectic_step(grad_henon_heiles, z[:2], z[2:], h, method)], z0
    )
    assert np.max(np.abs(M.T @ J4 @ M - J4)) < 1e-9  # central FD error ~1e-10


def test_rk4_one_step_map_is_not_symplectic():
    # The same test must fail for RK4: it shows the check can tell them apart.
    h, z0 = 0.3, np.array([0.1, -0.2, 0.3, 0.15])
    prob = ODEProblem(lambda t, y: np.r_[y[2:], -grad_henon_heiles(y[:2])], z0, (0, 1))
    rk4 = ExplicitRK(rn.methods.get("rk4"))
    M = _fd_jacobian(lambda z: rk4.step(Work(prob), 0.0, z, h, None)[0], z0)
    assert np.max(np.abs(M.T @ J4 @ M - J4)) > 1e-6


@pytest.mark.parametrize(
    "method, reversible", [("verlet", True), ("yoshida4", True), ("symplectic_euler", False)]
)
def test_time_reversibility(method, reversible):
    # Symmetric methods: run n steps, flip p, run n steps, flip p -> the start again.
    fwd = integrate_symplectic(grad_pendulum, [1.0], [0.3], (0, 100), 0.1, method)
    back = integrate_symplectic(grad_pendulum, fwd.q[:, -1], -fwd.p[:, -1], (0, 100), 0.1, method)
    miss = max(abs(back.q[0, -1] - 1.0), abs(-back.p[0, -1] - 0.3))
    if reversible:
        # 2 x 1000 steps, each reversible to rounding: errors ~ sqrt(n) eps to n eps
        assert miss < 2000 * np.finfo(float).eps
    else:
        assert miss > 1e-3


@pytest.fixture(scope="module")
def pendulum_energy_errors():
    """Pendulum q0 = 1 rad, p0 = 0, h = 0.1 to T = 1000 (seed 003 ③, shortened)."""
    T, h = 1000.0, 0.1
    out = {}
    v = integrate_symplectic(grad_pendulum, [1.0], [0.0], (0, T), h, "verlet")
    out["verlet"] = (v.t, energy_error(pendulum_energy(np.vstack([v.q[0], v.p[0]]))))
    prob = ODEProblem(lambda t, y: np.array([y[1], -np.sin(y[0])]), [1.0, 0.0], (0, T))
    for m in ("rk4", "euler"):
        s = rn.integrate(prob, m, h)
        out[m] = (s.t, energy_error(pendulum_energy(s.y)))
    return out


def test_verlet_energy_error_is_bounded(pendulum_energy_errors):
    t, err = pendulum_energy_errors["verlet"]
    first, whole = max_error_up_to(t, err, [100.0, 1000.0])
    assert whole < 1.02 * first  # no drift after the first orbits
    assert abs(growth_exponent(t, err, 100.0, 1000.0)) < 0.01
    _, peaks = max_error_in_windows(t, err, 10)
    assert np.ptp(peaks) < 0.02 * peaks.max()  # flat profile


def test_rk4_energy_error_drifts_linearly(pendulum_energy_errors):
    t, err = pendulum_energy_errors["rk4"]
    assert growth_exponent(t, err, 100.0, 1000.0) == pytest.approx(1.0, abs=0.05)
    assert max_error_up_to(t, err, 1000.0)[0] == pytest.approx(4.6e-5, rel=0.02)  # seed ③


def test_explicit_euler_energy_grows_far_beyond_verlet(pendulum_energy_errors):
    t, err = pendulum_energy_errors["euler"]
    verlet_bound = pendulum_energy_errors["verlet"][1].max()
    assert max_error_up_to(t, err, 100.0)[0] > 100 * verlet_bound
    _, peaks = max_error_in_windows(t, err, 5)
    assert np.all(np.diff(peaks) > 0)


def test_divergence_is_reported_not_nan():
    # Verlet on q'' = -q is stable for h < 2 only.
    bad = integrate_symplectic(lambda q: q, [1.0], [0.0], (0, 1000), 2.5)
    assert bad.reason == "diverged" and not bad.success and "diverged" in bad.message
    assert np.all(np.isfinite(bad.q)) and bad.nsteps < 1000 / 2.5
    ok = integrate_symplectic(lambda q: q, [1.0], [0.0], (0, 1000), 1.9)
    assert ok.success and np.max(np.abs(ok.q)) < 10


def test_save_every_keeps_the_last_step():
    sol = integrate_symplectic(grad_pendulum, [1.0], [0.0], (0, 1.05), 0.1, save_every=4)
    assert sol.nsteps == 11
    # equal steps h = 1.05/11 (never larger than the requested 0.1)
    np.testing.assert_allclose(sol.t, np.array([0, 4, 8, 11]) * 1.05 / 11, rtol=2e-16, atol=0)
    full = integrate_symplectic(grad_pendulum, [1.0], [0.0], (0, 1.05), 0.1)
    np.testing.assert_array_equal(sol.q[:, -1], full.q[:, -1])


@pytest.mark.parametrize(
    "kwargs, exc, word",
    [
        (dict(grad_V=3), TypeError, "grad_V"),
        (dict(q0=[1.0, 2.0]), ValueError, "q0 and p0"),
        (dict(q0=[np.nan]), ValueError, "q0"),
        (dict(method="leapfrog"), ValueError, "method"),
        (dict(h=0.0), ValueError, "h must"),
        (dict(t_span=(1, 0)), ValueError, "t_span"),
        (dict(save_every=0), ValueError, "save_every"),
        (dict(grad_V=lambda q: np.ones(2)), ValueError, "grad_V"),
        (dict(grad_V=lambda q: 1j * q), TypeError, "grad_V must return real"),
    ],
)
def test_bad_input_names_the_parameter(kwargs, exc, word):
    args = dict(grad_V=grad_pendulum, q0=[1.0], p0=[0.0], t_span=(0, 1), h=0.1)
    args.update(kwargs)
    with pytest.raises(exc, match=word):
        integrate_symplectic(**args)


# --- energy helpers on curves with known answers -------------------------------------
def test_energy_helpers_on_known_curves():
    t = np.linspace(0, 100, 1001)
    np.testing.assert_allclose(energy_error([2.0, 2.5, 1.0]), [0, 0.5, 1.0])
    np.testing.assert_allclose(energy_error([-2.0, -2.5], relative=True), [0, 0.25])
    assert growth_exponent(t, 3e-6 * t, 10, 100) == pytest.approx(1.0, abs=1e-12)
    assert growth_exponent(t, 1e-3 * (1 + np.sin(t)), 10, 100) == pytest.approx(0.0, abs=1e-3)
    np.testing.assert_allclose(max_error_up_to(t, t**2, [0.0, 50.0, 100.0]), [0, 2500, 10000])
    ends, peaks = max_error_in_windows(t, t, 4)
    np.testing.assert_allclose(ends, [25, 50, 75, 100])
    np.testing.assert_allclose(peaks, [25, 50, 75, 100])
    q, p = np.array([[0.0, 1.0]]), np.array([[1.0, 0.0]])
    np.testing.assert_allclose(
        separable_energy(lambda q: -np.cos(q[0]), q, p), pendulum_energy(np.vstack([q[0], p[0]]))
    )


def test_energy_helpers_reject_bad_input():
    with pytest.raises(ValueError, match="E0"):
        energy_error([0.0, 1.0], relative=True)
    with pytest.raises(ValueError, match="increasing"):
        max_error_up_to([0, 2, 1], [0, 0, 0], 1.0)
    with pytest.raises(ValueError, match="T_a < T_b"):
        growth_exponent([0, 1, 2], [0, 1, 2], 2, 1)
    with pytest.raises(ValueError, match="one value per column"):
        separable_energy(lambda q: 0.0, np.zeros((1, 3)), np.zeros((1, 3)))


def test_verlet_and_rk4_on_the_pendulum_differ_only_in_the_method():
    prob = HamiltonianProblem(np.sin, [1.0], [0.0], (0, 10), V=lambda q: -np.cos(q[0]))
    v, r = rn.integrate(prob, "verlet", 0.1), rn.integrate(prob, "rk4", 0.1)
    assert v.layout == r.layout == "hamiltonian" and v.q.shape == r.q.shape == (1, 101)
    assert abs(prob.energy(v.y[:, -1]) - prob.energy(prob.y0)) < 2e-3
    with pytest.raises(TypeError, match="integrates a HamiltonianProblem"):
        rn.integrate(ODEProblem(lambda t, y: -y, [1.0, 0.0], (0, 1)), "verlet", 0.1)


def test_splitting_stability_interval_is_the_hand_derived_trace_bound():
    """Verlet on q'' = -w^2 q: tr M = 2 - x^2 (x = h w), bounded orbits iff x <= 2;
    symplectic Euler has the same trace.  Yoshida 4 is bounded for a shorter range."""
    assert rn.methods.get("verlet").stability_interval() == pytest.approx(2.0, abs=1e-12)
    assert rn.methods.get("symplectic_euler").stability_interval() == pytest.approx(2.0, abs=1e-12)
    y4 = rn.methods.get("yoshida4").stability_interval()
    assert 1.0 < y4 < 2.0
    for method, x in (("verlet", 1.99), ("yoshida4", 0.99 * y4)):
        ok = integrate_symplectic(lambda q: q, [1.0], [0.0], (0, 2000), x, method)
        assert ok.success and np.max(np.abs(ok.q)) < 100
    bad = integrate_symplectic(lambda q: q, [1.0], [0.0], (0, 2000), 1.01 * y4, "yoshida4")
    assert bad.reason == "diverged"
