"""The fixed-step multistep stepper on BDF1-6: order, start, Newton work, stiff behaviour, bad input.

Truth: exact solutions (y' = -(y - cos t) - sin t -> cos t; logistic;
pendulum via Jacobi elliptic functions), the BDF2 recurrence derived by
hand for y' = lambda y, and the Radau IIA stepper for the starting steps.
"""

import numpy as np
import pytest

import robonum as rn
from robonum import NewtonOptions, problems
from robonum.steppers import ImplicitRK, Multistep
from robonum.work import Work


def BDF(k, **newton):
    return Multistep(f"bdf{k}", newton=NewtonOptions(**newton) if newton else None)


def cos_problem(lam=1.0, T=2.0, y0=1.0):
    """y' = -lam (y - cos t) - sin t, exact y = cos t (non-autonomous; stiff for lam = 1000)."""
    return rn.ODEProblem(
        lambda t, y: -lam * (y - np.cos(t)) - np.sin(t),
        [y0],
        (0, T),
        jac=lambda t, y: np.array([[-lam]]),
        exact=lambda t: np.array([np.cos(t)]),
    )


def logistic(T=2.0):
    return rn.ODEProblem(
        lambda t, y: y * (1 - y),
        [0.1],
        (0, T),
        exact=lambda t: np.array([0.1 * np.exp(t) / (0.9 + 0.1 * np.exp(t))]),
    )


def pendulum(theta0=2.0, T=3.0):
    """Pendulum from rest at theta0; exact solution from the catalogue (Jacobi elliptic)."""
    return problems.pendulum(q0=theta0, p0=0.0, t_span=(0.0, T))


def fitted_order(problem, k, h0):
    hs = h0 / 2.0 ** np.arange(3)
    ref = problem.exact(problem.t_span[1])
    errs = []
    for h in hs:
        sol = rn.integrate(problem, BDF(k, tol=1e-14, max_iter=30), h)
        assert sol.status == 0, sol.message
        errs.append(np.max(np.abs(sol.y_final - ref)))
    return np.polyfit(np.log(hs), np.log(errs), 1)[0]


COS_H0 = {1: 0.05, 2: 0.05, 3: 0.025, 4: 0.05, 5: 0.025, 6: 0.08}
LOGISTIC_H0 = {1: 0.05, 2: 0.1, 3: 0.05, 4: 0.05, 5: 0.1, 6: 0.1}
PENDULUM_H0 = {1: 0.05, 2: 0.08, 3: 0.08, 4: 0.025, 5: 0.025, 6: 0.1}


@pytest.mark.parametrize("k", range(1, 7))
def test_order(k):
    for problem, h0 in [
        (cos_problem(), COS_H0[k]),
        (logistic(), LOGISTIC_H0[k]),
        (pendulum(), PENDULUM_H0[k]),
    ]:
        p = fitted_order(problem, k, h0)
        assert abs(p - k) < 0.15, (problem.y0.size, k, p)


def test_bdf2_matches_hand_recurrence():
    """y' = lam y: (1 - 2/3 h lam) y_{n+1} = 4/3 y_n - 1/3 y_{n-1} (HNW I, sec. III.1)."""
    lam, h = -3.0, 0.05
    prob = rn.ODEProblem(lambda t, y: lam * y, [1.0], (0, 1), jac=lambda t, y: np.array([[lam]]))
    sol = rn.integrate(prob, BDF(2), h)
    y = list(sol.y[0, :2])  # y_0 and the Radau IIA starting value y_1
    for _ in range(len(sol.t) - 2):
        y.append((4 / 3 * y[-1] - 1 / 3 * y[-2]) / (1 - 2 / 3 * h * lam))
    assert np.max(np.abs(sol.y[0] - y)) < 1e-13


def test_bdf1_is_backward_euler():
    a = rn.integrate(logistic(), BDF(1, tol=1e-13), 0.1)
    b = rn.integrate(logistic(), ImplicitRK("backward_euler", newton=NewtonOptions(tol=1e-13)), 0.1)
    assert np.max(np.abs(a.y - b.y)) < 1e-12


