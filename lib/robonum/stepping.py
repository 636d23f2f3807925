"""An adaptive run stepped by hand: ``IVPSolver``, the shape of SciPy's ``OdeSolver``.

A controller or a simulator that owns its own clock advances the solution one
accepted step at a time and reads ``t``, ``y`` and the step's polynomial in
between::

    solver = rn.IVPSolver(f, t0, y0, t_bound, method="bdf", rtol=1e-6)
    while solver.status == "running":
        solver.step()            # None, or a message when the run fails
        log(solver.t, solver.y)

It is not a second loop: it drives :func:`robonum.loop.march`, the generator
behind every ``solve_ivp`` and ``integrate`` run, so a run stepped by hand and
``rn.solve_ivp`` with the same arguments take the same steps.
"""

from __future__ import annotations

import numpy as np

from . import _validate as check
from .dense import evaluated
from .ivp import forward_run, make_ivp_stepper
from .ivp_inputs import (
    Constant,
    raised_rtol,
    reversed_in_time,
    span_of,
    unmirrored,
    with_args,
)
from .loop import march
from .problem import MAX_DIM


class IVPSolver:
    """``step()`` advances one accepted step; ``status`` is ``"running"``, ``"finished"`` or
    ``"failed"``; ``t``, ``y``, ``t_old``, ``step_size``, ``n``, ``direction``, ``t_bound``,
    ``nfev``, ``njev``, ``nlu`` as SciPy's ``OdeSolver`` (and ``nfev_jac``, the difference
    Jacobians' calls); ``dense_output()`` is the last step's own polynomial; ``message`` says
    why a run failed (``None`` otherwise, also when an exception from the user's function ended
    it).  Arguments as :func:`robonum.solve_ivp` (``t_bound`` for the end).
    """

    def __init__(self, fun, t0, y0, t_bound, method="dopri5", *, rtol=1e-3, atol=1e-6,
                 jac=None, jac_sparsity=None, first_step=None, max_step=np.inf,
                 vectorized=False, args=None, max_steps=100_000):  # fmt: skip
        rtol = raised_rtol(rtol)  # SciPy's floor, with SciPy's warning
        stepper = make_ivp_stepper(method, rtol)
        f, J = with_args(fun, jac, args, vectorized)
        t0, self.t_bound = span_of((t0, t_bound), open_end=True)
        self.direction = -1.0 if self.t_bound < t0 else 1.0
        self.t, self.y = t0, check.state_vector("y0", y0, max_size=MAX_DIM, min_size=0).copy()
        self.n, self.t_old, self.status, self._last = self.y.size, None, "running", None
        self._work, self._end, self.message = None, None, None
        if self.t_bound == t0 or self.n == 0:
            self._steps = None  # nothing moves: the first step() jumps to t_bound (as SciPy)
            return
        s0, s1 = self.direction * t0, self.direction * self.t_bound
        if self.direction < 0:
            f, J, _ = reversed_in_time(f, J, [])
        problem, self._stepper, policy, max_steps = forward_run(
            f, self.y, (s0, s1), stepper, name="IVPSolver", rtol=rtol, atol=atol, jac=J,
            jac_sparsity=jac_sparsity, nonnegative=None, first_step=first_step,
            max_step=max_step, max_steps=max_steps,
        )  # fmt: skip
        self._steps = march(problem, self._stepper, policy, blowup=1e300, max_steps=max_steps)
        self._work, _ = self._advance()  # start: f(t0) and the first step, as SciPy's solvers do

    def _advance(self):
        """The loop's next stop, or its ending (status and message).

        An exception from the user's function ends the run too (``status = "failed"``): the
        loop's generator is closed by it, and a later ``step()`` says so, as SciPy's does.
        """
        with np.errstate(over="ignore", invalid="ignore"):  # as robonum.loop.run
            try:
                return next(self._steps), None
            except StopIteration as end:
                if end.value is None:  # the generator was closed by an earlier exception
                    self.status = "failed"
                    return None, None
                self._end = end.value
                self.status = "finished" if end.value.status == 0 else "failed"
                if self.status == "failed":
                    self.message = (
                        unmirrored(end.value.message) if self.direction < 0 else end.value.message
                    )
                return None, end.value
            except BaseException:
                self.status = "failed"
                raise

    def step(self):
        """One accepted step; returns ``None``, or the failure's message (``status = "failed"``)."""
        if self.status != "running":
            raise RuntimeError(f"Attempt to step on a {self.status} solver.")
        if self._steps is None:
            self.t_old, self.t, self.status = self.t, self.t_bound, "finished"
            return None
        stop, end = self._advance()
        if stop is None:
            return None if self.status == "finished" else self.message
        s_old, y_old, s, y, self._work, state = stop
        self._last = (s_old, y_old, s, y, state)
        self.t_old, self.t, self.y = self.direction * s_old, self.direction * s, y
        if self.t == self.t_bound:
            self.status = "finished"
        return None

    @property
    def step_size(self):
        return None if self.t_old is None else abs(self.t - self.t_old)

    def _count(self, name):
        if self._work is not None:
            return getattr(self._work, name)
        return 0 if self._end is None else getattr(self._end, name)  # the run ended at once

    nfev = property(lambda self: self._count("nfev"))
    nfev_jac = property(lambda self: self._count("nfev_jac"))
    njev = property(lambda self: self._count("njev"))
    nlu = property(lambda self: self._count("nlu"))

    def dense_output(self):
        """The last step's polynomial as ``sol(t)`` on ``[t_old, t]`` (``(n,)`` or ``(n, m)``)."""
        if self._steps is None and self.t_old is not None:
            return Constant(self.t_old, self.t, self.y)  # nothing moved: y0 everywhere
        if self._last is None:
            raise RuntimeError("Dense output is available after a successful step was made.")
        s_old, y_old, s, y, state = self._last
        piece = self._stepper.interpolant(self._work, state, s_old, s - s_old, y_old, y)
        sign = self.direction
        t_a, t_b = sign * s_old, sign * s

        def sol(t):
            return evaluated(lambda tt: piece(sign * tt), t, min(t_a, t_b), max(t_a, t_b))

        return sol


__all__ = ["IVPSolver"]
