"""Clouds of states and their areas (robonum.analysis.phase_space).

Truth: the closed-form area of a regular polygon, det of a linear map,
matrix powers of the one-step matrices (the splitting methods' own
``stability_matrix`` and the RK4 polynomial of the oscillator's matrix),
and central finite differences of the numerical map.
"""

import numpy as np
import pytest

import robonum as rn
from robonum.analysis import phase_space as ps

EPS = np.finfo(float).eps


def test_disc_points_are_an_equal_area_sample():
    n, r = 400, 0.3
    q, p = ps.disc_points((1.0, -0.5), r, n)
    rho = np.hypot(q - 1.0, p + 0.5)
    assert rho.max() <= r
    # point k sits at radius r sqrt((k + 1/2)/n): the disc of area fraction a holds round(a n) points
    for a in (0.1, 0.25, 0.5, 0.9):
        assert np.sum(rho <= r * np.sqrt(a) * (1 + 1e-12)) == int(np.floor(a * n + 0.5))
    # the golden-angle spiral is balanced: its centroid is close to the centre
    assert abs(q.mean() - 1.0) < 2 * r / n**0.5 and abs(p.mean() + 0.5) < 2 * r / n**0.5


def test_polygon_area_of_a_regular_polygon_and_its_orientation():
    for n in (3, 4, 7, 1000):
        q, p = ps.circle_points((2.0, 3.0), 1.5, n)
        exact = 0.5 * n * 1.5**2 * np.sin(2 * np.pi / n)
        # shoelace sums n terms of size ~ (|centre| + r)^2; a few roundings each
        assert abs(ps.polygon_area(q, p) - exact) < 50 * n * EPS * exact
        assert ps.polygon_area(q[::-1], p[::-1]) == pytest.approx(-exact, rel=1e-12)


def test_a_linear_map_scales_polygon_area_by_its_determinant():
    q, p = ps.circle_points((0.3, -0.2), 0.7, 64)
    A = np.array([[1.3, 0.4], [-0.2, 0.9]])
    qq, pp = A @ np.vstack([q, p])
    a0 = ps.polygon_area(q, p)
    assert abs(ps.polygon_area(qq, pp) - np.linalg.det(A) * a0) < 200 * EPS * abs(a0)


def _oscillator_ensemble(w, t_span, n=5):
    q0, p0 = ps.disc_points((0.4, 0.1), 0.2, n)
    return ps.ensemble(lambda q: w * w * q, lambda q: w * w * np.ones_like(q), q0, p0, t_span)


def _jacobians(sol, k=-1):
    n = sol.y.shape[0] // 6
    Q, P = sol.y[: 3 * n, k], sol.y[3 * n :, k]
    return np.stack(
        [np.array([[Q[n + i], Q[2 * n + i]], [P[n + i], P[2 * n + i]]]) for i in range(n)]
    )


@pytest.mark.parametrize("method", ["symplectic_euler", "verlet", "yoshida4"])
def test_tangent_map_of_a_splitting_method_is_its_matrix_power(method):
    """On q'' = -w^2 q a step is the 2x2 matrix M(h w) in (q, p/w); n steps are M^n."""
    w, h, steps = 1.7, 0.05, 80
    sol = rn.integrate(_oscillator_ensemble(w, (0.0, steps * h)), method, h)
    D = np.diag([1.0, w])  # (q, p) = D (q, p/w)
    Mn = (
        D
        @ np.linalg.matrix_power(rn.methods.get(method).stability_matrix(w * h), steps)
        @ np.linalg.inv(D)
    )
    for J in _jacobians(sol):
        assert np.abs(J - Mn).max() < 100 * steps * EPS
    assert np.abs(ps.area_factors(sol) - 1.0).max() < 100 * steps * EPS


def test_tangent_map_of_rk4_and_euler_is_the_stability_polynomial_of_the_matrix():
    w, h, steps = 1.3, 0.1, 50
    A = np.array([[0.0, 1.0], [-w * w, 0.0]])
    Z = h * A
    polys = {
        "euler": np.eye(2) + Z,
        "rk4": np.eye(2) + Z + Z @ Z / 2 + Z @ Z @ Z / 6 + Z @ Z @ Z @ Z / 24,
    }
    for method, R in polys.items():
        sol = rn.integrate(_oscillator_ensemble(w, (0.0, steps * h)), method, h)
        Rn = np.linalg.matrix_power(R, steps)
        for J in _jacobians(sol):
            assert np.abs(J - Rn).max() < 100 * steps * EPS * np.abs(Rn).max()
        # det R(hA) = |R(i h w)|^2 for a real polynomial R: the area factor per step
        Rz = abs(complex(rn.methods.get(method).stability_function()(1j * h * w))) ** 2
        assert ps.area_ratio(sol)[-1] == pytest.approx(Rz**steps, rel=1e-12)


