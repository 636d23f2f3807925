"""The problem catalogue, checked against independent truth: finite-difference
Jacobians, the ODE itself (for every ``exact``), SciPy's integrators, and
eigenvalues derived by hand in the docstrings."""

import math

import numpy as np
import pytest
import scipy.special
from scipy.integrate import solve_ivp

import robonum as rn
from robonum import problems as P

RNG = np.random.default_rng(20240611)


def contact_rest(p):
    """Static equilibrium of penalty_contact, derived by hand: the ground carries
    (M + m_f) g, the leg carries M g."""
    M, mf, g = p.params["M_kg"], p.params["m_foot_kg"], p.params["g_m_per_s2"]
    xf = -(M + mf) * g / p.params["k_c_N_per_m"]
    xb = xf + p.params["L0_m"] - M * g / p.params["k_leg_N_per_m"]
    return np.array([xb, xf, 0.0, 0.0])


# (problem, states at which to compare the Jacobian)
def _jacobian_cases():
    u = lambda n, lo=-1.0, hi=1.0: RNG.uniform(lo, hi, size=n)  # noqa: E731
    contact = P.penalty_contact()
    return [
        (P.logistic(), [u(1, 0, 2) for _ in range(3)]),
        (P.dahlquist(-3.0), [u(1) for _ in range(2)]),
        (P.dahlquist(-1 + 4j, 1 - 2j), [u(2) for _ in range(2)]),
        (P.stiff_cosine(), [u(1) for _ in range(3)]),
        (P.van_der_pol(), [u(2, -2.5, 2.5) for _ in range(3)]),
        (P.robertson(), [u(3, 0, 1) * [1, 1e-4, 1] for _ in range(3)]),
        (P.stiff_linear(), [u(6) for _ in range(2)]),
        (P.harmonic_oscillator(2.5), [u(2) for _ in range(2)]),
        (P.pendulum(), [u(2, -3, 3) for _ in range(3)]),
        (P.flexible_joint(), [u(4, -2, 2) for _ in range(3)]),
        (
            contact,
            [
                contact.y0,
                contact_rest(contact),  # flight, pushing contact
                contact_rest(contact) + [0, -1e-4, 0.1, -0.05],
            ],
        ),
        (P.dc_motor(), [u(2, -5, 5) * [1, 100] for _ in range(3)]),
    ]


@pytest.mark.parametrize("problem,states", _jacobian_cases(), ids=lambda x: getattr(x, "name", ""))
def test_jacobian_matches_central_difference(problem, states):
    for y in states:
        t = problem.t_span[0] + 0.3
        J = problem.jac(t, y)
        Jfd = np.empty_like(J)
        for j in range(y.size):
            d = 1e-6 * max(1.0, abs(y[j]))
            e = np.zeros_like(y)
            e[j] = d
            Jfd[:, j] = (problem.f(t, y + e) - problem.f(t, y - e)) / (2 * d)
        scale = max(1.0, np.abs(J).max())
        assert np.abs(J - Jfd).max() <= 1e-6 * scale, (problem.name, y, J, Jfd)


def _exact_cases():
    return [
        P.logistic(),
        P.logistic(y0=3.0, r=0.7, K=2.0, t_span=(1.0, 6.0)),
        P.dahlquist(-2.0),
        P.dahlquist(-0.5 + 3j, 1 + 1j, t_span=(0.5, 3.0)),
        P.stiff_cosine(),
        P.stiff_cosine(lam=-50.0, y0=0.3, t_span=(0.5, 2.0)),
        P.stiff_linear(n=4, stiffness=100.0, seed=3, t_span=(0.5, 3.0)),
        P.harmonic_oscillator(3.0, q0=0.4, p0=-1.0),
        P.pendulum(),
        P.pendulum(q0=-0.4, p0=-1.3),
        P.pendulum(q0=2 * math.pi + 3.0, p0=0.05),
        P.pendulum(q0=0.2, p0=0.5, g_over_l=9.81 / 0.3),
        P.dc_motor(),
        P.dc_motor(tau_load=0.003, y0=(1.0, 200.0)),
    ]


