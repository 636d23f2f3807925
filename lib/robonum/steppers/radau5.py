"""RADAU5: the 3-stage Radau IIA of order 5 (Hairer & Wanner II, sec. IV.8).

The stepper is :class:`robonum.steppers.radau.RadauIIA` with three stages
(that module has the method, the transformed Newton iteration, the error
estimate and the heuristics, and ``constants(3)`` the transformed method);
this module gives it its name.
"""
from __future__ import annotations

from .radau import RadauIIA


class Radau5(RadauIIA):
    """Adaptive 3-stage Radau IIA (order 5, L-stable) with an embedded order-3 estimate.

    Use with the adaptive driver: ``rn.solve_ivp(f, t_span, y0, method="radau5")`` or
    ``rn.integrate(problem, Radau5(), rtol=..., atol=...)``; with equal steps see
    :class:`~robonum.steppers.radau.RadauIIA`.
    Reference: Hairer & Wanner, *Solving ODEs II*, sec. IV.8 (code RADAU5).
    """

    def __init__(self):
        super().__init__(3)

    @property
    def name(self) -> str:
        return "Radau IIA 5 (adaptive)"


__all__ = ["Radau5"]
