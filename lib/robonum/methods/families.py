"""Parametrised families of linear multistep methods, and where A-stability is lost.

* :func:`two_step` -- every two-step method of order >= 2, in Dahlquist's
  normal form with two parameters ``a`` (the second root of ``rho``) and
  ``b`` (how far ``sigma`` is from the order-3 member)::

      rho(zeta)   = (zeta - 1)(zeta - a)
      sigma(zeta) = ((5 + a) zeta^2 + 8 (1 - a) zeta - (1 + 5 a)) / 12 + b (zeta - 1)^2

  ``b = 0`` is the order-3 member (order 4, Milne-Simpson, when ``a = -1``);
  any other ``b`` gives order 2 with error constant ``C = -b / (1 - a)``.
  Known members: Adams-Bashforth 2 ``(0, -5/12)``, Adams-Moulton 2 ``(0, 0)``,
  the trapezoid rule ``(0, 1/12)`` (as a two-step method), BDF2 ``(1/3, 2/9)``.
  On the unit circle ``zeta = e^{i theta}``,
  ``Re(rho(zeta) conj(sigma(zeta))) = (1 - cos theta)^2 (1 + a) (2 b - (1 - a)/6)``,
  so for ``-1 < a < 1`` the method is A-stable exactly when ``b >= (1 - a)/12``,
  i.e. ``C <= -1/12``: the trapezoid rule's constant is the best an A-stable
  order-2 method can have (Dahlquist's second barrier).
* :func:`ndf` -- the numerical differentiation formulas of Klopfenstein and
  Shampine-Reichelt, the BDF variant behind MATLAB's ``ode15s`` and SciPy's
  ``solve_ivp(method="BDF")``::

      sum_{m=1}^{k} (1/m) nabla^m y_{n+1} - kappa gamma_k nabla^{k+1} y_{n+1} = h f_{n+1},
      gamma_k = 1 + 1/2 + ... + 1/k,

  a (k+1)-step method of order k (``kappa = 0`` is BDF-k).
* :func:`a_stability_boundary` -- bisection on ``is_A_stable`` along a
  one-parameter family: the parameter value where A-stability is lost.

References: Dahlquist, BIT 3 (1963) 27-43; Hairer, Norsett & Wanner,
*Solving ODEs I*, sec. III.2-III.3; Hairer & Wanner, *Solving ODEs II*,
sec. V.1; Shampine & Reichelt, SIAM J. Sci. Comput. 18 (1997) 1-22, sec. 2.
"""

from __future__ import annotations

import numbers
from fractions import Fraction
from math import comb

from .. import _validate as check
from .multistep import LinearMultistep

NDF_KAPPA = (
    Fraction(-37, 200),
    Fraction(-1, 9),
    Fraction(-823, 10000),
    Fraction(-83, 2000),
    Fraction(0),
)
"""Shampine & Reichelt's ``kappa`` for NDF1..NDF5 (-0.1850, -1/9, -0.0823, -0.0415, 0)."""

MAX_BISECTIONS = 200


def _exact_or_float(name: str, value, lo: float, hi: float):
    """A rational ``value`` stays an exact Fraction; any other real becomes a float."""
    x = check.real(name, value, lo, hi)
    if isinstance(value, numbers.Rational) and not isinstance(value, bool):
        return Fraction(value)
    return x


def _show(x) -> str:
    return str(x) if isinstance(x, Fraction) else f"{x:.6g}"


def two_step(a=0, b=0) -> LinearMultistep:
    """The two-step method of order >= 2 with parameters ``(a, b)`` (module docstring).

    ``a`` in [-1, 1) (the root condition: ``rho`` has the roots 1 and ``a``),
    ``b`` in [-10, 10].  Ints and Fractions give exact coefficients.
    Coefficients (newest value first, the library's convention)::

        alpha = (1, -(1 + a), a)
        beta  = ((5 + a)/12 + b, 2 (1 - a)/3 - 2 b, -(1 + 5 a)/12 + b)

    Example: ``two_step(0, Fraction(1, 12))`` is the trapezoid rule written
    with two steps (``rho = zeta (zeta - 1)``, ``sigma = zeta (zeta + 1)/2``).
    Reference: Hairer & Wanner, *Solving ODEs II*, sec. V.1 (two-step methods,
    the second barrier); Dahlquist (1963).
    """
    a = _exact_or_float("a", a, -1.0, 1.0)
    if a == 1:
        raise ValueError(
            "a must be in [-1, 1): a = 1 gives rho a double root at 1 (not zero-stable)"
        )
    b = _exact_or_float("b", b, -10.0, 10.0)
    one = Fraction(1) if isinstance(a, Fraction) and isinstance(b, Fraction) else 1.0
    alpha = [one, -(one + a), one * a]
    beta = [(5 + a) * one / 12 + b, 2 * (1 - a) * one / 3 - 2 * b, -(1 + 5 * a) * one / 12 + b]
    return LinearMultistep(f"two-step (a={_show(a)}, b={_show(b)})", alpha, beta)


