"""Runge-Kutta methods as data: the Butcher tableau.

A method with ``s`` stages advances ``y' = f(t, y)`` by

    k_i     = f(t + c_i h, y + h * sum_j A_ij k_j),   i = 1..s
    y_{n+1} = y_n + h * sum_i b_i k_i

and, if it has an embedded pair, ``y_hat = y_n + h * sum_i b_hat_i k_i``
gives the error estimate ``y_{n+1} - y_hat``.  The same arrays drive the
integrators (:mod:`robonum.steppers`) and the analysis
(:mod:`robonum.stability`), so a plot and a run can never disagree.

Reference: Hairer, Norsett & Wanner, *Solving ODEs I*, sec. II.1;
design after diffrax's ``ButcherTableau`` and SciPy's ``rk.py``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
import numbers

import numpy as np

from . import _validate as check

_TOL = 1e-13  # consistency tolerance for float coefficients (sqrt(2), sqrt(3) ...)


def _is_exact(x) -> bool:
    return isinstance(x, (numbers.Rational)) and not isinstance(x, bool)


def _as_exact(rows):
    """Fractions if every entry is an int/Fraction, else None."""
    flat = np.array(rows, dtype=object).ravel()
    if all(_is_exact(x) for x in flat):
        return np.vectorize(Fraction, otypes=[object])(np.array(rows, dtype=object))
    return None


def _readonly(x) -> np.ndarray:
    arr = np.array(x, dtype=float)
    arr.setflags(write=False)
    return arr


@dataclass(frozen=True, eq=False)
class ButcherTableau:
    """A validated Butcher tableau ``(A, b, c)`` with optional embedded ``b_hat``.

    Parameters
    ----------
    name : str
        Human-readable name, e.g. ``"RK4"``.
    A : (s, s) array_like
        Stage coefficients. Entries given as ``int``/``Fraction`` are also kept
        exactly (``A_exact``), which lets the stability function be computed
        as an exact rational function.
    b : (s,) array_like
        Weights, ``sum(b) == 1`` (consistency, order >= 1).
    c : (s,) array_like, optional
        Nodes; defaults to the row sums of ``A`` and must equal them.
    order : int
        Classical order claimed for the method; the test suite verifies it
        against the order conditions and a convergence study.
    b_hat : (s,) array_like, optional
        Weights of the embedded lower-order solution.
    order_hat : int, optional
        Order of the embedded solution.
    """

    name: str
    A: np.ndarray
    b: np.ndarray
    c: np.ndarray | None = None
    order: int = 1
    b_hat: np.ndarray | None = None
    order_hat: int | None = None
    exact: dict | None = field(default=None, repr=False)

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name:
            raise TypeError("name must be a non-empty string")
        A_in, b_in = self.A, self.b
        c_in = self.c if self.c is not None else None
        A = np.array(A_in, dtype=float)
        b = np.array(b_in, dtype=float)
        if A.ndim != 2 or A.shape[0] != A.shape[1] or A.shape[0] == 0:
            raise ValueError(f"A must be a square (s, s) array, got shape {A.shape}")
        s = A.shape[0]
        if b.shape != (s,):
            raise ValueError(f"b must have shape ({s},) to match A, got {b.shape}")
        c = A.sum(axis=1) if c_in is None else np.array(c_in, dtype=float)
        if c.shape != (s,):
            raise ValueError(f"c must have shape ({s},) to match A, got {c.shape}")
        if not (np.all(np.isfinite(A)) and np.all(np.isfinite(b)) and np.all(np.isfinite(c))):
            raise ValueError("A, b and c must be finite")
        if np.max(np.abs(A.sum(axis=1) - c)) > _TOL:
            raise ValueError(f"{self.name}: row sums of A must equal c "
                             f"(got sums {A.sum(axis=1)} vs c {c})")
        if abs(b.sum() - 1.0) > _TOL:
            raise ValueError(f"{self.name}: weights b must sum to 1, got {b.sum()!r}")
        check.integer("order", self.order, 1, 20)
        b_hat = None
        if self.b_hat is not None:
            b_hat = np.array(self.b_hat, dtype=float)
            if b_hat.shape != (s,):
                raise ValueError(f"b_hat must have shape ({s},), got {b_hat.shape}")
            if abs(b_hat.sum() - 1.0) > _TOL:
                raise ValueError(f"{self.name}: b_hat must sum to 1, got {b_hat.sum()!r}")
            check.integer("order_hat", self.order_hat, 1, self.order)
        exact = {"A": _as_exact(A_in), "b": _as_exact(b_in),
                 "c": _as_exact(c_in) if c_in is not None else None}
        if exact["A"] is not None and exact["c"] is None:
            exact["c"] = exact["A"].sum(axis=1)
        if self.b_hat is not None:
            exact["b_hat"] = _as_exact(self.b_hat)
        is_exact = exact["A"] is not None and exact["b"] is not None
        object.__setattr__(self, "A", _readonly(A))
        object.__setattr__(self, "b", _readonly(b))
        object.__setattr__(self, "c", _readonly(c))
        object.__setattr__(self, "b_hat", None if b_hat is None else _readonly(b_hat))
        object.__setattr__(self, "exact", exact if is_exact else None)

    # -- structure ---------------------------------------------------------
    @property
    def s(self) -> int:
        """Number of stages."""
        return self.A.shape[0]

    @property
    def is_explicit(self) -> bool:
        """True if A is strictly lower triangular (each stage needs only earlier ones)."""
        return bool(np.all(np.triu(self.A) == 0.0))

    @property
    def is_diagonally_implicit(self) -> bool:
        """True if A is lower triangular with a nonzero diagonal entry (DIRK)."""
        return bool(np.all(np.triu(self.A, 1) == 0.0)) and not self.is_explicit

    @property
    def is_singly_diagonally_implicit(self) -> bool:
        """DIRK with one diagonal value gamma for every stage (SDIRK)."""
        d = np.diag(self.A)
        return self.is_diagonally_implicit and bool(np.all(d == d[0]))

    @property
    def has_embedded(self) -> bool:
        return self.b_hat is not None

    @property
    def kind(self) -> str:
        """``"explicit"``, ``"SDIRK"``, ``"DIRK"`` or ``"implicit"``."""
        if self.is_explicit:
            return "explicit"
        if self.is_singly_diagonally_implicit:
            return "SDIRK"
        if self.is_diagonally_implicit:
            return "DIRK"
        return "implicit"

    def __repr__(self) -> str:
        emb = f", embedded order {self.order_hat}" if self.has_embedded else ""
        return f"ButcherTableau({self.name!r}, s={self.s}, order={self.order}, {self.kind}{emb})"
