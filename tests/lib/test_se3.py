"""SE(3) exp and log of twists (robonum.lie.se3).

Truth: scipy.linalg.expm of the 4x4 twist matrix (the matrix series, computed another way), the
identities log(exp(ξ)) = ξ for |ω| < π and exp(log(T)) = T, and pure translations, where the
maps are exact.  Bounds are in units of eps with the reason beside each.
"""

import numpy as np
import pytest
import scipy.linalg
from scipy.spatial.transform import Rotation

from robonum import lie
from robonum.lie import se3, se3_exp, se3_hat, se3_log

EPS = np.finfo(float).eps
ANGLES = [1e-12, 1e-9, 1e-6, 1e-4, 9.9e-3, 1.01e-2, 0.1, 1.0, 2.0, 3.0]
NEAR_PI = [np.pi - 1e-3, np.pi - 1e-6, np.pi - 1e-9]


def _twists(theta, n=20, seed=0):
    """n twists (θ u, v): random unit axes u, translations v with |v_i| ~ 1 (normal)."""
    rng = np.random.default_rng(seed + int(theta * 1e6) % 1000)
    u = rng.normal(size=(n, 3))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    return np.hstack([theta * u, rng.normal(size=(n, 3))])


def _rel(a, b):
    return np.linalg.norm(a - b) / np.linalg.norm(b)


def test_the_package_exports_the_maps():
    assert lie.se3_exp is se3.se3_exp and lie.se3_log is se3.se3_log
    assert {"se3_exp", "se3_log", "se3_hat", "se3"} <= set(lie.__all__)


@pytest.mark.parametrize("theta", ANGLES)
def test_log_inverts_exp_to_rounding_at_every_angle(theta):
    # A few roundings in each map (so3.exp/log, then a 3-vector through V and V⁻¹, entries
    # of size <= 1 + θ), each part relative to its own size: measured <= 2.6 eps over these
    # 200 twists; bound 8 eps.  At θ = 1e-12 a textbook log (1/θ, 1/sin θ) would lose it all.
    for xi in _twists(theta):
        back = se3_log(se3_exp(xi))
        assert _rel(back[:3], xi[:3]) <= 8 * EPS, (theta, back, xi)
        assert _rel(back[3:], xi[3:]) <= 8 * EPS, (theta, back, xi)


@pytest.mark.parametrize("theta", NEAR_PI)
def test_log_inverts_exp_near_pi(theta):
    # Near π the axis comes from the symmetric part of R (so3.log), which is
    # sqrt-conditioned: the rotation vector's error can reach ~ eps/(π - θ) in exact
    # arithmetic terms, so as in test_so3 a 1e-9 absolute slack at π - θ < 1e-6 (these
    # samples came back within 4.5 eps; the slack is for axes where the square root bites).
    slack = 1e-9 if np.pi - theta < 1e-6 else 0.0
    for xi in _twists(theta):
        back = se3_log(se3_exp(xi))
        np.testing.assert_allclose(back[:3], xi[:3], rtol=0, atol=16 * EPS * np.pi + slack)
        np.testing.assert_allclose(back[3:], xi[3:], rtol=0, atol=64 * EPS * 3 + 10 * slack)


@pytest.mark.parametrize("theta", [0.0, *ANGLES, *NEAR_PI, np.pi, 5.0])
def test_exp_matches_scipy_expm_of_the_twist_matrix(theta):
    # expm (scaling and squaring Padé) is accurate to a few eps times the matrix's norm;
    # se3_exp to a few eps.  Measured <= 3.8 eps times max(1, |ξ|) over these 150 twists;
    # bound 16 eps times max(1, |ξ|).
    for xi in _twists(theta, n=10, seed=1):
        ref = scipy.linalg.expm(se3_hat(xi))
        scale = max(1.0, float(np.linalg.norm(xi)))
        assert np.max(np.abs(se3_exp(xi) - ref)) <= 16 * EPS * scale, (theta, xi)


