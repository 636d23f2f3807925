"""Implicit RK tableaux, the modified Newton machinery and the ImplicitRK stepper.

Truth used: exact solutions (Riccati y' = -2 t y^2 -> 1/(1+t^2); the
pendulum via Jacobi elliptic functions; y' = -1000 (y - cos t) - sin t ->
cos t), solve_ivp at rtol 1e-13 (Lotka-Volterra), hand-derived order
conditions and stability functions, and the closed-form backward Euler
recurrence for the linear stiff problem.
"""

from fractions import Fraction as F

import numpy as np
import pytest
from scipy.integrate import solve_ivp

import robonum as rn
from robonum import problems
from robonum.errors import NonlinearSolveError
from robonum.methods import implicit as im
from robonum.newton import NewtonOptions, newton_solve
from robonum.steppers import ImplicitRK
from robonum.work import Work

ORDERS = {
    "backward_euler": 1,
    "trapezoid": 2,
    "implicit_midpoint": 2,
    "gauss2": 4,
    "gauss3": 6,
    "gauss4": 8,
    "radau2": 3,
    "radau3": 5,
    "sdirk2": 2,
    "sdirk3": 3,
}

EPS = np.finfo(float).eps


# ------------------------------------------------------------- problems --
def riccati():
    return rn.ODEProblem(
        lambda t, y: -2 * t * y**2,
        [1.0],
        (0, 2),
        jac=lambda t, y: np.array([[-4 * t * y[0]]]),
        exact=lambda t: np.array([1 / (1 + t * t)]),
    )


def pendulum(theta0=2.0, T=10.0):
    """Pendulum from rest at theta0; exact solution from the catalogue (Jacobi elliptic)."""
    return problems.pendulum(q0=theta0, p0=0.0, t_span=(0.0, T))


def stiff(T=1.0, lam=1000.0, y0=1.0):
    return rn.ODEProblem(
        lambda t, y: -lam * (y - np.cos(t)) - np.sin(t),
        [y0],
        (0, T),
        jac=lambda t, y: np.array([[-lam]]),
        exact=lambda t: np.array([np.cos(t) + (y0 - 1.0) * np.exp(-lam * t)]),
    )


def fitted_order(problem, stepper, h0, ref=None):
    hs = h0 / 2.0 ** np.arange(3)
    t1 = problem.t_span[1]
    ref = problem.exact(t1) if ref is None else ref
    errs = []
    for h in hs:
        sol = rn.integrate(problem, stepper, h)
        assert sol.status == 0, sol.message
        errs.append(np.max(np.abs(sol.y_final - ref)))
    return np.polyfit(np.log(hs), np.log(errs), 1)[0], errs


def tight(name):
    """Newton tolerance well below the discretisation errors of an order study."""
    return ImplicitRK(name, newton=rn.NewtonOptions(tol=1e-14, max_iter=30))


def R(tab, z):
    """Stability function R(z) = det(I - zA + z 1 b^T) / det(I - zA) (Hairer-Wanner II, IV.3)."""
    s = tab.s
    I, e = np.eye(s), np.ones((s, 1))
    return np.linalg.det(I - z * tab.A + z * e @ tab.b[None, :]) / np.linalg.det(I - z * tab.A)


# ------------------------------------------------------------- tableaux --
def test_catalogue_keys_and_orders():
    assert {k: t.order for k, t in im.ALL.items()} == ORDERS
    assert set(ORDERS) <= set(rn.methods.names())


def test_rational_tableaux_are_exact():
    assert im.BACKWARD_EULER.exact["A"].tolist() == [[F(1)]]
    assert im.IMPLICIT_MIDPOINT.exact["A"].tolist() == [[F(1, 2)]]
    # Crank-Nicolson as 2-stage Lobatto IIIA: first stage explicit.
    assert im.TRAPEZOID.exact["A"].tolist() == [[0, 0], [F(1, 2), F(1, 2)]]
    assert im.RADAU2.exact["A"].tolist() == [[F(5, 12), F(-1, 12)], [F(3, 4), F(1, 4)]]


