"""Typeset polynomials and rational functions (exact Fractions or floats) as LaTeX.

The chapters show ``R(z) = P(z)/Q(z)`` as mathematics, not as printed
text: ``rational(P, Q)`` gives ``\\frac{1 + \\tfrac{1}{3} z}{1 - \\tfrac{2}{3} z + \\tfrac{1}{6} z^{2}}``.
Coefficients are in ascending powers, as every polynomial in robonum; the
formatter is the library's own (:mod:`robonum._latex`), so a chapter's
formula and an object's ``_repr_latex_`` always agree.
"""

from __future__ import annotations

from .._latex import polynomial, rational


def stability_function(method) -> str:
    """``R(z)`` of a Runge-Kutta tableau, exact when its coefficients are rational."""
    if not callable(getattr(method, "stability_function", None)):
        raise TypeError(
            "method must be a Runge-Kutta tableau (e.g. rn.methods.get('rk4')), "
            f"got {type(method).__name__}"
        )
    return method.stability_function().to_latex()


__all__ = ["polynomial", "rational", "stability_function"]
