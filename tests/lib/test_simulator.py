"""MuJoCo's integrators against the book's amplification matrices (robonum.book.simulator).

The derived matrices are checked against the simulator's one step (finite differences of
``mj_step``), the stability limits against closed forms derived by hand (Jury's conditions for
a 2x2 matrix), and the simulator's measured limits against the finite-horizon prediction.
"""

import math

import numpy as np
import pytest

mujoco = pytest.importorskip("mujoco")

from robonum.book import simulator as S  # noqa: E402

CASES = [(0.01, 100.0, 0.0), (0.01, 100.0, 5.0), (0.05, 1e4, 3.0), (0.002, 1e6, 400.0)]


def damping(zeta, k, M):
    return 2 * zeta * math.sqrt(k * M)


@pytest.mark.parametrize("method", S.METHODS)
@pytest.mark.parametrize("h, k, d", CASES)
def test_amplification_is_mujocos_step(method, h, k, d):
    model, data = S.joint_model(method, h, k, d, mass=1.0, armature=0.2)
    data.qpos[0], data.qvel[0] = 0.1, -0.3
    J = S.transition(model, data)
    G = S.amplification(method, h, k, d, 1.2)
    # central differences of a linear map: error ~ round-off / eps = 1e-10 relative
    assert np.abs(J - G).max() <= 1e-7 * max(1.0, np.abs(G).max())
    # and the other derivations do not fit (the test can tell the methods apart)
    others = {"RK4", "discrete", "Euler", S.EULER_NO_DAMP} - {method}
    if method in ("implicitfast", "implicit"):
        others.discard("Euler")
    if d == 0.0:
        others.discard("Euler" if method == S.EULER_NO_DAMP else S.EULER_NO_DAMP)
    for other in others:
        assert np.abs(J - S.amplification(other, h, k, d, 1.2)).max() > 1e-4


def test_mujocos_own_linearisation():
    for method in ("Euler", "implicitfast", "implicit", "discrete"):
        model, data = S.joint_model(method, 0.01, 100.0, 5.0)
        data.qpos[0] = 0.1
        A = S.transition_mujoco(model, data)
        assert np.abs(A - S.amplification(method, 0.01, 100.0, 5.0, 1.0)).max() < 1e-7
    model, data = S.joint_model("RK4", 0.01, 100.0, 5.0)
    with pytest.raises(mujoco.FatalError, match="RK4"):
        S.transition_mujoco(model, data)


@pytest.mark.parametrize("zeta", [0.0, 0.1, 1.0, 10.0, 100.0])
def test_spectral_limits_match_closed_forms(zeta):
    k, M = 1e4, 2.0
    w, d = math.sqrt(k / M), damping(zeta, k, M)

    def limit(method):
        return S.predicted_step(method, k, d, M) * w

    root = math.sqrt(zeta**2 + 1)
    # symplectic Euler: trace/determinant conditions give ωh < 2(√(ζ²+1) ± ζ)
    assert limit("Euler") == pytest.approx(2 * (root + zeta), rel=2e-6)
    assert limit("implicitfast") == limit("Euler") == limit("implicit")
    assert limit(S.EULER_NO_DAMP) == pytest.approx(2 * (root - zeta), rel=2e-6)
    assert limit("discrete") == math.inf
    rk4 = limit("RK4")
    if zeta == 0.0:
        assert rk4 == pytest.approx(2 * math.sqrt(2), rel=2e-6)
    if zeta >= 10:  # the fast real eigenvalue ≈ -2ζω meets RK4's real interval end 2.785
        assert rk4 * (zeta + math.sqrt(zeta**2 - 1)) == pytest.approx(2.7853, rel=1e-3)


@pytest.mark.parametrize(
    "method, zeta, k", [("Euler", 1.0, 1e4), ("RK4", 0.0, 1e2), (S.EULER_NO_DAMP, 10.0, 1e6)]
)
def test_measured_limit_is_the_finite_horizon_prediction(method, zeta, k):
    d = damping(zeta, k, 1.0)
    h_star = S.predicted_step(method, k, d, 1.0)
    h_n = S.predicted_step(method, k, d, 1.0, nstep=500, rtol=1e-4)
    h_meas, counts = S.measured_step(method, k, d, nstep=500)
    assert h_meas == pytest.approx(h_n, rel=2e-4)
    assert h_star < h_meas < 1.02 * h_star  # the horizon lets a little growth pass
    assert counts["runs"] > counts["growth"] + counts["reset_only"] > 0


def test_a_reset_looks_calm_and_is_counted():
    k = 1e6
    model, data = S.joint_model("Euler", 0.003, k, 0.0)
    y, n = S.simulate(model, data, 0.003, 2000)  # ωh = 3 > 2
    assert n > 0 and np.all(y == 0.0)  # back at the model's rest state: looks calm
    h_meas, counts = S.measured_step("Euler", k, 0.0, nstep=2000)
    assert counts["reset_only"] > 0 and h_meas * 1e3 == pytest.approx(2.0, rel=1e-3)


def test_quiet_restores_the_warning_handler():
    before = mujoco.get_mju_user_warning()
    with S.quiet() as seen:
        model, data = S.joint_model("Euler", 0.003, 1e6, 0.0)
        data.qpos[0] = 1.0
        mujoco.mj_step(model, data, nstep=100)
    assert seen and "unstable" in seen[0].lower()
    assert mujoco.get_mju_user_warning() is before


def test_orbit_is_repeated_multiplication():
    G = S.amplification("RK4", 0.01, 100.0, 5.0, 1.0)
    Y = S.orbit(G, [1.0, 0.0], 37)
    y = np.array([1.0, 0.0])
    for n in range(38):
        assert np.allclose(Y[:, n], y, rtol=1e-13, atol=1e-15)
        y = G @ y
    assert Y.shape == (2, 38)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        (dict(k=-1.0), "k"),
        (dict(k=0.0), "k"),
        (dict(d=float("nan")), "d"),
        (dict(d=-2.0), "d"),
        (dict(h=0.0), "h"),
        (dict(h=-1e-3), "h"),
        (dict(mass=0.0), "mass"),
        (dict(method="Verlet"), "method"),
    ],
)
def test_bad_parameters_name_themselves(kwargs, name):
    args = dict(method="Euler", h=1e-3, k=100.0, d=1.0, mass=1.0)
    args.update(kwargs)
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        S.joint_xml(args["method"], args["h"], args["k"], args["d"], mass=args["mass"])


def test_bad_parameters_in_predictions():
    with pytest.raises(ValueError, match="^k"):
        S.predicted_step("RK4", -5.0, 0.0, 1.0)
    with pytest.raises(ValueError, match="^h"):
        S.amplification("RK4", float("nan"), 1.0, 0.0, 1.0)
    with pytest.raises(ValueError, match="^nstep"):
        S.predicted_step("RK4", 1.0, 0.0, 1.0, nstep=0)


def test_trace_marks_the_reset():
    model, data = S.joint_model("Euler", 0.003, 1e6, 0.0)
    q, first = S.trace(model, data, 0.003, 200)
    assert first is not None and np.all(q[first - 1 :] == 0.0) and abs(q[first - 2]) > 1e3
    q, first = S.trace(model, data, 0.0015, 200)
    assert first is None and np.abs(q).max() < 2.0