def test_start_uses_radau_and_h_change_restarts():
    prob, h = pendulum(), 0.1
    st, ref = BDF(4), ImplicitRK("radau3")
    w1, w2 = Work(prob), Work(prob)
    s1, s2 = st.init(w1, 0.0, prob.y0, h), ref.init(w2, 0.0, prob.y0, h)
    y1 = y2 = prob.y0.copy()
    for n in range(3):  # BDF4 needs y_1..y_3 from the starter
        y1, err, s1 = st.step(w1, n * h, y1, h, s1)
        y2, _, s2 = ref.step(w2, n * h, y2, h, s2)
        assert err is None and np.max(np.abs(y1 - y2)) < 1e-12
    y_bdf, _, s1 = st.step(w1, 3 * h, y1, h, s1)
    assert np.max(np.abs(y_bdf - y2)) > 1e-9  # now a genuine BDF step
    # a new h restarts the history: the next step is a Radau step again
    y_half, _, s1 = st.step(w1, 4 * h, y_bdf, h / 2, s1)
    y_ref, _, _ = ref.step(
        Work(prob), 4 * h, y_bdf, h / 2, ref.init(Work(prob), 0.0, prob.y0, h / 2)
    )
    assert np.max(np.abs(y_half - y_ref)) < 1e-12


@pytest.mark.parametrize("k", [1, 2, 5])
def test_stiff_problem_one_jacobian(k):
    sol = rn.integrate(cos_problem(lam=1000.0, T=1.0), BDF(k), 0.1)  # lambda h = 100
    assert sol.status == 0
    assert np.max(np.abs(sol.y[0] - np.cos(sol.t))) < 6e-5
    assert sol.njev == 1
    assert sol.nlu == (1 if k == 1 else 2)  # Radau starter matrix + BDF matrix
    assert sol.n_newton < 2 * sol.nsteps


def test_rejects_bad_methods_and_h():
    bdf7 = rn.methods.bdf(7, allow_unstable=True)
    with pytest.raises(ValueError, match="not zero-stable"):
        Multistep(bdf7)
    with pytest.raises(ValueError, match=r"k must be an integer in \[1, 6\]"):
        rn.methods.bdf(7)
    with pytest.raises(ValueError, match="method must be one of"):
        Multistep("bdf7")
    with pytest.raises(ValueError, match="not a linear multistep method"):
        Multistep("rk4")
    with pytest.raises(ValueError, match="tol"):
        BDF(2, tol=-1.0)
    with pytest.raises(TypeError, match="newton must be a NewtonOptions"):
        Multistep("bdf2", newton={"tol": 1e-8})
    with pytest.raises(ValueError, match="h must"):
        BDF(2).init(Work(logistic()), 0.0, np.array([0.1]), 0.0)


def test_bdf7_runs_only_when_asked_and_its_error_grows_as_h_shrinks():
    """Not zero-stable (root of rho of modulus 1.0222): the parasitic root amplifies rounding
    and starting errors like 1.0222^n, so more steps make the error larger (HNW I, sec. III.3)."""
    bdf7 = rn.methods.bdf(7, allow_unstable=True)
    stepper = Multistep(bdf7, allow_unstable=True, newton=NewtonOptions(tol=1e-14, max_iter=30))
    prob = cos_problem(T=40.0)
    errs = []
    for h in (0.1, 0.05, 0.025):
        sol = rn.integrate(prob, stepper, h, blowup=1e300)
        errs.append(np.abs(sol.y_final[0] - np.cos(sol.t[-1])) if sol.success else np.inf)
    assert errs[0] < errs[1] < errs[2]


def test_adams_methods_have_their_orders():
    """Adams-Bashforth k has order k, Adams-Moulton k order k+1 (HNW I, sec. III.1)."""
    prob = logistic(T=2.0)
    for method, p in [(rn.methods.adams_bashforth(3), 3), (rn.methods.adams_moulton(2), 3)]:
        errs = [
            np.abs(rn.integrate(prob, Multistep(method), h).y_final - prob.exact(2.0))[0]
            for h in (0.04, 0.02, 0.01)
        ]
        assert abs(np.polyfit(np.log([0.04, 0.02, 0.01]), np.log(errs), 1)[0] - p) < 0.15
