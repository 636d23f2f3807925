"""Step-size policies: who chooses ``h`` in the one loop (:func:`robonum.loop.run`).

The loop asks its policy -- ``start`` (the first step), ``propose`` (the step
to try from ``t``), ``judge`` (accepted? the next ``h``), ``keep`` (save the
point? ``None``: every one), ``finished``, ``underflow`` (``None`` when steps never shrink) and,
at the end, ``report`` -- and knows nothing else about step sizes;
``retries`` says whether a step that cannot be solved is tried again smaller.  Three policies:

* :class:`EqualSteps` -- ``N`` steps of ``h = (t1 - t0)/N``, the ``k``-th
  ending at ``t0 + k h`` (not a running sum, which drifts by rounding);
* :class:`Controlled` -- a :class:`StepController` chooses ``h`` from the
  stepper's embedded error estimate, ``||err / (atol + rtol max(|y|, |y_new|))||_rms <= 1``
  accepts (Hairer-Norsett-Wanner I, eq. II.4.11); an implicit step that
  cannot be solved is retried with a smaller ``h``, as stiff codes do;
* :class:`StepRule` -- ``h_n = rule(n, t_n, y_n)``, a step chosen from the
  state in advance of the step (variable-step geometric integration).
"""

from __future__ import annotations

import math

import numpy as np

from . import _validate as check
from .control import StepController, smallest_step

_EPS = np.finfo(float).eps
MAX_STEPS = 200_000  # equal steps in Python: ~5 s for RK4 on a small system
MAX_ADAPTIVE_STEPS = 500_000  # accepted + rejected; ~25 s of a 6-stage explicit step


def equal_steps(t_span, h, cap: int = MAX_STEPS, what: str = "integrate") -> tuple[int, float]:
    """``(N, h_used)`` with ``N = ceil((t1 - t0) / h)`` equal steps, refusing ``N > cap``.

    A relative slack of 1e-12 keeps ``(0, 1)`` with ``h = 0.1`` at 10 steps
    (``1 / 0.1`` is ``10.000000000000002`` in floating point).
    """
    t0, t1 = check.interval("t_span", t_span)
    h = check.positive("h", h)
    cap = check.integer("cap", cap, 1, 10**9)
    ratio = (t1 - t0) / h
    if not ratio <= cap:  # also catches inf from h = 1e-320
        advice = f"use h >= {(t1 - t0) / cap:.3g}" + (
            " or robonum.fast.integrate for long runs" if what == "integrate" else ""
        )
        raise ValueError(
            f"h = {h:.3g} on t_span = ({t0:g}, {t1:g}) needs about {ratio:.3g} steps; "
            f"{what} allows at most {cap:,}: {advice}"
        )
    n = max(1, math.ceil(ratio * (1 - 1e-12)))
    return n, (t1 - t0) / n


class EqualSteps:
    """``n`` steps of size ``h`` from ``t0``; keeps every ``save_every``-th point and the last."""

    retries = False  # a failed implicit step ends the run: h is not ours to change

    underflow = None  # equal steps never shrink

    def __init__(self, n: int, h: float, save_every: int = 1):
        self.n, self.h, self.save_every = n, h, save_every
        self._accept = (True, h)
        if save_every == 1:
            self.keep = None  # every point: the loop need not ask

    def start(self, work, stepper, t0, y0, t1):
        self.t0 = t0
        return self.h, None

    def propose(self, t, y, h, t1, nsteps):
        return self.h, self.t0 + (nsteps + 1) * self.h

    def judge(self, stepper, work, h, y, y_new, err, state):
        return self._accept

    def keep(self, nsteps):
        return nsteps % self.save_every == 0 or nsteps == self.n

    def finished(self, t, t1, nsteps):
        return nsteps >= self.n

    def report(self):
        """``(h, info)`` for the Solution: the equal step used."""
        return self.h, {}


DOMAIN_SLACK = 1000  # a component declared >= 0 may dip to -1000 atol before a run is "lost"


