"""Reverse mode through many steps of an integrator, with and without checkpointing.

The gradient of ``L = wᵀ y_N`` with respect to the initial state ``y_0``,
where ``y_{i+1} = step(y_i)``, is the vector-Jacobian product
``wᵀ ∂y_N/∂y_0`` -- one reverse sweep.  Recorded on one tape, the sweep needs
every primitive of all ``N`` steps at once: tape memory grows like ``N``.

Checkpointing (Griewank & Walther, *Evaluating Derivatives*, 2nd ed., SIAM
2008, ch. 12; Griewank 1992) trades memory for recomputation: a first pass
without a tape stores every ``k``-th state (the checkpoints); the reverse pass
then takes the segments from the last to the first, re-runs each one from
its checkpoint on a fresh tape, and sweeps it backwards with the adjoint
handed down from the segment after it.  The last segment is recorded in
the first pass already, so it is not re-run.  With ``s = ceil(N/k)``
segments:

* checkpoints stored: ``s`` states (``y_0`` included);
* longest tape: ``dim + k · (primitives per step)`` nodes instead of
  ``dim + N · (primitives per step)``;
* recomputed steps: ``(s - 1) k`` of the ``N`` (each of these is run twice).

``every = N`` is plain reverse mode (one segment, nothing recomputed).
Each segment performs the same floating-point operations in the same order
as the one long tape, so the result equals plain reverse mode bit for bit
when ``step`` is written with ``robonum.autodiff`` functions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import _validate as check
from ..errors import EvaluationError
from ._io import as_outputs, call_f, real_vector
from .domain import DomainError
from .reverse import Tape, Var, _node, sweep

MAX_STEPS = 100_000  # one plain tape of 10^5 RK4 steps holds millions of nodes (GBs)
MAX_DIM = 1_000


@dataclass(frozen=True)
class StepsGradient:
    """``grad = wᵀ ∂y_N/∂y_0`` and the measured work and memory of computing it.

    ``stored_states`` checkpoints were held at once; ``peak_tape_nodes`` is the
    longest tape that existed; ``recomputed_steps`` steps were run twice (once
    without a tape, once on one); ``step_calls`` counts every call of ``step``.
    """

    grad: np.ndarray
    y_final: np.ndarray
    n_steps: int
    every: int
    stored_states: int
    peak_tape_nodes: int
    recomputed_steps: int
    step_calls: int


def rk4_step(f, h):
    """One classical RK4 step ``y -> y + h/6 (k1 + 2 k2 + 2 k3 + k4)`` for ``y' = f(y)``.

    ``f`` maps a list of numbers (floats, Duals or Vars) to a sequence of the
    same length, written with ``robonum.autodiff`` functions; ``h`` is a
    finite nonzero real.  The returned function takes and returns lists, so it
    runs on every number type of :mod:`robonum.autodiff`.
    Reference: Hairer, Nørsett & Wanner, *Solving ODEs I* (1993), sec. II.1.
    """
    check.callable_("f", f)
    h = check.real("h", h)
    if h == 0.0:
        raise ValueError("h must be nonzero, got 0.0")
    half, sixth = h / 2.0, h / 6.0

    def step(y):
        y = list(y)
        k1 = list(f(y))
        k2 = list(f([a + half * b for a, b in zip(y, k1)]))
        k3 = list(f([a + half * b for a, b in zip(y, k2)]))
        k4 = list(f([a + h * b for a, b in zip(y, k3)]))
        return [a + sixth * (b + 2.0 * c + 2.0 * d + e) for a, b, c, d, e in zip(y, k1, k2, k3, k4)]

    return step


def grad_through_steps(step, y0, n_steps, weights, *, every=None) -> StepsGradient:
    """``wᵀ ∂y_N/∂y_0`` for ``y_{i+1} = step(y_i)`` by reverse mode, checkpointing every ``every`` steps.

    ``step`` maps a list of ``dim`` numbers to ``dim`` numbers (Vars on the
    tape, or real constants); ``y0`` and ``weights`` are finite real vectors
    of length ``dim`` (1 .. ``MAX_DIM``); ``n_steps`` is in ``[1, MAX_STEPS]``;
    ``every`` in ``[1, n_steps]`` (``None``: ``n_steps``, one tape).  See the
    module docstring for the counts returned.
    """
    check.callable_("step", step)
    y0 = real_vector("y0", y0, max_size=MAX_DIM)
    n = check.integer("n_steps", n_steps, lo=1, hi=MAX_STEPS)
    w = real_vector("weights", weights, max_size=MAX_DIM)
    if w.size != y0.size:
        raise ValueError(f"weights must have one entry per entry of y0 ({y0.size}), got {w.size}")
    k = n if every is None else _every(every, n)
    starts = list(range(0, n, k))
    checkpoints, y, calls = [y0], y0, 0
    for i in range(starts[-1]):  # forward pass without a tape
        y = _advance(step, y, i)
        calls += 1
        if (i + 1) % k == 0:
            checkpoints.append(y)
    adjoint, peak, y_final = w, 0, None
    for s in reversed(starts):  # reverse pass, one segment at a time
        tape = Tape()
        inputs = [_node(float(v), (), tape, "input") for v in checkpoints.pop()]
        z = inputs
        for i in range(s, min(s + k, n)):
            z = _taped(step, z, tape, i)
            calls += 1
        if y_final is None:
            y_final = np.array([zi.v if isinstance(zi, Var) else float(zi) for zi in z])
        peak = max(peak, len(tape))
        seeds = [(zi, float(a)) for zi, a in zip(z, adjoint) if isinstance(zi, Var)]
        if seeds:
            sweep(tape.nodes, seeds)
            adjoint = np.array([v.grad for v in inputs])
        else:  # the segment's output is constant
            adjoint = np.zeros(y0.size)
        tape.nodes.clear()
    return StepsGradient(adjoint, y_final, n, k, len(starts), peak, starts[-1], calls)


def _every(every, n: int) -> int:
    k = check.integer("every", every, lo=1)
    if k > n:
        raise ValueError(f"every must be in [1, n_steps] = [1, {n}], got {k}")
    return k


def _advance(step, y, i):
    out = _call_step(step, list(y), y, None, i)
    try:
        return np.array([float(v) for v in out])
    except TypeError:
        raise TypeError(
            f"step returned a Var on the pass without a tape (at step index {i}); "
            "step must build its output from its input"
        ) from None


def _taped(step, z, tape, i):
    x = np.array([v.v if isinstance(v, Var) else float(v) for v in z])
    return list(_call_step(step, list(z), x, tape, i))


def _call_step(step, arg, x, tape, i):
    """``step(arg)`` with the output checks of the drivers, their messages naming ``step``."""
    try:
        out = as_outputs(call_f(step, arg, x), Var, tape=tape)
    except DomainError:  # names its operation already
        raise
    except EvaluationError as exc:
        raise EvaluationError(_renamed(exc, i), reason=exc.reason) from exc.__cause__
    except (TypeError, ValueError) as exc:
        raise type(exc)(_renamed(exc, i)) from None
    if out.size != len(arg):
        raise ValueError(
            f"step must return one number per state entry ({len(arg)}), got {out.size} "
            f"(at step index {i})"
        )
    return out


def _renamed(exc, i) -> str:
    msg = str(exc)  # the shared checks say "f ..." / "f(x) ..."; here the callable is step
    return ("step" + msg[1:] if msg.startswith("f") else msg) + f" (at step index {i})"


def checkpoint_counts(n_steps, every) -> dict:
    """The counts of :func:`grad_through_steps` without running it (for planning a run).

    ``{"stored_states": ceil(N/k), "recomputed_steps": (ceil(N/k) - 1) k,
    "longest_segment": min(k, N)}``.
    """
    n = check.integer("n_steps", n_steps, lo=1, hi=MAX_STEPS)
    k = _every(every, n)
    s = math.ceil(n / k)
    return {"stored_states": s, "recomputed_steps": (s - 1) * k, "longest_segment": min(k, n)}