def ndf(k: int, kappa=None) -> LinearMultistep:
    """NDF-k: BDF-k plus ``-kappa gamma_k nabla^{k+1} y_{n+1}`` (module docstring).

    ``k`` in 1..5; ``kappa`` defaults to Shampine & Reichelt's value
    (:data:`NDF_KAPPA`, the constants in SciPy's BDF and ``ode15s``), any real
    in [-1, 1] otherwise (rationals stay exact).  Returned with ``alpha_0 = 1``
    as a (k+1)-step method of order k; its error constant is
    ``-(1/(k+1) + kappa gamma_k)``.  ``ndf(k, 0)`` is BDF-k.
    Reference: Shampine & Reichelt (1997), sec. 2.
    """
    k = check.integer("k", k, 1, 5)
    kap = NDF_KAPPA[k - 1] if kappa is None else _exact_or_float("kappa", kappa, -1.0, 1.0)
    one = Fraction(1) if isinstance(kap, Fraction) else 1.0
    gamma = sum(Fraction(1, m) for m in range(1, k + 1))

    def nabla(m):  # nabla^m y_{n+1} = sum_j (-1)^j C(m, j) y_{n+1-j}
        return [(-1) ** j * comb(m, j) if j <= m else 0 for j in range(k + 2)]

    coef = [one * 0] * (k + 2)
    for m in range(1, k + 1):
        coef = [c + one * d / m for c, d in zip(coef, nabla(m))]
    coef = [c - kap * (one * gamma) * d for c, d in zip(coef, nabla(k + 1))]
    alpha = [c / coef[0] for c in coef]
    beta = [one / coef[0]] + [one * 0] * (k + 1)
    return LinearMultistep(f"NDF{k} (kappa={_show(kap)})", alpha, beta, order=k)


def a_stability_boundary(
    family, lo: float, hi: float, *, tol: float = 1e-12, max_iter: int = 100
) -> float:
    """The parameter where A-stability is lost along ``family(p)``, ``p`` in ``[lo, hi]``.

    ``family`` maps a real ``p`` to a :class:`LinearMultistep`;
    ``is_A_stable()`` must differ at ``lo`` and ``hi`` (a ``ValueError``
    otherwise).  Bisection until the bracket is shorter than
    ``tol * max(1, |lo|, |hi|)`` or ``max_iter`` (<= 200) halvings; the
    A-stable end of the final bracket is returned, so the result is A-stable.
    The answer is as sharp as ``is_A_stable`` (boundary locus on 2001 points,
    tolerance 1e-12).  Example: ``a_stability_boundary(lambda b: two_step(0, b), 0, 1)``
    is 1/12, the trapezoid rule.
    """
    check.callable_("family", family)
    lo, hi = check.real("lo", lo), check.real("hi", hi)
    if not lo < hi:
        raise ValueError(f"lo must be < hi, got lo = {lo!r}, hi = {hi!r}")
    tol = check.positive("tol", tol, lo=1e-15, hi=0.1)
    max_iter = check.integer("max_iter", max_iter, 1, MAX_BISECTIONS)

    def stable(p):
        m = family(p)
        if not isinstance(m, LinearMultistep):
            raise TypeError(f"family(p) must return a LinearMultistep, got {type(m).__name__}")
        return m.is_A_stable()

    s_lo, s_hi = stable(lo), stable(hi)
    if s_lo == s_hi:
        raise ValueError(
            f"family is {'A-stable' if s_lo else 'not A-stable'} at both lo = {lo:g} "
            f"and hi = {hi:g}: no change of A-stability to bracket"
        )
    width = tol * max(1.0, abs(lo), abs(hi))
    for _ in range(max_iter):
        if hi - lo <= width:
            break
        mid = 0.5 * (lo + hi)
        if stable(mid) == s_lo:
            lo = mid
        else:
            hi = mid
    return lo if s_lo else hi
