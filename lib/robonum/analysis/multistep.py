"""Linear multistep methods: BDF coefficients, order, root condition, stability region.

A k-step linear multistep method (LMM) for ``y' = f(t, y)`` is written, with
``alpha[0]`` multiplying the newest value,

    sum_{j=0}^{k} alpha_j y_{n+1-j} = h sum_{j=0}^{k} beta_j f_{n+1-j}.

Its characteristic polynomials are

    rho(zeta) = sum_j alpha_j zeta^(k-j),   sigma(zeta) = sum_j beta_j zeta^(k-j),

returned as ``numpy.polynomial.Polynomial`` (ascending powers of zeta, like
every polynomial in robonum).  Applied to Dahlquist's ``y' = lambda y`` with
``z = h lambda`` the method is a linear recurrence with characteristic
equation ``rho(zeta) - z sigma(zeta) = 0``; ``z`` lies in the stability
region when every root has ``|zeta| <= 1`` (roots on the circle simple).

The functions take the coefficient arrays; the catalogue objects
(``rn.methods.get("bdf3")``, a :class:`robonum.methods.LinearMultistep`)
offer the same analysis as methods.

References: Hairer, Norsett & Wanner, *Solving ODEs I*, sec. III.1-III.3
(BDF, order, root condition, Dahlquist barrier); Hairer & Wanner, *Solving
ODEs II*, sec. V.1-V.2 (stability regions, A(alpha)-stability of BDF).
"""

from __future__ import annotations

import numbers
from fractions import Fraction

import numpy as np
import numpy.polynomial.polynomial as npoly

from .. import _scipy
from .. import _validate as check
from .zero_stability import MAX_K, ZeroStability, zero_stability  # noqa: F401 -- root condition

_CHUNK = 65536  # points per batched eigenvalue call (bounds memory)
MAX_POINTS = 2_000_000  # one call of max_root_modulus
MAX_Q = 60  # error constants C_0 .. C_q: q! and j^q stay exact, and no method here needs q > 21
TINY = np.finfo(float).tiny  # smallest normal double
MAX_COEF = 1e8  # |alpha_j|, |beta_j|: methods in use stay below 100; beyond, rho, sigma overflow


# ---------------------------------------------------------------- BDF ------
def _bdf_exact(k: int) -> tuple[list[Fraction], Fraction]:
    """Exact BDF-k coefficients from the interpolating polynomial.

    In the scaled variable ``s = (t - t_{n+1}) / h`` the nodes are
    ``s_j = -j`` (``j = 0..k``), and ``p'(t_{n+1}) = (1/h) sum_j l_j'(0) y_{n+1-j}``
    with the Lagrange basis ``l_j``.  Setting this equal to ``f_{n+1}`` and
    dividing by ``l_0'(0)`` gives ``alpha_j = l_j'(0) / l_0'(0)``,
    ``beta_0 = 1 / l_0'(0)``.
    """
    nodes = [Fraction(-j) for j in range(k + 1)]
    dl = []
    for j, sj in enumerate(nodes):
        others = [sm for m, sm in enumerate(nodes) if m != j]
        denom = Fraction(1)
        for sm in others:
            denom *= sj - sm
        deriv = Fraction(0)  # d/ds prod_m (s - s_m) at s = 0: sum over the dropped factor
        for drop in range(len(others)):
            term = Fraction(1)
            for i, sm in enumerate(others):
                if i != drop:
                    term *= -sm
            deriv += term
        dl.append(deriv / denom)
    return [d / dl[0] for d in dl], 1 / dl[0]


def bdf_coefficients(k: int, *, exact: bool = False, allow_unstable: bool = False):
    """Coefficients ``(alpha, beta0)`` of the k-step BDF method.

    ``sum_{j=0}^{k} alpha_j y_{n+1-j} = h beta0 f(t_{n+1}, y_{n+1})`` with
    ``alpha_0 = 1``, from differentiating the polynomial interpolating
    ``y_{n+1}, ..., y_{n+1-k}`` at ``t_{n+1}``.  BDF-k has order k and
    ``beta0 = 1 / (1 + 1/2 + ... + 1/k)``.  ``k`` is 1..6; ``allow_unstable``
    permits up to 12, for studying the loss of zero-stability.
    Example: ``bdf_coefficients(2) -> (array([1, -4/3, 1/3]), 2/3)``.
    Reference: Hairer, Norsett & Wanner, *Solving ODEs I*, sec. III.1.
    """
    k = check.integer("k", k, 1, MAX_K if check.boolean("allow_unstable", allow_unstable) else 6)
    alpha, beta0 = _bdf_exact(k)
    if check.boolean("exact", exact):
        return alpha, beta0
    return np.array([float(a) for a in alpha]), float(beta0)


# ------------------------------------------------- general LMM polynomials --
def _is_exact(values) -> bool:
    return all(isinstance(x, numbers.Rational) and not isinstance(x, bool) for x in values)


