"""Stability functions, intervals, A-/L-stability against closed forms.

Independent truths: truncated exponential series for explicit methods; the
Pade formula (Hairer & Wanner II, sec. IV.3) for Gauss (s,s) and Radau IIA
(s-1,s); hand derivations for the SDIRKs (below); numpy roots / Brent on the
closed-form polynomials for the intervals; 1 - b^T A^{-1} 1 for R(inf).

SDIRK by hand (stage values Y_i for y' = lambda y, y_n = 1):
  A = [[g,0],[1-g,g]], b = [1-g,g] (stiffly accurate):
      R = Y_2 = (1 + (1-2g) z) / (1 - g z)^2,        R(inf) = 0.
  A = [[g,0],[1-2g,g]], b = [1/2,1/2]:
      R = (1 + (1-2g) z + (g^2 - 2g + 1/2) z^2) / (1 - g z)^2,
      R(inf) = (g^2 - 2g + 1/2)/g^2 = 1 - sqrt(3) for g = (3+sqrt(3))/6.
"""

import math
from fractions import Fraction as F

import matplotlib
import numpy as np
import pytest
from scipy.optimize import brentq

import robonum as rn
from robonum import methods
from robonum.analysis import a_stability as ast
from robonum.analysis import stability as st
from robonum.analysis import symplecticity as sym
from robonum.tableau import ButcherTableau

matplotlib.use("Agg")
RNG = np.random.default_rng(3)
ZS = RNG.normal(size=40) * 3 + 1j * RNG.normal(size=40) * 3
S3, S6, S15 = math.sqrt(3), math.sqrt(6), math.sqrt(15)
G_L = 1 - math.sqrt(2) / 2  # L-stable 2-stage SDIRK, order 2
G_3 = (3 + S3) / 6  # 2-stage SDIRK of order 3


def sdirk_l(g):
    return ButcherTableau("sdirk-L", A=[[g, 0], [1 - g, g]], b=[1 - g, g], order=2)


def sdirk_3(g):
    return ButcherTableau("sdirk-3", A=[[g, 0], [1 - 2 * g, g]], b=[0.5, 0.5], order=3)


def theta_method(th):
    return ButcherTableau("theta", A=[[0, 0], [1 - th, th]], b=[1 - th, th], order=1)


BOOK = {
    "backward_euler": ButcherTableau("BE", A=[[1]], b=[1], order=1),
    "trapezoid": ButcherTableau(
        "TR", A=[[0, 0], [F(1, 2), F(1, 2)]], b=[F(1, 2), F(1, 2)], order=2
    ),
    "implicit_midpoint": ButcherTableau("IM", A=[[F(1, 2)]], b=[1], order=2),
    "gauss2": ButcherTableau(
        "G2", A=[[0.25, 0.25 - S3 / 6], [0.25 + S3 / 6, 0.25]], b=[0.5, 0.5], order=4
    ),
    "gauss3": ButcherTableau(
        "G3",
        A=[
            [5 / 36, 2 / 9 - S15 / 15, 5 / 36 - S15 / 30],
            [5 / 36 + S15 / 24, 2 / 9, 5 / 36 - S15 / 24],
            [5 / 36 + S15 / 30, 2 / 9 + S15 / 15, 5 / 36],
        ],
        b=[5 / 18, 4 / 9, 5 / 18],
        order=6,
    ),
    "radau2": ButcherTableau(
        "R2", A=[[F(5, 12), F(-1, 12)], [F(3, 4), F(1, 4)]], b=[F(3, 4), F(1, 4)], order=3
    ),
    "radau3": ButcherTableau(
        "R3",
        A=[
            [(88 - 7 * S6) / 360, (296 - 169 * S6) / 1800, (-2 + 3 * S6) / 225],
            [(296 + 169 * S6) / 1800, (88 + 7 * S6) / 360, (-2 - 3 * S6) / 225],
            [(16 - S6) / 36, (16 + S6) / 36, 1 / 9],
        ],
        b=[(16 - S6) / 36, (16 + S6) / 36, 1 / 9],
        order=5,
    ),
    "sdirk2": sdirk_l(G_L),
    "sdirk3": sdirk_3(G_3),
}


def pade(k, j):
    """(k, j) Pade approximant of exp: numerator degree k, denominator degree j."""
    f = math.factorial
    P = [F(f(k) * f(j + k - i), f(j + k) * f(i) * f(k - i)) for i in range(k + 1)]
    Q = [F(f(j) * f(j + k - i), f(j + k) * f(i) * f(j - i)) * (-1) ** i for i in range(j + 1)]
    return P, Q