@pytest.mark.parametrize("method", ["euler", "rk4", "verlet"])
def test_tangent_map_matches_finite_differences_on_the_pendulum(method):
    h, T = 0.1, 5.0
    q0, p0 = np.array([1.0, -0.4]), np.array([0.0, 0.7])
    sol = rn.integrate(ps.ensemble(np.sin, np.cos, q0, p0, (0.0, T)), method, h)
    J = _jacobians(sol)
    d = 1e-6
    for i in range(2):
        for j, e in enumerate(np.eye(2)):
            ends = []
            for s in (1, -1):
                y0 = np.array([q0[i], p0[i]]) + s * d * e
                run = rn.integrate(
                    rn.HamiltonianProblem(np.sin, [y0[0]], [y0[1]], (0.0, T)), method, h
                )
                ends.append(run.y_final)
            column = (ends[0] - ends[1]) / (2 * d)  # central difference: error O(d^2) + O(eps/d)
            assert np.abs(column - J[i][:, j]).max() < 1e-7 * max(1.0, np.abs(J[i]).max())


def test_symplectic_methods_keep_the_area_of_a_pendulum_cloud_to_round_off():
    """det J = a_q b_p - b_q a_p, whose entries (size |J|) take a few roundings per step: a rounding
    walk of n steps stays below n eps |J|^2 (measured: about 200 eps for 500 steps, |J| = 10)."""
    q0, p0 = ps.disc_points((1.0, 0.0), 0.3, 50)
    h, steps = 0.1, 500
    for method in ("symplectic_euler", "verlet", "yoshida4"):
        sol = rn.integrate(ps.ensemble(np.sin, np.cos, q0, p0, (0.0, steps * h)), method, h)
        size = max(1.0, np.abs(sol.y[50:150]).max(), np.abs(sol.y[200:]).max())
        assert np.abs(ps.area_factors(sol)[:, -1] - 1.0).max() < steps * EPS * size**2
    rk4 = rn.integrate(ps.ensemble(np.sin, np.cos, q0, p0, (0.0, steps * h)), "rk4", h)
    assert ps.area_ratio(rk4)[-1] < 1 - 1e-6  # RK4 shrinks areas: |R(ix)| < 1


def test_ensemble_states_and_shapes():
    q0, p0 = ps.disc_points((1.0, 0.0), 0.3, 7)
    sol = rn.integrate(ps.ensemble(np.sin, np.cos, q0, p0, (0.0, 1.0)), "verlet", 0.1, save_every=5)
    q, p = ps.ensemble_states(sol)
    assert q.shape == p.shape == (7, sol.t.size)
    assert np.array_equal(q[:, 0], q0) and np.array_equal(p[:, 0], p0)
    assert ps.area_factors(sol).shape == (7, sol.t.size)
    assert np.all(ps.area_factors(sol)[:, 0] == 1.0)


def test_bad_input_is_refused_by_name():
    with pytest.raises(ValueError, match="n must be an integer"):
        ps.disc_points((0, 0), 1.0, 0)
    with pytest.raises(ValueError, match="center"):
        ps.disc_points((0, 0, 0), 1.0, 5)
    with pytest.raises(ValueError, match="radius"):
        ps.circle_points((0, 0), -1.0, 5)
    with pytest.raises(ValueError, match="n must be an integer"):
        ps.circle_points((0, 0), 1.0, 2)
    with pytest.raises(ValueError, match="same length"):
        ps.polygon_area([0, 1, 2], [0, 1, 2, 3])
    with pytest.raises(ValueError, match="elementwise"):
        ps.ensemble(lambda q: q.sum(), np.cos, [1.0, 2.0], [0.0, 0.0], (0, 1))
    with pytest.raises(ValueError, match="non-finite"):
        ps.ensemble(np.log, np.cos, [-1.0], [0.0], (0, 1))
    with pytest.raises(ValueError, match="at most 20,000"):
        ps.ensemble(np.sin, np.cos, np.zeros(20_001), np.zeros(20_001), (0, 1))
    with pytest.raises(TypeError, match="robonum.Solution"):
        ps.area_factors("not a solution")
    plain = rn.integrate(rn.problems.pendulum(t_span=(0, 1)), "verlet", 0.1)
    with pytest.raises(ValueError, match="ensemble"):
        ps.area_ratio(plain)


def test_bad_model_functions_are_named():
    with pytest.raises(ValueError, match="dV"):
        ps.ensemble(lambda q: 1 / 0, np.cos, [1.0], [0.0], (0, 1))
    with pytest.raises(TypeError, match="d2V must return real"):
        ps.ensemble(np.sin, lambda q: q * 1j, [1.0], [0.0], (0, 1))
    with pytest.raises(TypeError, match="dV must return real"):
        ps.ensemble(lambda q: np.array(["a"] * q.size), np.cos, [1.0], [0.0], (0, 1))
