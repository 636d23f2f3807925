"""``solve_ivp``: SciPy's signature in front of robonum's adaptive driver.

Methods (SciPy's names accepted as aliases):

==============  ============  =====================================================
``method``      alias         what
==============  ============  =====================================================
``"dopri5"``    ``"RK45"``    Dormand-Prince 5(4), explicit, first same as last
``"bs23"``      ``"RK23"``    Bogacki-Shampine 3(2), explicit, first same as last
``"radau5"``    ``"Radau"``   3-stage Radau IIA, order 5, L-stable (``RadauIIA(3)``)
``"radau"``                   a policy, not a method: Radau IIA with 5 stages (order 9)
                              at rtol <= 2e-5, else 3 (``stages_for``)
``"bdf"``       ``"BDF"``     NDF/BDF orders 1-5, quasi-constant step (:class:`VariableBDF`)
==============  ============  =====================================================

The result is a :class:`robonum.Solution` (``t``, ``y`` of shape
``(n, len(t))``, ``success``, ``status``, ``message``, ``nfev``, ``njev``,
``nlu``, counted as SciPy's: ``nfev`` leaves out the calls of a difference Jacobian,
reported in ``nfev_jac``) with one more attribute, ``sol``: the dense output
(:class:`robonum.dense.DenseOutput`) when ``dense_output=True``, else None.
With ``t_eval`` the solution is reported at those times (from the dense output).
References: Hairer & Wanner, *Solving ODEs II*, sec. IV.8; Hairer & Wanner, J. Comput.
Appl. Math. 111 (1999); Shampine & Reichelt (1997).
"""

from __future__ import annotations

import numpy as np

from . import _validate as check
from .control import StepController
from .events import EventLog, as_events
from .integrate import controlled
from .ivp_inputs import (
    mirrored_dense,
    no_integration,
    raised_rtol,
    reversed_in_time,
    span_of,
    times_inside,
    unmirrored,
    with_args,
)
from .loop import run
from .policy import MAX_ADAPTIVE_STEPS
from .problem import MAX_DIM, ODEProblem
from .steppers import ExplicitRK, Stepper
from .steppers.bdf_variable import VariableBDF
from .steppers.radau import RadauIIA, stages_for

METHODS = {
    "dopri5": "dopri5",
    "RK45": "dopri5",
    "bs23": "bs23",
    "RK23": "bs23",
    "radau5": "radau5",
    "Radau": "radau5",
    "radau": "radau",
    "bdf": "bdf",
    "BDF": "bdf",
}


def make_ivp_stepper(method, rtol: float = 1e-3):
    """A fresh stepper for a ``solve_ivp`` method name (see the module table).

    ``"radau"`` is the named policy that picks the stage count from ``rtol``
    (:func:`robonum.steppers.radau.stages_for`); the stepper it builds has them fixed.
    A :class:`~robonum.steppers.Stepper` passes through, as SciPy's ``solve_ivp``
    takes an ``OdeSolver`` class: ``method=RadauIIA(5)`` fixes the stages.
    """
    if isinstance(method, Stepper):
        return method
    check.one_of("method", method, METHODS)
    key = METHODS[method]
    if key == "radau5":
        return RadauIIA(3)
    if key == "radau":
        return RadauIIA(stages_for(check.rtol_min(check.rtol(rtol))))
    if key == "bdf":
        return VariableBDF()
    return ExplicitRK(key)  # "dopri5" or "bs23": one stepper for every explicit tableau


def forward_run(f, y0, t_span, stepper, *, name, rtol, atol, jac, jac_sparsity, nonnegative,
                first_step, max_step, max_steps):  # fmt: skip
    """``(problem, stepper, policy, max_steps)`` of a run with ``t0 < t1`` (mirrored already if
    it went backwards): what :func:`solve_ivp` and :class:`robonum.stepping.IVPSolver` both make.

    ``max_step = inf`` means no cap; ``first_step`` must not exceed the span (SciPy raises too).
    """
    problem = ODEProblem(f, y0, t_span, jac=jac, name=name, jac_sparsity=jac_sparsity,
                         nonnegative=nonnegative, open_end=True)  # fmt: skip
    (t0, t1) = problem.t_span
    if max_step is not None and not (isinstance(max_step, float) and max_step == np.inf):
        max_step = check.positive("max_step", max_step)
    else:
        max_step = None
    if first_step is not None and check.positive("first_step", first_step) > t1 - t0:
        raise ValueError(f"first_step must be at most |t1 - t0| = {t1 - t0:g}, got {first_step:g}")
    max_steps = check.integer("max_steps", max_steps, 1, MAX_ADAPTIVE_STEPS)
    stepper, policy = controlled(
        stepper, problem.t_span, rtol=rtol, atol=atol, first_step=first_step,
        max_step=max_step, n=problem.n,
    )  # fmt: skip
    return problem, stepper, policy, max_steps


