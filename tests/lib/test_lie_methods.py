"""Lie-group integrators for a time-varying ω: orders, orthogonality, invariants.

Truth: the closed-form coning motion R(t) = Exp(Ωtẑ) Exp(βx̂) Exp(-Ωtẑ) (its rate checked
by central differences here), SciPy's DOP853 at rtol 1e-13 for the free rigid body, the
classical order conditions of the Crouch-Grossman tableau, and scipy.linalg.expm_frechet
for the derivative of the exponential map.
"""

import numpy as np
import pytest
import scipy.linalg
from scipy.integrate import solve_ivp

import robonum as rn
from robonum import lie
from robonum.lie import so3

EPS = np.finfo(float).eps
HS = rn.halving(0.1, 4)  # 30 ... 240 steps on [0, 3]


@pytest.fixture(scope="module")
def cone():
    return lie.coning(rate=2.0, half_angle=0.5, t_span=(0.0, 3.0))


def _orders(problem, method, hs=HS):
    return rn.convergence_study(problem, lie.stepper(method), hs).observed_orders


# --- the test problems -------------------------------------------------------------
def test_coning_rate_is_the_derivative_of_its_closed_form(cone):
    for t in (0.0, 0.4, 1.7, 2.9):
        d = 1e-5
        dR = (cone.exact_R(t + d) - cone.exact_R(t - d)) / (2 * d)
        # central difference: truncation ~ d²|R'''|/6 ~ 1e-10 (|R'''| <= ~8), rounding ~ eps/d ~ 2e-11
        np.testing.assert_allclose(dR, cone.exact_R(t) @ so3.hat(cone.omega(t, None)), atol=1e-9)
    assert cone.state_dependent is False and cone.n == 9


def test_free_rigid_body_rate_follows_eulers_equations():
    body = lie.FreeRigidBody(inertia=(1.0, 2.0, 3.0), L=(0.1, 1.0, 0.1))
    R = so3.exp([0.3, -0.2, 0.5])
    m = body.body_momentum(R)
    w = body.omega(0.0, R)
    np.testing.assert_allclose(w, m / body.inertia, rtol=1e-15)
    # d/dt (Rᵀ L) = -[ω]× Rᵀ L = m × ω : Euler's equations I ω̇ = (Iω) × ω
    d = 1e-6
    Rp, Rm = R @ so3.exp(d * w), R @ so3.exp(-d * w)
    np.testing.assert_allclose(
        (body.body_momentum(Rp) - body.body_momentum(Rm)) / (2 * d), np.cross(m, w), atol=1e-9
    )
    assert body.energy(R) == pytest.approx(0.5 * np.sum(m * m / body.inertia), rel=1e-15)


# --- orders ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "method, order",
    [
        ("lie_euler", 1),
        ("euler_polar", 1),
        ("exp", 2),
        ("cg3", 3),
        ("rkmk4", 4),
        ("rk4", 4),
        ("rk4_polar", 4),
    ],
)
def test_orders_on_the_coning_motion(cone, method, order):
    # the last pair of halvings (h = 0.025 -> 0.0125) is in the asymptotic range for all of them
    assert _orders(cone, method)[-1] == pytest.approx(order, abs=0.1), method
    assert lie.stepper(method).order == order


@pytest.mark.parametrize("terms, order", [(0, 2), (1, 3), (2, 4), (4, 4)])
def test_the_dexpinv_correction_decides_the_order_of_rkmk4(cone, terms, order):
    # Dropping ad_u^j terms with j <= p - 2 lowers the order to terms + 2 (Munthe-Kaas 1999).
    stepper = lie.RKMK("rk4", dexpinv_terms=terms)
    assert stepper.order == order
    orders = rn.convergence_study(cone, stepper, HS).observed_orders
    assert orders[-1] == pytest.approx(order, abs=0.1)


@pytest.fixture(scope="module")
def body_reference():
    body = lie.FreeRigidBody(t_span=(0.0, 5.0))
    ref = solve_ivp(body.f, body.t_span, body.y0, method="DOP853", rtol=1e-13, atol=1e-14).y[:, -1]
    return body, ref


@pytest.mark.parametrize(
    "method, order", [("lie_euler", 1), ("cg3", 3), ("rkmk4", 4), ("rk4_polar", 4)]
)
def test_orders_on_the_free_rigid_body(body_reference, method, order):
    body, ref = body_reference
    hs = rn.halving(0.1, 3)
    errors = [np.abs(lie.integrate_attitude(body, method, h).y_final - ref).max() for h in hs]
    # smallest error ~2e-10 (rkmk4) stays far above the reference's ~1e-12
    assert np.log2(errors[-2] / errors[-1]) == pytest.approx(order, abs=0.1), method


