"""Each method's own dense output: DOPRI5's continuous extension (issue 30).

The cubic Hermite polynomial it replaced is third order, so values at ``t_eval``
were up to two orders of magnitude less accurate than the steps themselves.
"""

from fractions import Fraction as F

import numpy as np
import pytest
import scipy.integrate as si

import robonum as rn
from robonum.analysis.order_conditions import density, elementary_weight, trees

DOPRI5 = rn.methods.get("dopri5")


def dense_weights(tab, theta):
    """``b_i(theta)`` in exact arithmetic from the tableau's ``dense`` rows."""
    powers = [theta ** (k + 1) for k in range(tab.dense.shape[1])]
    return [sum(F(c) * p for c, p in zip(row, powers)) for row in tab.dense]


def continuous_residuals(tab, order, theta):
    A = tab.exact["A"]
    b = dense_weights(tab, theta)
    return [
        elementary_weight(t, A, b) - theta**len_ / density(t)
        for len_ in range(1, order + 1)
        for t in trees(len_)
    ]


def test_dopri5_extension_has_order_4_for_every_theta():
    # each residual is a polynomial of degree <= 4 in theta: zero at 5 points is zero everywhere
    # (F(c) of a float coefficient is exact: the rows are the float images of the rationals,
    # each within eps/2 of it, and a residual sums a few products of O(1) weights, so it is a
    # few eps at most: 2 eps at theta = 1, where the weights are largest)
    eps = np.finfo(float).eps
    for theta in (F(1, 5), F(2, 5), F(3, 5), F(4, 5), F(1)):
        worst = max(abs(r) for r in continuous_residuals(DOPRI5, 4, theta))
        assert worst <= 4 * eps, (theta, float(worst / eps))
    assert DOPRI5.dense_order == 4


def test_dopri5_extension_is_not_order_5_between_the_steps():
    fifth = continuous_residuals(DOPRI5, 5, F(1, 2))
    assert max(abs(r) for r in fifth) > 1e-4


def test_a_continuous_extension_must_fit_b():
    rows = np.array(DOPRI5.dense, dtype=float)
    rows[0, 1] += 1e-3
    with pytest.raises(ValueError, match="at theta = 1 must equal b"):
        rn.ButcherTableau("bad", A=DOPRI5.A, b=DOPRI5.b, order=5, dense=rows, dense_order=4)
    rows[0, 1] -= 1e-3
    rows[0, 2] += 1e-3  # still b at theta = 1 only if another column pays it back
    rows[0, 3] -= 1e-3
    with pytest.raises(ValueError, match="must sum to theta"):
        rn.ButcherTableau("bad", A=DOPRI5.A, b=DOPRI5.b, order=5, dense=rows, dense_order=4)
    with pytest.raises(ValueError, match="give both or neither"):
        rn.ButcherTableau("bad", A=DOPRI5.A, b=DOPRI5.b, order=5, dense_order=4)


def rational(t, y):
    return np.array([y[1] / t, y[1] * (y[0] + 2 * y[1] - 1) / (t * (y[0] - 1))])


def rational_exact(t):
    return np.asarray((t / (t + 10), 10 * t / (t + 10) ** 2))


@pytest.mark.parametrize("rtol", [1e-6, 1e-9, 1e-12])
def test_dopri5_t_eval_is_as_accurate_as_scipys(rtol):
    # SciPy's RK45 uses the same extension; both codes take about the same steps here
    # (equal f-counts +-5 %), so the errors at t_eval agree within a small factor.  The
    # Hermite interpolant was 164x worse at rtol 1e-9.
    te = np.linspace(5, 9, 201)
    ours = rn.solve_ivp(rational, (5, 9), [1 / 3, 2 / 9], rtol=rtol, atol=rtol / 1e3, t_eval=te)
    ref = si.solve_ivp(rational, (5, 9), [1 / 3, 2 / 9], rtol=rtol, atol=rtol / 1e3, t_eval=te)
    e_ours = np.abs(ours.y - rational_exact(te)).max()
    e_ref = np.abs(ref.y - rational_exact(te)).max()
    assert e_ours < 2 * e_ref, (e_ours, e_ref)


def test_dense_output_costs_no_f_call_and_passes_through_the_steps():
    plain = rn.solve_ivp(rational, (5, 9), [1 / 3, 2 / 9], rtol=1e-8)
    dense = rn.solve_ivp(rational, (5, 9), [1 / 3, 2 / 9], rtol=1e-8, dense_output=True)
    assert dense.nfev == plain.nfev
    # at theta = 1 the extension sums the stages with b: the step itself, up to rounding
    # of the sums (a few ulps of |y|)
    np.testing.assert_allclose(dense.sol(dense.t), dense.y, rtol=8 * np.finfo(float).eps)
