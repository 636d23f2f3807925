"""Unit quaternions: algebra against SciPy's Rotation, norm drift against the derived formula.

SciPy stores quaternions scalar last (x, y, z, w); robonum scalar first (w, x, y, z).
"""

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from robonum import lie
from robonum.lie import quaternion as quat

EPS = np.finfo(float).eps
OMEGA = np.array([0.3, -0.5, 0.8])


def to_scipy(q):
    return Rotation.from_quat([q[1], q[2], q[3], q[0]])


def test_exp_and_to_matrix_agree_with_scipy_and_with_so3():
    for w in (np.zeros(3), [1e-9, 0, 0], [1e-5, 2e-5, -1e-5], [0.3, -0.5, 0.8], [2.0, 1.0, -2.5]):
        q = quat.exp(w)
        # |q| = 1 to rounding: cos² + sin² of correctly rounded values (bound 4 eps)
        assert abs(np.linalg.norm(q) - 1.0) < 4 * EPS
        ref = Rotation.from_rotvec(w).as_matrix()
        np.testing.assert_allclose(quat.to_matrix(q), ref, atol=20 * EPS)
        np.testing.assert_allclose(to_scipy(q).as_matrix(), lie.exp(w), atol=20 * EPS)


def test_multiply_composes_rotations_like_matrices():
    a, b = quat.exp([0.4, -1.0, 0.2]), quat.exp([-2.0, 0.5, 1.1])
    # few flops per entry of products of unit quantities: bound 20 eps
    np.testing.assert_allclose(
        quat.to_matrix(quat.multiply(a, b)), quat.to_matrix(a) @ quat.to_matrix(b), atol=20 * EPS
    )
    np.testing.assert_allclose(quat.multiply([1, 0, 0, 0], b), b, rtol=0, atol=0)


def test_to_matrix_normalises_like_scipy():
    q = 3.0 * quat.exp([0.2, 0.1, -0.7])
    np.testing.assert_allclose(quat.to_matrix(q), to_scipy(q).as_matrix(), atol=20 * EPS)


@pytest.mark.parametrize("h, n", [(0.01, 10_000), (0.1, 500), (0.05, 3)])
def test_unnormalised_euler_grows_as_derived(h, n):
    sol = quat.integrate_quaternion([1.0, 0, 0, 0], OMEGA, (0.0, n * h), h, "euler")
    assert sol.nsteps == n
    predicted = quat.norm_prediction("euler", OMEGA, h, n)
    assert quat.norm_errors(sol.y)[-1] == pytest.approx(predicted, rel=1e-9)
    # closed form (1 + h²|ω|²/4)^{n/2} - 1
    assert predicted == pytest.approx((1 + h * h * (OMEGA @ OMEGA) / 4) ** (n / 2) - 1, rel=1e-12)


def test_rk4_norm_drift_follows_the_stability_polynomial():
    # |P(iθ/2)|^n - 1 with |P(iφ)|² = 1 - φ⁶/72 + φ⁸/576: -1.0e-12 after 10^4 steps; rounding
    # adds a random walk of ~sqrt(4n) eps ~ 5e-14, so 10 % is a safe tolerance
    h, n = 0.01, 10_000
    sol = quat.integrate_quaternion([1.0, 0, 0, 0], OMEGA, (0.0, n * h), h, "rk4", save_every=n)
    predicted = quat.norm_prediction("rk4", OMEGA, h, n)
    assert predicted < 0
    assert np.linalg.norm(sol.y[:, -1]) - 1.0 == pytest.approx(predicted, rel=0.1)


def test_normalised_euler_lags_by_the_derived_angle():
    # q ← q ⊗ (1, hω/2)/|·| turns by φ = 2 atan(h|ω|/2) per step instead of θ = h|ω|
    h, n = 0.01, 10_000
    sol = quat.integrate_quaternion(
        [1.0, 0, 0, 0], OMEGA, (0.0, n * h), h, "euler_normalized", save_every=n
    )
    theta = h * np.linalg.norm(OMEGA)
    expected = lie.exp(n * 2 * np.arctan(theta / 2) * OMEGA / np.linalg.norm(OMEGA))
    # 10^4 products and normalisations: rounding <= n eps
    np.testing.assert_allclose(quat.to_matrix(sol.y[:, -1]), expected, atol=n * EPS)
    assert quat.norm_errors(sol.y).max() < 4 * EPS  # one normalisation per step


def test_exponential_update_keeps_the_norm_and_is_exact():
    h, n = 0.01, 10_000
    sol = quat.integrate_quaternion([1.0, 0, 0, 0], OMEGA, (0.0, n * h), h, "exp", save_every=100)
    # |q ⊗ p| = |q||p| in exact arithmetic; rounding adds a few eps per step, random-walk-like;
    # bound n eps (linear worst case)
    assert quat.norm_errors(sol.y).max() < n * EPS
    np.testing.assert_allclose(quat.to_matrix(sol.y[:, -1]), lie.exp(n * h * OMEGA), atol=n * EPS)


def test_orders_for_a_time_varying_rate():
    cone = lie.coning(rate=2.0, half_angle=0.5, t_span=(0.0, 3.0))
    q0 = np.array([np.cos(0.25), np.sin(0.25), 0.0, 0.0])  # the quaternion of Exp(0.5 x̂) = R(0)
    np.testing.assert_allclose(quat.to_matrix(q0), cone.exact_R(0.0), atol=4 * EPS)

    def omega(t):
        return cone.omega(t, None)

    for method, order in (("exp", 2), ("rk4", 4), ("euler_normalized", 1)):
        e = [
            np.abs(
                quat.to_matrix(
                    quat.integrate_quaternion(q0, omega, (0.0, 3.0), 3.0 / k, method).y[:, -1]
                )
                - cone.exact_R(3.0)
            ).max()
            for k in (120, 240)
        ]
        assert np.log2(e[0] / e[1]) == pytest.approx(order, abs=0.1), method


def test_bad_input_is_rejected_by_name():
    with pytest.raises(ValueError, match="q0 must have shape"):
        quat.integrate_quaternion([1.0, 0, 0], OMEGA, (0, 1), 0.1)
    with pytest.raises(ValueError, match="method"):
        quat.integrate_quaternion([1.0, 0, 0, 0], OMEGA, (0, 1), 0.1, "rk45")
    with pytest.raises(ValueError, match="at most 200,000"):
        quat.integrate_quaternion([1.0, 0, 0, 0], OMEGA, (0, 1e5), 1e-3)
    with pytest.raises(ValueError, match="nonzero"):
        quat.to_matrix([0.0, 0, 0, 0])
    with pytest.raises(ValueError, match="Q must have shape"):
        quat.norm_errors(np.zeros((3, 5)))
    with pytest.raises(TypeError, match="p must be real"):
        quat.multiply(1j * np.ones(4), np.ones(4))
    with pytest.raises(ValueError, match="n must be"):
        quat.norm_prediction("euler", OMEGA, 0.1, -1)
    with pytest.raises(ValueError, match="omega"):
        quat.integrate_quaternion([1.0, 0, 0, 0], [1e7, 0, 0], (0, 1), 0.1)
