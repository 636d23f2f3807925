"""Radau IIA's step rules: when Newton stops, how a step's outcome sets ``h``, the first guess.

Plain arithmetic on purpose, like :mod:`.radau_jac`: :class:`robonum.steppers.RadauIIA`
calls these functions and :mod:`robonum.fast` compiles the very same ones, so a change
of a rule reaches both paths.  What each path still writes itself is plumbing: the
calls of ``f``, the products with ``T`` and ``T^-1``, the LU solves and the counters.

Reference: Hairer & Wanner, *Solving ODEs II*, sec. IV.8 (RADAU5: ``FACCON``, ``THETA``,
the predicted miss, ``FACNEWT``, ``QUOT1``/``QUOT2``); the 1999 paper for ``s = 5``.
"""

from __future__ import annotations

import math

import numpy as np

EPS = float(np.finfo(float).eps)
KEEP_H = (1.0, 1.2)  # a proposed h/h_old in this band keeps h (and the LUs)
PREDICT = True  # reject a solve early when it is predicted to miss fnewt in time
DIVERGING = 0.99  # a contraction rate at or above this rejects the solve
NEWTON_FAIL = 0.5  # factor for h after a failed solve that predicts nothing better


def carried_rate(faccon: float) -> float:
    """``η`` a new solve starts with: the last solve's ``η = θ/(1 - θ)`` damped, ``max(η, ε)^0.8``.

    It lets a step converge after one iteration when the previous solve contracted well.
    """
    return max(faccon, EPS) ** 0.8


def contraction(dyno, dyno_old, thq_old, theta, faccon, k, nit_max, fnewt):
    """After Newton iteration ``k`` with ``‖ΔW‖ = dyno``: ``(theta, thq, faccon, fail)``.

    ``θ_k = ‖ΔW_k‖/‖ΔW_{k-1}‖`` (the geometric mean of the last two from the third
    iteration on); ``η = θ/(1 - θ)``.  ``fail`` is 0 to go on, else the factor for ``h``:
    ``NEWTON_FAIL`` when ``‖ΔW‖`` is not finite or ``θ >= DIVERGING``; when the predicted
    last correction ``η ‖ΔW‖ θ^(nit_max - 1 - k)`` misses ``fnewt`` by ``q >= 1``,
    ``0.8 q^(-1/(4 + nit_max - 1 - k))``.  ``dyno_old < 0`` (first iteration) and
    ``thq_old < 0`` (no earlier ratio) mean "none yet".
    """
    if not math.isfinite(dyno):
        return theta, thq_old, faccon, NEWTON_FAIL
    if dyno_old < 0.0:
        return theta, thq_old, faccon, 0.0
    thq = dyno / dyno_old
    theta = thq if thq_old < 0.0 else math.sqrt(thq * thq_old)
    if theta >= DIVERGING:
        return theta, thq, faccon, NEWTON_FAIL
    faccon = theta / (1.0 - theta)
    predicted = faccon * dyno * theta ** (nit_max - 1 - k) / fnewt
    if PREDICT and predicted >= 1.0:  # will not converge in time: smaller h
        q = max(1e-4, min(20.0, predicted))
        return theta, thq, faccon, 0.8 * q ** (-1.0 / (4 + nit_max - 1 - k))
    return theta, thq, faccon, 0.0


def converged(faccon: float, dyno: float, fnewt: float) -> bool:
    """Newton has converged when ``η ‖ΔW‖ <= fnewt`` (an estimate of the remaining error)."""
    return faccon * dyno <= fnewt


def step_safety(nit_used: int, nit_max: int) -> float:
    """The controller's safety factor, lower after a hard solve: ``0.9 (1 + 2N)/(nit + 2N)``, at most 0.9."""
    return min(0.9, 0.9 * (1 + 2 * nit_max) / (nit_used + 2 * nit_max))


def kept_step(h_next: float, h: float, need_jac: bool) -> float:
    """``h`` itself when ``J`` is kept and ``h_next/h`` is in ``KEEP_H``: the LUs stay valid."""
    if not need_jac and KEEP_H[0] <= h_next / h <= KEEP_H[1]:
        return h
    return h_next


def rejected_step(h_next: float, h: float, first: bool) -> float:
    """After an error too large: the controller's ``h_next``, or ``h/10`` on the first step
    (the first ``h`` was a guess; RADAU5 does the same)."""
    return 0.1 * h if first else h_next


def stage_guess(t, y, h, t_a, h_a, y_a, Q, c):
    """Stage increments ``Z_i`` from the last step's collocation polynomial, zeros before it.

    ``y_a + Σ_k Q_k x^(k+1) - y`` at ``x = (t + c_i h - t_a)/h_a`` (Horner, all stages at
    once); ``h_a == 0`` means no step yet (``h_a < 0`` is a step backwards in time).
    """
    s = c.size
    if h_a == 0.0:
        return np.zeros((s, y.size))
    x = ((t + c * h - t_a) / h_a).reshape((s, 1))
    acc = Q[s - 1] * x
    for k in range(s - 2, -1, -1):
        acc = (acc + Q[k]) * x
    return y_a + acc - y


__all__ = [
    "KEEP_H",
    "PREDICT",
    "NEWTON_FAIL",
    "carried_rate",
    "contraction",
    "converged",
    "step_safety",
    "kept_step",
    "rejected_step",
    "stage_guess",
]
