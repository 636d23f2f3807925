"""Compiled equal steps (numba): ``fast.integrate`` = ``rn.integrate``, a hundred times faster.

A slider over a run of 10^6 steps must answer in well under a second, which
the generic numpy steppers (a few µs of Python overhead per stage) cannot.
``fast.integrate(problem, method, h, ...)`` takes the same arguments as
``rn.integrate`` with equal steps and returns the same :class:`Solution`
(same steps, same arithmetic); the loops below are the textbook ones,
element by element so numba can compile them, and the method is still data
-- the ``(A, b, c)`` arrays of a tableau or the sub-step fractions of a
splitting method, never retyped coefficients.

The problem's ``f`` (or, for a :class:`HamiltonianProblem`, ``grad_V``)
must be a numba function (``@numba.njit``); :func:`pendulum` builds the
printed chapter's pendulum that way.  Each call reports the JIT compile time (first
call for a new function) and the run time in ``sol.info``.
"""

from __future__ import annotations

import time

import numba
import numpy as np

from .. import _validate as check
from .. import methods
from ..policy import equal_steps
from ..problem import HamiltonianProblem, ODEProblem
from ..problems import pendulum as _pendulum
from ..solution import FAILURE, SUCCESS, Solution

MAX_FAST_STEPS = 100_000_000  # ~30 s for RK4 on the pendulum; 10^6 take ~0.3 s
MAX_SAVED_VALUES = 20_000_000  # 160 MB of float64 output


# --- jitted model functions ---------------------------------------------------
@numba.njit(cache=False)
def pendulum_grad_V(q):
    """``∇V = sin q`` for ``V(q) = -Σ cos q_i`` (``len(q)`` uncoupled pendulums, ``g/l = 1``)."""
    out = np.empty(q.size)
    for i in range(q.size):
        out[i] = np.sin(q[i])
    return out


_RHS_CACHE: dict = {}


def hamiltonian_rhs(grad_V, d: int):
    """A jitted ``f(t, y) = (p, -∇V(q))`` from a jitted ``grad_V`` (cached per function).

    ``d`` is the number of positions, in [1, 100000] (the state is ``(q, p)``, 2d entries).
    """
    if not numba.extending.is_jitted(grad_V):
        raise TypeError(
            f"grad_V must be an @numba.njit function for robonum.fast, got {type(grad_V).__name__}"
        )
    key = (grad_V, check.integer("d", d, 1, 100_000))
    if key not in _RHS_CACHE:

        @numba.njit(cache=False)
        def f(t, y):
            out = np.empty(2 * d)
            g = grad_V(y[:d])
            for i in range(d):
                out[i] = y[d + i]
                out[d + i] = -g[i]
            return out

        _RHS_CACHE[key] = f
    return _RHS_CACHE[key]


def pendulum(q0: float = 1.0, p0: float = 0.0, t_span=(0.0, 1000.0)) -> HamiltonianProblem:
    """The pendulum ``q'' = -sin q`` (g/l = 1) with a jitted ``∇V``, for :func:`integrate`.

    Same problem as ``rn.problems.pendulum`` (exact solution below the separatrix).
    """
    base = _pendulum(q0=q0, p0=p0, t_span=t_span)  # validates, and has the exact solution
    return HamiltonianProblem(
        pendulum_grad_V,
        base.y0[:1],
        base.y0[1:],
        base.t_span,
        V=lambda q: -np.cos(q[0]),
        exact=base.exact,
        name="pendulum (compiled)",
    )


# --- compiled loops -------------------------------------------------------------
@numba.njit(cache=False)
def _n_rows(n, save_every):
    return n // save_every + 1 + (1 if n % save_every else 0)


@numba.njit(cache=False)
def _escaped(y, bound):
    for v in y:
        if not abs(v) <= bound:  # also true for NaN
            return True
    return False


@numba.njit(cache=False)
def _rk_loop(f, A, b, c, t0, y0, h, n, save_every, bound):
    """Explicit RK with any tableau: ``k_i = f(t + c_i h, y + h Σ_{j<i} A_ij k_j)``,
    ``y ← y + h Σ_i b_i k_i``.  Stops after the first step that leaves the bound.
    Returns the saved times, states and the number of steps taken."""
    s, d = b.size, y0.size
    T = np.empty(_n_rows(n, save_every))
    Y = np.empty((T.size, d))
    K = np.empty((s, d))
    Yi = np.empty(d)
    y = y0.copy()
    T[0], Y[0], row = t0, y, 1
    for k in range(1, n + 1):
        t = t0 + (k - 1) * h
        for i in range(s):
            for m in range(d):
                acc = 0.0
                for j in range(i):
                    acc += A[i, j] * K[j, m]
                Yi[m] = y[m] + h * acc
            K[i] = f(t + c[i] * h, Yi)
        for m in range(d):
            acc = 0.0
            for i in range(s):
                acc += b[i] * K[i, m]
            y[m] += h * acc
        if _escaped(y, bound):
            T[row], Y[row] = t0 + k * h, y
            return T[: row + 1], Y[: row + 1], k
        if k % save_every == 0 or k == n:
            T[row], Y[row], row = t0 + k * h, y, row + 1
    return T[:row], Y[:row], n


