"""Linear multistep methods: BDF coefficients, root condition, boundary locus.

A k-step linear multistep method (LMM) for ``y' = f(t, y)`` is written, with
``alpha[0] = 1`` multiplying the newest value,

    sum_{j=0}^{k} alpha_j y_{n+1-j} = h sum_{j=0}^{k} beta_j f_{n+1-j}.

Its characteristic polynomials (in powers of zeta, highest first) are

    rho(zeta)   = sum_j alpha_j zeta^(k-j),   sigma(zeta) = sum_j beta_j zeta^(k-j).

Applied to the Dahlquist test ``y' = lambda y`` with ``z = h lambda`` the
method is a linear recurrence whose characteristic equation is
``rho(zeta) - z sigma(zeta) = 0``; ``z`` lies in the stability region when
every root satisfies ``|zeta| <= 1`` (roots on the circle simple).

References: Hairer, Norsett & Wanner, *Solving ODEs I*, sec. III.1-III.3
(BDF, root condition, Dahlquist barrier); Hairer & Wanner, *Solving ODEs II*,
sec. V.1-V.2 (stability regions, A(alpha)-stability of BDF).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .. import _validate as check

# Above this modulus-excess a root is "outside" the unit circle; roots this
# close to the circle count as "on" it (numpy's polynomial roots carry
# rounding errors of order 1e-14 for these small, well-scaled polynomials).
_ROOT_TOL = 1e-9


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
        # d/ds prod_m (s - s_m) at s = 0: sum over the dropped factor.
        deriv = Fraction(0)
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
    ``alpha_0 = 1``, obtained by differentiating the polynomial interpolating
    ``y_{n+1}, ..., y_{n+1-k}`` at ``t_{n+1}`` (exact in Fractions, then
    converted).  BDF-k has order k; ``beta0 = 1 / (1 + 1/2 + ... + 1/k)``.
    Example: ``bdf_coefficients(2) -> (array([1, -4/3, 1/3]), 2/3)``.

    Parameters
    ----------
    k : int
        Number of steps, 1..6 (BDF with k >= 7 is not zero-stable).
    exact : bool
        Return ``(list[Fraction], Fraction)`` instead of floats.
    allow_unstable : bool
        Permit ``k`` up to 12, for studying the loss of zero-stability.

    Reference: Hairer, Norsett & Wanner, *Solving ODEs I*, sec. III.1
    (backward differentiation formulas).
    """
    check.integer("k", k, 1, 12 if allow_unstable else 6)
    alpha, beta0 = _bdf_exact(int(k))
    if exact:
        return alpha, beta0
    return np.array([float(a) for a in alpha]), float(beta0)


# ------------------------------------------------- general LMM polynomials --
def _lmm_arrays(alpha, beta):
    """Validate ``(alpha, beta)``: equal length k+1 >= 2, finite, alpha_0 != 0."""
    a = check.finite_vector("alpha", alpha)
    bt = check.finite_vector("beta", beta)
    if a.size < 2:
        raise ValueError(f"alpha must have k+1 >= 2 entries, got {a.size}")
    if bt.size != a.size:
        raise ValueError(f"beta must have the same length as alpha ({a.size}), got {bt.size}")
    if a[0] == 0.0:
        raise ValueError("alpha[0] must be nonzero (it multiplies the newest value y_{n+1})")
    return a, bt


def characteristic_polynomials(alpha, beta) -> tuple[np.ndarray, np.ndarray]:
    """``(rho, sigma)`` of the LMM ``sum alpha_j y_{n+1-j} = h sum beta_j f_{n+1-j}``.

    ``rho(zeta) = sum_j alpha_j zeta^(k-j)`` and ``sigma(zeta) = sum_j beta_j zeta^(k-j)``,
    coefficient arrays with the highest power first (``np.polyval`` order),
    which is simply ``alpha`` and ``beta`` themselves.
    Example: ``characteristic_polynomials([1, -1], [1, 0])`` (backward Euler)
    gives ``rho = zeta - 1``, ``sigma = zeta``.

    Reference: Hairer, Norsett & Wanner, *Solving ODEs I*, sec. III.2.
    """
    a, bt = _lmm_arrays(alpha, beta)
    return a, bt


