"""Three stiff problems of the IVP test set (Mazzia & Magherini 2008) with their reference values.

``hires()`` (8 chemical species, ``t in [0, 321.8122]``), ``rober()``
(Robertson's reaction to ``t = 1e11``) and ``vdpol()`` (Van der Pol in the
test set's scaling ``eps y2' = (1 - y1^2) y2 - y1`` with ``eps = 1e-6``,
``t in [0, 2]``).  Each problem's ``params["reference"]`` is ``y(t_end)`` as
published with the test set (computed there with RADAU5/MEBDFI at tight
tolerances in quadruple precision; ``tests/lib/test_testset.py`` checks them
against SciPy at ``rtol = 1e-12``).  :func:`digits` is the test set's
accuracy measure, ``-log10`` of the largest relative error at ``t_end``.

Reference: F. Mazzia and C. Magherini, *Test Set for Initial Value Problem
Solvers*, release 2.4 (2008), problems HIRES, ROBER and VDPOL.
"""
from __future__ import annotations

import time

import numpy as np
from scipy.integrate import solve_ivp as scipy_solve

from .. import _validate as check
from ..ivp import solve_ivp as ivp_solve
from ..problem import ODEProblem

HIRES_END = 321.8122
HIRES_REF = np.array([0.7371312573325668e-3, 0.1442485726316185e-3, 0.5888729740967575e-4,
                      0.1175651343283149e-2, 0.2386356198831331e-2, 0.6238968252742796e-2,
                      0.2849998395185769e-2, 0.2850001604814231e-2])
ROBER_END = 1e11
ROBER_REF = np.array([0.2083340149701255e-7, 0.8333360770334713e-13, 0.9999999791665050])
VDPOL_END = 2.0
VDPOL_REF = np.array([0.1706167732170483e1, -0.8928097010247975])
NAMES = ("hires", "rober", "vdpol")


def hires() -> ODEProblem:
    """HIRES: 8 reactions of light-induced plant growth (Schäfer 1975), test set problem 4."""
    def f(t, y):
        y1, y2, y3, y4, y5, y6, y7, y8 = y
        r = 280.0 * y6 * y8
        return np.array([-1.71 * y1 + 0.43 * y2 + 8.32 * y3 + 0.0007,
                         1.71 * y1 - 8.75 * y2,
                         -10.03 * y3 + 0.43 * y4 + 0.035 * y5,
                         8.32 * y2 + 1.71 * y3 - 1.12 * y4,
                         -1.745 * y5 + 0.43 * y6 + 0.43 * y7,
                         -r + 0.69 * y4 + 1.71 * y5 - 0.43 * y6 + 0.69 * y7,
                         r - 1.81 * y7,
                         -r + 1.81 * y7])

    def jac(t, y):
        J = np.zeros((8, 8))
        J[0, :3] = -1.71, 0.43, 8.32
        J[1, :2] = 1.71, -8.75
        J[2, 2:5] = -10.03, 0.43, 0.035
        J[3, 1:4] = 8.32, 1.71, -1.12
        J[4, 4:7] = -1.745, 0.43, 0.43
        J[5, 3:8] = 0.69, 1.71, -0.43 - 280.0 * y[7], 0.69, -280.0 * y[5]
        J[6, 5:8] = 280.0 * y[7], -1.81, 280.0 * y[5]
        J[7, 5:8] = -280.0 * y[7], 1.81, -280.0 * y[5]
        return J

    y0 = [1.0, 0, 0, 0, 0, 0, 0, 0.0057]
    return ODEProblem(f, y0, (0.0, HIRES_END), jac=jac, name="HIRES",
                      params={"reference": HIRES_REF.copy()})


def rober() -> ODEProblem:
    """ROBER: Robertson's autocatalytic reaction on ``[0, 1e11]``, test set problem 1."""
    def f(t, y):
        a, b, c = 0.04 * y[0], 1e4 * y[1] * y[2], 3e7 * y[1] ** 2
        return np.array([-a + b, a - b - c, c])

    def jac(t, y):
        return np.array([[-0.04, 1e4 * y[2], 1e4 * y[1]],
                         [0.04, -1e4 * y[2] - 6e7 * y[1], -1e4 * y[1]],
                         [0.0, 6e7 * y[1], 0.0]])

    return ODEProblem(f, [1.0, 0.0, 0.0], (0.0, ROBER_END), jac=jac, name="ROBER",
                      params={"reference": ROBER_REF.copy()})


def vdpol() -> ODEProblem:
    """VDPOL: ``y1' = y2``, ``y2' = ((1 - y1^2) y2 - y1) / eps``, ``eps = 1e-6``, test set problem 9."""
    eps = 1e-6

    def f(t, y):
        return np.array([y[1], ((1.0 - y[0] ** 2) * y[1] - y[0]) / eps])

    def jac(t, y):
        return np.array([[0.0, 1.0],
                         [(-2.0 * y[0] * y[1] - 1.0) / eps, (1.0 - y[0] ** 2) / eps]])

    return ODEProblem(f, [2.0, 0.0], (0.0, VDPOL_END), jac=jac, name="VDPOL (ε = 1e-6)",
                      params={"reference": VDPOL_REF.copy(), "eps": eps})


def testset_problem(name: str) -> ODEProblem:
    """``"hires"``, ``"rober"`` or ``"vdpol"``."""
    check.one_of("name", name, NAMES)
    return {"hires": hires, "rober": rober, "vdpol": vdpol}[name]()


