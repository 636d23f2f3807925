"""Robot-flavoured stiff systems (printed ch. 7.50, sec. 2): a flexible joint,
a leg landing on penalty contact, and a DC motor with its electrical lag.

The default numbers are illustrative values of the order found in small
robot arms, legged robots and hobby-class DC motors; they are not the data
sheet of any particular product.  Each docstring derives the eigenvalues of
the Jacobian that make the system stiff, in the library's convention
(``y' = λy``, decaying modes have ``Re λ < 0``); use
:func:`robonum.problems.stiffness_ratio` to compute them.
"""

from __future__ import annotations

import math

import numpy as np

from ..problem import ODEProblem
from . import _checks

# No closed form for the first two; 1e4 s (almost 3 hours of a joint or motor
# whose fast mode is ~1 kHz, i.e. 1e7 fast periods) is far beyond any
# experiment.  The DC motor's exact e^{Aτ} is finite for any τ >= 0 (A is
# stable); the cap is the same for uniformity.
MAX_SPAN, _WHY = _checks.ROBOT_SPAN, _checks.ROBOT_SPAN_WHY


_in = _checks.physical


def flexible_joint(
    J_link=0.05,
    J_motor=0.01,
    K=1e4,
    D=2.0,
    b_link=0.0,
    b_motor=0.05,
    mgd=1.962,
    tau=0.0,
    y0=(0.5, 0.5, 0.0, 0.0),
    t_span=(0.0, 2.0),
) -> ODEProblem:
    """One elastic joint (Spong's model): motor and link coupled by a spring ``K``.

    State ``(q_l, q_m, ω_l, ω_m)`` [rad, rad, rad/s, rad/s]; ``q_l`` is
    measured from the downward vertical, ``δ = q_m - q_l`` is the spring twist::

        J_l ω_l' =  K δ + D δ' - b_l ω_l - mgd sin q_l
        J_m ω_m' = -K δ - D δ' - b_m ω_m + τ

    Stiffness.  Without friction and gravity, ``δ'' = -(K δ + D δ')/J_eff``
    with ``J_eff = J_l J_m / (J_l + J_m)``: a fast pair
    ``λ = -D/(2 J_eff) ± i sqrt(K/J_eff - (D/(2 J_eff))²)`` plus a double zero
    (free rigid rotation).  Gravity and friction turn the rigid mode into a
    slow pair with ``|λ| ≈ sqrt(mgd cos q_l / (J_l + J_m))`` and
    ``Re λ ≈ -(b_l + b_m) / (2 (J_l + J_m))``.  Defaults (``K = 10⁴ N·m/rad``,
    a harmonic-drive-class joint) give ``|λ_fast| ≈ 1095 rad/s`` vs.
    ``|λ_slow| ≈ 5.4 rad/s``.  Note: as ``K`` grows with fixed ``D``, only the
    imaginary part of the fast pair grows (∝ sqrt K); ``Re λ_fast`` stays
    ``≈ -D/(2 J_eff)``, so the real-part ratio ρ of printed §1.1 does not grow
    with ``K`` while the modulus ratio does.  Reference: Spong, Hutchinson &
    Vidyasagar, *Robot Modeling and Control*, sec. on flexible joints.

    Allowed (SI units): ``J_link`` in [1e-6, 1e3] kg·m² (a finger link to
    an industrial arm with payload); ``J_motor`` in [1e-8, 10] kg·m² (a
    micro-motor rotor to a large servo, reflected through the gear);
    ``K`` in [1, 1e7] N·m/rad (a soft series-elastic spring to a stiff
    harmonic drive); ``D`` in [0, 1e4] N·m·s/rad; ``b_link``, ``b_motor``
    in [0, 1e3] N·m·s/rad; ``mgd`` in [0, 1e4] N·m (200 kg at 5 m);
    ``|tau| <= 1e4`` N·m; ``y0``: ``|q_l|, |q_m| <= 1e3`` rad,
    ``|ω_l|, |ω_m| <= 1e4`` rad/s; ``t1 - t0 <= 1e4`` s.
    """
    Jl, Jm = _in("J_link", J_link, 1e-6, 1e3), _in("J_motor", J_motor, 1e-8, 10.0)
    K, D = _in("K", K, 1.0, 1e7), _in("D", D, 0.0, 1e4)
    bl, bm = _in("b_link", b_link, 0.0, 1e3), _in("b_motor", b_motor, 0.0, 1e3)
    mgd, tau = _in("mgd", mgd, 0.0, 1e4), _in("tau", tau, -1e4, 1e4)
    y0 = _checks.vector(
        "y0",
        y0,
        4,
        (1e3, 1e3, 1e4, 1e4),
        labels=("q_l [rad]", "q_m [rad]", "ω_l [rad/s]", "ω_m [rad/s]"),
    )
    _checks.span(t_span, MAX_SPAN, _WHY)

    def f(t, y):
        ql, qm, wl, wm = y
        spring = K * (qm - ql) + D * (wm - wl)
        return np.array(
            [wl, wm, (spring - bl * wl - mgd * math.sin(ql)) / Jl, (-spring - bm * wm + tau) / Jm]
        )

    def jac(t, y):
        g = mgd * math.cos(y[0])
        return np.array(
            [
                [0.0, 0.0, 1.0, 0.0],
                [0.0, 0.0, 0.0, 1.0],
                [-(K + g) / Jl, K / Jl, -(D + bl) / Jl, D / Jl],
                [K / Jm, -K / Jm, D / Jm, -(D + bm) / Jm],
            ]
        )

    params = {
        "J_link_kgm2": Jl,
        "J_motor_kgm2": Jm,
        "K_Nm_per_rad": K,
        "D_Nms_per_rad": D,
        "b_link_Nms_per_rad": bl,
        "b_motor_Nms_per_rad": bm,
        "mgd_Nm": mgd,
        "tau_Nm": tau,
    }
    return ODEProblem(
        f, y0, t_span, jac=jac, name=f"flexible joint (K={K:g} N·m/rad)", params=params
    )


