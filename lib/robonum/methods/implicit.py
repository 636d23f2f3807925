"""Implicit Runge-Kutta methods as Butcher tableaux.

Most of them are *collocation* methods: choose distinct nodes
``c_1..c_s`` in [0, 1], let ``l_j`` be the Lagrange basis polynomials on
them, and set

    A_ij = integral_0^{c_i} l_j(tau) dtau,     b_j = integral_0^1 l_j(tau) dtau.

The method then has the order of the quadrature rule ``(b, c)``
(Hairer, Norsett & Wanner, *Solving ODEs I*, sec. II.7, collocation methods):
Gauss-Legendre nodes give order 2s, Radau IIA (right Radau) nodes 2s - 1.
Rational nodes give exact ``Fraction`` tableaux.

The catalogue ``ALL`` holds backward Euler (1-stage Radau IIA), the
trapezoidal rule (2-stage Lobatto IIIA: its first stage is explicit),
implicit midpoint (1-stage Gauss), Gauss 2/3/4, Radau IIA 2/3 and two
2-stage SDIRK methods.  Closed forms: Hairer & Wanner, *Solving ODEs II*,
sec. IV.5 (Gauss, Radau IIA tables) and sec. IV.6 (SDIRK).
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction as F

import numpy as np

from .. import _validate as check
from ..tableau import MAX_COEFFICIENT, ButcherTableau


# ----------------------------------------------------------- collocation --
def _lagrange_coeffs(nodes, j):
    """Exact coefficients (low -> high) of l_j(tau) = prod_{m != j} (tau - c_m) / (c_j - c_m)."""
    p, denom = [F(1)], F(1)
    for m, cm in enumerate(nodes):
        if m == j:
            continue
        out = [F(0)] * (len(p) + 1)
        for k, a in enumerate(p):  # multiply by (tau - c_m)
            out[k + 1] += a
            out[k] -= cm * a
        p = out
        denom *= nodes[j] - cm
    return [a / denom for a in p]


def _integral(coeffs, x):
    """integral_0^x sum_k a_k tau^k dtau (exact for Fractions)."""
    return sum(a * x ** (k + 1) / (k + 1) for k, a in enumerate(coeffs))


def _integrals_float(c):
    """Float ``(A, b)`` by s-point Gauss quadrature on [0, c_i] (exact for degree s - 1).

    ``l_j`` is evaluated in product form: expanding it in monomials loses
    about 1e-13 already at s = 7 through cancellation.
    """
    c = np.asarray(c, dtype=float)
    s = c.size
    xg, wg = np.polynomial.legendre.leggauss(s)

    def basis(tau):  # (len(tau), s) matrix of l_j(tau)
        diff = tau[:, None, None] - c[None, None, :]  # tau - c_m
        den = c[:, None] - c[None, :]  # c_j - c_m
        np.fill_diagonal(den, 1.0)
        fac = diff / den[None, :, :]
        fac[:, np.arange(s), np.arange(s)] = 1.0
        return fac.prod(axis=2)

    def integral(x):
        tau = x * (xg + 1.0) / 2.0
        return (x / 2.0) * (wg @ basis(tau))

    A = np.array([integral(ci) for ci in c])
    return A, integral(1.0)


MAX_NODES = 12  # exact Fractions grow fast (the Gauss and Radau families stop at 10: order 20)


def quadrature_order(b, c, *, max_order: int = 40) -> int:
    """Largest p <= max_order with ``sum_i b_i c_i^(q-1) = 1/q`` for q = 1..p.

    Exact for Fractions; for floats the tolerance is 1e-12.
    Reference: Hairer, Norsett & Wanner, *Solving ODEs I*, sec. II.7.
    """
    max_order = check.integer("max_order", max_order, 1, 60)
    for name, x in (("b", b), ("c", c)):
        if isinstance(x, (str, bytes)) or not hasattr(x, "__iter__"):
            raise TypeError(f"{name} must be a sequence of numbers, got {type(x).__name__}")
    exact = all(
        isinstance(x, numbers.Rational) and not isinstance(x, bool) for x in list(b) + list(c)
    )
    if not exact:
        # |b_i|, |c_i| capped as a tableau's: beyond, the sums overflow
        b = check.real_array("b", b, ndim=1, max_size=MAX_NODES * 2, abs_max=MAX_COEFFICIENT)
        c = check.real_array("c", c, ndim=1, max_size=MAX_NODES * 2, abs_max=MAX_COEFFICIENT)
    if len(b) != len(c) or len(b) == 0:
        raise ValueError(
            f"b and c must be non-empty and of equal length, got {len(b)} and {len(c)}"
        )
    tol = 0 if exact else 1e-12
    p = 0
    for q in range(1, max_order + 1):
        s = sum(bi * ci ** (q - 1) for bi, ci in zip(b, c))
        target = F(1, q) if exact else 1.0 / q
        if abs(s - target) > tol:
            break
        p = q
    return p


def collocation(nodes, name: str, order: int | None = None) -> ButcherTableau:
    """Collocation Runge-Kutta tableau on ``nodes``.

    ``A_ij = int_0^{c_i} l_j``, ``b_j = int_0^1 l_j`` with the Lagrange basis
    ``l_j`` of the nodes.  ``order`` defaults to the order of the quadrature
    ``(b, c)``, which is the order of the method (superconvergence of
    collocation; Hairer-Norsett-Wanner I, sec. II.7).  If every node is an
    ``int``/``Fraction`` the tableau is exact.
    Example: ``collocation([Fraction(1, 2)], "midpoint").A`` is ``[[0.5]]``.
    """
    if isinstance(nodes, (str, bytes)) or not hasattr(nodes, "__len__") or len(nodes) == 0:
        raise TypeError("nodes must be a non-empty sequence of numbers in [0, 1]")
    if len(nodes) > MAX_NODES:
        raise ValueError(
            f"nodes has {len(nodes)} entries; at most {MAX_NODES} collocation nodes "
            "are supported (order up to 2*12 = 24 is plenty)"
        )
    check.text("name", name)
    exact = all(isinstance(x, numbers.Rational) and not isinstance(x, bool) for x in nodes)
    c = (
        [F(x) for x in nodes]
        if exact
        else [check.real(f"nodes[{i}]", x) for i, x in enumerate(nodes)]
    )
    if any(x < 0 or x > 1 for x in c):
        raise ValueError(f"nodes must lie in [0, 1], got {[float(x) for x in c]}")
    if len(set(c)) != len(c):
        raise ValueError(f"nodes must be distinct, got {[float(x) for x in c]}")
    s = len(c)
    if exact:
        basis = [_lagrange_coeffs(c, j) for j in range(s)]
        A = [[_integral(basis[j], c[i]) for j in range(s)] for i in range(s)]
        b = [_integral(basis[j], F(1)) for j in range(s)]
    else:
        with np.errstate(all="ignore"):  # nodes a hair apart overflow here: checked just below
            A, b = _integrals_float(c)
    # nodes a hair apart make the Lagrange weights blow up ~ gap^-(s-1): say so by the nodes'
    # name, not by the tableau's (abs(x) <= cap is False for NaN too)
    if not all(abs(x) <= MAX_COEFFICIENT for x in [*np.ravel(A).tolist(), *list(b)]):
        raise ValueError(
            f"nodes are too close together: the tableau's weights exceed {MAX_COEFFICIENT:g} "
            f"(or overflow) for nodes {[float(x) for x in c]}; spread them out"
        )
    if order is None:
        order = max(1, quadrature_order(b, c))
    return ButcherTableau(name, A=A, b=b, c=c, order=order)


def _polish_legendre_roots(coef, x):
    """Two Newton steps on a Legendre series: numpy's companion roots carry ~1e-15 noise."""
    d = np.polynomial.legendre.legder(coef)
    for _ in range(2):
        x = x - np.polynomial.legendre.legval(x, coef) / np.polynomial.legendre.legval(x, d)
    return x


