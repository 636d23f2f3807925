"""Modified energy, steps by rule, damping and error envelopes (analysis.backward_error, integrate).

Truth: the harmonic oscillator's exactly conserved quadratic form of Verlet
(derived from its one-step matrix), observed orders, the closed-form damped
oscillator, the equal-step driver rn.integrate, and a brute-force envelope.
"""

import numpy as np
import pytest

import robonum as rn
from robonum.analysis import energy as en
from robonum.analysis import phase_space as ps
from robonum.analysis.backward_error import modified_energy

EPS = np.finfo(float).eps


def test_verlet_modified_energy_on_the_oscillator_is_the_conserved_form_plus_a_function_of_H():
    """Verlet keeps p²/2 + (1 - x²/4) w² q²/2 exactly (x = h w, from M^T S M = S);
    the O(h²) modified energy is H (1 + x²/6) - h² w⁴ q²/8, the same form plus (x²/6) H."""
    w, h = 1.3, 0.2
    ho = rn.problems.harmonic_oscillator(omega=w, q0=0.7, p0=-0.4, t_span=(0, 50))
    rng = np.random.default_rng(1)
    y = rng.normal(size=(2, 20))
    H = ho.energy(y)
    expected = H * (1 + (h * w) ** 2 / 6) - h**2 * w**4 * y[0] ** 2 / 8
    assert np.abs(modified_energy(ho, y, h) - expected).max() < 20 * EPS * np.abs(expected).max()
    sol = rn.integrate(ho, "verlet", h)
    kept = 0.5 * sol.p[0] ** 2 + 0.5 * (1 - (h * w) ** 2 / 4) * w * w * sol.q[0] ** 2
    assert (
        np.abs(kept - kept[0]).max() < 10 * sol.nsteps * EPS
    )  # exact up to rounding, step by step


@pytest.mark.parametrize(
    "method, order_H, order_mod", [("verlet", 2, 4), ("symplectic_euler", 1, 2)]
)
def test_modified_energy_is_conserved_to_a_higher_order(method, order_H, order_mod):
    pend = rn.problems.pendulum(q0=1.0, p0=0.0, t_span=(0.0, 100.0))
    spread = {}
    for h in (0.1, 0.05):
        sol = rn.integrate(pend, method, h)
        E = pend.energy(sol.y)
        Et = modified_energy(pend, sol.y, h, method)
        spread[h] = (np.ptp(E), np.ptp(Et))
    assert np.log2(spread[0.1][0] / spread[0.05][0]) == pytest.approx(order_H, abs=0.1)
    assert np.log2(spread[0.1][1] / spread[0.05][1]) == pytest.approx(order_mod, abs=0.1)


def test_modified_energy_at_one_state_and_bad_input():
    pend = rn.problems.pendulum()
    y = np.array([1.0, 0.5])
    by_hand = 0.125 - np.cos(1.0) + 0.01 * (0.25 * np.cos(1.0) / 12 - np.sin(1.0) ** 2 / 24)
    assert modified_energy(pend, y, 0.1) == pytest.approx(by_hand, rel=1e-14)
    assert modified_energy(pend, y, 0.1, "symplectic_euler") == pytest.approx(
        0.125 - np.cos(1.0) - 0.05 * 0.5 * np.sin(1.0), rel=1e-14
    )
    with pytest.raises(ValueError, match="method must be one of"):
        modified_energy(pend, y, 0.1, "rk4")
    with pytest.raises(ValueError, match="hess_V"):
        modified_energy(
            rn.HamiltonianProblem(np.sin, [1.0], [0.0], (0, 1), V=lambda q: -np.cos(q[0])), y, 0.1
        )
    with pytest.raises(TypeError, match="HamiltonianProblem"):
        modified_energy(rn.problems.logistic(), y, 0.1)
    with pytest.raises(ValueError, match="shape"):
        modified_energy(pend, np.ones(3), 0.1)
    with pytest.raises(ValueError, match="h must be"):
        modified_energy(pend, y, 0.0)


def test_a_constant_rule_reproduces_equal_steps():
    pend = rn.problems.pendulum(t_span=(0.0, 10.0))
    fixed = rn.integrate(pend, "verlet", 0.1)
    var = rn.integrate(pend, "verlet", lambda n, t, y: 0.1)
    assert var.nsteps == fixed.nsteps and var.success and var.h is None
    # the only difference is t accumulated by addition: the last step may differ by a rounding
    assert np.abs(var.y - fixed.y).max() < 1e-12
    assert var.t[-1] == 10.0 and np.allclose(var.info["h"], 0.1)


def test_state_dependent_steps_drift_while_a_periodic_sequence_stays_bounded():
    pend = rn.problems.pendulum(q0=1.0, p0=0.0, t_span=(0.0, 300.0))
    alpha = {}
    for label, rule in {
        "alternating": lambda n, t, y: 0.05 if n % 2 == 0 else 0.15,
        "state": lambda n, t, y: 0.2 / (1.0 + 4.0 * y[1] ** 2),
    }.items():
        sol = rn.integrate(pend, "verlet", rule)
        err = en.energy_error(pend.energy(sol.y))
        alpha[label] = en.growth_exponent(sol.t, err, 30.0, 300.0)
    assert abs(alpha["alternating"]) < 0.05
    assert alpha["state"] > 0.7


