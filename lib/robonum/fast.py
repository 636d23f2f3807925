"""The compiled path for long runs (numba): the same loops, a hundred times faster.

A slider over a run of 10^6 steps must answer in well under a second, which
the generic numpy steppers (a few µs of Python overhead per stage) cannot.
The loops below are the textbook ones of :mod:`robonum.steppers.explicit`
and :mod:`robonum.symplectic`, written element by element so numba can
compile them; the method is still data -- the ``(A, b, c)`` arrays of a
tableau from :mod:`robonum.methods` or the composition fractions of
:data:`robonum.symplectic.METHODS` -- never retyped coefficients.

The right-hand side ``f(t, y)`` / the force ``grad_V(q)`` must be numba
functions (``@numba.njit``).  ``pendulum_rhs`` and ``pendulum_grad_V`` are
provided.  Each call reports the JIT compile time (first call for a new
``f``) separately from the run time.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numba
import numpy as np

from . import _validate as check
from . import methods
from .solution import DIVERGED, SUCCESS, Outcome
from .symplectic import METHODS as SYMPLECTIC_METHODS
from .symplectic import HamiltonianSolution, equal_steps

MAX_FAST_STEPS = 200_000_000
MAX_SAVED_VALUES = 50_000_000     # 400 MB of float64 output


# --- jitted model functions ---------------------------------------------------
@numba.njit(cache=False)
def pendulum_rhs(t, y):
    """Pendulum ``q'' = -sin q`` (``g/l = 1``) as ``y = (q, p)``: ``f = (p, -sin q)``."""
    out = np.empty(2)
    out[0] = y[1]
    out[1] = -np.sin(y[0])
    return out


@numba.njit(cache=False)
def pendulum_grad_V(q):
    """``∇V = sin q`` for ``V(q) = -Σ cos q_i`` (``len(q)`` uncoupled pendulums, ``g/l = 1``)."""
    out = np.empty(q.size)
    for i in range(q.size):
        out[i] = np.sin(q[i])
    return out


# --- compiled loops -------------------------------------------------------------
# Both loops run to the end and store every save_every-th state; a run that
# blows up is detected afterwards on the saved rows (see _diverged_at), which
# keeps the loops as short as the textbook ones (and cheaper to compile).
@numba.njit(cache=False)
def _n_rows(n, save_every):
    return n // save_every + 1 + (1 if n % save_every else 0)


@numba.njit(cache=False)
def _rk_loop(f, A, b, c, t0, y0, h, n, save_every):
    """Explicit RK with any tableau: ``k_i = f(t + c_i h, y + h Σ_{j<i} A_ij k_j)``,
    ``y ← y + h Σ_i b_i k_i``.  Returns the saved times and states."""
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
            for l in range(d):
                acc = 0.0
                for j in range(i):
                    acc += A[i, j] * K[j, l]
                Yi[l] = y[l] + h * acc
            K[i] = f(t + c[i] * h, Yi)
        for l in range(d):
            acc = 0.0
            for i in range(s):
                acc += b[i] * K[i, l]
            y[l] += h * acc
        if k % save_every == 0 or k == n:
            T[row], Y[row], row = t0 + k * h, y, row + 1
    return T, Y


@numba.njit(cache=False)
def _symplectic_loop(grad, q0, p0, h, n, gammas, save_every):
    """Composition of Verlet (kick-drift-kick) sub-steps of size ``γ_m h``; an
    empty ``gammas`` means symplectic Euler (kick ``h``, drift ``h``).
    The force at the end of a sub-step is reused at the start of the next."""
    d = q0.size
    T = np.empty(_n_rows(n, save_every))
    Q, P = np.empty((T.size, d)), np.empty((T.size, d))
    q, p = q0.copy(), p0.copy()
    g = grad(q)
    T[0], Q[0], P[0], row = 0.0, q, p, 1
    # Element loops instead of array expressions: each `p -= ...*g` on arrays
    # would allocate a temporary, which costs more than the arithmetic.
    for k in range(1, n + 1):
        if gammas.size == 0:
            for l in range(d):
                p[l] -= h * g[l]
                q[l] += h * p[l]
            g = grad(q)
        for gamma in gammas:
            tau = gamma * h
            for l in range(d):
                p[l] -= 0.5 * tau * g[l]
                q[l] += tau * p[l]
            g = grad(q)
            for l in range(d):
                p[l] -= 0.5 * tau * g[l]
        if k % save_every == 0 or k == n:
            T[row], Q[row], P[row], row = k * h, q, p, row + 1
    return T, Q, P


def _diverged_at(states, bound):
    """Index of the first saved row with a non-finite entry or one beyond ``bound``, else None.

    NaN and inf propagate, so a blow-up between saved rows still shows in the
    rows after it (at the latest in the last one, which is always saved).
    """
    with np.errstate(invalid="ignore"):
        bad = ~np.all(np.abs(states[1:]) <= bound, axis=1)   # row 0 is the initial state
    return 1 + int(np.argmax(bad)) if bad.any() else None


# --- public wrappers ------------------------------------------------------------
@dataclass
class FastSolution(Outcome):
    """Result of :func:`fast_integrate`; ``y`` has shape ``(n, len(t))`` like ``Solution``."""

    t: np.ndarray
    y: np.ndarray
    method: str
    h: float
    nsteps: int
    nfev: int
    status: int
    message: str
    compile_time: float
    run_time: float


def _require_jitted(name, fn):
    if not numba.extending.is_jitted(fn):
        raise TypeError(f"{name} must be a numba-compiled function (decorate it with "
                        f"@numba.njit), got {type(fn).__name__}")


def _timed_call(loop, args, warm_args):
    """Compile on a 1-step call (timed as compile), then time the real call."""
    tic = time.perf_counter()
    loop(*warm_args)
    compiled = time.perf_counter() - tic
    tic = time.perf_counter()
    out = loop(*args)
    return out, compiled, time.perf_counter() - tic


def _common(t_span, h, save_every, blowup, x0):
    t0, t1, n, h = equal_steps(t_span, h, MAX_FAST_STEPS)
    save_every = check.integer("save_every", save_every, 1)
    values = (n // save_every + 2) * x0.size
    if values > MAX_SAVED_VALUES:   # refuse to allocate gigabytes for the output
        need = -(-n * x0.size // (MAX_SAVED_VALUES - 2 * x0.size))
        raise ValueError(f"save_every={save_every} would keep {values:,} numbers for {n:,} steps; "
                         f"use save_every >= {need}")
    bound = check.positive("blowup", blowup) * max(1.0, float(np.max(np.abs(x0))))
    return t0, t1, n, h, save_every, bound


def fast_integrate(f, y0, t_span, h: float, method="rk4", *, save_every: int = 1,
                   blowup: float = 1e8) -> FastSolution:
    """Compiled fixed-step explicit Runge-Kutta; same steps and arithmetic as
    ``robonum.integrate(problem, method, h)``.

    ``f(t, y) -> array (n,)`` must be ``@numba.njit``-compiled; ``method`` is a
    name from :mod:`robonum.methods` or an explicit ``ButcherTableau``
    (formula in ``_rk_loop``; Hairer, Nørsett & Wanner I, sec. II.1).
    Divergence (``max|y| > blowup·max(1, max|y0|)`` or inf/NaN) is found on
    the saved rows afterwards: ``status = -1`` and the rows from there on are dropped.
    Example: ``fast_integrate(pendulum_rhs, [1.0, 0.0], (0, 1e5), 0.1, "rk4",
    save_every=100)``.
    """
    _require_jitted("f", f)
    tab = methods.get(method)
    if not tab.is_explicit:
        raise ValueError(f"method {tab.name!r} is {tab.kind}; the fast path has explicit methods only")
    y0 = check.finite_vector("y0", y0)
    t0, t1, n, h, save_every, bound = _common(t_span, h, save_every, blowup, y0)
    f0 = np.asarray(f(t0, y0.copy()))
    if f0.shape != y0.shape:
        raise ValueError(f"f(t0, y0) must have shape {y0.shape} like y0, got {f0.shape}")
    # Writable float64 copies: one numba signature for every tableau.
    A, b, c = (np.array(x, dtype=np.float64) for x in (tab.A, tab.b, tab.c))
    (T, Y), comp, run = _timed_call(_rk_loop, (f, A, b, c, t0, y0, h, n, save_every),
                                    (f, A, b, c, t0, y0, h, 1, 1))
    status, msg, k = SUCCESS, f"reached t = {t1:g}", n
    bad = _diverged_at(Y, bound)
    if bad is not None:
        T, Y, k = T[:bad], Y[:bad], round((T[bad] - t0) / h)
        status, msg = DIVERGED, (f"diverged: max|y| > {bound:.3g} or non-finite by t = "
                                 f"{t0 + k * h:g} (saved rows after t = {T[-1]:g} dropped)")
    return FastSolution(t=T, y=Y.T.copy(), method=tab.name, h=h, nsteps=n, nfev=n * tab.s,
                        status=status, message=msg, compile_time=comp, run_time=run)


def fast_symplectic(grad_V, q0, p0, t_span, h: float, method: str = "verlet", *,
                    save_every: int = 1, blowup: float = 1e8) -> HamiltonianSolution:
    """Compiled :func:`robonum.symplectic.integrate_symplectic` (same steps, same result).

    ``grad_V(q) -> array (d,)`` must be ``@numba.njit``-compiled.  Kick-drift-kick
    Verlet sub-steps composed with fractions ``γ`` (Hairer, Lubich & Wanner,
    sec. II.4 and VI.3).  Divergence is reported as in :func:`fast_integrate`.  Example:
    ``fast_symplectic(pendulum_grad_V, [1.0], [0.0], (0, 1e5), 0.1, "verlet")``.
    """
    _require_jitted("grad_V", grad_V)
    check.one_of("method", method, SYMPLECTIC_METHODS)
    q0, p0 = check.finite_vector("q0", q0), check.finite_vector("p0", p0)
    if q0.shape != p0.shape:
        raise ValueError(f"q0 and p0 must have the same shape, got {q0.shape} and {p0.shape}")
    t0, t1, n, h, save_every, bound = _common(t_span, h, save_every, blowup, np.r_[q0, p0])
    g0 = np.asarray(grad_V(q0.copy()))
    if g0.shape != q0.shape:
        raise ValueError(f"grad_V(q0) must have shape {q0.shape} like q0, got {g0.shape}")
    gammas = np.array(SYMPLECTIC_METHODS[method][1] or (), dtype=np.float64)
    (T, Q, P), comp, run = _timed_call(_symplectic_loop, (grad_V, q0, p0, h, n, gammas, save_every),
                                       (grad_V, q0, p0, h, 1, gammas, 1))
    status, msg = SUCCESS, f"reached t = {t1:g}"
    bad = _diverged_at(np.hstack([Q, P]), bound)
    if bad is not None:
        k = round(T[bad] / h)
        T, Q, P = T[:bad], Q[:bad], P[:bad]
        status, msg = DIVERGED, (f"diverged: |q| or |p| > {bound:.3g} or non-finite by t = "
                                 f"{t0 + k * h:g} (saved rows after t = {t0 + T[-1]:g} dropped)")
    return HamiltonianSolution(t=t0 + T, q=Q.T.copy(), p=P.T.copy(), method=method, h=h,
                               nsteps=n, ngrad=1 + n * max(1, gammas.size), status=status,
                               message=msg, compile_time=comp, run_time=run)
