"""Butcher tableaux are validated on construction and classified from their data."""

from fractions import Fraction as F

import numpy as np
import pytest

import robonum as rn
from robonum.tableau import ButcherTableau

EPS = np.finfo(float).eps


def test_every_catalogue_tableau_is_consistent():
    for key in rn.methods.names("rk"):
        tab = rn.methods.get(key)
        # Row sums of at most 7 entries <= 1 (c and b are rounded separately): a few ulps.
        assert np.max(np.abs(tab.A.sum(axis=1) - tab.c)) <= 16 * EPS, key
        assert abs(tab.b.sum() - 1) <= 16 * EPS, key
        assert not tab.A.flags.writeable  # methods are constants


def test_rational_tableaux_keep_exact_coefficients():
    rk4 = rn.methods.get("rk4")
    assert rk4.exact["b"].tolist() == [F(1, 6), F(1, 3), F(1, 3), F(1, 6)]
    assert rk4.exact["c"].tolist() == [0, F(1, 2), F(1, 2), 1]
    assert rn.methods.get("sdirk2").exact is None  # gamma = 1 - sqrt(2)/2 is irrational


@pytest.mark.parametrize(
    "key, kind",
    [
        ("euler", "explicit"),
        ("rk4", "explicit"),
        ("dopri5", "explicit"),
        ("backward_euler", "SDIRK"),
        ("sdirk2", "SDIRK"),
        ("sdirk3", "SDIRK"),
        ("trapezoid", "DIRK"),
        ("gauss2", "implicit"),
        ("radau3", "implicit"),
    ],
)
def test_kind_is_read_from_the_structure_of_A(key, kind):
    assert rn.methods.get(key).kind == kind


def test_registry_lookup_and_errors():
    assert rn.methods.get("RK4") is rn.methods.get("rk4")
    with pytest.raises(ValueError, match="method must be one of"):
        rn.methods.get("rk5")
    with pytest.raises(TypeError, match="method must be"):
        rn.methods.get(4)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(A=[[0, 0], [1, 0]], b=[0.5, 0.6]), ValueError, "sum to 1"),
        (
            dict(A=[[0, 0], [1, 0]], b=[0.5, 0.5], c=[0, 0.9]),
            ValueError,
            "row sums of A must equal c",
        ),
        (dict(A=[[0, 0, 0]], b=[1, 0, 0]), ValueError, "square"),
        (dict(A=[[0, 0], [1, 0]], b=[1]), ValueError, "b must have shape"),
        (dict(A=[[0, 0], [1, 0]], b=[0.5, 0.5], order=0), ValueError, "order"),
        (
            dict(A=[[0, 0], [1, 0]], b=[0.5, 0.5], b_hat=[1, 1], order_hat=1),
            ValueError,
            "b_hat must sum",
        ),
        (dict(A=[[np.nan]], b=[1]), ValueError, "finite"),
    ],
)
def test_inconsistent_tableaux_are_rejected(kwargs, error, match):
    with pytest.raises(error, match=match):
        ButcherTableau("bad", **kwargs)


def test_new_evals_per_step_counts_a_first_same_as_last_stage_once():
    # s new calls a step; one fewer when the last stage is the next step's first
    assert [rn.methods.get(k).new_evals_per_step for k in ("euler", "rk4", "bs23", "dopri5")] == [
        1,
        4,
        3,
        6,
    ]
    # and what a run counts: 2 calls to start (f(t0, y0), the first step's trial) + that per try
    p = rn.problems.logistic()
    for key in ("bs23", "dopri5"):
        s = rn.solve_ivp(p.f, p.t_span, p.y0, method=key, rtol=1e-6, atol=1e-6)
        per_step = rn.methods.get(key).new_evals_per_step
        assert s.nfev == 2 + per_step * (s.nsteps + s.nreject)
    with pytest.raises(ValueError, match="Radau IIA.*new_evals_per_step is for explicit"):
        _ = rn.methods.get("radau3").new_evals_per_step
