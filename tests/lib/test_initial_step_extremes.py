"""The first step and the least step where the scaled sizes are extreme (a tiny atol, a huge rate).

``|f0| / (atol + rtol |y0|)`` can pass 1e154, where its square overflows; the first-step
formula then gave ``h = 0`` and the run raised ZeroDivisionError.  And a step below
``16 eps max(|t|, 1)`` counted as underflow, so a run near ``t = 0`` that needs steps far
below 1e-15 (ROBER with ``atol = 1e-100``, which SciPy's BDF solves) stopped after one step.
"""

import math

import numba
import numpy as np
import pytest

import robonum as rn
from robonum import control
from robonum.fast import driver

EPS, TINY = np.finfo(float).eps, np.finfo(float).tiny


def test_the_least_step_is_relative_to_t():
    assert control.smallest_step(0.0) == TINY
    assert control.smallest_step(-1e3) == 16 * EPS * 1e3
    assert control.smallest_step(1e-300) == TINY  # 16 eps 1e-300 is below the smallest normal
    assert driver.smallest_step(2.5) == control.smallest_step(2.5)  # the compiled rule is this one
    assert control.at_least(math.nan, 1e-9) == 1e-9 and control.at_least(0.5, 1e-9) == 0.5


def test_scaled_rms_keeps_the_plain_value_and_survives_overflow():
    v, scale = np.array([3.0, -4.0j]), np.array([1.0, 2.0])
    assert control.scaled_rms(v, scale) == math.sqrt((9 + 4) / 2)  # every bit of the plain form
    big = np.array([1e200, 1e200])
    assert control.scaled_rms(big, np.ones(2)) == pytest.approx(1e200, rel=4 * EPS)
    assert control.scaled_rms(np.zeros(3), np.ones(3)) == 0.0
    compiled = numba.njit(lambda v, s: driver.scaled_rms(v, s))
    assert compiled(big, np.ones(2)) == pytest.approx(1e200, rel=4 * EPS)


def test_a_huge_rate_ends_with_a_status_not_an_exception():
    sol = rn.solve_ivp(lambda t, y: 1e160 * y, (0, 1), [1.0])  # y = e^(1e160 t) overflows at once
    assert sol.status == -1 and "t = " in sol.message


def test_a_tiny_atol_near_t0_is_solved():
    sol = rn.solve_ivp(lambda t, y: np.ones(1), (0, 1), [0.0], atol=1e-160)
    assert sol.success and sol.y[0, -1] == pytest.approx(1.0, rel=1e-12)


@pytest.mark.parametrize("method", ["bdf", "radau5"])
def test_rober_with_atol_1e_100_reaches_its_end(method):
    """Steps of ~1e-90 near t = 0 are no underflow: t moves by each of them."""
    p = rn.problems.testset.rober()
    sol = rn.solve_ivp(p.f, p.t_span, p.y0, method=method, rtol=1e-6, atol=1e-100)
    assert sol.success, sol.message
    assert rn.problems.testset.digits(sol.y[:, -1], p.params["reference"]) > 3  # the 1e11 answer
    fast = rn.fast.solve_ivp(p.f, p.t_span, p.y0, rtol=1e-6, atol=1e-100)
    assert fast.success, fast.message
