"""A scalable stiff robot problem: a motor driving a chain of ``n`` elastic joints.

Used to measure how the cost of an implicit step grows with the dimension
(printed ch. 7.50 sec. 7.2: one ``n x n`` factorisation per SDIRK step against
the ``s n x s n`` system of a fully implicit method).  ``n = 1`` is exactly
:func:`robonum.problems.flexible_joint` (Spong's single elastic joint) with
the state reordered.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from ..problem import ODEProblem
from . import _checks

MAX_LINKS = 200  # state size 2 (n + 1) <= 402; a 3-stage Radau LU of (3 * 402)^2 is 12 MB
MAX_SPAN, _WHY = _checks.ROBOT_SPAN, _checks.ROBOT_SPAN_WHY


_in = _checks.physical


def flexible_chain(
    n=4,
    J_link=0.05,
    J_motor=0.01,
    K=1e4,
    K3=0.0,
    D=2.0,
    b_link=0.0,
    b_motor=0.05,
    mgd=1.962,
    tau=0.0,
    q0=0.5,
    twist=0.0,
    t_span=(0.0, 2.0),
) -> ODEProblem:
    """A motor driving ``n`` links in series through ``n`` elastic joints.

    Body 0 is the motor rotor, bodies ``1..n`` the links; joint ``j`` (a
    harmonic drive or a series-elastic module: spring ``K``, hardening ``K3``,
    damper ``D``) couples body ``j-1`` to body ``j``.  Each link swings about
    its joint axis under gravity (``mgd``: mass x g x distance to its centre
    of mass); as in Spong's model of one elastic joint, the axes are parallel
    and the links' inertial coupling is neglected, so body ``i`` obeys::

        J_i ω_i' = s_{i+1} - s_i - b_i ω_i - g_i(q_i) + τ_i,
        s_j = K δ_j + K3 δ_j³ + D (ω_j - ω_{j-1}),   δ_j = q_j - q_{j-1}   (s_0 = s_{n+1} = 0),

    with ``J_0 = J_motor``, ``b_0 = b_motor``, ``g_0 = 0``, ``τ_0 = tau`` and
    ``J_i = J_link``, ``b_i = b_link``, ``g_i = mgd sin q_i``, ``τ_i = 0``.
    State ``y = (q_0 .. q_n, ω_0 .. ω_n)`` [rad, rad/s], size ``N = 2 (n + 1)``;
    start at rest with ``q_i = q0 + i twist`` (every joint twisted by ``twist``).
    ``K3 > 0`` is the stiffening of a harmonic drive, whose torsional stiffness
    grows with the twist (Tuttle & Seering, IEEE Trans. Robot. Autom. 12(3),
    1996): the tangent stiffness is ``K + 3 K3 δ²``, doubled at
    ``δ = 1 mrad`` by ``K3 ≈ 3e9 N·m/rad³`` with the default ``K``.

    Jacobian (analytic, and its pattern as ``jac_sparsity``: four tridiagonal or
    empty blocks, 6 column groups for any ``n``): ``[[0, I], [-M⁻¹ (L(k) + G(q)), -M⁻¹ (D L(1) + B)]]`` with
    ``L(k)`` the path Laplacian weighted by the joints' tangent stiffness
    ``k_j = K + 3 K3 δ_j²`` (tridiagonal), ``M = diag(J_i)``,
    ``G = diag(mgd cos q_i)``, ``B = diag(b_i)``.  Stiffness: by Gershgorin
    the undamped frequencies satisfy ``ω² <= max(2 k/J_motor, (4 k + mgd)/J_link)``;
    the slowest mode is the whole chain swinging, ``|λ| ≈ sqrt(n mgd cos q0 /
    (J_motor + n J_link))``.  Defaults (``K = 10⁴ N·m/rad``, ``n = 4``): fast
    ``|λ| ≈ 1.1e3`` vs slow ``≈ 5.7 rad/s``.  With ``D = b = τ = 0`` the energy
    :func:`chain_energy` is conserved.  Reference: Spong, Hutchinson &
    Vidyasagar, *Robot Modeling and Control* (flexible joints).

    Allowed (SI units): ``n`` in [1, 200] links (the LU of a 3-stage method
    stays small); the ranges of :func:`robonum.problems.flexible_joint` for
    ``J_link``, ``J_motor``, ``K``, ``D``, ``b_link``, ``b_motor``, ``mgd``,
    ``tau``; ``K3`` in [0, 1e13] N·m/rad³; ``|q0| <= 1e3`` rad; ``|twist| <= 1``
    rad per joint (far beyond what a real elastic joint survives); ``t1 - t0 <= 1e4`` s.
    """
    n = check.integer("n", n, 1, MAX_LINKS)
    Jl, Jm = _in("J_link", J_link, 1e-6, 1e3), _in("J_motor", J_motor, 1e-8, 10.0)
    K, D = _in("K", K, 1.0, 1e7), _in("D", D, 0.0, 1e4)
    K3 = _in("K3", K3, 0.0, 1e13)
    bl, bm = _in("b_link", b_link, 0.0, 1e3), _in("b_motor", b_motor, 0.0, 1e3)
    mgd, tau = _in("mgd", mgd, 0.0, 1e4), _in("tau", tau, -1e4, 1e4)
    q0, twist = _in("q0", q0, -1e3, 1e3), _in("twist", twist, -1.0, 1.0)
    _checks.span(t_span, MAX_SPAN, _WHY)
    m = n + 1
    inertia = np.full(m, Jl)
    inertia[0] = Jm
    friction = np.full(m, bl)
    friction[0] = bm
    links = slice(1, m)
    lap = 2.0 * np.eye(m) - np.eye(m, k=1) - np.eye(m, k=-1)
    lap[0, 0] = lap[-1, -1] = 1.0

    def f(t, y):
        q, w = y[:m], y[m:]
        d = np.diff(q)
        s = K * d + K3 * d**3 + D * np.diff(w)  # torque of joint j on body j (minus) / j-1 (plus)
        torque = -friction * w
        torque[:-1] += s
        torque[1:] -= s
        torque[0] += tau
        torque[links] -= mgd * np.sin(q[links])
        return np.concatenate([w, torque / inertia])

    def jac(t, y):
        k = K + 3.0 * K3 * np.diff(y[:m]) ** 2  # tangent stiffness of each joint
        stiff = np.diag(np.concatenate([k, [0.0]]) + np.concatenate([[0.0], k]))
        stiff -= np.diag(k, 1) + np.diag(k, -1)
        stiff[links, links] += np.diag(mgd * np.cos(y[links]))
        J = np.zeros((2 * m, 2 * m))
        J[:m, m:] = np.eye(m)
        J[m:, :m] = -stiff / inertia[:, None]
        J[m:, m:] = -(D * lap + np.diag(friction)) / inertia[:, None]
        return J

    y0 = np.concatenate([q0 + twist * np.arange(m), np.zeros(m)])
    params = {
        "n_links": n,
        "J_link_kgm2": Jl,
        "J_motor_kgm2": Jm,
        "K_Nm_per_rad": K,
        "K3_Nm_per_rad3": K3,
        "D_Nms_per_rad": D,
        "b_link_Nms_per_rad": bl,
        "b_motor_Nms_per_rad": bm,
        "mgd_Nm": mgd,
        "tau_Nm": tau,
    }
    band = lap != 0  # each body feels its neighbours only: tridiagonal blocks
    pattern = np.block([[np.zeros((m, m), bool), np.eye(m, dtype=bool)], [band, band]])
    return ODEProblem(
        f,
        y0,
        t_span,
        jac=jac,
        name=f"flexible chain (n={n}, K={K:g} N·m/rad)",
        params=params,
        jac_sparsity=pattern,
    )


def chain_energy(problem: ODEProblem, y) -> np.ndarray | float:
    """Energy of a :func:`flexible_chain` state: kinetic + springs + gravity,

        E = Σ J_i ω_i²/2 + Σ_j (K δ_j²/2 + K3 δ_j⁴/4) - mgd Σ_{i>=1} cos q_i.

    Conserved when ``D = b_link = b_motor = tau = 0``; with damping it can only
    decrease (``dE/dt = -Σ D (ω_j - ω_{j-1})² - Σ b_i ω_i² <= 0``, ``tau = 0``).
    ``y`` has shape ``(N,)`` or ``(N, k)``.
    """
    if not isinstance(problem, ODEProblem) or "n_links" not in (problem.params or {}):
        raise TypeError("problem must come from robonum.problems.flexible_chain")
    p, m = problem.params, problem.params["n_links"] + 1
    y = check.real_array("y", y, finite=False)
    if y.ndim not in (1, 2) or y.shape[0] != 2 * m:
        raise ValueError(f"y must have shape ({2 * m},) or ({2 * m}, k), got {y.shape}")
    q, w = y[:m], y[m:]
    inertia = np.full(m, p["J_link_kgm2"])
    inertia[0] = p["J_motor_kgm2"]
    inertia = inertia.reshape((m,) + (1,) * (y.ndim - 1))
    kinetic = 0.5 * np.sum(inertia * w * w, axis=0)
    d2 = np.diff(q, axis=0) ** 2
    spring = np.sum(0.5 * p["K_Nm_per_rad"] * d2 + 0.25 * p["K3_Nm_per_rad3"] * d2 * d2, axis=0)
    return kinetic + spring - p["mgd_Nm"] * np.sum(np.cos(q[1:]), axis=0)
