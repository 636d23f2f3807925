"""The planar n-link arm: analytic Jacobian against both AD modes, finite differences and counts."""

import numpy as np
import pytest

from robonum import arm
from robonum import autodiff as ad
from robonum import finite_diff as fd

EPS = np.finfo(float).eps


def angles(n):
    return np.random.default_rng(n).uniform(-np.pi, np.pi, n)


def test_two_links_are_the_chapters_arm_bit_for_bit():
    q = [0.3, 0.5]
    assert np.array_equal(arm.planar_fk(q, [1.0, 0.7]), arm.arm_fk(q))
    assert np.allclose(arm.planar_jacobian(q, [1.0, 0.7]), arm.arm_jacobian(q), rtol=0, atol=EPS)


@pytest.mark.parametrize("n", [1, 2, 6, 20, 50])
def test_the_formula_agrees_with_ad_and_differences(n):
    q = angles(n)
    J = arm.planar_jacobian(q)
    assert J.shape == (2, n) and np.abs(J).max() <= 1.0 + 4 * EPS  # reach 1 m
    # reverse mode accumulates each column from the tip, in the formula's order
    assert np.array_equal(ad.jacobian_reverse(arm.planar_fk, q), J)
    assert np.abs(ad.jacobian_forward(arm.planar_fk, q) - J).max() <= 4 * EPS
    assert np.abs(fd.jacobian_fd(arm.planar_fk, q, scheme="central") - J).max() < 1e-9
    assert np.abs(fd.jacobian_fd(arm.planar_fk, q, scheme="complex") - J).max() <= 4 * EPS


@pytest.mark.parametrize("n", [1, 2, 20])
def test_operation_counts(n):
    q = angles(n)
    cost = ad.ad_cost(arm.planar_fk, q)
    assert cost.ops_per_pass == 7 * n - 3
    assert (cost.forward_passes, cost.reverse_passes, cost.reverse_sweeps) == (n, 1, 2)
    tape = ad.Tape()
    arm.planar_jacobian([tape.var(v) for v in q])
    assert len(tape) - n == 8 * n - 3


def test_the_end_effector_moves_as_the_sum_of_links():
    assert np.allclose(arm.planar_fk([0.0] * 4), [1.0, 0.0])
    assert np.allclose(arm.planar_fk([np.pi / 2, 0.0], [2.0, 1.0]), [0.0, 3.0])


@pytest.mark.parametrize(
    "q, lengths, error, words",
    [
        ([], None, ValueError, "at least 1"),
        ("ab", None, TypeError, "sequence"),
        (3.0, None, TypeError, "sequence"),
        (np.zeros((2, 2)), None, ValueError, "1-D"),
        ([0.1, np.nan], None, ValueError, "finite"),
        ([0.1, True], None, TypeError, "bool"),
        ([0.1, np.zeros(2)], None, TypeError, r"q\[1\]"),
        (np.zeros(arm.LINKS_MAX + 1), None, ValueError, "len\\(q\\)"),
        ([0.1, 0.2], [1.0], ValueError, "one length per joint"),
        ([0.1, 0.2], [1.0, -1.0], ValueError, "lengths must lie"),
        ([0.1, 0.2], [1.0, 2e3], ValueError, "lengths must lie"),
        ([0.1, 0.2], [1.0, np.inf], ValueError, "finite"),
    ],
)
def test_bad_input_is_named(q, lengths, error, words):
    for func in (arm.planar_fk, arm.planar_jacobian):
        with pytest.raises(error, match=words):
            func(q, lengths)