@pytest.mark.parametrize("problem", _exact_cases(), ids=lambda p: p.name)
def test_exact_solves_the_ode(problem):
    t0, t1 = problem.t_span
    np.testing.assert_allclose(problem.exact(t0), problem.y0, rtol=1e-13, atol=1e-13)
    rate = max(1.0, np.abs(P.jacobian_eigenvalues(problem)).max())
    d = 1e-4 / rate  # central difference error ~ (d·rate)² relative
    for t in np.linspace(t0 + 2 * d, min(t1, t0 + 20.0) - 2 * d, 7):
        dydt = (problem.exact(t + d) - problem.exact(t - d)) / (2 * d)
        fy = problem.f(t, problem.exact(t))
        assert np.abs(dydt - fy).max() <= 1e-6 * max(1.0, np.abs(fy).max()), (t, dydt, fy)
    ts = np.linspace(t0, t1, 5)  # the array form agrees with the scalar form
    np.testing.assert_allclose(problem.exact(ts)[:, 3], problem.exact(ts[3]), rtol=1e-15)


@pytest.mark.parametrize("problem", _exact_cases(), ids=lambda p: p.name)
def test_exact_agrees_with_dop853(problem):
    t0, t1 = problem.t_span[0], min(problem.t_span[1], problem.t_span[0] + 50.0)
    ts = np.linspace(t0, t1, 11)
    sol = solve_ivp(
        problem.f, (t0, t1), problem.y0, method="DOP853", t_eval=ts, rtol=1e-12, atol=1e-12
    )
    ref = problem.exact(ts)
    assert np.abs(sol.y - ref).max() <= 1e-8 * max(1.0, np.abs(ref).max())


def test_pendulum_energy_and_small_amplitude_limit():
    p = P.pendulum(q0=2.0, p0=0.3)
    ys = p.exact(np.linspace(0, 30, 301))
    H = P.pendulum_energy(ys)
    assert np.ptp(H) < 1e-12  # the exact flow conserves H
    np.testing.assert_allclose(H, ys[1] ** 2 / 2 - np.cos(ys[0]), rtol=1e-15)  # H by hand
    ts = np.linspace(0, 10, 101)  # q0 = 1e-3: ω shift ~ q0²/16
    diff = P.pendulum(q0=1e-3).exact(ts) - P.harmonic_oscillator(1.0, q0=1e-3).exact(ts)
    assert np.abs(diff).max() < 1e-9
    assert P.pendulum(q0=0.0, p0=2.5).exact is None  # above the separatrix


EPS = np.finfo(float).eps


def _amplitude_reference(m1):
    """u(φ) = F(φ | 1 - m1), the time (in units of 1/ω) at amplitude φ, by DOP853.

    Independent of the Jacobi/AGM code under test.  With tan θ = sinh s,
    F(φ) = ∫_0^{asinh tan φ} ds / sqrt(1 + m1 sinh² s): a smooth integrand even
    at the separatrix, where the textbook one, 1/sqrt(1 - m sin²θ), is a spike
    of height 1/sqrt(m1).  Its tail beyond S = ln(2/sqrt(m1)) + 40 is < e^-40.
    Returns F for any φ (F(jπ + r) = 2jK + F(r), F odd) and the relative error
    of K against scipy.special.ellipkm1 (Cephes), the reference's own accuracy."""
    S = math.log(2.0 / math.sqrt(m1)) + 40.0
    sol = solve_ivp(
        lambda s, U: 1.0 / np.sqrt(1.0 + m1 * np.sinh(s) ** 2),
        (0.0, S),
        [0.0],
        method="DOP853",
        rtol=1e-13,
        atol=1e-13,
        dense_output=True,
    )
    K = sol.y[0, -1]

    def F(phi):
        j = np.round(phi / math.pi)
        r = phi - j * math.pi
        s = np.minimum(np.arcsinh(np.tan(np.abs(r))), S)
        return 2 * j * K + np.sign(r) * np.where(np.abs(r) >= math.pi / 2, K, sol.sol(s)[0])

    return F, abs(K / scipy.special.ellipkm1(m1) - 1)


