"""Radau IIA of order 5 with its own step-size and Jacobian control (Hairer & Wanner II, sec. IV.8).

The 3-stage Radau IIA tableau (``rn.methods.get("radau3")``) solves for the
stage increments ``Z_i = Y_i - y``::

    Z = h (A kron I) F(Z),    F_i = f(t + c_i h, y + Z_i).

Multiplying by ``(h A)^{-1}`` and writing ``A^{-1} = T Lambda T^{-1}`` (one
real eigenvalue ``mu``, one complex pair ``a +- i b``), the simplified Newton
iteration for ``W = T^{-1} Z`` splits into one real and one complex ``n x n``
system::

    (mu/h I - J) dW_1 = r_1,    ((a - i b)/h I - J) (dW_2 + i dW_3) = r_2 + i r_3,

``r = T^{-1} F - Lambda W / h``.  Everything above is computed here from the
tableau (eigenvectors by numpy), not typed in.

Error estimate (HW II, eq. IV.8.19-8.20): an embedded formula of order 3,
``y_hat = y + h (gamma_0 f(t, y) + sum_i b_hat_i F_i)`` with
``gamma_0 = 1/mu`` so that the filtered estimate
``err = (I - h gamma_0 J)^{-1} (gamma_0 h f(t, y) + (b_hat - b)^T A^{-1} Z)``
reuses the real LU: ``I - h gamma_0 J = (h / mu) (mu/h I - J)``, so
``err = (mu/h I - J)^{-1} (f(t, y) + (mu/h) (b_hat - b)^T A^{-1} Z)``.  After a rejection or on the first step a too large
estimate is filtered once more with ``f(t, y + err)``.

Heuristics (HW II, sec. IV.8): Newton stops when ``eta ||dW|| <= fnewt``,
``fnewt = max(10 eps / rtol, min(0.03, rtol^(1/2)))``, where
``eta = theta / (1 - theta)`` comes from the previous solve on the first
iteration (so a step may need a single iteration); a contraction
``theta >= 0.99`` or a predicted miss of ``fnewt`` within 7 iterations
rejects the step early; ``J`` is kept while ``theta <= 0.001``; a new ``h``
within ``[1, 1.2] h`` is not taken, so that the LU factorisations are kept;
the safety factor falls with the number of Newton iterations; the step-size
controller is Gustafsson's predictive one (:class:`robonum.StepController`
with ``predictive=True``).
"""
from __future__ import annotations

import numpy as np
from scipy.linalg import lapack

from .. import methods
from ..control import StepController
from ..dense import CollocationPiece
from ..errors import NonlinearSolveError
from .base import Stepper, check_h

_EPS = np.finfo(float).eps
NIT = 7                 # Newton iterations per step
THET = 1e-3             # keep J while the contraction rate stays below this
KEEP_H = (1.0, 1.2)     # a proposed h/h_old in this band keeps h (and the LUs)
PREDICT = True


def _constants():
    tab = methods.get("radau3")
    A, c, b = tab.A, tab.c, tab.b
    Ainv = np.linalg.inv(A)
    lam, V = np.linalg.eig(Ainv)
    ir = int(np.argmin(np.abs(lam.imag)))
    ic = int(np.argmax(lam.imag))
    T = np.column_stack([V[:, ir].real, V[:, ic].real, V[:, ic].imag])
    Tinv = np.linalg.inv(T)
    Lam = Tinv @ Ainv @ T
    mu, a, bb = Lam[0, 0], Lam[1, 1], Lam[1, 2]
    assert abs(Lam[2, 1] + bb) < 1e-10 and abs(Lam[2, 2] - a) < 1e-10
    gamma0 = 1.0 / mu
    b_hat = np.linalg.solve(np.vstack([np.ones(3), c, c * c]), [1.0 - gamma0, 0.5, 1.0 / 3.0])
    e = (b_hat - b) @ Ainv                     # err = ... gamma0 h f0 + e @ Z
    Vinv = np.linalg.inv(np.vander(c, 4, increasing=True)[:, 1:])   # Z -> cubic coefficients
    return dict(A=A, c=c, T=T, Tinv=Tinv, mu=mu, kappa=complex(a, -bb), e=e, Vinv=Vinv,
                tic=Tinv[1] + 1j * Tinv[2])


