"""The benchmark harness of the book: work-precision runs, their fronts and cost ratios.

:func:`run` makes one work-precision point of a problem of
:mod:`robonum.problems.testset` (f-calls, CPU, correct digits at ``t_end``);
:func:`work_front` keeps the runs no other run beats; :func:`work_at`,
:func:`better_work_at` and :func:`cost_ratio` read work at a given accuracy.
Used by chapter 11 and ``tests/benchmarks/bench_ivp.py``; part of the book
layer, not of the numerical core.
Reference: F. Mazzia and C. Magherini, *Test Set for Initial Value Problem
Solvers*, release 2.4 (2008); Hairer & Wanner, *Solving ODEs II*, sec. IV.10.
"""

from __future__ import annotations

import inspect
import time

import numpy as np
from scipy.integrate import solve_ivp as scipy_solve

from .. import _validate as check
from ..ivp import solve_ivp as ivp_solve
from ..problem import ODEProblem, check_problem
from ..problems.testset import digits


def run(
    problem: ODEProblem,
    solver,
    method,
    rtol: float,
    atol: float,
    reference=None,
    floor: float = 0.0,
    repeats: int = 1,
    jac: bool = True,
    time_f: bool = False,
) -> dict:
    """One work-precision point: f-calls, best CPU seconds of ``repeats``, digits at ``t_end``.

    ``solver`` is ``"robonum"`` (``rn.solve_ivp``), ``"scipy"``
    (``scipy.integrate.solve_ivp``) or any function with their signature
    (``robonum.fast.solve_ivp``); ``method`` is that solver's method (for
    ``"robonum"`` also a stepper, ``RadauIIA(5)``).  ``jac=True`` gives every
    code the problem's analytic Jacobian; ``jac=False`` gives none, and the
    problem's ``jac_sparsity`` (if any) to the codes that take it.
    ``calls`` counts every call of ``f`` with a wrapper, the finite-difference
    Jacobian's included, on both sides alike (SciPy's ``nfev`` and robonum's leave those
    out; for a compiled solver, which cannot call a Python wrapper, ``calls`` is its
    ``nfev + nfev_jac``).  ``time_f=True`` also gives ``f_cpu``, the CPU seconds the best
    run spent inside ``f`` and ``jac`` (the rest is the integrator's own; a Python solver only).
    """
    if not callable(solver):
        check.one_of("solver", solver, ("robonum", "scipy"))
    else:
        _check_solver_signature(solver)
    repeats = check.integer("repeats", repeats, 1, 20)
    jac = check.boolean("jac", jac)
    if check.boolean("time_f", time_f) and callable(solver):
        raise ValueError("time_f=True times a Python f and jac; a compiled solver calls its own")
    check_problem(problem)
    if reference is None and "reference" not in (problem.params or {}):
        raise ValueError(
            f"reference is needed: problem {problem.name!r} has no params['reference'] "
            "(the test-set problems carry one)"
        )
    ref = problem.params["reference"] if reference is None else reference
    call = solver if callable(solver) else ivp_solve if solver == "robonum" else scipy_solve
    options = dict(jac=problem.jac) if jac else {}
    if (
        not jac
        and problem.jac_sparsity is not None
        and method in ("radau", "radau5", "bdf", "Radau", "BDF")
    ):
        options["jac_sparsity"] = problem.jac_sparsity
    if problem.nonnegative is not None and (callable(solver) or solver == "robonum"):
        options["nonnegative"] = problem.nonnegative  # SciPy has no such check
    counter, inside = [0], [0.0]

    def f(t, y):
        counter[0] += 1
        return problem.f(t, y)

    def timed(g):  # CPU inside g, summed over the run
        def call(*args):
            tic = time.process_time()
            try:
                return g(*args)
            finally:
                inside[0] += time.process_time() - tic

        return call

    fun = problem.f if callable(solver) else timed(f) if time_f else f
    if time_f and "jac" in options:
        options["jac"] = timed(options["jac"])
    best, best_inside, sol = np.inf, 0.0, None
    for _ in range(repeats):
        counter[0], inside[0] = 0, 0.0
        tic = time.process_time()
        sol = call(
            fun, problem.t_span, problem.y0.copy(), method=method, rtol=rtol, atol=atol, **options
        )
        elapsed = time.process_time() - tic
        if elapsed < best:
            best, best_inside = elapsed, inside[0]
    if not all(hasattr(sol, a) for a in ("success", "y", "nfev", "njev", "nlu")):
        raise TypeError(
            f"solver must return a solve_ivp-like result (success, y, nfev, njev, nlu), "
            f"got {type(sol).__name__}"
        )
    ok = bool(sol.success) and bool(np.all(np.isfinite(sol.y[:, -1])))
    out = dict(
        nfev=int(sol.nfev),
        calls=int(sol.nfev + getattr(sol, "nfev_jac", 0)) if callable(solver) else counter[0],
        njev=int(sol.njev),
        nlu=int(sol.nlu),
        cpu=best,
        ok=ok,
        digits=digits(sol.y[:, -1], ref, floor) if ok else 0.0,
    )
    if time_f:
        out["f_cpu"] = best_inside
    return out


