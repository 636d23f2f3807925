"""SO(3) maps and the attitude integrators of seed 003 ④.

Truth: scipy.linalg.expm of the hat matrix, the exact solution R0 Exp(tω)
for constant ω, and closed-form error predictions derived by hand (see the
docstrings of the tests).
"""

import numpy as np
import pytest
import scipy.linalg
from scipy.spatial.transform import Rotation

from robonum.lie import (
    euler_orthogonality_prediction,
    exact_rotation,
    gram_schmidt,
    integrate_rotation,
    orthogonality_errors,
    polar,
    so3,
)

OMEGA = np.array([0.3, -0.5, 0.8])  # seed 003 ④
H, N = 0.01, 10_000
EPS = np.finfo(float).eps


def ortho(run):
    return orthogonality_errors(run.R)


def distance(run, R_ref):
    return np.max(np.abs(run.R - R_ref), axis=(1, 2))


def _unit_vectors(n, seed=0):
    u = np.random.default_rng(seed).normal(size=(n, 3))
    return u / np.linalg.norm(u, axis=1, keepdims=True)


# --- hat / vee / exp / log ---------------------------------------------------------
def test_hat_is_the_cross_product_and_vee_inverts_it():
    a, b = np.array([0.3, -1.2, 2.0]), np.array([-0.7, 0.4, 1.1])
    # two products and a difference per entry: |error| <= 3 eps max|a_i b_j| (bound 4 eps * 2.4)
    np.testing.assert_allclose(so3.hat(a) @ b, np.cross(a, b), rtol=0, atol=10 * EPS)
    np.testing.assert_array_equal(so3.hat(a).T, -so3.hat(a))
    np.testing.assert_array_equal(so3.vee(so3.hat(a)), a)


@pytest.mark.parametrize(
    "theta",
    [0.0, 1e-12, 1e-8, 1e-6, 9.9e-5, 1.01e-4, 1e-3, 0.1, 1.0, 2.0, 3.0, np.pi - 1e-6, np.pi, 5.0],
)
def test_exp_matches_scipy_expm(theta):
    for u in _unit_vectors(10, seed=int(theta * 1e3) % 97):
        w = theta * u
        ref = scipy.linalg.expm(so3.hat(w))
        # both are accurate to a few eps of entries <= 1 (expm: scaling-and-squaring Padé)
        assert np.max(np.abs(so3.exp(w) - ref)) <= 50 * EPS


def test_exp_at_tiny_angle_is_the_second_order_series_to_rounding():
    # At θ = 1e-8 the series I + W + W²/2 is exact to ~θ³ = 1e-24, far below rounding;
    # the naive (1 - cos θ)/θ² would be 0 or 1.1 instead of 0.5 here.
    w = 1e-8 * np.array([0.6, -0.8, 0.0])
    W = so3.hat(w)
    np.testing.assert_allclose(so3.exp(w), np.eye(3) + W + 0.5 * W @ W, rtol=0, atol=1e-22 + 2e-16)
    # Off the diagonal the O(θ²) entries (~1e-17) are representable: check them relatively
    # (on the diagonal 1 - 3e-17 rounds to 1).
    off = ~np.eye(3, dtype=bool)
    np.testing.assert_allclose(so3.exp(w)[off], (W + 0.5 * W @ W)[off], rtol=1e-12, atol=0)


@pytest.mark.parametrize(
    "theta", [0.0, 1e-10, 1e-5, 0.5, 1.5, 2.4, 3.0, np.pi - 1e-3, np.pi - 1e-7, np.pi - 1e-10]
)
def test_log_inverts_exp(theta):
    for u in _unit_vectors(8, seed=3):
        w = theta * u
        np.testing.assert_allclose(
            so3.log(so3.exp(w)),
            w,
            rtol=0,
            atol=2e-15 * max(1, theta) + (1e-9 if np.pi - theta < 1e-6 else 0),
        )


def test_exp_inverts_log_on_random_rotations():
    for R in Rotation.random(50, random_state=1).as_matrix():
        w = so3.log(R)
        assert np.linalg.norm(w) <= np.pi + 4 * EPS  # atan2 rounds to pi within an ulp
        np.testing.assert_allclose(
            so3.exp(w), R, rtol=0, atol=50 * EPS
        )  # log then exp: a few eps each
        # near angle pi the axis is sqrt-conditioned: SciPy's quaternion path and ours
        # agree to ~100 eps on these 50 samples; bound 500 eps
        np.testing.assert_allclose(w, Rotation.from_matrix(R).as_rotvec(), rtol=0, atol=500 * EPS)


