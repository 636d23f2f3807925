"""Jacobian strategies of the Newton iteration: full Newton, J per step, J reused.

Truth used: the backward-Euler step of the logistic equation is the
quadratic h y² + (1 - h) y - y_n = 0 with closed-form roots; Newton's error
constant there is |G''| / (2 G'(y*)²) = h / G'(y*)² for the residuals, and
the simplified iteration with M = G'(y_n) contracts at |1 - G'(y*)/G'(y_n)|
(Ortega & Rheinboldt, ch. 10; Hairer & Wanner II, sec. IV.8).  Counters
are checked against what each strategy must cost by construction.
"""

import numpy as np
import pytest

import robonum as rn
from robonum.problems.chains import flexible_chain
from robonum.steppers import ImplicitRK, Multistep

EPS = np.finfo(float).eps


def be_step(y_n, h, jacobian="full", predictor="zero", **opts):
    """One backward-Euler step of the logistic equation, recorded."""
    p = rn.problems.logistic(y0=y_n, r=1.0, K=1.0, t_span=(0.0, h))
    st = ImplicitRK(
        "backward_euler",
        newton=rn.NewtonOptions(jacobian=jacobian, **opts),
        predictor=predictor,
        record=True,
    )
    return rn.integrate(p, st, h), st


def roots(y_n, h):
    return np.sort(np.roots([h, 1.0 - h, -y_n]).real)


@pytest.mark.parametrize(
    "y_n, h, predictor",
    [(0.1, 0.5, "zero"), (0.1, 0.5, "euler"), (0.1, 2.5, "zero"), (0.3, 1.0, "euler")],
)
def test_full_newton_converges_quadratically(y_n, h, predictor):
    tol = 1e-14
    sol, st = be_step(y_n, h, "full", predictor, tol=tol)
    y = sol.y_final[0]
    assert np.min(np.abs(roots(y_n, h) - y)) < tol  # the accuracy Newton was asked for
    C = h / (2 * h * y + 1 - h) ** 2  # |G''| / (2 G'(y*)^2) for the residuals
    res = np.array(st.trace[-1].result.residuals)
    ok = res[1:] > 1e-11  # pairs above rounding
    ratios = res[1:][ok] / res[:-1][ok] ** 2
    assert ratios.size >= 1 and abs(ratios[-1] / C - 1) < 0.05, (ratios, C)
    assert st.trace[-1].njev == st.trace[-1].nlu == st.trace[-1].result.iterations


def test_simplified_newton_contracts_linearly_at_the_predicted_rate():
    y_n, h = 0.1, 0.5
    sol, st = be_step(y_n, h, "step", tol=1e-14, max_iter=60)
    first = st.trace[0]
    assert first.jacobian == "new" and first.result.converged and first.njev == 1 and first.nlu == 1
    y = sol.y_final[0]
    rate = abs(1 - (2 * h * y + 1 - h) / (1 - h * (1 - 2 * y_n)))  # 1 - G'(y*)/G'(y_n)
    c = np.array(first.result.corrections)
    assert abs(c[-2] / c[-3] - rate) < 0.02 * rate
    assert first.result.iterations > 10  # linear: many more iterations than Newton


def test_the_start_decides_the_root():
    """y_n = 0.1: from y_n Newton finds the negative root for h > 1/(1 - 2 y_n), the explicit
    Euler start never does (1 - 0.8 h + 0.18 h² > 0); y_n = 0.05: the predictor lands left of
    the parabola's vertex for 1.28 < h < 8.19 and Newton goes to the negative root too."""
    for h in (1.5, 2.5, 5.0):
        lo, hi = roots(0.1, h)
        assert be_step(0.1, h, predictor="zero")[0].y_final[0] == pytest.approx(lo, abs=1e-12)
        assert be_step(0.1, h, predictor="euler")[0].y_final[0] == pytest.approx(hi, abs=1e-12)
    sol, _ = be_step(0.1, 1.25, predictor="zero")  # G'(y_n) = 0: singular iteration matrix
    assert sol.reason == "newton_failed"
    window = np.sort(np.roots([2 * 0.05 * 0.95, -(1 - 2 * 0.05), 1.0]).real)
    assert window == pytest.approx([1.28, 8.19], abs=0.01)
    for h, wrong in [(1.2, False), (1.35, True), (8.1, True), (8.3, False)]:
        lo, hi = roots(0.05, h)
        assert be_step(0.05, h, predictor="euler")[0].y_final[0] == pytest.approx(
            lo if wrong else hi, abs=1e-12
        )