def bdf_polynomials(k: int, *, allow_unstable: bool = False):
    """``(rho, sigma)`` of BDF-k: ``rho = sum alpha_j zeta^(k-j)``, ``sigma = beta0 zeta^k``."""
    alpha, beta0 = bdf_coefficients(k, allow_unstable=allow_unstable)
    sigma = np.zeros_like(alpha)
    sigma[0] = beta0
    return alpha, sigma


def lmm_order(alpha, beta, *, max_order: int = 20) -> int:
    """Order p of a consistent LMM from its error constants (exact if given Fractions).

    With ``y_{n+1-j} = y(t - j h)`` Taylor expansion gives
    ``C_q = sum_j alpha_j (-j)^q / q! - sum_j beta_j (-j)^(q-1) / (q-1)!``;
    the order is the largest p with ``C_0 = ... = C_p = 0``.  Floats use the
    tolerance 1e-12 relative to ``max |alpha|``.  Returns 0 if inconsistent.

    Reference: Hairer, Norsett & Wanner, *Solving ODEs I*, sec. III.2 (order).
    """
    exact = all(isinstance(x, (int, Fraction)) for x in list(alpha) + list(beta))
    if not exact:
        alpha, beta = _lmm_arrays(alpha, beta)
    check.integer("max_order", max_order, 1, 40)
    one = Fraction(1) if exact else 1.0
    scale = 0 if exact else 1e-12 * max(abs(float(a)) for a in alpha)
    p, fact = -1, one  # fact = q!
    for q in range(max_order + 2):
        if q > 0:
            fact *= q
        c = sum(a * one * (-j) ** q for j, a in enumerate(alpha)) / fact
        if q > 0:
            c -= sum(bj * one * (-j) ** (q - 1) for j, bj in enumerate(beta)) * q / fact
        if abs(c) > scale:
            break
        p = q
    return max(p, 0)


# ----------------------------------------------------------- root condition --
@dataclass(frozen=True)
class ZeroStability:
    """Result of the root condition for ``rho``.

    ``stable`` is True when every root has ``|zeta| <= 1`` and the roots on the
    unit circle are simple; ``roots`` are sorted by decreasing modulus, so
    ``roots[0]`` is the offending root when unstable; ``max_modulus`` its size.
    """

    stable: bool
    roots: np.ndarray
    max_modulus: float
    reason: str


def _multiplicity(roots: np.ndarray, r: complex, tol: float) -> int:
    return int(np.sum(np.abs(roots - r) <= tol))


def zero_stability(alpha) -> ZeroStability:
    """Check the root condition for ``rho(zeta) = sum_j alpha_j zeta^(k-j)``.

    Zero-stable iff all roots lie in the closed unit disc and those of modulus
    one are simple (Dahlquist).  A root counts as on the circle within 1e-9
    and as repeated when two roots are within 1e-6 (multiple roots of a
    polynomial are computed only to about sqrt(machine eps)).
    Example: ``zero_stability(bdf_coefficients(7, allow_unstable=True)[0]).max_modulus``
    is about 1.0222 (a root outside the unit circle: BDF7 is not zero-stable).

    Reference: Hairer, Norsett & Wanner, *Solving ODEs I*, sec. III.3.
    """
    a = check.finite_vector("alpha", alpha)
    if a.size < 2 or a[0] == 0.0:
        raise ValueError("alpha must have k+1 >= 2 entries with alpha[0] != 0")
    roots = np.roots(a)
    roots = roots[np.argsort(-np.abs(roots), kind="stable")]
    mod = np.abs(roots)
    max_mod = float(mod.max()) if roots.size else 0.0
    if max_mod > 1 + _ROOT_TOL:
        return ZeroStability(False, roots, max_mod,
                             f"root {roots[0]:.6g} has modulus {max_mod:.10g} > 1")
    for r in roots[np.abs(mod - 1) <= _ROOT_TOL]:
        if _multiplicity(roots, r, 1e-6) > 1:
            return ZeroStability(False, roots, max_mod,
                                 f"root {r:.6g} on the unit circle is not simple")
    return ZeroStability(True, roots, max_mod, "root condition holds")


