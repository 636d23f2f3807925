"""The chain of n elastic joints (robonum.problems.chains).

Truth used: the single elastic joint of the catalogue (n = 1 is the same
model, reordered); complex-step derivatives for the analytic Jacobian;
energy conservation (D = b = tau = 0) and dissipation (dE/dt <= 0) along
SciPy DOP853 solutions at rtol 1e-12; Gershgorin's bound and the rigid
swing frequency for the eigenvalues; bad input refused by name.
"""

import itertools
import math
import warnings

import numpy as np
import pytest
from scipy.integrate import solve_ivp

import robonum as rn
from robonum.finite_diff import jacobian_fd
from robonum.problems.chains import MAX_LINKS, chain_energy, flexible_chain

PERM = [1, 0, 3, 2]  # flexible_joint's (q_l, q_m, ω_l, ω_m) -> chain's (q_0, q_1, ω_0, ω_1)


def test_one_link_is_the_flexible_joint():
    fj, ch = rn.problems.flexible_joint(), flexible_chain(n=1)
    rng = np.random.default_rng(0)
    for _ in range(5):
        y = rng.normal(size=4) * [1.0, 1.0, 10.0, 10.0]
        assert np.array_equal(fj.f(0.0, y)[PERM], ch.f(0.0, y[PERM]))
        assert np.array_equal(fj.jac(0.0, y)[np.ix_(PERM, PERM)], ch.jac(0.0, y[PERM]))
    assert np.array_equal(ch.y0, fj.y0[PERM])


@pytest.mark.parametrize("n, K3", [(1, 0.0), (3, 3e9), (8, 1e11)])
def test_jacobian_matches_the_complex_step(n, K3):
    p = flexible_chain(n=n, K3=K3, twist=2e-3, D=3.0, b_link=0.1)
    rng = np.random.default_rng(n)
    y = p.y0 + rng.normal(size=p.n) * np.r_[np.full(n + 1, 1e-3), np.full(n + 1, 1.0)]
    J = p.jac(0.0, y)
    Jc = jacobian_fd(lambda v: p.f(0.0, v), y, scheme="complex")
    # complex step: no subtraction, error at rounding level of the largest entry
    assert np.max(np.abs(Jc - J)) < 50 * np.finfo(float).eps * np.max(np.abs(J))


def test_state_layout_and_start():
    p = flexible_chain(n=5, q0=0.2, twist=1e-3)
    assert p.n == 12 and p.params["n_links"] == 5
    assert np.allclose(p.y0[:6], 0.2 + 1e-3 * np.arange(6)) and not np.any(p.y0[6:])


def _run(p, T):
    return solve_ivp(p.f, (0.0, T), p.y0, method="DOP853", rtol=1e-12, atol=1e-14)


def test_energy_is_conserved_without_damping():
    p = flexible_chain(n=3, K3=3e9, twist=1e-3, D=0.0, b_link=0.0, b_motor=0.0)
    s = _run(p, 0.2)
    E = chain_energy(p, s.y)
    assert np.max(np.abs(E - E[0])) < 1e-9 * abs(E[0])
    assert chain_energy(p, p.y0) == pytest.approx(E[0], abs=0)


def test_energy_decreases_with_damping():
    p = flexible_chain(n=3, K3=3e9, twist=1e-3, D=2.0, b_link=0.05)
    s = _run(p, 0.2)
    E = chain_energy(p, s.y)
    assert np.all(np.diff(E) <= 1e-10)  # dE/dt = -D Σ(Δω)² - Σ b ω² <= 0
    assert E[0] - E[-1] > 1e-3  # the twist's spring energy is damped out


def test_energy_formula_by_hand():
    p = flexible_chain(n=1, K3=2e9, J_link=0.1, J_motor=0.02, mgd=3.0)
    y = np.array([0.1, 0.4, 2.0, -1.0])
    d = 0.3
    E = (
        0.5 * 0.02 * 4.0
        + 0.5 * 0.1 * 1.0
        + 0.5 * 1e4 * d**2
        + 0.25 * 2e9 * d**4
        - 3.0 * math.cos(0.4)
    )
    assert chain_energy(p, y) == pytest.approx(E, rel=1e-14)
    assert chain_energy(p, np.column_stack([y, y])).shape == (2,)


