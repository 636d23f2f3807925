"""What a compiled adaptive loop shares: counted calls of ``f``, the scaled norm, the first step, storage.

The counterparts of ``robonum.work.Work`` (counters ``[nfev, njev, nlu,
n_newton, nsteps, nreject, nfev_jac]`` in one int array), ``StepController.initial_step``
and the driver's saved points, in numba.  A non-finite value cannot raise
an exception with a message from compiled code, so calls return an outcome
code that the Python wrapper (:mod:`robonum.fast.ivp`) turns into ``reason``
and ``message``.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .. import control
from ..jacobian import increments

EPS = float(np.finfo(float).eps)
# outcome codes of a loop
SUCCESS, MAX_STEPS, UNDERFLOW, DIVERGED, NAN_IN_F, STATE_NOT_FINITE = 0, 1, 2, 3, 4, 5
NFEV_JAC = 6  # the slot of nfev_jac in the counters


@numba.njit(cache=False)
def finite(v):
    return math.isfinite(np.sum(v))


@numba.njit(cache=False)
def call_f(f, t, y, cnt, slot=0):
    """``f(t, y)`` counted in ``cnt[slot]`` (0: ``nfev``; ``NFEV_JAC``: a difference Jacobian's
    call); the code tells a non-finite value from a non-finite state."""
    cnt[slot] += 1
    out = f(t, y)
    if finite(out):
        return out, SUCCESS
    return out, NAN_IN_F if finite(y) else STATE_NOT_FINITE


_increments = numba.njit(cache=False)(increments)  # the Python solvers' rule, compiled


@numba.njit(cache=False)
def jacobian(f, jac, has_jac, t, y, fy, w, hgamma, cnt):
    """Analytic, or forward differences with the increments of ``robonum.jacobian`` (as ``Work.jac``)."""
    cnt[1] += 1
    if has_jac:
        return jac(t, y), SUCCESS
    n = y.size
    J = np.empty((n, n))
    delta = (y + _increments(y, fy, w, hgamma)) - y  # the step y really took
    for j in range(n):
        yj = y.copy()
        yj[j] += delta[j]
        fj, code = call_f(f, t, yj, cnt, NFEV_JAC)  # as Work.jac: SciPy's nfev leaves it out
        if code != SUCCESS:
            return J, code
        J[:, j] = (fj - fy) / delta[j]
    return J, SUCCESS


@numba.njit(cache=False)
def rms(v, scale):
    """``sqrt(mean((v / scale)^2))`` over all entries; ``v`` is ``(n,)`` or ``(3, n)``."""
    w = v / scale
    return math.sqrt(np.sum(w * w) / w.size)


smallest_step = numba.njit(cache=False)(control.smallest_step)  # the Python loop's rule, compiled
_at_least = numba.njit(cache=False)(control.at_least)


@numba.njit(cache=False)
def scaled_rms(v, scale):
    """``control.scaled_rms``: :func:`rms`, or where the squares overflow, scaled by the largest entry."""
    plain = rms(v, scale)
    if math.isfinite(plain):
        return plain
    w = np.abs(v / scale)
    m = np.max(w)
    if m == 0.0 or not math.isfinite(m):
        return m
    return m * math.sqrt(np.sum((w / m) ** 2) / w.size)


@numba.njit(cache=False)
def initial_step(f, t0, y0, f0, rtol, atol, order, max_step, cnt):
    """``StepController.initial_step`` (HNW I, sec. II.4): ``h`` from ``y0``, ``f0`` and one more ``f``."""
    scale = atol + rtol * np.abs(y0)
    d0, d1 = scaled_rms(y0, scale), scaled_rms(f0, scale)
    h0 = 1e-6 if d0 < 1e-5 or d1 < 1e-5 else 0.01 * d0 / d1
    h0 = min(_at_least(h0, smallest_step(t0)), max_step)
    f1, code = call_f(f, t0 + h0, y0 + h0 * f0, cnt)
    d2 = scaled_rms(f1 - f0, scale) / h0
    h1 = (
        max(1e-6, h0 * 1e-3)
        if max(d1, d2) <= 1e-15
        else (0.01 / max(d1, d2)) ** (1.0 / (order + 1))
    )
    return min(_at_least(min(100 * h0, h1), smallest_step(t0)), max_step), code


@numba.njit(cache=False)
def save_point(T, Y, row, t, y):
    """Store a point, doubling the arrays when full."""
    if row == T.size:
        T2, Y2 = np.empty(2 * row), np.empty((2 * row, Y.shape[1]))
        T2[:row], Y2[:row] = T, Y
        T, Y = T2, Y2
    T[row], Y[row] = t, y
    return T, Y, row + 1
