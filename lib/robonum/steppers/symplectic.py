"""Symplectic splitting steppers for a :class:`robonum.HamiltonianProblem`.

Kicks ``p <- p - tau ∇V(q)`` and drifts ``q <- q + tau p`` in the order the
method's data says (:mod:`robonum.methods.splitting`).  The force at the end
of a step is the force at the start of the next, so it is kept: Verlet and
symplectic Euler cost one ``∇V`` per step, Yoshida 4 three (plus one at the
start).  ``nfev`` counts ``∇V`` evaluations.  A damped problem (``problem.gamma > 0``)
runs as ``D(h/2) ∘ Φ_h ∘ D(h/2)`` with the exact damping flow ``D(τ): p ← e^{-γτ} p``:
a Strang splitting, symmetric and of order 2 whatever the order of ``Φ`` (HLW sec. II.5),
each step shrinking phase-space areas by exactly ``e^{-γh}``, as the damped flow does.
Reference: Hairer, Lubich & Wanner, *Geometric Numerical Integration*,
sec. I.1.4 (Störmer-Verlet), II.4 (composition), VI.3 (symplecticity).
"""

from __future__ import annotations

import math

import numpy as np

from .. import methods
from ..problem import HamiltonianProblem
from .base import Stepper, check_h, check_state


class _Force:
    def __init__(self):
        self.q = None
        self.g = None


class Symplectic(Stepper):
    """A splitting method (``"symplectic_euler"``, ``"verlet"``, ``"yoshida4"``) on ``y = (q, p)``."""

    def __init__(self, method):
        m = methods.get(method)
        if m.family != "splitting":
            raise ValueError(f"method {m.name!r} is not a splitting method")
        self.method, self.name, self.order = m, m.name, m.order

    def check_problem(self, problem):
        if not isinstance(problem, HamiltonianProblem):
            raise TypeError(
                f"method {self.name!r} integrates a HamiltonianProblem "
                f"(H = p·p/2 + V(q), given by grad_V); got {type(problem).__name__} "
                f"{getattr(problem, 'name', '')!r}"
            )

    def init(self, work, t0, y0, h):
        return _Force()

    def step(self, work, t, y, h, state):
        # called by hand too (the API page shows it): guard the door, cheaply on the loop's path
        if not isinstance(work.problem, HamiltonianProblem):
            self.check_problem(work.problem)
        if type(h) is not float or not 0.0 < h < math.inf:
            h = check_h(h)
        if type(y) is not np.ndarray or y.ndim != 1 or y.size != 2 * work.problem.d:
            check_state(y, work.problem.n)
        gamma = work.problem.gamma
        if not gamma:
            return self._step(work, t, y, h, state)
        d, c = y.size // 2, math.exp(-0.5 * gamma * h)
        y, _, state = self._step(work, t, np.concatenate([y[:d], c * y[d:]]), h, state)
        return np.concatenate([y[:d], c * y[d:]]), None, state

    def _force(self, work, t, q, state):
        if state.q is None or not np.array_equal(state.q, q):
            state.q, state.g = q, work.grad(t, q)
        return state.g

    def _step(self, work, t, y, h, state):
        d = y.size // 2
        q, p = y[:d], y[d:]
        g = self._force(work, t, q, state)
        if self.method.gammas is None:  # symplectic Euler: kick h, drift h
            p = p - h * g
            q = q + h * p
            g = work.grad(t + h, q)
        else:  # Verlet sub-steps, kick-drift-kick
            s = t
            for gamma in self.method.gammas:
                tau = gamma * h
                p_half = p - 0.5 * tau * g
                q = q + tau * p_half
                s += tau
                g = work.grad(s, q)
                p = p_half - 0.5 * tau * g
        state.q, state.g = q, g
        return np.concatenate([q, p]), None, state
