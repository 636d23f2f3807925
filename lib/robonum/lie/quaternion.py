"""Unit quaternions for attitude, as robot software stores them: ``q = (w, x, y, z)``.

Hamilton convention, scalar first (Eigen's and ROS's storage differ only in order:
ROS ``geometry_msgs/Quaternion`` and SciPy put the scalar last).  A unit ``q``
represents the rotation ``R(q)``; body-frame kinematics ``q̇ = ½ q ⊗ (0, ω)``.
Reference: Solà, Deray & Atchuthan (2018), sec. 4 and app. B (S³ as a Lie group);
Solà, "Quaternion kinematics for the error-state Kalman filter" (2017).

:func:`integrate_quaternion` integrates ``q̇ = ½ q ⊗ (0, ω(t))`` four ways --
``"euler"``, ``"euler_normalized"``, ``"rk4"`` (on the 4 entries) and ``"exp"``
(``q ← q ⊗ Exp(h ω(t + h/2))``) -- and returns a :class:`robonum.Solution` whose
``y`` has shape ``(4, len(t))``.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _validate as check
from ..loop import run
from ..policy import EqualSteps, equal_steps
from ..problem import ODEProblem
from ..steppers import ExplicitRK, Stepper
from . import so3
from .rotation_integrators import _power_minus_one, imag_axis_gain

METHODS = ("euler", "euler_normalized", "rk4", "exp")
MAX_QUATERNION_STEPS = 200_000


def _quat(name, q) -> np.ndarray:
    q = check.real_array(name, q)
    if q.shape != (4,):
        raise ValueError(f"{name} must have shape (4,) (w, x, y, z), got {q.shape}")
    if float(np.max(np.abs(q))) > so3.MAX_MATRIX_ENTRY:
        raise ValueError(f"{name} must have entries |x| <= {so3.MAX_MATRIX_ENTRY:g}")
    return q


def multiply(p, q) -> np.ndarray:
    """Hamilton product ``p ⊗ q`` = ``(p_w q_w - p_v·q_v, p_w q_v + q_w p_v + p_v × q_v)``."""
    return _mul(_quat("p", p), _quat("q", q))


def _mul(p, q):
    """The product written out on floats (np.cross and concatenate cost ~10x more)."""
    pw, px, py, pz = p.tolist()
    qw, qx, qy, qz = q.tolist()
    return np.array(
        [
            pw * qw - px * qx - py * qy - pz * qz,
            pw * qx + px * qw + py * qz - pz * qy,
            pw * qy - px * qz + py * qw + pz * qx,
            pw * qz + px * qy - py * qx + pz * qw,
        ]
    )


def _pure(w):
    """The pure quaternion ``(0, ω)``."""
    return np.array([0.0, w[0], w[1], w[2]])


def exp(w) -> np.ndarray:
    """``Exp(ω) = (cos(θ/2), sin(θ/2) ω/θ)``, ``θ = |ω|``: the unit quaternion of the rotation
    vector ``ω`` (the same rotation as :func:`robonum.lie.exp`)."""
    w = so3._vec3("w", w)
    if float(np.max(np.abs(w))) > so3.MAX_ANGLE_RATE:
        raise ValueError(
            f"w must have |w_i| <= {so3.MAX_ANGLE_RATE:g}, got {np.max(np.abs(w)):.3g}"
        )
    return _exp(w)


def _exp(w):
    theta = float(np.sqrt(w @ w))
    half = 0.5 * theta
    # sin(θ/2)/θ; below 1e-4 its series 1/2 - θ²/48 (+θ⁴/3840 < 1e-19) avoids 0/0
    s = 0.5 - theta * theta / 48.0 if theta < 1e-4 else math.sin(half) / theta
    return np.concatenate(([math.cos(half)], s * w))


def to_matrix(q) -> np.ndarray:
    """The rotation matrix of ``q/|q|`` (a non-unit ``q`` is normalised first, as SciPy does):
    ``R = I + 2w[v]× + 2[v]×²`` for the unit quaternion ``(w, v)``."""
    q = _quat("q", q)
    norm = float(np.linalg.norm(q))
    if not norm > 1e-150:
        raise ValueError("q must be nonzero to represent a rotation")
    u = q / norm
    V = so3._hat(u[1:])
    return np.eye(3) + 2.0 * u[0] * V + 2.0 * (V @ V)


def norm_errors(Q) -> np.ndarray:
    """``| |q| - 1 |`` for each column of ``Q`` (shape ``(4, m)``, like ``sol.y``) or for one ``q``;
    ``inf`` for a column with a non-finite entry (the last point of a diverged run), not NaN."""
    Q = check.real_array("Q", Q, finite=False, max_size=4 * 10**7)
    if Q.ndim not in (1, 2) or Q.shape[0] != 4:
        raise ValueError(f"Q must have shape (4,) or (4, m), got {Q.shape}")
    with np.errstate(invalid="ignore", over="ignore"):
        err = np.abs(np.linalg.norm(Q, axis=0) - 1.0)
    return np.where(np.isfinite(Q).all(axis=0), err, np.inf)


def norm_prediction(method, omega, h: float, n: int) -> float:
    """``|qₙ| - 1`` after ``n`` steps of an explicit RK method (``"euler"``, ``"rk4"`` ...) on the
    4 entries of a unit ``q``, constant ω, from the method's stability polynomial ``P``.

    ``q ⊗ (0, ω) = L(ω) q`` with ``L`` skew-symmetric 4×4 and ``L² = -|ω|² I``: ``½L`` has the
    eigenvalues ``±i|ω|/2`` (each twice) and is normal, so every step multiplies ``|q|`` by
    ``|P(iθ/2)|``, ``θ = h|ω|``, whatever the direction of ``q``.  Euler: ``√(1 + θ²/4)``
    per step.  (Same algebra as :func:`robonum.lie.rk_orthogonality_prediction`.)
    """
    w = so3._rate("omega", omega)
    h = check.positive("h", h, hi=1e6)
    n = check.integer("n", n, 0, 10**12)
    d = imag_axis_gain(method, 0.5 * h * float(np.sqrt(w @ w)))
    return _power_minus_one(d, 0.5 * n)


class _QuaternionStep(Stepper):
    """``"euler_normalized"`` and ``"exp"`` on the 4 entries of ``q``."""

    def __init__(self, method, w_of_t):
        self.method, self.w = method, w_of_t
        self.name = {"exp": "quaternion exponential", "euler_normalized": "Euler + normalisation"}[
            method
        ]
        self.order = 2 if method == "exp" else 1

    def init(self, work, t0, y0, h):
        return None

    def step(self, work, t, y, h, state):
        work.nfev += 1
        if self.method == "exp":
            return _mul(y, _exp(h * self.w(t + 0.5 * h))), None, state
        q = y + 0.5 * h * _mul(y, _pure(self.w(t)))
        return q / np.linalg.norm(q), None, state


def integrate_quaternion(
    q0, omega, t_span, h: float, method: str = "exp", *, save_every: int = 1, blowup: float = 1e8
):
    """Integrate ``q̇ = ½ q ⊗ (0, ω(t))`` from ``q(t0) = q0`` in equal steps of at most ``h``.

    ``q0``: 4-vector (used as given); ``omega``: constant 3-vector or callable ``omega(t)``
    (body frame); ``method`` one of ``METHODS``; ``save_every``, ``blowup`` as for
    :func:`robonum.integrate`.  Returns a :class:`robonum.Solution` (``y`` of shape
    ``(4, len(t))``; :func:`norm_errors` reads it).
    Example: ``integrate_quaternion([1, 0, 0, 0], [0.3, -0.5, 0.8], (0, 100), 0.01, "euler")``.
    """
    q0 = _quat("q0", q0)
    check.one_of("method", method, METHODS)
    t_span = check.interval("t_span", t_span)
    h = check.positive("h", h)
    n, h_used = equal_steps(t_span, h, MAX_QUATERNION_STEPS, "integrate_quaternion")
    save_every = check.integer("save_every", save_every, 1, n)
    if callable(omega):

        def w_of_t(t):
            return so3._vec3("omega(t)", omega(t))
    else:
        w = so3._vec3("omega", omega)
        if float(np.max(np.abs(w))) > so3.MAX_ANGLE_RATE:
            raise ValueError(
                f"omega must have |omega_i| <= {so3.MAX_ANGLE_RATE:g} rad per unit time, "
                f"got {np.max(np.abs(w)):.3g}"
            )
        w_of_t = lambda t: w  # noqa: E731

    def f(t, q):
        return 0.5 * _mul(q, _pure(w_of_t(t)))

    problem = ODEProblem(f, q0, t_span, name="unit quaternion")
    stepper = ExplicitRK(method) if method in ("euler", "rk4") else _QuaternionStep(method, w_of_t)
    return run(problem, stepper, EqualSteps(n, h_used, save_every), blowup=blowup)
