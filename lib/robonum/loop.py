"""The one step loop of robonum: a stepper, a step-size policy, a :class:`Solution`.

:func:`run` marches a :class:`~robonum.steppers.Stepper` from ``t0`` to
``t1`` with the steps a policy (:mod:`robonum.policy`) chooses, and reports
every ending the same way, whatever the family: ``status = 0`` when ``t1``
is reached, else ``status = -1`` with a one-word ``reason`` and a
``message`` saying where (see :mod:`robonum.solution`).  Overflow on the
way to the divergence bound is expected in an unstable run, so it is
reported through the status, never as a flood of warnings.

Front doors: :func:`robonum.integrate` and :func:`robonum.solve_ivp` (and
the thin wrappers of :mod:`robonum.lie` and :mod:`robonum.geometric`).
"""

from __future__ import annotations

import math

import numpy as np

from . import _validate as check
from .dense import DenseOutput
from .errors import EvaluationError, NonlinearSolveError
from .policy import MAX_ADAPTIVE_STEPS
from .problem import check_problem
from .solution import EVENT, FAILURE, SUCCESS, Solution
from .steppers.base import Stepper
from .work import Work

MAX_SAVED = 20_000_000  # numbers a run keeps (160 MB of float64); equal steps check it up front
_POLICY_HOOKS = ("start", "propose", "judge", "finished", "keep", "underflow", "retries", "report")


def bound_of(problem, blowup) -> float:
    """The divergence bound: ``blowup * max(1, max|y0|)``."""
    check_problem(problem)
    blowup = check.real("blowup", blowup, 1.0, 1e300)
    return blowup * max(1.0, float(np.max(np.abs(problem.y0))))


class Record:
    """What a run keeps: saved points, status, reason and message."""

    def __init__(self, problem, bound):
        self.problem, self.bound = problem, bound
        self.ts, self.ys = [problem.t_span[0]], [problem.y0.copy()]
        self.status, self.reason = SUCCESS, "success"
        self.message = f"reached t = {problem.t_span[1]:g}"

    def fail(self, reason: str, message: str):
        self.status, self.reason, self.message = FAILURE, reason, message

    def stop(self, t):
        self.status, self.reason = EVENT, "event"
        self.message = "A termination event occurred."  # SciPy's words: t is in t_events

    def diverged(self, t, y) -> bool:
        """Non-finite, or beyond the bound: record the point and fail."""
        size = float(np.max(np.abs(y)))  # NaN propagates: one reduction decides (hot path)
        if size <= self.bound:
            return False
        finite = bool(np.isfinite(y).all())
        self.ts.append(t)
        self.ys.append(y)
        what = (
            f"max|y| = {size:.3g} exceeds the bound {self.bound:.3g}"
            if finite
            else "the state is no longer finite"
        )
        self.fail("diverged", f"diverged at t = {t:.6g}: {what}")
        return True

    def negative(self, t, y, which, slack) -> bool:
        """A component declared nonnegative below ``-slack``: record the point and fail."""
        i = first_negative(y, which, slack)
        if i is None:
            return False
        self.ts.append(t)
        self.ys.append(y)
        self.fail("negative", negative_message(t, y, i, slack))
        return True


def first_negative(y, which, slack):
    """The first index of ``which`` where ``y < -slack``, or ``None``."""
    below = np.flatnonzero(y[which] < -(slack[which] if np.ndim(slack) else slack))
    return int(which[below[0]]) if below.size else None


def negative_message(t, y, i, slack) -> str:
    slack = slack[i] if np.ndim(slack) else slack  # atol per component
    return (
        f"lost the solution at t = {t:.6g}: y[{i}] = {y[i]:.3g}, declared nonnegative, is below "
        f"-{slack:.3g}; a tolerance too loose, or a Jacobian that disagrees with f"
    )