def digits(y_end, reference, floor: float = 0.0) -> float:
    """``-log10(max_i |y_i - ref_i| / max(|ref_i|, floor))``: correct digits at ``t_end``.

    Components with ``ref_i = 0`` (and ``floor = 0``) are measured absolutely.
    ``floor >= 0`` keeps a component that happens to pass near zero from
    dominating (the robot problems use ``1e-6 max|ref|``).  Capped at 16.
    """
    y = check.real_array("y_end", y_end, ndim=1, finite=False)
    ref = check.real_array("reference", reference, ndim=1)
    if y.shape != ref.shape:
        raise ValueError(f"y_end must have shape {ref.shape} like reference, got {y.shape}")
    if not np.all(np.isfinite(y)):
        return 0.0
    floor = check.positive("floor", floor, allow_zero=True)
    den = np.maximum(np.abs(ref), floor)
    den = np.where(den == 0.0, 1.0, den)
    err = float(np.max(np.abs(y - ref) / den))
    return 16.0 if err == 0.0 else float(min(16.0, -np.log10(err)))


def run(problem: ODEProblem, solver, method, rtol: float, atol: float,
        reference=None, floor: float = 0.0, repeats: int = 1) -> dict:
    """One work-precision point: ``nfev``, best CPU seconds of ``repeats``, digits at ``t_end``.

    ``solver`` is ``"robonum"`` (``rn.solve_ivp``), ``"scipy"``
    (``scipy.integrate.solve_ivp``) or any function with their signature
    (``robonum.fast.solve_ivp``); ``method`` is that solver's method (for
    ``"robonum"`` also a stepper, ``RadauIIA(5)``); the problem's analytic
    Jacobian is given to all.
    """
    if not callable(solver):
        check.one_of("solver", solver, ("robonum", "scipy"))
    repeats = check.integer("repeats", repeats, 1, 20)
    ref = problem.params["reference"] if reference is None else reference
    call = solver if callable(solver) else ivp_solve if solver == "robonum" else scipy_solve
    best, sol = np.inf, None
    for _ in range(repeats):
        tic = time.process_time()
        sol = call(problem.f, problem.t_span, problem.y0.copy(), method=method, rtol=rtol,
                   atol=atol, jac=problem.jac)
        best = min(best, time.process_time() - tic)
    ok = bool(sol.success)
    return dict(nfev=int(sol.nfev), njev=int(sol.njev), nlu=int(sol.nlu), cpu=best, ok=ok,
                digits=digits(sol.y[:, -1], ref, floor) if ok else 0.0)


def work_front(digit_list, work_list) -> tuple[np.ndarray, np.ndarray]:
    """The runs no other run beats (the lower envelope of a work-precision cloud).

    A run stays when every run with at least as many digits needed more work.
    Near neighbouring tolerances the digits of a stiff problem scatter by half
    a digit (VDPOL: rtol 1e-5 can give fewer digits than 10^-4.5), so the
    front answers the question a user has -- the least work, among the runs
    made, that reached ``d`` digits -- without one unlucky run deciding it.
    Returns ``(digits, work)`` sorted by digits.
    """
    d = check.real_array("digit_list", digit_list, ndim=1)
    w = check.real_array("work_list", work_list, ndim=1)
    if d.shape != w.shape or d.size == 0:
        raise ValueError(f"digit_list and work_list must be equally long and non-empty, "
                         f"got {d.size} and {w.size}")
    if np.any(w <= 0):
        raise ValueError("work_list must be positive (work is compared on a log scale)")
    order = np.lexsort((w, -d))              # most digits first; equal digits: cheapest first
    keep, cheapest = [], np.inf
    for i in order:
        if w[i] < cheapest:
            keep.append(i)
            cheapest = w[i]
    keep = keep[::-1]
    return d[keep], w[keep]


def work_at(digit_list, work_list, target: float, *, front: bool = False) -> float | None:
    """Work needed for ``target`` digits, interpolated linearly in ``(digits, log work)``.

    ``None`` when ``target`` lies outside the digits the runs reached (no
    extrapolation).  ``front=True`` interpolates along :func:`work_front`;
    below its first point the answer is that point's work (the cheapest run
    already reaches more digits than asked; no run was cheaper).
    """
    if front:
        digit_list, work_list = work_front(digit_list, work_list)
        if target < digit_list[0]:
            return float(work_list[0])
    d = np.asarray(digit_list, dtype=float)
    w = np.log(np.asarray(work_list, dtype=float))
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
    check.one_of("key", key, ("nfev", "cpu"))
    found = []
    for runs in codes:
        ok = [c for c in runs if c["ok"]]
        if len(ok) >= 2:
            found.append(work_at([c["digits"] for c in ok], [c[key] for c in ok], target, front=True))
    found = [w for w in found if w is not None]
    return min(found) if found else None


def cost_ratio(runs, others, key: str = "nfev") -> list:
    """For each run of ``runs``: the work the front of ``others`` needs for its digits / its work.

    Both are lists of :func:`run` results; below 1 the other code is cheaper at
    that accuracy.  ``None`` where the run failed, where fewer than two of
    ``others`` succeeded, or above the digits they reach (no extrapolation).
    """
    check.one_of("key", key, ("nfev", "cpu"))
    out = []
    for c in runs:
        w = better_work_at([others], c["digits"], key) if c["ok"] else None
        out.append(None if w is None else w / c[key])
    return out
