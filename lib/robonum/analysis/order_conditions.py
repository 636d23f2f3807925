"""Order conditions of Runge-Kutta methods via rooted trees (Butcher series).

A Runge-Kutta method ``(A, b)`` has order p iff for every rooted tree t with
``|t| <= p`` vertices

    Phi(t) = 1 / gamma(t),

where the density is ``gamma(tau) = 1``, ``gamma([t_1..t_m]) = |t| prod gamma(t_i)``
and the elementary weight is ``Phi(t) = b^T g(t)`` with the stage vector
``g(tau) = 1`` and ``g([t_1..t_m]) = prod_i (A g(t_i))`` (componentwise).
Trees are generated, not typed in: each tree of order n arises by grafting a
leaf onto a vertex of a tree of order n-1; 1, 1, 2, 4, 9, 20, 48, 115 trees
of orders 1..8.

A tree is stored canonically as the sorted tuple of its subtrees (the leaf
``tau`` is ``()``), so equal trees compare equal.

References: Butcher (2016), *Numerical Methods for ODEs*, ch. 3 (trees,
elementary weights); Hairer, Norsett & Wanner, *Solving ODEs I*, sec. II.2.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from .. import _validate as check

Tree = tuple  # tuple of subtrees, sorted; () is the single vertex tau
MAX_ORDER = 8
_TOL = 1e-12


def check_tree(t, name: str = "t") -> Tree:
    """Require a rooted tree: a tuple of trees, ``()`` the single vertex, at most 8 vertices deep/wide."""
    stack, count = [t], 0
    while stack:
        node = stack.pop()
        if not isinstance(node, tuple):
            raise TypeError(
                f"{name} must be a rooted tree: a tuple of trees, () being one vertex "
                f"(e.g. ((), ((),))); found a {type(node).__name__}"
            )
        count += 1
        if count > 64:
            raise ValueError(
                f"{name} has more than 64 vertices; order conditions go up to {MAX_ORDER}"
            )
        stack.extend(node)
    return t


def _canon(children) -> Tree:
    return tuple(sorted(children))


def _graft(t: Tree) -> set:
    """All trees obtained by adding one leaf to some vertex of ``t``."""
    out = {_canon(t + ((),))}  # new leaf at the root
    for i, child in enumerate(t):
        rest = t[:i] + t[i + 1 :]
        for g in _graft(child):
            out.add(_canon(rest + (g,)))
    return out


def trees(n: int) -> tuple:
    """All rooted trees with exactly ``n`` vertices, in a fixed (sorted) order.

    Example: ``len(trees(4))`` is 4.  ``n`` is checked before the cache sees it (an
    unhashable ``n`` would otherwise fail inside ``lru_cache``).
    """
    return _trees(check.integer("n", n, 1, MAX_ORDER))


@lru_cache(maxsize=None)
def _trees(n: int) -> tuple:
    if n == 1:
        return ((),)
    new = set()
    for t in _trees(n - 1):
        new |= _graft(t)
    return tuple(sorted(new, key=lambda t: (_bracket(t), t)))


def order_of_tree(t: Tree) -> int:
    """``|t|``: number of vertices."""
    return _size(check_tree(t))


def _size(t: Tree) -> int:
    return 1 + sum(_size(c) for c in t)


def density(t: Tree) -> int:
    """``gamma(t) = |t| * prod gamma(children)``; e.g. the bushy tree of order 3 has 3."""
    check_tree(t)
    g = _size(t)
    for c in t:
        g *= density(c)
    return g


def symmetry(t: Tree) -> int:
    """``sigma(t)``: number of symmetries (automorphisms) of the tree.

    ``sigma(tau) = 1``, ``sigma([t_1^{m_1} t_2^{m_2} ...]) = prod m_i! sigma(t_i)^{m_i}``
    (Butcher 2016, ch. 3); it enters the B-series coefficient ``1/(sigma gamma)``.
    """
    check_tree(t)
    s, i = 1, 0
    while i < len(t):
        j = i
        while j < len(t) and t[j] == t[i]:
            j += 1
        m = j - i
        s *= _factorial(m) * symmetry(t[i]) ** m
        i = j
    return s


def _factorial(m: int) -> int:
    out = 1
    for q in range(2, m + 1):
        out *= q
    return out


def tree_string(t: Tree) -> str:
    """Butcher's bracket notation, e.g. ``[[τ],τ]``; the leaf is ``τ``."""
    check_tree(t)
    return _bracket(t)


def _bracket(t: Tree) -> str:
    if not t:
        return "τ"
    return "[" + ",".join(_bracket(c) for c in t) + "]"


def _stage_vector(t: Tree, A: np.ndarray, one) -> np.ndarray:
    g = np.full(A.shape[0], one, dtype=A.dtype)
    for c in t:
        g = g * A.dot(_stage_vector(c, A, one))
    return g


