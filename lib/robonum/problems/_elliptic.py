"""The exact pendulum flow below the separatrix, accurate right up to it (private).

Libration of ``q'' = -ω² sin q`` with ``m = k² = sin²(q0/2) + p0²/(4ω²) < 1``:

    sin(q/2) = k sn(u | m),   cos(q/2) = dn(u | m),   p = 2kω cn(u | m),
    u = ω τ + u0,             sn(u0) = sin(q0/2)/k,   cn(u0) = p0/(2ωk)

(Lawden, *Elliptic Functions and Applications*, ch. 5).  Near the
separatrix (``m → 1``) three things go wrong in the textbook evaluation
``q = 2 arcsin(k sn)`` with ``scipy.special.ellipj(u, m)``:

1. ``m`` carries an absolute rounding error of ~eps, so the complementary
   parameter ``m1 = 1 - m``, which sets the quarter period
   ``K ≈ ln(4/sqrt(m1))``, is wrong in relative terms by eps/m1;
2. ``ellipj`` rounds ``m`` again and for ``m1 < 1e-9`` switches to a
   first-order expansion in ``m1`` that is only valid for small ``u``: at
   ``q0 = 3.14159`` (``m1 = 1.8e-12``) ``q(10)`` came out past the turning point;
3. ``arcsin`` is ill-conditioned at the turning point (``k sn → 1``).

So here ``m1`` is computed from the data in 60-digit decimal arithmetic
(``m1 = cos²(q0/2) - p0²/(4ω²)`` cancels catastrophically for ``p0 != 0``),
``u0 = F(φ0 | m)`` by Carlson's ``R_F`` with arguments formed without
cancellation (``1 - m sin²φ0 = cos²(q0/2)``, DLMF 19.25.5), the amplitude
``φ = am(u | m)`` by the descending Landen / AGM recurrence started from
``b0 = sqrt(m1)`` (DLMF 22.20; Abramowitz & Stegun 16.4) with each
``arcsin(x)`` written as ``atan2(x, sqrt(1 - x²))`` where ``1 - x²`` is
formed from the AGM terms without cancellation, and finally
``q = 2 atan2(k sn, dn)`` with ``dn = sqrt(m1 + m cn²)``.  Every step is
then well conditioned: ``|dq/dφ| <= 2`` and ``|dp/dφ| <= 2kω``, so the
state error is about twice the absolute error of ``φ``, i.e. a few eps
times ``u``: measured against 60-digit mpmath values, at most
``2e-14 + 2e-15 (|q0| + u)`` in ``q`` and ``p/ω`` over the allowed range.
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext

import numpy as np

from .. import _scipy

M1_MIN = 1e-16  # 1 - m below this: H is within a rounding unit of g/l (see pendulum)
_EPS = float(np.finfo(float).eps)
_PI = Decimal("3.14159265358979323846264338327950288419716939937510582097494459230781640629")


def _cos_sin(x: Decimal) -> tuple[Decimal, Decimal]:
    """``cos x, sin x`` by their Taylor series, for ``|x| <= 2`` in the current context."""
    c, s, term, n = Decimal(0), Decimal(0), Decimal(1), 0
    while True:
        # term = x^n / n!; even n feed cos, odd n feed sin, with alternating signs
        if n % 2 == 0:
            c += term if n % 4 == 0 else -term
        else:
            s += term if n % 4 == 1 else -term
        n += 1
        term = term * x / n
        if abs(term) < Decimal(10) ** -70:
            return c, s


def _data(q0: float, p0: float, w2: float) -> tuple[float, float, float, float, float, float]:
    """``center, sin(ql/2), cos²(ql/2), p0²/(4ω²), m, m1`` from the float data.

    ``ql = q0 - 2πj`` is the angle from the nearest downward position.  In
    60 digits, ``m1 = cos²(ql/2) - p0²/(4ω²)`` is exact to far below one
    rounding unit even when the two terms nearly cancel.
    """
    j = round(q0 / (2.0 * math.pi))
    with localcontext() as ctx:
        ctx.prec = 60
        half = (Decimal(q0) - 2 * j * _PI) / 2
        c, s = _cos_sin(half)
        v2 = Decimal(p0) ** 2 / (4 * Decimal(w2))
        m1 = c * c - v2
        m = s * s + v2
    return 2.0 * math.pi * j, float(s), float(c * c), float(v2), float(m), float(m1)


def _amplitude(u: np.ndarray, m: float, m1: float) -> np.ndarray:
    """``φ = am(u | m)`` by the AGM / descending Landen recurrence, ``m1 = 1 - m`` given exactly.

    ``a0 = 1, b0 = sqrt(m1), c0 = sqrt(m)``; ``a_{n+1} = (a_n + b_n)/2``,
    ``b_{n+1} = sqrt(a_n b_n)``, ``c_{n+1} = (a_n - b_n)/2`` until ``c_N <= eps a_N``;
    ``φ_N = 2^N a_N u``, ``φ_{n-1} = (φ_n + arcsin(c_n sin φ_n / a_n))/2``
    (Abramowitz & Stegun 16.4).  Because ``a_n² = b_n² + c_n²``, the arcsin
    is ``atan2(c_n sin φ_n, sqrt(b_n² + c_n² cos² φ_n))``: no ``1 - x²``
    cancellation where ``x → 1`` (the first levels when ``m1`` is tiny).
    """
    a, b, c = [1.0], [math.sqrt(m1)], [math.sqrt(m)]
    while c[-1] > _EPS * a[-1]:
        an, bn = a[-1], b[-1]
        a.append(0.5 * (an + bn))
        b.append(math.sqrt(an * bn))
        c.append(0.5 * (an - bn))
    n = len(a) - 1  # about log2(ln(1/m1)) + 4 levels; 11 at m1 = 1e-16
    phi = (2.0**n * a[n]) * u
    for i in range(n, 0, -1):
        sin, cos = np.sin(phi), np.cos(phi)
        phi = 0.5 * (phi + np.arctan2(c[i] * sin, np.sqrt(b[i] * b[i] + (c[i] * cos) ** 2)))
    return phi


def libration(q0: float, p0: float, w2: float):
    """The exact flow ``τ -> (q, p)(t0 + τ)`` (arrays: shape ``(2,) + τ.shape``), or None.

    None above or on the separatrix (``m1 <= 0``: rotation, or the
    homoclinic orbit); ``ValueError`` for ``0 < m1 < M1_MIN``.
    """
    center, s, c2, v2, m, m1 = _data(q0, p0, w2)
    if m1 <= 0.0:
        return None
    if m1 < M1_MIN:
        raise ValueError(
            f"pendulum: q0 = {q0!r}, p0 = {p0!r} (g_over_l = {w2:g}) put the energy "
            f"H = p0²/2 - (g/l) cos q0 only (g/l)·{2 * m1:.2g} below the separatrix H = g/l "
            f"(1 - m = {m1:.2g}, m = sin²(q0/2) + p0²/(4 g/l)); the exact solution is provided "
            f"for libration with 1 - m >= {M1_MIN:g}, i.e. H <= (g/l)(1 - {2 * M1_MIN:g}), and "
            f"for rotation H >= g/l (exact=None).  Move q0 or p0 away from the upright position."
        )
    w, k = math.sqrt(w2), math.sqrt(m)
    K = float(_scipy.special().elliprf(0.0, m1, 1.0))  # quarter period in u
    if k == 0.0:
        u0 = 0.0  # at rest at the bottom
    else:
        # F(φ0|m) = sin φ0 R_F(cos²φ0, 1 - m sin²φ0, 1) for |φ0| <= π/2 (DLMF 19.25.5),
        # with sin φ0 = s/k, cos²φ0 = v²/m and 1 - m sin²φ0 = cos²(ql/2);
        # a negative p0 (cn(u0) < 0) is the mirror point u0 = 2K - F.
        F = s / k * float(_scipy.special().elliprf(v2 / m, c2, 1.0))
        u0 = F if p0 >= 0.0 else 2.0 * K - F

    def flow(tau: np.ndarray) -> np.ndarray:
        phi = _amplitude(w * tau + u0, m, m1)
        cn = np.cos(phi)
        dn = np.sqrt(m1 + m * cn * cn)  # 1 - m sn², without cancellation
        return np.stack([center + 2.0 * np.arctan2(k * np.sin(phi), dn), 2.0 * k * w * cn])

    return flow
