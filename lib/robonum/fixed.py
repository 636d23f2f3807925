"""The one fixed-step loop of robonum: ``N`` equal steps of a stepper."""
from __future__ import annotations

import math

import numpy as np

from .errors import EvaluationError, NonlinearSolveError
from .problem import Work
from ._run import Run, bound_of
from .solution import Solution
from .steppers import Stepper

MAX_STEPS = 200_000            # numpy path: ~5 s for RK4 on a small system (25 µs per step)


def equal_steps(t_span, h, cap: int = MAX_STEPS, what: str = "integrate") -> tuple[int, float]:
    """``(N, h_used)`` with ``N = ceil((t1 - t0) / h)`` equal steps, refusing ``N > cap``.

    A relative slack of 1e-12 keeps ``(0, 1)`` with ``h = 0.1`` at 10 steps
    (``1 / 0.1`` is ``10.000000000000002`` in floating point).
    """
    t0, t1 = t_span
    ratio = (t1 - t0) / h
    if not ratio <= cap:                     # also catches inf from h = 1e-320
        advice = (f"use h >= {(t1 - t0) / cap:.3g}" +
                  (" or robonum.fast.integrate for long runs" if what == "integrate" else ""))
        raise ValueError(f"h = {h:.3g} on t_span = ({t0:g}, {t1:g}) needs about {ratio:.3g} steps; "
                         f"{what} allows at most {cap:,}: {advice}")
    n = max(1, math.ceil(ratio * (1 - 1e-12)))
    return n, (t1 - t0) / n


def march(problem, stepper: Stepper, n: int, h: float, *, save_every: int = 1,
          blowup: float = 1e8) -> Solution:
    """``n`` equal steps of size ``h`` from ``(t0, y0)``: the one fixed-step loop of robonum.

    Keeps every ``save_every``-th state (and always the last one reached).
    Used by :func:`integrate` and by the rotation integrators.
    """
    work = Work(problem)
    stepper.check_problem(problem)
    run = Run(problem, stepper, work, bound_of(problem, blowup), save_every)
    t0 = problem.t_span[0]
    y = problem.y0.copy()
    done = 0                     # steps completed (a diverged step counts: it was taken)
    # Overflow on the way to the bound is expected in an unstable run; it is
    # reported through status/message instead of a flood of warnings.
    with np.errstate(over="ignore", invalid="ignore"):
        state = stepper.init(work, t0, y, h)
        for k in range(1, n + 1):
            t = t0 + (k - 1) * h
            try:
                y, _, state = stepper.step(work, t, y, h, state)
            except EvaluationError as exc:
                run.evaluation_failed(exc)
                break
            except NonlinearSolveError as exc:
                run.newton_failed(t, exc)
                break
            done = k
            if run.diverged(t0 + k * h, y):
                break
            if k % save_every == 0 or k == n:
                run.ts.append(t0 + k * h)
                run.ys.append(y)
    return run.solution(h, done)


