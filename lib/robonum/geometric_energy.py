"""Why a symplectic method keeps the energy, and two ways to lose that: modified energy, varying steps, damping.

* :func:`modified_energy` -- backward error analysis: a splitting method with
  a fixed step ``h`` is, to high order, the exact flow of a *modified*
  Hamiltonian ``H̃ = H + h H_1 + h² H_2 + ...``, which it therefore keeps
  almost exactly; ``H`` itself then only oscillates by ``O(h^p)``.
  For ``H = p·p/2 + V(q)`` (Hairer, Lubich & Wanner, *Geometric Numerical
  Integration*, 2nd ed., sec. IX.3-IX.4, from the BCH formula):

  - symplectic Euler (kick ``h``, then drift ``h``): ``H̃ = H - (h/2) p·∇V(q) + O(h²)``;
  - Störmer-Verlet (kick-drift-kick):
    ``H̃ = H + h² (pᵀ∇²V(q) p / 12 - |∇V(q)|² / 24) + O(h⁴)``.

* :func:`integrate_variable` -- steps of varying size, chosen in advance or
  from the state.  Each step of a splitting method is still a symplectic
  map, but the steps no longer share one modified Hamiltonian, and a size
  read from the state makes the whole step map non-symplectic
  (HLW sec. VIII.1): the energy error is no longer bounded.
* :func:`integrate_damped` -- ``p' = -∇V(q) - γ p``: there is no conserved
  energy left to keep (the flow shrinks areas by ``e^{-γ t}``).  Splitting
  methods are wrapped as ``D(h/2) ∘ Φ_h ∘ D(h/2)`` with the exact damping
  flow ``D(τ): p ← e^{-γτ} p`` (a Strang splitting, HLW sec. II.5; each
  step shrinks areas by exactly ``e^{-γh}``, like the damped flow);
  Runge-Kutta methods get the damped right-hand side.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from . import _validate as check
from . import methods
from ._run import Run, bound_of
from .errors import EvaluationError
from .integrate import integrate
from .problem import HamiltonianProblem, ODEProblem, Work
from .solution import Solution
from .steppers import Stepper, Symplectic, make_stepper

MAX_COLUMNS = 200_000        # modified_energy calls ∇V and ∇²V once per column
MAX_VARIABLE_STEPS = 200_000
GAMMA_MAX = 1e3              # 1/s: damping beyond this is an overdamped, stiff problem
MODIFIED = ("verlet", "symplectic_euler")


def _hamiltonian(problem):
    if not isinstance(problem, HamiltonianProblem):
        raise TypeError(f"problem must be a HamiltonianProblem, got {type(problem).__name__}")
    return problem


def modified_energy(problem: HamiltonianProblem, y, h: float, method: str = "verlet") -> np.ndarray:
    """The modified Hamiltonian ``H̃`` of ``method`` with step ``h`` at each column of ``y``.

    ``method``: ``"verlet"`` (``H̃ = H + h²(pᵀ∇²V p/12 - |∇V|²/24)``, needs the
    problem's ``hess_V``) or ``"symplectic_euler"`` (``H̃ = H - (h/2) p·∇V``).
    ``y`` of shape ``(2d,)`` or ``(2d, m)``, ``m <= 200 000``.  Along a run
    with that step, ``H̃`` varies by ``O(h⁴)`` (Verlet) or ``O(h²)``
    (symplectic Euler) where ``H`` varies by ``O(h²)`` or ``O(h)``.
    Example (harmonic oscillator, Verlet): ``H̃ = H(1 + h²ω²/6) - h²ω⁴q²/8``.
    Reference: HLW sec. IX.3-IX.4.
    """
    problem = _hamiltonian(problem)
    h = check.positive("h", h, hi=1e6)
    check.one_of("method", method, MODIFIED)
    if method == "verlet" and problem.hess_V is None:
        raise ValueError(f"{problem.name}: the Verlet modified energy needs hess_V (pass it to the problem)")
    y = check.real_array("y", y, max_size=2 * problem.d * MAX_COLUMNS)
    cols = y.reshape(y.shape[0], -1) if y.ndim == 2 else y.reshape(-1, 1)
    if cols.shape[0] != 2 * problem.d:
        raise ValueError(f"y must have shape ({2 * problem.d},) or ({2 * problem.d}, m), got {y.shape}")
    d = problem.d
    H = np.asarray(problem.energy(cols), dtype=float)
    extra = np.empty(cols.shape[1])
    for k in range(cols.shape[1]):
        q, p = cols[:d, k], cols[d:, k]
        g = np.reshape(np.asarray(problem.grad_V(q), dtype=float), d)
        if method == "verlet":
            hess = np.reshape(np.asarray(problem.hess_V(q), dtype=float), (d, d))
            extra[k] = h * h * (p @ hess @ p / 12.0 - g @ g / 24.0)
        else:
            extra[k] = -0.5 * h * (p @ g)
    out = H + extra
    return out if y.ndim == 2 else float(out[0])


def integrate_variable(problem: ODEProblem, method, step, *, blowup: float = 1e8,
                       max_steps: int = MAX_VARIABLE_STEPS) -> Solution:
    """March ``problem`` over ``t_span`` with steps of varying size ``h_n = step(n, t_n, y_n)``.

    ``step`` is a function of the step index ``n``, the time and the state,
    returning a finite ``h > 0``.  A rule that uses only ``n`` fixes the
    steps in advance; one that reads ``y`` chooses them from the state, as
    an adaptive code does.  The last step is shortened to end at ``t1``.
    Returns a :class:`Solution` (``h`` is None; ``info["h"]`` holds the steps
    used).  At most ``max_steps`` (<= 200 000) steps; a rule that gives a bad
    step stops the run with ``ValueError`` naming the step index.
    Example: ``integrate_variable(pendulum, "verlet", lambda n, t, y: 0.1 / (1 + abs(y[1])))``.
    """
    if not isinstance(problem, ODEProblem):
        raise TypeError(f"problem must be an ODEProblem, got {type(problem).__name__}")
    stepper = make_stepper(method)
    check.callable_("step", step)
    max_steps = check.integer("max_steps", max_steps, 1, MAX_VARIABLE_STEPS)
    work = Work(problem)
    stepper.check_problem(problem)
    run = Run(problem, stepper, work, bound_of(problem, blowup), 1)
    (t0, t1), y, t = problem.t_span, problem.y0.copy(), problem.t_span[0]
    hs, n = [], 0
    with np.errstate(over="ignore", invalid="ignore"):
        state = None
        while t < t1 and n < max_steps:
            try:
                h = step(n, t, y.copy())
            except Exception as exc:               # the user's rule: say which call failed
                raise ValueError(f"step(n, t, y) raised {type(exc).__name__} at step n = {n} "
                                 f"(t = {t:.6g}): {exc}"[:300]) from exc
            if isinstance(h, bool) or not isinstance(h, (int, float, np.floating, np.integer)) \
                    or not (math.isfinite(float(h)) and float(h) > 0):
                raise ValueError(f"step(n, t, y) must return a finite h > 0; at step n = {n} "
                                 f"(t = {t:.6g}) it returned {h!r}")
            h = min(float(h), t1 - t)
            if state is None:
                state = stepper.init(work, t0, y, h)
            try:
                y, _, state = stepper.step(work, t, y, h, state)
            except EvaluationError as exc:
                run.evaluation_failed(exc)
                break
            n += 1
            t = t1 if t1 - (t + h) <= 1e-12 * max(1.0, abs(t1)) else t + h
            hs.append(h)
            if run.diverged(t, y):
                break
            run.ts.append(t)
            run.ys.append(y)
    if run.status == 0 and t < t1:
        run.fail("max_steps", f"stopped at t = {t:.6g} after max_steps = {max_steps:,} steps")
    sol = run.solution(None, n)
    sol.info["h"] = np.array(hs)
    return sol


class _DampedSplitting(Stepper):
    """``D(h/2) ∘ Φ_h ∘ D(h/2)``: a splitting step between two exact damping flows ``p ← e^{-γh/2} p``."""

    def __init__(self, method, gamma: float):
        self.inner = Symplectic(method)
        self.gamma, self.order = gamma, self.inner.order
        self.name = f"{self.inner.name} + exact damping"

    def check_problem(self, problem):
        self.inner.check_problem(problem)

    def init(self, work, t0, y0, h):
        return self.inner.init(work, t0, y0, h)

    def step(self, work, t, y, h, state):
        d, c = y.size // 2, math.exp(-0.5 * self.gamma * h)
        y = np.concatenate([y[:d], c * y[d:]])
        y, _, state = self.inner.step(work, t, y, h, state)
        return np.concatenate([y[:d], c * y[d:]]), None, state


def integrate_damped(problem: HamiltonianProblem, method, h: float, gamma: float) -> Solution:
    """Equal steps of ``q' = p``, ``p' = -∇V(q) - γ p`` (``γ`` in [0, 1000] 1/s).

    ``method``: a splitting method (run as ``D(h/2) ∘ Φ_h ∘ D(h/2)`` with the
    exact damping flow) or any Runge-Kutta method (run on the damped
    right-hand side).  The energy ``H = p·p/2 + V`` then decays, exactly as
    ``dH/dt = -γ |p|²``.  The splitting with the damping flow is symmetric and of
    order 2 whatever the order of ``Φ`` (Strang), so ``"yoshida4"`` gives order 2
    here; a Runge-Kutta method keeps its order.  Returns a :class:`Solution`
    with layout ``"hamiltonian"``.
    Example: ``integrate_damped(rn.problems.pendulum(), "verlet", 0.1, 0.01)``.
    """
    problem = _hamiltonian(problem)
    h = check.positive("h", h)
    gamma = check.real("gamma", gamma, 0.0, GAMMA_MAX)
    m = methods.get(method)
    if m.family == "splitting":
        return integrate(problem, _DampedSplitting(m, gamma), h)
    if m.family != "rk":
        raise ValueError(f"integrate_damped takes splitting or Runge-Kutta methods, got {m.name}")
    d, f = problem.d, problem.f

    def damped(t, y):
        out = np.array(f(t, y), dtype=float)
        out[d:] -= gamma * y[d:]
        return out

    ode = ODEProblem(damped, problem.y0, problem.t_span, name=f"{problem.name}, damped (γ={gamma:g})")
    return dataclasses.replace(integrate(ode, m, h), layout="hamiltonian")


def max_error_in_log_windows(t, err, n_windows: int = 100, t_min: float | None = None):
    """The envelope of an error curve for a log-log plot: ``max err`` over log-spaced windows of ``t``.

    Windows ``(t_min r^(k-1), t_min r^k]``, ``k = 1..n_windows``, with ``r`` chosen so
    the last window ends at ``t[-1]``; ``t_min`` defaults to the first positive
    ``t``.  Windows holding no sample are left out.  Returns ``(window ends, max
    err)``.  ``n_windows`` in [1, 10 000].  Plotting this instead of 10^6 points
    keeps the figure honest (every peak is kept) and light.
    """
    t = check.real_array("t", t, ndim=1, max_size=100_000_000)
    err = check.real_array("err", err, ndim=1, max_size=100_000_000)
    if t.shape != err.shape:
        raise ValueError(f"t and err must have equal length, got {t.size} and {err.size}")
    if np.any(np.diff(t) <= 0):
        raise ValueError("t must be strictly increasing")
    n_windows = check.integer("n_windows", n_windows, 1, 10_000)
    positive = t[t > 0]
    if positive.size == 0:
        raise ValueError("t must contain a positive time")
    t_min = float(positive[0]) if t_min is None else check.positive("t_min", t_min)
    if not t_min < t[-1]:
        raise ValueError(f"t_min must be < t[-1] = {t[-1]:g}, got {t_min:g}")
    edges = np.geomspace(t_min, t[-1], n_windows + 1)
    edges[-1] = t[-1]
    # t is sorted: window k holds the contiguous samples edges[k] < t <= edges[k+1] (the first
    # also t_min itself), so window k ends where window k+1 starts and the last one at t[-1]
    starts = np.searchsorted(t, edges[:-1], side="right")
    starts[0] = np.searchsorted(t, t_min, side="left")
    stops = np.append(starts[1:], t.size)
    keep = stops > starts
    return edges[1:][keep], np.maximum.reduceat(err, starts[keep])