_C = _constants()


def transformed_constants() -> dict:
    """Copies of the constants above (``c``, ``T``, ``Tinv``, ``mu``, ``kappa``, ``e``, ``Vinv`` ...),
    for other implementations of the same method (``robonum.fast``)."""
    return {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in _C.items()}


def _rms(v) -> float:
    v = v.ravel()
    return float(np.sqrt(np.dot(v, v) / v.size))


class _State:
    def __init__(self):
        self.J = None
        self.J_fresh = False         # J taken at the start of the current step
        self.need_jac = True
        self.lu_h = None
        self.lu = None
        self.f0 = None               # f at the start of the step
        self.f0_t = None
        self.poly = None             # (t_a, h_a, y_a, Q) of the last accepted step
        self.faccon = 1.0
        self.theta = THET
        self.first = True
        self.rejected = False
        self.nit_used = 0
        self.fail_factor = 0.5
        self.pending = None


class Radau5(Stepper):
    """Adaptive 3-stage Radau IIA (order 5, L-stable) with an embedded order-3 estimate.

    Use with the adaptive driver: ``rn.solve_ivp(f, t_span, y0, method="radau5")`` or
    ``rn.integrate(problem, Radau5(), rtol=..., atol=...)``.  Equal steps are
    refused: the stepper's Newton tolerance and Jacobian reuse are tied to ``rtol``.
    Reference: Hairer & Wanner, *Solving ODEs II*, sec. IV.8 (code RADAU5).
    """

    name = "Radau IIA 5 (adaptive)"
    order = 5
    error_order = 3
    initial_order = 3

    def __init__(self):
        self.rtol, self.atol = 1e-6, 1e-9

    def set_tolerances(self, rtol, atol):
        self.rtol, self.atol = float(rtol), float(atol)
        self.fnewt = max(10 * _EPS / self.rtol, min(0.03, self.rtol ** 0.5))

    def default_controller(self) -> StepController:
        return StepController(4, safety=0.9, fac_min=0.2, fac_max=8.0, predictive=True)

    def init(self, work, t0, y0, h):
        check_h(h)
        if not hasattr(self, "fnewt"):
            self.set_tolerances(self.rtol, self.atol)
        return _State()

    def seed(self, state, t, y, fy):
        state.f0, state.f0_t = fy, t

    # -- one step -------------------------------------------------------------
    def _factor(self, work, state, h):
        J, n = state.J, state.J.shape[0]
        eye = np.eye(n)
        state.lu = (work.lu_factor(_C["mu"] / h * eye - J),
                    work.lu_factor(_C["kappa"] / h * eye - J))
        state.lu_h = h

    def _guess(self, state, t, y, h):
        if state.poly is None:
            return np.zeros((3, y.size))
        t_a, h_a, y_a, Q = state.poly
        s = (t + _C["c"] * h - t_a) / h_a
        return y_a + ((s[:, None] * Q[2] + Q[1]) * s[:, None] + Q[0]) * s[:, None] - y  # Horner

    def _newton(self, work, state, t, y, h, scale):
        ch = t + _C["c"] * h
        Z = self._guess(state, t, y, h)
        W = _C["Tinv"] @ Z
        (lu_r, piv_r), (lu_c, piv_c) = state.lu
        mu_h, ka_h = _C["mu"] / h, _C["kappa"] / h
        F, dW = np.empty_like(Z), np.empty_like(Z)
        faccon = max(state.faccon, _EPS) ** 0.8
        theta, dyno_old, thq_old = THET, None, None
        for k in range(1, NIT + 1):
            for i in range(3):
                F[i] = work.f(ch[i], y + Z[i])
            work.n_newton += 1
            r0 = _C["Tinv"][0] @ F - mu_h * W[0]
            rc = _C["tic"] @ F - ka_h * (W[1] + 1j * W[2])
            d0 = lapack.dgetrs(lu_r, piv_r, r0)[0]
            dc = lapack.zgetrs(lu_c, piv_c, rc)[0]
            dW[0], dW[1], dW[2] = d0, dc.real, dc.imag
            dyno = _rms(dW / scale)
            if not np.isfinite(dyno):
                return None, k, 0.5
            if dyno_old is not None:
                thq = dyno / dyno_old
                theta = thq if thq_old is None else np.sqrt(thq * thq_old)
                thq_old = thq
                if theta >= 0.99:
                    return None, k, 0.5
                faccon = theta / (1.0 - theta)
                predicted = faccon * dyno * theta ** (NIT - 1 - k) / self.fnewt
                if PREDICT and predicted >= 1.0:           # will not converge in time: smaller h
                    q = max(1e-4, min(20.0, predicted))
                    return None, k, 0.8 * q ** (-1.0 / (4 + NIT - 1 - k))
            dyno_old = max(dyno, _EPS)
            W += dW
            Z = _C["T"] @ W
            if faccon * dyno <= self.fnewt:
                state.faccon, state.theta = faccon, theta
                return Z, k, None
        return None, NIT, 0.5

    def step(self, work, t, y, h, state):
        h = check_h(h)
        if state.f0 is None or state.f0_t != t:
            state.f0, state.f0_t = work.f(t, y), t
        for attempt in (0, 1):
            if state.J is None or state.need_jac:
                state.J, state.J_fresh, state.need_jac = work.jac(t, y, state.f0), True, False
                state.lu = None
            if state.lu is None or state.lu_h != h:
                self._factor(work, state, h)
            scale = self.atol + self.rtol * np.abs(y)
            Z, nit, fail = self._newton(work, state, t, y, h, scale)
            if Z is not None:
                break
            state.faccon = 1.0
            if attempt == 0 and not state.J_fresh:       # old J: refresh it, same h
                state.need_jac = True
                continue
            state.fail_factor = fail
            state.need_jac = not state.J_fresh
            raise NonlinearSolveError(f"simplified Newton failed at t = {t:g} (h = {h:.3g})",
                                      nit, float("inf"))
        y_new = y + Z[2]
        err = self._error(work, state, t, y, y_new, h, Z)
        state.nit_used, state.pending = nit, (t, h, y, Z, y_new)
        return y_new, err, state

    def _error(self, work, state, t, y, y_new, h, Z):
        lu_r, piv_r = state.lu[0]
        ez = (_C["mu"] / h) * (_C["e"] @ Z)
        err = lapack.dgetrs(lu_r, piv_r, state.f0 + ez)[0]
        if state.first or state.rejected:
            scale = self.atol + self.rtol * np.maximum(np.abs(y), np.abs(y_new))
            if _rms(err / scale) >= 1.0:
                f1 = work.f(t, y + err)
                err = lapack.dgetrs(lu_r, piv_r, f1 + ez)[0]
        return err

    # -- accept / reject: called by the adaptive driver ------------------------
    def adapt_step(self, controller, work, h, err_norm, state):
        """``(accepted, h_next)``; commits the step (dense polynomial, ``f`` at the new point)."""
        if not np.isfinite(err_norm):                       # Newton failed
            state.rejected = True
            controller.adapt(h, np.inf)                     # the controller hears of it
            return False, h * state.fail_factor
        safety = 0.9 * (1 + 2 * NIT) / (state.nit_used + 2 * NIT)
        accepted, h_next = controller.adapt(h, err_norm, safety=min(0.9, safety))
        if not accepted:
            if state.first:
                h_next = 0.1 * h
            state.rejected = True
            state.need_jac = not state.J_fresh
            return False, h_next
        t, h, y, Z, y_new = state.pending
        state.poly = (t, h, y, _C["Vinv"] @ Z)
        state.f0, state.f0_t = work.f(t + h, y_new), t + h
        state.first = state.rejected = False
        state.J_fresh = False
        state.need_jac = state.theta > THET
        if not state.need_jac and KEEP_H[0] <= h_next / h <= KEEP_H[1]:
            h_next = h
        return True, h_next

    def interpolant(self, state):
        """The collocation polynomial of the last accepted step, for dense output."""
        return CollocationPiece(*state.poly)
