"""Bookkeeping shared by the fixed-step and the adaptive loop: saved points, status, the Solution."""
from __future__ import annotations

import math

import numpy as np

from . import _validate as check
from .errors import EvaluationError, NonlinearSolveError
from .problem import HamiltonianProblem
from .solution import FAILURE, SUCCESS, Solution


def bound_of(problem, blowup) -> float:
    blowup = check.real("blowup", blowup, 1.0, 1e300)
    return blowup * max(1.0, float(np.max(np.abs(problem.y0))))


def layout_of(problem) -> str:
    return "hamiltonian" if isinstance(problem, HamiltonianProblem) else "state"


class Run:
    """The bookkeeping both loops share: saved points, status, the final Solution."""

    def __init__(self, problem, stepper, work, bound, save_every):
        self.problem, self.stepper, self.work, self.bound = problem, stepper, work, bound
        self.save_every = save_every
        self.ts, self.ys = [problem.t_span[0]], [problem.y0.copy()]
        self.status, self.reason = SUCCESS, "success"
        self.message = f"reached t = {problem.t_span[1]:g}"

    def fail(self, reason: str, message: str):
        self.status, self.reason, self.message = FAILURE, reason, message

    def diverged(self, t, y) -> bool:
        """Non-finite, or beyond the bound: record the point and fail."""
        size = float(np.max(np.abs(y)))      # NaN propagates: one reduction decides (hot path)
        if size <= self.bound:
            return False
        finite = bool(np.isfinite(y).all())
        size = size if finite else math.inf
        self.ts.append(t)
        self.ys.append(y)
        what = (f"max|y| = {size:.3g} exceeds the bound {self.bound:.3g}" if finite
                else "the state is no longer finite")
        self.fail("diverged", f"diverged at t = {t:.6g}: {what}")
        return True

    def evaluation_failed(self, exc: EvaluationError):
        self.fail(exc.reason, str(exc))

    def newton_failed(self, t, exc: NonlinearSolveError):
        self.fail("newton_failed", f"the implicit step from t = {t:.6g} could not be solved: {exc}")

    def solution(self, h, nsteps, nreject=0) -> Solution:
        return Solution(t=np.array(self.ts), y=np.array(self.ys).T, method=self.stepper.name,
                        h=h, status=self.status, reason=self.reason, message=self.message,
                        nsteps=nsteps, nreject=nreject, layout=layout_of(self.problem),
                        **self.work.counters())