@pytest.fixture(scope="module")
def chain():
    return flexible_chain(n=2, K3=3e9, twist=1e-3, t_span=(0.0, 0.2))


@pytest.mark.parametrize("method", ["backward_euler", "sdirk2", "radau2"])
def test_counters_match_each_strategy(chain, method):
    """For Radau IIA "full" takes one J (at the last stage): not Newton proper, so the first,
    most twisted step may need the fallback; the counts below include it."""
    runs, retries = {}, {}
    for strategy in ("full", "step", "reuse"):
        st = ImplicitRK(method, newton=rn.NewtonOptions(jacobian=strategy), record=True)
        sol = rn.integrate(chain, st, 2e-3)
        assert sol.success, sol.message
        ps = st.per_step()
        assert (ps["iterations"].sum(), ps["njev"].sum(), ps["nlu"].sum()) == (
            sol.n_newton,
            sol.njev,
            sol.nlu,
        )
        assert np.all(ps["solves"] == (1 if method == "radau2" else rn.methods.get(method).s))
        runs[strategy] = sol
        # J evaluations after a failed attempt: one per retry, one per fallback iteration
        retries[strategy] = sum(
            a.njev for a in st.trace if a.jacobian not in ("new", "kept", "full")
        )
    full, step, reuse = runs["full"], runs["step"], runs["reuse"]
    assert full.njev == full.nlu == full.n_newton  # J and LU at every iterate
    # one J, one LU per step (SDIRK: for both stages), plus those of the retries
    assert step.njev == step.nlu == step.nsteps + retries["step"]
    assert retries["step"] < step.nsteps / 2
    assert reuse.njev == reuse.nlu < step.nsteps / 2  # reused across steps
    assert reuse.n_newton >= step.n_newton >= full.n_newton  # ... at the price of iterations
    for a, b in [(full, step), (full, reuse)]:
        assert np.max(np.abs(a.y_final - b.y_final)) < 1e-8


def test_reuse_refreshes_only_after_slow_contraction(chain):
    opts = rn.NewtonOptions()
    st = ImplicitRK("backward_euler", newton=opts, record=True)
    sol = rn.integrate(chain, st, 2e-3)
    tr = st.trace
    new = [i for i, a in enumerate(tr) if a.jacobian == "new"]
    assert new[0] == 0 and len(new) > 3  # the stiffening spring forces refreshes
    for i in new[1:]:
        before = tr[i - 1]
        assert (not before.result.converged) or before.result.theta > opts.theta_reuse
    assert sol.njev == len(new) + sum(a.jacobian in ("refreshed", "at_iterate") for a in tr)


def test_sdirk_stages_share_one_lu_per_step(chain):
    """Both stages solve with I - h γ J: one key, one LU per step unless a solve had to retry."""
    st = ImplicitRK("sdirk2", newton=rn.NewtonOptions(jacobian="step"), record=True)
    rn.integrate(chain, st, 2e-3)
    by_step = {}
    for a in st.trace:
        by_step.setdefault(a.t, []).append(a)
    clean = 0
    for attempts in by_step.values():
        assert {a.key for a in attempts} == {("dirk", 2e-3 * rn.methods.get("sdirk2").A[0, 0])}
        if [a.jacobian for a in attempts] == ["new", "kept"]:
            assert [a.nlu for a in attempts] == [1, 0]
            clean += 1
        else:  # a retry: one more J and LU at the iterate each
            assert sum(a.nlu for a in attempts) == 1 + sum(
                a.jacobian == "at_iterate" for a in attempts
            )
    assert clean > len(by_step) / 2


@pytest.mark.parametrize("strategy", ["full", "step"])
def test_multistep_uses_the_strategies_too(strategy):
    p = rn.problems.van_der_pol(mu=100.0, t_span=(0.0, 1.0))
    ref = rn.integrate(p, "bdf2", 1e-3)
    sol = rn.integrate(p, Multistep("bdf2", newton=rn.NewtonOptions(jacobian=strategy)), 1e-3)
    assert sol.success and np.max(np.abs(sol.y_final - ref.y_final)) < 1e-7
    assert sol.njev > ref.njev
    if strategy == "full":
        assert sol.njev == sol.nlu == sol.n_newton


def test_bad_strategy_names():
    for bad in ("Full", "", 1, None):
        with pytest.raises(ValueError, match="jacobian must be one of"):
            rn.NewtonOptions(jacobian=bad)
