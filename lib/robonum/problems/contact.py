"""Penalty contact with a smoothed switch, and the mechanical energy of the hopping leg.

:func:`robonum.problems.penalty_contact` pushes with ``F = max(0, -k_c x - c_c v)``
while the foot penetrates (``x < 0``).  The force is continuous, but its
Jacobian jumps by ``k_c`` at touchdown (``x = 0``) and again at lift-off (the
damper would start to pull, ``F = 0``).  An implicit step that straddles a
switch solves ``G(y) = y - y_n - h f(y) = 0`` for a ``G`` made of two linear
pieces; Newton's method, linearising on one side, can land on the other and
come back -- it cycles instead of converging (Ascher & Petzold, *Computer
Methods for ODEs and DAEs*, sec. on discontinuities).

Remedy here: a law that is continuously differentiable.  With penetration
``p = -x`` and a band half-width ``w`` [m]

* the spring acts on the smoothed penetration ``s(p) = ramp_w(p)``
  (0 for ``p <= -w``, ``(p + w)² / 4w`` inside, ``p`` for ``p >= w``),
* the damper is faded in by a C¹ smoothstep ``q(p)`` (0 at ``-w``, 1 at ``w``),
* "never pulls" is a C¹ ramp of the damper-to-spring ratio (Hunt-Crossley form):

    F = k_c s(p) · ramp_β(1 - c_c v q(p) / (k_c s(p))),   β = 1/2,

  where ``q/s`` equals ``(3 - 2τ)/w`` in the band (``τ = (p + w)/2w``) and
  ``1/p`` beyond it, so it is smooth and bounded.

Outside the bands (``|p| >= w`` and a damper below half or above 1.5 times
the spring force) this is the penalty law exactly; ``w = 0`` reproduces
:func:`penalty_contact` bit for bit.  The spring's potential is ``k_c S(p)``
with ``S' = s`` (``S = (p + w)³ / 12w`` in the band, ``p²/2 + w²/6``
beyond), so with ``c_c = c_leg = 0`` the energy of :func:`leg_energy` is
exactly conserved by the smoothed model.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from ..problem import ODEProblem
from .robots import penalty_contact

MAX_WIDTH = 0.01  # m: a 10 mm band is already a soft pad under a 0.3 m leg


def _width(name: str, value, hi: float) -> float:
    return check.positive(name, value, allow_zero=True, hi=hi)


def _ramp(u: float, w: float) -> tuple[float, float]:
    """Scalar core of :func:`ramp` (plain floats: ``f`` calls it at every evaluation)."""
    if u >= w:
        return (u, 1.0) if w > 0.0 or u > 0.0 else (0.0, 0.0)
    if u <= -w:
        return 0.0, 0.0
    return (u + w) ** 2 / (4.0 * w), (u + w) / (2.0 * w)


BETA = 0.5  # lift-off band: the damper may cancel 50 % to 150 % of the spring before F = 0 is exact


def _force(x: float, v: float, k: float, c: float, w: float) -> tuple[float, float, float]:
    """Scalar core of :func:`penalty_force`: ``(F, dF/dx, dF/dv)``."""
    p = -x
    if w == 0.0:  # the kink law of penalty_contact, written the same way
        if p > 0.0 and k * p - c * v > 0.0:
            return k * p - c * v, -k, -c
        return 0.0, 0.0, 0.0
    if p <= -w:
        return 0.0, 0.0, 0.0
    if p < w:  # s = w τ², q = τ²(3 - 2τ), q/s = (3 - 2τ)/w
        tau = (p + w) / (2.0 * w)
        s, ds, rho, drho = w * tau * tau, tau, (3.0 - 2.0 * tau) / w, -1.0 / (w * w)
    else:
        s, ds, rho, drho = p, 1.0, 1.0 / p, -1.0 / (p * p)
    a = c / k
    R, dR = _ramp(1.0 - a * v * rho, BETA)
    dF_dp = k * (ds * R - s * dR * a * v * drho)
    return k * s * R, -dF_dp, -k * s * dR * a * rho


_ramp_v = np.vectorize(_ramp, otypes=[float, float])
_force_v = np.vectorize(_force, otypes=[float, float, float])


def ramp(u, width):
    """C¹ approximation of ``max(u, 0)`` and its derivative: ``(r, dr)``.

    ``r = 0`` for ``u <= -width``, ``(u + width)² / (4 width)`` for
    ``|u| < width``, ``u`` for ``u >= width``; ``width = 0`` gives
    ``max(u, 0)`` and the step ``u > 0``.  Largest change: ``width/4`` at ``u = 0``.
    ``u`` is a finite real scalar or array; ``width >= 0`` a finite real.
    """
    w = check.positive("width", width, allow_zero=True)
    r, dr = _ramp_v(check.real_array("u", u, min_size=1), w)
    return r, dr


def ramp_integral(u, width):
    """``∫_{-∞}^u ramp(v, width) dv``: 0, ``(u + w)³ / 12w``, ``u²/2 + w²/6`` (``w = 0``: ``max(u, 0)²/2``)."""
    w = check.positive("width", width, allow_zero=True)
    u = check.real_array("u", u, min_size=1)
    if w == 0.0:
        return 0.5 * np.maximum(u, 0.0) ** 2
    return np.where(
        u >= w, 0.5 * u**2 + w**2 / 6.0, np.where(np.abs(u) < w, (u + w) ** 3 / (12.0 * w), 0.0)
    )


def penalty_force(x, v, k_c, c_c, width=0.0):
    """Ground force on the foot and its partial derivatives: ``(F, dF/dx, dF/dv)``.

    ``x`` [m] is the foot height (``x < 0``: penetration), ``v`` [m/s] its
    velocity, ``k_c`` [N/m] and ``c_c`` [N·s/m] the penalty spring and
    damper, ``width`` [m] the half-width ``w`` of the smoothing band (module
    docstring); ``width = 0`` is ``max(0, -k_c x - c_c v)`` for ``x < 0``.
    Penalty contact: Featherstone, *Rigid Body Dynamics Algorithms*, ch. 11.
    ``k_c`` in [1e2, 1e10], ``c_c`` in [0, 1e6], ``width`` in [0, 0.01] (the
    ranges of :func:`penalty_contact`); ``x``, ``v`` finite reals or arrays
    of one shape (at most 1e6 entries).
    """
    k = check.positive("k_c", k_c, lo=1e2, hi=1e10)
    c = check.positive("c_c", c_c, allow_zero=True, hi=1e6)
    w = _width("width", width, MAX_WIDTH)
    x = check.real_array("x", x, min_size=1, max_size=10**6)
    v = check.real_array("v", v, min_size=1, max_size=10**6)
    if x.shape != v.shape:
        raise ValueError(f"x and v must have the same shape, got {x.shape} and {v.shape}")
    return _force_v(x, v, k, c, w)


def smoothed_penalty_contact(width=1e-3, **params) -> ODEProblem:
    """The leg of :func:`robonum.problems.penalty_contact` with the C¹ contact law of width ``w``.

    ``params`` are those of :func:`penalty_contact` (same names, defaults and
    physical ranges: they are checked by it); ``width`` [m] in [0, 0.01]
    (0: the kink law of ``penalty_contact`` exactly).  State
    ``(x_b, x_f, v_b, v_f)`` [m, m, m/s, m/s]; the Jacobian is analytic and
    continuous for ``width > 0``.
    """
    w = _width("width", width, MAX_WIDTH)
    base = penalty_contact(**params)
    P = base.params
    M, mf, kl, cl = P["M_kg"], P["m_foot_kg"], P["k_leg_N_per_m"], P["c_leg_Ns_per_m"]
    L0, kc, cc, g = P["L0_m"], P["k_c_N_per_m"], P["c_c_Ns_per_m"], P["g_m_per_s2"]

    def f(t, y):
        xb, xf, vb, vf = y
        s = kl * (xb - xf - L0) + cl * (vb - vf)
        Fc = _force(xf, vf, kc, cc, w)[0]
        return np.array([vb, vf, -g - s / M, -g + (s + Fc) / mf])

    def jac(t, y):
        _, dx, dv = _force(y[1], y[3], kc, cc, w)
        return np.array(
            [
                [0.0, 0.0, 1.0, 0.0],
                [0.0, 0.0, 0.0, 1.0],
                [-kl / M, kl / M, -cl / M, cl / M],
                [kl / mf, (dx - kl) / mf, cl / mf, (dv - cl) / mf],
            ]
        )

    name = f"leg on penalty contact (k_c={kc:g} N/m, smoothed over ±{w * 1e3:g} mm)"
    return ODEProblem(f, base.y0, base.t_span, jac=jac, name=name, params={**P, "width_m": w})


def leg_energy(problem: ODEProblem, y) -> np.ndarray:
    """Mechanical energy [J] of the leg at every column of ``y`` (shape ``(4,)`` or ``(4, m)``).

    ``E = ½M v_b² + ½m_f v_f² + g (M x_b + m_f x_f) + ½k_leg (x_b - x_f - L0)² + k_c S_w(-x_f)``
    with ``S_w`` = :func:`ramp_integral` (``½ max(-x_f, 0)²`` for the kink
    law).  ``problem`` comes from :func:`penalty_contact` or
    :func:`smoothed_penalty_contact` (its ``params`` give the constants).
    The dampers ``c_leg``, ``c_c`` dissipate it; without them it is conserved.
    """
    if not isinstance(problem, ODEProblem) or "k_c_N_per_m" not in problem.params:
        raise TypeError("problem must come from penalty_contact or smoothed_penalty_contact")
    y = check.real_array("y", y, max_size=4 * 10**7)
    if y.shape[0] != 4 or y.ndim > 2:
        raise ValueError(f"y must have shape (4,) or (4, m), got {y.shape}")
    P = problem.params
    xb, xf, vb, vf = y
    M, mf, g = P["M_kg"], P["m_foot_kg"], P["g_m_per_s2"]
    stretch = xb - xf - P["L0_m"]
    return (
        0.5 * M * vb**2
        + 0.5 * mf * vf**2
        + g * (M * xb + mf * xf)
        + 0.5 * P["k_leg_N_per_m"] * stretch**2
        + P["k_c_N_per_m"] * ramp_integral(-xf, P.get("width_m", 0.0))
    )