class Controlled:
    """Steps chosen by ``controller`` from the stepper's error estimate.

    ``domain_slack`` (``DOMAIN_SLACK * atol``): how far below zero a component the
    problem declares nonnegative may go.  A run within its tolerance errs by about
    ``atol`` near zero (measured: no run of HIRES, ROBER or OREGO at rtol 1e-2 ...
    1e-10, with or without ``jac``, went below 0 at all); ROBER's lost runs of
    issue 24 ended at ``y1 = -8.2e6``.
    """

    retries = True

    def __init__(
        self,
        controller: StepController,
        rtol: float,
        atol: float,
        first_step: float | None,
        max_step: float,
    ):
        self.controller, self.rtol, self.atol = controller, rtol, atol
        self.first_step, self.max_step = first_step, max_step
        self.domain_slack = DOMAIN_SLACK * atol

    def start(self, work, stepper, t0, y0, t1):
        self.controller.reset()
        if self.first_step is not None:
            return min(self.first_step, self.max_step), None
        f0 = work.f(t0, y0)
        h = self.controller.initial_step(
            work, t0, y0, f0, self.rtol, self.atol, stepper.initial_order, self.max_step
        )
        return h, f0

    def propose(self, t, y, h, t1, nsteps):
        h = min(h, self.max_step)
        if t + h >= t1 - 4 * _EPS * max(abs(t1), 1.0):  # land on t1 exactly
            return t1 - t, t1
        return h, t + h

    def judge(self, stepper, work, h, y, y_new, err, state):
        if y_new is None:  # the step could not be solved
            err_norm = math.inf
        else:
            size = np.abs(y_new) if stepper.weight_by_new else np.maximum(np.abs(y), np.abs(y_new))
            e = err / (self.atol + self.rtol * size)
            err_norm = math.sqrt(np.vdot(e, e).real / e.size)  # vdot: |e|^2 for complex e too
            if not np.isfinite(err_norm):
                err_norm = math.inf
        return stepper.judge(self.controller, work, h, err_norm, state)

    keep = None  # every accepted point

    def finished(self, t, t1, nsteps):
        return t >= t1

    def underflow(self, h, t):
        """A step below the rounding level of ``t`` cannot move ``t`` (:func:`smallest_step`)."""
        return h < smallest_step(t)

    def report(self):
        return None, {}


class StepRule:
    """``h_n = rule(n, t_n, y_n)``, the last step shortened to end at ``t1``; ``steps_used`` lists them."""

    retries = False
    underflow = None  # the rule's steps are checked when it gives them
    domain_slack = None

    def __init__(self, rule):
        check.callable_("rule", rule)
        self.rule = rule

    def start(self, work, stepper, t0, y0, t1):
        self.steps_used = []
        self._first = self._h(0, t0, y0, t1)
        return self._first, None

    def _h(self, n, t, y, t1):
        try:
            h = self.rule(n, t, y.copy())
        except Exception as exc:  # the user's rule: say which call failed
            raise ValueError(
                f"step(n, t, y) raised {type(exc).__name__} at step n = {n} (t = {t:.6g}): {exc}"[
                    :300
                ]
            ) from exc
        if (
            isinstance(h, bool)
            or not isinstance(h, (int, float, np.floating, np.integer))
            or not (math.isfinite(float(h)) and float(h) > 0)
        ):
            raise ValueError(
                f"step(n, t, y) must return a finite h > 0; at step n = {n} "
                f"(t = {t:.6g}) it returned {h!r}"
            )
        return min(float(h), t1 - t)

    def propose(self, t, y, h, t1, nsteps):
        h = self._h(nsteps, t, y, t1) if nsteps else self._first
        return h, (t1 if t1 - (t + h) <= 1e-12 * max(1.0, abs(t1)) else t + h)

    def judge(self, stepper, work, h, y, y_new, err, state):
        self.steps_used.append(h)
        return True, h

    keep = None  # every point

    def finished(self, t, t1, nsteps):
        return t >= t1

    def report(self):
        """The steps used, in ``info["h"]``."""
        return None, {"h": np.array(self.steps_used)}
