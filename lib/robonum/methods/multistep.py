"""Linear multistep methods as data: the coefficients ``(alpha, beta)``.

    sum_{j=0}^{k} alpha_j y_{n+1-j} = h sum_{j=0}^{k} beta_j f_{n+1-j},   alpha_0 != 0.

A :class:`LinearMultistep` holds the coefficients (exact Fractions when
rational), checks its claimed order against the error constants, and
answers questions about itself through :mod:`robonum.analysis.multistep`
(NodePy's ``LinearMultistepMethod`` is the model).  The catalogue holds
BDF1-BDF6, generated from their definition; :func:`bdf` also builds the
non-zero-stable BDF7+ for study, and :func:`adams_bashforth`,
:func:`adams_moulton` give the classical explicit/implicit Adams methods.

References: Hairer, Norsett & Wanner, *Solving ODEs I*, sec. III.1-III.3;
Hairer & Wanner, *Solving ODEs II*, sec. V.1-V.2.
"""

from __future__ import annotations

from fractions import Fraction

from .. import _validate as check
from ..analysis import multistep as _ms


class LinearMultistep:
    """A k-step method ``sum alpha_j y_{n+1-j} = h sum beta_j f_{n+1-j}``.

    Parameters
    ----------
    name : str
    alpha, beta : sequences of length k + 1 (newest value first); ints and
        Fractions are kept exactly.
    order : int, optional
        Claimed order; checked against the error constants (a mismatch is a
        ``ValueError``).  Computed when omitted.
    allow_unstable : bool
        Accept a method that violates the root condition (e.g. BDF7), for
        study; steppers still refuse it unless asked explicitly.
    """

    family = "lmm"

    def __init__(
        self, name: str, alpha, beta, order: int | None = None, *, allow_unstable: bool = False
    ):
        if not isinstance(name, str) or not name:
            raise TypeError("name must be a non-empty string")
        a, b = _ms.lmm_arrays(alpha, beta)
        exact = _ms._is_exact(list(alpha) + list(beta))
        self.name = name
        self.alpha, self.beta = a, b
        self.alpha.setflags(write=False)
        self.beta.setflags(write=False)
        self.exact = (
            {"alpha": [Fraction(x) for x in alpha], "beta": [Fraction(x) for x in beta]}
            if exact
            else None
        )
        computed = _ms.lmm_order(*(self._coeffs()), max_order=20)
        if order is not None and check.integer("order", order, 0, 20) != computed:
            raise ValueError(
                f"{name}: claimed order {order}, but the error constants give {computed}"
            )
        self.order = computed
        roots = _ms.zero_stability(a)
        self.zero_stable = roots.stable
        if not self.zero_stable and not check.boolean("allow_unstable", allow_unstable):
            raise ValueError(
                f"{name} is not zero-stable: in rho(zeta) of its alpha, "
                f"{roots.reason}; pass allow_unstable=True to study it"
            )

    def _coeffs(self):
        return (self.exact["alpha"], self.exact["beta"]) if self.exact else (self.alpha, self.beta)

    @property
    def k(self) -> int:
        """Number of steps."""
        return self.alpha.size - 1

    @property
    def is_explicit(self) -> bool:
        return self.beta[0] == 0.0

    @property
    def rho(self):
        """``rho(zeta) = sum_j alpha_j zeta^(k-j)`` (``numpy.polynomial.Polynomial``)."""
        return _ms.characteristic_polynomials(self.alpha, self.beta)[0]

    @property
    def sigma(self):
        """``sigma(zeta) = sum_j beta_j zeta^(k-j)`` (``numpy.polynomial.Polynomial``)."""
        return _ms.characteristic_polynomials(self.alpha, self.beta)[1]

    def error_constant(self):
        """``C_{p+1} / sigma(1)``: the leading coefficient of the local error.

        Dividing by ``sigma(1)`` (Henrici's normalisation) makes the constants of
        different methods comparable: the trapezoid rule has -1/12, the smallest
        of all A-stable order-2 methods (Dahlquist; HNW I, sec. III.2, HW II, sec. V.1).
        """
        consts = _ms.error_constants(*self._coeffs(), self.order + 1)
        sigma1 = sum(self._coeffs()[1])
        return consts[self.order + 1] / sigma1

    def zero_stability(self):
        return _ms.zero_stability(self.alpha)

    def boundary_locus(self, theta=None):
        return _ms.boundary_locus(self.alpha, self.beta, theta)

    def max_root_modulus(self, z):
        return _ms.max_root_modulus(self.alpha, self.beta, z)

    def is_stable_at(self, z, *, tol: float = 1e-9):
        return _ms.lmm_is_stable(self.alpha, self.beta, z, tol=tol)

    def alpha_angle(self) -> float:
        """A(alpha) angle in degrees (region = exterior of the boundary locus, as for BDF)."""
        return _ms.alpha_angle(self.alpha, self.beta)

    def is_A_stable(self) -> bool:
        return _ms.is_A_stable(self.alpha, self.beta)

    def to_latex(self) -> str:
        """The method as an equation in ``y_{n+1-j}`` and ``f_{n+1-j}``."""

        def side(coeffs, sym):
            terms = []
            for j, c in enumerate(coeffs):
                if c == 0:
                    continue
                c = Fraction(c).limit_denominator(10**6) if self.exact is None else Fraction(c)
                mag = (
                    ""
                    if abs(c) == 1
                    else (
                        str(abs(c))
                        if c.denominator == 1
                        else rf"\tfrac{{{abs(c.numerator)}}}{{{c.denominator}}}"
                    )
                )
                idx = "n+1" if j == 0 else "n" if j == 1 else f"n-{j - 1}"
                terms.append(("-" if c < 0 else "+") + f" {mag} {sym}_{{{idx}}}")
            text = " ".join(terms).strip()
            return text[1:].strip() if text.startswith("+") else text

        return side(self._coeffs()[0], "y") + " = h\\,(" + side(self._coeffs()[1], "f") + ")"

    def _repr_latex_(self) -> str:
        return "$$" + self.to_latex() + "$$"

    def __repr__(self):
        kind = "explicit" if self.is_explicit else "implicit"
        return f"LinearMultistep({self.name!r}, k={self.k}, order={self.order}, {kind})"


