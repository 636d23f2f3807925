"""A user function that goes bad in the middle of a run, not at the door.

The property suite spoils ``f`` or ``jac`` from their first, second or fourth call on; the
checks made when a problem is built catch most of that.  Here they go bad deep inside a run
(``f`` from its 21st call, ``jac`` from its 3rd; these runs make 4 to 19 Jacobians): in
Newton's iterations, a difference Jacobian, an error estimate.  Every outcome must still be
good by the suite's oracle: an error naming the function, or a run that reports its failure
(a NaN is ``status = -1``, never a value).  A search over all nine ``solve_ivp`` methods and
nine ``integrate`` methods, the functions spoiled after 5, 20, 60 or 200 calls where a run
made that many (2026-12-07), found nothing; this keeps a part of it.
"""

import numpy as np
import pytest

import robonum as rn

from .hostile import HostileCallable
from .oracle import classify
from .suite import API

MU = 10.0  # van der Pol, mildly stiff: every method takes some 50+ calls of f on [0, 2]


def f(t, y):
    return np.array([y[1], -MU * (y[0] ** 2 - 1) * y[1] - y[0]])


def jac(t, y):
    return np.array([[0.0, 1.0], [-2 * MU * y[0] * y[1] - 1.0, -MU * (y[0] ** 2 - 1)]])


AFTER = {"fun": 20, "f": 20, "jac": 2}  # calls that pass before the function goes bad


@pytest.mark.parametrize("kind", HostileCallable.KINDS)
@pytest.mark.parametrize(
    "method, target",
    [("dopri5", "fun"), ("radau", "fun"), ("bdf", "fun"), ("radau", "jac"), ("bdf", "jac")],
)
def test_solve_ivp_names_a_function_that_goes_bad_mid_run(method, target, kind):
    kwargs = dict(fun=f, t_span=(0.0, 2.0), y0=[2.0, 0.0], method=method, rtol=1e-4, atol=1e-6)
    kwargs["max_steps"] = 5_000  # "scaled" makes f 1e4 times stiffer: dopri5 stops here, not at 1e5
    kwargs["jac"] = jac if target == "jac" else None  # without: f also builds the Jacobian
    hostile = HostileCallable(kwargs[target], kind, AFTER[target])
    kwargs[target] = hostile
    outcome, detail = classify(API["robonum.solve_ivp"], kwargs, target, hostile)
    assert outcome == "good", detail
    assert hostile.calls > AFTER[target], (
        "the run ended before the function went bad: nothing tested"
    )


def _integrate(f, jac, method):
    return rn.integrate(rn.ODEProblem(f, [2.0, 0.0], (0.0, 2.0), jac=jac), method, 0.01)


@pytest.mark.parametrize("kind", HostileCallable.KINDS)
@pytest.mark.parametrize("method, target", [("rk4", "f"), ("radau3", "f"), ("bdf2", "jac")])
def test_integrate_names_a_function_that_goes_bad_mid_run(method, target, kind):
    kwargs = dict(f=f, jac=jac, method=method)
    hostile = HostileCallable(kwargs[target], kind, AFTER[target])
    kwargs[target] = hostile
    outcome, detail = classify(_integrate, kwargs, target, hostile)
    assert outcome == "good", detail
    assert hostile.calls > AFTER[target], (
        "the run ended before the function went bad: nothing tested"
    )
