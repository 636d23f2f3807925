"""Finite differences and the complex step: error models, the seed's h-sweep, pitfalls."""
import math

import matplotlib
import numpy as np
import pytest
import scipy.optimize

from robonum import arm
from robonum.autodiff import sin, tanh
from robonum.finite_diff import (EPS, derivative_fd, error_vs_h, gradient_fd, jacobian_fd,
                                 optimal_h, plot_error_vs_h)

matplotlib.use("Agg")
Q = (0.3, 0.5)   # the joint angles used for the chapter's example 5 (the seed does not say which)


@pytest.mark.parametrize("scheme, h, model", [
    # exp at x = 1: forward e(e^h - 1)/h - e ≈ e h/2;  central e(sinh h / h - 1) ≈ e h²/6;
    # complex e sin(h)/h - e ≈ -e h²/6  (hand Taylor expansions of the closed forms).
    ("forward", 1e-4, math.e * 1e-4 / 2),
    ("central", 1e-3, math.e * 1e-6 / 6),
    ("complex", 1e-3, -math.e * 1e-6 / 6),
])
def test_truncation_error_matches_taylor_model(scheme, h, model):
    f = np.exp if scheme != "complex" else (lambda z: np.exp(z))
    err = derivative_fd(f, 1.0, h=h, scheme=scheme) - math.e
    assert err / model == pytest.approx(1.0, abs=1e-3)


def test_observed_orders_one_and_two():
    f, x, exact = np.sin, 0.7, math.cos(0.7)
    for scheme, p in (("forward", 1), ("central", 2), ("complex", 2)):
        e1 = abs(derivative_fd(f, x, 1e-2, scheme) - exact)
        e2 = abs(derivative_fd(f, x, 5e-3, scheme) - exact)
        assert math.log2(e1 / e2) == pytest.approx(p, abs=0.02)


def test_forward_matches_scipy_approx_fprime():
    x = np.array([0.2, -0.4, 1.1])
    ours = gradient_fd(arm.sin_chain, x, h=1e-6, scheme="forward")
    ref = scipy.optimize.approx_fprime(x, arm.sin_chain, 1e-6)
    np.testing.assert_allclose(ours, ref, rtol=1e-8, atol=1e-9)
    np.testing.assert_allclose(gradient_fd(arm.sin_chain, x), arm.sin_chain_grad(x), rtol=1e-9)


def test_seed_example5_error_vs_h_structure():
    """Seed 003 ⑤: forward min 4.0e-8 at h=1e-8, 2.4e-4 at h=1e-12; central min 3.5e-11
    near 1e-5; complex step 2.2e-16 for h <= 1e-8.  We assert the structure, not the digits."""
    sweep = error_vs_h(arm.arm_fk, Q, arm.arm_jacobian(Q), hs=np.logspace(-16, -1, 61))
    h, fwd, cen, cs = sweep["h"], sweep["forward"], sweep["central"], sweep["complex"]
    i_f, i_c = np.argmin(fwd), np.argmin(cen)
    assert math.sqrt(EPS) / 10 < fwd[i_f] < 10 * math.sqrt(EPS)
    assert math.sqrt(EPS) / 10 < h[i_f] < 10 * math.sqrt(EPS)
    assert EPS ** (2 / 3) / 10 < cen[i_c] < 10 * EPS ** (2 / 3)
    assert EPS ** (1 / 3) / 10 < h[i_c] < 10 * EPS ** (1 / 3)
    assert h[i_c] > 10 * h[i_f]
    assert fwd[np.isclose(h, 1e-12)][0] > 1e3 * fwd[i_f]          # rounding ~ eps/h takes over
    assert np.all(cs[h <= 1e-8 * (1 + 1e-12)] <= 4 * EPS)
    assert cs[np.isclose(h, 1e-1)][0] > 1e-4                        # O(h²) truncation at large h