def test_orthogonality_error_is_the_max_abs_entry():
    R = so3.exp([0.2, 0.1, -0.4]) * 1.001  # RᵀR = 1.001² I
    assert so3.orthogonality_error(R) == pytest.approx(1.001**2 - 1, rel=1e-12)


@pytest.mark.parametrize(
    "bad, exc", [([1, 2], ValueError), ([1, np.nan, 2], ValueError), ("abc", TypeError)]
)
def test_bad_vectors_are_rejected_by_name(bad, exc):
    with pytest.raises(exc, match="w"):
        so3.exp(bad)


def test_bad_matrices_are_rejected_by_name():
    with pytest.raises(ValueError, match="R must have shape"):
        so3.log(np.eye(2))
    with pytest.raises(ValueError, match="R must contain only finite"):
        so3.orthogonality_error(np.full((3, 3), np.inf))
    with pytest.raises(ValueError, match="R must be a rotation matrix"):
        so3.log(np.diag([1.0, 1.0, -1.0]))  # a reflection, det = -1: was zeros
    with pytest.raises(ValueError, match="R must be a rotation matrix"):
        so3.log(1.01 * np.eye(3))
    with pytest.raises(TypeError, match="R must be real"):
        so3.log(1j * np.eye(3))  # was silently cast to zeros


# --- attitude integrators, seed 003 ④ ------------------------------------------
@pytest.fixture(scope="module")
def seed_runs():
    return {
        m: integrate_rotation(np.eye(3), OMEGA, (0.0, N * H), H, m, save_every=1000)
        for m in ("euler", "euler_gs", "euler_polar", "rk4", "exp")
    }


def _exact(run):
    return exact_rotation(np.eye(3), OMEGA, run.t)


def test_matrix_euler_orthogonality_follows_the_derived_formula(seed_runs):
    # RₙᵀRₙ - I = ((1 + h²|ω|²)ⁿ - 1)(I - ω̂ω̂ᵀ), derived in
    # euler_orthogonality_prediction; check the whole matrix, not just its max.
    run = seed_runs["euler"]
    R = run.R[-1]
    w2 = OMEGA @ OMEGA
    predicted = ((1 + H * H * w2) ** N - 1) * (np.eye(3) - np.outer(OMEGA, OMEGA) / w2)
    np.testing.assert_allclose(R.T @ R - np.eye(3), predicted, rtol=1e-9, atol=1e-12)
    assert ortho(run)[-1] == pytest.approx(euler_orthogonality_prediction(OMEGA, H, N), rel=1e-9)
    # seed: "measured 1.51, predicted 1.664 * max(1 - ω_i²/|ω|²) = 1.511"
    assert ortho(run)[-1] == pytest.approx(1.511, abs=5e-4)


def test_euler_prediction_holds_for_other_omega_and_start():
    w, R0 = np.array([-1.0, 0.2, 0.1]), so3.exp([0.5, -1.0, 2.0])
    run = integrate_rotation(R0, w, (0.0, 10.0), 0.02, "euler")
    assert run.nsteps == 500
    assert ortho(run)[-1] == pytest.approx(euler_orthogonality_prediction(w, 0.02, 500), rel=1e-9)


def test_rk4_loses_orthogonality_at_the_predicted_1e_minus_10(seed_runs):
    # One RK4 step is R ← R P(hΩ) with P the degree-4 Taylor polynomial; on the
    # plane ⟂ ω the eigenvalues are P(±iθ), θ = h|ω|, and
    # |P(iθ)|² = 1 - θ⁶/72 + θ⁸/576, so RₙᵀRₙ - I = (|P(iθ)|^{2n} - 1)(I - ω̂ω̂ᵀ).
    theta = H * np.linalg.norm(OMEGA)
    per_step = 1 - theta**6 / 72 + theta**8 / 576
    predicted = abs(per_step**N - 1) * np.max(1 - OMEGA**2 / (OMEGA @ OMEGA))
    measured = ortho(seed_runs["rk4"])[-1]
    assert measured == pytest.approx(predicted, rel=0.01)
    assert 5e-11 < measured < 5e-10  # seed: "RK4 ~1e-10"


def test_euler_gram_schmidt_is_orthogonal_but_off_the_exact_rotation(seed_runs):
    run = seed_runs["euler_gs"]
    # Gram-Schmidt output is orthonormal to rounding: 3x3 dot products of unit
    # columns, each entry of QᵀQ - I within a few eps (bound 16 eps)
    assert ortho(run).max() < 16 * EPS
    dist = distance(run, _exact(run))[-1]
    assert dist == pytest.approx(0.053, abs=1e-3)  # seed: "0.053 from the exact rotation"
    # Why: GS(Q M) = Q GS(M) for orthogonal Q, so every step multiplies by the same
    # rotation G = GS(I + hΩ) and Rₙ = Gⁿ; G differs from Exp(hω) at O(h²).
    G = gram_schmidt(np.eye(3) + H * so3.hat(OMEGA))
    # 10^4 sequential products vs log2(10^4) squarings: rounding grows at most ~n eps
    np.testing.assert_allclose(run.R[-1], np.linalg.matrix_power(G, N), rtol=0, atol=4 * N * EPS)


