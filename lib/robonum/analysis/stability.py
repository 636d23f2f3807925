"""Linear stability of Runge-Kutta methods: R(z), intervals, A- and L-stability.

A Runge-Kutta method applied to Dahlquist's test equation ``y' = lambda y``
with ``z = h lambda`` gives ``y_{n+1} = R(z) y_n`` with the stability function

    R(z) = 1 + z b^T (I - z A)^{-1} 1 = P(z) / Q(z),
    Q(z) = det(I - z A),   P(z) = det(I - z A + z 1 b^T).

The stability region is ``{z : |R(z)| <= 1}``; for a decaying mode
(``Re lambda < 0``) it lies in the left half-plane.  The imaginary axis,
A- and L-stability are in :mod:`robonum.analysis.a_stability`; plotting in
:mod:`robonum.plotting`.

Every function takes a :class:`robonum.ButcherTableau` (look one up with
``rn.methods.get("rk4")``; the tableau also offers these as methods, e.g.
``rn.methods.get("rk4").real_stability_interval()``).  Polynomials come out
as ``numpy.polynomial.Polynomial`` (ascending powers of z) or, exactly, as
lists of ``Fraction`` in ascending powers.

References: Hairer & Wanner, *Solving ODEs II*, sec. IV.2-IV.3 (stability
function, A-stability, the E-polynomial) and sec. IV.3 (L-stability);
Hairer, Lubich & Wanner, *Geometric Numerical Integration*, sec. VI.4
(symplectic Runge-Kutta methods); Butcher (2016), *Numerical Methods for ODEs*, ch. 3.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import numpy.polynomial.polynomial as npoly

from .. import _latex, _scipy
from .. import _validate as check

_CHUNK = 8192  # points per batched solve (bounds memory: CHUNK * s^2 complex)
COEF_TOL = 1e-13  # relative size below which a float coefficient counts as zero
MAX_POINTS = 4_000_000  # one call of R(z): 4e6 points ~ 64 MB of complex results


def require_tableau(tableau, name: str = "tableau"):
    """Require a Butcher tableau (duck-typed: this layer sits below the catalogue)."""
    if not all(hasattr(tableau, a) for a in ("A", "b", "c", "exact", "is_explicit")):
        raise TypeError(
            f"{name} must be a ButcherTableau (e.g. rn.methods.get('rk4')), "
            f"got {type(tableau).__name__}"
        )
    return tableau


# ------------------------------------------------------------- R(z) itself --
class StabilityFunction:
    """Callable ``R(z) = 1 + z b^T (I - z A)^{-1} 1`` of a tableau, vectorised.

    ``R(z)`` accepts a complex scalar or array and returns complex values of
    the same shape.  Each point solves ``(I - z A) k = 1`` (no inverse).  At a
    pole of R (``I - z A`` exactly singular) the value is ``complex(inf, 0)``,
    so ``abs(R(z))`` is ``inf`` there and plots treat it as unstable; near a
    pole the values are large but finite, as they should be.
    """

    def __init__(self, tableau):
        self.tableau = require_tableau(tableau)
        self._A = np.asarray(tableau.A, dtype=complex)
        self._b = np.asarray(tableau.b, dtype=complex)

    def __repr__(self) -> str:
        return f"StabilityFunction({self.tableau.name!r})"

    def to_latex(self) -> str:
        """``P(z)/Q(z)`` as LaTeX: exact fractions for a rational tableau, 6 digits otherwise."""
        exact = self.tableau.exact is not None
        P, Q = stability_polynomials(self.tableau, exact=exact)
        return _latex.rational(P, Q) if exact else _latex.rational(P.coef, Q.coef)

    def _repr_latex_(self) -> str:
        return f"$R(z) = {self.to_latex()}$"

    def _solve_chunk(self, z: np.ndarray) -> np.ndarray:
        s = self._A.shape[0]
        M = np.eye(s)[None, :, :] - z[:, None, None] * self._A[None, :, :]
        rhs = np.ones((z.size, s, 1), dtype=complex)
        try:
            K = np.linalg.solve(M, rhs)[..., 0]
            return 1.0 + z * (K @ self._b)
        except np.linalg.LinAlgError:  # some point sits exactly on a pole
            out = np.empty(z.size, dtype=complex)
            for i, zi in enumerate(z):
                try:
                    k = np.linalg.solve(M[i], rhs[i, :, 0])
                    out[i] = 1.0 + zi * (self._b @ k)
                except np.linalg.LinAlgError:
                    out[i] = complex(np.inf, 0.0)
            return out

    def __call__(self, z):
        zz = check.complex_points(
            "z",
            z,
            MAX_POINTS,
            advice="(evaluate a coarser grid or in pieces)",
            at_infinity="(use R_at_infinity for z -> inf)",
        )
        flat = zz.ravel()
        out = np.empty(flat.shape, dtype=complex)
        for i in range(0, flat.size, _CHUNK):
            out[i : i + _CHUNK] = self._solve_chunk(flat[i : i + _CHUNK])
        return out.reshape(zz.shape) if zz.ndim else complex(out[0])


def stability_function(tableau) -> StabilityFunction:
    """The stability function ``R(z) = 1 + z b^T (I - zA)^{-1} 1`` as a vectorised callable.

    Example: ``stability_function(rn.methods.get("euler"))(-1.0)`` is ``0`` (``R = 1 + z``).
    Reference: Hairer & Wanner, *Solving ODEs II*, sec. IV.2.
    """
    return StabilityFunction(tableau)


# ----------------------------------------------------------- P / Q exactly --
def _charpoly_exact(M: np.ndarray) -> list[Fraction]:
    """Coefficients ``c`` of ``det(w I - M) = sum_k c_k w^(s-k)`` (Faddeev-LeVerrier).

    Exact on Fractions; ``c`` read in ascending order gives ``det(I - z M)``.
    """
    s = M.shape[0]
    eye = np.array([[Fraction(int(i == j)) for j in range(s)] for i in range(s)], dtype=object)
    c = [Fraction(1)]
    Mk = np.zeros((s, s), dtype=object) * Fraction(0)
    for k in range(1, s + 1):
        Mk = M.dot(Mk) + c[-1] * eye
        c.append(-np.trace(M.dot(Mk)) / k)
    return c


def stability_polynomials(tableau, *, exact: bool = False):
    """``(P, Q)`` with ``R = P/Q``, in ascending powers of z.

    ``Q(z) = det(I - zA)`` and ``P(z) = det(I - z(A - 1 b^T))``.  Floats come
    from characteristic polynomials (``det(I - zM)`` has ascending
    coefficients ``np.poly(M)``) as ``numpy.polynomial.Polynomial`` objects
    (trailing zeros trimmed only below 1e-13 of the largest coefficient);
    ``exact=True`` returns lists of Fractions (Faddeev-LeVerrier, length
    s + 1, exact zeros kept) and requires rational coefficients (``tableau.exact``).
    Example: ``stability_polynomials(rn.methods.get("rk4"), exact=True)[0]`` is
    ``[1, 1, 1/2, 1/6, 1/24]``.
    Reference: Hairer & Wanner, *Solving ODEs II*, sec. IV.3.
    """
    tab = require_tableau(tableau)
    check.boolean("exact", exact)
    if exact:
        if tab.exact is None:
            raise ValueError(
                f"exact=True needs rational coefficients; {tab.name!r} has "
                f"irrational (float) entries, so use exact=False"
            )
        A = tab.exact["A"]
        ones_bT = np.array([[bj for bj in tab.exact["b"]] for _ in range(tab.s)], dtype=object)
        return _charpoly_exact(A - ones_bT), _charpoly_exact(A)
    P, Q = float_polynomials(tab)
    scale = max(np.abs(P).max(), np.abs(Q).max())
    return tuple(npoly.Polynomial(npoly.polytrim(c, COEF_TOL * scale)) for c in (P, Q))


def float_polynomials(tab):
    require_tableau(tab, "tab")
    A = np.asarray(tab.A, dtype=float)
    M = A - np.outer(np.ones(tab.s), tab.b)
    return np.real(np.poly(M)), np.real(np.poly(A))


def best_polynomials(tab):
    """Exact (then converted) when possible, else float; plus a zero threshold."""
    require_tableau(tab, "tab")
    if tab.exact is not None:
        P, Q = stability_polynomials(tab, exact=True)
        return [float(p) for p in P], [float(q) for q in Q], P, Q
    P, Q = float_polynomials(tab)
    return list(P), list(Q), None, None


def effective_degree(coef, exact_coef, scale: float) -> int:
    """Effective degree: exact zeros for Fractions, ``|c| <= tol*scale`` for floats."""
    src = exact_coef if exact_coef is not None else coef
    tol = 0 if exact_coef is not None else COEF_TOL * scale
    nz = [j for j, c in enumerate(src) if abs(c) > tol]
    return nz[-1] if nz else -1


def R_at_infinity(tableau) -> float:
    """``lim_{|z| -> inf} R(z)``; ``inf`` when R is unbounded (deg P > deg Q).

    With A invertible this is ``1 - b^T A^{-1} 1`` (Hairer & Wanner II,
    sec. IV.3).  Computed from ``P/Q`` so that singular A is
    handled too: explicit methods (``Q = 1``) give ``inf``; the trapezoidal
    rule (singular A, ``R = (1 + z/2)/(1 - z/2)``) gives ``-1``.
    Example: ``R_at_infinity(rn.methods.get("radau3"))`` is ``0.0``.
    """
    tab = require_tableau(tableau)
    P, Q, Pe, Qe = best_polynomials(tab)
    scale = max(map(abs, P + Q))
    dP, dQ = effective_degree(P, Pe, scale), effective_degree(Q, Qe, scale)
    if dP > dQ:
        return math.inf
    if dP < dQ:
        return 0.0
    if Pe is not None:
        return float(Pe[dP] / Qe[dQ])
    return P[dP] / Q[dQ]


# ------------------------------------------------------ stability intervals --
def trimmed_roots(coef, scale: float) -> np.ndarray:
    """Roots of an ascending float polynomial after dropping negligible top terms.

    (A leading coefficient that is rounding noise would create a huge
    spurious root.)
    """
    c = np.asarray(coef, dtype=float)
    nz = np.flatnonzero(np.abs(c) > COEF_TOL * scale)
    if nz.size == 0 or nz[-1] == 0:
        return np.array([], dtype=complex)
    return npoly.polyroots(c[: nz[-1] + 1]).astype(complex)


def first_crossing(g, candidates, bad, upper_good):
    """Walk away from 0 through sorted crossing candidates (|x| increasing).

    ``bad(x)`` says whether ``|R| > 1`` at x.  Returns the first point where
    R leaves the unit disc, refined by Brent's method on ``g = |R| - 1``,
    or None when every segment stays inside.
    """
    prev_mid = upper_good
    for i, r in enumerate(candidates):
        nxt = candidates[i + 1] if i + 1 < len(candidates) else r + np.sign(r) * max(1.0, abs(r))
        mid = 0.5 * (r + nxt)
        if bad(mid):
            a, b = sorted((prev_mid, mid))
            return _scipy.optimize().brentq(
                g, a, b, xtol=1e-15, rtol=4 * np.finfo(float).eps, maxiter=200
            )
        prev_mid = mid
    return None


def real_stability_interval(tableau) -> float:
    """The ``x* < 0`` with ``|R(x)| <= 1`` on ``[x*, 0]`` (``-inf`` if unbounded).

    Candidates are the negative real roots of ``P - Q`` and ``P + Q``
    (``R = +1`` or ``-1``); between them ``|R| - 1`` has one sign, tested at
    midpoints, and the first exit is refined to about 1e-15 with Brent's
    method on ``|R(x)| - 1`` (R evaluated by linear solves).
    Example: for RK4 it is ``-2.785293563405...``.
    Reference: Hairer & Wanner, *Solving ODEs II*, sec. IV.2.
    """
    tab = require_tableau(tableau)
    R = StabilityFunction(tab)
    P, Q, _, _ = best_polynomials(tab)
    scale = max(map(abs, P + Q))
    roots = np.concatenate(
        [trimmed_roots(np.subtract(P, Q), scale), trimmed_roots(np.add(P, Q), scale)]
    )
    real = roots[np.abs(roots.imag) <= 1e-6 * (1 + np.abs(roots))].real
    cand = sorted((x for x in real if x < -1e-10), reverse=True)

    def g(x):
        return abs(R(x)) - 1.0

    start = cand[0] / 2 if cand else -0.5
    if g(start) > 1e-14:
        return 0.0  # |R| > 1 immediately left of 0
    cross = first_crossing(g, cand, lambda x: g(x) > 1e-14, start)
    return -math.inf if cross is None else float(cross)
