"""Runge-Kutta methods as data: the Butcher tableau.

A method with ``s`` stages advances ``y' = f(t, y)`` by

    k_i     = f(t + c_i h, y + h * sum_j A_ij k_j),   i = 1..s
    y_{n+1} = y_n + h * sum_i b_i k_i

and, if it has an embedded pair, ``y_hat = y_n + h * sum_i b_hat_i k_i``
gives the error estimate ``y_{n+1} - y_hat``.  The same arrays drive the
integrators (:mod:`robonum.steppers`) and the analysis
(:mod:`robonum.analysis.stability`), so a plot and a run can never disagree.

The tableau also answers questions about itself -- ``R(z)``, stability
intervals, A-/L-stability, order conditions, symplecticity -- by handing
its arrays to :mod:`robonum.analysis` (NodePy's method objects are the model).

Reference: Hairer, Norsett & Wanner, *Solving ODEs I*, sec. II.1;
design after diffrax's ``ButcherTableau`` and SciPy's ``rk.py``.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from . import _latex
from . import _validate as check
from .analysis import a_stability as _ast
from .analysis import order_conditions as _oc
from .analysis import stability as _st
from .analysis import symplecticity as _sym

_TOL = 1e-13  # consistency tolerance for float coefficients (sqrt(2), sqrt(3) ...)
MAX_STAGES = 20
MAX_COEFFICIENT = 1e8  # |a_ij|, |b_i|, |c_i|: methods in use stay below 100; beyond, R(z) overflows


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
    dense : (s, p) array_like, optional
        A continuous extension: ``b_i(theta) = sum_k dense[i, k] theta^(k+1)``, so
        that ``y(t_n + theta h) = y_n + h sum_i b_i(theta) k_i`` between the steps
        (Hairer-Norsett-Wanner I, sec. II.6).  Checked: ``b_i(1) = b_i`` and
        ``sum_i b_i(theta) = theta``; its order is ``dense_order``.
    dense_order : int, optional
        Order of the continuous extension, uniformly in ``theta`` (verified by tests).
    """

    name: str
    A: np.ndarray
    b: np.ndarray
    c: np.ndarray | None = None
    order: int = 1
    b_hat: np.ndarray | None = None
    order_hat: int | None = None
    dense: np.ndarray | None = field(default=None, repr=False)
    dense_order: int | None = None
    exact: dict | None = field(default=None, repr=False)
    latex: dict | None = field(default=None, repr=False)

    family = "rk"

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name:
            raise TypeError("name must be a non-empty string")
        A_in, b_in = self.A, self.b
        c_in = self.c if self.c is not None else None
        A = check.real_array("A", A_in, ndim=2, max_size=MAX_STAGES**2)
        b = check.real_array("b", b_in, ndim=1, max_size=MAX_STAGES)
        if A.shape[0] != A.shape[1] or A.shape[0] == 0:
            raise ValueError(f"A must be a square (s, s) array, got shape {A.shape}")
        s = A.shape[0]
        if b.shape != (s,):
            raise ValueError(f"b must have shape ({s},) to match A, got {b.shape}")
        c = (
            A.sum(axis=1)
            if c_in is None
            else check.real_array("c", c_in, ndim=1, max_size=MAX_STAGES)
        )
        if c.shape != (s,):
            raise ValueError(f"c must have shape ({s},) to match A, got {c.shape}")
        if np.max(np.abs(A.sum(axis=1) - c)) > _TOL:
            raise ValueError(
                f"{self.name}: row sums of A must equal c (got sums {A.sum(axis=1)} vs c {c})"
            )
        if abs(b.sum() - 1.0) > _TOL:
            raise ValueError(f"{self.name}: weights b must sum to 1, got {b.sum()!r}")
        check.integer("order", self.order, 1, 20)
        if max(np.max(np.abs(A)), np.max(np.abs(b)), np.max(np.abs(c))) > MAX_COEFFICIENT:
            raise ValueError(
                f"{self.name}: entries of A, b and c must be at most {MAX_COEFFICIENT:g} in magnitude "
                "(the stability function of larger ones overflows)"
            )
        b_hat = None
        if self.b_hat is not None:
            b_hat = check.real_array("b_hat", self.b_hat, ndim=1, max_size=MAX_STAGES)
            if b_hat.shape != (s,):
                raise ValueError(f"b_hat must have shape ({s},), got {b_hat.shape}")
            if abs(b_hat.sum() - 1.0) > _TOL:
                raise ValueError(f"{self.name}: b_hat must sum to 1, got {b_hat.sum()!r}")
            check.integer("order_hat", self.order_hat, 1, self.order)
        elif self.order_hat is not None:
            raise ValueError("order_hat is given but b_hat is not: give both or neither")
        dense = self._checked_dense(b)
        if self.latex is not None and not (
            isinstance(self.latex, dict) and set(self.latex) <= {"A", "b", "c", "b_hat"}
        ):
            raise TypeError("latex must be a dict with keys among 'A', 'b', 'c', 'b_hat'")
        exact = {
            "A": _as_exact(A_in),
            "b": _as_exact(b_in),
            "c": _as_exact(c_in) if c_in is not None else None,
        }
        if exact["A"] is not None and exact["c"] is None:
            exact["c"] = exact["A"].sum(axis=1)
            c = np.array([float(x) for x in exact["c"]])  # exact row sums: c_s = 1 exactly
        if self.b_hat is not None:
            exact["b_hat"] = _as_exact(self.b_hat)
        is_exact = exact["A"] is not None and exact["b"] is not None
        object.__setattr__(self, "A", _readonly(A))
        object.__setattr__(self, "b", _readonly(b))
        object.__setattr__(self, "c", _readonly(c))
        object.__setattr__(self, "b_hat", None if b_hat is None else _readonly(b_hat))
        object.__setattr__(self, "dense", None if dense is None else _readonly(dense))
        object.__setattr__(self, "exact", exact if is_exact else None)

    def _checked_dense(self, b):
        """The continuous extension's coefficients, or ``None``; raises if they do not fit ``b``."""
        if self.dense is None:
            if self.dense_order is not None:
                raise ValueError("dense_order is given but dense is not: give both or neither")
            return None
        s = b.size
        B = check.real_array("dense", self.dense, ndim=2, max_size=MAX_STAGES**2)
        if B.shape[0] != s or B.shape[1] == 0:
            raise ValueError(f"dense must have shape ({s}, p), got {B.shape}")
        if self.dense_order is None:
            raise ValueError(
                "dense is given but dense_order is not: give both or neither (dense_order: "
                f"the order of the continuous extension, an integer in [1, {self.order}])"
            )
        check.integer("dense_order", self.dense_order, 1, self.order)
        # theta = 1 must give the step itself, and every b_i(theta) must sum to theta
        if np.max(np.abs(B.sum(axis=1) - b)) > _TOL:
            raise ValueError(f"{self.name}: the dense weights at theta = 1 must equal b")
        unit = np.zeros(B.shape[1])
        unit[0] = 1.0
        if np.max(np.abs(B.sum(axis=0) - unit)) > _TOL:
            raise ValueError(f"{self.name}: the dense weights must sum to theta")
        return B

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
    def fsal(self) -> bool:
        """First same as last: the last stage is ``f(t + h, y_{n+1})``, the next step's first.

        Holds for an explicit tableau with ``c_1 = 0``, ``c_s = 1`` and last row
        of ``A`` equal to ``b`` (DOPRI5): the step then costs ``s - 1`` new
        evaluations (Hairer-Norsett-Wanner I, sec. II.5; diffrax derives it the same way).
        """
        return bool(
            self.is_explicit
            and self.s > 1
            and self.c[0] == 0.0
            and abs(self.c[-1] - 1.0) <= _TOL
            and np.array_equal(self.A[-1], self.b)
        )

    @property
    def new_evals_per_step(self) -> int:
        """Calls of ``f`` one step of an explicit method adds: ``s``, or ``s - 1`` when
        first same as last (:attr:`fsal`: the step's first stage is the last one's ``f``).

        A rejected step costs the same (its first stage is kept).  An implicit tableau's
        cost depends on its Newton iterations, so it has no such number (``ValueError``).
        """
        if not self.is_explicit:
            raise ValueError(
                f"method {self.name!r} is {self.kind}: its f-calls per step depend on the Newton "
                "iterations; new_evals_per_step is for explicit tableaux"
            )
        return self.s - int(self.fsal)

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

    # -- analysis (robonum.analysis reads the same arrays) ----------------
    def stability_function(self):
        """``R(z) = 1 + z bᵀ(I - zA)⁻¹1`` as a vectorised callable (Hairer-Wanner II, IV.2)."""
        return _st.StabilityFunction(self)

    def stability_polynomials(self, *, exact: bool = False):
        """``(P, Q)`` with ``R = P/Q``: ``Polynomial`` objects, or exact Fraction lists (ascending)."""
        return _st.stability_polynomials(self, exact=exact)

    def R_at_infinity(self) -> float:
        """``lim R(z)`` as ``|z| -> inf`` (``inf`` for explicit methods)."""
        return _st.R_at_infinity(self)

    def real_stability_interval(self) -> float:
        """``x* <= 0`` with ``|R(x)| <= 1`` on ``[x*, 0]`` (``-inf`` if unbounded)."""
        return _st.real_stability_interval(self)

    def imag_stability_interval(self) -> float:
        """``y* >= 0`` with ``|R(iy)| <= 1`` on ``[0, y*]`` (``inf`` if unbounded)."""
        return _ast.imag_stability_interval(self)

    def is_A_stable(self) -> bool:
        return _ast.is_A_stable(self)

    def is_L_stable(self) -> bool:
        return _ast.is_L_stable(self)

    def is_symplectic(self) -> bool:
        """``b_i a_ij + b_j a_ji = b_i b_j`` for all i, j (HLW thm. VI.4.3)."""
        return _sym.is_symplectic(self)

    def order_conditions(self, p: int, *, weights: str = "b"):
        """Residuals of the order conditions of every rooted tree with ``|t| <= p``."""
        return _oc.order_conditions(self, p, weights=weights)

    def order_from_conditions(self, max_order: int = 6, *, weights: str = "b") -> int:
        """Largest p <= max_order whose order conditions all hold (independent of ``order``)."""
        return _oc.order_of(self, max_order, weights=weights)

    # -- display -------------------------------------------------------------
    def __repr__(self) -> str:
        emb = f", embedded order {self.order_hat}" if self.has_embedded else ""
        return f"ButcherTableau({self.name!r}, s={self.s}, order={self.order}, {self.kind}{emb})"

    def _entry(self, key, index):
        if self.latex is not None and key in self.latex:
            return self.latex[key][index[0]][index[1]] if key == "A" else self.latex[key][index[0]]
        if self.exact is not None and self.exact.get(key) is not None:
            x = self.exact[key][index] if key == "A" else self.exact[key][index[0]]
            return _latex.coefficient(x)
        x = self.A[index] if key == "A" else getattr(self, key)[index[0]]
        return f"{x:.6g}"

    def to_latex(self) -> str:
        """The tableau as a LaTeX ``array``: ``c | A`` above, ``bᵀ`` (and ``b̂ᵀ``) below."""
        s = self.s
        rows = [
            self._entry("c", (i,)) + " & " + " & ".join(self._entry("A", (i, j)) for j in range(s))
            for i in range(s)
        ]
        body = r" \\ ".join(rows) + r" \\ \hline "
        body += " & " + " & ".join(self._entry("b", (j,)) for j in range(s))
        if self.has_embedded:
            body += r" \\ \hat b & " + " & ".join(self._entry("b_hat", (j,)) for j in range(s))
        return r"\begin{array}{c|" + "c" * s + "}" + body + r"\end{array}"

    def _repr_latex_(self) -> str:
        return "$$" + self.to_latex() + "$$"
