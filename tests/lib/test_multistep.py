"""BDF coefficients, root condition, boundary locus and A(alpha) angles.

Independent truths: exactness of BDF-k on polynomials of degree <= k; the
classical closed form rho(zeta) = beta0 * sum_{j=1}^k (1/j) zeta^(k-j) (zeta-1)^j
(Hairer, Norsett & Wanner I, sec. III.1); literature A(alpha) angles
(Hairer & Wanner II, sec. V.2); hand-derived loci of BDF1/BDF2.
"""

from fractions import Fraction

import matplotlib
import numpy as np
import pytest

import robonum as rn
from robonum.analysis import multistep as ms

matplotlib.use("Agg")


def bdf(k):
    """(alpha, beta) arrays of BDF-k from the catalogue object (newest value first)."""
    m = rn.methods.bdf(k, allow_unstable=k > 6)
    return m.alpha, m.beta


def _harmonic(k):
    return sum(Fraction(1, j) for j in range(1, k + 1))


def test_bdf_known_table():
    assert ms.bdf_coefficients(1, exact=True) == ([1, -1], 1)
    assert ms.bdf_coefficients(2, exact=True) == (
        [1, Fraction(-4, 3), Fraction(1, 3)],
        Fraction(2, 3),
    )
    assert ms.bdf_coefficients(3, exact=True) == (
        [1, Fraction(-18, 11), Fraction(9, 11), Fraction(-2, 11)],
        Fraction(6, 11),
    )
    alpha, beta0 = ms.bdf_coefficients(6)
    assert alpha.dtype == float and alpha[0] == 1.0
    assert beta0 == pytest.approx(60 / 147, rel=1e-15)


@pytest.mark.parametrize("k", range(1, 10))
def test_bdf_exact_on_polynomials(k):
    """sum alpha_j y(t_{n+1} - j h) = h beta0 y'(t_{n+1}) for y = (t - t0)^q, q <= k."""
    alpha, beta0 = ms.bdf_coefficients(k, exact=True, allow_unstable=True)
    assert beta0 == 1 / _harmonic(k)
    t1, h = Fraction(7, 5), Fraction(1, 3)
    for q in range(k + 2):
        lhs = sum(a * (t1 - j * h) ** q for j, a in enumerate(alpha))
        rhs = h * beta0 * (q * t1 ** (q - 1) if q else 0)
        if q <= k:
            assert lhs == rhs
        else:  # order exactly k: degree k+1 is not reproduced
            assert lhs != rhs


@pytest.mark.parametrize("k", range(1, 12))
def test_bdf_rho_closed_form(k):
    alpha, beta0 = ms.bdf_coefficients(k, exact=True, allow_unstable=True)
    rho = np.zeros(k + 1, dtype=object) * Fraction(0)
    for j in range(1, k + 1):
        term = np.array([Fraction(1)], dtype=object)
        for _ in range(j):
            term = np.convolve(term, np.array([Fraction(1), Fraction(-1)], dtype=object))
        term = np.concatenate([term, [Fraction(0)] * (k - j)])  # times zeta^(k-j)
        rho = rho + Fraction(1, j) * term
    assert list(beta0 * rho) == alpha


@pytest.mark.parametrize("k", range(1, 7))
def test_lmm_order_of_bdf(k):
    alpha, beta0 = ms.bdf_coefficients(k, exact=True)
    assert ms.lmm_order(alpha, [beta0] + [Fraction(0)] * k) == k
    a, b0 = ms.bdf_coefficients(k)
    assert ms.lmm_order(a, np.r_[b0, np.zeros(k)]) == k


def test_lmm_order_other_methods():
    F = Fraction
    assert ms.lmm_order([F(1), F(-1), F(0)], [F(0), F(3, 2), F(-1, 2)]) == 2  # Adams-Bashforth 2
    assert ms.lmm_order([F(1), F(-1)], [F(1, 2), F(1, 2)]) == 2  # trapezoid
    assert ms.lmm_order([1.0, 0.0, -1.0], [0.0, 2.0, 0.0]) == 2  # leapfrog
    assert ms.lmm_order([F(1), F(0), F(-1)], [F(1, 3), F(4, 3), F(1, 3)]) == 4  # Milne-Simpson


@pytest.mark.parametrize("k", range(1, 7))
def test_bdf_1_to_6_zero_stable(k):
    res = ms.zero_stability(ms.bdf_coefficients(k)[0])
    assert res.stable, res.reason
    assert res.max_modulus == pytest.approx(1.0, abs=1e-12)  # the root zeta = 1


@pytest.mark.parametrize("k", range(7, 12))
def test_bdf_7_plus_not_zero_stable(k):
    alpha, _ = ms.bdf_coefficients(k, allow_unstable=True)
    res = ms.zero_stability(alpha)
    assert not res.stable
    r = res.roots[0]
    assert abs(r) == pytest.approx(res.max_modulus) and abs(r) > 1.01
    assert abs(np.polyval(alpha, r)) < 1e-10  # it really is a root of rho
    # Independent: rho has a root outside the disc iff the companion eigenvalues do.
    comp = np.diag(np.ones(k - 1), -1)
    comp[0, :] = -alpha[1:]
    assert np.abs(np.linalg.eigvals(comp)).max() == pytest.approx(res.max_modulus, rel=1e-8)


def test_root_condition_cases():
    assert ms.zero_stability([1.0, 0.0, -1.0]).stable  # leapfrog: roots +1, -1 simple
    double = ms.zero_stability([1.0, -2.0, 1.0])  # (zeta - 1)^2
    assert not double.stable and "not simple" in double.reason
    assert not ms.zero_stability([1.0, -3.0, 2.0]).stable  # root 2


