"""LaTeX for exact and float coefficients: the one formatter every object's ``_repr_latex_`` uses.

Polynomials are in ascending powers (as everywhere in robonum); Fractions
give ``\\tfrac{p}{q}``, floats six significant digits.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction


def coefficient(c) -> str:
    """``\\tfrac{1}{6}`` for a Fraction, ``0.0833333`` for a float, ``2`` for an integer value."""
    if isinstance(c, numbers.Rational) and not isinstance(c, bool):
        c = Fraction(c)
        if c.denominator == 1:
            return str(c.numerator)
        sign = "-" if c < 0 else ""
        return rf"{sign}\tfrac{{{abs(c.numerator)}}}{{{c.denominator}}}"
    x = float(c)
    return str(int(x)) if x.is_integer() and abs(x) < 1e15 else f"{x:.6g}"


MAX_TERMS = 1000  # coefficients of a typeset polynomial: a stability function has a few dozen


def _coefficients(name: str, coeffs) -> list:
    """A polynomial's coefficients (a ``Polynomial`` or a sequence of numbers) as a list.

    Each is a finite real number (a Fraction, an int, a float), at most ``MAX_TERMS`` of them.
    """
    if hasattr(coeffs, "coef"):
        coeffs = coeffs.coef
    elif isinstance(coeffs, (str, bytes, dict)) or not hasattr(coeffs, "__iter__"):
        raise TypeError(f"{name} must be a sequence of coefficients, got {type(coeffs).__name__}")
    out = []
    for c in coeffs:
        if len(out) == MAX_TERMS:
            raise ValueError(f"{name} must hold at most {MAX_TERMS} coefficients")
        real = isinstance(c, numbers.Real) and not isinstance(c, bool)
        # a Fraction is exact and may exceed a float's range: only a float can be NaN or inf
        if not real or not (isinstance(c, numbers.Rational) or math.isfinite(c)):
            raise TypeError(f"{name} must hold finite real numbers, got {c!r:.40}")
        out.append(c)
    return out


def polynomial(coeffs, var: str = "z") -> str:
    """``sum_k c_k var^k`` as LaTeX; zero terms dropped, unit coefficients written without "1"."""
    return _polynomial(coeffs, var, "coeffs")


def _polynomial(coeffs, var: str, name: str) -> str:
    coeffs = _coefficients(name, coeffs)
    if not coeffs:
        raise ValueError(f"{name} must not be empty")
    if not isinstance(var, str) or not var:
        raise TypeError("var must be a non-empty string")
    terms = []
    for k, c in enumerate(coeffs):
        if c == 0:
            continue
        body = coefficient(abs(c))
        power = "" if k == 0 else var if k == 1 else f"{var}^{{{k}}}"
        if power and body == "1":
            body = ""
        terms.append(
            ("-" if c < 0 else "+", (body + (" " if body and power else "") + power) or "1")
        )
    if not terms:
        return "0"
    text = " ".join(f"{s} {t}" for s, t in terms)
    return text[2:] if text.startswith("+ ") else "-" + text[2:]


def rational(P, Q, var: str = "z") -> str:
    """``P/Q`` as LaTeX; a denominator equal to 1 gives just the polynomial."""
    _coefficients("P", P)
    q = _coefficients("Q", Q)
    if q and q[0] == 1 and all(c == 0 for c in q[1:]):
        return _polynomial(P, var, "P")
    return rf"\frac{{{_polynomial(P, var, 'P')}}}{{{_polynomial(Q, var, 'Q')}}}"