def lmm_arrays(alpha, beta) -> tuple[np.ndarray, np.ndarray]:
    """Validate ``(alpha, beta)``: equal length k+1 in [2, 13], finite, ``alpha[0] != 0``."""
    a = check.real_array("alpha", alpha, ndim=1, max_size=MAX_K + 1, abs_max=MAX_COEF)
    bt = check.real_array("beta", beta, ndim=1, max_size=MAX_K + 1, abs_max=MAX_COEF)
    if a.size < 2:
        raise ValueError(f"alpha must have k+1 >= 2 entries, got {a.size}")
    if bt.size != a.size:
        raise ValueError(f"beta must have the same length as alpha ({a.size}), got {bt.size}")
    if a[0] == 0.0:
        raise ValueError("alpha[0] must be nonzero (it multiplies the newest value y_{n+1})")
    for name, c in (("alpha", a), ("beta", bt)):  # subnormal: few digits, 1/sigma overflows
        if np.any((c != 0.0) & (np.abs(c) < TINY)):
            raise ValueError(
                f"{name} entries must be 0 or >= {TINY:.3g} in magnitude: {c.tolist()}"
            )
    return a, bt


def characteristic_polynomials(alpha, beta) -> tuple[npoly.Polynomial, npoly.Polynomial]:
    """``(rho, sigma)`` as ``Polynomial`` objects in ascending powers of zeta.

    ``rho(zeta) = sum_j alpha_j zeta^(k-j)``, so its ascending coefficients
    are ``alpha`` reversed.  Example: backward Euler ``([1, -1], [1, 0])``
    gives ``rho = -1 + zeta``, ``sigma = zeta``.
    Reference: Hairer, Norsett & Wanner, *Solving ODEs I*, sec. III.2.
    """
    a, bt = lmm_arrays(alpha, beta)
    return npoly.Polynomial(a[::-1]), npoly.Polynomial(bt[::-1])


def error_constants(alpha, beta, q_max: int) -> list:
    """``C_0 .. C_{q_max}`` of the Taylor expansion of the local residual.

    With ``y_{n+1-j} = y(t - j h)``:
    ``C_q = sum_j alpha_j (-j)^q / q! - sum_j beta_j (-j)^(q-1) / (q-1)!``.
    Exact Fractions when every coefficient is rational; ``q_max`` in ``[0, MAX_Q]``.
    """
    q_max = check.integer("q_max", q_max, 0, MAX_Q)
    lmm_arrays(alpha, beta)  # the checks; the sums below keep exact Fractions
    one = Fraction(1) if _is_exact(list(alpha) + list(beta)) else 1.0
    out, fact = [], one
    for q in range(q_max + 1):
        if q > 0:
            fact *= q
        c = sum(a * one * (-j) ** q for j, a in enumerate(alpha)) / fact
        if q > 0:
            c -= sum(bj * one * (-j) ** (q - 1) for j, bj in enumerate(beta)) * q / fact
        out.append(c)
    return out


def lmm_order(alpha, beta, *, max_order: int = 20) -> int:
    """Order p: the largest p with ``C_0 = ... = C_p = 0`` (0 if inconsistent).

    Exact for rational coefficients; floats use the tolerance 1e-12 relative
    to ``max |alpha|`` (the constants are sums of O(k^q) terms of that size).
    Reference: Hairer, Norsett & Wanner, *Solving ODEs I*, sec. III.2 (order).
    """
    a, _ = lmm_arrays(alpha, beta)  # validates both, even when exact
    max_order = check.integer("max_order", max_order, 1, 40)
    exact = _is_exact(list(alpha) + list(beta))
    scale = 0 if exact else 1e-12 * float(np.max(np.abs(a)))
    consts = error_constants(
        list(alpha) if exact else a, list(beta) if exact else beta, max_order + 1
    )
    p = -1
    for q, c in enumerate(consts):
        if abs(c) > scale:
            break
        p = q
    return max(p, 0)


# ---------------------------------------------- stability region (z = h*lam) --
def boundary_locus(alpha, beta, theta=None) -> np.ndarray:
    """Boundary locus ``z(theta) = rho(e^{i theta}) / sigma(e^{i theta})``.

    The points ``z`` for which ``rho(zeta) - z sigma(zeta)`` has a root on the
    unit circle; the boundary of the stability region is part of this curve.
    ``theta`` defaults to 2001 points on ``[0, 2 pi]`` (at most 10^6).  Where
    ``sigma(e^{i theta}) = 0`` (or the quotient overflows) the value is complex infinity.
    Example: BDF1 gives the circle ``|z - 1| = 1``.
    Reference: Hairer & Wanner, *Solving ODEs II*, sec. V.1 (boundary locus).
    """
    a, bt = lmm_arrays(alpha, beta)
    th = (
        np.linspace(0.0, 2 * np.pi, 2001)
        if theta is None
        else check.real_array("theta", theta, max_size=1_000_000)
    )
    zeta = np.exp(1j * th)
    num, den = np.polyval(a, zeta), np.polyval(bt, zeta)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        z = num / den
    return np.where((den == 0) | ~np.isfinite(z), complex(np.inf, 0.0), z)


