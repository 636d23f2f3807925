"""Fixed-step BDF-k stepper (backward differentiation formulas, k = 1..6).

    sum_{j=0}^{k} alpha_j y_{n+1-j} = h beta0 f(t_{n+1}, y_{n+1}),   alpha_0 = 1,

solved for ``y_{n+1}`` by modified Newton with the ``n x n`` matrix
``I - h beta0 J`` (Hairer & Wanner, *Solving ODEs II*, sec. V.1 and IV.8).
Coefficients come from :func:`robonum.multistep.bdf_coefficients`.

Start: a k-step method needs ``y_1 .. y_{k-1}``.  They are computed with
the same ``h`` by the 3-stage Radau IIA method (order 5, L-stable): a few
steps of local error ``O(h^6)`` perturb the BDF solution by ``O(h^6)``,
which is below the ``O(h^k)`` global error for every k <= 6, and L-stability
keeps the start safe on stiff problems.  A change of ``h`` restarts the
history the same way.  Predictor: the polynomial through the last k values,
extrapolated to ``t_{n+1}``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from math import comb
import numbers

import numpy as np

from ..analysis.multistep import bdf_coefficients, zero_stability
from ..newton import ModifiedNewton, NewtonOptions
from .implicit import ImplicitRK, _check_h


def _check_k(k) -> int:
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise TypeError(f"k must be an integer in [1, 6], got {type(k).__name__}")
    k = int(k)
    if k >= 7:
        why = ""
        if k <= 12:
            zs = zero_stability(bdf_coefficients(k, allow_unstable=True)[0])
            why = f": rho(zeta) has a root of modulus {zs.max_modulus:.4f} > 1"
        raise ValueError(f"k must be an integer in [1, 6], got {k}; BDF{k} is not zero-stable{why}, "
                         "so errors grow without bound as h -> 0 (Hairer-Norsett-Wanner I, sec. III.3)")
    if k < 1:
        raise ValueError(f"k must be an integer in [1, 6], got {k}")
    return k


@dataclass
class _State:
    newton: ModifiedNewton
    h: float
    history: list = field(default_factory=list)   # y_{n-k+1}, ..., y_n (oldest first)
    t_last: float | None = None


class BDF:
    """BDF-k with fixed step ``h``; order k.

    Parameters
    ----------
    k : int in 1..6 (7 and above are rejected: not zero-stable).
    tol, kappa, max_iter, theta_max, theta_reuse :
        Newton options, see :class:`robonum.newton.NewtonOptions`.

    Example: ``rn.integrate(problem, BDF(3), h=0.01)``.
    Reference: Hairer, Norsett & Wanner, *Solving ODEs I*, sec. III.1;
    Hairer & Wanner, *Solving ODEs II*, sec. V.1.
    """

    def __init__(self, k: int, *, tol: float = 1e-10, kappa: float = 0.1,
                 max_iter: int = 10, theta_max: float = 0.5, theta_reuse: float = 1e-3):
        self.k = _check_k(k)
        self.order, self.name = self.k, f"BDF{self.k}"
        self.opts = NewtonOptions(tol=tol, kappa=kappa, max_iter=max_iter,
                                  theta_max=theta_max, theta_reuse=theta_reuse)
        self.alpha, self.beta0 = bdf_coefficients(self.k)
        # y_{n+1} ~ sum_{j=1}^{k} (-1)^(j+1) C(k, j) y_{n+1-j}: the k-th difference vanishes.
        self._pred = np.array([(-1) ** (j + 1) * comb(self.k, j) for j in range(1, self.k + 1)], float)
        self.starter = ImplicitRK("radau3", tol=tol, kappa=kappa, max_iter=max_iter,
                                  theta_max=theta_max, theta_reuse=theta_reuse)

    def init(self, work, t0, y0, h):
        h = _check_h(h)
        return _State(ModifiedNewton(self.opts), h, [np.array(y0, dtype=float)], t0)

    def step(self, work, t, y, h, state):
        h = _check_h(h)
        hist = state.history
        if (h != state.h or abs(t - state.t_last) > 1e-8 * h
                or not np.array_equal(y, hist[-1])):
            hist[:] = [np.array(y, dtype=float)]   # new h or foreign y: restart
            state.h = h
        if len(hist) < self.k:
            y_new, _, _ = self.starter.step(work, t, y, h, state.newton)  # shares J and LUs
        else:
            y_new = self._bdf_step(work, t, y, h, state.newton, hist)
        hist.append(y_new)
        del hist[:-self.k]
        state.t_last = t + h
        return y_new, None, state

    def _bdf_step(self, work, t, y, h, newton, hist):
        past = np.array(hist[::-1])                      # y_n, y_{n-1}, ..., y_{n-k+1}
        known = self.alpha[1:] @ past                    # sum_{j>=1} alpha_j y_{n+1-j}
        hb = h * self.beta0
        t1 = t + h
        eye = np.eye(y.size)

        def G(x):
            return x + known - hb * work.f(t1, x)

        x0 = self._pred @ past
        return newton.solve(work, t, y, G, x0, ("bdf", hb), lambda J: eye - hb * J,
                            point=lambda x: (t1, x))

    def __repr__(self):
        return f"BDF({self.k})"
