"""One generic implicit Runge-Kutta step for any implicit tableau.

The stage equations are written for the *increments* ``Z_i = Y_i - y``
(Hairer & Wanner, *Solving ODEs II*, sec. IV.8):

    Z_i = h sum_j A_ij f(t + c_j h, y + Z_j),      i = 1..s.

* Fully implicit ``A`` (Gauss, Radau IIA): Newton on the whole ``s n``
  system with iteration matrix ``I - h (A kron J)``.
* Lower-triangular ``A`` (DIRK/SDIRK, backward Euler, trapezoid): stage by
  stage, each an ``n x n`` system with matrix ``I - h a_ii J``; an SDIRK has
  one ``a_ii = gamma`` and so one LU for all its stages (and for later
  steps while ``J`` and ``h`` stay).  A stage with ``a_ii = 0`` is explicit.

The new value avoids extra ``f`` calls and does not amplify the Newton
error by ``h lambda`` on stiff problems: the stage slopes are recovered from
the increments, ``F = A^{-1} Z / h``, so ``y_{n+1} = y + b^T A^{-1} Z``
(leading explicit stages are split off first).  Initial guess: ``Z = 0``
(safe for stiff problems, where an explicit predictor ``h c_i f`` can be
off by ``h lambda``).  No embedded pair: ``err`` is ``None``.
"""
from __future__ import annotations

import numpy as np

from .. import methods
from ..newton import ModifiedNewton, NewtonOptions
from .base import Stepper, check_h


def newton_options(newton) -> NewtonOptions:
    """``None`` (the defaults) or a :class:`NewtonOptions`."""
    if newton is None:
        return NewtonOptions()
    if not isinstance(newton, NewtonOptions):
        raise TypeError(f"newton must be a NewtonOptions (e.g. rn.NewtonOptions(tol=1e-12)), "
                        f"got {type(newton).__name__}")
    return newton


class ImplicitRK(Stepper):
    """Implicit Runge-Kutta stepper with modified Newton.

    Parameters
    ----------
    method : a catalogue name (e.g. ``"radau3"``) or a ``ButcherTableau``; not explicit.
    newton : :class:`robonum.NewtonOptions`, optional (tolerance, iteration limits).

    Example: ``rn.integrate(problem, ImplicitRK("radau3", newton=rn.NewtonOptions(tol=1e-12)), h=0.01)``.
    Reference: Hairer & Wanner, *Solving ODEs II*, sec. IV.8 (implementation
    of implicit RK methods).
    """

    def __init__(self, method, *, newton: NewtonOptions | None = None):
        tab = methods.get(method)
        if tab.family != "rk":
            raise ValueError(f"method {tab.name!r} is not a Runge-Kutta method; use make_stepper")
        if tab.is_explicit:
            raise ValueError(f"method {tab.name!r} is explicit; use ExplicitRK for it")
        self.opts = newton_options(newton)
        self.tableau, self.name, self.order = tab, tab.name, tab.order
        self.stagewise = tab.kind in ("DIRK", "SDIRK")
        if not self.stagewise:
            self._split_explicit(tab)

    def _split_explicit(self, tab):
        """Leading zero rows of A are explicit stages (``Y_i = y``); the rest must be invertible."""
        e = 0
        while e < tab.s and not np.any(tab.A[e]):
            e += 1
        A_II = tab.A[e:, e:]
        if np.linalg.cond(A_II) > 1e12:
            raise ValueError(f"tableau {tab.name!r}: the implicit block of A is singular; "
                             "this stepper needs it invertible")
        self._e = e
        self._A_II, self._A_IE = A_II, tab.A[e:, :e]
        self._d = np.linalg.solve(A_II.T, tab.b[e:])  # y_new = y + h b_E F_E + d^T (Z - h A_IE F_E)

    def init(self, work, t0, y0, h):
        check_h(h)
        return ModifiedNewton(self.opts)

    def step(self, work, t, y, h, state):
        h = check_h(h)
        if self.stagewise:
            return self._step_dirk(work, t, y, h, state), None, state
        return self._step_full(work, t, y, h, state), None, state

    # -- lower-triangular A: one n x n solve per implicit stage -------------
    def _step_dirk(self, work, t, y, h, newton):
        tab, n = self.tableau, y.size
        F = np.empty((tab.s, n))
        eye = np.eye(n)
        for i in range(tab.s):
            ti = t + tab.c[i] * h
            base = y + h * (tab.A[i, :i] @ F[:i])
            hg = h * tab.A[i, i]
            if hg == 0.0:
                F[i] = work.f(ti, base)
                continue

            def G(z, ti=ti, base=base, hg=hg):  # z = h a_ii F_i, so Y_i = base + z
                return z - hg * work.f(ti, base + z)

            z = newton.solve(work, t, y, G, np.zeros(n), ("dirk", hg),
                             lambda J, hg=hg: eye - hg * J,
                             point=lambda z, ti=ti, base=base: (ti, base + z))
            F[i] = z / hg
        return y + h * (tab.b @ F)

    # -- full A: Newton on the s n system ------------------------------------
    def _step_full(self, work, t, y, h, newton):
        tab, n, e = self.tableau, y.size, self._e
        FE = np.array([work.f(t + tab.c[i] * h, y) for i in range(e)]).reshape(e, n)
        const = h * (self._A_IE @ FE)
        cI = tab.c[e:]
        m = cI.size

        def G(Z):
            Fv = np.array([work.f(t + cI[i] * h, y + Z[i]) for i in range(m)])
            return Z - const - h * (self._A_II @ Fv)

        def build(J):
            return np.eye(m * n) - h * np.kron(self._A_II, J)

        last = int(np.argmax(cI))  # if J must follow the iterate, take it at the latest stage
        Z = newton.solve(work, t, y, G, np.zeros((m, n)), ("irk", h), build,
                         point=lambda Z: (t + cI[last] * h, y + Z[last]))
        return y + h * (tab.b[:e] @ FE) + self._d @ (Z - const)