def run(
    problem,
    stepper,
    policy,
    *,
    blowup: float = 1e8,
    max_steps: int | None = None,
    dense: bool = False,
    on_step=None,
) -> Solution:
    """March ``problem`` with ``stepper``, steps chosen by ``policy``; the one loop.

    ``max_steps`` caps the steps tried (accepted and rejected), ``None`` for
    no cap beyond the policy's own; ``dense=True`` keeps each accepted step's
    polynomial in ``info["dense"]`` (:class:`robonum.dense.DenseOutput`).
    ``on_step(t_old, t, y, piece)``, if given, sees every accepted step with its
    polynomial (:class:`robonum.events.EventLog`); when it returns a point
    ``(t_stop, y_stop)`` the run ends there with ``status = 1`` (an event).
    """
    steps = march(
        problem, stepper, policy, blowup=blowup, max_steps=max_steps, dense=dense, on_step=on_step
    )
    # overflow on the way to the divergence bound is expected in an unstable run; the
    # status reports it (the stepping object of robonum.stepping sets the same state per step)
    with np.errstate(over="ignore", invalid="ignore"):
        while True:
            try:
                next(steps)
            except StopIteration as end:
                return end.value


def check_arguments(problem, stepper, policy, max_steps, dense, on_step) -> None:
    """The loop's door: each argument named when it is not what the loop calls."""
    check_problem(problem)
    if not isinstance(stepper, Stepper):
        raise TypeError(f"stepper must be a robonum Stepper, got {type(stepper).__name__}")
    lacking = [hook for hook in _POLICY_HOOKS if not hasattr(policy, hook)]
    if lacking:
        raise TypeError(
            "policy must be a step-size policy of robonum.policy (EqualSteps, Controlled, "
            f"StepRule); got {type(policy).__name__}, which lacks {', '.join(lacking)}"
        )
    if max_steps is not None:
        check.integer("max_steps", max_steps, 1, MAX_ADAPTIVE_STEPS)
    check.boolean("dense", dense)
    if on_step is not None:
        check.callable_("on_step", on_step, 4, "on_step(t_old, t, y, piece)")


def _max_steps_message(max_steps: int, stepper, t0: float, t: float, nsteps: int) -> str:
    """Where the run stopped; for an explicit method, its mean step and what stiffness would mean.

    On a stiff problem an explicit method's step stays at its stability bound whatever the
    tolerance (the book's chapter 2), so a run that spends its steps is often that.
    """
    text = f"max_steps = {max_steps} reached at t = {t:.6g}"
    if getattr(stepper, "explicit", False) and nsteps:
        text += (
            f"; the accepted steps averaged {abs(t - t0) / nsteps:.3g}: if the problem is stiff, "
            "an implicit method needs far fewer (solve_ivp's method='radau' or 'bdf'; with "
            "integrate, rn.steppers.RadauIIA or VariableBDF)"
        )
    return text