@pytest.mark.parametrize("s", [1, 2, 3, 4, 5])
def test_generated_nodes_are_legendre_roots(s):
    Ps, Ps1 = np.zeros(s + 1), np.zeros(s + 1)
    Ps[s], Ps1[s - 1] = 1, 1
    g, r = im.gauss_legendre(s), im.radau_iia(s)
    assert np.max(np.abs(np.polynomial.legendre.legval(2 * g.c - 1, Ps))) < 1e-13
    assert np.max(np.abs(np.polynomial.legendre.legval(2 * r.c - 1, Ps - Ps1))) < 1e-13
    assert r.c[-1] == 1.0
    for tab, p in [(g, 2 * s), (r, 2 * s - 1)]:
        # quadrature order p: sum b c^(q-1) = 1/q; collocation C(s): A c^(q-1) = c^q / q
        for q in range(1, p + 1):
            assert abs(tab.b @ tab.c ** (q - 1) - 1 / q) < 1e-13
        assert abs(tab.b @ tab.c**p - 1 / (p + 1)) > 1e-6  # and not more
        for q in range(1, s + 1):
            assert np.max(np.abs(tab.A @ tab.c ** (q - 1) - tab.c**q / q)) < 1e-13


def test_closed_forms_match_generated():
    for closed, gen in [
        (im.GAUSS2, im.gauss_legendre(2)),
        (im.GAUSS3, im.gauss_legendre(3)),
        (im.RADAU2, im.radau_iia(2)),
        (im.RADAU3, im.radau_iia(3)),
        (im.BACKWARD_EULER, im.radau_iia(1)),
        (im.IMPLICIT_MIDPOINT, im.gauss_legendre(1)),
    ]:
        for a, b in [(closed.A, gen.A), (closed.b, gen.b), (closed.c, gen.c)]:
            # Generated from a small collocation solve (entries <= 1): a few ulps apart.
            assert np.max(np.abs(a - b)) <= 8 * EPS
    assert im.collocation([0, 1], "t").order == 2  # order from the quadrature
    assert im.collocation([F(1, 3), 1], "r").order == 3


def test_sdirk2_is_order_2_not_3():
    """Seed 004 sec. 7.3 calls gamma = 1 - sqrt(2)/2 '3rd order': b.c^2 = 0.3536 != 1/3."""
    t = im.SDIRK2
    # Sums of two or three products of entries <= 1: rounding of a few ulps at most.
    assert abs(t.b.sum() - 1) <= 4 * EPS and abs(t.b @ t.c - 0.5) <= 4 * EPS
    assert abs(t.b @ t.c**2 - 1 / 3) > 0.02
    p, _ = fitted_order(riccati(), tight("sdirk2"), 0.2)
    assert abs(p - 2) < 0.1


def test_sdirk_stability():
    y = np.concatenate([-np.logspace(-3, 4, 200), np.logspace(-3, 4, 200)])
    for tab in (im.SDIRK2, im.SDIRK3):
        assert max(abs(R(tab, 1j * v)) for v in y) <= 1 + 1e-12  # A-stable (poles 1/gamma > 0)
    assert abs(R(im.SDIRK2, -1e9)) < 1e-8  # L-stable: R(inf) = 0
    assert abs(abs(R(im.SDIRK3, -1e9)) - (np.sqrt(3) - 1)) < 1e-6  # |R(inf)| = 0.732: not L-stable
    t = im.SDIRK3
    assert abs(t.b @ t.c**2 - 1 / 3) <= 8 * EPS and abs(t.b @ t.A @ t.c - 1 / 6) <= 8 * EPS


def test_collocation_bad_input():
    with pytest.raises(ValueError, match="distinct"):
        im.collocation([0.5, 0.5], "x")
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        im.collocation([1.5], "x")
    with pytest.raises(TypeError, match="nodes"):
        im.collocation("01", "x")
    with pytest.raises(ValueError, match="s must"):
        im.gauss_legendre(0)


# ------------------------------------------------------ order studies --
RICCATI_H0 = {
    "backward_euler": 0.05,
    "trapezoid": 0.05,
    "implicit_midpoint": 0.2,
    "gauss2": 0.1,
    "gauss3": 0.4,
    "radau2": 0.1,
    "radau3": 0.2,
    "sdirk2": 0.2,
    "sdirk3": 0.05,
}
PENDULUM_H0 = {
    "trapezoid": 0.2,
    "implicit_midpoint": 0.2,
    "gauss2": 0.4,
    "gauss3": 0.4,
    "gauss4": 0.8,
    "radau2": 0.2,
    "radau3": 0.4,
    "sdirk2": 0.1,
    "sdirk3": 0.2,
}


@pytest.mark.parametrize("name", sorted(RICCATI_H0))
def test_order_riccati_nonautonomous(name):
    p, _ = fitted_order(riccati(), tight(name), RICCATI_H0[name])
    assert abs(p - ORDERS[name]) < 0.1, p


