"""Classic test problems: logistic, Dahlquist, the stiff cosine problem,
Van der Pol and Robertson.

Every factory returns an :class:`robonum.ODEProblem` with an analytic
Jacobian ``jac``, the exact solution ``exact`` where a closed form exists,
and ``params`` naming the parameters (with units where they have any).
``exact(t)`` accepts a scalar ``t`` (returns shape ``(n,)``) or a 1-D array
of times (returns shape ``(n, len(t))``, like ``Solution.y``).

Sign convention of the library: the Dahlquist test equation is ``y' = λy``
with ``z = hλ``; a decaying mode has ``Re λ < 0``.
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from .. import _validate as check
from ..problem import ODEProblem


def _times(t) -> np.ndarray:
    """``t`` as a float array (0-d for a scalar) so exact solutions broadcast."""
    return np.asarray(t, dtype=float)


def logistic(y0: float = 0.1, r: float = 1.0, K: float = 1.0,
             t_span=(0.0, 10.0)) -> ODEProblem:
    """Logistic growth ``y' = r y (1 - y/K)``.

    Exact solution ``y(t) = K / (1 + (K/y0 - 1) e^{-r (t - t0)})``.
    The seed (ch. 1.18, example ①) measures orders on the logistic equation
    without stating its data; our documented default is ``y' = y(1 - y)``,
    ``y(0) = 0.1`` on ``[0, 10]`` (the solution rises smoothly from 0.1 to
    0.99959).  ``y0 > 0`` keeps the solution finite for all ``t``.
    Reference: Hairer, Nørsett & Wanner, *Solving ODEs I*, sec. I.
    """
    y0 = check.positive("y0", y0)
    r = check.real("r", r)
    K = check.positive("K", K)
    t0, _ = check.interval("t_span", t_span)

    def f(t, y):
        return r * y * (1.0 - y / K)

    def jac(t, y):
        return np.array([[r * (1.0 - 2.0 * y[0] / K)]])

    def exact(t):
        e = np.exp(-r * (_times(t) - t0))
        return np.stack([K / (1.0 + (K / y0 - 1.0) * e)])

    return ODEProblem(f, [y0], t_span, jac=jac, exact=exact, name="logistic",
                      params={"r_per_time": r, "capacity_K": K, "y0": y0})


def _complex(name: str, value) -> complex:
    """``value`` as a finite complex number (reals are accepted)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Complex):
        raise TypeError(f"{name} must be a real or complex number, got {type(value).__name__}")
    z = complex(value)
    if not (math.isfinite(z.real) and math.isfinite(z.imag)):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return z


def dahlquist(lam=-1.0, y0=1.0, t_span=(0.0, 1.0)) -> ODEProblem:
    """Dahlquist test equation ``y' = λ y``, exact ``y = e^{λ(t - t0)} y0``.

    Real ``λ`` gives a scalar problem.  A complex ``λ = a + ib`` with
    ``b != 0`` is written in real form for our real integrators:
    ``u = (Re y, Im y)``, ``u' = [[a, -b], [b, a]] u``, whose eigenvalues are
    ``a ± ib``; ``y0`` may then be complex.  Stability of a one-step method
    with step ``h`` depends only on ``z = hλ`` (Hairer & Wanner, *Solving
    ODEs II*, sec. IV.2).
    """
    lam = _complex("lam", lam)
    t0, _ = check.interval("t_span", t_span)
    if lam.imag == 0.0:
        y0 = check.real("y0", y0)
        a = lam.real
        return ODEProblem(lambda t, y: a * y, [y0], t_span,
                          jac=lambda t, y: np.array([[a]]),
                          exact=lambda t: np.stack([y0 * np.exp(a * (_times(t) - t0))]),
                          name="dahlquist", params={"lambda_per_time": a, "y0": y0})
    z0 = _complex("y0", y0)
    a, b = lam.real, lam.imag
    M = np.array([[a, -b], [b, a]])

    def exact(t):
        y = z0 * np.exp(lam * (_times(t) - t0))
        return np.stack([y.real, y.imag])

    return ODEProblem(lambda t, y: M @ y, [z0.real, z0.imag], t_span,
                      jac=lambda t, y: M.copy(), exact=exact, name="dahlquist (complex λ)",
                      params={"lambda_per_time": lam, "y0": z0})


