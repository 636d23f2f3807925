"""Step-size control, separate from any stepper (as in diffrax).

A step of size ``h`` with scaled error ``err`` (accepted when ``err <= 1``)
proposes the next step

    h_new = h * min(fac_max, max(fac_min, safety * err^(-alpha) * err_old^beta)),

``alpha = 1/q - 0.75 beta``, ``q = min(p, p_hat) + 1``.  ``beta = 0`` is the
elementary (I) controller of Hairer-Norsett-Wanner I, eq. (II.4.13);
``beta = 0.04`` is the PI controller of Hairer's DOPRI5 code (Gustafsson
1991; Hairer & Wanner II, sec. IV.2): remembering the last accepted error
damps the oscillation of ``h`` on the stability boundary of stiff problems,
where an I controller keeps rejecting steps.  After a rejection ``h`` never
grows (HNW I, sec. II.4).

``predictive=True`` adds Gustafsson's predictive controller, the one of
Hairer's RADAU5 (Hairer & Wanner II, sec. IV.8, eq. 8.25): after an accepted
step that follows another accepted step,

    h_new = min(h_I, safety * h * (h / h_acc) * (err_acc / err^2)^(1/q)),

``h_acc``, ``err_acc`` the previous accepted step and its error: the ratio of
two errors predicts the trend, so a steadily growing error is answered
before it causes a rejection.  ``adapt(h, err, safety=...)`` lets a stepper
lower the safety factor for one step (RADAU5 lowers it when Newton needed
many iterations).
"""

from __future__ import annotations

import math

import numpy as np

from . import _validate as check

_EPS = float(np.finfo(float).eps)
_TINY = float(np.finfo(float).tiny)
# RADAU5's ERRACC = MAX(1D-2, ERR): the predictive rule sees at least this error.  SciPy has no
# floor; without it the bench (HIRES, ROBER, VDPOL, OREGO, E5, robots, no jac) moved within
# its scatter, so RADAU5's rule stays.
ERR_ACC_FLOOR = 1e-2


def step_factor(h, err, safe, alpha, beta, q, err_old, h_acc, err_acc, after_reject, fac_min,
                fac_max):  # fmt: skip
    """``h_new / h`` for a step of size ``h`` with scaled error ``err >= 0`` (inf: not solved).

    Accepted (``err <= 1``): the PI factor ``safe err^-alpha err_old^beta``, and with
    ``h_acc > 0`` (the last accepted step, ``err_acc`` its error) at most Gustafsson's
    predictive ``safe (h/h_acc) (err_acc/err²)^(1/q)``; rejected: ``safe err^(-1/q)``.
    Clipped to ``[fac_min, fac_max]``, and to at most 1 after a rejection or on one.
    Plain arithmetic on floats, so ``robonum.fast`` compiles this same function:
    one definition of the step-size rule for the Python and the compiled Radau.
    """
    accepted = err <= 1.0
    if err == 0.0:
        factor = fac_max
    elif not math.isfinite(err):
        factor = fac_min
    elif accepted:
        factor = safe * err ** (-alpha) * err_old**beta
    else:
        factor = safe * err ** (-1.0 / q)
    if accepted and h_acc > 0.0 and err > 0.0:
        factor = min(factor, safe * (h / h_acc) * (err_acc / err**2) ** (1.0 / q))
    factor = min(fac_max, max(fac_min, factor))
    if after_reject or not accepted:
        factor = min(factor, 1.0)  # no growth right after a rejection, none on one
    return factor


