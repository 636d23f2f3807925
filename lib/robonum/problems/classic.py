"""Classic test problems: logistic, Dahlquist, the stiff cosine problem,
Van der Pol and Robertson.

Every factory returns an :class:`robonum.ODEProblem` with an analytic
Jacobian ``jac``, the exact solution ``exact`` where a closed form exists,
and ``params`` naming the parameters (with units where they have any).
``exact(t)`` accepts a scalar ``t`` (returns shape ``(n,)``) or a 1-D array
of times (returns shape ``(n, len(t))``, like ``Solution.y``), for ``t`` in
``[t0, t0 + L]`` where ``L`` is the factory's longest allowed span: there
the closed form is finite (no ``e^{λτ}`` overflow, no decay run backwards).

Every parameter has a documented range (``ValueError`` naming it outside):
the ranges are wide enough for every experiment in the book and keep
``f``, ``jac`` and ``exact`` finite at every combination of them.

Sign convention of the library: the Dahlquist test equation is ``y' = λy``
with ``z = hλ``; a decaying mode has ``Re λ < 0``.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _validate as check
from ..problem import ODEProblem
from . import _checks

MAX_SPAN = 1e6  # time units; the closed forms below are finite for any τ in [0, MAX_SPAN]
MAX_GROWTH = 100.0  # Re λ·(t1 - t0): growth by at most e^100 ≈ 2.7e43, so λ·y stays finite
MAX_RATE = 1e8  # |Re λ|, |Im λ| of Dahlquist [1/time]
MAX_Y0 = 1e6  # |y0| of the scalar problems


def logistic(y0: float = 0.1, r: float = 1.0, K: float = 1.0, t_span=(0.0, 10.0)) -> ODEProblem:
    """Logistic growth ``y' = r y (1 - y/K)``.

    Exact solution ``y(t) = K / (1 + (K/y0 - 1) e^{-r (t - t0)})``, evaluated
    as ``K y0 / (y0 (1 - E) + K E)`` (``r >= 0``) or ``K y0 E / (y0 E + K - y0)``
    (``r < 0``) with ``E = e^{-|r| τ} <= 1``: sums of positive terms, so
    nothing overflows or cancels.
    The printed chapter (ch. 1.18, example ①) measures orders on the logistic equation
    without stating its data; our documented default is ``y' = y(1 - y)``,
    ``y(0) = 0.1`` on ``[0, 10]`` (the solution rises smoothly from 0.1 to
    0.99959).  Reference: Hairer, Nørsett & Wanner, *Solving ODEs I*, sec. I.

    Allowed: ``y0`` and ``K`` in [1e-6, 1e6] (a population in units where
    it is O(1); ``y0 > 0`` keeps the solution positive); ``r`` in
    [-1e3, 1e3] per time unit, and ``r < 0`` only with ``y0 <= K`` (with
    ``r < 0`` and ``y0 > K`` the solution blows up in finite time);
    ``t1 - t0 <= 1e6``.
    """
    y0 = check.positive("y0", y0, lo=1e-6, hi=1e6)
    r = check.real("r", r, -1e3, 1e3)
    K = check.positive("K", K, lo=1e-6, hi=1e6)
    if r < 0 and y0 > K:
        raise ValueError(
            f"with r < 0 (r = {r:g}) y0 must be <= K (got y0 = {y0:g}, K = {K:g}): "
            f"above K a negative rate drives y to infinity in finite time"
        )
    t0, _ = _checks.span(t_span, MAX_SPAN, "the longest span of the catalogue's scalar problems")

    def f(t, y):
        return r * y * (1.0 - y / K)

    def jac(t, y):
        return np.array([[r * (1.0 - 2.0 * y[0] / K)]])

    def exact(t):
        x = abs(r) * (_checks.times(t, t0, MAX_SPAN) - t0)
        E, one_minus_E = np.exp(-x), -np.expm1(-x)  # E in (0, 1]
        if r >= 0:  # denominator y0 (1 - E) + K E: positive terms, no cancellation
            return np.stack([K * y0 / (y0 * one_minus_E + K * E)])
        if y0 == K:  # the equilibrium (y0 E may underflow to 0 below)
            return np.stack([np.full_like(E, K)])
        return np.stack([K * y0 * E / (y0 * E + (K - y0))])  # y0 < K: positive terms

    return ODEProblem(
        f,
        [y0],
        t_span,
        jac=jac,
        exact=exact,
        name="logistic",
        params={"r_per_time": r, "capacity_K": K, "y0": y0},
    )


def _growth_window(lam_re: float, t_span) -> tuple[float, float]:
    """``t0`` and the longest allowed span for a mode growing like ``e^{Re λ τ}``."""
    window = MAX_SPAN if lam_re <= 0 else min(MAX_SPAN, MAX_GROWTH / lam_re)
    t0, t1 = check.interval("t_span", t_span)
    if t1 - t0 > window:
        raise ValueError(
            f"lam and t_span: Re(lam)·(t1 - t0) must be <= {MAX_GROWTH:g} (growth by "
            f"at most e^{MAX_GROWTH:g}) and t1 - t0 <= {MAX_SPAN:g}; got Re(lam) = "
            f"{lam_re:g}, t_span = ({t0:g}, {t1:g}), so t1 - t0 must be "
            f"<= {window:.6g}"
        )
    return t0, window


def dahlquist(lam=-1.0, y0=1.0, t_span=(0.0, 1.0)) -> ODEProblem:
    """Dahlquist test equation ``y' = λ y``, exact ``y = e^{λ(t - t0)} y0``.

    Real ``λ`` gives a scalar problem.  A complex ``λ = a + ib`` with
    ``b != 0`` is written in real form for our real integrators:
    ``u = (Re y, Im y)``, ``u' = [[a, -b], [b, a]] u``, whose eigenvalues are
    ``a ± ib``; ``y0`` may then be complex.  Stability of a one-step method
    with step ``h`` depends only on ``z = hλ`` (Hairer & Wanner, *Solving
    ODEs II*, sec. IV.2).

    Allowed: ``|Re λ|, |Im λ| <= 1e8`` per time unit; ``|y0| <= 1e6``
    (real part and imaginary part each; ``y0`` must be real when ``λ`` is);
    ``t1 - t0 <= 1e6`` and, for a growing mode, ``Re λ·(t1 - t0) <= 100``
    (growth by at most e^100 ≈ 2.7e43, so ``y`` and ``λy`` stay finite);
    ``exact(t)`` accepts the same window after ``t0``.
    """
    lam = _checks.complex_("lam", lam, MAX_RATE)
    t0, window = _growth_window(lam.real, t_span)
    if lam.imag == 0.0:
        y0 = check.real("y0", y0, -MAX_Y0, MAX_Y0)
        a = lam.real

        def exact_real(t):
            return np.stack([y0 * np.exp(a * (_checks.times(t, t0, window) - t0))])

        return ODEProblem(
            lambda t, y: a * y,
            [y0],
            t_span,
            jac=lambda t, y: np.array([[a]]),
            exact=exact_real,
            name="dahlquist",
            params={"lambda_per_time": a, "y0": y0},
        )
    z0 = _checks.complex_("y0", y0, MAX_Y0)
    a, b = lam.real, lam.imag
    M = np.array([[a, -b], [b, a]])

    def exact(t):
        y = z0 * np.exp(lam * (_checks.times(t, t0, window) - t0))
        return np.stack([y.real, y.imag])

    return ODEProblem(
        lambda t, y: M @ y,
        [z0.real, z0.imag],
        t_span,
        jac=lambda t, y: M.copy(),
        exact=exact,
        name="dahlquist (complex λ)",
        params={"lambda_per_time": lam, "y0": z0},
    )


def stiff_cosine(lam: float = -1000.0, y0: float = 1.0, t_span=(0.0, 1.0)) -> ODEProblem:
    """The stiff test problem ``y' = λ (y - cos t) - sin t`` with ``λ < 0``.

    ``λ`` is the Jacobian's eigenvalue, as in the Dahlquist equation
    ``y' = λy``: a step ``h`` of a one-step method multiplies a deviation from
    ``cos t`` by ``R(z)``, ``z = hλ``.  Exact: ``y(t) = cos t + (y0 - cos t0)
    e^{λ(t - t0)}``; with the default ``y(0) = 1`` it is just ``cos t``, a
    smooth solution that nevertheless forces explicit methods to
    ``h ≲ 2.785/|λ|`` (RK4).  This is the stiff problem of the printed ch. 1.18
    (example ②), which counts ``λ`` as a positive rate (``λ = 1000``,
    ``λh = 2.5``), i.e. ``lam = -1000`` here, and of its SciPy comparison
    (rtol=1e-6, atol=1e-9 on ``[0, 1]``).
    Reference: Hairer & Wanner, *Solving ODEs II*, sec. IV.1 (a problem of
    the same type, Curtiss-Hirschfelder).

    Allowed: ``λ`` in [-1e9, -1e-6] 1/s (a decay time from 1 ns to 12 days);
    ``|y0| <= 1e6``; ``t1 - t0 <= 1e6``.
    """
    lam = check.real("lam", lam)
    if not -1e9 <= lam <= -1e-6:
        raise ValueError(
            f"lam is the eigenvalue λ of y' = λ(y - cos t) - sin t and must be in "
            f"[-1e9, -1e-6] (a decaying mode), got {lam:g}; the printed chapter's "
            f"rate 1000 is lam = -1000"
        )
    y0 = check.real("y0", y0, -MAX_Y0, MAX_Y0)
    t0, _ = _checks.span(t_span, MAX_SPAN, "the longest span of the catalogue's scalar problems")
    c0 = y0 - math.cos(t0)

    def f(t, y):
        return lam * (y - np.cos(t)) - np.sin(t)

    def exact(t):
        t = _checks.times(t, t0, MAX_SPAN)
        return np.stack([np.cos(t) + c0 * np.exp(lam * (t - t0))])

    return ODEProblem(
        f,
        [y0],
        t_span,
        jac=lambda t, y: np.array([[lam]]),
        exact=exact,
        name=f"stiff cosine (λ={lam:g})",
        params={"lambda_per_s": lam, "y0": y0},
    )


def van_der_pol(mu: float = 1000.0, y0=(2.0, 0.0), t_span=(0.0, 3000.0)) -> ODEProblem:
    """Van der Pol oscillator ``y1' = y2``, ``y2' = μ (1 - y1²) y2 - y1``.

    No closed form.  For ``μ ≫ 1`` the limit cycle has amplitude ≈ 2 and
    period ``T ≈ (3 - 2 ln 2) μ + 3 α μ^{-1/3}`` with ``α ≈ 2.338`` (first
    zero of the Airy function), and the problem is stiff on the slow branches
    (Jacobian eigenvalue ≈ ``μ(1 - y1²)`` ≈ ``-3μ`` at ``y1 = 2``).
    Defaults (``μ = 1000``, ``y0 = (2, 0)``, ``[0, 3000]``) are the
    classic ``vdp1000`` benchmark.  Reference: Hairer & Wanner, *Solving
    ODEs II*, sec. IV.1 and VI.3.

    Allowed: ``μ`` in [1e-3, 1e6]; ``|y1(0)| <= 10`` (5 times the limit
    cycle's amplitude) and ``|y2(0)| <= 10 max(1, μ)`` (on the cycle
    ``|y2|`` peaks near ``4μ/3`` for large ``μ``, 2.7 at ``μ = 1``);
    ``t1 - t0`` at most 1000 limit-cycle periods, ``1000 max(2π, 1.614 μ)``.
    """
    mu = check.positive("mu", mu, lo=1e-3, hi=1e6)
    y0 = _checks.vector("y0", y0, 2, (10.0, 10.0 * max(1.0, mu)), labels=("y1", "y2"))
    period = max(2.0 * math.pi, (3.0 - 2.0 * math.log(2.0)) * mu)
    _checks.span(t_span, 1000.0 * period, f"1000 limit-cycle periods at mu = {mu:g}")

    def f(t, y):
        return np.array([y[1], mu * (1.0 - y[0] ** 2) * y[1] - y[0]])

    def jac(t, y):
        return np.array([[0.0, 1.0], [-2.0 * mu * y[0] * y[1] - 1.0, mu * (1.0 - y[0] ** 2)]])

    return ODEProblem(f, y0, t_span, jac=jac, name=f"Van der Pol (μ={mu:g})", params={"mu": mu})


def robertson(k1: float = 0.04, k2: float = 3e7, k3: float = 1e4, t_span=(0.0, 40.0)) -> ODEProblem:
    """Robertson's chemical kinetics, the classic stiff benchmark.

    ``y1' = -k1 y1 + k3 y2 y3``, ``y2' = k1 y1 - k3 y2 y3 - k2 y2²``,
    ``y3' = k2 y2²`` from ``y(0) = (1, 0, 0)``, with rate constants
    ``k1 = 0.04``, ``k2 = 3·10⁷``, ``k3 = 10⁴``.  The right-hand sides sum
    to zero, so ``y1 + y2 + y3 = 1`` for all ``t`` (a linear invariant that
    every Runge-Kutta and linear multistep method keeps up to rounding and
    the Newton tolerance).  Reference: Hairer & Wanner, *Solving ODEs II*,
    sec. IV.1 (eq. 1.3), interval ``[0, 40]`` there.

    Allowed: each rate in [1e-8, 1e12] (1/s for ``k1``, 1/(conc·s) for
    ``k2, k3``: from a reaction taking years to beyond diffusion-limited);
    ``t1 - t0 <= 1e12`` s (the benchmark is run out to 4e10 and 1e11).
    """
    k1, k2, k3 = (
        check.positive(n, v, lo=1e-8, hi=1e12) for n, v in (("k1", k1), ("k2", k2), ("k3", k3))
    )
    _checks.span(t_span, 1e12, "the benchmark is run to at most ~1e11 s")

    def f(t, y):
        a, b, c = k1 * y[0], k3 * y[1] * y[2], k2 * y[1] ** 2
        return np.array([-a + b, a - b - c, c])

    def jac(t, y):
        return np.array(
            [
                [-k1, k3 * y[2], k3 * y[1]],
                [k1, -k3 * y[2] - 2.0 * k2 * y[1], -k3 * y[1]],
                [0.0, 2.0 * k2 * y[1], 0.0],
            ]
        )

    return ODEProblem(
        f,
        [1.0, 0.0, 0.0],
        t_span,
        jac=jac,
        name="Robertson",
        params={"k1_per_s": k1, "k2_per_conc_per_s": k2, "k3_per_conc_per_s": k3},
    )