def test_steps_by_rule_report_bad_rules_and_limits():
    pend = rn.problems.pendulum(t_span=(0.0, 1.0))
    for bad in (0.0, -0.1, np.nan, np.inf, "0.1", True):
        with pytest.raises(ValueError, match="step n = 0"):
            rn.integrate(pend, "verlet", lambda n, t, y, b=bad: b)
    with pytest.raises(ValueError, match="step.*raised IndexError at step n = 3"):
        rn.integrate(pend, "verlet", lambda n, t, y: [0.1, 0.1, 0.1][n])
    short = rn.integrate(pend, "verlet", lambda n, t, y: 0.01, max_steps=10)
    assert short.status == -1 and short.reason == "max_steps" and short.nsteps == 10
    with pytest.raises(ValueError, match="save_every"):
        rn.integrate(pend, "verlet", lambda n, t, y: 0.1, save_every=2)
    with pytest.raises(ValueError, match="max_steps"):
        rn.integrate(pend, "verlet", lambda n, t, y: 0.1, max_steps=10**9)
    grow = rn.ODEProblem(lambda t, y: 50 * y, [1.0], (0.0, 10.0))
    blown = rn.integrate(grow, "euler", lambda n, t, y: 0.5)
    assert blown.reason == "diverged"


def _damped_oscillator(w, gamma, q0, p0, t):
    """q'' + gamma q' + w² q = 0, underdamped: e^{-gamma t/2}(A cos wd t + B sin wd t)."""
    wd = np.sqrt(w * w - gamma * gamma / 4)
    A, B = q0, (p0 + gamma * q0 / 2) / wd
    e, c, s = np.exp(-gamma * t / 2), np.cos(wd * t), np.sin(wd * t)
    q = e * (A * c + B * s)
    p = -gamma / 2 * q + e * (-A * wd * s + B * wd * c)
    return q, p


@pytest.mark.parametrize("method, order", [("verlet", 2), ("yoshida4", 2), ("rk4", 4)])
def test_damped_runs_converge_at_the_expected_order(method, order):
    """RK keeps its order; D(h/2) Φ D(h/2) is a Strang splitting: order 2 even for a 4th-order Φ."""
    w, gamma, T = 1.2, 0.3, 5.0
    ho = rn.problems.harmonic_oscillator(omega=w, q0=1.0, p0=0.2, t_span=(0.0, T))
    q_ex, p_ex = _damped_oscillator(w, gamma, 1.0, 0.2, T)
    errs = []
    for h in (0.05, 0.025):
        sol = rn.integrate(ho.damped(gamma), method, h)
        errs.append(max(abs(sol.y_final[0] - q_ex), abs(sol.y_final[1] - p_ex)))
        assert sol.layout == "hamiltonian"
    assert np.log2(errs[0] / errs[1]) == pytest.approx(order, abs=0.1)


def test_conformal_splitting_shrinks_areas_exactly_like_the_damped_flow():
    """D(h/2) Φ D(h/2) with D: p <- e^{-γh/2} p has det = e^{-γh}, the exact flow's factor."""
    gamma, h, steps = 0.2, 0.1, 200
    q0, p0 = ps.disc_points((1.0, 0.0), 0.3, 20)
    cloud = ps.ensemble(np.sin, np.cos, q0, p0, (0.0, steps * h))
    sol = rn.integrate(cloud.damped(gamma), "verlet", h)
    target = np.exp(-gamma * sol.t)
    size = max(1.0, np.abs(sol.y).max())
    assert np.abs(ps.area_factors(sol) - target).max() < steps * EPS * size**2
    rk4 = rn.integrate(cloud.damped(gamma), "rk4", h)
    assert abs(ps.area_ratio(rk4)[-1] / target[-1] - 1) > 1e-8  # RK4's factor differs


def test_zero_damping_is_the_undamped_run_and_bad_input():
    pend = rn.problems.pendulum(t_span=(0.0, 5.0))
    for method in ("verlet", "rk4"):
        assert np.array_equal(
            rn.integrate(pend.damped(0.0), method, 0.1).y, rn.integrate(pend, method, 0.1).y
        )
    with pytest.raises(ValueError, match="gamma"):
        rn.integrate(pend.damped(-1.0), "verlet", 0.1)
    with pytest.raises(ValueError, match="gamma"):
        pend.damped(2e3)
    assert pend.damped(0.0) is pend
    damped = pend.damped(0.1)
    assert damped.gamma == 0.1 and damped.exact is None and pend.gamma == 0.0


def test_log_window_envelope_matches_brute_force():
    rng = np.random.default_rng(3)
    t = np.arange(0, 20001) * 0.05
    err = rng.random(t.size) * t
    ends, peak = en.max_error_in_log_windows(t, err, 40)
    edges = np.geomspace(0.05, t[-1], 41)
    edges[-1] = t[-1]
    ref_ends, ref = [], []
    for k in range(40):
        lo = (t >= edges[0]) if k == 0 else (t > edges[k])
        sel = lo & (t <= edges[k + 1])
        if sel.any():
            ref_ends.append(edges[k + 1])
            ref.append(err[sel].max())
    assert np.array_equal(peak, ref) and np.allclose(ends, ref_ends, rtol=1e-15)
    assert peak.max() == err.max()
    with pytest.raises(ValueError, match="strictly increasing"):
        en.max_error_in_log_windows([0, 2, 1], [1, 2, 3])
    with pytest.raises(ValueError, match="t_min"):
        en.max_error_in_log_windows([0, 1, 2], [1, 2, 3], t_min=5.0)
    with pytest.raises(ValueError, match="n_windows"):
        en.max_error_in_log_windows([0, 1, 2], [1, 2, 3], 0)
