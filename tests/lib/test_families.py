"""Families of multistep methods: the two-step family, NDF, where A-stability is lost.

Independent truths: the catalogue's Adams and BDF methods (members of the
two-step family); a hand derivation of Re(rho conj sigma) on the unit circle
(in robonum.methods.families' docstring), giving the A-stability threshold
b = (1 - a)/12 in closed form; the order conditions written out by hand;
SciPy's BDF solver (its NDF constants ``alpha = (1 - kappa) gamma`` and
``error_const = kappa gamma + 1/(k+1)``); the stability angles of
Shampine & Reichelt (1997), Table 1 (whole degrees, truncated).
"""

import math
from fractions import Fraction as F

import numpy as np
import pytest
from scipy.integrate import BDF

import robonum as rn
from robonum.methods import families as fam


def _same_method(m1, m2):
    """Same (alpha, beta) up to the common scale, exactly."""
    a1, b1, a2, b2 = m1.exact["alpha"], m1.exact["beta"], m2.exact["alpha"], m2.exact["beta"]
    s = a1[0] / a2[0]
    return [x / s for x in a1] == a2 and [x / s for x in b1] == b2


@pytest.mark.parametrize(
    "a, b, other",
    [
        (0, F(-5, 12), rn.methods.adams_bashforth(2)),
        (0, 0, rn.methods.adams_moulton(2)),
        (F(1, 3), F(2, 9), rn.methods.get("bdf2")),
    ],
)
def test_two_step_contains_known_methods(a, b, other):
    assert _same_method(fam.two_step(a, b), other)


def test_two_step_trapezoid_member():
    """b = (1 - a)/12 is the trapezoid rule times (zeta - a): sigma = (zeta + 1)(zeta - a)/2."""
    for a in (F(0), F(1, 3), F(-1, 2)):
        m = fam.two_step(a, (1 - a) / 12)
        assert m.exact["beta"] == [F(1, 2), (1 - a) / 2, -a / 2]
        assert m.error_constant() == F(-1, 12)
    assert (
        fam.two_step(0, F(1, 12)).error_constant() == rn.methods.adams_moulton(1).error_constant()
    )


@pytest.mark.parametrize("a", [F(-1, 2), F(0), F(1, 3), F(4, 5)])
def test_two_step_order_and_error_constant(a):
    # order 3 at b = 0 (order conditions up to C_3 written out by hand)
    m3 = fam.two_step(a, 0)
    al, be = m3.exact["alpha"], m3.exact["beta"]
    for q in range(4):
        cq = sum(x * F(-j) ** q for j, x in enumerate(al)) / math.factorial(q)
        if q:
            cq -= sum(x * F(-j) ** (q - 1) for j, x in enumerate(be)) / math.factorial(q - 1)
        assert cq == 0
    assert m3.order == 3
    # order 2, C = -b/(1 - a), for b != 0
    for b in (F(-1, 3), F(1, 24), F(2, 5)):
        m = fam.two_step(a, b)
        assert m.order == 2
        assert m.error_constant() == -b / (1 - a)


def test_milne_simpson_is_order_four_and_not_a_stable():
    m = fam.two_step(-1, 0)
    assert m.order == 4 and m.exact["beta"] == [F(1, 3), F(4, 3), F(1, 3)]
    assert not m.is_A_stable()


def test_two_step_float_parameters():
    m = fam.two_step(0.25, 0.1)
    assert m.exact is None and m.order == 2
    assert m.error_constant() == pytest.approx(-0.1 / 0.75, rel=1e-12)


@pytest.mark.parametrize("a", [-0.9, -0.5, 0.0, 0.3, 0.7, 0.95])
def test_re_rho_conj_sigma_closed_form(a):
    b = 0.05
    m = fam.two_step(a, b)
    th = np.linspace(0, 2 * np.pi, 361)
    zeta = np.exp(1j * th)
    lhs = (m.rho(zeta) * np.conj(m.sigma(zeta))).real
    rhs = (1 - np.cos(th)) ** 2 * (1 + a) * (2 * b - (1 - a) / 6)
    assert np.allclose(lhs, rhs, atol=1e-13)


@pytest.mark.parametrize("a", [-0.9, -0.5, 0.0, 1 / 3, 0.7, 0.95])
def test_a_stable_iff_b_at_least_threshold(a):
    thr = (1 - a) / 12
    for b in (thr - 0.05, thr - 1e-4, thr + 1e-4, thr + 0.05, 2.0):
        assert fam.two_step(a, b).is_A_stable() == (b > thr), b