def gauss_legendre(s: int) -> ButcherTableau:
    """s-stage Gauss-Legendre collocation method, order 2s.

    Nodes: the roots of the shifted Legendre polynomial ``P_s(2 tau - 1)``
    (Hairer & Wanner II, sec. IV.5).  A-stable and symplectic; conserves
    quadratic invariants exactly (Hairer-Lubich-Wanner, *Geometric Numerical
    Integration*, sec. IV.2).  Example: ``gauss_legendre(2).order == 4``.
    """
    s = check.integer("s", s, 1, 10)  # order 2s: at most 20, a tableau's highest order
    x, _ = np.polynomial.legendre.leggauss(s)
    return collocation(list((1.0 + x) / 2.0), f"Gauss-Legendre ({s} stages)", order=2 * s)


def radau_iia(s: int) -> ButcherTableau:
    """s-stage Radau IIA collocation method, order 2s - 1, L-stable.

    Nodes: the roots of ``P_s(2 tau - 1) - P_{s-1}(2 tau - 1)``, which
    include ``tau = 1`` (right Radau points; Hairer & Wanner II, sec. IV.5).
    ``radau_iia(1)`` is backward Euler.  Example: ``radau_iia(3).c[-1] == 1``.
    """
    s = check.integer("s", s, 1, 10)
    coef = np.zeros(s + 1)
    coef[s], coef[s - 1] = 1.0, -1.0
    x = np.sort(np.polynomial.legendre.legroots(coef).real)
    x = _polish_legendre_roots(coef, x)
    c = (1.0 + x) / 2.0
    c[-1] = 1.0  # the right end point is a root exactly
    return collocation(list(c), f"Radau IIA ({s} stages)", order=2 * s - 1)


