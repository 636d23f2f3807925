"""Steppers for ``Ṙ = R [ω(t, R)]×`` (an :class:`~robonum.lie.attitude.AttitudeProblem`), built from data.

Every method here is a Butcher tableau from robonum's catalogue (or the
Crouch-Grossman tableau below) plus a rule for using it on the group:

``RKMK(tableau)``           Runge-Kutta-Munthe-Kaas: the RK method on ``u`` in
                            ``R = R_n Exp(u)``, ``u̇ = dexp⁻¹_u(ω)`` (Munthe-Kaas 1999;
                            Iserles et al. 2000, sec. 5).  Order = the tableau's order when
                            dexp⁻¹ keeps ``ad_u^j`` for ``j <= p - 2``.
``CrouchGrossman(tableau)`` products of exponentials, no dexp⁻¹ (Crouch & Grossman 1993);
                            needs its own order conditions (``CG3`` below has order 3).
``Projected(tableau, p)``   the RK method on the 9 entries, then back onto SO(3) by
                            ``p`` = ``"polar"`` or ``"gram_schmidt"``.
``ExpMidpoint()``           ``R ← R Exp(h ω(t + h/2))`` for ``ω(t)`` (order 2; exact for constant ω).

Stages of the Lie methods stay on SO(3), so orthogonality is kept to rounding.
Reference: Hairer, Lubich & Wanner (2006), sec. IV.8.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np

from .. import _validate as check
from .. import methods
from ..steppers import ExplicitRK, Stepper
from ..tableau import ButcherTableau
from . import so3
from .attitude import AttitudeProblem
from .projection import PROJECTIONS

# Crouch & Grossman (1993), the 3-stage method of order 3 (also Hairer-Lubich-Wanner, sec. IV.8.1).
CG3 = ButcherTableau(
    "Crouch-Grossman 3",
    A=[[0, 0, 0], [F(3, 4), 0, 0], [F(119, 216), F(17, 108), 0]],
    b=[F(13, 51), F(-2, 3), F(24, 17)],
    order=3,
)


def _explicit_tableau(method, name: str = "method") -> ButcherTableau:
    try:
        tab = methods.get(method)
    except (TypeError, ValueError) as exc:  # the catalogue's message, under this parameter's name
        raise type(exc)(str(exc).replace("method", name, 1)) from None
    if tab.family != "rk" or not tab.is_explicit:
        raise ValueError(f"{name} must be an explicit Runge-Kutta tableau, got {tab.name!r}")
    return tab


class _LieStepper(Stepper):
    def check_problem(self, problem):
        if not isinstance(problem, AttitudeProblem):
            raise TypeError(
                f"{self.name} integrates an AttitudeProblem (Ṙ = R[ω]×), "
                f"got {type(problem).__name__}"
            )

    def init(self, work, t0, y0, h):
        return None


def _omega(work, t, R):
    work.nfev += 1  # one evaluation of ω counts as one of f
    return work.problem.omega(t, R)


class RKMK(_LieStepper):
    """Runge-Kutta-Munthe-Kaas method from an explicit tableau ``(A, b, c)``.

    ``u_i = h Σ_j a_ij k_j``, ``k_i = dexp⁻¹_{u_i}(ω(t + c_i h, R Exp(u_i)))``,
    ``R_{n+1} = R Exp(h Σ_i b_i k_i)``.  ``dexpinv_terms`` (default ``p - 2``, at least 0)
    is how many powers of ``ad_u`` dexp⁻¹ keeps; fewer lowers the order to
    ``terms + 2`` (``0``: the correction is dropped).  With the Euler tableau this is
    the Lie-Euler method ``R ← R Exp(h ω(t, R))``.
    """

    def __init__(self, method="rk4", dexpinv_terms: int | None = None):
        tab = _explicit_tableau(method)
        default = max(0, tab.order - 2)
        self.terms = (
            default
            if dexpinv_terms is None
            else check.integer("dexpinv_terms", dexpinv_terms, 0, so3.MAX_DEXPINV_TERMS)
        )
        self.tableau = tab
        self.order = min(tab.order, self.terms + 2)
        self.name = (
            "Lie-Euler"
            if tab.s == 1
            else f"RKMK ({tab.name})"
            + ("" if self.terms >= default else f", dexp⁻¹ to ad^{self.terms}")
        )
        self._rows = [tab.A[i, :i] for i in range(tab.s)]

    def step(self, work, t, y, h, state):
        R, tab = y.reshape(3, 3), self.tableau
        K = np.empty((tab.s, 3))
        for i in range(tab.s):
            u = h * (self._rows[i] @ K[:i]) if i else np.zeros(3)
            Ri = R @ so3._exp(u) if u.any() else R
            K[i] = so3._dexp_inv_series(u, _omega(work, t + tab.c[i] * h, Ri), self.terms)
        return (R @ so3._exp(h * (tab.b @ K))).ravel(), None, state


class CrouchGrossman(_LieStepper):
    """Crouch-Grossman method: ``Y_i = R Exp(h a_i1 K_1) ⋯ Exp(h a_i,i-1 K_i-1)``,
    ``K_i = ω(t + c_i h, Y_i)``, ``R_{n+1} = R Exp(h b_1 K_1) ⋯ Exp(h b_s K_s)``.

    The body-frame (right) form of Crouch & Grossman (1993); the tableau must satisfy
    their order conditions, not only the classical ones (default :data:`CG3`).
    """

    def __init__(self, tableau=CG3):
        tab = _explicit_tableau(tableau, "tableau")
        self.tableau, self.order, self.name = tab, tab.order, tab.name

    def _product(self, R, h, weights, K):
        for wj, kj in zip(weights, K):
            if wj != 0.0:
                R = R @ so3._exp(h * wj * kj)
        return R

    def step(self, work, t, y, h, state):
        R, tab = y.reshape(3, 3), self.tableau
        K = np.empty((tab.s, 3))
        for i in range(tab.s):
            K[i] = _omega(work, t + tab.c[i] * h, self._product(R, h, tab.A[i, :i], K[:i]))
        return self._product(R, h, tab.b, K).ravel(), None, state


class Projected(_LieStepper):
    """An explicit RK step on the 9 entries of ``R``, then a projection back onto SO(3)."""

    def __init__(self, method="rk4", projection: str = "polar"):
        check.one_of("projection", projection, tuple(PROJECTIONS))
        self.base = ExplicitRK(_explicit_tableau(method))
        self.projection = projection
        self.order = self.base.order
        label = {"polar": "polar", "gram_schmidt": "Gram-Schmidt"}[projection]
        self.name = f"{self.base.name} + {label}"

    def step(self, work, t, y, h, state):
        y_new, _, _ = self.base.step(work, t, y, h, None)
        if not np.isfinite(y_new).all():
            return y_new, None, state  # the driver reports the divergence
        return PROJECTIONS[self.projection](y_new.reshape(3, 3)).ravel(), None, state


class ExpMidpoint(_LieStepper):
    """``R ← R Exp(h ω(t + h/2))`` for ``ω(t)``: exact for constant ω, order 2 otherwise."""

    name, order = "exponential map", 2

    def check_problem(self, problem):
        super().check_problem(problem)
        if problem.state_dependent:
            raise ValueError(
                "method 'exp' freezes ω(t + h/2), which needs R(t + h/2) when ω depends "
                "on R; use 'lie_euler', 'rkmk4' or 'cg3' for a state-dependent ω"
            )

    def step(self, work, t, y, h, state):
        R = y.reshape(3, 3)
        return (R @ so3._exp(h * _omega(work, t + 0.5 * h, R))).ravel(), None, state


# name -> how the stepper is built from data (robonum.methods keys or the tableau above)
METHODS = {
    "euler": lambda: ExplicitRK("euler"),
    "euler_gs": lambda: Projected("euler", "gram_schmidt"),
    "euler_polar": lambda: Projected("euler", "polar"),
    "rk4": lambda: ExplicitRK("rk4"),
    "rk4_polar": lambda: Projected("rk4", "polar"),
    "exp": ExpMidpoint,
    "lie_euler": lambda: RKMK("euler"),
    "rkmk4": lambda: RKMK("rk4"),
    "cg3": lambda: CrouchGrossman(CG3),
}


def stepper(method) -> Stepper:
    """The stepper for a name in :data:`METHODS` (a :class:`Stepper` passes through)."""
    if isinstance(method, Stepper):
        return method
    check.one_of("method", method, tuple(METHODS))
    return METHODS[method]()
