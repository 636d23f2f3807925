"""The adaptive loop: steps chosen by a :class:`StepController` from an embedded error estimate.

Steppers meet the loop through the contract of :mod:`robonum.steppers.base`
plus optional hooks, so that a method with its own heuristics (RADAU5's
Jacobian reuse, the variable order of BDF) still leaves the loop in charge
of time, saving and failures:

``set_tolerances(rtol, atol)``
    Newton tolerances that depend on ``rtol`` (implicit methods).
``default_controller()``
    The controller the method was tuned with (used when none is given).
``initial_order``
    The order used by the first-step formula (default ``order``).
``adapt_step(controller, work, h, err, state) -> (accepted, h_next)``
    Accept or reject and commit the step; by default ``controller.adapt(h, err)``.
``interpolant(state)``
    The last accepted step's polynomial, for dense output (:mod:`robonum.dense`).
"""
from __future__ import annotations

import math

import numpy as np

from . import _validate as check
from ._run import Run, bound_of
from .control import StepController
from .dense import DenseOutput, HermitePiece
from .errors import EvaluationError, NonlinearSolveError
from .problem import Work
from .solution import Solution
from .steppers import Stepper

MAX_ADAPTIVE_STEPS = 500_000       # accepted + rejected; ~25 s of a 6-stage explicit step
_EPS = np.finfo(float).eps


def _controller(controller, stepper) -> StepController:
    if controller is None:
        make = getattr(stepper, "default_controller", None)
        return make() if make is not None else StepController(q=stepper.error_order + 1)
    if not isinstance(controller, StepController):
        raise TypeError(f"controller must be a StepController, got {type(controller).__name__}")
    return controller


def _piece(stepper, state, t, h, y, y_new, work):
    """The dense-output polynomial of the step just accepted."""
    own = getattr(stepper, "interpolant", None)
    if own is not None:
        return own(state)
    pts = getattr(state, "points", None)
    if pts is not None and len(pts) == 2:           # first-same-as-last: both slopes known
        return HermitePiece(t, h, y, y_new, pts[0][2], pts[1][2])
    return HermitePiece(t, h, y, y_new, work.f(t, y), work.f(t + h, y_new))


def integrate_adaptive(problem, stepper: Stepper, *, rtol: float, atol: float,
                       first_step: float | None, max_step: float | None,
                       controller: StepController | None, blowup: float,
                       max_steps: int, dense: bool = False) -> Solution:
    """Adaptive steps from ``t0`` to ``t1`` (called by :func:`robonum.integrate`).

    The scaled error of a step is ``||err / (atol + rtol max(|y|, |y_new|))||_rms``
    (Hairer-Norsett-Wanner I, eq. II.4.11); ``err <= 1`` accepts it.  With
    ``dense=True`` the result's ``info["dense"]`` is a :class:`robonum.dense.DenseOutput`.
    """
    if stepper.error_order is None:
        raise ValueError(f"method {stepper.name!r} gives no embedded error estimate, so it cannot "
                         "choose its own steps: pass h= for equal steps, or use an embedded pair "
                         "such as 'dopri5'")
    rtol = check.positive("rtol", rtol, lo=1e-14, hi=1.0)
    atol = check.positive("atol", atol, hi=1e10)
    max_steps = check.integer("max_steps", max_steps, 1, MAX_ADAPTIVE_STEPS)
    if hasattr(stepper, "set_tolerances"):     # first: a stepper may choose its order from rtol
        stepper.set_tolerances(rtol, atol)
    controller = _controller(controller, stepper)
    controller.reset()
    t0, t1 = problem.t_span
    max_step = t1 - t0 if max_step is None else min(check.positive("max_step", max_step), t1 - t0)
    adapt = getattr(stepper, "adapt_step", None)
    work = Work(problem)
    stepper.check_problem(problem)
    run = Run(problem, stepper, work, bound_of(problem, blowup), 1)
    t, y = t0, problem.y0.copy()
    nsteps = nreject = 0
    pieces = []
    with np.errstate(over="ignore", invalid="ignore"):
        try:
            if first_step is None:
                f0 = work.f(t0, y)
                order = getattr(stepper, "initial_order", stepper.order)
                h = controller.initial_step(work, t0, y, f0, rtol, atol, order, max_step)
            else:
                f0, h = None, min(check.positive("first_step", first_step), max_step)
            state = stepper.init(work, t0, y, h)
            if f0 is not None:
                stepper.seed(state, t0, y, f0)
            while t < t1:
                if nsteps + nreject >= max_steps:
                    run.fail("max_steps", f"max_steps = {max_steps} reached at t = {t:.6g}")
                    break
                last = t + h >= t1 - 4 * _EPS * max(abs(t1), 1.0)
                h = t1 - t if last else h
                try:
                    y_new, err, state = stepper.step(work, t, y, h, state)
                    e = err / (atol + rtol * np.maximum(np.abs(y), np.abs(y_new)))
                    err_norm = math.sqrt(np.dot(e, e) / e.size)
                except NonlinearSolveError:
                    y_new, err_norm = None, math.inf     # shrink h and retry, as codes do
                if not np.isfinite(err_norm):
                    err_norm = math.inf
                if adapt is not None:
                    accepted, h_next = adapt(controller, work, h, err_norm, state)
                else:
                    accepted, h_next = controller.adapt(h, err_norm)
                if accepted:
                    t_old, t = t, (t1 if last else t + h)
                    y_old, y, nsteps = y, y_new, nsteps + 1
                    if run.diverged(t, y):
                        break
                    if dense:
                        pieces.append(_piece(stepper, state, t_old, t - t_old, y_old, y, work))
                    run.ts.append(t)
                    run.ys.append(y)
                else:
                    nreject += 1
                if h_next < 16 * _EPS * max(abs(t), 1.0) and t < t1:
                    run.fail("step_underflow", f"the step size fell to {h_next:.3g} at t = {t:.6g}, "
                             "below the rounding level of t")
                    break
                h = min(h_next, max_step)
        except EvaluationError as exc:
            run.evaluation_failed(exc)
    sol = run.solution(None, nsteps, nreject)
    if dense:
        sol.info["dense"] = DenseOutput(run.ts[:len(pieces) + 1], pieces)
    return sol