def solve_ivp(
    fun,
    t_span,
    y0,
    method="dopri5",
    t_eval=None,
    dense_output: bool = False,
    events=None,
    vectorized: bool = False,
    args=None,
    *,
    rtol: float = 1e-3,
    atol: float = 1e-6,
    jac=None,
    jac_sparsity=None,
    nonnegative=None,
    first_step=None,
    max_step=np.inf,
    max_steps: int = 100_000,
):
    """``scipy.integrate.solve_ivp``-style call; returns a :class:`robonum.Solution`.

    ``method`` is a name from the module table or a stepper with an error
    estimate (``rn.steppers.RadauIIA(5)``), as SciPy also takes a solver class.
    As in SciPy: ``t_span`` may decrease (the run goes backwards) or have zero
    length; ``t_eval`` is sorted in the direction of the run; ``events``
    (:mod:`robonum.events`) fill ``t_events``/``y_events``, and a terminal one
    stops the run with ``status = 1``; ``args`` are passed to ``fun`` and ``jac``;
    ``vectorized=True`` means ``fun`` takes ``(n, k)`` states; ``jac`` may be a
    callable, a constant matrix or a SciPy sparse matrix (:mod:`robonum.ivp_inputs`).
    The result also reads as a dict (``sol["t"]``).

    ``jac_sparsity`` (as SciPy's): an ``(n, n)`` pattern of the nonzeros of ``df/dy``;
    without ``jac`` the finite-difference Jacobian then costs one ``f``-call per
    group of columns with no common row, not one per column.
    ``nonnegative``: ``True`` or the indices of components the exact solution keeps
    ``>= 0``; a run whose solution falls below ``-1000 atol`` there ends with
    ``status = -1``, reason ``"negative"`` (checked, not enforced).
    ``rtol`` in [0, 1] (below 100 eps raised to it with a warning, as SciPy's) and
    ``atol > 0``, each a number or one per component; ``first_step`` in ``(0, |t1 - t0|]``,
    ``max_step`` > 0; at most 1e6 times in ``t_eval``; ``max_steps``
    (accepted + rejected) caps the run, which then stops with reason
    ``"max_steps"``.  Failures (step-size underflow, Newton failure that
    shrinks ``h`` to nothing, NaN in ``f``) come back as ``status = -1`` with
    ``reason`` and ``message``, never as a hang or an exception.
    """
    rtol = raised_rtol(rtol)  # SciPy's floor, with SciPy's warning
    stepper = make_ivp_stepper(method, rtol)
    dense_output = check.boolean("dense_output", dense_output)
    f, J = with_args(fun, jac, args, vectorized)
    evs = as_events(events, () if args is None else tuple(args))
    t0, t1 = span_of(t_span, open_end=True)
    y0 = check.state_vector("y0", y0, max_size=MAX_DIM, min_size=0)
    if t1 == t0 or y0.size == 0:  # nothing moves: no f-call (SciPy's corner cases)
        return no_integration((t0, t1), y0, stepper.name, evs, dense_output, t_eval)
    if np.isinf(t1) and not any(ev.terminal for ev in evs):
        raise ValueError(
            f"t_span[1] = {t1}: a run without an end needs a terminal event to stop it "
            "(events=g with g.terminal = True), or give a finite t1"
        )
    backward = t1 < t0
    if backward:
        f, J, evs = reversed_in_time(f, J, evs)
        t0, t1 = -t0, -t1
    t_eval = times_inside("t_eval", t_eval, t_span, backward)
    problem, stepper, policy, max_steps = forward_run(
        f, y0, (t0, t1), stepper, name="solve_ivp", rtol=rtol, atol=atol, jac=J,
        jac_sparsity=jac_sparsity, nonnegative=nonnegative, first_step=first_step,
        max_step=max_step, max_steps=max_steps,
    )  # fmt: skip
    log = EventLog(evs, t0, problem.y0) if evs else None
    sol = run(
        problem,
        stepper,
        policy,
        blowup=1e300,
        max_steps=max_steps,
        dense=dense_output or t_eval is not None,
        on_step=None if log is None else log.after_step,
    )
    dense = sol.info.pop("dense", None)
    if t_eval is not None:
        reached = t_eval[t_eval <= sol.t[-1]]
        # no t_eval point reached (a terminal event came first): empty lists, as SciPy's
        # solve_ivp returns them (`not sol.t` is True), not (0,) and (n, 0) arrays
        sol.t, sol.y = (reached, dense(reached)) if reached.size else ([], [])
    if backward:
        sol.t, dense = (-sol.t if len(sol.t) else sol.t), mirrored_dense(dense)
        sol.message = unmirrored(sol.message)
    sol.sol = dense if dense_output else None
    if log is not None:
        sol.message += log.note()
        sol.t_events, sol.y_events = log.arrays(problem.n, problem.y0.dtype)  # complex y stays
        if backward:
            sol.t_events = [-te for te in sol.t_events]
    return sol


__all__ = ["solve_ivp", "make_ivp_stepper", "METHODS", "StepController"]
