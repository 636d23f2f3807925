"""``fast.solve_ivp``: ``rn.solve_ivp(..., method="radau")`` or ``"radau5"`` as one compiled loop.

Same arguments (without dense output), same algorithm, same
:class:`robonum.Solution`; ``f`` and ``jac`` must be functions numba can
compile (plain numpy on arrays and floats, constants captured from an
enclosing function are fine).  A plain Python function is compiled here,
once per function object; an ``@numba.njit`` one is used as it is.  The
loop itself is compiled once (:mod:`robonum.fast.compile`); a new ``f``
only compiles itself (under a second, reported in ``info["compile_time"]``).
"""

from __future__ import annotations

import time

import numpy as np
from numba.core.errors import NumbaError

from .. import _validate as check
from ..ivp_inputs import raised_rtol
from ..loop import bound_of, first_negative, negative_message
from ..policy import DOMAIN_SLACK, MAX_ADAPTIVE_STEPS
from ..problem import ODEProblem, _as_output
from ..solution import FAILURE, SUCCESS, Solution
from ..steppers.radau import stages_for
from . import driver as D
from .compile import compiled, kernel, no_jacobian
from .radau_method import CONSTANTS

METHODS = {"radau5": 3, "Radau": 3, "radau": None}  # stages (None: chosen from rtol, as rn's)
MAX_SIZE = 200  # unblocked O(n^3) LU in the loop: beyond this use rn.solve_ivp


def _first_call(fn, name, t, y, shape):
    """Compile ``fn`` on one call and check what it returns (shape, real, finite)."""
    try:
        out = fn(t, y.copy())
    except NumbaError as exc:
        lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
        first = next((ln for ln in lines if not ln.startswith("Failed in")), lines[0])
        raise TypeError(
            f"{name} must be a function numba can compile (numpy on arrays and "
            f"floats) for robonum.fast.solve_ivp; numba says: {first}. "
            "rn.solve_ivp takes any function"
        ) from None
    _as_output(name, out, shape, t, y)


def _run(loop, f, jf, *args):
    """Call the kernel; ``f``/``jac`` returning anything else than C-ordered float64 arrays
    (a tuple, integers, float32) cannot become the loop's function pointers."""
    try:
        return loop(f, jf, *args)
    except TypeError as exc:
        if not any(k in str(exc) for k in ("No matching definition", "mismatch of return type")):
            raise
        raise TypeError(
            "f must return a float64 array of shape (n,) and jac a C-ordered float64 "
            "array of shape (n, n), built with np.array/np.empty/np.zeros, for "
            "robonum.fast.solve_ivp; rn.solve_ivp takes any function"
        ) from None


def _first_loss(T, Y, which, slack):
    """Cut the run at its first point below ``-slack`` in a nonnegative component (as ``loop.run``)."""
    for row in range(1, T.size):
        i = first_negative(Y[row], which, slack)
        if i is not None:
            msg = negative_message(T[row], Y[row], i, slack)
            return T[: row + 1], Y[: row + 1], FAILURE, "negative", msg
    return None


def _outcome(code, t, h, y_last, bound, t_end, max_steps):
    """``(status, reason, message)`` for the loop's outcome code, worded as ``rn.solve_ivp``'s."""
    if code == D.SUCCESS:
        return SUCCESS, "success", f"reached t = {t_end:g}"
    if code == D.MAX_STEPS:
        return FAILURE, "max_steps", f"max_steps = {max_steps} reached at t = {t:.6g}"
    if code == D.UNDERFLOW:
        return (
            FAILURE,
            "step_underflow",
            (f"the step size fell to {h:.3g} at t = {t:.6g}, below the rounding level of t"),
        )
    if code == D.DIVERGED:
        size = float(np.max(np.abs(y_last)))
        what = (
            f"max|y| = {size:.3g} exceeds the bound {bound:.3g}"
            if np.isfinite(y_last).all()
            else "the state is no longer finite"
        )
        return FAILURE, "diverged", f"diverged at t = {t:.6g}: {what}"
    if code == D.STATE_NOT_FINITE:
        return FAILURE, "diverged", f"the state is no longer finite in the step from t = {t:g}"
    return (
        FAILURE,
        "nan_in_f",
        f"f returned NaN or inf in the step from t = {t:g} from a finite state",
    )