@pytest.mark.parametrize("name", sorted(PENDULUM_H0))
def test_order_pendulum_2d(name):
    p, _ = fitted_order(pendulum(), tight(name), PENDULUM_H0[name])
    assert abs(p - ORDERS[name]) < 0.1, p


@pytest.mark.parametrize("name", ["trapezoid", "radau2", "sdirk2"])
def test_order_lotka_volterra_fd_jacobian(name):
    def f(t, y):
        return np.array([y[0] * (1 - y[1]), y[1] * (y[0] - 1)])

    prob = rn.ODEProblem(f, [2.0, 1.0], (0, 3))  # no jac: forward differences
    ref = solve_ivp(f, (0, 3), [2.0, 1.0], method="DOP853", rtol=1e-13, atol=1e-14).y[:, -1]
    p, _ = fitted_order(prob, tight(name), 0.2, ref)
    assert abs(p - ORDERS[name]) < 0.1, p


# ----------------------------------------------- stiff problem (seed 003 ②) --
def test_backward_euler_at_lambda_h_100_matches_its_recurrence():
    """BE on y' = -1000 (y - cos t) - sin t is y_{n+1} = (y_n + h(1000 cos t_{n+1} - sin t_{n+1}))/(1 + 1000 h)."""
    h, lam = 0.1, 1000.0
    sol = rn.integrate(stiff(T=1.0), "backward_euler", h)
    y = 1.0
    for n in range(10):
        t1 = (n + 1) * h
        y = (y + h * (lam * np.cos(t1) - np.sin(t1))) / (1 + lam * h)
    assert sol.status == 0 and abs(sol.y_final[0] - y) < 1e-12
    err = abs(y - np.cos(1.0))
    assert 2.7e-5 < err < 2.9e-5  # seed: 2.8e-5 (interval [0, 1], error at t = 1)
    assert (
        abs(err - h * np.cos(1.0) / (2 * lam)) < 0.1 * err
    )  # quasi-steady error h cos t / (2 lam)


@pytest.mark.parametrize(
    "method, lam_h, status",
    [("euler", 2.5, -1), ("euler", 1.9, 0), ("rk4", 2.94, -1), ("rk4", 2.5, 0)],
)
def test_explicit_divergence_thresholds(method, lam_h, status):
    sol = rn.integrate(stiff(T=1.0), method, lam_h / 1000.0)
    assert sol.status == status, sol.message
    if status == 0:
        assert np.max(np.abs(sol.y[0] - np.cos(sol.t))) < 1e-5


def test_l_stability_damps_a_stiff_transient_trapezoid_does_not():
    """Start off the slow manifold (y0 = 2): R(-100) = -0.96 (trapezoid) vs ~0 (L-stable)."""
    prob = stiff(T=1.0, y0=2.0)
    errs = {
        m: abs(rn.integrate(prob, m, 0.1).y_final[0] - np.cos(1.0))
        for m in ["trapezoid", "backward_euler", "radau3", "sdirk2", "gauss2"]
    }
    for m in ["trapezoid", "gauss2"]:  # A- but not L-stable: |R(inf)| = 1
        assert abs(errs[m] - abs(R(im.ALL[m], -100.0)) ** 10) < 1e-3, (m, errs[m])
    assert errs["trapezoid"] > 0.5  # 0.96^10 of the initial jump remains
    for m in ["backward_euler", "radau3", "sdirk2"]:
        assert errs[m] < 1e-4, (m, errs[m])


# ----------------------------------------------------------- Newton work --
@pytest.mark.parametrize("name", ["backward_euler", "trapezoid", "radau3", "gauss2", "sdirk2"])
def test_linear_problem_one_jacobian_one_lu(name):
    tab = im.ALL[name]
    sol = rn.integrate(stiff(T=1.0), name, 0.1)
    # one n x n solve per implicit DIRK stage, one s n x s n solve for full A
    per_step = 1 if tab.kind == "implicit" else int(np.count_nonzero(np.diag(tab.A)))
    solves = sol.nsteps * per_step
    assert sol.njev == 1 and sol.nlu == 1  # reused across all steps
    assert solves <= sol.n_newton < 2 * solves  # mostly 1 iteration per solve


def test_linear_newton_exact_in_one_iteration():
    M = np.array([[3.0, 1.0], [0.5, 2.0]])
    b = np.array([1.0, -2.0])
    lu = Work.lu_factor(Work(stiff()), M)
    for eta0, iters in [(1e-16, 1), (1.0, 2)]:  # with eta0 = 1 a second iteration confirms
        r = newton_solve(
            lambda x: M @ x - b,
            lambda g: Work.lu_solve(lu, g),
            np.zeros(2),
            weight=1.0,
            opts=NewtonOptions(),
            eta0=eta0,
        )
        assert r.converged and r.iterations == iters
        assert np.allclose(M @ r.x, b, atol=1e-14)


