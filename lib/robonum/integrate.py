"""``integrate``: a problem, a method and a step-size policy into the one loop.

* ``integrate(problem, method, h)`` takes equal steps.  The step actually
  used is ``(t1 - t0) / N`` with ``N = ceil((t1 - t0) / h)``, so it never
  exceeds the requested ``h``; the result's ``h`` is that step (use it, not
  the requested one, for ``z = h lambda``).
* ``integrate(problem, method, rtol=..., atol=...)`` lets a
  :class:`StepController` choose the steps from the method's embedded error
  estimate.
* ``integrate(problem, method, rule)`` takes ``h_n = rule(n, t_n, y_n)``:
  steps fixed in advance (a rule of ``n``) or read from the state.

All run :func:`robonum.loop.run`, with the policies
:class:`~robonum.policy.EqualSteps`, :class:`~robonum.policy.Controlled` and
:class:`~robonum.policy.StepRule`.  A run that blows up, whose ``f``
returns NaN, whose Newton solve fails or whose adaptive step underflows
stops with ``status = -1`` and a ``reason``/``message`` saying which, at
what ``t`` -- never with a flood of warnings.
"""

from __future__ import annotations

from . import _validate as check
from .control import StepController
from .loop import MAX_SAVED, run
from .policy import MAX_ADAPTIVE_STEPS, MAX_STEPS, Controlled, EqualSteps, StepRule, equal_steps
from .problem import ODEProblem, check_problem
from .solution import Solution
from .steppers import Stepper, make_stepper


def controlled(
    stepper: Stepper,
    t_span,
    *,
    rtol,
    atol,
    first_step=None,
    max_step=None,
    controller: StepController | None = None,
    n: int | None = None,
) -> tuple[Stepper, Controlled]:
    """The stepper built for ``rtol``/``atol`` and its :class:`Controlled` policy (arguments checked)."""
    if stepper.error_order is None:
        raise ValueError(
            f"method {stepper.name!r} gives no embedded error estimate, so it cannot "
            "choose its own steps: pass h= for equal steps, or use an embedded pair "
            "such as 'dopri5'"
        )
    rtol = check.rtol(rtol, n)
    atol = check.atol(atol, n)
    stepper = stepper.with_tolerances(rtol, atol)  # first: the controller may depend on them
    if controller is None:
        controller = stepper.default_controller()
    elif not isinstance(controller, StepController):
        raise TypeError(f"controller must be a StepController, got {type(controller).__name__}")
    span = t_span[1] - t_span[0]
    max_step = span if max_step is None else min(check.positive("max_step", max_step), span)
    if first_step is not None:
        first_step = check.positive("first_step", first_step)
    return stepper, Controlled(controller, rtol, atol, first_step, max_step)


def integrate(
    problem: ODEProblem,
    method,
    h: float | None = None,
    *,
    rtol: float | None = None,
    atol: float | None = None,
    first_step: float | None = None,
    max_step: float | None = None,
    controller: StepController | None = None,
    save_every: int = 1,
    blowup: float = 1e8,
    max_steps: int | None = None,
) -> Solution:
    """Integrate ``problem`` with ``method``: equal steps if ``h`` is given, adaptive otherwise.

    Parameters
    ----------
    problem : ODEProblem (or HamiltonianProblem)
    method : catalogue name (``"rk4"``, ``"radau3"``, ``"bdf2"``, ``"verlet"``), method object or stepper
    h : float > 0, optional -- the largest equal step; the run uses ``(t1-t0)/ceil((t1-t0)/h)``.
        Or a rule ``h(n, t, y) -> float > 0`` giving each step from the step index, the time
        and the state (the last step shortened to end at ``t1``; ``info["h"]`` lists the steps).
    rtol, atol : adaptive tolerances (defaults 1e-6 and 1e-9 when ``h`` is None); the
        error of a step is ``||err / (atol + rtol max(|y|, |y_new|))||_rms <= 1``
        (Hairer-Norsett-Wanner I, eq. II.4.11).
    first_step, max_step, controller : adaptive settings (the method's own controller by default).
    save_every : keep every ``save_every``-th step of an equal-step run (the last always).
    blowup : the run stops with reason ``"diverged"`` once ``max|y| > blowup * max(1, max|y0|)``.
    max_steps : the run stops with reason ``"max_steps"`` after this many steps tried
        (default: 100 000 adaptive or by rule; for equal steps the ``N`` steps the span needs).
    """
    check_problem(problem)
    stepper = make_stepper(method)
    save_every = check.integer("save_every", save_every, 1, MAX_STEPS)
    if max_steps is not None:
        max_steps = check.integer("max_steps", max_steps, 1, MAX_ADAPTIVE_STEPS)
    if h is not None:
        extra = [
            name
            for name, v in (
                ("rtol", rtol),
                ("atol", atol),
                ("first_step", first_step),
                ("max_step", max_step),
                ("controller", controller),
            )
            if v is not None
        ]
        if extra:
            raise ValueError(
                f"give either h (equal steps) or {', '.join(extra)} (adaptive steps), not both"
            )
        if callable(h):
            if save_every != 1:
                raise ValueError(
                    "save_every applies to equal steps; a run by rule keeps every step"
                )
            return run(
                problem,
                stepper,
                StepRule(h),
                blowup=blowup,
                max_steps=100_000 if max_steps is None else max_steps,
            )
        n, h_used = equal_steps(problem.t_span, h)
        check.count(
            "saved values",
            (n // save_every + 2) * problem.n,
            MAX_SAVED,
            f"use save_every >= {max(1, n * problem.n // MAX_SAVED + 1)}",
        )
        return run(
            problem, stepper, EqualSteps(n, h_used, save_every), blowup=blowup, max_steps=max_steps
        )
    if save_every != 1:
        raise ValueError("save_every applies to equal steps (h=); an adaptive run keeps every step")
    stepper, policy = controlled(
        stepper,
        problem.t_span,
        rtol=1e-6 if rtol is None else rtol,
        atol=1e-9 if atol is None else atol,
        first_step=first_step,
        max_step=max_step,
        controller=controller,
        n=problem.n,
    )
    return run(
        problem,
        stepper,
        policy,
        blowup=blowup,
        max_steps=100_000 if max_steps is None else max_steps,
    )
