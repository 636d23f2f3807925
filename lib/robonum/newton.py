"""Newton and simplified (modified) Newton iterations for the equations of implicit methods.

An implicit step must solve ``G(x) = 0``: ``M dx_k = -G(x_k)``, ``x_{k+1} = x_k + dx_k``
with ``M ≈ G'(x) = I - h (coefficient) J``, ``J = df/dy``.  Newton proper evaluates
``J`` at every iterate; the *modified* Newton method keeps one ``J`` and one LU of
``M`` across iterations and steps, recomputed when convergence becomes slow or
``h`` changes (``NewtonOptions(jacobian="full" | "step" | "reuse")``).

Convergence is judged as in Hairer & Wanner, *Solving ODEs II*, sec. IV.8
(the simplified Newton iteration of implicit RK methods): with the
contraction rate ``theta_k = ||dx_k|| / ||dx_{k-1}||`` and
``eta_k = theta_k / (1 - theta_k)`` the remaining error is about
``eta_k ||dx_k||``, and the iteration stops when

    eta_k ||dx_k|| <= kappa * tol.

For ``k = 0`` there is no rate yet and ``eta_0 = max(eta_old, eps)^0.8`` is
taken from the previous solve.  The norm is the RMS norm weighted by
``1 + |y|`` (absolute for small, relative for large components).
The caches a run shares across solves (``J``, LU factors) are in
:mod:`robonum.modified_newton`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from . import _validate as check
from .errors import EvaluationError

_EPS = np.finfo(float).eps
JACOBIAN_STRATEGIES = ("reuse", "step", "full")


@dataclass(frozen=True)
class NewtonOptions:
    """Tolerances of the modified Newton iteration (validated).

    tol : the target ``eta ||dx|| <= kappa * tol`` in the norm above, in [1e-14, 0.1].
    kappa : safety factor in (0, 1] (Hairer-Wanner suggest 0.01..0.1).
    max_iter : iterations per solve, 1..100.
    theta_max : a rate above this with an *old* Jacobian aborts the solve and
        retries with a fresh ``J`` (slow convergence), in (0, 1).
    theta_reuse : after a converged solve, a rate above this marks ``J`` for
        re-evaluation at the next step (Hairer's Radau5 uses 1e-3), in (0, 1].
    jacobian : when ``J`` is evaluated, one of ``JACOBIAN_STRATEGIES``:
        ``"reuse"`` keeps ``J`` and its LU across iterations and steps (refreshed
        by the two rates above or a new ``h``); ``"step"`` evaluates ``J`` at
        ``(t_n, y_n)`` once per step; ``"full"`` at every iterate (Newton proper,
        quadratic convergence; for a fully implicit tableau the one ``J`` is
        taken at the iterate of the last stage).
    """

    tol: float = 1e-10
    kappa: float = 0.1
    max_iter: int = 10
    theta_max: float = 0.5
    theta_reuse: float = 1e-3
    jacobian: str = "reuse"

    def __post_init__(self):
        tol = check.positive("tol", self.tol)
        if not 1e-14 <= tol <= 0.1:
            raise ValueError(f"tol must be in [1e-14, 0.1], got {self.tol!r}")
        kappa = check.positive("kappa", self.kappa)
        if kappa > 1:
            raise ValueError(f"kappa must be in (0, 1], got {self.kappa!r}")
        check.integer("max_iter", self.max_iter, 1, 100)
        if not 0 < check.real("theta_max", self.theta_max) < 1:
            raise ValueError(f"theta_max must be in (0, 1), got {self.theta_max!r}")
        if not 0 < check.real("theta_reuse", self.theta_reuse) <= 1:
            raise ValueError(f"theta_reuse must be in (0, 1], got {self.theta_reuse!r}")
        if not isinstance(self.jacobian, str) or self.jacobian not in JACOBIAN_STRATEGIES:
            raise ValueError(
                f"jacobian must be one of {JACOBIAN_STRATEGIES}, got {self.jacobian!r}"
            )


@dataclass
class NewtonResult:
    """Outcome of :func:`newton_solve`; ``reason`` says why it stopped.

    ``residuals[k]`` = RMS of ``G(x_k)``, ``corrections[k]`` = weighted RMS of ``dx_k``, one
    per iteration (``G`` of the returned ``x`` is not evaluated: it would cost an ``f``).
    """

    x: np.ndarray
    converged: bool
    iterations: int
    theta: float  # last contraction rate (0 if only one iteration)
    eta: float  # last eta, handed to the next solve
    residual: float  # RMS norm of the last evaluated G(x)
    reason: str
    residuals: list = field(default_factory=list)
    corrections: list = field(default_factory=list)


def newton_solve(
    G: Callable,
    solve: Callable,
    x0,
    *,
    weight=1.0,
    opts: NewtonOptions | None = None,
    eta0: float = 1.0,
    abort_slow: bool = False,
    predict: bool = True,
    work=None,
    allow_growth: bool = False,
) -> NewtonResult:
    """Simplified Newton for ``G(x) = 0`` with a fixed iteration matrix ``M``.

    ``x_{k+1} = x_k - M^{-1} G(x_k)`` where ``solve(r)`` returns ``M^{-1} r``
    (an LU solve).  Stops when ``eta_k ||dx_k|| <= kappa tol`` (converged),
    or ``theta_k >= 1`` (diverging; not if ``allow_growth``: Newton proper far from
    the root), or -- if ``predict`` -- the predicted error after the remaining iterations
    ``theta^(max_iter-1-k) / (1-theta) ||dx_k||`` stays above ``kappa tol`` (too slow), or -- if ``abort_slow`` -- when
    ``theta_k > theta_max``.  ``weight`` scales the RMS norm: ``||v|| = rms(v / weight)``.
    Reference: Hairer & Wanner, *Solving ODEs II*, sec. IV.8.

    Example: for ``G(x) = x - 2`` with ``solve = lambda r: r`` it converges
    in one iteration (plus one to confirm the rate when ``eta0 = 1``).
    """
    check.callable_("G", G)
    check.callable_("solve", solve)
    opts = NewtonOptions() if opts is None else opts
    if not isinstance(opts, NewtonOptions):
        raise TypeError(f"opts must be a NewtonOptions, got {type(opts).__name__}")
    x = np.array(x0, dtype=float)
    if not np.all(np.isfinite(x)):
        raise ValueError("x0 must contain only finite values")
    if not np.all(np.asarray(weight) > 0):
        raise ValueError("weight must be > 0")
    eta0 = check.positive("eta0", eta0, allow_zero=True)
    return iterate(G, solve, x, weight, opts, eta0, abort_slow, predict, work, allow_growth)


def _rms(v: np.ndarray) -> float:
    """``sqrt(mean(v**2))`` with ``np.mean``'s own sum, without its overhead.

    Not the ``np.dot`` norms of the Radau and BDF steppers: this sum is the one ``np.mean``
    made before, so no fixed-step run of the book moved by a bit when it replaced it.
    """
    return math.sqrt(np.add.reduce(v * v, axis=None) / v.size)


def iterate(
    G, solve, x, weight, opts, eta0, abort_slow=False, predict=True, work=None, allow_growth=False
) -> NewtonResult:
    """The iteration of :func:`newton_solve`, for callers whose inputs are already checked.

    The library's steppers call it once per stage and step (``robonum.modified_newton``):
    the checks of a public call cost more than a small system's iteration.  ``x`` is a
    finite float array (it is not copied), ``opts`` a :class:`NewtonOptions`.
    """
    target = opts.kappa * opts.tol
    eta, theta, dx_old, res = max(eta0, _EPS) ** 0.8, 0.0, None, np.inf
    residuals, corrections = [], []

    def out(ok, k, th, et, reason):
        return NewtonResult(x, ok, k, th, et, res, reason, residuals, corrections)

    for k in range(opts.max_iter):
        try:
            g = np.asarray(G(x), dtype=float)
        except EvaluationError as exc:
            if k == 0:
                raise  # f is not finite at the starting point itself: not Newton's fault
            res = np.inf
            return out(False, k, theta, eta, f"non-finite iterate ({exc})")
        res = _rms(g)
        dx = -np.asarray(solve(g.ravel()), dtype=float).reshape(x.shape)
        if work is not None:
            work.n_newton += 1
        residuals.append(res)
        if not (np.isfinite(res) and np.isfinite(dx).all()):
            return out(False, k + 1, theta, eta, "non-finite iterate")
        x = x + dx
        dx_norm = _rms(dx / weight)
        corrections.append(dx_norm)
        if dx_old is not None:
            theta = dx_norm / dx_old
            if dx_norm <= 10 * _EPS:  # correction at rounding level: nothing left to gain
                return out(
                    True, k + 1, min(theta, 0.5), min(theta, 0.5), "converged (rounding level)"
                )
            if theta >= 1.0 and not allow_growth:
                return out(False, k + 1, theta, eta, f"diverging (theta = {theta:.3g})")
            eta = theta / (1.0 - theta) if theta < 1.0 else np.inf
        elif dx_norm <= 10 * _EPS:
            return out(True, 1, theta, eta, "converged (rounding level)")
        if eta * dx_norm <= target:
            return out(True, k + 1, theta, eta, "converged")
        if dx_old is not None:
            if abort_slow and theta > opts.theta_max:
                return out(False, k + 1, theta, eta, f"slow (theta = {theta:.3g})")
            left = opts.max_iter - 1 - k
            if predict and theta**left / (1.0 - theta) * dx_norm > target:
                return out(
                    False,
                    k + 1,
                    theta,
                    eta,
                    f"too slow to converge in max_iter (theta = {theta:.3g})",
                )
        dx_old = dx_norm
    return out(False, opts.max_iter, theta, eta, "max_iter reached")