def test_rounding_error_grows_like_eps_over_h():
    # Below h*, forward-difference error ~ eps|f|/h: three decades of h ≈ three decades of error.
    sweep = error_vs_h(arm.arm_fk, Q, arm.arm_jacobian(Q), hs=[1e-10, 1e-13], schemes=("forward",))
    ratio = sweep["forward"][1] / sweep["forward"][0]
    assert 100 < ratio < 10_000


def test_complex_step_on_analytic_functions():
    for f, df, x in [(lambda z: z ** z, lambda x: x ** x * (math.log(x) + 1), 1.7),
                     (lambda z: tanh(sin(z)), lambda x: (1 - math.tanh(math.sin(x)) ** 2) * math.cos(x), 0.9),
                     (lambda z: 1 / (1 + z * z), lambda x: -2 * x / (1 + x * x) ** 2, 0.5)]:
        assert derivative_fd(f, x, scheme="complex") == pytest.approx(df(x), rel=4 * EPS)


def test_complex_step_pitfalls():
    # |x| x at x = -2 equals -x², derivative 4; abs() kills the imaginary part -> 2.
    wrong = derivative_fd(lambda z: abs(z) * z, -2.0, scheme="complex")
    assert wrong == pytest.approx(2.0) and derivative_fd(lambda z: abs(z) * z, -2.0) == pytest.approx(4.0)
    with pytest.raises(TypeError, match="complex step"):
        derivative_fd(lambda z: np.abs(z) ** 2, 1.0, scheme="complex")       # real output detected
    with pytest.raises(TypeError, match="complex step"), pytest.warns(np.exceptions.ComplexWarning):
        derivative_fd(lambda z: math.sin(z), 1.0, scheme="complex")          # math drops Im


def test_optimal_h_values():
    assert optimal_h("forward") == pytest.approx(1.49e-8, rel=1e-2)
    assert optimal_h("central") == pytest.approx(6.06e-6, rel=1e-2)
    assert optimal_h("central", x_scale=-100.0) == pytest.approx(6.06e-4, rel=1e-2)


def test_plot_error_vs_h_returns_what_it_drew():
    sweep = error_vs_h(arm.arm_fk, Q, arm.arm_jacobian(Q), hs=[1e-8, 1e-4])
    ax, lines = plot_error_vs_h(sweep)
    assert len(lines) == 3 and ax.get_xscale() == "log"
    assert np.all(lines[2].get_ydata() > 0)            # complex-step zeros drawn at the floor
    import matplotlib.pyplot as plt
    plt.close(ax.figure)


def test_bad_input_names_the_parameter():
    f = arm.arm_fk
    for h in (0.0, -1e-3, math.inf, math.nan):
        with pytest.raises(ValueError, match="h must be finite"):
            jacobian_fd(f, Q, h=h)
    with pytest.raises(TypeError, match="h must be a real number"):
        jacobian_fd(f, Q, h="1e-6")
    with pytest.raises(ValueError, match="scheme must be one of"):
        jacobian_fd(f, Q, scheme="backward")
    with pytest.raises(TypeError, match="f must be callable"):
        jacobian_fd("arm", Q)
    with pytest.raises(ValueError, match="x must contain only finite"):
        jacobian_fd(f, [0.1, np.nan])
    with pytest.raises(ValueError, match="x must be a non-empty 1-D"):
        jacobian_fd(f, np.zeros((2, 2)))
    with pytest.raises(ValueError, match="f\\(x\\) must be finite"):
        derivative_fd(lambda x: math.log(x) if x > 0 else math.nan, 0.0, h=1e-3, scheme="central")
    with pytest.raises(ValueError, match="reference must be"):
        error_vs_h(f, Q, np.eye(3))
    with pytest.raises(ValueError, match="hs must be"):
        error_vs_h(f, Q, arm.arm_jacobian(Q), hs=[1e-3, -1.0])
    with pytest.raises(ValueError, match="schemes must be"):
        error_vs_h(f, Q, arm.arm_jacobian(Q), schemes="forward")
    with pytest.raises(ValueError, match="f must return a scalar"):
        gradient_fd(f, Q)