def test_simplified_newton_contraction_rate():
    """x_{k+1} = x_k - (x_k^2 - 2)/3 contracts with rate |1 - 2 sqrt(2)/3| = 0.0572."""
    r = newton_solve(
        lambda x: x**2 - 2,
        lambda g: g / 3.0,
        np.array([1.5]),
        weight=1.0,
        opts=NewtonOptions(tol=1e-14, kappa=1.0, max_iter=30),
    )
    assert r.converged and abs(r.x[0] - np.sqrt(2)) < 1e-13
    assert abs(r.theta - (1 - 2 * np.sqrt(2) / 3)) < 0.01


def test_sdirk_reuses_one_lu_per_step_on_nonlinear_problem():
    sol = rn.integrate(pendulum(), "sdirk2", 0.1)
    assert sol.status == 0 and sol.nlu <= sol.nsteps and sol.njev <= sol.nsteps
    lazy = rn.integrate(
        pendulum(), ImplicitRK("sdirk2", newton=rn.NewtonOptions(theta_reuse=1.0)), 0.1
    )
    assert lazy.njev < 5 and lazy.nlu < 5  # J only refreshed on failure
    assert np.max(np.abs(lazy.y_final - sol.y_final)) < 1e-8


def test_newton_failure_raises_and_integrate_reports_it():
    blowup = rn.ODEProblem(
        lambda t, y: y**2, [1.0], (0, 4), jac=lambda t, y: np.array([[2 * y[0]]])
    )
    st = ImplicitRK("backward_euler")
    work = Work(blowup)
    # x = 1 + 2 x^2 has no real root: Newton cannot converge.
    with pytest.raises(NonlinearSolveError) as info:
        st.step(work, 0.0, np.array([1.0]), 2.0, st.init(work, 0.0, blowup.y0, 2.0))
    assert info.value.iterations >= 1 and info.value.residual > 0
    sol = rn.integrate(blowup, st, 2.0)
    assert (sol.status, sol.reason, sol.nsteps) == (-1, "newton_failed", 0)
    assert "could not be solved" in sol.message and sol.t[-1] == 0.0
    sol = rn.integrate(
        pendulum(), ImplicitRK("radau3", newton=rn.NewtonOptions(tol=1e-14, max_iter=1)), 0.1
    )
    assert sol.reason == "newton_failed" and "Newton" in sol.message


def test_gauss_conserves_quadratic_invariant():
    osc = rn.ODEProblem(
        lambda t, y: np.array([y[1], -y[0]]),
        [1.0, 0.0],
        (0, 50),
        jac=lambda t, y: np.array([[0.0, 1.0], [-1.0, 0.0]]),
    )
    energy = {
        m: 0.5 * np.sum(rn.integrate(osc, m, 0.1).y ** 2, axis=0)
        for m in ["gauss2", "implicit_midpoint", "radau3"]
    }
    for m in ["gauss2", "implicit_midpoint"]:
        assert np.max(np.abs(energy[m] - 0.5)) < 1e-13
    # Radau IIA dissipates: E_n = E_0 |R(i h)|^(2n) on this linear problem, here 6.9e-8 lost
    decay = 0.5 * abs(R(im.RADAU3, 0.1j)) ** (2 * 500)
    assert 0.5 - decay > 5e-8 and abs(energy["radau3"][-1] - decay) < 1e-13


# ------------------------------------------------------------- bad input --
def test_bad_input():
    with pytest.raises(ValueError, match="explicit"):
        ImplicitRK("rk4")
    with pytest.raises(TypeError, match="method must be a method name"):
        ImplicitRK(3)
    with pytest.raises(ValueError, match="method must be one of"):
        ImplicitRK("radau9")
    with pytest.raises(ValueError, match="tol"):
        ImplicitRK("radau3", newton=rn.NewtonOptions(tol=0.0))
    with pytest.raises(ValueError, match="max_iter"):
        ImplicitRK("radau3", newton=rn.NewtonOptions(max_iter=0))
    with pytest.raises(ValueError, match="theta_max"):
        ImplicitRK("radau3", newton=rn.NewtonOptions(theta_max=1.5))
    st = ImplicitRK("radau3")
    with pytest.raises(ValueError, match="h must"):
        st.init(Work(stiff()), 0.0, np.array([1.0]), -0.1)
    with pytest.raises(ValueError, match="h must"):
        rn.integrate(stiff(), st, 0.0)
    with pytest.raises(ValueError, match="embedded"):
        rn.integrate(stiff(), "radau3", rtol=1e-6)