@pytest.mark.parametrize("n", [1, 4, 16, 64])
def test_eigenvalues_gershgorin_and_rigid_swing(n):
    p = flexible_chain(n=n, D=0.0, b_link=0.0, b_motor=0.0)  # undamped: λ = ±iω
    ev = np.linalg.eigvals(p.jac(0.0, p.y0))
    K, Jm, Jl, mgd = 1e4, 0.01, 0.05, 1.962
    assert np.max(np.abs(ev.real)) < 1e-8 * np.max(np.abs(ev))
    assert np.max(np.abs(ev)) ** 2 <= max(2 * K / Jm, (4 * K + mgd) / Jl) * (1 + 1e-12)
    slow = math.sqrt(n * mgd * math.cos(0.5) / (Jm + n * Jl))
    assert abs(np.min(np.abs(ev)) - slow) < 0.02 * slow  # springs stiff: the chain swings as one


def test_stiffness_grows_with_K():
    ratios = [
        rn.problems.stiffness_ratio(flexible_chain(n=4, K=K), measure="modulus")
        for K in (1e3, 1e4, 1e5)
    ]
    assert ratios[0] < ratios[1] < ratios[2]
    assert ratios[2] / ratios[1] == pytest.approx(math.sqrt(10), rel=0.05)  # fast |λ| ∝ √K


# ------------------------------------------------------------- bad input --
BAD = {
    "nan": float("nan"),
    "inf": float("inf"),
    "bigint": 10**400,
    "bool": True,
    "str": "abc",
    "none": None,
    "complex": 1j,
    "empty": [],
    "matrix": [[1, 2], [3, 4]],
}
REALS = ["J_link", "J_motor", "K", "K3", "D", "b_link", "b_motor", "mgd", "tau", "q0", "twist"]
RANGES = dict(
    J_link=(1e-6, 1e3),
    J_motor=(1e-8, 10.0),
    K=(1.0, 1e7),
    K3=(0.0, 1e13),
    D=(0.0, 1e4),
    b_link=(0.0, 1e3),
    b_motor=(0.0, 1e3),
    mgd=(0.0, 1e4),
    tau=(-1e4, 1e4),
    q0=(-1e3, 1e3),
    twist=(-1.0, 1.0),
)


@pytest.mark.parametrize("param, label", list(itertools.product(REALS + ["n"], BAD)))
def test_bad_values_are_refused_by_name(param, label):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises((TypeError, ValueError), match=param):
            flexible_chain(**{param: BAD[label]})


@pytest.mark.parametrize("param", list(RANGES))
def test_documented_ranges_are_exact(param):
    lo, hi = RANGES[param]
    for inside in (lo, hi):
        p = flexible_chain(**{param: inside}, t_span=(0.0, 1e4))
        assert np.all(np.isfinite(p.f(0.0, p.y0))) and np.all(np.isfinite(p.jac(0.0, p.y0)))
    for outside in (np.nextafter(lo, -np.inf), np.nextafter(hi, np.inf)):
        with pytest.raises(ValueError, match=param):
            flexible_chain(**{param: float(outside)})


def test_n_and_span_limits():
    assert flexible_chain(n=MAX_LINKS).n == 2 * (MAX_LINKS + 1)
    for bad in (0, MAX_LINKS + 1, -3):
        with pytest.raises(ValueError, match="n must be an integer in"):
            flexible_chain(n=bad)
    with pytest.raises(TypeError, match="n must be an integer"):
        flexible_chain(n=4.0)
    with pytest.raises(ValueError, match="t_span"):
        flexible_chain(t_span=(0.0, 1e4 + 1.0))


def test_corners_stay_finite():
    """Every range end of the stiff parameters together, with the largest twist and q0."""
    names = ["K", "K3", "D", "mgd", "twist", "q0", "J_motor", "J_link"]
    for ends in itertools.product(*[RANGES[n] for n in names]):
        p = flexible_chain(n=3, **dict(zip(names, ends)))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert np.all(np.isfinite(p.f(0.0, p.y0))) and np.all(np.isfinite(p.jac(0.0, p.y0)))


def test_chain_energy_bad_input():
    p = flexible_chain(n=2)
    with pytest.raises(TypeError, match="problem"):
        chain_energy(rn.problems.flexible_joint(), p.y0)
    with pytest.raises(TypeError, match="problem"):
        chain_energy(None, p.y0)
    with pytest.raises(ValueError, match="y must have shape"):
        chain_energy(p, np.ones(5))
    with pytest.raises(TypeError, match="y"):
        chain_energy(p, [True] * 6)
    with pytest.raises(TypeError, match="y"):
        chain_energy(p, np.ones(6) * 1j)
