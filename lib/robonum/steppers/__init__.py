"""Steppers: one step of a method, never the choice of the step size.

A stepper has ``name``, ``order`` and two methods:

``init(work, t0, y0, h) -> state``
    Prepare per-run state (history for multistep methods, a cached LU for
    modified Newton ...).  ``work`` is a :class:`robonum.problem.Work`.
``step(work, t, y, h, state) -> (y_new, err, state)``
    Advance from ``t`` to ``t + h``.  ``err`` is the embedded error estimate
    (an array) or ``None``.

The drivers in :mod:`robonum.integrate` choose ``h`` and collect results.
"""
from .explicit import ExplicitRK
from .implicit import ImplicitRK
from .bdf import BDF

__all__ = ["ExplicitRK", "ImplicitRK", "BDF"]
