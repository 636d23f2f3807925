"""Drivers: march a stepper across ``t_span`` and collect a :class:`Solution`.

``integrate`` takes equal steps (the step actually used is ``(t1-t0)/N`` with
``N = ceil((t1-t0)/h)``, so it never exceeds the requested ``h``);
``integrate_adaptive`` lets a :class:`StepController` choose them from an
embedded error estimate.  Neither stepper nor controller knows the other.
"""
from __future__ import annotations

import math

import numpy as np

from . import _validate as check
from .control import StepController
from .errors import NonlinearSolveError
from .problem import ODEProblem, Work
from .solution import DIVERGED, FAILED, SUCCESS, Solution
from .tableau import ButcherTableau


def make_stepper(method):
    """A stepper from a name (``"rk4"``, ``"radau3"``, ``"bdf2"``), a tableau, or a stepper."""
    from . import methods
    from .steppers import BDF, ExplicitRK, ImplicitRK
    if hasattr(method, "step") and hasattr(method, "init"):
        return method
    if isinstance(method, str) and method.lower().startswith("bdf") and method[3:].isdigit():
        return BDF(int(method[3:]))
    tab = methods.get(method)
    return ExplicitRK(tab) if tab.is_explicit else ImplicitRK(tab)


def _check_problem(problem):
    if not isinstance(problem, ODEProblem):
        raise TypeError(f"problem must be an ODEProblem, got {type(problem).__name__}")


def _diverged(y, bound):
    """Non-finite or beyond ``bound``: the run has left any meaningful range."""
    return not np.all(np.isfinite(y)) or np.max(np.abs(y)) > bound


def _finish(problem, stepper, work, ts, ys, h, nsteps, status, message, nreject=0):
    return Solution(t=np.array(ts), y=np.array(ys).T, method=stepper.name, h=h,
                    nsteps=nsteps, status=status, message=message, nreject=nreject,
                    **work.counters())


def integrate(problem: ODEProblem, method, h: float, *, save_every: int = 1,
              blowup: float = 1e8) -> Solution:
    """Integrate ``problem`` with ``method`` in equal steps of at most ``h``.

    Parameters
    ----------
    problem : ODEProblem
    method : str, ButcherTableau or stepper
    h : float > 0
        Largest step; the run uses ``(t1 - t0) / ceil((t1 - t0) / h)``.
    save_every : int >= 1
        Keep every ``save_every``-th step (the last one always).
    blowup : float > 0
        The run stops with ``status = -1`` once ``max|y|`` exceeds
        ``blowup * max(1, max|y0|)`` -- overflow is reported, not warned.
    """
    _check_problem(problem)
    h = check.positive("h", h)
    save_every = check.integer("save_every", save_every, 1)
    blowup = check.positive("blowup", blowup)
    stepper = make_stepper(method)
    t0, t1 = problem.t_span
    n = max(1, math.ceil((t1 - t0) / h - 1e-9))
    if n > 50_000_000:
        raise ValueError(f"h={h} needs {n} steps on {problem.t_span}; use h >= {(t1 - t0) / 5e7:.3g}")
    h = (t1 - t0) / n
    bound = blowup * max(1.0, float(np.max(np.abs(problem.y0))))
    work = Work(problem)
    y = problem.y0.copy()
    ts, ys = [t0], [y]
    state = stepper.init(work, t0, y, h)
    status, message = SUCCESS, f"reached t = {t1:g}"
    # Overflow on the way to the bound is expected in an unstable run; it is
    # reported through status/message below instead of a flood of warnings.
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(1, n + 1):
            t = t0 + (k - 1) * h
            try:
                y, _, state = stepper.step(work, t, y, h, state)
            except NonlinearSolveError as exc:
                status, message = FAILED, f"nonlinear solve failed at t = {t:g}: {exc}"
                break
            if _diverged(y, bound):
                ts.append(t0 + k * h)
                ys.append(y)
                status = DIVERGED
                message = (f"diverged at t = {t0 + k * h:g}: max|y| > {bound:.3g} "
                           f"(unstable: h = {h:.4g} is outside the method's stability region)")
                break
            if k % save_every == 0 or k == n:
                ts.append(t0 + k * h)
                ys.append(y)
    return _finish(problem, stepper, work, ts, ys, h, k, status, message)


def integrate_adaptive(problem: ODEProblem, method="dopri5", *, rtol: float = 1e-6,
                       atol: float = 1e-9, h0: float | None = None,
                       controller: StepController | None = None,
                       max_steps: int = 1_000_000) -> Solution:
    """Integrate with step sizes chosen from the embedded error estimate.

    The error of a step is measured in the weighted RMS norm of
    Hairer-Norsett-Wanner I, eq. (II.4.11):
    ``||err / (atol + rtol * max(|y|, |y_new|))||_rms``, accepted when <= 1.
    """
    _check_problem(problem)
    rtol = check.positive("rtol", rtol)
    atol = check.positive("atol", atol)
    max_steps = check.integer("max_steps", max_steps, 1)
    from .steppers import ExplicitRK
    stepper = make_stepper(method)
    tab = getattr(stepper, "tableau", None)
    # Only the explicit stepper returns the embedded estimate; implicit steppers give err=None.
    if not (isinstance(stepper, ExplicitRK) and tab.has_embedded):
        raise ValueError(f"method {stepper.name!r} gives no embedded error estimate: adaptive "
                         "steps need an explicit method with b_hat (e.g. 'dopri5'); "
                         "use integrate() with a fixed h otherwise")
    controller = controller or StepController(order=tab.order_hat + 1)
    t0, t1 = problem.t_span
    work = Work(problem)
    y = problem.y0.copy()
    h = check.positive("h0", h0) if h0 is not None else controller.initial_step(work, t0, y, rtol, atol)
    ts, ys, nsteps, nreject = [t0], [y], 0, 0
    t, state = t0, stepper.init(work, t0, y, h)
    status, message = SUCCESS, f"reached t = {t1:g}"
    with np.errstate(over="ignore", invalid="ignore"):
        while t < t1:
            if nsteps + nreject >= max_steps:
                status, message = FAILED, f"max_steps = {max_steps} reached at t = {t:g}"
                break
            h = min(h, t1 - t)
            y_new, err, state = stepper.step(work, t, y, h, state)
            scale = atol + rtol * np.maximum(np.abs(y), np.abs(y_new))
            err_norm = float(np.sqrt(np.mean((err / scale) ** 2)))
            if not np.isfinite(err_norm):
                err_norm = np.inf
            accepted, h_next = controller.adapt(h, err_norm)
            if accepted:
                t, y, nsteps = t + h, y_new, nsteps + 1
                ts.append(t)
                ys.append(y)
            else:
                nreject += 1
            if h_next < 1e-14 * max(1.0, abs(t)):
                status, message = FAILED, f"step size underflow at t = {t:g}"
                break
            h = h_next
    return _finish(problem, stepper, work, ts, ys, None, nsteps, status, message, nreject)