def bdf(k: int, *, allow_unstable: bool = False) -> LinearMultistep:
    """BDF-k from its definition (:func:`robonum.analysis.multistep.bdf_coefficients`).

    ``k`` in 1..6; up to 12 with ``allow_unstable=True`` (BDF7+ are not zero-stable).
    """
    alpha, beta0 = _ms.bdf_coefficients(k, exact=True, allow_unstable=allow_unstable)
    beta = [beta0] + [Fraction(0)] * (len(alpha) - 1)
    return LinearMultistep(f"BDF{k}", alpha, beta, order=k, allow_unstable=allow_unstable)


def _adams(k: int, implicit: bool) -> tuple[list, list]:
    """Adams coefficients: integrate the interpolant of f over [t_n, t_{n+1}] exactly."""
    nodes = (
        [Fraction(1 - j) for j in range(k + 1)] if implicit else [Fraction(-j) for j in range(k)]
    )
    beta = []
    for j, sj in enumerate(nodes):
        poly = [Fraction(1)]  # l_j(s), ascending coefficients
        for m, sm in enumerate(nodes):
            if m != j:
                poly = [
                    (poly[i - 1] if i > 0 else 0) - sm * (poly[i] if i < len(poly) else 0)
                    for i in range(len(poly) + 1)
                ]
                poly = [c / (sj - sm) for c in poly]
        beta.append(sum(c / (i + 1) for i, c in enumerate(poly)))  # integral over s in [0, 1]
    if not implicit:
        beta = [Fraction(0)] + beta
    alpha = [Fraction(1), Fraction(-1)] + [Fraction(0)] * (len(beta) - 2)
    return alpha, beta


def adams_bashforth(k: int) -> LinearMultistep:
    """Explicit k-step Adams-Bashforth method, order k (HNW I, sec. III.1)."""
    k = check.integer("k", k, 1, 8)
    return LinearMultistep(f"Adams-Bashforth {k}", *_adams(k, implicit=False), order=k)


def adams_moulton(k: int) -> LinearMultistep:
    """Implicit k-step Adams-Moulton method, order k + 1 (HNW I, sec. III.1)."""
    k = check.integer("k", k, 1, 8)
    return LinearMultistep(f"Adams-Moulton {k}", *_adams(k, implicit=True), order=k + 1)


ALL = {f"bdf{k}": bdf(k) for k in range(1, 7)}