def _separatrix_cases():
    """(q0, p0, g/l, m1, φ0) up to the refusal limit 1 - m >= 1e-16, both signs of q0
    and p0, with m1 = 1 - m known to a rounding unit: p0 = 0 (m1 = cos²(q0/2)), or
    q0 = 2πj and v = p0/(2ω) = 1 - 2^-n exact (m1 = (1 - v)(1 + v) exactly)."""
    out = []
    for m1 in [0.99, 0.5, 1e-1] + [10.0**-e for e in range(2, 16)] + [1.000001e-16]:
        q0 = 2 * math.acos(math.sqrt(m1))
        out += [
            (q0, 0.0, 1.0, math.cos(q0 / 2) ** 2, math.pi / 2),
            (-q0, 0.0, 9.81 / 0.3, math.cos(q0 / 2) ** 2, -math.pi / 2),
        ]
    for n in (1, 4, 10, 20, 26, 40, 50, 53):
        v = 1.0 - 2.0**-n  # 2v and 6v are exact for n <= 50
        out += [(0.0, 2 * v, 1.0, (1 - v) * (1 + v), 0.0)]
        if n <= 50:
            out += [(2 * math.pi, -2 * v * 3, 9.0, (1 - v) * (1 + v), math.pi)]
    return out


@pytest.mark.parametrize("q0,p0,g_over_l,m1,phi0", _separatrix_cases())
def test_pendulum_exact_up_to_the_separatrix_and_long_times(q0, p0, g_over_l, m1, phi0):
    """exact() against the DOP853 amplitude reference at 40 points of the first
    period and after ~10 to ~10^6 half-periods, up to the longest allowed span
    ω(t - t0) = 1e7: a relative period error ρ would show as 2ρu there."""
    w, m = math.sqrt(g_over_l), 1.0 - m1
    F, k_err = _amplitude_reference(m1)
    p = P.pendulum(q0=q0, p0=p0, g_over_l=g_over_l, t_span=(0.0, 1e7 / w))
    phi = phi0 + np.concatenate(
        [
            np.linspace(0, 2 * math.pi, 41)[1:],
            math.pi * np.array([10.3, 101.7, 1000.1, 1e4 + 0.4, 1e5 + 0.55, 1e6 - 0.2]),
        ]
    )
    u = F(phi) - F(phi0)  # ω(t - t0) at which the amplitude is φ
    phi, u = phi[u <= 1e7], u[u <= 1e7]
    k = math.sqrt(m)  # sin(q/2) = k sin φ, p = 2kω cos φ
    q_ref = 2 * math.pi * round(q0 / (2 * math.pi)) + 2 * np.arctan2(
        k * np.sin(phi), np.sqrt(m1 + m * np.cos(phi) ** 2)
    )
    y = p.exact(u / w)
    err = np.maximum(np.abs(y[0] - q_ref), np.abs(y[1] - 2 * k * w * np.cos(phi)) / w)
    # |dq/du| <= 2 and |dp/du|/ω <= 2, so a phase error δu moves the state by <= 2δu.
    # δu: the reference's relative error (its K against Cephes, floored at 2e-14, the
    # level DOP853 at rtol=1e-13 reaches here) plus ~10 eps for ours, times u, plus
    # an absolute 1e-12 for the dense-output interpolation; a factor 2 of margin.
    tol = 2 * 2 * ((max(k_err, 2e-14) + 10 * EPS) * u + 1e-12)
    assert u[-1] > 1e6 and np.all(err <= tol), (err / tol).max()


