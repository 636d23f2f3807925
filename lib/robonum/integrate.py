"""The driver: march a stepper across ``t_span`` and collect a :class:`Solution`.

One entry point for every method and problem:

* ``integrate(problem, method, h)`` takes equal steps.  The step actually
  used is ``(t1 - t0) / N`` with ``N = ceil((t1 - t0) / h)``, so it never
  exceeds the requested ``h``; the result's ``h`` is that step (use it, not
  the requested one, for ``z = h lambda``).
* ``integrate(problem, method, rtol=..., atol=...)`` lets a
  :class:`StepController` choose the steps from the method's embedded error
  estimate.

A run that blows up, whose ``f`` returns NaN, whose Newton solve fails or
whose adaptive step underflows stops with ``status = -1`` and a
``reason``/``message`` saying which, at what ``t`` -- never with a flood
of warnings.  Steppers and controllers never know about each other.
"""
from __future__ import annotations

from . import _validate as check
from .adaptive import integrate_adaptive
from .control import StepController
from .fixed import MAX_STEPS, equal_steps, march
from .problem import ODEProblem
from .solution import Solution
from .steppers import make_stepper

MAX_SAVED = 20_000_000         # saved numbers (160 MB of float64)


def integrate(problem: ODEProblem, method, h: float | None = None, *, rtol: float | None = None,
              atol: float | None = None, first_step: float | None = None,
              max_step: float | None = None, controller: StepController | None = None,
              save_every: int = 1, blowup: float = 1e8,
              max_steps: int = 100_000) -> Solution:
    """Integrate ``problem`` with ``method``: equal steps if ``h`` is given, adaptive otherwise.

    Parameters
    ----------
    problem : ODEProblem (or HamiltonianProblem)
    method : catalogue name (``"rk4"``, ``"radau3"``, ``"bdf2"``, ``"verlet"``), method object or stepper
    h : float > 0, optional -- the largest equal step; the run uses ``(t1-t0)/ceil((t1-t0)/h)``.
    rtol, atol : adaptive tolerances (defaults 1e-6 and 1e-9 when ``h`` is None); the
        error of a step is ``||err / (atol + rtol max(|y|, |y_new|))||_rms <= 1``
        (Hairer-Norsett-Wanner I, eq. II.4.11).
    first_step, max_step, controller, max_steps : adaptive settings (a PI controller by default).
    save_every : keep every ``save_every``-th step of a fixed-step run (the last always).
    blowup : the run stops with reason ``"diverged"`` once ``max|y| > blowup * max(1, max|y0|)``.
    """
    if not isinstance(problem, ODEProblem):
        raise TypeError(f"problem must be an ODEProblem, got {type(problem).__name__}")
    stepper = make_stepper(method)
    save_every = check.integer("save_every", save_every, 1, MAX_STEPS)
    if h is not None:
        extra = [name for name, v in (("rtol", rtol), ("atol", atol), ("first_step", first_step),
                                      ("max_step", max_step), ("controller", controller)) if v is not None]
        if extra:
            raise ValueError(f"give either h (equal steps) or {', '.join(extra)} (adaptive steps), not both")
        h = check.positive("h", h)
        n, h_used = equal_steps(problem.t_span, h)
        check.count("saved values", (n // save_every + 2) * problem.n, MAX_SAVED,
                    f"use save_every >= {max(1, n * problem.n // MAX_SAVED + 1)}")
        return march(problem, stepper, n, h_used, save_every=save_every, blowup=blowup)
    return integrate_adaptive(problem, stepper, rtol=1e-6 if rtol is None else rtol,
                              atol=1e-9 if atol is None else atol, first_step=first_step,
                              max_step=max_step, controller=controller, blowup=blowup,
                              max_steps=max_steps)
