"""Linear stability of Runge-Kutta methods: R(z), intervals, A- and L-stability.

A Runge-Kutta method applied to Dahlquist's test equation ``y' = lambda y``
with ``z = h lambda`` gives ``y_{n+1} = R(z) y_n`` with the stability function

    R(z) = 1 + z b^T (I - z A)^{-1} 1 = P(z) / Q(z),
    Q(z) = det(I - z A),   P(z) = det(I - z A + z 1 b^T).

The stability region is ``{z : |R(z)| <= 1}``; for a decaying mode
(``Re lambda < 0``) it lies in the left half-plane.  Plotting lives in
:mod:`robonum.stability_plot`.

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
from scipy.optimize import brentq

from .. import _validate as check

_CHUNK = 8192      # points per batched solve (bounds memory: CHUNK * s^2 complex)
_COEF_TOL = 1e-13  # relative size below which a float coefficient counts as zero
MAX_POINTS = 4_000_000   # one call of R(z): 4e6 points ~ 64 MB of complex results


def _tableau(tableau):
    """Require a Butcher tableau (duck-typed: this layer sits below the catalogue)."""
    if not all(hasattr(tableau, a) for a in ("A", "b", "c", "exact", "is_explicit")):
        raise TypeError(f"tableau must be a ButcherTableau (e.g. rn.methods.get('rk4')), "
                        f"got {type(tableau).__name__}")
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
        self.tableau = _tableau(tableau)
        self._A = np.asarray(tableau.A, dtype=complex)
        self._b = np.asarray(tableau.b, dtype=complex)

    def __repr__(self) -> str:
        return f"StabilityFunction({self.tableau.name!r})"

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
        try:
            zz = np.asarray(z)
            if zz.dtype == object or zz.dtype.kind not in "biufc":
                raise TypeError
            zz = zz.astype(complex)
        except (TypeError, ValueError, OverflowError):
            raise TypeError(f"z must be a number or an array of numbers, got {type(z).__name__}") from None
        if zz.size > MAX_POINTS:
            raise ValueError(f"z has {zz.size:,} points; at most {MAX_POINTS:,} per call "
                             "(evaluate a coarser grid or in pieces)")
        if not np.all(np.isfinite(zz)):
            raise ValueError("z must contain only finite values (use R_at_infinity for z -> inf)")
        flat = zz.ravel()
        out = np.empty(flat.shape, dtype=complex)
        for i in range(0, flat.size, _CHUNK):
            out[i:i + _CHUNK] = self._solve_chunk(flat[i:i + _CHUNK])
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
    tab = _tableau(tableau)
    check.boolean("exact", exact)
    if exact:
        if tab.exact is None:
            raise ValueError(f"exact=True needs rational coefficients; {tab.name!r} has "
                             f"irrational (float) entries, so use exact=False")
        A = tab.exact["A"]
        ones_bT = np.array([[bj for bj in tab.exact["b"]] for _ in range(tab.s)], dtype=object)
        return _charpoly_exact(A - ones_bT), _charpoly_exact(A)
    P, Q = _float_polynomials(tab)
    scale = max(np.abs(P).max(), np.abs(Q).max())
    return tuple(npoly.Polynomial(npoly.polytrim(c, _COEF_TOL * scale)) for c in (P, Q))


def _float_polynomials(tab):
    A = np.asarray(tab.A, dtype=float)
    M = A - np.outer(np.ones(tab.s), tab.b)
    return np.real(np.poly(M)), np.real(np.poly(A))


def _best_polynomials(tab):
    """Exact (then converted) when possible, else float; plus a zero threshold."""
    if tab.exact is not None:
        P, Q = stability_polynomials(tab, exact=True)
        return [float(p) for p in P], [float(q) for q in Q], P, Q
    P, Q = _float_polynomials(tab)
    return list(P), list(Q), None, None


def _degree(coef, exact_coef, scale: float) -> int:
    """Effective degree: exact zeros for Fractions, ``|c| <= tol*scale`` for floats."""
    src = exact_coef if exact_coef is not None else coef
    tol = 0 if exact_coef is not None else _COEF_TOL * scale
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
    tab = _tableau(tableau)
    P, Q, Pe, Qe = _best_polynomials(tab)
    scale = max(map(abs, P + Q))
    dP, dQ = _degree(P, Pe, scale), _degree(Q, Qe, scale)
    if dP > dQ:
        return math.inf
    if dP < dQ:
        return 0.0
    if Pe is not None:
        return float(Pe[dP] / Qe[dQ])
    return P[dP] / Q[dQ]


# ------------------------------------------------------ stability intervals --
def _roots(coef, scale: float) -> np.ndarray:
    """Roots of an ascending float polynomial after dropping negligible top terms.

    (A leading coefficient that is rounding noise would create a huge
    spurious root.)
    """
    c = np.asarray(coef, dtype=float)
    nz = np.flatnonzero(np.abs(c) > _COEF_TOL * scale)
    if nz.size == 0 or nz[-1] == 0:
        return np.array([], dtype=complex)
    return npoly.polyroots(c[: nz[-1] + 1]).astype(complex)


def _first_crossing(g, candidates, bad, upper_good):
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
            return brentq(g, a, b, xtol=1e-15, rtol=4 * np.finfo(float).eps, maxiter=200)
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
    tab = _tableau(tableau)
    R = StabilityFunction(tab)
    P, Q, _, _ = _best_polynomials(tab)
    scale = max(map(abs, P + Q))
    roots = np.concatenate([_roots(np.subtract(P, Q), scale), _roots(np.add(P, Q), scale)])
    real = roots[np.abs(roots.imag) <= 1e-6 * (1 + np.abs(roots))].real
    cand = sorted((x for x in real if x < -1e-10), reverse=True)

    def g(x):
        return abs(R(x)) - 1.0

    start = cand[0] / 2 if cand else -0.5
    if g(start) > 1e-14:
        return 0.0                         # |R| > 1 immediately left of 0
    cross = _first_crossing(g, cand, lambda x: g(x) > 1e-14, start)
    return -math.inf if cross is None else float(cross)


def e_polynomial(tableau):
    """``E(y) = |Q(iy)|^2 - |P(iy)|^2`` as ascending coefficients in ``w = y^2``.

    ``|R(iy)| <= 1`` exactly where ``E(y) >= 0``.  Computed from
    ``Q(z)Q(-z) - P(z)P(-z)`` (even in z) with ``z^2 = -w``; exact (Fractions)
    when the tableau is rational.  Sign convention of Hairer & Wanner II,
    sec. IV.3.
    """
    tab = _tableau(tableau)
    P, Q, Pe, Qe = _best_polynomials(tab)
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
    P, Q = _float_polynomials(tab)
    scale = max(np.abs(P).max(), np.abs(Q).max()) ** 2
    return np.where(np.abs(E) <= 1e3 * _COEF_TOL * scale, 0.0, E)


def imag_stability_interval(tableau) -> float:
    """Largest ``y* >= 0`` with ``|R(iy)| <= 1`` on ``[0, y*]`` (``inf`` if all y).

    Uses the roots of the E-polynomial (:func:`e_polynomial`) as crossing
    candidates, midpoint sign tests, and Brent refinement on ``|R(iy)| - 1``.
    Example: RK4 gives ``2*sqrt(2)``; Euler gives 0.
    Reference: Hairer & Wanner, *Solving ODEs II*, sec. IV.3.
    """
    tab = _tableau(tableau)
    R = StabilityFunction(tab)
    E = _clean_e(tab)
    nz = np.flatnonzero(E)
    if nz.size == 0:
        return math.inf                    # |R(iy)| == 1 on the whole axis
    if E[nz[0]] < 0:
        return 0.0                         # |R(iy)| > 1 immediately after 0
    w = _roots(E, 0.0)
    w = w[(np.abs(w.imag) <= 1e-6 * (1 + np.abs(w))) & (w.real > 1e-14)].real
    cand = sorted(np.sqrt(w))

    def bad(y):
        return npoly.polyval(y * y, E) < 0

    cross = _first_crossing(lambda y: abs(R(1j * y)) - 1.0, cand, bad,
                            cand[0] / 2 if cand else 0.5)
    return math.inf if cross is None else float(cross)


# ---------------------------------------------------------- A- and L-stable --
def poles(tableau) -> np.ndarray:
    """Poles of R: roots of ``Q(z) = det(I - zA)`` not cancelled by ``P``."""
    tab = _tableau(tableau)
    P, Q, Pe, Qe = _best_polynomials(tab)
    dQ = _degree(Q, Qe, max(map(abs, P + Q)))
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
    tab = _tableau(tableau)
    if math.isinf(R_at_infinity(tab)):
        return False
    if np.any(poles(tab).real <= 0):
        return False
    return math.isinf(imag_stability_interval(tab))


def is_L_stable(tableau) -> bool:
    """L-stable: A-stable and ``R(inf) = 0`` (Hairer & Wanner II, sec. IV.3)."""
    tab = _tableau(tableau)
    return is_A_stable(tab) and abs(R_at_infinity(tab)) <= 1e-12


def symplecticity_residual(tableau):
    """``max |b_i a_ij + b_j a_ji - b_i b_j|``: zero exactly for a symplectic RK method.

    A Runge-Kutta method is symplectic (its flow map preserves the area
    ``dq ∧ dp``) iff ``M = B A + Aᵀ B - b bᵀ = 0`` with ``B = diag(b``)
    (Hairer, Lubich & Wanner, *Geometric Numerical Integration*, thm. VI.4.3).
    Exact (a ``Fraction``) for rational tableaux, a float otherwise.
    Example: Gauss-Legendre methods give 0; RK4 gives 1/36.
    """
    tab = _tableau(tableau)
    if tab.exact is not None:
        A, b = tab.exact["A"], tab.exact["b"]
    else:
        A, b = np.asarray(tab.A), np.asarray(tab.b)
    s = len(b)
    return max(abs(b[i] * A[i][j] + b[j] * A[j][i] - b[i] * b[j])
               for i in range(s) for j in range(s))


def is_symplectic(tableau) -> bool:
    """Symplectic: :func:`symplecticity_residual` is 0 (exactly, or below 1e-14 for floats)."""
    tab = _tableau(tableau)
    r = symplecticity_residual(tab)
    return r == 0 if tab.exact is not None else bool(r <= 1e-14)
