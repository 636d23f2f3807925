"""One generic explicit Runge-Kutta step for any explicit tableau."""
from __future__ import annotations

import numpy as np

from ..tableau import ButcherTableau


class ExplicitRK:
    """Explicit Runge-Kutta stepper driven by a :class:`ButcherTableau`.

    ``k_i = f(t + c_i h, y + h sum_{j<i} A_ij k_j)``,
    ``y_{n+1} = y + h sum_i b_i k_i``; with ``b_hat`` the error estimate is
    ``h sum_i (b_i - b_hat_i) k_i`` (Hairer-Norsett-Wanner I, sec. II.4).
    """

    def __init__(self, tableau: ButcherTableau):
        if not isinstance(tableau, ButcherTableau):
            raise TypeError(f"tableau must be a ButcherTableau, got {type(tableau).__name__}")
        if not tableau.is_explicit:
            raise ValueError(f"tableau {tableau.name!r} is {tableau.kind}; use ImplicitRK for it")
        self.tableau = tableau
        self.name = tableau.name
        self.order = tableau.order
        # Row slices of A and the weight differences, computed once per stepper.
        self._rows = [tableau.A[i, :i] for i in range(tableau.s)]
        self._e = None if tableau.b_hat is None else tableau.b - tableau.b_hat

    def init(self, work, t0, y0, h):
        return None

    def step(self, work, t, y, h, state):
        tab = self.tableau
        K = np.empty((tab.s, y.size))
        for i, a in enumerate(self._rows):
            K[i] = work.f(t + tab.c[i] * h, y + h * (a @ K[:i]))
        y_new = y + h * (tab.b @ K)
        err = None if self._e is None else h * (self._e @ K)
        return y_new, err, state

    def __repr__(self):
        return f"ExplicitRK({self.tableau.name!r})"