def test_euler_polar_is_exactly_a_rotation_by_atan(seed_runs):
    # polar(I + hΩ) has eigenvalues 1, (1 ± iθ)/|1 ± iθ| = e^{±i atan θ}: a rotation
    # about ω̂ by atan(h|ω|) per step, so the angle lags by n(θ - atan θ) ≈ nθ³/3.
    run = seed_runs["euler_polar"]
    w_hat = OMEGA / np.linalg.norm(OMEGA)
    angle = N * np.arctan(H * np.linalg.norm(OMEGA))
    # n polar factorisations (SVD) of entries ~1: rounding <= ~n eps in the worst case
    np.testing.assert_allclose(run.R[-1], so3.exp(angle * w_hat), rtol=0, atol=N * EPS)
    assert distance(run, _exact(run))[-1] > 1e-3  # not the exact rotation


def test_exponential_map_is_exact_to_rounding(seed_runs):
    run = seed_runs["exp"]
    # Rounding accumulates like a random walk over 10^4 products of rotations:
    # seed 2.7e-13 ~ 1200 eps; bound 1e4 eps (= n eps, the worst-case linear growth)
    assert ortho(run)[-1] < N * EPS
    assert distance(run, _exact(run)).max() < N * EPS


def test_time_varying_omega_orders():
    # ω(t) = (cos t, sin 2t, 0.5): reference by RK4 with a tiny step; the midpoint
    # exponential step is second order, RK4 on the entries fourth order.
    def omega(t):
        return np.array([np.cos(t), np.sin(2 * t), 0.5])

    R0 = so3.exp([0.1, 0.2, 0.3])
    ref = integrate_rotation(R0, omega, (0.0, 2.0), 1 / 1600, "rk4").R[-1]
    for method, order in (("exp", 2), ("rk4", 4), ("euler_polar", 1)):
        e = [
            np.max(np.abs(integrate_rotation(R0, omega, (0.0, 2.0), 2 / n, method).R[-1] - ref))
            for n in (40, 80)
        ]
        assert np.log2(e[0] / e[1]) == pytest.approx(order, abs=0.2), method


def test_polar_and_gram_schmidt_return_rotations():
    M = np.array([[1.0, 0.1, 0.0], [0.05, 0.9, 0.2], [0.0, -0.1, 1.2]])
    for Q in (gram_schmidt(M), polar(M)):
        # one factorisation: each entry of QᵀQ - I is a 3-term dot product of
        # computed unit columns, so a few eps; bound 20 eps (SVD/BLAS paths differ
        # between machines: 1.0e-15 on one, 1.33e-15 on another)
        assert so3.orthogonality_error(Q) < 20 * EPS
        assert abs(np.linalg.det(Q) - 1.0) < 20 * EPS
    np.testing.assert_allclose(gram_schmidt(M)[:, 0], M[:, 0] / np.linalg.norm(M[:, 0]))


def test_integrator_rejects_bad_input_by_name():
    span = (0.0, 1.0)
    with pytest.raises(ValueError, match="method"):
        integrate_rotation(np.eye(3), OMEGA, span, 0.1, "rk45")
    with pytest.raises(ValueError, match="h must be"):
        integrate_rotation(np.eye(3), OMEGA, span, -0.1)
    with pytest.raises(ValueError, match="at most 200,000"):
        integrate_rotation(np.eye(3), OMEGA, (0.0, 1e5), 1e-3)  # 10^8 steps: minutes, GBs
    with pytest.raises(ValueError, match="omega"):
        integrate_rotation(np.eye(3), [1.0, 2.0], span, 0.1)
    with pytest.raises(ValueError, match=r"omega\(t\)"):
        integrate_rotation(np.eye(3), lambda t: [1.0, np.nan, 0.0], span, 0.1)


def test_a_blowing_up_rotation_run_reports_it():
    sol = integrate_rotation(np.eye(3), OMEGA, (0.0, 5000.0), 1.0, "euler")
    assert (sol.status, sol.reason) == (-1, "diverged") and sol.t[-1] < 5000
    assert np.isfinite(sol.y).all() and sol.layout == "so3" and sol.R.shape[1:] == (3, 3)
    with pytest.raises(ValueError, match="linearly independent"):
        gram_schmidt(np.zeros((3, 3)))
