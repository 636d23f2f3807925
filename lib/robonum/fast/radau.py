"""Radau IIA compiled: the algorithm of :mod:`robonum.steppers.radau` (3 or 5 stages) with the adaptive driver's loop.

The Python stepper spends ~150 µs of interpreter time per step whatever
``f`` costs; on small stiff systems that is most of the run, and it is the
gap to LSODA's Fortran.  Here the same steps -- simplified Newton on the
transformed stage system, the embedded order-s estimate, Gustafsson's
predictive controller, Jacobian reuse while ``theta <= 0.001``, keeping
``h`` (and the LU factors) for ``h_new/h in [1, 1.2]`` -- run as one
compiled loop that calls a compiled ``f``.  One compiled loop serves both
stage counts: the method arrives as data, the tuple :func:`.radau_method.method_constants`
builds.  The constants (``T``, ``Lambda``, ``b_hat``, the collocation basis,
the Newton iteration cap, the controller's exponent) are the Python stepper's,
computed from the Radau IIA tableau; the controller's settings are read from it,
and the rules (Newton's tests, the safety factor, keeping ``h``, the first guess,
Jacobian reuse, the step-size factor) are the stepper's own functions compiled, so
the two paths cannot drift apart.  Differences are at rounding
level (a different LU and summation order), which can flip a borderline
accept/reject and so change the counts slightly.

Reference: Hairer & Wanner, *Solving ODEs II*, sec. IV.8 (code RADAU5); Hairer & Wanner,
J. Comput. Appl. Math. 111 (1999) (code RADAU).
"""

from __future__ import annotations

import math

import numba
import numpy as np

from ..control import ERR_ACC_FLOOR, step_factor
from ..steppers import radau_rules as rules
from ..steppers.radau_jac import THET, jac_reuse_theta, refresh_jac
from .driver import (
    DIVERGED,
    EPS,
    MAX_STEPS,
    SUCCESS,
    UNDERFLOW,
    call_f,
    initial_step,
    jacobian,
    rms,
    save_point,
    smallest_step,
)
from .linalg import lu_factor, lu_solve
from .radau_method import FAC_MAX, FAC_MIN, SAFETY

_step_factor = numba.njit(cache=False)(step_factor)  # the Python controller's rule, compiled
_jac_reuse_theta = numba.njit(cache=False)(jac_reuse_theta)  # RadauIIA's rules, compiled
_refresh_jac = numba.njit(cache=False)(refresh_jac)
# RadauIIA's Newton and step rules, compiled (robonum.steppers.radau_rules)
_carried_rate = numba.njit(cache=False)(rules.carried_rate)
_contraction = numba.njit(cache=False)(rules.contraction)
_converged = numba.njit(cache=False)(rules.converged)
_step_safety = numba.njit(cache=False)(rules.step_safety)
_kept_step = numba.njit(cache=False)(rules.kept_step)
_rejected_step = numba.njit(cache=False)(rules.rejected_step)
_stage_guess = numba.njit(cache=False)(rules.stage_guess)


@numba.njit(cache=False)
def _times(M, Z):
    """``M @ Z`` for the s x n stage arrays (loops: no BLAS call for an s x s matrix)."""
    out = np.zeros((M.shape[0], Z.shape[1]), dtype=Z.dtype)
    for i in range(M.shape[0]):
        for k in range(M.shape[1]):
            out[i] += M[i, k] * Z[k]
    return out


@numba.njit(cache=False)
def _factor(J, h, mu, kappas, cnt):
    """The real ``mu/h I - J`` and each complex ``kappa_j/h I - J``; ``ok`` False if one is singular."""
    n, p = J.shape[0], kappas.size
    Mr = -J.copy()
    for i in range(n):
        Mr[i, i] += mu / h
    cnt[2] += 1
    LUr, pr, ok = lu_factor(Mr)
    LUc, pc = np.empty((p, n, n), np.complex128), np.zeros((p, n), np.int64)
    for j in range(p):
        if not ok:
            break
        Mc = -J.astype(np.complex128)
        for i in range(n):
            Mc[i, i] += kappas[j] / h
        cnt[2] += 1
        L, pv, ok = lu_factor(Mc)
        LUc[j], pc[j] = L, pv
    return LUr, pr, LUc, pc, ok