def elementary_weight(t: Tree, A, b) -> float | Fraction:
    """``Phi(t) = b^T g(t)``; exact if ``A`` and ``b`` are object arrays of Fractions."""
    check_tree(t)
    A, b = np.asarray(A), np.asarray(b)
    if A.ndim != 2 or A.shape[0] != A.shape[1] or b.shape != (A.shape[0],):
        raise ValueError(f"A must be (s, s) and b (s,), got shapes {A.shape} and {b.shape}")
    if A.dtype.kind not in "biufO" or b.dtype.kind not in "biufO":
        raise TypeError(f"A and b must hold numbers, got dtypes {A.dtype} and {b.dtype}")
    for name, arr in (("A", A), ("b", b)):
        odd = [x for x in arr.flat if not _is_number(x)] if arr.dtype == object else []
        if odd:
            raise TypeError(
                f"{name} must hold real numbers: Fractions for exact weights, or floats with "
                f"|x| <= {MAX_COEFFICIENT:g}; got {odd[0]!r:.40}"
            )
        if arr.dtype != object and not (np.abs(arr) <= MAX_COEFFICIENT).all():
            raise ValueError(
                f"{name} must hold finite entries with |x| <= {MAX_COEFFICIENT:g} "
                f"(a method's coefficients are O(1)), got {arr.tolist()!r:.80}"
            )
    one = Fraction(1) if A.dtype == object else 1.0
    return b.dot(_stage_vector(t, A, one))


MAX_COEFFICIENT = 1e8  # as robonum.tableau: beyond, the weights overflow to inf


def _is_number(x) -> bool:
    """An entry of an object array: a Fraction or an int, or a float within ``MAX_COEFFICIENT``."""
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        return False
    return isinstance(x, numbers.Rational) or abs(float(x)) <= MAX_COEFFICIENT


@dataclass(frozen=True)
class OrderCondition:
    """One condition ``Phi(t) = 1/gamma(t)`` and its residual ``Phi - 1/gamma``."""

    tree: Tree
    order: int
    gamma: int
    phi: object
    residual: object

    @property
    def satisfied(self) -> bool:
        if isinstance(self.residual, Fraction):
            return self.residual == 0
        return abs(self.residual) <= _TOL

    def __str__(self) -> str:
        return f"{tree_string(self.tree):>16}  gamma={self.gamma:<4} residual={float(self.residual):+.3e}"


def _coefficients(tab, weights: str):
    if not all(hasattr(tab, a) for a in ("A", "b", "b_hat", "exact", "has_embedded")):
        raise TypeError(
            f"tableau must be a ButcherTableau (e.g. rn.methods.get('rk4')), "
            f"got {type(tab).__name__}"
        )
    check.one_of("weights", weights, ("b", "b_hat"))
    if weights == "b_hat" and not tab.has_embedded:
        raise ValueError(f"weights='b_hat' needs an embedded method; {tab.name!r} has none")
    if tab.exact is not None and (weights == "b" or tab.exact.get("b_hat") is not None):
        return tab.exact["A"], tab.exact[weights]
    return np.asarray(tab.A), np.asarray(tab.b if weights == "b" else tab.b_hat)


def order_conditions(tableau, p: int, *, weights: str = "b") -> list[OrderCondition]:
    """Residuals ``Phi(t) - 1/gamma(t)`` for every tree with ``|t| <= p``.

    Exact (Fractions) for rational tableaux, floats otherwise.
    ``weights="b_hat"`` checks the embedded solution instead.
    Example: for RK4, ``[c.satisfied for c in order_conditions(rk4, 4)]`` is all True.
    Reference: Hairer, Norsett & Wanner, *Solving ODEs I*, sec. II.2.
    """
    p = check.integer("p", p, 1, MAX_ORDER)
    A, b = _coefficients(tableau, weights)
    out = []
    for n in range(1, p + 1):
        for t in trees(n):
            gam = density(t)
            phi = elementary_weight(t, A, b)
            exact = A.dtype == object
            out.append(
                OrderCondition(t, n, gam, phi, phi - (Fraction(1, gam) if exact else 1.0 / gam))
            )
    return out


def order_of(tableau, max_order: int = 6, *, weights: str = "b") -> int:
    """Largest ``p <= max_order`` for which all conditions up to order p hold.

    Exact for rational tableaux; tolerance 1e-12 on the residual for floats.
    A result equal to ``max_order`` means "at least max_order".
    Example: DOPRI5 gives 5, and 4 with ``weights="b_hat"``.
    """
    max_order = check.integer("max_order", max_order, 1, MAX_ORDER)
    p = 0
    conds = order_conditions(tableau, max_order, weights=weights)
    for n in range(1, max_order + 1):
        if not all(c.satisfied for c in conds if c.order == n):
            break
        p = n
    return p
