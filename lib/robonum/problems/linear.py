"""A stiff linear system ``y' = A y`` whose Jacobian is the same everywhere.

The simplest problem on which to watch what a stiff solver spends on its
Jacobian: ``J = A`` never goes stale, so any Jacobian computed after the
first is wasted work, and the eigenvalues -- hence the stiffness ratio --
are chosen, not measured.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from ..problem import ODEProblem
from . import _checks

MAX_N = 200  # equations: A is dense; its real and complex n x n LUs in a Radau step stay < 1 MB
MAX_STIFFNESS = 1e8  # |λ_max| / |λ_min| with |λ_min| = 1: the fastest rate is classic.MAX_RATE
MAX_SPAN = 1e6  # time units; every mode decays, so exact() is finite for any τ >= 0
MAX_SEED = 2**32 - 1


def stiff_linear(n=6, stiffness=1e4, seed=1, t_span=(0.0, 10.0)) -> ODEProblem:
    """``y' = A y`` with ``A = Q diag(λ) Qᵀ``: ``n`` decaying modes in a rotated basis.

    The eigenvalues are ``λ_k = -10^{e_k}`` with ``e_k`` evenly spaced in
    ``[0, log10(stiffness)]``: rates from 1 to ``stiffness`` per time unit, so
    the stiffness ratio is ``stiffness``.  ``Q`` is the orthogonal factor of
    the QR decomposition of an ``n x n`` standard normal matrix drawn with
    ``numpy.random.default_rng(seed)``: a fixed, reproducible basis in which
    every component of ``y`` mixes every mode (so no component is an
    eigenvector a solver could exploit).  ``y(t0) = (1, ..., 1)``.
    Exact: ``y(t) = Q diag(e^{λ (t - t0)}) Qᵀ y0``; ``jac`` returns ``A``.
    Reference: Hairer & Wanner, *Solving ODEs II*, sec. IV.1-2 (a linear
    system is stiff when its eigenvalues are spread far along the negative axis).

    Allowed: ``n`` in [2, 200] (A is dense); ``stiffness`` in [1, 1e8];
    ``seed`` an integer in [0, 2^32 - 1]; ``t1 - t0 <= 1e6``.  ``exact(t)``
    takes at most ``1e7 / n`` times per call (its result has ``n`` rows).
    """
    n = check.integer("n", n, 2, MAX_N)
    stiffness = check.positive("stiffness", stiffness, lo=1.0, hi=MAX_STIFFNESS)
    seed = check.integer("seed", seed, 0, MAX_SEED)
    t0, _ = _checks.span(t_span, MAX_SPAN, "every mode decays; the catalogue's longest span")
    lam = -np.logspace(0.0, np.log10(stiffness), n)
    Q = np.linalg.qr(np.random.default_rng(seed).standard_normal((n, n)))[0]
    A = Q @ np.diag(lam) @ Q.T
    y0 = np.ones(n)
    c = Q.T @ y0  # y0 in the eigenbasis

    def exact(t):
        tau = _checks.times(t, t0, MAX_SPAN) - t0
        if tau.size * n > _checks.MAX_TIMES:
            raise ValueError(
                f"t may hold at most {_checks.MAX_TIMES // n} times for n = {n} "
                f"(the result has n rows), got {tau.size}"
            )
        modes = np.exp(np.multiply.outer(lam, tau))  # shape (n,) or (n, len(t))
        return Q @ (modes * (c if tau.ndim == 0 else c[:, None]))

    return ODEProblem(
        lambda t, y: A @ y,
        y0,
        t_span,
        jac=lambda t, y: A.copy(),
        exact=exact,
        name=f"stiff linear (n={n}, ratio {stiffness:g})",
        params={"n": n, "stiffness_ratio": stiffness, "seed": seed, "eigenvalues_per_time": lam},
    )
