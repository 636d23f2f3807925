"""stable_step_limit and plot_eigenvalues (robonum.plotting.eigenvalues), against
closed forms (Euler's disc, RK4's real and imaginary interval ends), the
spectral radius of the RK4 step matrix of a linear system, and A-stability."""

import math

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import robonum as rn  # noqa: E402
from robonum.plotting.eigenvalues import ZERO, plot_eigenvalues, stable_step_limit  # noqa: E402

REL = 1e-8  # the limit is bisected to double precision, |R| <= 1 + 1e-10 counts as stable


def test_euler_disc_closed_form():
    # |1 + h λ| <= 1 with λ = r e^{iθ}: h <= -2 cos θ / r
    for theta in np.radians([180, 150, 120, 100]):
        lam = 300.0 * np.exp(1j * theta)
        assert stable_step_limit("euler", [lam]) == pytest.approx(
            -2 * math.cos(theta) / 300.0, rel=REL
        )


def test_rk4_real_and_imaginary_ends():
    # real end: the root of R(x) = 1 (about -2.785); imaginary end: |R(iy)|^2 = 1 - y^6/72 + y^8/576 = 1 at y = 2√2
    x_end = min(
        r.real
        for r in (rn.methods.get("rk4").stability_polynomials()[0] - 1).roots()
        if abs(r.imag) < 1e-12 and r.real < -1
    )
    assert stable_step_limit("rk4", [-1000.0]) == pytest.approx(-x_end / 1000.0, rel=REL)
    assert stable_step_limit("rk4", [500j, -500j]) == pytest.approx(
        2 * math.sqrt(2) / 500.0, rel=REL
    )


def _rk4_step_matrix(A, h):
    Z = h * A
    I = np.eye(len(A))
    return I + Z + Z @ Z / 2 + Z @ Z @ Z / 6 + Z @ Z @ Z @ Z / 24


def test_limit_is_where_the_linear_rk4_step_stops_contracting():
    # a lightly damped oscillator (a flexible joint's fast mode): ω = 1000 rad/s, ζ = 0.05
    w, zeta = 1000.0, 0.05
    A = np.array([[0.0, 1.0], [-w * w, -2 * zeta * w]])
    h_star = stable_step_limit("rk4", np.linalg.eigvals(A))
    rho = lambda h: max(abs(np.linalg.eigvals(_rk4_step_matrix(A, h))))  # noqa: E731
    assert rho(0.999 * h_star) <= 1.0 and rho(1.001 * h_star) > 1.0


def test_a_stable_methods_and_zero_modes_impose_nothing():
    lam = [-1e6, -3 + 4e5j, -3 - 4e5j, 0.0]
    for m in ("backward_euler", "trapezoid", "radau3", "sdirk2", "bdf2"):
        assert stable_step_limit(m, lam) == math.inf
    assert stable_step_limit("rk4", [0.0, 0.0]) == math.inf
    assert stable_step_limit("rk4", [0.0, -100.0]) == pytest.approx(
        stable_step_limit("rk4", [-100.0])
    )


def test_a_free_bodys_double_zero_imposes_nothing_in_any_basis():
    # two masses joined by a spring, free in space: eig of the state matrix in a rotated
    # basis gives the rigid-body mode's double zero as about ±1.8e-6, 1.3e-8 max|λ| (sqrt(eps)
    # scale: 1e4 above the old cut-off 1e-12, 7x below ZERO); the positive one made rk4's
    # limit 0
    k = 1e4
    K = np.array([[k, -k], [-k, k]])
    A = np.block([[np.zeros((2, 2)), np.eye(2)], [-K, np.zeros((2, 2))]])
    Q = np.linalg.qr(np.random.default_rng(0).standard_normal((4, 4)))[0]
    lam = np.linalg.eigvals(Q @ A @ Q.T)
    small = np.sort(np.abs(lam))[:2]
    assert np.all(small > 1e-12 * np.abs(lam).max())  # not zero to the old test ...
    assert np.all(small < 0.1 * ZERO * np.abs(lam).max())  # ... well below the new one
    w = np.sqrt(2 * k)  # the spring mode ±i w alone decides
    assert stable_step_limit("rk4", lam) == pytest.approx(stable_step_limit("rk4", [1j * w]))