@numba.njit(cache=False)
def _newton(f, t, y, h, Z, LUr, pr, LUc, pc, scale, faccon, fnewt, K, cnt):
    """Simplified Newton for ``W = T^-1 Z``; returns ``(Z, nit, fail, faccon, theta, code)``.

    ``fail`` is 0 on convergence, else the factor for ``h``; ``code`` reports
    a non-finite ``f``.  The iteration of ``RadauIIA._newton``, with its rules compiled.
    """
    c, T, Tinv, mu, kappas, nit_max, tics = K[0], K[1], K[2], K[3], K[4], K[7], K[10]
    s, n = c.size, y.size
    W = _times(Tinv, Z)
    F, dW = np.empty((s, n)), np.empty((s, n))
    faccon = _carried_rate(faccon)
    theta, dyno_old, thq_old = THET, -1.0, -1.0
    for k in range(1, nit_max + 1):
        for i in range(s):
            fi, code = call_f(f, t + c[i] * h, y + Z[i], cnt)
            F[i] = fi
            if code != SUCCESS:
                return Z, k, 0.0, faccon, theta, code
        cnt[3] += 1
        r0 = np.zeros(n)
        for i in range(s):
            r0 += Tinv[0, i] * F[i]
        dW[0] = lu_solve(LUr, pr, r0 - (mu / h) * W[0])
        for j in range(kappas.size):  # one complex system per conjugate pair
            rc = np.empty(n, np.complex128)
            for m in range(n):
                tf = 0j
                for i in range(s):
                    tf += tics[j, i] * F[i, m]
                rc[m] = tf - (kappas[j] / h) * complex(W[2 * j + 1, m], W[2 * j + 2, m])
            dc = lu_solve(LUc[j], pc[j], rc)
            dW[2 * j + 1], dW[2 * j + 2] = dc.real, dc.imag
        dyno = rms(dW, scale)
        theta, thq_old, faccon, fail = _contraction(
            dyno, dyno_old, thq_old, theta, faccon, k, nit_max, fnewt
        )
        if fail > 0.0:
            return Z, k, fail, faccon, theta, SUCCESS
        dyno_old = max(dyno, EPS)
        W += dW
        Z = _times(T, W)
        if _converged(faccon, dyno, fnewt):
            return Z, k, 0.0, faccon, theta, SUCCESS
    return Z, nit_max, rules.NEWTON_FAIL, faccon, theta, SUCCESS


@numba.njit(cache=False)
def _error(f, t, y, y_new, h, Z, f0, LUr, pr, again, atol, rtol, K, cnt):
    """The filtered estimate ``(mu/h I - J)^-1 (f0 + (mu/h) e^T Z)``, filtered once more if asked."""
    mu, e = K[3], K[5]
    eZ = np.zeros(y.size)
    for i in range(e.size):
        eZ += e[i] * Z[i]
    ez = (mu / h) * eZ
    err = lu_solve(LUr, pr, f0 + ez)
    if again and rms(err, atol + rtol * np.maximum(np.abs(y), np.abs(y_new))) >= 1.0:
        f1, code = call_f(f, t, y + err, cnt)
        if code != SUCCESS:
            return err, code
        err = lu_solve(LUr, pr, f1 + ez)
    return err, SUCCESS


@numba.njit(cache=False)
def _adapt(h, err, safe, ctl, q):
    """``StepController.adapt`` with RADAU's settings; ``ctl = [rejected, h_acc, err_acc]`` (0: none yet).

    The factor is :func:`robonum.control.step_factor`, compiled: the Python controller's own
    rule (I control, ``alpha = 1/q``, ``beta = 0``, with Gustafsson's prediction).
    """
    accepted = err <= 1.0
    factor = _step_factor(
        h, err, safe, 1.0 / q, 0.0, q, 1.0, ctl[1], ctl[2], ctl[0] > 0.0, FAC_MIN, FAC_MAX
    )
    if accepted:
        ctl[1], ctl[2] = h, max(err, ERR_ACC_FLOOR)
    ctl[0] = 0.0 if accepted else 1.0
    return accepted, h * factor


