"""Conservative oscillators: the harmonic oscillator and the simple pendulum.

State ``y = (q, p)`` with ``q' = p`` (unit mass and length scaled out), so
both are Hamiltonian with ``H = p²/2 + V(q)``; the energy functions here are
the invariants that long-time studies (symplectic vs. RK4) monitor.
``exact(t)`` takes a scalar or a 1-D array of times, like classic.py.
"""
from __future__ import annotations

import math

import numpy as np
import scipy.special

from .. import _validate as check
from ..problem import ODEProblem


def _state_pair(y) -> tuple[np.ndarray, np.ndarray]:
    """Split ``y`` of shape (2,) or (2, m) into ``q, p``."""
    y = np.asarray(y, dtype=float)
    if y.ndim not in (1, 2) or y.shape[0] != 2:
        raise ValueError(f"y must have shape (2,) or (2, m) holding (q, p), got {y.shape}")
    return y[0], y[1]


def harmonic_oscillator(omega: float = 1.0, q0: float = 1.0, p0: float = 0.0,
                        t_span=(0.0, 10.0)) -> ODEProblem:
    """``q' = p``, ``p' = -ω² q``; eigenvalues ``±iω`` (purely oscillatory).

    Exact: ``q = q0 cos ωτ + (p0/ω) sin ωτ``, ``p = -ω q0 sin ωτ + p0 cos ωτ``
    with ``τ = t - t0``.  Energy ``H = p²/2 + ω² q²/2`` (see
    :func:`harmonic_energy`).  Reference: Hairer, Lubich & Wanner,
    *Geometric Numerical Integration*, sec. I.1.
    """
    w = check.positive("omega", omega)
    q0, p0 = check.real("q0", q0), check.real("p0", p0)
    t0, _ = check.interval("t_span", t_span)
    A = np.array([[0.0, 1.0], [-w * w, 0.0]])

    def exact(t):
        tau = np.asarray(t, dtype=float) - t0
        c, s = np.cos(w * tau), np.sin(w * tau)
        return np.stack([q0 * c + p0 / w * s, -w * q0 * s + p0 * c])

    return ODEProblem(lambda t, y: A @ y, [q0, p0], t_span, jac=lambda t, y: A.copy(),
                      exact=exact, name=f"harmonic oscillator (ω={w:g})",
                      params={"omega_rad_per_s": w})


def harmonic_energy(y, omega: float = 1.0) -> np.ndarray:
    """``H = p²/2 + ω² q²/2`` for ``y = (q, p)`` of shape (2,) or (2, m)."""
    w = check.positive("omega", omega)
    q, p = _state_pair(y)
    return 0.5 * p * p + 0.5 * w * w * q * q


def pendulum_energy(y, g_over_l: float = 1.0) -> np.ndarray:
    """``H = p²/2 - (g/l) cos q`` for ``y = (q, p)`` of shape (2,) or (2, m).

    With ``g/l = 1`` this is the seed's ``H = p²/2 - cos q`` (ch. 1.18,
    example ③); ``q`` is measured from the downward vertical, so the
    minimum ``H = -g/l`` is the pendulum at rest hanging down, and
    ``H = g/l`` is the separatrix (the upright position).
    """
    w2 = check.positive("g_over_l", g_over_l)
    q, p = _state_pair(y)
    return 0.5 * p * p - w2 * np.cos(q)


def _libration_exact(q0: float, p0: float, w: float, t0: float):
    """Exact pendulum motion below the separatrix, by Jacobi elliptic functions.

    With ``k² = m = sin²(q0/2) + p0²/(4ω²) < 1``:
    ``q = 2 arcsin(k sn(u, m))``, ``p = 2kω cn(u, m)``, ``u = ω(t - t0) + u0``,
    where the amplitude ``φ0`` of ``u0`` has ``sin φ0 ∝ sin(q0/2)`` and
    ``cos φ0 ∝ p0/(2ω)`` (differentiate ``q`` and use ``dn² = 1 - m sn²``).
    Reference: Lawden, *Elliptic Functions and Applications*, ch. 5.
    """
    center = 2.0 * math.pi * round(q0 / (2.0 * math.pi))   # libration around 2πj
    ql = q0 - center
    m = math.sin(ql / 2) ** 2 + p0 * p0 / (4.0 * w * w)
    k = math.sqrt(m)
    u0 = scipy.special.ellipkinc(math.atan2(math.sin(ql / 2), p0 / (2.0 * w)), m)

    def exact(t):
        u = w * (np.asarray(t, dtype=float) - t0) + u0
        sn, cn, _, _ = scipy.special.ellipj(u, m)
        return np.stack([center + 2.0 * np.arcsin(k * sn), 2.0 * k * w * cn])

    return exact


def pendulum(q0: float = 1.0, p0: float = 0.0, g_over_l: float = 1.0,
             t_span=(0.0, 1000.0)) -> ODEProblem:
    """Simple pendulum ``q' = p``, ``p' = -(g/l) sin q`` (``q`` from the downward vertical).

    Hamiltonian ``H = p²/2 - (g/l) cos q`` (:func:`pendulum_energy`).
    Jacobian ``[[0, 1], [-(g/l) cos q, 0]]``: eigenvalues ``±i sqrt((g/l) cos q)``
    near the bottom, so for small amplitude it is the harmonic oscillator with
    ``ω = sqrt(g/l)``.  Below the separatrix (``H < g/l``) ``exact`` is the
    Jacobi-elliptic solution; above it (rotation) ``exact`` is None.
    Defaults ``q0 = 1 rad``, ``p0 = 0``, ``T = 1000`` reproduce the seed's
    energy numbers (ch. 1.18, example ③, ``h = 0.1``: RK4 energy error
    4.6e-5 at ``T = 1000``, Störmer-Verlet bounded by 1.1e-3); the seed does
    not state ``q0``, we found ``q0 = 1`` reproduces both.
    Reference: Hairer, Lubich & Wanner, *Geometric Numerical Integration*, sec. I.1.
    """
    q0, p0 = check.real("q0", q0), check.real("p0", p0)
    w2 = check.positive("g_over_l", g_over_l)
    t0, _ = check.interval("t_span", t_span)

    def f(t, y):
        return np.array([y[1], -w2 * math.sin(y[0])])

    def jac(t, y):
        return np.array([[0.0, 1.0], [-w2 * math.cos(y[0]), 0.0]])

    below = pendulum_energy([q0, p0], w2) < w2
    exact = _libration_exact(q0, p0, math.sqrt(w2), t0) if below else None
    return ODEProblem(f, [q0, p0], t_span, jac=jac, exact=exact, name="pendulum",
                      params={"g_over_l_per_s2": w2, "q0_rad": q0, "p0_rad_per_s": p0})