# ---------------------------------------------- stability region (z = h*lam) --
def boundary_locus(alpha, beta, theta=None) -> np.ndarray:
    """Boundary locus ``z(theta) = rho(e^{i theta}) / sigma(e^{i theta})``.

    The points ``z`` for which ``rho(zeta) - z sigma(zeta)`` has a root on the
    unit circle; the boundary of the stability region is part of this curve.
    ``theta`` defaults to 2001 points on ``[0, 2 pi]``.  Where
    ``sigma(e^{i theta}) = 0`` the value is complex infinity.
    Example: BDF1 gives the circle ``|z - 1| = 1``.

    Reference: Hairer & Wanner, *Solving ODEs II*, sec. V.1 (boundary locus).
    """
    a, bt = _lmm_arrays(alpha, beta)
    th = np.linspace(0.0, 2 * np.pi, 2001) if theta is None else np.asarray(theta, float)
    if not np.all(np.isfinite(th)):
        raise ValueError("theta must contain only finite values")
    zeta = np.exp(1j * th)
    num, den = np.polyval(a, zeta), np.polyval(bt, zeta)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = num / den
    return np.where(den == 0, complex(np.inf, 0.0), z)


def max_root_modulus(alpha, beta, z) -> np.ndarray:
    """``max |zeta|`` over the roots of ``rho(zeta) - z sigma(zeta)`` for each ``z``.

    Vectorised through batched companion-matrix eigenvalues.  Where the
    leading coefficient ``alpha_0 - z beta_0`` vanishes a root escapes to
    infinity and the result is ``inf``.
    """
    a, bt = _lmm_arrays(alpha, beta)
    z = np.asarray(z, dtype=complex)
    if not np.all(np.isfinite(z)):
        raise ValueError("z must contain only finite values")
    flat = z.ravel()
    coef = a[None, :] - flat[:, None] * bt[None, :]          # (N, k+1)
    lead = coef[:, 0]
    k = a.size - 1
    out = np.full(flat.shape, np.inf)
    ok = np.abs(lead) > 1e-14 * np.abs(coef).max(axis=1)
    comp = np.zeros((int(ok.sum()), k, k), dtype=complex)
    comp[:, 0, :] = -coef[ok, 1:] / lead[ok, None]
    if k > 1:
        comp[:, np.arange(1, k), np.arange(k - 1)] = 1.0
    out[ok] = np.abs(np.linalg.eigvals(comp)).max(axis=1)
    return out.reshape(z.shape)


def lmm_is_stable(alpha, beta, z, *, tol: float = 1e-9) -> np.ndarray:
    """Boolean mask: ``z`` in the stability region, i.e. every root ``|zeta| <= 1 + tol``.

    (Multiple roots on the circle are ignored: they form a set of measure
    zero, and this function is meant for region plots and sampling.)
    """
    return max_root_modulus(alpha, beta, z) <= 1 + tol


def bdf_boundary_locus(k: int, theta=None, *, allow_unstable: bool = False) -> np.ndarray:
    """Boundary locus of BDF-k: ``z(theta) = rho(e^{i theta}) / (beta0 e^{i k theta})``."""
    return boundary_locus(*bdf_polynomials(k, allow_unstable=allow_unstable), theta)


def bdf_alpha_angle(k: int) -> float:
    """A(alpha) angle of BDF-k in degrees (90 means A-stable).

    The stability region of BDF-k (k <= 6) is the exterior of the boundary
    locus, so the largest sector ``{|arg(-z)| < alpha}`` inside it touches
    the locus: ``alpha = min |arg(-z(theta))|`` over locus points with
    ``Re z < 0`` (90 degrees if there are none).  Minimised on a fine grid
    and refined with a bounded scalar minimisation.
    Example: ``bdf_alpha_angle(3)`` is about 86.03.

    Reference: Hairer & Wanner, *Solving ODEs II*, sec. V.2, which lists
    alpha for BDF1-6 as 90, 90, 86.03, 73.35, 51.84, 17.84 degrees.
    """
    from scipy.optimize import minimize_scalar

    check.integer("k", k, 1, 6)
    rho, sigma = bdf_polynomials(k)

    def angle(th):
        z = boundary_locus(rho, sigma, np.atleast_1d(th))
        ang = np.abs(np.angle(-z))
        return np.where(z.real < 0, ang, np.pi / 2)

    th = np.linspace(1e-6, np.pi, 20001)  # locus is symmetric: z(-theta) = conj z(theta)
    vals = angle(th)
    i = int(np.argmin(vals))
    if vals[i] >= np.pi / 2:
        return 90.0
    lo, hi = th[max(i - 1, 0)], th[min(i + 1, th.size - 1)]
    res = minimize_scalar(lambda t: float(angle(t)[0]), bounds=(lo, hi), method="bounded",
                          options={"xatol": 1e-13})
    return float(np.degrees(min(res.fun, vals[i])))
