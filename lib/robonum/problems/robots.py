"""Robot-flavoured stiff systems (seed ch. 7.50, sec. 2): a flexible joint,
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
import scipy.linalg

from .. import _validate as check
from ..problem import ODEProblem


def _state(name: str, y0, n: int) -> np.ndarray:
    y0 = check.finite_vector(name, y0)
    if y0.size != n:
        raise ValueError(f"{name} must have {n} components, got {y0.size}")
    return y0


def flexible_joint(J_link=0.05, J_motor=0.01, K=1e4, D=2.0, b_link=0.0, b_motor=0.05,
                   mgd=1.962, tau=0.0, y0=(0.5, 0.5, 0.0, 0.0), t_span=(0.0, 2.0)) -> ODEProblem:
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
    ``≈ -D/(2 J_eff)``, so the real-part ratio ρ of seed §1.1 does not grow
    with ``K`` while the modulus ratio does.  Reference: Spong, Hutchinson &
    Vidyasagar, *Robot Modeling and Control*, sec. on flexible joints.
    """
    Jl, Jm, K = check.positive("J_link", J_link), check.positive("J_motor", J_motor), check.positive("K", K)
    D = check.positive("D", D, allow_zero=True)
    bl = check.positive("b_link", b_link, allow_zero=True)
    bm = check.positive("b_motor", b_motor, allow_zero=True)
    mgd, tau = check.positive("mgd", mgd, allow_zero=True), check.real("tau", tau)
    y0 = _state("y0", y0, 4)

    def f(t, y):
        ql, qm, wl, wm = y
        spring = K * (qm - ql) + D * (wm - wl)
        return np.array([wl, wm, (spring - bl * wl - mgd * math.sin(ql)) / Jl,
                         (-spring - bm * wm + tau) / Jm])

    def jac(t, y):
        g = mgd * math.cos(y[0])
        return np.array([[0.0, 0.0, 1.0, 0.0],
                         [0.0, 0.0, 0.0, 1.0],
                         [-(K + g) / Jl, K / Jl, -(D + bl) / Jl, D / Jl],
                         [K / Jm, -K / Jm, D / Jm, -(D + bm) / Jm]])

    params = {"J_link_kgm2": Jl, "J_motor_kgm2": Jm, "K_Nm_per_rad": K, "D_Nms_per_rad": D,
              "b_link_Nms_per_rad": bl, "b_motor_Nms_per_rad": bm, "mgd_Nm": mgd, "tau_Nm": tau}
    return ODEProblem(f, y0, t_span, jac=jac, name=f"flexible joint (K={K:g} N·m/rad)", params=params)


def penalty_contact(M=5.0, m_foot=0.1, k_leg=2000.0, c_leg=10.0, L0=0.3, k_c=5e5, c_c=50.0,
                    g=9.81, drop_height=0.1, t_span=(0.0, 1.0)) -> ODEProblem:
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
    """
    M, mf = check.positive("M", M), check.positive("m_foot", m_foot)
    kl, cl = check.positive("k_leg", k_leg), check.positive("c_leg", c_leg, allow_zero=True)
    L0, kc = check.positive("L0", L0), check.positive("k_c", k_c)
    cc, g = check.positive("c_c", c_c, allow_zero=True), check.positive("g", g, allow_zero=True)
    h0 = check.positive("drop_height", drop_height, allow_zero=True)

    def contact_pushes(x, v):
        return x < 0.0 and -kc * x - cc * v > 0.0

    def f(t, y):
        xb, xf, vb, vf = y
        s = kl * (xb - xf - L0) + cl * (vb - vf)
        Fc = -kc * xf - cc * vf if contact_pushes(xf, vf) else 0.0
        return np.array([vb, vf, -g - s / M, -g + (s + Fc) / mf])

    def jac(t, y):
        J = np.array([[0.0, 0.0, 1.0, 0.0],
                      [0.0, 0.0, 0.0, 1.0],
                      [-kl / M, kl / M, -cl / M, cl / M],
                      [kl / mf, -kl / mf, cl / mf, -cl / mf]])
        if contact_pushes(y[1], y[3]):
            J[3, 1] -= kc / mf
            J[3, 3] -= cc / mf
        return J

    params = {"M_kg": M, "m_foot_kg": mf, "k_leg_N_per_m": kl, "c_leg_Ns_per_m": cl,
              "L0_m": L0, "k_c_N_per_m": kc, "c_c_Ns_per_m": cc, "g_m_per_s2": g,
              "drop_height_m": h0}
    return ODEProblem(f, [h0 + L0, h0, 0.0, 0.0], t_span, jac=jac,
                      name=f"leg on penalty contact (k_c={kc:g} N/m)", params=params)


def dc_motor(R=2.0, L=0.5e-3, k=0.02, J=1e-5, b=1e-6, V=12.0, tau_load=0.0,
             y0=(0.0, 0.0), t_span=(0.0, 0.3)) -> ODEProblem:
    """Permanent-magnet DC motor with its electrical dynamics; state ``(i, ω)`` [A, rad/s].

    ``L i' = V - R i - k ω``, ``J ω' = k i - b ω - τ_load`` (one constant ``k``
    serves as back-EMF [V·s/rad] and torque constant [N·m/A] in SI units).
    The system is linear, ``y' = A y + u`` with
    ``A = [[-R/L, -k/L], [k/J, -b/J]]``, so the exact solution is
    ``y(t) = y_ss + e^{A (t - t0)} (y0 - y_ss)``, ``y_ss = -A⁻¹ u``.
    Stiffness: when ``L/R ≪ τ_m = J R/k²`` the eigenvalues separate into
    ``λ_fast ≈ -R/L`` (electrical) and ``λ_slow ≈ -(b + k²/R)/J``
    (electromechanical), so ``ρ ≈ (R/L) / ((b + k²/R)/J)``.  Defaults (a
    small 12 V motor): ``L/R = 0.25 ms``, ``τ_m ≈ 50 ms``, ``ρ ≈ 197``;
    seed ch. 7.50 §2.3 says the electrical time constant is tens to hundreds
    of times smaller than the mechanical one.  Reference: Franklin, Powell &
    Emami-Naeini, *Feedback Control of Dynamic Systems*, ch. 2 (DC motor model).
    """
    R, L, k, J = (check.positive(n, v) for n, v in (("R", R), ("L", L), ("k", k), ("J", J)))
    b = check.positive("b", b, allow_zero=True)
    V, tl = check.real("V", V), check.real("tau_load", tau_load)
    y0 = _state("y0", y0, 2)
    t0, _ = check.interval("t_span", t_span)
    A = np.array([[-R / L, -k / L], [k / J, -b / J]])
    u = np.array([V / L, -tl / J])
    y_ss = np.linalg.solve(A, -u)        # det A = (R b + k²)/(L J) > 0 since k > 0

    def exact(t):
        ts = np.asarray(t, dtype=float)
        cols = [y_ss + scipy.linalg.expm(A * (s - t0)) @ (y0 - y_ss) for s in ts.reshape(-1)]
        out = np.stack(cols, axis=1)
        return out[:, 0] if ts.ndim == 0 else out

    params = {"R_ohm": R, "L_H": L, "k_Nm_per_A": k, "J_kgm2": J, "b_Nms_per_rad": b,
              "V_volt": V, "tau_load_Nm": tl}
    return ODEProblem(lambda t, y: A @ y + u, y0, t_span, jac=lambda t, y: A.copy(),
                      exact=exact, name="DC motor", params=params)