@pytest.mark.parametrize("a", [F(-1, 2), F(0), F(1, 3), F(9, 10)])
def test_a_stability_boundary_finds_trapezoid_threshold(a):
    b_star = fam.a_stability_boundary(lambda b: fam.two_step(a, b), -1.0, 1.0)
    assert b_star == pytest.approx(float((1 - a) / 12), abs=1e-9)
    assert fam.two_step(a, b_star).is_A_stable()  # the A-stable end is returned
    # the error constant there is the trapezoid's -1/12
    assert float(fam.two_step(a, b_star).error_constant()) == pytest.approx(-1 / 12, abs=1e-8)


def test_order_three_members_are_never_a_stable():
    """Second barrier on the family: no A-stable member of order 3."""
    for a in np.linspace(-0.99, 0.99, 23):
        assert not fam.two_step(float(a), 0.0).is_A_stable()


def test_explicit_members_have_bounded_regions():
    for a in (F(0), F(1, 3), F(-1, 2)):
        m = fam.two_step(a, -(5 + a) / 12)
        assert m.is_explicit and not m.is_A_stable()
        assert m.max_root_modulus(-50.0) > 10  # a root grows like |z|


@pytest.mark.parametrize("k", range(1, 6))
def test_ndf_matches_scipy_constants(k):
    solver = BDF(lambda t, y: -y, 0.0, [1.0], 1.0)
    m = fam.ndf(k)
    assert m.order == k and m.k == k + 1
    assert float(m.beta[0]) == pytest.approx(1 / solver.alpha[k], rel=1e-14)
    assert float(m.error_constant()) == pytest.approx(-solver.error_const[k], rel=1e-14)


@pytest.mark.parametrize("k, angle", [(1, 90), (2, 90), (3, 80), (4, 66), (5, 51)])
def test_ndf_stability_angles_shampine_reichelt(k, angle):
    m = fam.ndf(k)
    assert m.zero_stable
    assert math.floor(m.alpha_angle() + 1e-6) == angle
    assert m.is_A_stable() == (k <= 2)


@pytest.mark.parametrize("k", range(1, 6))
def test_ndf_with_kappa_zero_is_bdf(k):
    m, b = fam.ndf(k, 0), rn.methods.get(f"bdf{k}")
    assert m.exact["alpha"][:-1] == b.exact["alpha"] and m.exact["alpha"][-1] == 0
    assert m.exact["beta"][0] == b.exact["beta"][0]
    assert fam.ndf(k, 0.05).exact is None and fam.ndf(k, 0.05).order == k


def test_bad_input_is_refused_by_name():
    with pytest.raises(ValueError, match="a must be in"):
        fam.two_step(1, 0)
    with pytest.raises(ValueError, match="a must be in"):
        fam.two_step(-1.5, 0)
    with pytest.raises(ValueError, match="b must be in"):
        fam.two_step(0, 11)
    with pytest.raises(TypeError, match="b must be a real number"):
        fam.two_step(0, 1j)
    with pytest.raises(ValueError, match="k must be an integer in"):
        fam.ndf(6)
    with pytest.raises(ValueError, match="kappa must be in"):
        fam.ndf(2, 3.0)
    with pytest.raises(TypeError, match="family must be callable"):
        fam.a_stability_boundary(3, 0, 1)
    with pytest.raises(ValueError, match="lo must be < hi"):
        fam.a_stability_boundary(lambda b: fam.two_step(0, b), 1, 0)
    with pytest.raises(ValueError, match="no change of A-stability"):
        fam.a_stability_boundary(lambda b: fam.two_step(0, b), 0.5, 1.0)
    with pytest.raises(TypeError, match="must return a LinearMultistep"):
        fam.a_stability_boundary(lambda b: "bdf2", 0, 1)
    with pytest.raises(ValueError, match="max_iter must be an integer in"):
        fam.a_stability_boundary(lambda b: fam.two_step(0, b), 0, 1, max_iter=10_000)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_ndf_runs_in_the_multistep_stepper_at_its_order(k):
    problem = rn.problems.logistic(t_span=(0.0, 2.0))
    stepper = rn.Multistep(fam.ndf(k), newton=rn.NewtonOptions(tol=1e-13))
    study = rn.convergence_study(problem, stepper, rn.halving(0.05, 4))
    assert study.fitted_order() == pytest.approx(k, abs=0.25)


def test_two_step_member_runs_like_the_catalogue_method():
    problem = rn.problems.logistic(t_span=(0.0, 1.0))
    a = rn.integrate(problem, rn.Multistep(fam.two_step(F(1, 3), F(2, 9))), 0.05)
    b = rn.integrate(problem, "bdf2", 0.05)
    assert np.abs(a.y - b.y).max() < 1e3 * np.finfo(float).eps  # same method, rounding apart