@pytest.mark.parametrize(
    "q0,p0,g_over_l,t1",
    [  # 1 - m from 0.89 down to 1e-5
        (2.0, 0.0, 1.0, 1000.0),
        (-2.9, 0.1, 1.0, 200.0),
        (0.6, -1.9, 9.81 / 0.3, 50.0),
        (3.1, -0.02, 4.0, 150.0),
        (0.0, 1.99999, 1.0, 100.0),
        (0.3, -1.9775, 1.0, 100.0),
        (2 * math.pi + 1.0, 0.05, 1.0, 200.0),
    ],
)
def test_pendulum_exact_against_dop853_on_the_pendulum_itself(q0, p0, g_over_l, t1):
    """The Jacobi-elliptic exact solution against DOP853 (rtol = atol = 1e-13) on
    q' = p, p' = -(g/l) sin q, over up to 1000/ω (~160 periods), both signs of q0, p0.
    Closer to the separatrix DOP853's energy drift swamps the check: see the
    amplitude reference above."""
    p = P.pendulum(q0=q0, p0=p0, g_over_l=g_over_l, t_span=(0.0, t1))
    ts = np.linspace(0.0, t1, 301)
    ref = solve_ivp(p.f, (0.0, t1), p.y0, method="DOP853", t_eval=ts, rtol=1e-13, atol=1e-13)
    w2, y = g_over_l, p.exact(ts)
    m1 = math.cos(q0 / 2) ** 2 - p0 * p0 / (4 * w2)  # 1 - m, to ~4 eps/m1 relative
    # DOP853's own error: its energy drift δH changes 1 - m by δm1 = δH/(2ω²) and so the
    # period by a relative |d ln K/d m1| δm1 <= δm1/(π m1); over ωt that is a phase error
    # <= ωt δm1/(π m1) and a state error <= 2 of that.  A drift-free floor of 1e-10 covers
    # its local errors; the tolerance grows with t and near the separatrix, as the error does.
    dH = np.maximum.accumulate(np.abs(P.pendulum_energy(ref.y, w2) - P.pendulum_energy(p.y0, w2)))
    dm1 = dH / (2 * w2) + 4 * EPS
    tol = 2 * math.sqrt(w2) * ts * dm1 / (math.pi * m1) + 2 * dm1 / math.sqrt(m1) + 1e-10
    assert np.all(np.abs(ref.y - y).max(axis=0) <= tol)
    assert np.median(tol) < 1e-5  # the check has teeth


def test_pendulum_reported_case_near_the_top():
    """q0 = 3.14159, p0 = 0 (1 - m = 1.8e-12): the old exact(10) gave q = 3.14159078,
    past the turning point; DOP853 (rtol = atol = 1e-13) gives 3.11237."""
    p = P.pendulum(q0=3.14159, t_span=(0.0, 10.0))
    ts = np.linspace(0.0, 10.0, 11)
    ref = solve_ivp(p.f, p.t_span, p.y0, method="DOP853", t_eval=ts, rtol=1e-13, atol=1e-13)
    y = p.exact(ts)
    assert np.all(y[0] <= 3.14159) and abs(y[0, -1] - 3.1123686) < 1e-7
    # Near the top x = π - q obeys x'' ≈ x: x grows from 2.7e-6 to 0.029 like cosh t, and
    # so does every local error of DOP853 (<= atol + rtol·π ≈ 4e-13 per step): about
    # 4e-13 · Σ e^(10 - t_i) ≈ 4e-13 · e^10 / h ≈ 2e-7 with steps h ≳ 0.05.
    assert np.abs(ref.y - y).max() <= 2e-7


def test_robertson_conservation_and_reference_value():
    p = P.robertson(t_span=(0.0, 1e5))
    sol = solve_ivp(p.f, p.t_span, p.y0, method="Radau", rtol=1e-6, atol=1e-10, jac=p.jac)
    assert sol.success and np.abs(sol.y.sum(axis=0) - 1).max() < 1e-12
    # y1(40) = 0.7158271 is the value in Hairer & Wanner's test set; a second method agrees
    y40 = P.reference_solution(P.robertson(), [40.0], method="BDF", rtol=1e-10)[:, 0]
    assert abs(y40[0] - 0.7158271) < 1e-6 and abs(y40[1] - 9.185535e-6) < 1e-11


def test_van_der_pol_period_amplitude_and_reference():
    mu = 100.0
    p = P.van_der_pol(mu=mu, t_span=(0.0, 250.0))
    sol = solve_ivp(
        p.f,
        p.t_span,
        p.y0,
        method="Radau",
        rtol=1e-6,
        atol=1e-8,
        jac=p.jac,
        events=lambda t, y: y[0],
    )
    period = 2 * np.diff(sol.t_events[0][-3:]).mean()
    asymptotic = (3 - 2 * math.log(2)) * mu + 3 * 2.33811 * mu ** (-1 / 3)
    assert abs(period / asymptotic - 1) < 2e-3
    assert abs(np.abs(sol.y[0]).max() - 2.0) < 0.01
    q = P.van_der_pol(mu=1.0, t_span=(0.0, 4.0))  # non-stiff: Radau ≈ DOP853
    ts = np.linspace(0, 4, 5)
    diff = P.reference_solution(q, ts, rtol=1e-10) - P.reference_solution(q, ts, method="DOP853")
    assert np.abs(diff).max() < 1e-8