def march(problem, stepper, policy, *, blowup=1e8, max_steps=None, dense=False, on_step=None):
    """The loop of :func:`run` as a generator: it yields its counters (:class:`Work`) once started, then after
    every accepted step ``(t_old, y_old, t, y, work, state)``, and returns the :class:`Solution`.

    :func:`run` drives it to the end; :class:`robonum.stepping.IVPSolver` one step at a time.
    """
    check_arguments(problem, stepper, policy, max_steps, dense, on_step)
    stepper.check_problem(problem)
    if getattr(problem, "dtype", None) == np.complex128 and not stepper.complex_ok:
        raise TypeError(
            f"method {stepper.name!r} works in real arithmetic; a complex y0 needs an explicit "
            "Runge-Kutta method (e.g. 'rk4', 'bs23', 'dopri5') or, in solve_ivp, 'bdf' "
            "(or split y into real and imaginary parts)"
        )
    work = Work(problem)
    rec = Record(problem, bound_of(problem, blowup))
    (t0, t1), t, y = problem.t_span, problem.t_span[0], problem.y0.copy()
    nsteps = nreject = 0
    pieces = []
    cap = math.inf if max_steps is None else max_steps
    max_points = max(2, MAX_SAVED // problem.y0.size)  # adaptive runs and rules: checked per step
    # the hot loop calls bound methods through locals: a step of a small problem costs
    # tens of µs, and the attribute lookups alone would add a few per cent
    finished, propose, judge, keep = policy.finished, policy.propose, policy.judge, policy.keep
    step, diverged, ts, ys = stepper.step, rec.diverged, rec.ts, rec.ys
    underflow = policy.underflow
    which, slack = problem.nonnegative, getattr(policy, "domain_slack", None)
    negative = rec.negative if which is not None and slack is not None else None
    try:
        h, f0 = policy.start(work, stepper, t0, y, t1)
        state = stepper.init(work, t0, y, h)
        if f0 is not None:
            stepper.seed(state, t0, y, f0)
        yield work  # started: f(t0) and the first step known (IVPSolver's constructor ends here)
        while not finished(t, t1, nsteps):
            if nsteps + nreject >= cap:
                rec.fail("max_steps", _max_steps_message(max_steps, stepper, t0, t, nsteps))
                break
            h, t_new = propose(t, y, h, t1, nsteps)
            try:
                y_new, err, state = step(work, t, y, h, state)
            except NonlinearSolveError as exc:
                if not policy.retries:
                    rec.fail(
                        "newton_failed",
                        f"the implicit step from t = {t:.6g} could not be solved: {exc}",
                    )
                    break
                y_new = err = None  # the policy shrinks h and tries again
            accepted, h_next = judge(stepper, work, h, y, y_new, err, state)
            if accepted:
                t_old, y_old, t, y = t, y, t_new, y_new
                nsteps += 1
                if diverged(t, y) or (negative is not None and negative(t, y, which, slack)):
                    break
                if dense or on_step is not None:
                    piece = stepper.interpolant(work, state, t_old, t - t_old, y_old, y)
                    if dense:
                        pieces.append(piece)
                    stop = None if on_step is None else on_step(t_old, t, y, piece)
                    if stop is not None:
                        t, y = stop
                        if t == ts[-1]:  # the event sat at the step's start, already saved
                            ys[-1] = y
                            if dense:
                                pieces.pop()  # the run ends where this step began
                        else:
                            ts.append(t)
                            ys.append(y)
                        rec.stop(t)
                        break
                if keep is None or keep(nsteps):
                    ts.append(t)
                    ys.append(y)
                    if len(ts) > max_points:
                        rec.fail(
                            "max_steps",
                            f"the run kept {len(ts)} points of {problem.y0.size} numbers at "
                            f"t = {t:.6g}, the most it may keep ({MAX_SAVED:.0e} numbers, 160 MB): "
                            "a looser tolerance, a larger max_step or fewer equations",
                        )
                        break
                yield t_old, y_old, t, y, work, state
            else:
                nreject += 1
            if underflow is not None and t < t1 and underflow(h_next, t):
                rec.fail(
                    "step_underflow",
                    f"the step size is less than the rounding level of t: it fell to "
                    f"{h_next:.3g} at t = {t:.6g}",
                )
                break
            h = h_next
    except EvaluationError as exc:
        rec.fail(exc.reason, str(exc))
    if work.jac_replaced_at is not None:
        rec.message += (
            f"; jac disagreed with a difference of f at t = {work.jac_replaced_at:.6g}, where "
            "Newton failed (a wrong jac, or a kink of f there), and differences of f "
            "replaced it from there"
        )
    h_equal, info = policy.report()
    sol = Solution(
        t=np.array(rec.ts),
        y=np.array(rec.ys).T,
        method=stepper.name,
        h=h_equal,
        status=rec.status,
        reason=rec.reason,
        message=rec.message,
        nsteps=nsteps,
        nreject=nreject,
        info=info,
        layout=problem.layout,
        **work.counters(),
    )
    if dense:
        sol.info["dense"] = DenseOutput(rec.ts[: len(pieces) + 1], pieces)
    return sol


__all__ = ["run", "march", "bound_of", "Record", "first_negative", "negative_message", "MAX_SAVED"]