def penalty_contact(
    M=5.0,
    m_foot=0.1,
    k_leg=2000.0,
    c_leg=10.0,
    L0=0.3,
    k_c=5e5,
    c_c=50.0,
    g=9.81,
    drop_height=0.1,
    t_span=(0.0, 1.0),
) -> ODEProblem:
    """A one-leg robot (body ``M`` on a spring-damper leg, light foot) dropped on penalty ground.

    State ``(x_b, x_f, v_b, v_f)`` [m, m, m/s, m/s], heights above the ground.
    The ground pushes only while the foot penetrates and never pulls::

        F_c = max(0, -k_c x_f - c_c v_f)  if x_f < 0, else 0
        M   v_b' = -M g   - s
        m_f v_f' = -m_f g + s + F_c,   s = k_leg (x_b - x_f - L0) + c_leg (v_b - v_f)

    The Jacobian is piecewise: the ``-k_c, -c_c`` entries appear only where
    ``F_c > 0`` (it jumps on the switching surface, so Newton and error
    control see a kink there).  Stiffness in contact (weak coupling,
    ``k_c ≫ k_leg``, ``m_f ≪ M``): fast foot-ground pair with
    ``|λ| ≈ sqrt((k_c + k_leg)/m_f)``, ``Re λ ≈ -(c_c + c_leg)/(2 m_f)``; slow
    body-on-leg pair with ``|λ| ≈ sqrt(k_leg/M)``, ``Re λ ≈ -c_leg/(2M)``.
    Defaults: ``≈ 2240`` vs. ``20 rad/s``.  A single mass on penalty ground
    would have one conjugate pair in contact (ρ = 1 by the eigenvalue
    ratio), which is why the leg is modelled: its stiffness is the contact
    time scale ``sqrt(m/k_c)`` against the slow motion.  In flight the
    Jacobian has a double zero eigenvalue (free fall), so ρ is infinite.
    Start: at rest, leg unstretched, foot ``drop_height`` above the ground.
    Reference: penalty contact as in Featherstone, *Rigid Body Dynamics
    Algorithms* (chapter on contact and impact).

    Allowed (SI units): ``M`` in [1e-2, 1e3] kg (a toy hopper to a heavy
    legged robot); ``m_foot`` in [1e-4, 1e2] kg; ``k_leg`` in [1, 1e7] N/m;
    ``c_leg`` in [0, 1e5] N·s/m; ``L0`` in [1e-3, 10] m; ``k_c`` in
    [1e2, 1e10] N/m (soft foam to steel on concrete); ``c_c`` in [0, 1e6]
    N·s/m; ``g`` in [0, 100] m/s² (0: no gravity; Jupiter is 24.8);
    ``drop_height`` in [0, 100] m; ``t1 - t0 <= 1e4`` s.
    """
    M, mf = _in("M", M, 1e-2, 1e3), _in("m_foot", m_foot, 1e-4, 1e2)
    kl, cl = _in("k_leg", k_leg, 1.0, 1e7), _in("c_leg", c_leg, 0.0, 1e5)
    L0, kc = _in("L0", L0, 1e-3, 10.0), _in("k_c", k_c, 1e2, 1e10)
    cc, g = _in("c_c", c_c, 0.0, 1e6), _in("g", g, 0.0, 100.0)
    h0 = _in("drop_height", drop_height, 0.0, 100.0)
    _checks.span(t_span, MAX_SPAN, _WHY)

    # The contact test is written out in f and jac (not a shared helper) so that
    # numba can compile both as they are (robonum.fast.solve_ivp).
    def f(t, y):
        xb, xf, vb, vf = y
        s = kl * (xb - xf - L0) + cl * (vb - vf)
        Fc = -kc * xf - cc * vf if xf < 0.0 and -kc * xf - cc * vf > 0.0 else 0.0
        return np.array([vb, vf, -g - s / M, -g + (s + Fc) / mf])

    def jac(t, y):
        J = np.array(
            [
                [0.0, 0.0, 1.0, 0.0],
                [0.0, 0.0, 0.0, 1.0],
                [-kl / M, kl / M, -cl / M, cl / M],
                [kl / mf, -kl / mf, cl / mf, -cl / mf],
            ]
        )
        if y[1] < 0.0 and -kc * y[1] - cc * y[3] > 0.0:  # the ground pushes (as in f)
            J[3, 1] -= kc / mf
            J[3, 3] -= cc / mf
        return J

    params = {
        "M_kg": M,
        "m_foot_kg": mf,
        "k_leg_N_per_m": kl,
        "c_leg_Ns_per_m": cl,
        "L0_m": L0,
        "k_c_N_per_m": kc,
        "c_c_Ns_per_m": cc,
        "g_m_per_s2": g,
        "drop_height_m": h0,
    }
    return ODEProblem(
        f,
        [h0 + L0, h0, 0.0, 0.0],
        t_span,
        jac=jac,
        name=f"leg on penalty contact (k_c={kc:g} N/m)",
        params=params,
    )