def test_full_system_with_explicit_first_stage():
    """3-stage Lobatto IIIA (row 1 of A is zero, rest coupled): the full path splits it off."""
    lob = im.collocation([0, F(1, 2), 1], "Lobatto IIIA (3 stages)")
    assert lob.order == 4 and lob.kind == "implicit"
    p, _ = fitted_order(
        riccati(), ImplicitRK(lob, newton=rn.NewtonOptions(tol=1e-14, max_iter=30)), 0.2
    )
    assert abs(p - 4) < 0.1, p


def test_newton_solve_bad_input():
    with pytest.raises(TypeError, match="G must be callable"):
        newton_solve(3.0, lambda g: g, np.zeros(1))
    with pytest.raises(TypeError, match="opts"):
        newton_solve(lambda x: x, lambda g: g, np.zeros(1), opts={"tol": 1e-8})
    with pytest.raises(ValueError, match="x0"):
        newton_solve(lambda x: x, lambda g: g, np.array([np.nan]))
    with pytest.raises(ValueError, match="kappa"):
        NewtonOptions(kappa=2.0)


@pytest.mark.parametrize("name", ["backward_euler", "radau3", "sdirk2", "bdf2"])
def test_robertson_from_rest_needs_the_full_newton_fallback(name):
    # J at y0 = (1, 0, 0) has no k2/k3 terms: a frozen-J iteration diverges on
    # the first step at h = 0.01; the full-Newton fallback must carry it.
    rob = problems.robertson(t_span=(0.0, 1.0))
    ref = solve_ivp(rob.f, rob.t_span, rob.y0, method="Radau", jac=rob.jac, rtol=1e-10, atol=1e-14)
    sol = rn.integrate(rob, name, 0.01)
    assert sol.success, sol.message
    assert np.max(np.abs(sol.y_final - ref.y[:, -1])) < 2e-4
    assert abs(sol.y_final.sum() - 1.0) < 1e-10  # linear invariant kept by every RK/BDF method


# ------------------------------------------ seed 7.50 sec. 5.3: Gauss-Legendre --
def test_seed_gauss_legendre_tableau_is_gauss2():
    """The 2-stage tableau as printed (entries with sqrt(3)/6): order 4 by the order
    conditions (not 5), A-stable, symplectic, R(inf) = +1, observed order 4."""
    r = np.sqrt(3.0)
    seed = rn.ButcherTableau(
        "GL2 (seed)",
        A=[[0.25, 0.25 - r / 6], [0.25 + r / 6, 0.25]],
        b=[0.5, 0.5],
        c=[0.5 - r / 6, 0.5 + r / 6],
        order=4,
    )
    g2 = im.GAUSS2
    assert np.max(np.abs(seed.A - g2.A)) < 4 * np.finfo(float).eps  # same floats up to rounding
    assert np.max(np.abs(seed.A.sum(axis=1) - seed.c)) < 4 * np.finfo(float).eps
    assert seed.order_from_conditions() == 4
    assert seed.is_A_stable() and seed.is_symplectic() and not seed.is_L_stable()
    assert abs(seed.R_at_infinity() - 1.0) < 1e-12
    p, _ = fitted_order(
        pendulum(), ImplicitRK(seed, newton=rn.NewtonOptions(tol=1e-14, max_iter=30)), 0.4
    )
    assert abs(p - 4) < 0.1, p


def test_pendulum_energy_gauss_bounded_radau_dissipates():
    """Over 1000 steps the Gauss energy error does not grow (exponent ~ 0, like Verlet's);
    Radau IIA loses energy steadily (exponent ~ 1; within a swing it oscillates)."""
    en = rn.analysis.energy
    pend = problems.pendulum(q0=2.0, t_span=(0.0, 200.0))
    grow = {}
    for m in ["gauss2", "verlet", "radau2"]:
        sol = rn.integrate(pend, m, 0.2)
        err = np.abs(pend.energy(sol.y) - pend.energy(pend.y0))
        grow[m] = en.growth_exponent(sol.t, err, 20.0, 200.0)
        if m == "radau2":
            E = pend.energy(sol.y)
            assert E[-1] < E[0] - 1e-2
    assert abs(grow["gauss2"]) < 0.1 and abs(grow["verlet"]) < 0.1 and grow["radau2"] > 0.9