def rational(P, Q):
    return lambda z: (
        np.polyval([float(c) for c in P[::-1]], z) / np.polyval([float(c) for c in Q[::-1]], z)
    )


EXPECTED_R = {
    "backward_euler": rational(*pade(0, 1)),
    "trapezoid": rational(*pade(1, 1)),
    "implicit_midpoint": rational(*pade(1, 1)),
    "gauss2": rational(*pade(2, 2)),
    "gauss3": rational(*pade(3, 3)),
    "gauss4": rational(*pade(4, 4)),
    "radau2": rational(*pade(1, 2)),
    "radau3": rational(*pade(2, 3)),
    "sdirk2": lambda z: (1 + (1 - 2 * G_L) * z) / (1 - G_L * z) ** 2,
    "sdirk3": lambda z: (
        (1 + (1 - 2 * G_3) * z + (G_3**2 - 2 * G_3 + 0.5) * z**2) / (1 - G_3 * z) ** 2
    ),
}
R_INF = {
    "backward_euler": 0,
    "trapezoid": -1,
    "implicit_midpoint": -1,
    "gauss2": 1,
    "gauss3": -1,
    "gauss4": 1,
    "radau2": 0,
    "radau3": 0,
    "sdirk2": 0,
    "sdirk3": 1 - S3,
}
L_STABLE = {"backward_euler", "radau2", "radau3", "sdirk2"}
CATALOGUE_IMPLICIT = [k for k in EXPECTED_R if k in methods.names()]
EXPLICIT = ["euler", "heun", "midpoint", "rk3", "rk4", "dopri5"]


# ------------------------------------------------------------- explicit ----
@pytest.mark.parametrize("key", EXPLICIT)
def test_explicit_R_is_truncated_exponential(key):
    tab = methods.get(key)
    P, Q = st.stability_polynomials(tab, exact=True)
    p = tab.order
    assert P[: p + 1] == [F(1, math.factorial(j)) for j in range(p + 1)]
    assert Q == [1] + [0] * tab.s
    if key != "dopri5":  # s = p: nothing beyond z^p
        assert P[p + 1 :] == [0] * (tab.s - p)
    Pf, Qf = st.stability_polynomials(tab)  # numpy Polynomial, ascending, trimmed
    np.testing.assert_allclose(Pf.coef, [float(c) for c in P][: Pf.coef.size], atol=1e-14)
    assert all(c == 0 for c in P[Pf.coef.size :]) and list(Qf.coef) == [1.0]
    np.testing.assert_allclose(st.stability_function(tab)(ZS), rational(P, Q)(ZS), rtol=1e-12)


def test_dopri5_degree_six_term():
    """7 stages but b_7 = 0 (FSAL), so deg R = 6 and the z^6 coefficient is
    b^T A^5 1 = b6 a65 a54 a43 a32 a21 (the only chain of length 6 through A)."""
    A, b = methods.get("dopri5").exact["A"], methods.get("dopri5").exact["b"]
    chain = b[5] * A[5, 4] * A[4, 3] * A[3, 2] * A[2, 1] * A[1, 0]
    P, _ = st.stability_polynomials(rn.methods.get("dopri5"), exact=True)
    assert P[6] == chain == F(1, 600) and P[7] == 0


REAL_EXPLICIT = {"euler": -2.0, "heun": -2.0, "midpoint": -2.0}


def _first_exit(poly, x_end=-6.0, n=60001):
    """Independent: scan |P(x)| on a grid, then Brent on the closed-form polynomial."""
    xs = np.linspace(0, x_end, n)
    bad = np.flatnonzero(np.abs(np.polyval(poly, xs)) > 1 + 1e-12)
    i = bad[bad > 10][0]
    return brentq(lambda x: abs(np.polyval(poly, x)) - 1, xs[i], xs[i - 1], xtol=1e-15)


@pytest.mark.parametrize("key", EXPLICIT)
def test_real_interval_explicit(key):
    P, _ = st.stability_polynomials(rn.methods.get(key), exact=True)
    poly = [float(c) for c in P[::-1]]
    expected = REAL_EXPLICIT.get(key, None) or _first_exit(poly)
    assert st.real_stability_interval(rn.methods.get(key)) == pytest.approx(expected, abs=1e-12)