def test_boundary_locus_bdf1_bdf2():
    th = np.linspace(0, 2 * np.pi, 721)
    z1 = rn.methods.get("bdf1").boundary_locus(th)
    np.testing.assert_allclose(np.abs(z1 - 1.0), 1.0, atol=1e-14)  # z = 1 - e^{-i theta}
    z2 = rn.methods.get("bdf2").boundary_locus(th)
    np.testing.assert_allclose(z2.real, (1 - np.cos(th)) ** 2, atol=1e-13)


@pytest.mark.parametrize(
    "k, alpha_deg", [(1, 90.0), (2, 90.0), (3, 86.03), (4, 73.35), (5, 51.84), (6, 17.84)]
)
def test_bdf_alpha_angle(k, alpha_deg):
    a = rn.methods.get(f"bdf{k}").alpha_angle()
    assert a == pytest.approx(alpha_deg, abs=0.006)
    rho, sigma = bdf(k)
    r = np.logspace(-3, 4, 600)
    inside = -r * np.exp(1j * np.radians(a - 0.05))  # just inside the sector
    assert ms.lmm_is_stable(rho, sigma, np.r_[inside, inside.conj()]).all()
    if k >= 3:  # just outside: some point on the ray is unstable (root counting)
        outside = -r * np.exp(1j * np.radians(a + 0.05))
        assert not ms.lmm_is_stable(rho, sigma, outside).all()


def test_region_membership_bdf():
    rho, sigma = bdf(1)
    assert ms.lmm_is_stable(rho, sigma, [-1e3, -1.0, 3.0, 1e3j]).all()  # exterior of |z-1|=1
    assert not ms.lmm_is_stable(rho, sigma, [1.0, 0.5 + 0.5j]).any()
    for k in range(1, 7):
        rho, sigma = bdf(k)
        assert ms.max_root_modulus(rho, sigma, 1.0 / sigma[0]) == np.inf  # leading coef 0
        assert ms.lmm_is_stable(rho, sigma, -np.logspace(-4, 6, 50)).all()  # negative axis


def test_plot_bdf_region():
    import matplotlib.pyplot as plt

    from robonum.plotting import plot_stability_region

    res = plot_stability_region("bdf1", xlim=(-1, 3), ylim=(-2, 2), n=201)
    X, Y = np.meshgrid(res.x, res.y)
    expected = np.abs(X + 1j * Y - 1) >= 1
    ring = np.abs(np.abs(X + 1j * Y - 1) - 1) < 0.05  # grid points near the circle
    assert (res.mask == expected)[~ring].all()
    assert res.ax.get_xlabel() == "Re z" and res.ax.get_ylabel() == "Im z"
    plt.close("all")


def test_bad_input():
    with pytest.raises(ValueError, match="k"):
        ms.bdf_coefficients(7)
    with pytest.raises(ValueError, match="k"):
        ms.bdf_coefficients(0)
    with pytest.raises(TypeError, match="k"):
        ms.bdf_coefficients(2.0)
    with pytest.raises(ValueError, match="beta"):
        ms.boundary_locus([1, -1], [1, 0, 0])
    with pytest.raises(ValueError, match="alpha"):
        ms.zero_stability([0.0, 1.0])
    with pytest.raises(ValueError, match="z"):
        ms.max_root_modulus([1, -1], [1, 0], np.inf)
    with pytest.raises(ValueError, match="exterior of the boundary locus"):
        rn.methods.adams_moulton(2).alpha_angle()
    with pytest.raises(ValueError, match="alpha must have"):
        ms.lmm_order([], [])  # was silently 21
    with pytest.raises(ValueError, match="finite"):
        ms.lmm_order([1.0, np.nan], [0.0, 1.0])
    with pytest.raises(ValueError, match="claimed order 3"):
        rn.methods.LinearMultistep("wrong", [1, -1], [0, 1], order=3)
    with pytest.raises(ValueError, match="not zero-stable"):
        rn.methods.LinearMultistep("unstable", [1, -3, 2], [0, 0, 1])
    with pytest.raises(ValueError, match="points; at most"):
        ms.max_root_modulus([1, -1], [1, 0], np.zeros(3_000_000))


def test_lmm_objects_carry_their_analysis():
    """A-stability by the locus: BDF1/2 and the trapezoid are A-stable, BDF3 and AB2 are not;
    error constants C_{p+1}/sigma(1) by hand: trapezoid (1/6 - 1/4)/1 = -1/12; BDF2
    C_3 = ((-4/3)(-1) + (1/3)(-8))/6 = -2/9 and sigma(1) = 2/3, so -1/3 (HNW I, sec. III.2)."""
    trap = rn.methods.adams_moulton(1)
    assert trap.order == 2 and trap.is_A_stable() and trap.error_constant() == Fraction(-1, 12)
    assert rn.methods.get("bdf2").error_constant() == Fraction(-1, 3)
    assert rn.methods.get("bdf1").is_A_stable() and rn.methods.get("bdf2").is_A_stable()
    assert not rn.methods.get("bdf3").is_A_stable()
    assert not rn.methods.adams_bashforth(2).is_A_stable()
    rho = rn.methods.get("bdf2").rho  # ascending: 1/3 - 4/3 zeta + zeta^2
    np.testing.assert_allclose(rho.coef, [1 / 3, -4 / 3, 1.0], rtol=1e-15)