def stiff_cosine(lam: float = 1000.0, y0: float = 1.0, t_span=(0.0, 1.0)) -> ODEProblem:
    """The stiff test problem ``y' = -λ (y - cos t) - sin t`` with ``λ > 0``.

    Exact: ``y(t) = cos t + (y0 - cos t0) e^{-λ(t - t0)}``; with the default
    ``y(0) = 1`` it is just ``cos t``, a smooth solution that nevertheless
    forces explicit methods to ``h ≲ 2.785/λ`` (RK4), because the Jacobian
    eigenvalue is ``-λ`` (so ``z = -hλ`` in the Dahlquist convention).
    This is the stiff problem of the seed ch. 1.18 (example ②, ``λ = 1000``)
    and of its SciPy comparison (rtol=1e-6, atol=1e-9 on ``[0, 1]``).
    Reference: Hairer & Wanner, *Solving ODEs II*, sec. IV.1 (a problem of
    the same type, Curtiss-Hirschfelder).
    """
    lam = check.positive("lam", lam)
    y0 = check.real("y0", y0)
    t0, _ = check.interval("t_span", t_span)
    c0 = y0 - math.cos(t0)

    def f(t, y):
        return -lam * (y - np.cos(t)) - np.sin(t)

    def exact(t):
        t = _times(t)
        return np.stack([np.cos(t) + c0 * np.exp(-lam * (t - t0))])

    return ODEProblem(f, [y0], t_span, jac=lambda t, y: np.array([[-lam]]), exact=exact,
                      name=f"stiff cosine (λ={lam:g})",
                      params={"lambda_per_s": lam, "y0": y0})


def van_der_pol(mu: float = 1000.0, y0=(2.0, 0.0), t_span=(0.0, 3000.0)) -> ODEProblem:
    """Van der Pol oscillator ``y1' = y2``, ``y2' = μ (1 - y1²) y2 - y1``.

    No closed form.  For ``μ ≫ 1`` the limit cycle has amplitude ≈ 2 and
    period ``T ≈ (3 - 2 ln 2) μ + 3 α μ^{-1/3}`` with ``α ≈ 2.338`` (first
    zero of the Airy function), and the problem is stiff on the slow branches
    (Jacobian eigenvalue ≈ ``μ(1 - y1²)`` ≈ ``-3μ`` at ``y1 = 2``).
    Defaults (``μ = 1000``, ``y0 = (2, 0)``, ``[0, 3000]``) are the
    classic ``vdp1000`` benchmark.  Reference: Hairer & Wanner, *Solving
    ODEs II*, sec. IV.1 and VI.3.
    """
    mu = check.positive("mu", mu)
    y0 = check.finite_vector("y0", y0)
    if y0.size != 2:
        raise ValueError(f"y0 must have 2 components (y1, y2), got {y0.size}")
    check.interval("t_span", t_span)

    def f(t, y):
        return np.array([y[1], mu * (1.0 - y[0] ** 2) * y[1] - y[0]])

    def jac(t, y):
        return np.array([[0.0, 1.0],
                         [-2.0 * mu * y[0] * y[1] - 1.0, mu * (1.0 - y[0] ** 2)]])

    return ODEProblem(f, y0, t_span, jac=jac, name=f"Van der Pol (μ={mu:g})",
                      params={"mu": mu})


def robertson(k1: float = 0.04, k2: float = 3e7, k3: float = 1e4,
              t_span=(0.0, 40.0)) -> ODEProblem:
    """Robertson's chemical kinetics, the classic stiff benchmark.

    ``y1' = -k1 y1 + k3 y2 y3``, ``y2' = k1 y1 - k3 y2 y3 - k2 y2²``,
    ``y3' = k2 y2²`` from ``y(0) = (1, 0, 0)``, with rate constants
    ``k1 = 0.04``, ``k2 = 3·10⁷``, ``k3 = 10⁴``.  The right-hand sides sum
    to zero, so ``y1 + y2 + y3 = 1`` for all ``t`` (a linear invariant that
    every Runge-Kutta and linear multistep method keeps up to rounding and
    the Newton tolerance).  Reference: Hairer & Wanner, *Solving ODEs II*,
    sec. IV.1 (eq. 1.3), interval ``[0, 40]`` there.
    """
    k1, k2, k3 = (check.positive(n, v) for n, v in (("k1", k1), ("k2", k2), ("k3", k3)))
    check.interval("t_span", t_span)

    def f(t, y):
        a, b, c = k1 * y[0], k3 * y[1] * y[2], k2 * y[1] ** 2
        return np.array([-a + b, a - b - c, c])

    def jac(t, y):
        return np.array([[-k1, k3 * y[2], k3 * y[1]],
                         [k1, -k3 * y[2] - 2.0 * k2 * y[1], -k3 * y[1]],
                         [0.0, 2.0 * k2 * y[1], 0.0]])

    return ODEProblem(f, [1.0, 0.0, 0.0], t_span, jac=jac, name="Robertson",
                      params={"k1_per_s": k1, "k2_per_conc_per_s": k2,
                              "k3_per_conc_per_s": k3})