def test_real_interval_rk4_root_of_R_plus_one():
    """Seed claim 2.785: the exit is where R(x) = +1 (R = -1 has no real root):
    P(x) - 1 = x (1 + x/2 + x^2/6 + x^3/24), i.e. x^3 + 4x^2 + 12x + 24 = 0."""
    assert not np.any(np.abs(np.roots([1 / 24, 1 / 6, 1 / 2, 1, 2]).imag) < 1e-6)
    r = np.roots([1, 4, 12, 24])
    x = float(r[np.abs(r.imag) < 1e-12].real[0])
    assert x == pytest.approx(-2.785293563405, abs=1e-12)
    assert st.real_stability_interval(rn.methods.get("rk4")) == pytest.approx(x, abs=1e-12)
    assert st.real_stability_interval(rn.methods.get("rk3")) == pytest.approx(
        -2.5127453266, abs=1e-9
    )
    assert st.real_stability_interval(rn.methods.get("dopri5")) == pytest.approx(-3.3066, abs=1e-4)


def test_imag_interval_explicit():
    assert ast.imag_stability_interval(rn.methods.get("rk4")) == pytest.approx(
        2 * math.sqrt(2), abs=1e-12
    )
    assert ast.imag_stability_interval(rn.methods.get("rk3")) == pytest.approx(
        math.sqrt(3), abs=1e-12
    )
    for key in ("euler", "heun", "midpoint"):  # |R(iy)|^2 = 1 + y^2 or 1 + y^4/4
        assert ast.imag_stability_interval(rn.methods.get(key)) == 0.0
    P, _ = st.stability_polynomials(rn.methods.get("dopri5"), exact=True)
    poly = [float(c) for c in P[::-1]]
    y = np.linspace(1e-3, 0.99, 500)
    assert (np.abs(np.polyval(poly, 1j * y)) <= 1).all()
    y_star = brentq(lambda t: abs(np.polyval(poly, 1j * t)) - 1, 0.99, 1.5, xtol=1e-15)
    assert ast.imag_stability_interval(rn.methods.get("dopri5")) == pytest.approx(y_star, abs=1e-12)


@pytest.mark.parametrize("key", EXPLICIT)
def test_explicit_not_A_stable(key):
    assert st.R_at_infinity(rn.methods.get(key)) == math.inf
    assert not ast.is_A_stable(rn.methods.get(key)) and not ast.is_L_stable(rn.methods.get(key))


# ------------------------------------------------------------- implicit ----
def _implicit_cases():
    cases = [(k, t) for k, t in BOOK.items()]  # textbook formulas, always present
    cases += [(k, methods.get(k)) for k in CATALOGUE_IMPLICIT]
    return cases


@pytest.mark.parametrize("key, tab", _implicit_cases(), ids=lambda v: getattr(v, "name", v))
def test_implicit_stability_function(key, tab):
    R = st.stability_function(tab)
    np.testing.assert_allclose(R(ZS), EXPECTED_R[key](ZS), rtol=1e-12)
    P, Q = st.stability_polynomials(tab)
    np.testing.assert_allclose(R(ZS), P(ZS) / Q(ZS), rtol=1e-10)
    assert st.R_at_infinity(tab) == pytest.approx(R_INF[key], abs=1e-12)
    assert ast.is_A_stable(tab)
    assert ast.is_L_stable(tab) == (key in L_STABLE)
    assert st.real_stability_interval(tab) == -math.inf
    assert ast.imag_stability_interval(tab) == math.inf


# The formula needs A invertible: the trapezoid (singular A) is covered by R_INF above.
@pytest.mark.parametrize(
    "key, tab",
    [(k, t) for k, t in _implicit_cases() if abs(np.linalg.det(t.A)) >= 1e-14],
    ids=lambda v: getattr(v, "name", v),
)
def test_R_infinity_matches_inverse_formula(key, tab):
    expected = 1 - tab.b @ np.linalg.solve(tab.A, np.ones(tab.s))
    assert st.R_at_infinity(tab) == pytest.approx(expected, abs=1e-12)
    # generic A-stability cross-check: poles 1/eig(A) in Re z > 0, |R(iy)| <= 1 on a grid
    assert (np.linalg.eigvals(tab.A).real > 0).all()
    y = np.r_[0, np.logspace(-3, 5, 2000)]
    assert (np.abs(st.stability_function(tab)(1j * y)) <= 1 + 1e-12).all()


