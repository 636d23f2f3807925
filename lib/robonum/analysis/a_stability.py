"""Runge-Kutta stability on the imaginary axis and in the left half-plane: A- and L-stability.

``|R(iy)| <= 1`` exactly where the E-polynomial ``E(y) = |Q(iy)|^2 - |P(iy)|^2``
is non-negative; a method is A-stable iff ``R`` has no pole in
``Re z <= 0``, is bounded at infinity and ``E >= 0`` on the whole axis
(maximum modulus principle), and L-stable if moreover ``R(inf) = 0``.

References: Hairer & Wanner, *Solving ODEs II*, sec. IV.3.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.polynomial.polynomial as npoly

from .stability import (
    COEF_TOL,
    R_at_infinity,
    StabilityFunction,
    best_polynomials,
    effective_degree,
    first_crossing,
    float_polynomials,
    require_tableau,
    trimmed_roots,
)


def e_polynomial(tableau):
    """``E(y) = |Q(iy)|^2 - |P(iy)|^2`` as ascending coefficients in ``w = y^2``.

    ``|R(iy)| <= 1`` exactly where ``E(y) >= 0``.  Computed from
    ``Q(z)Q(-z) - P(z)P(-z)`` (even in z) with ``z^2 = -w``; exact (Fractions)
    when the tableau is rational.  Sign convention of Hairer & Wanner II,
    sec. IV.3.
    """
    tab = require_tableau(tableau)
    P, Q, Pe, Qe = best_polynomials(tab)
    P, Q = (Pe, Qe) if Pe is not None else (P, Q)

    def mirror(c):  # coefficients of c(-z)
        return [cj * (-1) ** j for j, cj in enumerate(c)]

    def mul(a, b):
        out = [0 * a[0]] * (len(a) + len(b) - 1)
        for i, ai in enumerate(a):
            for j, bj in enumerate(b):
                out[i + j] += ai * bj
        return out

    even = [q - p for q, p in zip(mul(Q, mirror(Q)), mul(P, mirror(P)))]
    return [c * (-1) ** (m // 2) for m, c in enumerate(even) if m % 2 == 0]


def _clean_e(tab) -> np.ndarray:
    E = e_polynomial(tab)
    if tab.exact is not None:
        return np.array([float(e) for e in E])
    E = np.array(E, dtype=float)
    P, Q = float_polynomials(tab)
    scale = max(np.abs(P).max(), np.abs(Q).max()) ** 2
    return np.where(np.abs(E) <= 1e3 * COEF_TOL * scale, 0.0, E)


def imag_stability_interval(tableau) -> float:
    """Largest ``y* >= 0`` with ``|R(iy)| <= 1`` on ``[0, y*]`` (``inf`` if all y).

    Uses the roots of the E-polynomial (:func:`e_polynomial`) as crossing
    candidates, midpoint sign tests, and Brent refinement on ``|R(iy)| - 1``.
    Example: RK4 gives ``2*sqrt(2)``; Euler gives 0.
    Reference: Hairer & Wanner, *Solving ODEs II*, sec. IV.3.
    """
    tab = require_tableau(tableau)
    R = StabilityFunction(tab)
    E = _clean_e(tab)
    nz = np.flatnonzero(E)
    if nz.size == 0:
        return math.inf  # |R(iy)| == 1 on the whole axis
    if E[nz[0]] < 0:
        return 0.0  # |R(iy)| > 1 immediately after 0
    w = trimmed_roots(E, 0.0)
    w = w[(np.abs(w.imag) <= 1e-6 * (1 + np.abs(w))) & (w.real > 1e-14)].real
    cand = sorted(np.sqrt(w))

    def bad(y):
        return npoly.polyval(y * y, E) < 0

    cross = first_crossing(lambda y: abs(R(1j * y)) - 1.0, cand, bad, cand[0] / 2 if cand else 0.5)
    return math.inf if cross is None else float(cross)


# ---------------------------------------------------------- A- and L-stable --
def poles(tableau) -> np.ndarray:
    """Poles of R: roots of ``Q(z) = det(I - zA)`` not cancelled by ``P``."""
    tab = require_tableau(tableau)
    P, Q, Pe, Qe = best_polynomials(tab)
    dQ = effective_degree(Q, Qe, max(map(abs, P + Q)))
    if dQ <= 0:
        return np.array([], dtype=complex)
    q = npoly.polyroots(Q[: dQ + 1]).astype(complex)
    size = npoly.polyval(np.abs(q), np.abs(P))
    return q[np.abs(npoly.polyval(q, P)) > 1e-8 * size]


def is_A_stable(tableau) -> bool:
    """A-stable: ``|R(z)| <= 1`` for all ``Re z <= 0``.

    By the maximum modulus principle this holds iff R has no pole in
    ``Re z <= 0`` (and is bounded at infinity, deg P <= deg Q) and
    ``|R(iy)| <= 1`` for all real y, i.e. ``E(y) >= 0`` (Hairer & Wanner II,
    sec. IV.3).  Example: RK4 is not A-stable.
    """
    tab = require_tableau(tableau)
    if math.isinf(R_at_infinity(tab)):
        return False
    if np.any(poles(tab).real <= 0):
        return False
    return math.isinf(imag_stability_interval(tab))


def is_L_stable(tableau) -> bool:
    """L-stable: A-stable and ``R(inf) = 0`` (Hairer & Wanner II, sec. IV.3)."""
    tab = require_tableau(tableau)
    return is_A_stable(tab) and abs(R_at_infinity(tab)) <= 1e-12
