"""The stepper contract: one step of a method, never the choice of the step size.

Every integrator family in robonum -- explicit and implicit Runge-Kutta,
multistep and BDF, splitting, Lie-group and quaternion steppers -- is a
:class:`Stepper`, and one loop (:func:`robonum.loop.run`) drives them all.

What every stepper provides
    ``name``, ``order`` and ``error_order`` (order of its embedded error
    estimate, ``None`` when it has none), and

    ``init(work, t0, y0, h) -> state``
        per-run state (history of a multistep method, cached LU factors of
        modified Newton, the last stage of a first-same-as-last pair);
        ``work`` is a :class:`robonum.work.Work` that counts every call.
    ``step(work, t, y, h, state) -> (y_new, err, state)``
        one step from ``t`` to ``t + h``; ``err`` is the embedded error
        estimate (an array) or ``None``.  An implicit step that cannot be
        solved raises :class:`robonum.errors.NonlinearSolveError`.

What an adaptive stepper adds (``error_order`` is not ``None``)
    The defaults below fit a plain embedded pair; a stiff solver overrides them.

    ``with_tolerances(rtol, atol) -> Stepper``
        the stepper for these tolerances: itself if built with them, else a new
        object built with them (Newton tolerances follow ``rtol``); a stepper is
        never changed in place.
    ``default_controller() -> StepController``
        the controller the method was tuned with.
    ``initial_order``
        the order the first-step formula assumes (default ``order``).
    ``weight_by_new``
        the error test's weights: ``atol + rtol max(|y_n|, |y_{n+1}|)`` (default,
        HNW I, eq. II.4.10) or, when true, ``atol + rtol |y_{n+1}|``.
    ``judge(controller, work, h, err_norm, state) -> (accepted, h_next)``
        accept or reject.  The controller computes the step-size factor; a
        stiff method may weigh it by its Newton work or choose its order
        here, and commits the accepted step (``err_norm = inf``: the step
        could not be solved).
    ``interpolant(work, state, t, h, y, y_new)``
        the accepted step's polynomial for dense output (default: the cubic
        Hermite polynomial, two more ``f`` calls).

What an adaptive implicit stepper's state reports (``RadauIIA``, ``VariableBDF``)
    ``state.nit_used``
        the Newton iterations of the solve ``step`` just converged (its step
        controller weighs ``h`` by it; a reader may record it after each ``step``).

Models: SciPy's ``OdeSolver`` and diffrax's ``AbstractSolver``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from ..control import StepController
from ..dense import HermitePiece


class Stepper(ABC):
    """Base class of every stepper (see the module docstring for the contract)."""

    name: str = "stepper"
    complex_ok: bool = False  # integrates a complex y0 (the loop refuses one otherwise)
    explicit: bool = False  # no equation solved per step: stiffness holds h at the stability bound
    order: int = 1
    error_order: int | None = None
    weight_by_new: bool = False  # error weights from |y_{n+1}| alone (module docstring)

    @property
    def initial_order(self) -> int:
        return self.order

    def check_problem(self, problem) -> None:  # noqa: B027 -- optional hook, no-op by default
        """Refuse a problem this stepper cannot integrate (default: any ODE is fine)."""

    @abstractmethod
    def init(self, work, t0: float, y0: np.ndarray, h: float):
        """Per-run state."""

    @abstractmethod
    def step(self, work, t: float, y: np.ndarray, h: float, state):
        """``(y_new, err, state)`` for one step of size ``h``."""

    def seed(self, state, t: float, y: np.ndarray, fy: np.ndarray) -> None:  # noqa: B027 -- optional
        """Hand over ``f(t, y)`` already computed by the loop (first-same-as-last reuse)."""

    # -- what the controlled (adaptive) policy uses --------------------------------
    def with_tolerances(self, rtol: float, atol: float) -> Stepper:
        """The stepper for ``rtol``/``atol``; this one when its steps do not depend on them."""
        return self

    def default_controller(self) -> StepController:
        return StepController(q=self.error_order + 1)

    def judge(
        self, controller: StepController, work, h: float, err_norm: float, state
    ) -> tuple[bool, float]:
        """``(accepted, h_next)`` for a step whose scaled error is ``err_norm``."""
        return controller.adapt(h, err_norm)

    def interpolant(self, work, state, t: float, h: float, y: np.ndarray, y_new: np.ndarray):
        """Dense output on the accepted step ``[t, t + h]``: cubic Hermite by default."""
        return HermitePiece(t, h, y, y_new, work.f(t, y), work.f(t + h, y_new))

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r})"


def check_state(y, n: int) -> None:
    """``y`` as the loop hands it over: a float array of shape ``(n,)`` (cheap: one step's guard)."""
    if type(y) is not np.ndarray or y.shape != (n,) or y.dtype.kind not in "fc":
        got = getattr(y, "shape", type(y).__name__)
        raise TypeError(f"y must be a float array of shape ({n},), got {got}")


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
