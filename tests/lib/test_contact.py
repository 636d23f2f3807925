"""The smoothed penalty contact (robonum.problems.contact), against independent truth:
the library's kink law (width 0 must reproduce it bit for bit), central
differences for every derivative, hand-derived values of the ramp, and the
energy balance of the ODE itself (conserved without dampers, never created
with them)."""

import numpy as np
import pytest

from robonum import problems as P
from robonum.problems import contact as C

RNG = np.random.default_rng(7)
W = 1e-3  # the smoothing half-width used on the chapter page


def _states(n, depth=3e-3):
    """Random leg states around touchdown: foot within ±depth of the ground, speeds up to 2 m/s."""
    xf = RNG.uniform(-depth, depth, n)
    xb = xf + 0.3 + RNG.uniform(-0.05, 0.05, n)
    return np.stack([xb, xf, RNG.uniform(-2, 2, n), RNG.uniform(-2, 2, n)], axis=1)


def test_width_zero_is_the_library_law_bit_for_bit():
    lib, ours = P.penalty_contact(), C.smoothed_penalty_contact(width=0.0)
    states = np.vstack([_states(500), _states(200, depth=1e-6), [[0.3, 0.0, 0.0, -1.0]]])
    for y in states:
        assert np.array_equal(lib.f(0.0, y), ours.f(0.0, y))
        assert np.array_equal(lib.jac(0.0, y), ours.jac(0.0, y))


def test_ramp_values_and_continuity():
    r, dr = C.ramp([-2 * W, -W, 0.0, W, 2 * W], W)
    assert np.allclose(r, [0.0, 0.0, W / 4, W, 2 * W], rtol=0, atol=1e-18)  # hand values
    assert np.allclose(dr, [0.0, 0.0, 0.5, 1.0, 1.0])
    eps = 1e-12
    for u0 in (-W, W):  # both pieces meet in value and slope
        a, da = C.ramp([u0 - eps, u0 + eps], W)
        assert abs(a[1] - a[0]) < 1e-11 and abs(da[1] - da[0]) < 1e-8
    r0, dr0 = C.ramp([-1.0, 0.0, 2.0], 0.0)
    assert list(r0) == [0.0, 0.0, 2.0] and list(dr0) == [0.0, 0.0, 1.0]


def test_ramp_integral_differentiates_to_the_ramp():
    u = np.linspace(-3 * W, 3 * W, 301)
    d = 1e-9
    for w in (0.0, W):
        fd = (C.ramp_integral(u + d, w) - C.ramp_integral(u - d, w)) / (2 * d)
        assert np.abs(fd - C.ramp(u, w)[0]).max() < 1e-9


def _fd_force(x, v, k, c, w, d=1e-10):
    fx = (C.penalty_force(x + d, v, k, c, w)[0] - C.penalty_force(x - d, v, k, c, w)[0]) / (2 * d)
    dv = 1e-7
    fv = (C.penalty_force(x, v + dv, k, c, w)[0] - C.penalty_force(x, v - dv, k, c, w)[0]) / (
        2 * dv
    )
    return fx, fv


@pytest.mark.parametrize("c", [0.0, 50.0])
def test_force_derivatives_match_central_differences(c):
    k = 5e5
    x = RNG.uniform(-3 * W, 2 * W, 400)
    v = RNG.uniform(-2, 2, 400)
    F, Fx, Fv = C.penalty_force(x, v, k, c, W)
    fx, fv = _fd_force(x, v, k, c, W)
    # central differences: error ~ d² F''' plus rounding ~ eps·F/d; scale by the largest entry
    assert np.abs(Fx - fx).max() < 1e-5 * k
    assert np.abs(Fv - fv).max() < 1e-5 * max(c, 1.0)
    assert np.all(F >= 0.0)  # the ground never pulls


def test_smoothed_problem_jacobian_matches_central_difference():
    prob = C.smoothed_penalty_contact(width=W)
    for y in _states(60):
        J = prob.jac(0.0, y)
        Jfd = np.empty_like(J)
        for j in range(4):
            e = np.zeros(4)
            e[j] = 1e-9 if j < 2 else 1e-7
            Jfd[:, j] = (prob.f(0.0, y + e) - prob.f(0.0, y - e)) / (2 * e[j])
        assert np.abs(J - Jfd).max() < 1e-5 * np.abs(J).max()


