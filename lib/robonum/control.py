"""Step-size control, separate from any stepper (as in diffrax).

The elementary controller (Hairer-Norsett-Wanner I, eq. II.4.13):
``h_new = h * min(fac_max, max(fac_min, safety * err^(-1/q)))`` with
``q = min(order, order_hat) + 1``.
"""
from __future__ import annotations

import numpy as np

from . import _validate as check


class StepController:
    """Accept a step when ``err <= 1``; propose the next ``h`` from ``err``."""

    def __init__(self, order: int, safety: float = 0.9, fac_min: float = 0.2,
                 fac_max: float = 10.0):
        self.order = check.integer("order", order, 1, 20)
        self.safety = check.positive("safety", safety)
        self.fac_min = check.positive("fac_min", fac_min)
        self.fac_max = check.positive("fac_max", fac_max)
        if not self.fac_min < 1 < self.fac_max:
            raise ValueError("need fac_min < 1 < fac_max")

    def adapt(self, h: float, err: float) -> tuple[bool, float]:
        """``(accepted, h_next)`` for a step of size ``h`` with scaled error ``err``."""
        if err == 0.0:
            factor = self.fac_max
        else:
            factor = self.safety * err ** (-1.0 / self.order)
            factor = min(self.fac_max, max(self.fac_min, factor))
        accepted = err <= 1.0
        if not accepted:
            factor = min(factor, 1.0)  # never grow after a rejection
        return accepted, h * factor

    def initial_step(self, work, t0, y0, rtol, atol) -> float:
        """First step from the scale of ``y0`` and ``f(t0, y0)`` (HNW I, sec. II.4)."""
        f0 = work.f(t0, y0)
        scale = atol + rtol * np.abs(y0)
        d0 = np.sqrt(np.mean((y0 / scale) ** 2))
        d1 = np.sqrt(np.mean((f0 / scale) ** 2))
        return 1e-6 if d0 < 1e-5 or d1 < 1e-5 else float(0.01 * d0 / d1)