def _expm2_times(A: np.ndarray, tau: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``e^{Aτ} v`` for a real 2x2 ``A`` and every ``τ >= 0``; shape ``(2,) + τ.shape``.

    With ``s = tr A / 2``, ``h`` = half the difference of the diagonal and
    ``d² = h² + A01 A10`` (so ``A - sI`` squares to ``d² I``; computed this
    way it has no cancellation between ``s²`` and ``det A``):
    ``e^{Aτ} = c1 I + c2 (A - sI)`` with ``c1 = e^{sτ} cosh dτ``,
    ``c2 = e^{sτ} sinh(dτ)/d`` (Cayley-Hamilton; Moler & Van Loan,
    "Nineteen dubious ways to compute the exponential of a matrix", 2003).
    For real ``d`` the eigenvalue of smaller modulus is ``det A`` divided by
    the other (``s + d`` cancels when the system is stiff) and
    ``1 - e^{-2dτ}`` is ``-expm1``;
    for imaginary ``d = iω``, ``c1 = e^{sτ} cos ωτ``, ``c2 = e^{sτ} sin(ωτ)/ω``.
    Unlike ``scipy.linalg.expm`` this costs a few exponentials per time,
    however large ``‖Aτ‖`` is.
    """
    s = 0.5 * (A[0, 0] + A[1, 1])
    h = 0.5 * (A[0, 0] - A[1, 1])
    d2 = h * h + A[0, 1] * A[1, 0]
    if d2 > 0:  # real eigenvalues s ± d
        d = math.sqrt(d2)
        det = A[0, 0] * A[1, 1] - A[0, 1] * A[1, 0]
        if s <= 0:  # s - d is accurate, s + d = det/(s - d) without cancellation
            lo = s - d
            hi = det / lo
        else:
            hi = s + d
            lo = det / hi
        e_hi, e_lo = np.exp(hi * tau), np.exp(lo * tau)
        c1 = 0.5 * (e_hi + e_lo)
        c2 = e_hi * -np.expm1(-2.0 * d * tau) / (2.0 * d)  # (e_hi - e_lo)/(2d)
    elif d2 < 0:
        w = math.sqrt(-d2)
        e = np.exp(s * tau)
        c1, c2 = e * np.cos(w * tau), e * tau * np.sinc(w * tau / math.pi)  # sin(wτ)/w
    else:
        e = np.exp(s * tau)
        c1, c2 = e, e * tau
    Bv = (A - s * np.eye(2)) @ v
    return np.multiply.outer(v, c1) + np.multiply.outer(Bv, c2)


def dc_motor(
    R=2.0, L=0.5e-3, k=0.02, J=1e-5, b=1e-6, V=12.0, tau_load=0.0, y0=(0.0, 0.0), t_span=(0.0, 0.3)
) -> ODEProblem:
    """Permanent-magnet DC motor with its electrical dynamics; state ``(i, ω)`` [A, rad/s].

    ``L i' = V - R i - k ω``, ``J ω' = k i - b ω - τ_load`` (one constant ``k``
    serves as back-EMF [V·s/rad] and torque constant [N·m/A] in SI units).
    The system is linear, ``y' = A y + u`` with
    ``A = [[-R/L, -k/L], [k/J, -b/J]]``, so the exact solution is
    ``y(t) = y_ss + e^{A (t - t0)} (y0 - y_ss)``, ``y_ss = -A⁻¹ u`` (``e^{Aτ}``
    in closed form, :func:`_expm2_times`).
    Stiffness: when ``L/R ≪ τ_m = J R/k²`` the eigenvalues separate into
    ``λ_fast ≈ -R/L`` (electrical) and ``λ_slow ≈ -(b + k²/R)/J``
    (electromechanical), so ``ρ ≈ (R/L) / ((b + k²/R)/J)``.  Defaults (a
    small 12 V motor): ``L/R = 0.25 ms``, ``τ_m ≈ 50 ms``, ``ρ ≈ 197``;
    printed ch. 7.50 §2.3 says the electrical time constant is tens to hundreds
    of times smaller than the mechanical one.  Reference: Franklin, Powell &
    Emami-Naeini, *Feedback Control of Dynamic Systems*, ch. 2 (DC motor model).

    Allowed (SI units): ``R`` in [1e-3, 1e3] Ω; ``L`` in [1e-7, 1] H (a
    coreless micro-motor to a large wound-field machine); ``k`` in
    [1e-4, 10] N·m/A; ``J`` in [1e-9, 10] kg·m²; ``b`` in [0, 10]
    N·m·s/rad; ``|V| <= 1e3`` V; ``|tau_load| <= 1e3`` N·m; ``y0``:
    ``|i| <= 1e4`` A, ``|ω| <= 1e5`` rad/s (≈ 1e6 rpm); ``t1 - t0 <= 1e4``
    s, and ``exact(t)`` accepts ``t`` in ``[t0, t0 + 1e4]``.  At every
    combination ``A`` is stable (trace < 0, det > 0), so ``e^{Aτ}`` and the
    steady state are finite.
    """
    R, L = _in("R", R, 1e-3, 1e3), _in("L", L, 1e-7, 1.0)
    k, J = _in("k", k, 1e-4, 10.0), _in("J", J, 1e-9, 10.0)
    b = _in("b", b, 0.0, 10.0)
    V, tl = _in("V", V, -1e3, 1e3), _in("tau_load", tau_load, -1e3, 1e3)
    y0 = _checks.vector("y0", y0, 2, (1e4, 1e5), labels=("i [A]", "ω [rad/s]"))
    t0, _ = _checks.span(t_span, MAX_SPAN, _WHY)
    A = np.array([[-R / L, -k / L], [k / J, -b / J]])
    u = np.array([V / L, -tl / J])
    y_ss = np.linalg.solve(A, -u)  # det A = (R b + k²)/(L J) > 0 since k > 0

    def exact(t):
        tau = _checks.times(t, t0, MAX_SPAN) - t0
        return y_ss.reshape(2, *([1] * tau.ndim)) + _expm2_times(A, tau, y0 - y_ss)

    params = {
        "R_ohm": R,
        "L_H": L,
        "k_Nm_per_A": k,
        "J_kgm2": J,
        "b_Nms_per_rad": b,
        "V_volt": V,
        "tau_load_Nm": tl,
    }
    return ODEProblem(
        lambda t, y: A @ y + u,
        y0,
        t_span,
        jac=lambda t, y: A.copy(),
        exact=exact,
        name="DC motor",
        params=params,
    )
