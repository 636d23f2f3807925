"""One generic explicit Runge-Kutta step for every explicit tableau."""

from __future__ import annotations

import numpy as np

from .. import methods
from ..dense import HermitePiece, PowerPiece
from .base import Stepper

_EPS = np.finfo(float).eps


class _FSALCache:
    """``f`` at the start and at the end of the last step, for first-same-as-last reuse.

    After a step from ``(t, y)`` to ``(t + h, y_new)`` the next call starts
    either at ``(t, y)`` again (the step was rejected) or at ``(t + h, y_new)``
    (accepted); both values of ``f`` are known.  Times match within a few
    ulps: the fixed-step driver computes ``t0 + k h`` rather than ``t + h``.
    """

    def __init__(self):
        self.points = []
        self.K = None  # the last step's stages (dense output)

    def lookup(self, t, y):
        for tp, yp, kp in self.points:
            if abs(tp - t) <= 8 * _EPS * max(1.0, abs(t)) and np.array_equal(yp, y):
                return kp
        return None


class ExplicitRK(Stepper):
    """Explicit Runge-Kutta stepper driven by a Butcher tableau.

    ``k_i = f(t + c_i h, y + h sum_{j<i} A_ij k_j)``, ``y_{n+1} = y + h sum_i b_i k_i``;
    with ``b_hat`` the error estimate is ``h sum_i (b_i - b_hat_i) k_i``
    (Hairer-Norsett-Wanner I, sec. II.4).  For a first-same-as-last tableau
    (``tableau.fsal``, e.g. DOPRI5) the last stage of an accepted step is the
    first of the next one, so a step costs ``s - 1`` evaluations.

    ``method``: a catalogue name (``"rk4"``) or an explicit ``ButcherTableau``.
    """

    complex_ok = True  # sums of stages: a complex state needs nothing more
    explicit = True

    def __init__(self, method):
        tab = methods.get(method)
        if tab.family != "rk":
            raise ValueError(f"method {tab.name!r} is not a Runge-Kutta method; use make_stepper")
        if not tab.is_explicit:
            raise ValueError(f"method {tab.name!r} is {tab.kind}; use ImplicitRK for it")
        self.tableau, self.name, self.order = tab, tab.name, tab.order
        self.error_order = tab.order_hat if tab.has_embedded else None
        self._rows = [tab.A[i, :i] for i in range(tab.s)]  # row slices, computed once
        self._e = None if tab.b_hat is None else tab.b - tab.b_hat
        self._fsal = tab.fsal  # a property that compares arrays: read once, not every step

    def init(self, work, t0, y0, h):
        # the cache also keeps the last stages for a continuous extension
        return _FSALCache() if self._fsal or self.tableau.dense is not None else None

    def seed(self, state, t, y, fy):
        if state is not None:
            state.points = [(t, y, fy)]

    def step(self, work, t, y, h, state):
        tab = self.tableau
        K = np.empty((tab.s, y.size), dtype=y.dtype)
        k0 = state.lookup(t, y) if state is not None else None
        K[0] = work.f(t, y) if k0 is None else k0
        for i in range(1, tab.s):
            K[i] = work.f(t + tab.c[i] * h, y + h * (self._rows[i] @ K[:i]))
        y_new = y + h * (tab.b @ K)
        err = None if self._e is None else h * (self._e @ K)
        if state is not None:
            state.K = K
            if self._fsal:  # K[-1] is f at the new point only for such a tableau
                state.points = [(t, y, K[0]), (t + h, y_new, K[-1])]
        return y_new, err, state

    def interpolant(self, work, state, t, h, y, y_new):
        """The tableau's continuous extension if it has one, else cubic Hermite.

        The extension reuses the step's stages (no new ``f``-call); a
        first-same-as-last pair already has both Hermite slopes too.
        """
        if self.tableau.dense is not None and getattr(state, "K", None) is not None:
            return PowerPiece(t, h, y, h * (self.tableau.dense.T @ state.K))
        if state is not None and len(state.points) == 2:
            (_, _, f0), (_, _, f1) = state.points
            return HermitePiece(t, h, y, y_new, f0, f1)
        return super().interpolant(work, state, t, h, y, y_new)