def _complex_points(z) -> np.ndarray:
    return check.complex_points("z", z, MAX_POINTS)


def max_root_modulus(alpha, beta, z) -> np.ndarray:
    """``max |zeta|`` over the roots of ``rho(zeta) - z sigma(zeta)`` for each ``z``.

    Batched companion-matrix eigenvalues, in chunks (memory stays bounded).
    Where the leading coefficient ``alpha_0 - z beta_0`` vanishes a root
    escapes to infinity and the result is ``inf``.
    """
    a, bt = lmm_arrays(alpha, beta)
    zz = _complex_points(z)
    flat = zz.ravel()
    out = np.full(flat.shape, np.inf)
    k = a.size - 1
    for i in range(0, flat.size, _CHUNK):
        zc = flat[i : i + _CHUNK]
        coef = a[None, :] - zc[:, None] * bt[None, :]  # (N, k+1)
        lead = coef[:, 0]
        ok = np.abs(lead) > 1e-14 * np.abs(coef).max(axis=1)
        comp = np.zeros((int(ok.sum()), k, k), dtype=complex)
        comp[:, 0, :] = -coef[ok, 1:] / lead[ok, None]
        if k > 1:
            comp[:, np.arange(1, k), np.arange(k - 1)] = 1.0
        part = np.full(zc.shape, np.inf)
        part[ok] = np.abs(np.linalg.eigvals(comp)).max(axis=1)
        out[i : i + _CHUNK] = part
    return out.reshape(zz.shape)


def lmm_is_stable(alpha, beta, z, *, tol: float = 1e-9) -> np.ndarray:
    """Boolean mask: ``z`` in the stability region (every root ``|zeta| <= 1 + tol``).

    Multiple roots on the circle are ignored (a set of measure zero); this is
    meant for region plots and sampling.
    """
    tol = check.positive("tol", tol, hi=0.1)
    return max_root_modulus(alpha, beta, z) <= 1 + tol


def alpha_angle(alpha, beta) -> float:
    """A(alpha) angle in degrees (90 = A-stable) of a method whose region is the locus' exterior.

    For BDF-k (k <= 6) the stability region is the exterior of the boundary
    locus, so the largest sector ``{|arg(-z)| < alpha}`` inside it touches
    the locus: ``alpha = min |arg(-z(theta))|`` over locus points with
    ``Re z < 0`` (90 degrees if there are none).  Minimised on a fine grid,
    refined with a bounded scalar minimisation.  The assumption (region =
    exterior) is checked at one point of the claimed wedge.
    Reference: Hairer & Wanner, *Solving ODEs II*, sec. V.2 (BDF1-6 give
    90, 90, 86.03, 73.35, 51.84, 17.84 degrees).
    """
    a, bt = lmm_arrays(alpha, beta)

    def angle(th):
        z = boundary_locus(a, bt, np.atleast_1d(th))
        ang = np.abs(np.angle(-z))
        return np.where(z.real < 0, ang, np.pi / 2)

    th = np.linspace(1e-6, np.pi, 20001)  # the locus is symmetric: z(-theta) = conj z(theta)
    vals = angle(th)
    i = int(np.argmin(vals))
    best = float(vals[i])
    if best < np.pi / 2:
        lo, hi = th[max(i - 1, 0)], th[min(i + 1, th.size - 1)]
        res = _scipy.optimize().minimize_scalar(
            lambda t: float(angle(t)[0]),
            bounds=(lo, hi),
            method="bounded",
            options={"xatol": 1e-13},
        )
        best = min(float(res.fun), best)
    probe = -10.0 * np.exp(1j * 0.5 * best)  # inside the claimed wedge, far out
    if not lmm_is_stable(a, bt, probe):
        raise ValueError(
            "alpha_angle assumes the stability region is the exterior of the boundary locus "
            f"(as for BDF); for these alpha and beta it is not (z = {probe:.3g} is unstable)"
        )
    return float(np.degrees(best))


def is_A_stable(alpha, beta) -> bool:
    """A-stable: the whole half-plane ``Re z <= 0`` is in the stability region.

    The region's boundary lies on the locus, so it suffices that the locus
    never enters ``Re z < 0`` (up to 1e-12) and that one point of the
    half-plane, ``z = -1``, is stable (Hairer & Wanner II, sec. V.1).
    """
    a, bt = lmm_arrays(alpha, beta)
    locus = boundary_locus(a, bt)
    finite = np.isfinite(locus)
    scale = 1.0 + np.abs(locus[finite]).max(initial=0.0)
    return bool(np.all(locus[finite].real >= -1e-12 * scale) and lmm_is_stable(a, bt, -1.0))