@numba.njit(cache=False)
def _splitting_loop(grad, t0, q0, p0, h, n, gammas, save_every, bound):
    """Verlet (kick-drift-kick) sub-steps of size ``γ_m h``; empty ``gammas`` is symplectic
    Euler (kick ``h``, drift ``h``).  The force at the end of a step is reused."""
    d = q0.size
    T = np.empty(_n_rows(n, save_every))
    Y = np.empty((T.size, 2 * d))
    q, p = q0.copy(), p0.copy()
    g = grad(q)
    T[0], Y[0, :d], Y[0, d:], row = t0, q, p, 1
    for k in range(1, n + 1):
        if gammas.size == 0:
            for m in range(d):
                p[m] -= h * g[m]
                q[m] += h * p[m]
            g = grad(q)
        for gamma in gammas:
            tau = gamma * h
            for m in range(d):
                p[m] -= 0.5 * tau * g[m]
                q[m] += tau * p[m]
            g = grad(q)
            for m in range(d):
                p[m] -= 0.5 * tau * g[m]
        if _escaped(q, bound) or _escaped(p, bound):
            T[row], Y[row, :d], Y[row, d:] = t0 + k * h, q, p
            return T[: row + 1], Y[: row + 1], k
        if k % save_every == 0 or k == n:
            T[row], Y[row, :d], Y[row, d:], row = t0 + k * h, q, p, row + 1
    return T[:row], Y[:row], n


def _require_jitted(name, fn):
    if not numba.extending.is_jitted(fn):
        raise TypeError(
            f"{name} must be a numba-compiled function (decorate it with @numba.njit) "
            f"for robonum.fast; got {type(fn).__name__}. rn.integrate takes any function"
        )


def _timed(loop, args, warm_args):
    """Compile on a 1-step call (timed as compile), then time the real call."""
    tic = time.perf_counter()
    loop(*warm_args)
    compiled = time.perf_counter() - tic
    tic = time.perf_counter()
    out = loop(*args)
    return out, compiled, time.perf_counter() - tic


def integrate(
    problem: ODEProblem, method, h: float, *, save_every: int = 1, blowup: float = 1e8
) -> Solution:
    """Compiled equal steps: the same arguments, steps and result as ``rn.integrate(problem, method, h)``.

    ``method``: an explicit Runge-Kutta method (any ``ODEProblem`` whose ``f`` is
    jitted, or a ``HamiltonianProblem`` whose ``grad_V`` is) or a splitting method
    (``HamiltonianProblem``).  Up to 10^8 steps.
    Example: ``fast.integrate(fast.pendulum(t_span=(0, 1e5)), "verlet", 0.1, save_every=100)``.
    """
    if not isinstance(problem, ODEProblem):
        raise TypeError(f"problem must be an ODEProblem, got {type(problem).__name__}")
    m = methods.get(method)
    h = check.positive("h", h)
    n, h_used = equal_steps(problem.t_span, h, MAX_FAST_STEPS, "robonum.fast.integrate")
    save_every = check.integer("save_every", save_every, 1, MAX_FAST_STEPS)
    rows = n // save_every + 2
    check.count(
        "saved values",
        rows * problem.n,
        MAX_SAVED_VALUES,
        f"use save_every >= {n * problem.n // MAX_SAVED_VALUES + 1}",
    )
    bound = check.real("blowup", blowup, 1.0, 1e300) * max(1.0, float(np.max(np.abs(problem.y0))))
    t0, y0 = problem.t_span[0], problem.y0.copy()
    if m.family == "splitting":
        if not isinstance(problem, HamiltonianProblem):
            raise TypeError(
                f"method {m.name!r} integrates a HamiltonianProblem, got {type(problem).__name__}"
            )
        _require_jitted("grad_V", problem.grad_V)
        d = problem.d
        gammas = np.array(m.gammas or (), dtype=np.float64)
        (T, Y, k), comp, run = _timed(
            _splitting_loop,
            (problem.grad_V, t0, y0[:d], y0[d:], h_used, n, gammas, save_every, bound),
            (problem.grad_V, t0, y0[:d], y0[d:], h_used, 1, gammas, 1, bound),
        )
        nfev = 1 + k * m.force_evaluations
    elif m.family == "rk" and m.is_explicit:
        if isinstance(problem, HamiltonianProblem) and not numba.extending.is_jitted(problem.f):
            _require_jitted("grad_V", problem.grad_V)
            f = hamiltonian_rhs(problem.grad_V, problem.d)
        else:
            _require_jitted("f", problem.f)
            f = problem.f
        A, b, c = (np.array(x, dtype=np.float64) for x in (m.A, m.b, m.c))  # one numba signature
        (T, Y, k), comp, run = _timed(
            _rk_loop,
            (f, A, b, c, t0, y0, h_used, n, save_every, bound),
            (f, A, b, c, t0, y0, h_used, 1, 1, bound),
        )
        nfev = k * m.s
    else:
        raise ValueError(
            f"robonum.fast runs explicit Runge-Kutta and splitting methods; "
            f"{m.name} is {getattr(m, 'kind', m.family)}: use rn.integrate"
        )
    last = Y[-1]
    status, reason, msg = SUCCESS, "success", f"reached t = {problem.t_span[1]:g}"
    if k < n or not np.all(np.abs(last) <= bound):
        finite = bool(np.isfinite(last).all())
        what = (
            f"max|y| = {np.max(np.abs(last)):.3g} exceeds the bound {bound:.3g}"
            if finite
            else "the state is no longer finite"
        )
        status, reason, msg = FAILURE, "diverged", f"diverged at t = {T[-1]:.6g}: {what}"
    layout = "hamiltonian" if isinstance(problem, HamiltonianProblem) else "state"
    return Solution(
        t=T,
        y=Y.T.copy(),
        method=m.name,
        h=h_used,
        status=status,
        reason=reason,
        message=msg,
        nfev=nfev,
        nsteps=k,
        layout=layout,
        info={"compile_time": comp, "run_time": run},
    )