def solve_ivp(
    fun,
    t_span,
    y0,
    method: str = "radau5",
    *,
    rtol: float = 1e-3,
    atol: float = 1e-6,
    jac=None,
    nonnegative=None,
    first_step=None,
    max_step=np.inf,
    max_steps: int = 100_000,
) -> Solution:
    """Compiled adaptive Radau IIA: the steps of ``rn.solve_ivp(fun, ..., method=method)``.

    ``method`` is ``"radau5"`` (alias ``"Radau"``: 3 stages) or ``"radau"``
    (5 stages at ``rtol <= 2e-5``, else 3, as :class:`robonum.steppers.RadauIIA`).

    ``rtol`` in [0, 1] (below 100 eps raised to it with a warning, as SciPy),
    ``atol`` in (0, 1e10]; ``first_step``, ``max_step`` > 0;
    ``max_steps`` (accepted + rejected) up to 500,000; at most 200 equations.
    Without ``jac`` the Jacobian is taken by forward differences (counted in ``nfev_jac``).
    ``nonnegative`` as for ``rn.solve_ivp`` (checked on the accepted points after the
    compiled loop; the run is cut at the first point below ``-DOMAIN_SLACK atol``).
    Returns a :class:`robonum.Solution` with the accepted points, the counters
    and ``info["compile_time"]``, ``info["run_time"]`` (seconds).
    Example: ``fast.solve_ivp(p.f, p.t_span, p.y0, rtol=1e-6, atol=1e-10, jac=p.jac)``.
    """
    check.one_of("method", method, METHODS)
    if np.iscomplexobj(y0):
        raise TypeError(
            "fast.solve_ivp compiles real arithmetic: for a complex y0 use "
            "rn.solve_ivp(..., method='dopri5' or 'bdf')"
        )
    problem = ODEProblem(fun, y0, t_span, jac=jac, name="fast.solve_ivp", nonnegative=nonnegative)
    n = check.integer("len(y0)", problem.n, 1, MAX_SIZE)
    rtol = check.positive("rtol", raised_rtol(rtol), lo=check.RTOL_FLOOR, hi=1.0)
    atol = check.positive("atol", atol, hi=1e10)
    max_steps = check.integer("max_steps", max_steps, 1, MAX_ADAPTIVE_STEPS)
    stages = METHODS[method] or stages_for(rtol)
    t0, t1 = problem.t_span
    span = t1 - t0
    max_step = (
        span
        if max_step is None or max_step == np.inf
        else min(check.positive("max_step", max_step), span)
    )
    h0 = -1.0 if first_step is None else min(check.positive("first_step", first_step), max_step)
    tic = time.perf_counter()
    loop = kernel()
    f = compiled(problem.f)
    _first_call(f, "f", t0, problem.y0, (n,))
    jf = no_jacobian if problem.jac is None else compiled(problem.jac, "jac")
    if problem.jac is not None:
        _first_call(jf, "jac", t0, problem.y0, (n, n))
    compile_time = time.perf_counter() - tic
    bound = bound_of(problem, 1e300)  # as rn.solve_ivp: only overflow stops a run
    tic = time.perf_counter()
    T, Y, cnt, code, t, h = _run(
        loop,
        f,
        jf,
        problem.jac is not None,
        t0,
        t1,
        problem.y0.copy(),
        rtol,
        atol,
        h0,
        max_step,
        max_steps,
        bound,
        CONSTANTS[stages],
    )
    run_time = time.perf_counter() - tic
    status, reason, message = _outcome(code, t, h, Y[-1], bound, t1, max_steps)
    if problem.nonnegative is not None:
        loss = _first_loss(T, Y, problem.nonnegative, DOMAIN_SLACK * atol)
        if loss is not None:
            T, Y, status, reason, message = loss
    nfev, njev, nlu, n_newton, nsteps, nreject, nfev_jac = (int(x) for x in cnt)
    name = (
        "Radau IIA 5 (adaptive, compiled)"
        if stages == 3
        else f"Radau IIA {stages}-stage order {2 * stages - 1} (adaptive, compiled)"
    )
    return Solution(
        t=T.copy(),
        y=Y.T.copy(),
        method=name,
        h=None,
        status=status,
        reason=reason,
        message=message,
        nfev=nfev,
        nfev_jac=nfev_jac,
        njev=njev,
        nlu=nlu,
        n_newton=n_newton,
        nsteps=nsteps,
        nreject=nreject,
        info={"compile_time": compile_time, "run_time": run_time},
    )