def test_scipy_work_on_the_seed_stiff_problem():
    p = P.stiff_cosine()  # λ = -1000 on [0, 1], the seed's SciPy run
    nfev = {}
    for m in ("RK45", "DOP853", "Radau", "BDF", "LSODA"):
        s = solve_ivp(p.f, p.t_span, p.y0, method=m, rtol=1e-6, atol=1e-9)
        assert s.success and abs(s.y[0, -1] - p.exact(1.0)[0]) < 1e-5
        nfev[m] = s.nfev
    print("stiff cosine nfev:", nfev)
    for implicit in ("Radau", "BDF"):
        assert nfev["RK45"] > 10 * nfev[implicit] and nfev["DOP853"] > 10 * nfev[implicit]


def test_flexible_joint_eigenvalues_match_the_two_inertia_formula():
    Jl, Jm, K, D = 0.05, 0.01, 1e4, 2.0
    Je = Jl * Jm / (Jl + Jm)
    free = P.flexible_joint(J_link=Jl, J_motor=Jm, K=K, D=D, b_motor=0.0, mgd=0.0)
    lam = P.jacobian_eigenvalues(free)
    sigma = -D / (2 * Je)
    fast = sigma + 1j * math.sqrt(K / Je - sigma**2)
    np.testing.assert_allclose(sorted(lam, key=lambda z: z.imag)[-1], fast, rtol=1e-10)
    assert np.abs(lam[np.abs(lam) < 1]).max() < 1e-6 * abs(fast)  # the double zero
    assert P.stiffness_ratio(free) == math.inf


def test_flexible_joint_stiffness_scaling():
    base = P.flexible_joint()
    Je = 0.05 * 0.01 / 0.06
    assert abs(np.abs(P.jacobian_eigenvalues(base)).max() / math.sqrt(1e4 / Je) - 1) < 0.01
    rho = {
        K: (
            P.stiffness_ratio(P.flexible_joint(K=K)),
            P.stiffness_ratio(P.flexible_joint(K=K), measure="modulus"),
        )
        for K in (1e4, 1e6)
    }
    assert min(rho[1e4]) > 100
    assert abs(rho[1e6][1] / rho[1e4][1] / 10 - 1) < 0.02  # |λ| ratio ∝ sqrt K
    assert abs(rho[1e6][0] / rho[1e4][0] - 1) < 0.02  # Re-part ratio does not grow
    # holding the damping ratio fixed (D ∝ sqrt K) makes the Re-part ratio grow too
    r_hi = P.stiffness_ratio(P.flexible_joint(K=1e6, D=20.0))
    assert abs(r_hi / rho[1e4][0] / 10 - 1) < 0.05


def test_dc_motor_time_constants_and_scaling():
    R, L, k, J, b = 2.0, 0.5e-3, 0.02, 1e-5, 1e-6
    lam = P.jacobian_eigenvalues(P.dc_motor())
    assert abs(lam[0].real / (-R / L) - 1) < 0.01
    assert abs(lam[1].real / (-(b + k * k / R) / J) - 1) < 0.01
    r1 = P.stiffness_ratio(P.dc_motor())
    r10 = P.stiffness_ratio(P.dc_motor(L=L / 10))
    assert r1 > 100 and abs(r10 / r1 / 10 - 1) < 0.03
    p = P.dc_motor()
    i_ss, w_ss = p.exact(10.0)  # steady state, by hand
    assert abs(w_ss - k * 12.0 / (R * b + k * k)) < 1e-9 * w_ss and abs(i_ss - b * w_ss / k) < 1e-9


