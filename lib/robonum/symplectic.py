"""Symplectic integrators for separable Hamiltonians ``H(q, p) = p·p/2 + V(q)``.

Equations of motion: ``q' = p``, ``p' = -∇V(q)``.  Three methods, all
explicit and all built from "kicks" (``p -= τ ∇V(q)``) and "drifts"
(``q += τ p``):

* ``"symplectic_euler"`` (order 1): kick by ``h``, then drift by ``h``;
* ``"verlet"`` (Störmer-Verlet, kick-drift-kick, order 2);
* ``"yoshida4"`` (order 4): three Verlet steps of sizes ``γ1 h, γ0 h, γ1 h``
  (Yoshida's "triple jump").

Each is a symplectic map, so the energy error stays bounded over
exponentially long times instead of drifting (Hairer, Lubich & Wanner,
*Geometric Numerical Integration*, 2nd ed., ch. VI and sec. IX.8).

The force ``∇V`` at the end of a step is the force at the start of the
next, so it is kept and reused: Verlet and symplectic Euler cost one
``∇V`` evaluation per step, Yoshida three (plus one at the start).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import _validate as check
from .solution import DIVERGED, SUCCESS

_CBRT2 = 2.0 ** (1.0 / 3.0)
#: Yoshida (1990), Phys. Lett. A 150, 262-268: γ1 = 1/(2 - 2^(1/3)),
#: γ0 = -2^(1/3)/(2 - 2^(1/3)); with 2γ1 + γ0 = 1 the error terms of order 3 cancel.
YOSHIDA4_GAMMAS = (1.0 / (2.0 - _CBRT2), -_CBRT2 / (2.0 - _CBRT2), 1.0 / (2.0 - _CBRT2))

#: method name -> (classical order, Verlet sub-step fractions or None for Euler)
METHODS = {
    "symplectic_euler": (1, None),
    "verlet": (2, (1.0,)),
    "yoshida4": (4, YOSHIDA4_GAMMAS),
}

MAX_STEPS = 50_000_000


@dataclass
class HamiltonianSolution:
    """A trajectory ``(t, q, p)`` of a symplectic run.

    ``q`` and ``p`` have shape ``(d, len(t))`` (columns are time points, as
    ``Solution.y``).  ``ngrad`` counts evaluations of ``∇V``.  ``status`` is
    0 (reached ``t1``) or -1 (diverged).  ``compile_time`` / ``run_time``
    (seconds) are filled in by the compiled path :mod:`robonum.fast`.
    """

    t: np.ndarray
    q: np.ndarray
    p: np.ndarray
    method: str
    h: float
    nsteps: int
    ngrad: int
    status: int
    message: str
    compile_time: float | None = None
    run_time: float | None = None

    @property
    def success(self) -> bool:
        return self.status == SUCCESS

    @property
    def order(self) -> int:
        return METHODS[self.method][0]

    def __repr__(self):
        return (f"HamiltonianSolution({self.method}, steps={self.nsteps}, "
                f"ngrad={self.ngrad}, status={self.status}: {self.message})")


def equal_steps(t_span, h, max_steps: int = MAX_STEPS) -> tuple[float, float, int, float]:
    """``(t0, t1, N, h_used)`` with ``N = ceil((t1-t0)/h)`` and ``h_used = (t1-t0)/N``.

    The same rule as :func:`robonum.integrate`, so both paths take identical steps.
    """
    t0, t1 = check.interval("t_span", t_span)
    h = check.positive("h", h)
    n = max(1, math.ceil((t1 - t0) / h - 1e-9))
    if n > max_steps:
        raise ValueError(f"h={h} needs {n} steps on {(t0, t1)}; "
                         f"use h >= {(t1 - t0) / max_steps:.3g}")
    return t0, t1, n, (t1 - t0) / n


class _CountedGrad:
    """``∇V`` with a call counter and a shape check of its output."""

    def __init__(self, grad_V, d):
        check.callable_("grad_V", grad_V)
        self.grad_V, self.d, self.n = grad_V, d, 0

    def __call__(self, q):
        self.n += 1
        g = np.asarray(self.grad_V(q), dtype=float)
        if g.ndim == 0 and self.d == 1:
            g = g.reshape(1)  # a scalar force for a 1-D system
        if g.shape != (self.d,):
            raise ValueError(f"grad_V(q) must return shape ({self.d},) like q, got {g.shape}")
        return g


def _kick_drift(grad, q, p, h, g):
    """Symplectic Euler: ``p1 = p - h ∇V(q)``, ``q1 = q + h p1`` (HLW sec. VI.3)."""
    p1 = p - h * g
    q1 = q + h * p1
    return q1, p1, grad(q1)


def _verlet(grad, q, p, h, g):
    """Störmer-Verlet, kick-drift-kick (HLW sec. I.1.4 and VI.3):
    ``p½ = p - h/2 ∇V(q)``, ``q1 = q + h p½``, ``p1 = p½ - h/2 ∇V(q1)``."""
    p_half = p - 0.5 * h * g
    q1 = q + h * p_half
    g1 = grad(q1)
    return q1, p_half - 0.5 * h * g1, g1


def _one_step(method, grad, q, p, h, g):
    """Advance one step of ``method``; ``g = ∇V(q)`` in, ``∇V(q1)`` out."""
    gammas = METHODS[method][1]
    if gammas is None:
        return _kick_drift(grad, q, p, h, g)
    for gamma in gammas:
        q, p, g = _verlet(grad, q, p, gamma * h, g)
    return q, p, g


def _check_state(q0, p0):
    q0 = check.finite_vector("q0", q0)
    p0 = check.finite_vector("p0", p0)
    if q0.shape != p0.shape:
        raise ValueError(f"q0 and p0 must have the same shape, got {q0.shape} and {p0.shape}")
    return q0, p0


def symplectic_step(grad_V, q, p, h: float, method: str = "verlet"):
    """One step ``(q, p) -> (q1, p1)`` of ``method`` (no reuse of forces).

    Useful to study the one-step map itself, e.g. its Jacobian ``M`` and the
    symplecticity condition ``Mᵀ J M = J`` (HLW sec. VI.2).
    """
    check.one_of("method", method, METHODS)
    q, p = _check_state(q, p)
    h = check.positive("h", h)
    grad = _CountedGrad(grad_V, q.size)
    q1, p1, _ = _one_step(method, grad, q, p, h, grad(q))
    return q1, p1


def integrate_symplectic(grad_V, q0, p0, t_span, h: float, method: str = "verlet", *,
                         save_every: int = 1, blowup: float = 1e8) -> HamiltonianSolution:
    """Integrate ``q' = p, p' = -∇V(q)`` in equal steps of at most ``h``.

    Parameters
    ----------
    grad_V : callable ``grad_V(q) -> array (d,)``
    q0, p0 : array_like (d,)
    t_span : (t0, t1)
    h : float > 0
        Largest step; the run uses ``(t1-t0)/ceil((t1-t0)/h)`` (as ``integrate``).
    method : ``"symplectic_euler"``, ``"verlet"`` or ``"yoshida4"``
    save_every : int >= 1
        Keep every ``save_every``-th step (and always the last).
    blowup : float > 0
        Stop with ``status = -1`` once ``max(|q|, |p|)`` exceeds
        ``blowup * max(1, max|q0|, max|p0|)`` (e.g. Verlet with ``h ω > 2``).
    """
    check.one_of("method", method, METHODS)
    q, p = _check_state(q0, p0)
    t0, t1, n, h = equal_steps(t_span, h)
    save_every = check.integer("save_every", save_every, 1)
    bound = check.positive("blowup", blowup) * max(1.0, np.max(np.abs(q)), np.max(np.abs(p)))
    grad = _CountedGrad(grad_V, q.size)
    g = grad(q)
    ts, qs, ps = [t0], [q], [p]
    status, message = SUCCESS, f"reached t = {t1:g}"
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(1, n + 1):
            q, p, g = _one_step(method, grad, q, p, h, g)
            if not (np.all(np.isfinite(q)) and np.all(np.isfinite(p))
                    and max(np.max(np.abs(q)), np.max(np.abs(p))) <= bound):
                status = DIVERGED
                message = (f"diverged at t = {t0 + k * h:g}: |q| or |p| > {bound:.3g} "
                           f"(h = {h:.4g} is outside the method's stability interval)")
            if k % save_every == 0 or k == n or status != SUCCESS:
                ts.append(t0 + k * h)
                qs.append(q)
                ps.append(p)
            if status != SUCCESS:
                break
    return HamiltonianSolution(t=np.array(ts), q=np.array(qs).T, p=np.array(ps).T,
                               method=method, h=h, nsteps=k, ngrad=grad.n,
                               status=status, message=message)
