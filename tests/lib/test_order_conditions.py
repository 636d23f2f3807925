"""Rooted trees and Runge-Kutta order conditions.

Independent truths: tree counts (OEIS A000081: 1, 1, 2, 4, 9, 20, 48, 115);
the identity sum_{|t|=n} n!/(sigma(t) gamma(t)) = (n-1)! (number of
increasingly labelled rooted trees); conditions written out by hand in the
classical b/c/A form (Hairer, Norsett & Wanner I, Table II.2.2); known orders
of textbook methods.
"""

import math
from fractions import Fraction as F

import numpy as np
import pytest

import robonum as rn
from robonum import methods
from robonum.analysis import order_conditions as oc
from robonum.tableau import ButcherTableau

S3, S15 = math.sqrt(3), math.sqrt(15)


def sdirk_3(g):
    return ButcherTableau("sdirk-3", A=[[g, 0], [1 - 2 * g, g]], b=[0.5, 0.5], order=2)


def sdirk_l(g):
    return ButcherTableau("sdirk-L", A=[[g, 0], [1 - g, g]], b=[1 - g, g], order=2)


BOOK = {  # textbook tableaux with their literature orders
    "backward_euler": (ButcherTableau("BE", A=[[1]], b=[1]), 1),
    "trapezoid": (ButcherTableau("TR", A=[[0, 0], [F(1, 2), F(1, 2)]], b=[F(1, 2), F(1, 2)]), 2),
    "implicit_midpoint": (ButcherTableau("IM", A=[[F(1, 2)]], b=[1]), 2),
    "gauss2": (
        ButcherTableau("G2", A=[[0.25, 0.25 - S3 / 6], [0.25 + S3 / 6, 0.25]], b=[0.5, 0.5]),
        4,
    ),
    "gauss3": (
        ButcherTableau(
            "G3",
            A=[
                [5 / 36, 2 / 9 - S15 / 15, 5 / 36 - S15 / 30],
                [5 / 36 + S15 / 24, 2 / 9, 5 / 36 - S15 / 24],
                [5 / 36 + S15 / 30, 2 / 9 + S15 / 15, 5 / 36],
            ],
            b=[5 / 18, 4 / 9, 5 / 18],
        ),
        6,
    ),
    "radau2": (
        ButcherTableau("R2", A=[[F(5, 12), F(-1, 12)], [F(3, 4), F(1, 4)]], b=[F(3, 4), F(1, 4)]),
        3,
    ),
    "sdirk2": (sdirk_l(1 - math.sqrt(2) / 2), 2),
    "sdirk3": (sdirk_3((3 + S3) / 6), 3),
}


def test_tree_counts():
    assert [len(oc.trees(n)) for n in range(1, 9)] == [1, 1, 2, 4, 9, 20, 48, 115]
    for n in range(1, 8):
        assert all(oc.order_of_tree(t) == n for t in oc.trees(n))
        assert len(set(oc.trees(n))) == len(oc.trees(n))


@pytest.mark.parametrize("n", range(1, 9))
def test_labelling_identity(n):
    total = sum(F(math.factorial(n), oc.symmetry(t) * oc.density(t)) for t in oc.trees(n))
    assert total == math.factorial(n - 1)


def test_density_extremes():
    for n in range(2, 8):
        bushy = tuple(() for _ in range(n - 1))
        tall = ()
        for _ in range(n - 1):
            tall = (tall,)
        assert oc.density(bushy) == n and oc.density(tall) == math.factorial(n)
        assert oc.symmetry(bushy) == math.factorial(n - 1) and oc.symmetry(tall) == 1
    assert oc.tree_string(((), ((),))) == "[τ,[τ]]"


def test_elementary_weights_by_hand():
    """Order-4 conditions in classical form for Kutta's 3/8 rule (exact)."""
    A = np.array(
        [[0, 0, 0, 0], [F(1, 3), 0, 0, 0], [F(-1, 3), 1, 0, 0], [1, -1, 1, 0]], dtype=object
    )
    b = np.array([F(1, 8), F(3, 8), F(3, 8), F(1, 8)], dtype=object)
    c = A.sum(axis=1)
    by_hand = {
        ((), (), ()): (b * c**3).sum(),  # sum b c^3
        ((), ((),)): (b * c * A.dot(c)).sum(),  # sum b c A c
        (((), ()),): b.dot(A.dot(c**2)),  # sum b A c^2
        ((((),),),): b.dot(A.dot(A.dot(c))),  # sum b A A c
    }
    for t, phi in by_hand.items():
        assert oc.elementary_weight(t, A, b) == phi == F(1, oc.density(t))


