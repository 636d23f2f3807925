"""Radau IIA's step rules (steppers/radau_rules.py): what each decides, and that the
compiled loop compiles these very functions instead of a copy."""

import inspect
import math

import numpy as np
import pytest

from robonum.steppers import radau_jac, radau_rules
from robonum.steppers.radau import RadauIIA


def test_first_iteration_decides_nothing_and_a_non_finite_correction_fails():
    out = radau_rules.contraction(0.3, -1.0, -1.0, 1e-3, 0.5, 1, 7, 0.03)
    assert out == (1e-3, -1.0, 0.5, 0.0)  # rate and eta unchanged, go on
    out = radau_rules.contraction(math.inf, 0.3, -1.0, 1e-3, 0.5, 2, 7, 0.03)
    assert out[3] == radau_rules.NEWTON_FAIL


def test_rate_is_the_ratio_then_the_geometric_mean_of_two_ratios():
    theta, thq, eta, fail = radau_rules.contraction(1e-3, 1e-1, -1.0, 0.0, 0.0, 2, 7, 1.0)
    assert (theta, thq, fail) == (pytest.approx(1e-2), pytest.approx(1e-2), 0.0)
    assert eta == pytest.approx(1e-2 / (1 - 1e-2))
    theta, *_ = radau_rules.contraction(4e-5, 1e-3, 4e-2, 0.0, 0.0, 3, 7, 1.0)
    assert theta == pytest.approx(math.sqrt(4e-2 * 4e-2))


def test_a_diverging_solve_fails_at_once():
    assert radau_rules.contraction(0.995, 1.0, -1.0, 0.0, 0.0, 2, 7, 0.03)[3] == 0.5


def test_a_predicted_miss_returns_radau5s_factor():
    # theta = 0.5, eta = 1: the last of 7 iterations would leave 1 * 1 * 0.5^4 = 0.0625 > fnewt
    dyno, k, nit, fnewt = 1.0, 2, 7, 0.01
    fail = radau_rules.contraction(dyno, 2.0, -1.0, 0.0, 0.0, k, nit, fnewt)[3]
    q = min(20.0, 0.5**4 / fnewt)
    assert fail == pytest.approx(0.8 * q ** (-1.0 / (4 + nit - 1 - k)))
    assert 0 < fail < 0.8


def test_convergence_safety_keeping_h_and_the_first_rejection():
    assert radau_rules.converged(0.1, 0.3, 0.03) and not radau_rules.converged(0.1, 0.31, 0.03)
    assert radau_rules.step_safety(0, 7) == 0.9  # capped
    assert radau_rules.step_safety(7, 7) == pytest.approx(0.9 * 15 / 21)
    assert radau_rules.kept_step(1.1, 1.0, False) == 1.0
    assert radau_rules.kept_step(1.1, 1.0, True) == 1.1  # a new J: new LUs anyway
    assert radau_rules.kept_step(1.3, 1.0, False) == 1.3
    assert radau_rules.rejected_step(0.5, 1.0, True) == pytest.approx(0.1)
    assert radau_rules.rejected_step(0.5, 1.0, False) == 0.5


def test_stage_guess_is_the_last_collocation_polynomial():
    stepper = RadauIIA(3)
    c = stepper.C["c"]
    Q = np.array([[2.0], [-1.0], [0.5]])  # p(x) = 2x - x^2 + 0.5x^3 on the last step
    Z = radau_rules.stage_guess(1.0, np.array([3.0]), 0.5, 0.0, 1.0, np.array([3.0]), Q, c)
    x = 1.0 + c * 0.5
    np.testing.assert_allclose(Z[:, 0], 2 * x - x**2 + 0.5 * x**3, rtol=1e-15)
    assert not radau_rules.stage_guess(0.0, np.ones(2), 0.1, 0.0, 0.0, np.ones(2), Q, c).any()
    # a step backwards in time (h_a < 0) is a polynomial too, not "no step yet"
    Zb = radau_rules.stage_guess(-1.0, np.array([3.0]), -0.5, 0.0, -1.0, np.array([3.0]), Q, c)
    np.testing.assert_allclose(Zb[:, 0], 2 * x - x**2 + 0.5 * x**3, rtol=1e-15)


def test_the_compiled_loop_compiles_the_steppers_functions():
    """No copy of a rule in fast/radau.py: each compiled rule wraps the Python function itself."""
    pytest.importorskip("numba")
    from robonum.fast import radau as compiled

    pairs = {
        "_carried_rate": radau_rules.carried_rate,
        "_contraction": radau_rules.contraction,
        "_converged": radau_rules.converged,
        "_step_safety": radau_rules.step_safety,
        "_kept_step": radau_rules.kept_step,
        "_rejected_step": radau_rules.rejected_step,
        "_stage_guess": radau_rules.stage_guess,
        "_jac_reuse_theta": radau_jac.jac_reuse_theta,
        "_refresh_jac": radau_jac.refresh_jac,
    }
    for name, func in pairs.items():
        assert getattr(compiled, name).py_func is func, name
    source = inspect.getsource(compiled)
    for phrase in ("0.99", "** 0.8", "0.1 * h", "KEEP_H", "(1 + 2 * nit_max)"):
        assert phrase not in source, f"fast/radau.py writes a rule again: {phrase!r}"
