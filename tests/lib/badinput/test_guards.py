"""Doors that let a bad value through to a NaN, an IndexError or a hang (issue 28, items 3-8).

Each case names the function, the bad input and what must come back: an error that
names the parameter, or an honest value (inf for a state that is no longer finite).
"""

import re
import warnings

import numpy as np
import pytest

import robonum as rn
from robonum.analysis import energy
from robonum.analysis import multistep as ms
from robonum.analysis.order_conditions import elementary_weight
from robonum.book import bench
from robonum.problems.testset import digits
from robonum.work import Work


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: bench.work_at([1, 2], [10], 1.5), ValueError, "equally long"),
        (lambda: bench.work_at([1, 2], [-10, 20], 1.5), ValueError, "work_list must be positive"),
        (lambda: bench.work_at([1, 2], [10, 20], np.nan), ValueError, "target"),
        (lambda: bench.better_work_at([[{}]], 4.0), ValueError, "codes must hold results"),
        (lambda: rn.modified_newton.ModifiedNewton("x"), TypeError, "opts must be a NewtonOptions"),
        (lambda: rn.StepController(5).adapt(np.nan, 0.5), ValueError, "h must be finite"),
        (lambda: rn.observed_orders([0.1, 0.1], [1e-3, 1e-4]), ValueError, "must not repeat"),
        (lambda: ms.error_constants([1, -1], [0, 1], 2**63), ValueError, "q_max"),
        (lambda: elementary_weight(((),), "abc", [1]), ValueError, "A must be (s, s)"),
        (
            lambda: rn.ButcherTableau("big", A=[[0, 0], [1e154, 0]], b=[0.5, 0.5]),
            ValueError,
            "at most 1e+08",
        ),
    ],
)
def test_a_bad_value_is_a_named_error(call, error, words):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # and no warning on the way
        with pytest.raises(error, match=re.escape(words)):
            call()


def test_exploration_doors():
    from robonum.explore import Exploration, Param, render

    with pytest.raises(ValueError, match="not distinct to 6 significant digits"):
        Param.grid("x", 1, 1 + 1e-9, 5)
    with pytest.raises(ValueError, match=re.escape("size must be a pair (width, height)")):
        Exploration(lambda x: None, [Param.grid("x", 0, 1, 3)], size=(1,))
    with pytest.raises(TypeError, match="text must be a str"):
        render.message_figure(None)


def test_a_solver_returning_nonsense_is_named():
    p = rn.problems.testset.rober()
    with pytest.raises(TypeError, match="solver must return a solve_ivp-like result"):
        bench.run(p, lambda *a, **k: "done", "bdf", 1e-4, 1e-8)


def test_digits_of_a_huge_error_are_finite():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert digits([1e308], [-1e308]) == pytest.approx(-np.log10(2))


@pytest.mark.parametrize(
    "h, y, problem, words",
    [
        (10**400, None, None, "h must be finite and > 0"),
        (0.1, "abc", None, r"y must be a float array of shape \(2,\)"),
        (0.1, None, rn.ODEProblem(lambda t, y: -y, [1.0, 0.0], (0, 1)), "HamiltonianProblem"),
    ],
)
def test_a_symplectic_step_called_by_hand_guards_its_door(h, y, problem, words):
    problem = problem or rn.problems.pendulum(t_span=(0, 1))
    stepper, work = rn.Symplectic("verlet"), Work(problem)
    y = problem.y0.copy() if y is None else y
    with pytest.raises((TypeError, ValueError), match=words):
        stepper.step(work, 0.0, y, h, stepper.init(work, 0.0, problem.y0.copy(), 0.1))


def test_a_state_that_is_no_longer_finite_measures_inf_not_nan():
    E = energy.separable_energy(lambda q: -np.cos(q[0]), [[np.nan, 0.0]], [[1.0, 1.0]])
    assert E[0] == np.inf and E[1] == pytest.approx(-0.5)
    R = np.stack([np.full((3, 3), np.nan), np.eye(3)])
    np.testing.assert_array_equal(rn.lie.orthogonality_errors(R), [np.inf, 0.0])
    Q = np.array([[np.nan, 1.0], [0, 0], [0, 0], [0, 0]])
    np.testing.assert_array_equal(rn.lie.quaternion.norm_errors(Q), [np.inf, 0.0])
    with pytest.raises(ValueError, match="V returned NaN or inf at a finite q"):
        energy.separable_energy(lambda q: np.log(q[0] - 1), [[0.0]], [[1.0]])