class StepController:
    """Accept a step when ``err <= 1``; propose the next ``h`` from ``err``.

    Parameters
    ----------
    q : int -- exponent denominator, the embedded order plus one (``q = 5`` for DOPRI5).
    safety : float in (0, 1]; fac_min < 1 < fac_max : bounds of the change per step;
    beta : float in [0, 0.2] -- PI memory; 0 (the default) is the I controller, which on the
        printed chapter's stiff cosine problem needs 2,162 evaluations with DOPRI5 at rtol 1e-6,
        atol 1e-9 -- SciPy's RK45 count -- where beta = 0.04 needs 2,228.
    predictive : bool -- also apply Gustafsson's predictive step (module docstring).
    """

    def __init__(
        self,
        q: int,
        *,
        safety: float = 0.9,
        fac_min: float = 0.2,
        fac_max: float = 10.0,
        beta: float = 0.0,
        predictive: bool = False,
    ):
        self.q = check.integer("q", q, 1, 20)
        self.safety = check.positive("safety", safety, hi=1.0)
        self.fac_min = check.positive("fac_min", fac_min, hi=1.0)
        self.fac_max = check.positive("fac_max", fac_max, hi=1e3)
        if not self.fac_min < 1 < self.fac_max:
            raise ValueError(f"need fac_min < 1 < fac_max, got {fac_min} and {fac_max}")
        self.beta = check.real("beta", beta, 0.0, 0.2)
        self.alpha = 1.0 / self.q - 0.75 * self.beta
        self.predictive = check.boolean("predictive", predictive)
        self.reset()

    def reset(self) -> None:
        """Forget the previous run (drivers call it before the first step)."""
        self.err_old = 1e-4  # Hairer's initial value: a modest "previous error"
        self.rejected = False
        self.h_acc = None  # last accepted step and its error (predictive control)
        self.err_acc = None

    def adapt(self, h: float, err: float, *, safety: float | None = None) -> tuple[bool, float]:
        """``(accepted, h_next)`` for a step of size ``h`` with scaled error ``err``.

        ``safety`` overrides the controller's safety factor for this one step.
        """
        safe = self.safety if safety is None else check.positive("safety", safety, hi=1.0)
        if not (type(h) is float and 0.0 < h < math.inf):  # the loop's floats pass at once
            h = check.positive("h", h)
        err = float(err)
        if not err >= 0:  # NaN
            err = np.inf
        accepted = err <= 1.0
        predict = self.predictive and self.h_acc is not None
        factor = step_factor(
            h, err, safe, self.alpha, self.beta, self.q, self.err_old,
            self.h_acc if predict else 0.0, self.err_acc if predict else 0.0,
            self.rejected, self.fac_min, self.fac_max,
        )  # fmt: skip
        if accepted:
            self.err_old = max(err, 1e-4)
            self.h_acc, self.err_acc = h, max(err, ERR_ACC_FLOOR)
        self.rejected = not accepted
        return accepted, h * factor

    def initial_step(self, work, t0, y0, f0, rtol, atol, order: int, max_step: float) -> float:
        """First step from the scales of ``y0``, ``f(t0, y0)`` and ``f'`` (HNW I, sec. II.4).

        ``h0 = 0.01 ||y0|| / ||f0||``; one explicit Euler step estimates
        ``||f'||``; ``h1 = (0.01 / max(||f0||, ||f'||))^(1/(order+1))``;
        the first step is ``min(100 h0, h1, max_step)``.  One extra ``f`` call.
        """
        scale = atol + rtol * np.abs(y0)
        d0, d1 = scaled_rms(y0, scale), scaled_rms(f0, scale)
        h0 = 1e-6 if d0 < 1e-5 or d1 < 1e-5 else 0.01 * d0 / d1
        h0 = min(at_least(h0, smallest_step(t0)), max_step)
        f1 = work.f(t0 + h0, y0 + h0 * f0)
        d2 = scaled_rms(f1 - f0, scale) / h0
        if max(d1, d2) <= 1e-15:
            h1 = max(1e-6, h0 * 1e-3)
        else:
            h1 = (0.01 / max(d1, d2)) ** (1.0 / (order + 1))
        # |f0| far above atol (a tiny atol, a huge rate) can push h to 0: take the least step
        # that still moves t, and let the loop's underflow test say what happened
        return min(at_least(min(100 * h0, h1), smallest_step(t0)), max_step)


def at_least(h: float, lo: float) -> float:
    """``max(h, lo)`` that also maps a NaN ``h`` (an inf/inf above) to ``lo``."""
    return h if h >= lo else lo


def smallest_step(t: float) -> float:
    """The least step the loops take at ``t``: ``max(16 eps |t|, the smallest normal number)``.

    Below it ``t + h`` keeps too few of ``h``'s digits (an adaptive run reports
    ``step_underflow``).  Relative to ``t``, as SciPy's ``10 |nextafter(t) - t|``: near
    ``t = 0`` a run may need steps far below 1e-15 (ROBER with a tiny ``atol``).
    """
    return max(16.0 * _EPS * abs(t), _TINY)


def scaled_rms(v, scale) -> float:
    """``sqrt(mean(|v / scale|^2))``; where the squares overflow, the same with ``|v/scale|`` scaled
    by its largest entry first (the plain form otherwise, so that results keep every bit)."""
    with np.errstate(over="ignore"):
        w = np.abs(v / scale)  # abs: v may be complex
        plain = float(np.sqrt(np.mean(w**2)))
    m = float(w.max()) if w.size else 0.0
    if math.isfinite(plain) or not math.isfinite(m):
        return plain if math.isfinite(plain) else m
    return m * float(np.sqrt(np.mean((w / m) ** 2)))
