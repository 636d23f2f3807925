"""Chapter 7's decision table: the measurements it is built from, checked independently of
the page (orders by halving, energy growth exponents, orthogonality of rotations)."""

import numpy as np
import pytest

import robonum as rn
from robonum import lie

TIGHT = rn.NewtonOptions(tol=1e-14, max_iter=30)


@pytest.mark.parametrize(
    "method, order",
    [
        ("rk4", 4),
        ("dopri5", 5),
        (rn.ImplicitRK("radau3", newton=TIGHT), 5),
        (rn.Multistep("bdf2", newton=TIGHT), 2),
    ],
)
def test_orders_on_the_logistic_equation(method, order):
    study = rn.convergence_study(rn.problems.logistic(), method, rn.halving(0.5, 4))
    assert study.fitted_order() == pytest.approx(order, abs=0.25)
    assert study.observed_orders[-1] == pytest.approx(order, abs=0.1)


def test_verlet_order_on_the_oscillator():
    study = rn.convergence_study(rn.problems.harmonic_oscillator(), "verlet", rn.halving(0.5, 4))
    assert study.fitted_order() == pytest.approx(2, abs=0.05)


def test_energy_error_growth_exponents():
    """Störmer-Verlet's energy error stays bounded (α ≈ 0); RK4 and dopri5 drift (α ≈ 1)."""
    pend = rn.problems.pendulum(t_span=(0.0, 100.0))
    en = rn.analysis.energy
    alpha = {}
    for m in ("rk4", "dopri5", "verlet"):
        s = rn.integrate(pend, m, 0.1)
        alpha[m] = en.growth_exponent(s.t, en.energy_error(pend.energy(s.y)), 10.0, 100.0)
    assert abs(alpha["verlet"]) < 0.05
    assert 0.8 < alpha["rk4"] < 1.2 and 0.8 < alpha["dopri5"] < 1.2


def test_rotation_orthogonality_after_1000_steps():
    err = {
        m: lie.orthogonality_errors(
            lie.integrate_rotation(
                np.eye(3), [0.3, -0.5, 0.8], (0.0, 10.0), 0.01, m, save_every=1000
            ).R
        )[-1]
        for m in ("euler", "rk4", "exp")
    }
    # matrix Euler: the closed-form prediction; exp: round-off only (a sum of ~1000 roundings)
    assert err["euler"] == pytest.approx(
        lie.euler_orthogonality_prediction([0.3, -0.5, 0.8], 0.01, 1000), rel=1e-9
    )
    assert 1e-13 < err["rk4"] < 1e-9
    assert err["exp"] < 1e-12