# --------------------------------------------------------- the catalogue --
BACKWARD_EULER = collocation([1], "Backward Euler", order=1)

# Lobatto IIIA with 2 stages: c = (0, 1); row 1 of A is zero (explicit stage).
TRAPEZOID = collocation([0, 1], "Trapezoid (Crank-Nicolson)", order=2)

IMPLICIT_MIDPOINT = collocation([F(1, 2)], "Implicit midpoint", order=2)

_R3 = math.sqrt(3.0)
GAUSS2 = ButcherTableau(
    "Gauss-Legendre (2 stages)",
    A=[[0.25, 0.25 - _R3 / 6], [0.25 + _R3 / 6, 0.25]],
    b=[F(1, 2), F(1, 2)],
    c=[0.5 - _R3 / 6, 0.5 + _R3 / 6],
    order=4,
    latex={
        "A": [
            [r"\tfrac14", r"\tfrac14-\tfrac{\sqrt3}{6}"],
            [r"\tfrac14+\tfrac{\sqrt3}{6}", r"\tfrac14"],
        ],
        "b": [r"\tfrac12", r"\tfrac12"],
        "c": [r"\tfrac12-\tfrac{\sqrt3}{6}", r"\tfrac12+\tfrac{\sqrt3}{6}"],
    },
)

_R15 = math.sqrt(15.0)
GAUSS3 = ButcherTableau(
    "Gauss-Legendre (3 stages)",
    A=[
        [5 / 36, 2 / 9 - _R15 / 15, 5 / 36 - _R15 / 30],
        [5 / 36 + _R15 / 24, 2 / 9, 5 / 36 - _R15 / 24],
        [5 / 36 + _R15 / 30, 2 / 9 + _R15 / 15, 5 / 36],
    ],
    b=[5 / 18, 4 / 9, 5 / 18],
    c=[0.5 - _R15 / 10, 0.5, 0.5 + _R15 / 10],
    order=6,
)

GAUSS4 = gauss_legendre(4)

RADAU2 = collocation([F(1, 3), 1], "Radau IIA (2 stages)", order=3)

_R6 = math.sqrt(6.0)
RADAU3 = ButcherTableau(
    "Radau IIA (3 stages)",
    A=[
        [(88 - 7 * _R6) / 360, (296 - 169 * _R6) / 1800, (-2 + 3 * _R6) / 225],
        [(296 + 169 * _R6) / 1800, (88 + 7 * _R6) / 360, (-2 - 3 * _R6) / 225],
        [(16 - _R6) / 36, (16 + _R6) / 36, 1 / 9],
    ],
    b=[(16 - _R6) / 36, (16 + _R6) / 36, 1 / 9],
    c=[(4 - _R6) / 10, (4 + _R6) / 10, 1.0],
    order=5,
)

# L-stable, stiffly accurate (b = last row of A).  gamma = 1 - sqrt(2)/2 makes
# b.c = 1/2 (order 2) but b.c^2 = 0.3536 != 1/3: order 2, not 3.
_G2 = 1.0 - math.sqrt(2.0) / 2.0
SDIRK2 = ButcherTableau(
    "SDIRK2 (L-stable, gamma = 1 - sqrt(2)/2)",
    A=[[_G2, 0.0], [1.0 - _G2, _G2]],
    b=[1.0 - _G2, _G2],
    order=2,
    latex={
        "A": [[r"\gamma", "0"], [r"1-\gamma", r"\gamma"]],
        "b": [r"1-\gamma", r"\gamma"],
        "c": [r"\gamma", "1"],
    },
)

# Order 3; A-stable for gamma = (3 + sqrt(3))/6 but R(inf) = 1 - sqrt(3): not L-stable.
_G3 = (3.0 + _R3) / 6.0
SDIRK3 = ButcherTableau(
    "SDIRK3 (A-stable, gamma = (3 + sqrt(3))/6)",
    A=[[_G3, 0.0], [1.0 - 2.0 * _G3, _G3]],
    b=[0.5, 0.5],
    order=3,
    latex={
        "A": [[r"\gamma", "0"], [r"1-2\gamma", r"\gamma"]],
        "b": [r"\tfrac12", r"\tfrac12"],
        "c": [r"\gamma", r"1-\gamma"],
    },
)

ALL = {
    "backward_euler": BACKWARD_EULER,
    "trapezoid": TRAPEZOID,
    "implicit_midpoint": IMPLICIT_MIDPOINT,
    "gauss2": GAUSS2,
    "gauss3": GAUSS3,
    "gauss4": GAUSS4,
    "radau2": RADAU2,
    "radau3": RADAU3,
    "sdirk2": SDIRK2,
    "sdirk3": SDIRK3,
}