# --- structure -----------------------------------------------------------------------
@pytest.mark.parametrize("method", ["lie_euler", "rkmk4", "cg3", "exp"])
def test_lie_methods_stay_orthogonal_to_rounding(cone, method):
    sol = lie.integrate_attitude(cone, method, 0.01)  # 300 steps
    # each step multiplies by a few exps (Rodrigues: entries exact to a few eps) and the
    # errors add up like a random walk at worst linearly: bound n eps = 300 eps
    assert lie.orthogonality_errors(sol.R).max() < 300 * EPS


def test_rk4_on_entries_drifts_but_the_projection_removes_it():
    body = lie.FreeRigidBody(t_span=(0.0, 50.0))
    rk4 = lie.integrate_attitude(body, "rk4", 0.1, save_every=50)
    proj = lie.integrate_attitude(body, "rk4_polar", 0.1, save_every=50)
    lie_run = lie.integrate_attitude(body, "rkmk4", 0.1, save_every=50)
    assert lie.orthogonality_errors(rk4.R).max() > 1e-8  # measured 1.7e-7
    # one SVD per step; bound 20 eps as for polar() itself
    assert lie.orthogonality_errors(proj.R).max() < 20 * EPS
    # |Rᵀ L| = |L| holds exactly for an orthogonal R: the Lie method keeps it to rounding
    m_norm = np.linalg.norm(body.body_momentum(lie_run.R), axis=1)
    assert np.abs(m_norm - np.linalg.norm(body.L)).max() < 500 * EPS
    m_norm_rk4 = np.linalg.norm(body.body_momentum(rk4.R), axis=1)
    assert np.abs(m_norm_rk4 - np.linalg.norm(body.L)).max() > 1e-10  # measured 1.9e-9


def test_crouch_grossman_tableau_meets_the_classical_conditions():
    assert lie.CG3.order_from_conditions() == 3
    assert [c.satisfied for c in lie.CG3.order_conditions(4)].count(False) > 0


def test_rk_orthogonality_prediction_matches_runs():
    w = np.array([0.3, -0.5, 0.8])
    for method, n in (("euler", 2000), ("rk4", 2000), ("heun", 2000), ("rk3", 2000)):
        sol = lie.integrate_rotation(
            np.eye(3),
            w,
            (0.0, n * 0.05),
            0.05,
            method if method in ("euler", "rk4") else lie.Projected(method, "polar"),
        )
        if method in ("heun", "rk3"):  # run the plain method through ExplicitRK
            sol = lie.integrate_rotation(np.eye(3), w, (0.0, n * 0.05), 0.05, rn.ExplicitRK(method))
        measured = lie.orthogonality_errors(sol.R)[-1]
        assert measured == pytest.approx(
            lie.rk_orthogonality_prediction(method, w, 0.05, n), rel=1e-6
        )
    # the closed forms the docstring names
    theta2 = 0.05**2 * (w @ w)
    assert lie.rk_orthogonality_prediction("euler", w, 0.05, 1) == pytest.approx(
        theta2 * np.max(1 - w * w / (w @ w)), rel=1e-14
    )
    d = -(theta2**3) / 72 + theta2**4 / 576
    assert lie.rk_orthogonality_prediction("rk4", w, 0.05, 1) == pytest.approx(
        abs(d) * np.max(1 - w * w / (w @ w)), rel=1e-12
    )


def test_angle_errors_is_the_geodesic_distance():
    A = so3.exp([0.2, -0.4, 1.0])
    for angle in (1e-9, 1e-4, 0.3, 2.0, np.pi - 1e-6):
        B = A @ so3.exp(angle * np.array([0.6, 0.0, 0.8]))
        # atan2 form: rounding ~ eps in the angle at every angle
        assert lie.angle_errors(B[None], A[None])[0] == pytest.approx(angle, rel=1e-9, abs=10 * EPS)
    # a scaled rotation has the same rotation part
    assert lie.angle_errors(1.5 * A[None], A[None])[0] < 10 * EPS


def test_dexp_inv_inverts_the_derivative_of_exp():
    rng = np.random.default_rng(4)
    for scale in (1e-8, 1e-3, 0.5, 2.0, 5.0, 6.0):  # |u| = scale < 2π
        d = rng.normal(size=3)
        u, v = scale * d / np.linalg.norm(d), rng.normal(size=3)
        L = scipy.linalg.expm_frechet(so3.hat(u), so3.hat(v), compute_expm=False)
        Jv = so3.vee(so3.exp(u).T @ L)  # J_r(u) v, from SciPy's Fréchet derivative
        # expm_frechet and exp agree to ~1e-15; J_r⁻¹ has norm <= ~1 + θ²/12
        np.testing.assert_allclose(
            so3.dexp_inv(u, Jv), v, atol=1e-13 * (1 + scale**2) / max(1e-3, 2 * np.pi - scale)
        )
        if scale <= 0.5:  # the series converges for |u| < 2π, fast for small |u|
            np.testing.assert_allclose(so3.dexp_inv(u, Jv, terms=8), v, atol=1e-12)


