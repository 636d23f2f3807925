"""The stepper contract: one step of a method, never the choice of the step size.

A stepper has ``name``, ``order``, ``error_order`` (order of its embedded
error estimate, ``None`` when it gives none) and two methods:

``init(work, t0, y0, h) -> state``
    Prepare per-run state (history for multistep methods, cached LUs for
    modified Newton, the last stage for FSAL).  ``work`` is a
    :class:`robonum.problem.Work`.
``step(work, t, y, h, state) -> (y_new, err, state)``
    Advance from ``t`` to ``t + h``.  ``err`` is the embedded error
    estimate (an array) or ``None``.

Drivers (:func:`robonum.integrate`) choose ``h`` and collect results.
Models: SciPy's ``OdeSolver`` and diffrax's ``AbstractSolver``.
"""
from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np


class Stepper(ABC):
    """Base class of every stepper (see the module docstring for the contract)."""

    name: str = "stepper"
    order: int = 1
    error_order: int | None = None

    def check_problem(self, problem) -> None:
        """Refuse a problem this stepper cannot integrate (default: any ODE is fine)."""

    @abstractmethod
    def init(self, work, t0: float, y0: np.ndarray, h: float):
        """Per-run state."""

    @abstractmethod
    def step(self, work, t: float, y: np.ndarray, h: float, state):
        """``(y_new, err, state)`` for one step of size ``h``."""

    def seed(self, state, t: float, y: np.ndarray, fy: np.ndarray) -> None:
        """Hand over ``f(t, y)`` already computed by the driver (first-same-as-last reuse)."""

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r})"


def check_h(h) -> float:
    """A step size: a finite float > 0."""
    if isinstance(h, bool) or not isinstance(h, (int, float, np.floating, np.integer)):
        raise TypeError(f"h must be a real number, got {type(h).__name__}")
    try:
        x = float(h)
    except OverflowError:
        raise ValueError("h must be finite and > 0, got a huge integer") from None
    if not (np.isfinite(x) and x > 0):
        raise ValueError(f"h must be finite and > 0, got {h!r}")
    return x