def test_sdirk3_r_infinity_value():
    assert st.R_at_infinity(BOOK["sdirk3"]) == pytest.approx(-0.7320508075688772, abs=1e-12)


def test_not_A_stable_implicit():
    assert not ast.is_A_stable(sdirk_3((3 - S3) / 6))  # order 3 too, but not A-stable
    assert not ast.is_A_stable(theta_method(0.4))  # theta-method: A-stable iff theta >= 1/2
    assert ast.is_A_stable(theta_method(F(3, 5)))
    assert st.R_at_infinity(theta_method(F(2, 5))) == -1.5  # (1 + 0.6z)/(1 - 0.4z)
    assert st.real_stability_interval(theta_method(F(2, 5))) == pytest.approx(-10.0, abs=1e-12)


def test_pole_returns_infinity():
    R = st.stability_function(BOOK["trapezoid"])
    assert abs(R(2.0)) == math.inf  # I - 2A exactly singular
    out = R(np.array([1.0, 2.0, 3.0]))
    assert (
        out[0] == pytest.approx(3.0) and math.isinf(abs(out[1])) and out[2] == pytest.approx(-5.0)
    )
    assert ast.poles(BOOK["trapezoid"]) == pytest.approx([2.0])


# --------------------------------------------------------------- plot -----
def test_plot_euler_region_area():
    import matplotlib.pyplot as plt

    res = st_plot().plot_stability_region("euler", xlim=(-2.5, 0.5), ylim=(-1.5, 1.5), n=601)
    cell = (res.x[1] - res.x[0]) * (res.y[1] - res.y[0])
    assert res.mask.sum() * cell == pytest.approx(math.pi, rel=0.01)  # disc |1 + z| <= 1
    assert (res.ax.get_xlabel(), res.ax.get_ylabel()) == ("Re z", "Im z")
    res2 = st_plot().plot_stability_region(lambda z: 1 / (1 - z), n=51)  # any callable
    assert res2.mask[25, 0] and not res2.mask[25, 28]  # z = -5 stable, z = 0.6 not
    plt.close("all")


def st_plot():
    from robonum.plotting import regions as stability_plot

    return stability_plot


def test_bad_input():
    with pytest.raises(TypeError, match="tableau"):
        st.stability_function(42)
    with pytest.raises(ValueError, match="method"):
        st.stability_function(rn.methods.get("no_such_method"))
    with pytest.raises(ValueError, match="z"):
        st.stability_function(rn.methods.get("rk4"))(np.array([1.0, np.inf]))
    with pytest.raises(ValueError, match="exact"):
        st.stability_polynomials(BOOK["gauss2"], exact=True)
    with pytest.raises(ValueError, match="n"):
        st_plot().plot_stability_region("rk4", n=3)
    with pytest.raises(TypeError, match="method must be a method name"):
        st_plot().plot_stability_region(3.0)
    with pytest.raises(ValueError, match=r"n must be an integer in \[11, 801\]"):
        st_plot().plot_stability_region("rk4", n=4001)  # 4001^2 points: 1.3 GB
    with pytest.raises(TypeError, match="ax must be a matplotlib Axes"):
        st_plot().plot_stability_region("rk4", ax="abc")
    with pytest.raises(ValueError, match="splitting method"):
        st_plot().plot_stability_region("verlet")
    with pytest.raises(ValueError, match="z has"):
        st.stability_function(rn.methods.get("rk4"))(np.zeros(5_000_000))
    with pytest.raises(TypeError, match="tableau must be a ButcherTableau"):
        st.stability_function("rk4")
    with pytest.raises(ValueError, match="xlim"):
        st_plot().plot_stability_region("rk4", xlim=(1, -1))


def test_symplecticity_of_rk_methods():
    """Gauss-Legendre methods are symplectic, Radau IIA and RK4 are not (HLW thm. VI.4.3)."""
    for key in ("gauss2", "gauss3", "gauss4", "implicit_midpoint"):
        assert rn.methods.get(key).is_symplectic(), key
    for key in ("rk4", "radau3", "trapezoid", "backward_euler", "sdirk2"):
        assert not rn.methods.get(key).is_symplectic(), key
    # RK4: b_i a_ij + b_j a_ji - b_i b_j by hand: (1,1) -> -1/36, (1,2) -> 1/6 - 1/18 = 1/9,
    # and no entry is larger (|a_ij| <= 1/2, b_i <= 1/3)
    assert sym.symplecticity_residual(rn.methods.get("rk4")) == F(1, 9)