def radau_loop(f, jac, has_jac, t0, t1, y0, rtol, atol, h, max_step, max_steps, bound, K):
    """Adaptive Radau IIA (the stages ``K`` describes, :func:`.radau_method.method_constants`) from ``t0`` to ``t1``; ``h <= 0`` asks for the first-step formula.

    The scaled error ``||err / (atol + rtol max(|y|, |y_new|))||_rms <= 1``
    accepts a step (HNW I, eq. II.4.11), as in ``robonum.adaptive``.  Returns
    ``(T, Y, counts, code, t, h)``: the accepted points, ``[nfev, njev, nlu,
    n_newton, nsteps, nreject, nfev_jac]``, the outcome code and where the loop stopped.
    Compiled by :func:`robonum.fast.compile.kernel` (``f`` and ``jac`` as
    function pointers, so one compilation serves every problem).
    """
    n, mu, kappas, Vinv, nit_max, q, order = y0.size, K[3], K[4], K[6], K[7], K[8], K[9]
    s, p = K[0].size, kappas.size
    cnt = np.zeros(7, np.int64)
    T, Y, row = save_point(np.empty(1), np.empty((1, n)), 0, t0, y0)
    fnewt = max(10 * EPS / rtol, min(0.03, math.sqrt(rtol)))
    t, y = t0, y0.copy()
    f0, code = call_f(f, t, y, cnt)
    if code == SUCCESS and h <= 0.0:
        h, code = initial_step(f, t, y, f0, rtol, atol, order, max_step, cnt)
    f0_t, h_next = t, h
    J, have_J, need_jac, J_fresh = np.zeros((n, n)), False, True, False
    LUr, pr = np.empty((n, n)), np.zeros(n, np.int64)
    LUc, pc = np.empty((p, n, n), np.complex128), np.zeros((p, n), np.int64)
    lu_h = -1.0  # h of the factors; -1: none valid
    t_a, h_a, y_a, Q = t, 0.0, y, np.zeros((s, n))  # last step's collocation polynomial
    faccon, theta, first, rejected, nit_used = 1.0, THET, True, False, 0
    fail_factor = rules.NEWTON_FAIL
    thet = _jac_reuse_theta(has_jac, n)
    ctl = np.zeros(3)
    Z, y_new = np.zeros((s, n)), y
    while code == SUCCESS and t < t1:
        if cnt[4] + cnt[5] >= max_steps:
            code = MAX_STEPS
            break
        last = t + h >= t1 - 4 * EPS * max(abs(t1), 1.0)
        if last:
            h = t1 - t
        if f0_t != t:
            f0, code = call_f(f, t, y, cnt)
            f0_t = t
        converged = False
        scale = atol + rtol * np.abs(y)
        for attempt in range(2):  # a failure with an old J retries with a new one
            if code != SUCCESS:
                break
            if not have_J or need_jac:
                J, code = jacobian(f, jac, has_jac, t, y, f0, scale, h / mu, cnt)
                have_J, J_fresh, need_jac, lu_h = True, True, False, -1.0
                if code != SUCCESS:
                    break
            if lu_h != h:
                LUr, pr, LUc, pc, ok = _factor(J, h, mu, kappas, cnt)
                lu_h = h if ok else -1.0
                if not ok:  # singular: reject, as a failed solve
                    break
            Zg = _stage_guess(t, y, h, t_a, h_a, y_a, Q, K[0])
            Z, nit, fail, fc, th, code = _newton(
                f, t, y, h, Zg, LUr, pr, LUc, pc, scale, faccon, fnewt, K, cnt
            )
            if code == SUCCESS and fail == 0.0:
                converged, faccon, theta = True, fc, th
                break
            faccon = 1.0
            if attempt == 0 and not J_fresh:
                need_jac = True
                continue
            fail_factor, need_jac = fail, not J_fresh
            break
        if code != SUCCESS:
            break
        err_norm = math.inf
        if converged:
            y_new = y + Z[s - 1]
            err, code = _error(
                f, t, y, y_new, h, Z, f0, LUr, pr, first or rejected, atol, rtol, K, cnt
            )
            if code != SUCCESS:
                break
            nit_used = nit
            err_norm = rms(err, atol + rtol * np.maximum(np.abs(y), np.abs(y_new)))
            if not math.isfinite(err_norm):
                err_norm = math.inf
        finite = math.isfinite(err_norm)
        if not finite:  # Newton failed: the factor it proposed
            rejected = True
            _adapt(h, math.inf, SAFETY, ctl, q)
            accepted, h_next = False, h * fail_factor
        else:
            accepted, h_next = _adapt(h, err_norm, _step_safety(nit_used, nit_max), ctl, q)
        if accepted:
            t_a, h_a, y_a, Q = t, h, y, _times(Vinv, Z)
            f0, code = call_f(f, t + h, y_new, cnt)
            if code != SUCCESS:
                break
            f0_t, first, rejected, J_fresh = t + h, False, False, False
            need_jac = _refresh_jac(theta, nit_used, thet, has_jac, s)
            h_next = _kept_step(h_next, h, need_jac)  # h kept: the LU factors too
            t, y = (t1 if last else t + h), y_new
            cnt[4] += 1
            T, Y, row = save_point(T, Y, row, t, y)
            if not np.max(np.abs(y)) <= bound:
                code = DIVERGED
                break
        else:
            if finite:  # error too large (a failed Newton set its own)
                h_next = _rejected_step(h_next, h, first)
                need_jac = not J_fresh
            rejected = True
            cnt[5] += 1
        if h_next < smallest_step(t) and t < t1:
            code = UNDERFLOW
            break
        h = min(h_next, max_step)
    return T[:row], Y[:row], cnt, code, t, h_next