def test_hat_is_the_twist_matrix():
    M = se3_hat([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    np.testing.assert_array_equal(M[:3, :3], lie.hat([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(M[:3, 3], [4.0, 5.0, 6.0])
    np.testing.assert_array_equal(M[3], np.zeros(4))


def test_pure_translation_is_exact_both_ways():
    # θ = 0: V = I (b and c from their series), so exp and log are the identity on v, bit for bit.
    v = np.array([0.3, -1.7, 2.5e3])
    T = se3_exp(np.concatenate([np.zeros(3), v]))
    np.testing.assert_array_equal(T[:3, :3], np.eye(3))
    np.testing.assert_array_equal(T[:3, 3], v)
    np.testing.assert_array_equal(T[3], [0.0, 0.0, 0.0, 1.0])
    np.testing.assert_array_equal(se3_log(T), np.concatenate([np.zeros(3), v]))


def test_exp_inverts_log_on_random_frames():
    # Random rotations (angles up to π) and translations: log then exp returns T to a few eps
    # of its entries; at angles near π the log's axis is sqrt-conditioned (see above), which
    # exp maps back to R accurately.  Measured <= 2.5 eps times max(1, |p|); bound 16 eps.
    rng = np.random.default_rng(5)
    for R in Rotation.random(50, random_state=2).as_matrix():
        T = np.eye(4)
        T[:3, :3], T[:3, 3] = R, rng.normal(size=3) * 3
        xi = se3_log(T)
        assert np.linalg.norm(xi[:3]) <= np.pi + 4 * EPS
        scale = max(1.0, float(np.linalg.norm(T[:3, 3])))
        np.testing.assert_allclose(se3_exp(xi), T, rtol=0, atol=16 * EPS * scale)


def test_exp_at_tiny_angle_keeps_the_translation_series():
    # At θ = 1e-9: V v = v + ½ ω×v + (1/6) ω×(ω×v) + O(θ³|v|); the ½ ω×v term (5e-10) is
    # kept to full relative accuracy (the textbook (1 - cos θ)/θ² would give 0 or 1.1 here).
    w, v = 1e-9 * np.array([0.0, 0.0, 1.0]), np.array([1.0, 0.0, 0.0])
    T = se3_exp(np.concatenate([w, v]))
    assert T[1, 3] == pytest.approx(0.5e-9, rel=4 * EPS)  # the y-component: ½ (ω × v)_y
    assert T[0, 3] == 1.0  # 1 - θ²/6 rounds to 1


@pytest.mark.parametrize(
    ("bad", "exc", "match"),
    [
        (np.eye(3), ValueError, r"T must have shape \(4, 4\)"),
        (np.full((4, 4), np.nan), ValueError, "T must contain only finite"),
        (1j * np.eye(4), TypeError, "T must be real"),
        (np.diag([1.0, 1.0, 1.0, 2.0]), ValueError, r"bottom row \[0, 0, 0, 1\]"),
        (np.diag([1.0, 1.0, -1.0, 1.0]), ValueError, r"T\[:3, :3\] must be a rotation"),
        (np.diag([1.01, 1.0, 1.0, 1.0]), ValueError, r"within 1e-06"),
    ],
)
def test_bad_frames_are_rejected_by_name(bad, exc, match):
    with pytest.raises(exc, match=match):
        se3_log(bad)


def test_huge_translation_is_rejected_by_name():
    T = np.eye(4)
    T[0, 3] = 1e200
    with pytest.raises(ValueError, match=r"T\[:3, 3\].*<= 1e\+100"):
        se3_log(T)


@pytest.mark.parametrize(
    ("bad", "exc", "match"),
    [
        ([1.0, 2.0, 3.0], ValueError, r"xi must have shape \(6,\)"),
        ([0, 0, np.inf, 0, 0, 0], ValueError, "xi must contain only finite"),
        ("abcdef", TypeError, "xi"),
        ([2e6, 0, 0, 0, 0, 0], ValueError, r"xi\[:3\] \(omega\).*<= 1e\+06"),
        ([0, 0, 0, 0, 1e101, 0], ValueError, r"xi\[3:\] \(v\).*<= 1e\+100"),
    ],
)
def test_bad_twists_are_rejected_by_name(bad, exc, match):
    with pytest.raises(exc, match=match):
        se3_exp(bad)
    with pytest.raises(exc, match=match):
        se3_hat(bad)
