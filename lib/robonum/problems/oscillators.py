"""Conservative oscillators: the harmonic oscillator and the simple pendulum.

State ``y = (q, p)`` with ``q' = p`` (unit mass and length scaled out), so
both are Hamiltonian with ``H = p²/2 + V(q)``; the energy functions here are
the invariants that long-time studies (symplectic vs. RK4) monitor.
``exact(t)`` takes a scalar or a 1-D array of times in
``[t0, t0 + MAX_PHASE/ω]``, like classic.py; the Jacobi-elliptic machinery
of the pendulum lives in :mod:`._elliptic`.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _validate as check
from ..problem import HamiltonianProblem
from . import _checks
from ._elliptic import libration

# ω·(t - t0) <= 1e7 rad (1.6e6 periods of small oscillation): the phase ωτ then
# carries a rounding error <= 1e7·eps ≈ 2e-9 rad, the same as one rounding unit
# in ω itself would cause, so exact() is as accurate as its data.
MAX_PHASE = 1e7
OMEGA_RANGE = (1e-3, 1e6)  # rad/s: a 100-minute sway to a 160 kHz vibration mode
G_OVER_L_RANGE = (1e-2, 1e6)  # 1/s²: a 1 km pendulum on Earth to l = 10 µm
MAX_Q0_HARMONIC, MAX_P0_HARMONIC = 1e6, 1e12
MAX_Q0_PENDULUM = 1e3  # rad (≈160 turns): q0 mod 2π keeps 13 digits
MAX_P0_PENDULUM = 1e4  # rad/s (≈95 000 rpm, beyond any robot joint)
MAX_ENERGY_STATE = 1e100  # |q|, |p| for the energy functions: p², ω²q² stay finite


def _state_pair(y) -> tuple[np.ndarray, np.ndarray]:
    """Split ``y`` of shape (2,) or (2, m) into ``q, p`` (real; NaN/inf pass through)."""
    _checks.refuse_bool("y", y)
    y = check.real_array("y", y, finite=False, max_size=2 * _checks.MAX_TIMES)
    if y.ndim not in (1, 2) or y.shape[0] != 2:
        raise ValueError(f"y must have shape (2,) or (2, m) holding (q, p), got {y.shape}")
    finite = np.isfinite(y)
    if np.any(np.abs(y[finite]) > MAX_ENERGY_STATE):
        # a finite state whose energy is not representable: refuse rather than return inf
        raise ValueError(
            f"y must have finite entries of size <= {MAX_ENERGY_STATE:g} "
            f"(the energy of a larger state overflows)"
        )
    return y[0], y[1]


def harmonic_oscillator(
    omega: float = 1.0, q0: float = 1.0, p0: float = 0.0, t_span=(0.0, 10.0)
) -> HamiltonianProblem:
    """``q' = p``, ``p' = -ω² q``; eigenvalues ``±iω`` (purely oscillatory).

    Exact: ``q = q0 cos ωτ + (p0/ω) sin ωτ``, ``p = -ω q0 sin ωτ + p0 cos ωτ``
    with ``τ = t - t0``.  Energy ``H = p²/2 + ω² q²/2`` (see
    :func:`harmonic_energy`).  Reference: Hairer, Lubich & Wanner,
    *Geometric Numerical Integration*, sec. I.1.

    Allowed: ``ω`` in [1e-3, 1e6] rad/s (a 100-minute sway to a 160 kHz
    vibration mode); ``|q0| <= 1e6``, ``|p0| <= 1e12`` (amplitude 1e6 even
    at the highest ω); ``ω (t1 - t0) <= 1e7`` rad, where the phase ``ωτ``
    is still accurate to ~1e7·eps ≈ 2e-9 rad (as accurate as ω itself).
    ``exact(t)`` accepts ``t`` in ``[t0, t0 + 1e7/ω]``.
    """
    w = check.positive("omega", omega, lo=OMEGA_RANGE[0], hi=OMEGA_RANGE[1])
    q0 = check.real("q0", q0, -MAX_Q0_HARMONIC, MAX_Q0_HARMONIC)
    p0 = check.real("p0", p0, -MAX_P0_HARMONIC, MAX_P0_HARMONIC)
    window = MAX_PHASE / w
    t0, _ = _checks.span(
        t_span, window, f"ω·(t1 - t0) <= {MAX_PHASE:g} rad keeps the phase accurate"
    )

    def exact(t):
        tau = _checks.times(t, t0, window) - t0
        c, s = np.cos(w * tau), np.sin(w * tau)
        return np.stack([q0 * c + p0 / w * s, -w * q0 * s + p0 * c])

    return HamiltonianProblem(
        lambda q: w * w * q,
        [q0],
        [p0],
        t_span,
        V=lambda q: 0.5 * w * w * q[0] ** 2,
        hess_V=lambda q: np.array([[w * w]]),
        exact=exact,
        name=f"harmonic oscillator (ω={w:g})",
        params={"omega_rad_per_s": w},
    )


def harmonic_energy(y, omega: float = 1.0) -> np.ndarray:
    """``H = p²/2 + ω² q²/2`` for ``y = (q, p)`` of shape (2,) or (2, m).

    ``ω`` as in :func:`harmonic_oscillator`; finite entries must satisfy
    ``|y| <= 1e100`` (so the energy is finite); a state with a NaN/inf entry (a
    diverged run) has energy ``inf``, never NaN (as ``analysis.energy.separable_energy``).
    """
    w = check.positive("omega", omega, lo=OMEGA_RANGE[0], hi=OMEGA_RANGE[1])
    q, p = _state_pair(y)
    with np.errstate(invalid="ignore", over="ignore"):
        return _inf_if_diverged(0.5 * p * p + 0.5 * w * w * q * q, q, p)


def pendulum_energy(y, g_over_l: float = 1.0) -> np.ndarray:
    """``H = p²/2 - (g/l) cos q`` for ``y = (q, p)`` of shape (2,) or (2, m).

    With ``g/l = 1`` this is the printed chapter's ``H = p²/2 - cos q`` (ch. 1.18,
    example ③); ``q`` is measured from the downward vertical, so the
    minimum ``H = -g/l`` is the pendulum at rest hanging down, and
    ``H = g/l`` is the separatrix (the upright position).  ``g/l`` as in
    :func:`pendulum`; finite entries must satisfy ``|y| <= 1e100``; a state with a
    NaN/inf entry (a diverged run) has energy ``inf``, never NaN.
    """
    w2 = check.positive("g_over_l", g_over_l, lo=G_OVER_L_RANGE[0], hi=G_OVER_L_RANGE[1])
    q, p = _state_pair(y)
    with np.errstate(invalid="ignore", over="ignore"):  # cos(inf) is NaN: replaced below
        return _inf_if_diverged(0.5 * p * p - w2 * np.cos(q), q, p)


def _inf_if_diverged(E, q, p):
    """``inf`` where the state is no longer finite: a NaN energy would hide the divergence."""
    return np.where(np.isfinite(q) & np.isfinite(p), E, np.inf)[()]


def pendulum(
    q0: float = 1.0, p0: float = 0.0, g_over_l: float = 1.0, t_span=(0.0, 1000.0)
) -> HamiltonianProblem:
    """Simple pendulum ``q' = p``, ``p' = -(g/l) sin q`` (``q`` from the downward vertical).

    Hamiltonian ``H = p²/2 - (g/l) cos q`` (:func:`pendulum_energy`).
    Jacobian ``[[0, 1], [-(g/l) cos q, 0]]``: eigenvalues ``±i sqrt((g/l) cos q)``
    near the bottom, so for small amplitude it is the harmonic oscillator with
    ``ω = sqrt(g/l)``.  Defaults ``q0 = 1 rad``, ``p0 = 0``, ``T = 1000``
    reproduce the printed chapter's energy numbers (ch. 1.18, example ③, ``h = 0.1``:
    RK4 energy error 4.6e-5 at ``T = 1000``, Störmer-Verlet bounded by
    1.1e-3); the printed chapter does not state ``q0``, we found ``q0 = 1`` reproduces both.

    Exact solution.  With ``m = sin²(q0/2) + p0²/(4 g/l)``, i.e.
    ``H = (g/l)(2m - 1)``: for libration (``m < 1``, ``H < g/l``)
    ``exact`` is the Jacobi-elliptic solution ``sin(q/2) = k sn(u, m)``,
    ``p = 2kω cn(u, m)``, ``u = ω(t - t0) + u0`` (see :mod:`._elliptic`
    for how it stays accurate up to the separatrix); for rotation or the
    separatrix itself (``H >= g/l``) ``exact`` is None.
    Allowed energies: ``1 - m >= 1e-16``, i.e. ``H <= (g/l)(1 - 2e-16)``,
    or ``H >= g/l``.  In the band between (e.g. ``q0 = math.pi``, where
    ``1 - m = 3.7e-33``) the energy is within one rounding unit of the
    separatrix energy (``H/(g/l) = 1 - 2(1 - m)`` rounds to 1): a double
    cannot tell libration from the separatrix there, no integrator keeps
    ``H`` that well, and the motion (a dwell of ≈ ln(16/(1 - m))/ω near the
    top, set by the last bits of q0 and p0) is not a meaningful test, so
    ``pendulum`` raises ``ValueError``.
    Within the allowed range ``exact`` agrees with 60-digit mpmath values to
    ``2e-14 + 2e-15 (|q0| + ω(t - t0))`` in ``q`` and ``p/ω`` (232 random
    cases with ``1 - m`` from 1.7e-16 to 0.97, ``ω(t - t0)`` up to 1e7).

    Allowed parameters: ``|q0| <= 1e3`` rad (≈160 turns); ``|p0| <= 1e4``
    rad/s; ``g/l`` in [1e-2, 1e6] 1/s² (a 1 km pendulum on Earth to
    ``l = 10 µm``); ``ω (t1 - t0) <= 1e7`` rad with ``ω = sqrt(g/l)``;
    ``exact(t)`` accepts ``t`` in ``[t0, t0 + 1e7/ω]``.
    Reference: Hairer, Lubich & Wanner, *Geometric Numerical Integration*,
    sec. I.1; Lawden, *Elliptic Functions and Applications*, ch. 5.
    """
    q0 = check.real("q0", q0, -MAX_Q0_PENDULUM, MAX_Q0_PENDULUM)
    p0 = check.real("p0", p0, -MAX_P0_PENDULUM, MAX_P0_PENDULUM)
    w2 = check.positive("g_over_l", g_over_l, lo=G_OVER_L_RANGE[0], hi=G_OVER_L_RANGE[1])
    w = math.sqrt(w2)
    window = MAX_PHASE / w
    t0, _ = _checks.span(
        t_span, window, f"sqrt(g/l)·(t1 - t0) <= {MAX_PHASE:g} rad keeps the phase accurate"
    )

    flow = libration(q0, p0, w2)  # None above the separatrix; ValueError in the band

    def exact(t):
        return flow(_checks.times(t, t0, window) - t0)

    return HamiltonianProblem(
        lambda q: w2 * np.sin(q),
        [q0],
        [p0],
        t_span,
        V=lambda q: -w2 * np.cos(q[0]),
        hess_V=lambda q: np.array([[w2 * math.cos(q[0])]]),
        exact=None if flow is None else exact,
        name="pendulum",
        params={"g_over_l_per_s2": w2, "q0_rad": q0, "p0_rad_per_s": p0},
    )
