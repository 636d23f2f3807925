"""Fixed-step linear multistep stepper (BDF, Adams, any zero-stable LMM).

    sum_{j=0}^{k} alpha_j y_{n+1-j} = h sum_{j=0}^{k} beta_j f_{n+1-j}.

An explicit method (``beta_0 = 0``) gives ``y_{n+1}`` directly; an implicit
one solves ``G(x) = alpha_0 x + known - h beta_0 f(t_{n+1}, x) = 0`` by
modified Newton with the ``n x n`` matrix ``alpha_0 I - h beta_0 J``
(Hairer & Wanner, *Solving ODEs II*, sec. V.1 and IV.8).

Start: a k-step method needs ``y_1 .. y_{k-1}``.  They come from a
one-step method with the same ``h`` -- the 3-stage Radau IIA method (order
5, L-stable, safe on stiff problems) for implicit methods, RK4 for explicit
ones.  A change of ``h`` restarts the history the same way.  Predictor:
the polynomial through the last k values, extrapolated to ``t_{n+1}``.
"""

from __future__ import annotations

from math import comb

import numpy as np

from .. import _validate as check
from .. import methods
from ..modified_newton import ModifiedNewton
from .base import Stepper, check_h
from .explicit import ExplicitRK
from .implicit import ImplicitRK, newton_options


class _History:
    def __init__(self, newton, h, t, y):
        self.newton, self.h, self.t_last = newton, h, t
        self.y = [np.array(y, dtype=float)]  # y_{n-k+1}, ..., y_n (oldest first)
        self.f = []  # f at the same points (Adams-type methods only)


class Multistep(Stepper):
    """A linear multistep method with fixed step ``h``; order from its coefficients.

    Parameters
    ----------
    method : a catalogue name (``"bdf3"``) or a :class:`robonum.methods.LinearMultistep`.
    newton : :class:`robonum.NewtonOptions`, optional (implicit methods).
    allow_unstable : bool -- run a method that is not zero-stable (e.g. BDF7), to watch
        its errors grow as ``h -> 0``; refused otherwise.

    Example: ``rn.integrate(problem, "bdf3", h=0.01)``.
    Reference: Hairer, Norsett & Wanner, *Solving ODEs I*, sec. III.1-III.4.
    """

    def __init__(self, method, *, newton=None, allow_unstable: bool = False):
        m = methods.get(method)
        if m.family != "lmm":
            raise ValueError(f"method {m.name!r} is not a linear multistep method")
        if not m.zero_stable and not check.boolean("allow_unstable", allow_unstable):
            raise ValueError(
                f"{m.name} is not zero-stable ({m.zero_stability().reason}): its errors "
                "grow without bound as h -> 0 (Hairer-Norsett-Wanner I, sec. III.3); "
                "pass allow_unstable=True to study that"
            )
        self.method, self.name, self.order, self.k = m, m.name, m.order, m.k
        self.opts = newton_options(newton)
        self.alpha, self.beta = m.alpha, m.beta
        self._uses_f = bool(np.any(self.beta[1:] != 0.0))
        # y_{n+1} ~ sum_{j=1}^{k} (-1)^(j+1) C(k, j) y_{n+1-j}: the k-th difference vanishes.
        self._pred = np.array(
            [(-1) ** (j + 1) * comb(self.k, j) for j in range(1, self.k + 1)], float
        )
        self.starter = (
            ExplicitRK("rk4") if m.is_explicit else ImplicitRK("radau3", newton=self.opts)
        )

    def init(self, work, t0, y0, h):
        return _History(ModifiedNewton(self.opts), check_h(h), t0, y0)

    def step(self, work, t, y, h, state):
        h = check_h(h)
        hist = state
        if h != hist.h or abs(t - hist.t_last) > 1e-8 * h or not np.array_equal(y, hist.y[-1]):
            hist.y[:] = [np.array(y, dtype=float)]  # new h or a foreign y: restart
            hist.f.clear()
            hist.h = h
        if self._uses_f and len(hist.f) < len(hist.y):
            hist.f.append(work.f(t, hist.y[-1]))
        if len(hist.y) < self.k:
            start_state = hist.newton if isinstance(self.starter, ImplicitRK) else None
            y_new = self.starter.step(work, t, y, h, start_state)[0]  # shares J and LUs
        else:
            y_new = self._lmm_step(work, t, h, hist)
        hist.y.append(y_new)
        del hist.y[: -self.k]
        del hist.f[: max(0, len(hist.f) - (self.k - 1))]  # f of y_new is added at the next step
        hist.t_last = t + h
        return y_new, None, hist

    def _lmm_step(self, work, t, h, hist):
        past = np.array(hist.y[::-1])  # y_n, y_{n-1}, ..., y_{n-k+1}
        known = self.alpha[1:] @ past  # sum_{j>=1} alpha_j y_{n+1-j}
        if self._uses_f:
            known = known - h * (self.beta[1:] @ np.array(hist.f[::-1]))
        a0, hb = self.alpha[0], h * self.beta[0]
        t1 = t + h
        if hb == 0.0:  # explicit
            return -known / a0
        eye = np.eye(past.shape[1])

        def G(x):
            return a0 * x + known - hb * work.f(t1, x)

        return hist.newton.solve(
            work,
            t,
            hist.y[-1],
            G,
            self._pred @ past,
            ("lmm", hb / a0),
            lambda J: a0 * eye - hb * J,
            point=lambda x: (t1, x),
        )
