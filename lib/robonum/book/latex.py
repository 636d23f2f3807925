"""Typeset polynomials and rational functions (exact Fractions or floats) as LaTeX.

The chapters show ``R(z) = P(z)/Q(z)`` as mathematics, not as printed
text: ``rational(P, Q)`` gives ``\\frac{1 + \\tfrac{1}{3} z}{1 - \\tfrac{2}{3} z + \\tfrac{1}{6} z^{2}}``.
Coefficients are in ascending powers, as every polynomial in robonum.
"""
from __future__ import annotations

from fractions import Fraction
import numbers

import numpy as np

from .numbers import fmt


def _coef_tex(c) -> str:
    if isinstance(c, numbers.Rational) and not isinstance(c, bool):
        c = Fraction(c)
        return str(c.numerator) if c.denominator == 1 else rf"\tfrac{{{c.numerator}}}{{{c.denominator}}}"
    return fmt(float(c), 6)


def polynomial(coeffs, var: str = "z") -> str:
    """``sum_k c_k var^k`` as LaTeX; zero terms dropped, unit coefficients written without "1"."""
    coeffs = list(coeffs.coef) if hasattr(coeffs, "coef") else list(coeffs)
    if not coeffs:
        raise ValueError("coeffs must not be empty")
    if not isinstance(var, str) or not var:
        raise TypeError("var must be a non-empty string")
    terms = []
    for k, c in enumerate(coeffs):
        if c == 0:
            continue
        negative = c < 0
        mag = abs(c)
        body = _coef_tex(mag)
        power = "" if k == 0 else var if k == 1 else f"{var}^{{{k}}}"
        if power and body == "1":
            body = ""
        terms.append(("-" if negative else "+", (body + (" " if body and power else "") + power) or "1"))
    if not terms:
        return "0"
    text = " ".join(f"{s} {t}" for s, t in terms)
    return text[2:] if text.startswith("+ ") else "-" + text[2:]


def rational(P, Q, var: str = "z") -> str:
    """``P/Q`` as LaTeX; a constant denominator 1 gives just the polynomial."""
    q = list(Q.coef) if hasattr(Q, "coef") else list(Q)
    if all(c == 0 for c in q[1:]) and q and q[0] == 1:
        return polynomial(P, var)
    return rf"\frac{{{polynomial(P, var)}}}{{{polynomial(Q, var)}}}"


def stability_function(method) -> str:
    """``R(z)`` of a Runge-Kutta tableau, exact when its coefficients are rational."""
    exact = getattr(method, "exact", None) is not None
    P, Q = method.stability_polynomials(exact=exact)
    if not exact:
        P, Q = np.round(P.coef, 12), np.round(Q.coef, 12)
    return rational(P, Q)