# --- bad input -----------------------------------------------------------------
def test_bad_input_is_rejected_by_name(cone):
    with pytest.raises(ValueError, match="state-dependent"):
        lie.integrate_attitude(lie.FreeRigidBody(), "exp", 0.1)
    with pytest.raises(TypeError, match="AttitudeProblem"):
        rn.integrate(rn.problems.logistic(), lie.stepper("rkmk4"), 0.1)
    with pytest.raises(ValueError, match="explicit Runge-Kutta"):
        lie.RKMK("radau3")
    with pytest.raises(ValueError, match="dexpinv_terms"):
        lie.RKMK("rk4", dexpinv_terms=9)
    with pytest.raises(ValueError, match="projection"):
        lie.Projected("rk4", "qr")
    with pytest.raises(ValueError, match="u must have"):
        so3.dexp_inv([7.0, 0.0, 0.0], [1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="terms"):
        so3.dexp_inv([0.1, 0.0, 0.0], [1.0, 0.0, 0.0], terms=-1)
    with pytest.raises(ValueError, match="half_angle"):
        lie.coning(half_angle=4.0)
    with pytest.raises(ValueError, match="rate"):
        lie.coning(rate=-1.0)
    with pytest.raises(ValueError, match="inertia"):
        lie.FreeRigidBody(inertia=(1.0, 0.0, 2.0))
    with pytest.raises(ValueError, match="L must"):
        lie.FreeRigidBody(L=(0.0, 0.0, 0.0))
    with pytest.raises(TypeError, match="omega"):
        lie.AttitudeProblem([0.1, 0.2, 0.3], np.eye(3), (0, 1), state_dependent=True)
    with pytest.raises(ValueError, match=r"omega\(t, R\)"):
        lie.AttitudeProblem(lambda t, R: [np.nan, 0, 0], np.eye(3), (0, 1), state_dependent=True)
    with pytest.raises(TypeError, match="problem must be an AttitudeProblem"):
        lie.integrate_attitude(rn.problems.logistic(), "rkmk4", 0.1)
    with pytest.raises(ValueError, match="R and R_ref"):
        lie.angle_errors(np.eye(3)[None], np.eye(3)[None].repeat(2, axis=0))


def test_nan_during_a_run_is_a_status_not_an_exception():
    def omega(t):
        return np.array([1.0, 0.0, 0.0]) if t < 0.5 else np.array([np.nan, 0.0, 0.0])

    for method in ("rkmk4", "rk4", "exp"):
        sol = lie.integrate_rotation(np.eye(3), omega, (0.0, 1.0), 0.1, method)
        assert (sol.status, sol.reason) == (-1, "nan_in_f") and sol.t[-1] < 0.6, method


def test_imag_axis_gain_has_the_closed_forms():
    # |P(iθ)|² - 1 from exact coefficients: Euler θ², Heun θ⁴/4, RK3 -θ⁴/12 + θ⁶/36,
    # RK4 -θ⁶/72 + θ⁸/576 (expand |P(iθ)|² by hand); relative 1e-14: no cancellation
    for theta in (1e-3, 0.0099, 0.3, 2.0):
        t2 = theta * theta
        for method, closed in (
            ("euler", t2),
            ("heun", t2**2 / 4),
            ("rk3", -(t2**2) / 12 + t2**3 / 36),
            ("rk4", -(t2**3) / 72 + t2**4 / 576),
        ):
            assert lie.imag_axis_gain(method, theta) == pytest.approx(closed, rel=1e-14), (
                method,
                theta,
            )
    with pytest.raises(ValueError, match="explicit Runge-Kutta"):
        lie.imag_axis_gain("gauss2", 0.1)


def test_integrate_attitude_is_rn_integrate_with_a_lie_stepper(cone):
    a = lie.integrate_attitude(cone, "rkmk4", 0.05)
    b = rn.integrate(cone, lie.stepper("rkmk4"), 0.05)
    np.testing.assert_array_equal(a.y, b.y)
    assert a.layout == "so3" and a.R.shape == (61, 3, 3) and a.nfev == 4 * 60


def test_attitude_problems_copy_with_replace_and_on_grid(cone):
    body = lie.FreeRigidBody()
    longer = body.replace(t_span=(0.0, 20.0))
    assert isinstance(longer, lie.FreeRigidBody) and longer.t_span == (0.0, 20.0)
    np.testing.assert_array_equal(longer.L, body.L)
    grid = cone.on_grid(0.7)  # ends at 5 * 0.7 = 3.5
    assert grid.t_span[1] == pytest.approx(3.5) and grid.exact_R is cone.exact_R
    assert lie.integrate_attitude(grid, "cg3", 0.7).h == pytest.approx(0.7)
