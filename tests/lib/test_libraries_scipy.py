"""Chapter 7 (book/derivatives/libraries): SciPy's solve_ivp on the stiff cosine problem.

The seed's example 7 and NOTES.md give the counts for the pinned SciPy (1.17.1); the
page prints them and these tests pin them.  Also checked: what ``nfev`` counts in each
SciPy method, robonum's dopri5 against RK45, and the stability model of the explicit cost.
"""

import numpy as np
import pytest
import scipy
import scipy.integrate as si

import robonum as rn

RTOL, ATOL = 1e-6, 1e-9


def solve(lam, method, jac=True, rtol=RTOL, atol=ATOL):
    p = rn.problems.stiff_cosine(lam=lam)
    calls = [0]

    def f(t, y):
        calls[0] += 1
        return p.f(t, y)

    kw = {"jac": p.jac} if jac and method not in ("RK45", "DOP853") else {}
    sol = si.solve_ivp(f, p.t_span, p.y0, method=method, rtol=rtol, atol=atol, **kw)
    assert sol.success
    return sol, calls[0]


@pytest.mark.skipif(scipy.__version__ != "1.17.1", reason="counts pinned for SciPy 1.17.1")
@pytest.mark.parametrize(
    "method, nfev", [("RK45", 2162), ("DOP853", 2870), ("Radau", 84), ("BDF", 54), ("LSODA", 116)]
)
def test_seed_example7_counts(method, nfev):
    sol, calls = solve(-1000.0, method)
    assert sol.nfev == nfev == calls
    assert abs(sol.y[0, -1] - np.cos(1.0)) < 1e-6  # all meet the tolerance at t = 1


def test_nfev_does_not_count_the_same_thing_in_every_method():
    """Without a Jacobian, Radau and BDF difference f for it but leave those calls out of
    nfev; LSODA counts them (so its nfev grows by one call per Jacobian for n = 1)."""
    for method in ("Radau", "BDF"):
        sol, calls = solve(-1000.0, method, jac=False)
        assert calls > sol.nfev
        assert sol.nfev == solve(-1000.0, method)[0].nfev  # same run as with the Jacobian
    sol, calls = solve(-1000.0, "LSODA", jac=False)
    assert calls == sol.nfev == solve(-1000.0, "LSODA")[0].nfev + sol.njev


@pytest.mark.parametrize("lam", [-1.0, -10.0, -100.0, -1000.0])
def test_robonum_dopri5_takes_the_steps_of_scipy_rk45(lam):
    ours = rn.integrate(rn.problems.stiff_cosine(lam=lam), "dopri5", rtol=RTOL, atol=ATOL)
    assert ours.nfev == solve(lam, "RK45")[0].nfev


def test_explicit_cost_follows_the_stability_interval():
    """nfev ~ 6 |λ| / |x*| (dopri5's real stability interval), within 50 % once stiff."""
    x_star = abs(rn.methods.get("dopri5").real_stability_interval())
    nfev = solve(-1e4, "RK45")[0].nfev
    assert 1.0 < nfev / (6 * 1e4 / x_star) < 1.5


def test_implicit_cost_does_not_grow_with_lambda():
    for method in ("Radau", "BDF"):
        counts = [solve(lam, method)[0].nfev for lam in (-1.0, -1e2, -1e4, -1e6)]
        assert max(counts) < 150, (method, counts)