@pytest.mark.parametrize("key", methods.names("rk"))
def test_catalogue_declared_order(key):
    tab = methods.get(key)
    assert oc.order_of(tab, max_order=min(tab.order + 1, 8)) == tab.order


def test_dopri5_embedded_order():
    assert oc.order_of(rn.methods.get("dopri5"), weights="b_hat") == 4
    assert oc.order_of(rn.methods.get("dopri5"), max_order=7) == 5


@pytest.mark.parametrize("key", BOOK)
def test_textbook_orders(key):
    tab, p = BOOK[key]
    assert oc.order_of(tab, max_order=p + 1) == p


def test_perturbed_rk4_drops_order():
    rk4 = methods.get("rk4").exact
    A = rk4["A"].copy()
    A[2, 1] += F(1, 1000)  # c_3 moves too: b^T c = 1/2 + (1/3)(1/1000) -> order 1
    bad = ButcherTableau("RK4 perturbed", A=A.tolist(), b=rk4["b"].tolist(), order=1)
    assert oc.order_of(bad) == 1
    b = rk4["b"].copy()
    b[1] += F(1, 100)  # c_2 = c_3, so b^T c and b^T c^2 keep their values,
    b[2] -= F(1, 100)  # but b^T A c = 1/24 - (1/100)(1/4): order exactly 2
    assert oc.order_of(ButcherTableau("RK4 b", A=rk4["A"].tolist(), b=b.tolist())) == 2
    tiny = np.array(methods.get("rk4").A)
    tiny[3, 2] += 1e-9  # float: above the 1e-12 tolerance
    assert oc.order_of(ButcherTableau("RK4 f", A=tiny, b=methods.get("rk4").b)) < 4


def test_seed_004_sdirk_claim():
    """Seed 004 sec. 7.3: gamma = (2 - sqrt 2)/2 gives a '2-stage 3rd-order L-stable SDIRK'.
    With that gamma the L-stable SDIRK has order 2, and the order-3 family
    (b = 1/2, 1/2) drops to order 2 as well: order 3 needs gamma = (3 +- sqrt 3)/6."""
    g = (2 - math.sqrt(2)) / 2
    assert oc.order_of(sdirk_l(g)) == 2
    assert oc.order_of(sdirk_3(g)) == 2
    assert oc.order_of(sdirk_3((3 - S3) / 6)) == 3


def test_residuals_exact_and_float():
    conds = oc.order_conditions(rn.methods.get("rk4"), 5)
    assert len(conds) == 1 + 1 + 2 + 4 + 9
    assert all(isinstance(c.residual, F) for c in conds)
    assert sum(not c.satisfied for c in conds) == 9  # RK4 (s=4) satisfies no order-5 condition
    g2 = oc.order_conditions(BOOK["gauss2"][0], 4)
    # Gauss 2 has irrational (float) coefficients: residuals are sums of a few products
    # of entries <= 1, so rounding leaves at most a few ulps.
    assert max(abs(c.residual) for c in g2) <= 8 * np.finfo(float).eps
    assert "gamma=" in str(conds[0])


def test_bad_input():
    with pytest.raises(ValueError, match="p"):
        oc.order_conditions(rn.methods.get("rk4"), 0)
    with pytest.raises(ValueError, match="max_order"):
        oc.order_of(rn.methods.get("rk4"), max_order=9)
    with pytest.raises(ValueError, match="b_hat"):
        oc.order_of(rn.methods.get("rk4"), weights="b_hat")
    with pytest.raises(ValueError, match="weights"):
        oc.order_of(rn.methods.get("rk4"), weights="c")
    with pytest.raises(TypeError, match="tableau"):
        oc.order_of(42)
    with pytest.raises(TypeError, match="n"):
        oc.trees(2.5)