def test_penalty_contact_rest_state_and_stiffness():
    p = P.penalty_contact()
    y = contact_rest(p)
    np.testing.assert_allclose(p.f(0.0, y), 0.0, atol=1e-9)
    assert min(P.stiffness_ratio(p, y=y), P.stiffness_ratio(p, y=y, measure="modulus")) > 100
    fast = np.abs(P.jacobian_eigenvalues(p, y=y)).max()
    assert abs(fast / math.sqrt((5e5 + 2000) / 0.1) - 1) < 0.02
    assert P.stiffness_ratio(p) == math.inf  # free fall: zero eigenvalues
    assert P.stiffness_ratio(p, ignore_zero=True) == pytest.approx(1.0)
    sol = solve_ivp(p.f, (0, 0.4), p.y0, method="Radau", rtol=1e-6, atol=1e-9, jac=p.jac)
    assert sol.success and sol.y[1].min() > -1e-3  # the foot lands, no tunnelling


@pytest.mark.parametrize(
    "call,exc,word",
    [
        (lambda: P.stiff_cosine(lam=0.0), ValueError, "lam"),
        (
            lambda: P.stiff_cosine(lam=1000.0),
            ValueError,
            "rate 1000 is lam = -1000",
        ),  # the seed's λ
        (lambda: P.stiff_cosine(lam=float("nan")), ValueError, "lam"),
        (lambda: P.stiff_cosine(t_span=(1.0, 0.0)), ValueError, "t_span"),
        (lambda: P.dahlquist(lam="fast"), TypeError, "lam"),
        (lambda: P.dahlquist(lam=complex(1, float("inf"))), ValueError, "lam"),
        (lambda: P.dahlquist(lam=-1.0, y0=1j), TypeError, "y0"),
        (lambda: P.logistic(y0=0.0), ValueError, "y0"),
        (lambda: P.robertson(k2=float("inf")), ValueError, "k2"),
        (lambda: P.van_der_pol(y0=[1, 2, 3]), ValueError, "y0"),
        (lambda: P.pendulum(g_over_l=0), ValueError, "g_over_l"),
        (lambda: P.harmonic_oscillator(omega=-1), ValueError, "omega"),
        (lambda: P.flexible_joint(K=-1e4), ValueError, "K"),
        (lambda: P.flexible_joint(y0=[0, 0]), ValueError, "y0"),
        (lambda: P.penalty_contact(k_c=float("nan")), ValueError, "k_c"),
        (lambda: P.dc_motor(L=0.0), ValueError, "L"),
        (lambda: P.stiffness_ratio(P.dc_motor(), measure="imag"), ValueError, "measure"),
        (lambda: P.stiffness_ratio(P.dc_motor(), y=[1, 2, 3]), ValueError, "y"),
        (lambda: P.stiffness_ratio("dc_motor"), TypeError, "problem"),
        (lambda: P.reference_solution(P.dc_motor(), [0.5]), ValueError, "t_eval"),
        (lambda: P.pendulum_energy(np.zeros(3)), ValueError, "y"),
    ],
)
def test_bad_input_names_the_parameter(call, exc, word):
    with pytest.raises(exc, match=word):
        call()


def test_catalogue_returns_odeproblems_with_units():
    for fn in (
        P.logistic,
        P.dahlquist,
        P.stiff_cosine,
        P.van_der_pol,
        P.robertson,
        P.harmonic_oscillator,
        P.pendulum,
        P.flexible_joint,
        P.penalty_contact,
        P.dc_motor,
    ):
        p = fn()
        assert isinstance(p, rn.ODEProblem) and p.jac is not None and p.params and p.name
    assert "K_Nm_per_rad" in P.flexible_joint().params


def test_stiff_linear_has_the_eigenvalues_it_is_built_from():
    """The eigenvalues of ``A`` come back from LAPACK within a few ``eps·|A|`` (an absolute
    error: on the slowest rate, 1, that is ~1e-10 relative at stiffness 1e6), so the
    measured stiffness ratio is the one asked for to 1e-8."""
    p = P.stiff_linear(n=5, stiffness=1e6, seed=7)
    lam = np.sort(P.jacobian_eigenvalues(p).real)
    np.testing.assert_allclose(lam, np.sort(p.params["eigenvalues_per_time"]), rtol=1e-8)
    assert P.stiffness_ratio(p) == pytest.approx(1e6, rel=1e-8)
    assert np.abs(P.jacobian_eigenvalues(p).imag).max() <= 64 * EPS * 1e6  # A is symmetric