def work_front(digit_list, work_list) -> tuple[np.ndarray, np.ndarray]:
    """The runs no other run beats (the lower envelope of a work-precision cloud).

    A run stays when every run with at least as many digits needed more work.
    Near neighbouring tolerances the digits of a stiff problem scatter by half
    a digit (VDPOL: rtol 1e-5 can give fewer digits than 10^-4.5), so the
    front answers the question a user has -- the least work, among the runs
    made, that reached ``d`` digits -- without one unlucky run deciding it.
    Returns ``(digits, work)`` sorted by digits.
    """
    d, w = digit_list, work_list
    d, w = _runs(d, w)
    order = np.lexsort((w, -d))  # most digits first; equal digits: cheapest first
    keep, cheapest = [], np.inf
    for i in order:
        if w[i] < cheapest:
            keep.append(i)
            cheapest = w[i]
    keep = keep[::-1]
    return d[keep], w[keep]


def _runs(digit_list, work_list):
    """``(digits, work)`` as two equally long real arrays, work positive (a log scale)."""
    d = check.real_array("digit_list", digit_list, ndim=1)
    w = check.real_array("work_list", work_list, ndim=1)
    if d.shape != w.shape or d.size == 0:
        raise ValueError(
            f"digit_list and work_list must be equally long and non-empty, "
            f"got {d.size} and {w.size}"
        )
    if np.any(w <= 0):
        raise ValueError("work_list must be positive (work is compared on a log scale)")
    return d, w


def work_at(digit_list, work_list, target: float, *, front: bool = False) -> float | None:
    """Work needed for ``target`` digits, interpolated linearly in ``(digits, log work)``.

    ``None`` when ``target`` lies outside the digits the runs reached (no
    extrapolation).  ``front=True`` interpolates along :func:`work_front`;
    below its first point the answer is that point's work (the cheapest run
    already reaches more digits than asked; no run was cheaper).
    """
    target = check.real("target", target)
    front = check.boolean("front", front)
    digit_list, work_list = (
        work_front(digit_list, work_list) if front else _runs(digit_list, work_list)
    )
    if front and target < digit_list[0]:
        return float(work_list[0])
    d, w = digit_list, np.log(work_list)
    order = np.argsort(d)
    d, w = d[order], w[order]
    if not d[0] <= target <= d[-1]:
        return None
    return float(np.exp(np.interp(target, d, w)))


def better_work_at(codes, target: float, key: str = "nfev") -> float | None:
    """Work the better of several codes needs for ``target`` digits: the least of their fronts there.

    ``codes`` is a list of codes, each a list of :func:`run` results.  Each
    code's successful runs are interpolated along its own front
    (:func:`work_at`) and the cheapest code answers.  Not one front over all
    runs: interpolating between a run of one code and a run of another
    describes no run that either code can make, and adding a code's run could
    then raise the work of the better code (HIRES at rtol 1e-4 ... 1e-8: one
    BDF run of 5.78 digits raised our Radau's 938 f-evaluations at 6 digits to
    1187 on the merged front; ``tests/lib/test_testset.py``).  A code whose
    front starts above ``target`` answers with its cheapest run (it already
    reaches more digits; :func:`work_at`).  ``None`` where no code has two
    successful runs or every such code stays below ``target`` (no extrapolation).
    """
    check.one_of("key", key, ("nfev", "calls", "cpu"))
    found = []
    if not isinstance(codes, (list, tuple)):
        raise TypeError(f"codes must be a list of codes, got {type(codes).__name__}")
    for runs in codes:
        _check_runs("codes", runs, key)
        ok = [c for c in runs if c["ok"]]
        if len(ok) >= 2:
            found.append(
                work_at([c["digits"] for c in ok], [c[key] for c in ok], target, front=True)
            )
    found = [w for w in found if w is not None]
    return min(found) if found else None


def cost_ratio(runs, others, key: str = "nfev") -> list:
    """For each run of ``runs``: the work the front of ``others`` needs for its digits / its work.

    Both are lists of :func:`run` results; below 1 the other code is cheaper at
    that accuracy.  ``None`` where the run failed, where fewer than two of
    ``others`` succeeded, or above the digits they reach (no extrapolation).
    """
    check.one_of("key", key, ("nfev", "calls", "cpu"))
    _check_runs("runs", runs, key)
    _check_runs("others", others, key)
    out = []
    for c in runs:
        w = better_work_at([others], c["digits"], key) if c["ok"] else None
        out.append(None if w is None else w / c[key])
    return out


def _check_runs(name: str, runs, key: str) -> None:
    """``runs`` must be a list of :func:`run` results (dicts with ``ok``, ``digits``, ``key``)."""
    if not isinstance(runs, (list, tuple)) or not all(
        isinstance(c, dict) and {"ok", "digits", key} <= set(c) for c in runs
    ):
        raise ValueError(f"{name} must hold results of run() (dicts with ok, digits, {key})")


def _check_solver_signature(solver) -> None:
    """A solver must take ``solve_ivp``'s arguments; Python's own message would not say which."""
    try:
        sig = inspect.signature(solver)
    except (TypeError, ValueError):  # a builtin without a signature: its call will tell
        return
    try:
        sig.bind(None, None, None, method=None, rtol=None, atol=None)
    except TypeError as exc:
        raise TypeError(
            "solver must take (fun, t_span, y0, method=..., rtol=..., atol=..., **options) "
            f"like solve_ivp ({exc})"
        ) from None