def test_the_fastest_mode_decides():
    both = stable_step_limit("rk4", [-10.0, -1000.0])
    assert both == pytest.approx(stable_step_limit("rk4", [-1000.0]), rel=1e-14)


def test_growing_mode_gives_no_stable_step_for_euler():
    assert stable_step_limit("euler", [1.0]) < 1e-7


def test_bdf3_is_limited_near_the_imaginary_axis_only():
    # BDF3 is A(86°)-stable: a real eigenvalue imposes nothing, one at 90° does
    assert stable_step_limit("bdf3", [-1e3]) == math.inf
    assert stable_step_limit("bdf3", [1e3j]) < 1.0


def test_plot_marks_points_by_the_first_region():
    lam = np.array([-120 + 1090j, -120 - 1090j, -0.4 + 5.3j, -0.4 - 5.3j])
    h_star = stable_step_limit("rk4", lam)
    fig, ax = plt.subplots()
    below = plot_eigenvalues(lam, 0.99 * h_star, ("rk4", "radau3"), ax=ax)
    assert below.stable["rk4"].all() and below.stable["radau3"].all()
    assert np.allclose(below.z, 0.99 * h_star * lam)
    above = plot_eigenvalues(lam, 1.01 * h_star, ("rk4", "radau3"), ax=ax, labels=["RK4", "Radau"])
    assert list(above.stable["RK4"]) == [False, False, True, True]
    assert above.stable["Radau"].all()
    assert len(above.points[1].get_xdata()) == 2 and len(above.regions) == 2
    plt.close(fig)


@pytest.mark.parametrize(
    "call,exc",
    [
        (lambda: stable_step_limit("rk4", []), ValueError),
        (lambda: stable_step_limit("rk4", [np.nan]), ValueError),
        (lambda: stable_step_limit("rk4", "abc"), TypeError),
        (lambda: stable_step_limit("rk4", True), TypeError),
        (lambda: stable_step_limit("rk4", np.ones(1001)), ValueError),
        (lambda: stable_step_limit("no_such_method", [-1.0]), ValueError),
        (lambda: stable_step_limit("verlet", [-1.0]), ValueError),  # splitting: no z-plane region
        (lambda: plot_eigenvalues([-1.0], 0.0), ValueError),
        (lambda: plot_eigenvalues([-1.0], 0.1, methods=()), ValueError),
        (lambda: plot_eigenvalues([-1.0], 0.1, methods=("rk4",) * 5), ValueError),
        (lambda: plot_eigenvalues([-1.0], 0.1, labels=["a", "b"]), ValueError),
        (lambda: plot_eigenvalues([-1e300], 1e10), ValueError),
        (lambda: plot_eigenvalues([-1.0], 0.1, n=5000), ValueError),
    ],
)
def test_bad_input_is_refused(call, exc):
    with pytest.raises(exc):
        call()
    plt.close("all")


def test_points_beyond_a_given_window_become_edge_arrows():
    fig, ax = plt.subplots()
    p = plot_eigenvalues(
        [-0.6 + 55j, -0.6 - 55j, -1.0], 1.0, ("rk4",), ax=ax, xlim=(-6, 2), ylim=(-4, 4)
    )
    arrows = p.points[2]
    assert len(arrows) == 2 and len(p.points[0].get_xdata()) == 1
    tip = arrows[0].xy
    assert -6 <= tip[0] <= 2 and -4 <= tip[1] <= 4 and abs(abs(tip[1]) - 0.97 * 4) < 1e-12
    with pytest.raises(ValueError):
        plot_eigenvalues([-1.0], 1.0, xlim=(1, 2))
    plt.close("all")
