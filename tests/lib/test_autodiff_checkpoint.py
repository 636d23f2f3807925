"""Reverse mode through integrator steps, with checkpointing (robonum.autodiff.checkpoint).

Truths used: forward mode (Dual) through the same steps, central finite
differences, a closed form for a linear problem (the RK4 flow of y' = A y is the
matrix R(hA)^N with R the RK4 stability polynomial), the library's own RK4
integrator, and counts derived by hand from the checkpoint schedule.
"""

import math

import numpy as np
import pytest

import robonum as rn
from robonum.autodiff import (
    DomainError,
    checkpoint_counts,
    grad_through_steps,
    jacobian_forward,
    log,
    rk4_step,
    sin,
)
from robonum.errors import EvaluationError
from robonum.finite_diff import gradient_fd

EPS = np.finfo(float).eps
H = 0.1
Y0 = np.array([1.0, 0.0])


def pendulum(y):
    return [y[1], -sin(y[0])]


STEP = rk4_step(pendulum, H)


def flow(y0, n):
    y = list(y0)
    for _ in range(n):
        y = STEP(y)
    return y


@pytest.mark.parametrize("n", [1, 7, 100, 333])
def test_every_interval_gives_the_plain_gradient_bit_for_bit(n):
    # Each segment repeats the same floating-point operations in the same order as the
    # single tape, so the adjoints are identical, not merely close.
    w = np.array([0.3, -1.2])
    plain = grad_through_steps(STEP, Y0, n, w)
    for k in sorted({min(j, n) for j in (1, 2, 3, 10, n // 2 or 1, n)}):
        res = grad_through_steps(STEP, Y0, n, w, every=k)
        np.testing.assert_array_equal(res.grad, plain.grad)
        np.testing.assert_array_equal(res.y_final, plain.y_final)


def test_against_forward_mode_and_finite_differences():
    n = 250
    for w in (np.array([1.0, 0.0]), np.array([0.0, 1.0])):
        g = grad_through_steps(STEP, Y0, n, w, every=16).grad
        fwd = w @ jacobian_forward(lambda y: flow(y, n), Y0)
        fd = gradient_fd(lambda y, w=w: float(w @ np.array(flow(y, n))), Y0)
        scale = np.abs(fwd).max()
        assert np.abs(g - fwd).max() < 64 * EPS * scale  # round-off of 250 steps, measured ~4 eps
        assert np.abs(g - fd).max() < 1e-7 * scale  # central differences: O(h^2) + O(eps/h)


def test_linear_problem_closed_form():
    # y' = A y with A = [[0, 1], [-1, 0]]: one RK4 step is y -> R(hA) y,
    # R(Z) = I + Z + Z^2/2 + Z^3/6 + Z^4/24, so w^T dy_N/dy_0 = w^T R(hA)^N.
    A = np.array([[0.0, 1.0], [-1.0, 0.0]])
    Z = H * A
    R = np.eye(2) + Z + Z @ Z / 2 + Z @ Z @ Z / 6 + Z @ Z @ Z @ Z / 24
    step = rk4_step(lambda y: [y[1], -y[0]], H)
    w, n = np.array([2.0, -0.5]), 500
    expected = w @ np.linalg.matrix_power(R, n)
    got = grad_through_steps(step, [0.2, 0.1], n, w, every=20).grad
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


def test_rk4_step_matches_the_library_integrator():
    prob = rn.HamiltonianProblem(lambda q: np.sin(q), [1.0], [0.0], (0.0, 2.0))
    sol = rn.integrate(prob, "rk4", H)
    ours = flow(Y0, 20)
    np.testing.assert_allclose(ours, sol.y_final, rtol=0, atol=16 * EPS)


@pytest.mark.parametrize("n, k", [(100, 1), (100, 7), (100, 64), (100, 100), (1600, 16), (5, 3)])
def test_counts_are_those_of_the_schedule(n, k):
    res = grad_through_steps(STEP, Y0, n, [1.0, 0.0], every=k)
    s = math.ceil(n / k)
    per_step = 34  # nodes one pendulum RK4 step records (counted on the tape)
    assert res.stored_states == s
    assert res.recomputed_steps == (s - 1) * k
    assert res.step_calls == n + (s - 1) * k
    assert res.peak_tape_nodes == 2 + min(k, n) * per_step
    assert checkpoint_counts(n, k) == {
        "stored_states": s,
        "recomputed_steps": (s - 1) * k,
        "longest_segment": min(k, n),
    }


def test_plain_tape_grows_linearly_with_the_number_of_steps():
    ns = (10, 20, 40, 80)
    nodes = [grad_through_steps(STEP, Y0, n, [1.0, 0.0]).peak_tape_nodes for n in ns]
    assert np.all(np.diff(nodes) / np.diff(ns) == 34)  # the same nodes for every step


def test_steps_that_pass_entries_through_or_return_constants():
    # y1 is carried unchanged, y2 is reset to a constant: d y_N / d y_0 = [1, 0] for y1.
    step = lambda y: [y[0] * 1.0 + 0.0 * y[1], 5.0]  # noqa: E731
    res = grad_through_steps(step, [2.0, 3.0], 6, [1.0, 1.0], every=4)
    np.testing.assert_array_equal(res.grad, [1.0, 0.0])
    ident = grad_through_steps(lambda y: [y[0], y[1]], [2.0, 3.0], 5, [1.5, -2.0], every=2)
    np.testing.assert_array_equal(ident.grad, [1.5, -2.0])
    const = grad_through_steps(lambda y: [1.0, 2.0], [2.0, 3.0], 3, [1.0, 1.0], every=1)
    np.testing.assert_array_equal(const.grad, [0.0, 0.0])


def test_bad_step_and_arguments_are_named():
    with pytest.raises(
        ValueError, match="step must return one number per state entry \\(2\\), got 1"
    ):
        grad_through_steps(lambda y: [y[0]], Y0, 3, [1.0, 0.0])
    with pytest.raises(EvaluationError, match="step raised ZeroDivisionError.*at step index 0"):
        grad_through_steps(lambda y: 1 / 0, Y0, 3, [1.0, 0.0])
    with pytest.raises(TypeError, match="step must return Var values or real constants"):
        grad_through_steps(lambda y: ["a", 1.0], Y0, 3, [1.0, 0.0])
    with pytest.raises(DomainError, match="log\\(x\\) needs x > 0"):
        grad_through_steps(lambda y: [log(y[0] - 5.0), y[1]], Y0, 3, [1.0, 0.0])
    with pytest.raises(ValueError, match="weights must have one entry per entry of y0"):
        grad_through_steps(STEP, Y0, 3, [1.0])
    with pytest.raises(ValueError, match="every must be in \\[1, n_steps\\] = \\[1, 3\\], got 4"):
        grad_through_steps(STEP, Y0, 3, [1.0, 0.0], every=4)
    with pytest.raises(ValueError, match="n_steps must be an integer in"):
        grad_through_steps(STEP, Y0, 0, [1.0, 0.0])
    with pytest.raises(ValueError, match="h must be nonzero"):
        rk4_step(pendulum, 0.0)
    with pytest.raises(TypeError, match="f must be callable"):
        rk4_step(None, 0.1)