def test_kink_law_jumps_at_touchdown_and_the_smoothed_law_does_not():
    k, c = 5e5, 50.0
    for v in (-1.4, -0.5):
        kink = C.penalty_force([1e-12, -1e-12], [v, v], k, c, 0.0)[0]
        assert kink[1] - kink[0] == pytest.approx(
            c * abs(v), rel=1e-6
        )  # Kelvin-Voigt damper switches on
        smooth = C.penalty_force([1e-12, -1e-12], [v, v], k, c, W)[0]
        assert abs(smooth[1] - smooth[0]) < 1e-6


def test_smoothed_law_is_the_penalty_law_outside_the_bands():
    k, c = 5e5, 50.0
    p = RNG.uniform(W, 5 * W, 200)
    v = RNG.uniform(-2.0, 0.4, 200)  # damper below half the spring force
    keep = c * v < 0.5 * k * p
    F = C.penalty_force(-p[keep], v[keep], k, c, W)[0]
    assert np.allclose(F, k * p[keep] - c * v[keep], rtol=1e-13, atol=0)
    assert np.all(
        C.penalty_force(W + RNG.uniform(0, 1, 50), RNG.uniform(-2, 2, 50), k, c, W)[0] == 0
    )


def _energy_rate(prob, y, d=1e-7):
    """dE/dt along the ODE, by a central difference of E in the direction f."""
    f = prob.f(0.0, y)
    return (C.leg_energy(prob, y + d * f) - C.leg_energy(prob, y - d * f)) / (2 * d), np.abs(
        f
    ).max()


@pytest.mark.parametrize("w", [0.0, W])
def test_energy_is_conserved_without_dampers(w):
    prob = C.smoothed_penalty_contact(width=w, c_c=0.0, c_leg=0.0)
    for y in _states(200):
        if w == 0.0 and abs(y[1]) < 1e-6:
            continue  # the kink itself: no derivative
        rate, scale = _energy_rate(prob, y)
        assert abs(rate) < 1e-6 * (1.0 + 5e5 * 3e-3 * scale)


@pytest.mark.parametrize("w", [0.0, W])
def test_dampers_never_create_energy(w):
    prob = C.smoothed_penalty_contact(width=w)
    for y in _states(300):
        if w == 0.0 and abs(y[1]) < 1e-6:
            continue
        rate, scale = _energy_rate(prob, y)
        assert rate < 1e-6 * (1.0 + 5e5 * 3e-3 * scale)


def test_energy_shapes_and_start_value():
    prob = P.penalty_contact()
    E0 = C.leg_energy(prob, prob.y0)
    M, mf, g = 5.0, 0.1, 9.81  # defaults: at rest, leg unstretched
    assert float(E0) == pytest.approx(g * (M * 0.4 + mf * 0.1), rel=1e-14)
    assert C.leg_energy(prob, np.tile(prob.y0[:, None], (1, 3))).shape == (3,)


@pytest.mark.parametrize(
    "call,exc",
    [
        (lambda: C.smoothed_penalty_contact(width=0.02), ValueError),
        (lambda: C.smoothed_penalty_contact(width=-1e-3), ValueError),
        (lambda: C.smoothed_penalty_contact(width=True), TypeError),
        (lambda: C.smoothed_penalty_contact(k_c=1.0), ValueError),  # range of penalty_contact
        (lambda: C.smoothed_penalty_contact(stiffness=1e5), TypeError),  # unknown parameter
        (lambda: C.penalty_force([0.0, 1.0], [0.0], 5e5, 50.0), ValueError),
        (lambda: C.penalty_force([np.nan], [0.0], 5e5, 50.0), ValueError),
        (lambda: C.penalty_force([0.0], [0.0], 5e5, 50.0, width=1.0), ValueError),
        (lambda: C.ramp([0.0], -1.0), ValueError),
        (lambda: C.ramp("a", 1.0), TypeError),
        (lambda: C.leg_energy(P.dc_motor(), [0.0, 0.0]), TypeError),
        (lambda: C.leg_energy(P.penalty_contact(), [0.0, 0.0, 0.0]), ValueError),
    ],
)
def test_bad_input_is_refused_by_name(call, exc):
    with pytest.raises(exc):
        call()


def test_smoothed_problem_keeps_the_parameters_and_the_start():
    prob = C.smoothed_penalty_contact(width=W, k_c=1e6)
    assert prob.params["width_m"] == W and prob.params["k_c_N_per_m"] == 1e6
    assert np.array_equal(prob.y0, P.penalty_contact(k_c=1e6).y0)
