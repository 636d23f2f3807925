"""An explicit method that spends its steps on a stiff problem says what that may mean."""

import numpy as np
import pytest

import robonum as rn
from robonum.steppers import RadauIIA

MU = 1000.0  # van der Pol with mu = 1000: DOPRI5's step sits at its stability bound, ~2e-3 / mu


def vdp(t, y):
    return np.array([y[1], -MU * (y[0] ** 2 - 1) * y[1] - y[0]])


@pytest.mark.parametrize("method", ["dopri5", "RK45", "bs23"])
def test_an_explicit_method_that_runs_out_of_steps_points_at_stiffness(method):
    s = rn.solve_ivp(vdp, (0.0, 3000.0), [2.0, 0.0], method=method, max_steps=2000)
    assert s.status == -1 and s.reason == "max_steps"
    mean_h = float(s.message.split("averaged ")[1].split(":")[0])
    # the mean in the message is the run's own, t reached over accepted steps (3 digits: 0.5 %)
    assert mean_h == pytest.approx((s.t[-1] - s.t[0]) / s.nsteps, rel=1e-2)
    assert "method='radau' or 'bdf'" in s.message


def test_an_implicit_method_gets_no_such_hint():
    s = rn.solve_ivp(vdp, (0.0, 3000.0), [2.0, 0.0], method="radau", max_steps=50)
    assert s.reason == "max_steps" and "stiff" not in s.message
    p = rn.ODEProblem(vdp, [2.0, 0.0], (0.0, 3000.0))
    s = rn.integrate(p, RadauIIA(3), rtol=1e-4, atol=1e-6, max_steps=50)
    assert s.reason == "max_steps" and "stiff" not in s.message
