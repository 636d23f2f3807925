"""Finite differences and the complex step: error models, the seed's h-sweep, pitfalls,
step limits and the checks on f and on the sweep."""

import math

import matplotlib
import numpy as np
import pytest
import scipy.optimize

from robonum import arm
from robonum.autodiff import DomainError, sin, tanh
from robonum.errors import EvaluationError
from robonum.finite_diff import (
    EPS,
    HS_MAX,
    derivative_fd,
    error_vs_h,
    gradient_fd,
    jacobian_fd,
    optimal_h,
)
from robonum.plotting.derivatives import plot_error_vs_h

matplotlib.use("Agg")
Q = (0.3, 0.5)  # the joint angles used for the chapter's example 5 (the seed does not say which)


@pytest.mark.parametrize(
    "scheme, h, model",
    [
        # exp at x = 1: forward e(e^h - 1)/h - e ≈ e h/2;  central e(sinh h / h - 1) ≈ e h²/6;
        # complex e sin(h)/h - e ≈ -e h²/6  (hand Taylor expansions of the closed forms).
        ("forward", 1e-4, math.e * 1e-4 / 2),
        ("central", 1e-3, math.e * 1e-6 / 6),
        ("complex", 1e-3, -math.e * 1e-6 / 6),
    ],
)
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
    assert fwd[np.isclose(h, 1e-12)][0] > 1e3 * fwd[i_f]  # rounding ~ eps/h takes over
    assert np.all(cs[h <= 1e-8 * (1 + 1e-12)] <= 4 * EPS)
    assert cs[np.isclose(h, 1e-1)][0] > 1e-4  # O(h²) truncation at large h


def test_rounding_error_grows_like_eps_over_h():
    # Below h*, forward-difference error ~ eps|f|/h: three decades of h ≈ three decades of error.
    sweep = error_vs_h(arm.arm_fk, Q, arm.arm_jacobian(Q), hs=[1e-10, 1e-13], schemes=("forward",))
    ratio = sweep["forward"][1] / sweep["forward"][0]
    assert 100 < ratio < 10_000


def test_complex_step_on_analytic_functions():
    for f, df, x in [
        (lambda z: z**z, lambda x: x**x * (math.log(x) + 1), 1.7),
        (lambda z: tanh(sin(z)), lambda x: (1 - math.tanh(math.sin(x)) ** 2) * math.cos(x), 0.9),
        (lambda z: 1 / (1 + z * z), lambda x: -2 * x / (1 + x * x) ** 2, 0.5),
    ]:
        assert derivative_fd(f, x, scheme="complex") == pytest.approx(df(x), rel=4 * EPS)


def test_complex_step_pitfalls():
    # |x| x at x = -2 equals -x², derivative 4; abs() kills the imaginary part -> 2.
    wrong = derivative_fd(lambda z: abs(z) * z, -2.0, scheme="complex")
    assert wrong == pytest.approx(2.0) and derivative_fd(
        lambda z: abs(z) * z, -2.0
    ) == pytest.approx(4.0)
    with pytest.raises(TypeError, match="complex step"):
        derivative_fd(lambda z: np.abs(z) ** 2, 1.0, scheme="complex")  # real output detected
    with pytest.raises(TypeError, match="complex step"):  # math drops Im: numpy's
        derivative_fd(lambda z: math.sin(z), 1.0, scheme="complex")  # ComplexWarning -> error


def test_optimal_h_values():
    assert optimal_h("forward") == pytest.approx(1.49e-8, rel=1e-2)
    assert optimal_h("central") == pytest.approx(6.06e-6, rel=1e-2)
    assert optimal_h("central", x_scale=-100.0) == pytest.approx(6.06e-4, rel=1e-2)


def test_plot_error_vs_h_returns_what_it_drew():
    sweep = error_vs_h(arm.arm_fk, Q, arm.arm_jacobian(Q), hs=[1e-8, 1e-4])
    ax, lines = plot_error_vs_h(sweep)
    assert len(lines) == 3 and ax.get_xscale() == "log"
    assert np.all(lines[2].get_ydata() > 0)  # complex-step zeros drawn at the floor
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
    with pytest.raises(ValueError, match="x must be a 1-D array"):
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


def test_step_limits():
    with pytest.raises(
        ValueError, match=r"below the spacing of doubles at x\[0\] = 1.0 \(math.ulp = 2.22e-16\)"
    ):
        derivative_fd(np.sin, 1.0, h=1e-17, scheme="forward")  # 1 + 1e-17 == 1
    with pytest.raises(ValueError, match="below the spacing"):
        derivative_fd(np.sin, 1.0, h=1e-17, scheme="central")
    # At x = 0 a subnormal step still moves x.  3h is exact there (an integer multiple of
    # 2^-1074), so the forward quotient of f = 3x is exactly 3.
    assert derivative_fd(lambda v: 3.0 * v, 0.0, h=1e-320, scheme="forward") == 3.0
    with pytest.raises(ValueError, match="too small for the complex step"):
        derivative_fd(np.sin, 1.0, h=1e-300, scheme="complex")
    with pytest.raises(ValueError, match="secant"):
        derivative_fd(np.sin, 0.0, h=2.0)  # h > max(1, |x|)
    with pytest.raises(ValueError, match="beyond the largest double"):
        derivative_fd(np.sin, 1.7e308, h=1e308)


def test_overflowing_quotient_is_a_domain_error():
    # f(h) = 1e308 sin(1) is finite; divided by h = 1e-8 it is not.
    with pytest.raises(DomainError, match="forward difference quotient of column 0 overflows"):
        derivative_fd(lambda v: 1e308 * np.sin(1e8 * v), 0.0, h=1e-8, scheme="forward")


def test_outputs_of_f_are_checked():
    with pytest.raises(ValueError, match=r"scalar or a 1-D array, got shape \(2, 2\)"):
        jacobian_fd(lambda v: np.outer(v, v), [1.0, 2.0])
    with pytest.raises(TypeError, match="real numbers for real x"):
        jacobian_fd(lambda v: v * 1j, [1.0])
    with pytest.raises(TypeError, match="dtype bool"):
        jacobian_fd(lambda v: v > 0, [1.0])
    calls = []

    def changing(v):
        calls.append(1)
        return np.ones(len(calls))

    with pytest.raises(ValueError, match="same number of outputs"):
        jacobian_fd(changing, [1.0])
    with pytest.raises(EvaluationError, match="f raised ZeroDivisionError") as info:
        derivative_fd(lambda v: 1 / 0, 1.0)
    assert isinstance(info.value.__cause__, ZeroDivisionError)


def test_constant_f():
    np.testing.assert_array_equal(jacobian_fd(lambda v: 3.0, [1.0, 2.0]), [[0.0, 0.0]])
    with pytest.raises(TypeError, match="a constant f must return a complex value"):
        jacobian_fd(lambda v: 3.0, [1.0], scheme="complex")  # cannot be told from abs(z)
    assert derivative_fd(lambda z: 3.0 + 0 * z, 1.0, scheme="complex") == 0.0


def test_error_vs_h_default_grid_skips_vanishing_steps():
    x = 64.0
    h = error_vs_h(np.sin, [x], [math.cos(x)], schemes=("forward", "central"))["h"]
    assert np.all(x + h != x) and np.all(x - h != x)
    assert h.max() == pytest.approx(0.1 * x, rel=4 * EPS)  # grid scaled by max(1, |x|)
    # x = 2^6: 64 + 6.4e-15 rounds back to 64 (half the spacing above 64 is 7.1e-15), so
    # exactly the smallest of the 61 grid steps is left out
    assert h.size == 60 and h.min() > 64e-16


def test_sweep_size_and_shape_checks():
    with pytest.raises(ValueError, match="at most 1,000"):
        error_vs_h(arm.arm_fk, Q, arm.arm_jacobian(Q), hs=np.logspace(-8, -1, HS_MAX + 1))
    x = np.linspace(0.1, 1.0, 50)
    with pytest.raises(ValueError, match="number of calls of f"):
        error_vs_h(arm.sin_chain, x, arm.sin_chain_grad(x), hs=np.logspace(-8, -2, 200))
    f = lambda v: [v[0] * v[1], v[0] + v[1], v[0]]  # J = [[2, 1], [1, 1], [1, 0]] at (1, 2)
    J = np.array([[2.0, 1.0], [1.0, 1.0], [1.0, 0.0]])
    for wrong in (J.T.copy(), J.ravel()):  # same size, wrong shape
        with pytest.raises(
            ValueError,
            match=r"reference must be the exact Jacobian of f at x, shape \(3, 2\) "
            r"\(f returns 3 value\(s\), x has 2\)",
        ):
            error_vs_h(f, [1.0, 2.0], wrong, hs=[1e-6])
    with pytest.raises(ValueError, match="schemes must not repeat"):
        error_vs_h(f, [1.0, 2.0], J, hs=[1e-6], schemes=["forward", "forward"])


def test_plot_checks_its_sweep_and_takes_floor_by_keyword():
    sweep = {"h": [1e-8, 1e-4], "complex": [0.0, 1e-9]}
    with pytest.raises(TypeError):
        plot_error_vs_h(sweep, None, 1e-20)  # floor is keyword-only
    with pytest.raises(ValueError, match="one entry per step"):
        plot_error_vs_h({"h": [1e-8, 1e-4], "forward": [1e-3]})
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    got, lines = plot_error_vs_h(sweep, ax, floor=1e-20)
    assert got is ax and lines[0].get_ydata()[0] == 1e-20  # the zero drawn at the floor
    plt.close(fig)


# --- usable steps, the error model and its plot (chapter 6) ------------------------------
from robonum.finite_diff import H_MIN_COMPLEX, error_model, usable_steps  # noqa: E402
from robonum.finite_diff.errors_vs_h import _scales  # noqa: E402
from robonum.plotting.derivatives import plot_error_model  # noqa: E402


def test_usable_steps_leave_out_vanishing_and_oversized_steps():
    hs = [2.0, 1e-8, 1e-16, 1e-17, 1e-300]
    # at 0.3 the spacing is 5.55e-17: 1e-17 vanishes (x + h == x), 1e-16 does not
    assert usable_steps([0.3, 0.5], hs, "forward").tolist() == [1e-8, 1e-16]
    assert usable_steps([0.3, 0.5], hs, "complex").tolist() == [1e-8, 1e-16, 1e-17]
    assert usable_steps([3.0], hs, "central").tolist() == [2.0, 1e-8]  # h <= max(1, |x|)
    assert H_MIN_COMPLEX == pytest.approx(np.finfo(float).tiny / EPS)
    with pytest.raises(ValueError, match="hs must be steps > 0"):
        usable_steps([0.3], [1e-3, 0.0], "forward")


def test_scales_of_exp_are_its_derivatives():
    F, D1, D2, D3 = _scales(np.exp, np.array([1.0]), 1)[:, 0]
    for d in (F, D1, D2, D3):  # every derivative of exp at 1 is e
        assert d == pytest.approx(math.e, rel=1e-5)


@pytest.mark.parametrize(
    "scheme, h, taylor",
    [
        ("forward", 1e-3, math.e * 1e-3 / 2),
        ("central", 1e-3, math.e * 1e-6 / 6),
        ("complex", 1e-3, math.e * 1e-6 / 6),
    ],
)
def test_error_model_truncation_is_the_taylor_term(scheme, h, taylor):
    model = error_model(np.exp, [1.0], [h], scheme)
    assert model["truncation"][0] == pytest.approx(taylor, rel=1e-5)
    measured = abs(derivative_fd(np.exp, 1.0, h, scheme) - math.e)
    assert measured == pytest.approx(model["total"][0], rel=2e-3)  # truncation dominates here


@pytest.mark.parametrize(
    "f, x, ref",
    [
        (np.exp, [1.0], [[math.e]]),
        (arm.arm_fk, list(Q), arm.arm_jacobian(Q)),
        (arm.arm_fk, [0.3 + 2e3 * math.pi, 0.5 + 2e3 * math.pi], None),
    ],
)
def test_error_model_finds_the_bottom_of_the_v(f, x, ref):
    """The model's h* lies within a factor 4 of the measured best step (quarter decades), and
    the measured minimum is within [model/50, 2 model]: the model adds roundings as if they
    all had the same sign, so it is an upper estimate of the rounding part."""
    ref = arm.arm_jacobian(x) if ref is None else ref
    hs = np.logspace(-12, -1, 45)
    for scheme in ("forward", "central"):
        sweep = error_vs_h(f, x, ref, hs=hs, schemes=(scheme,))[scheme]
        model = error_model(f, x, hs, scheme)
        best = int(np.argmin(sweep))
        assert model["h_opt"] / 4 < hs[best] < 4 * model["h_opt"], scheme
        assert model["e_opt"] / 50 < sweep[best] < 2 * model["e_opt"], scheme


def test_error_model_of_the_complex_step_and_of_a_linear_f():
    model = error_model(np.exp, [1.0], [1e-10, 1e-3], "complex")
    assert model["e_opt"] == pytest.approx(EPS * math.e / 2, rel=1e-5)  # ε D1 / 2
    assert model["rounding"][0] == model["rounding"][1]  # independent of h
    assert model["h_opt"] == pytest.approx(math.sqrt(3 * EPS), rel=1e-4)  # a h² = b, a = e/6
    linear = error_model(lambda v: 2.0 * v, [1.0], [1e-3], "forward")
    assert linear["h_opt"] is None and linear["e_opt"] is None and linear["truncation"][0] == 0.0
    with pytest.raises(DomainError, match="error model"):
        error_model(
            lambda v: 1e300 * np.sin(1e3 * v), [1.0], [1e-3], "central"
        )  # third derivative 1e309


def test_plot_error_model_draws_two_lines_and_the_balance_point():
    import matplotlib.pyplot as plt

    model = error_model(np.exp, [1.0], np.logspace(-12, -1, 12), "forward")
    ax, lines = plot_error_model(model, labels=("T", "R"))
    assert len(lines) == 3 and lines[0].get_label() == "T" and lines[1].get_linestyle() == ":"
    np.testing.assert_allclose(lines[2].get_xdata(), [model["h_opt"]])
    _, one = plot_error_model(model, ax, parts=False)
    np.testing.assert_allclose(one[0].get_ydata(), model["total"])
    with pytest.raises(TypeError, match="labels must be None or two strings"):
        plot_error_model(model, ax, labels="T")
    with pytest.raises(TypeError, match="model must be the dict"):
        plot_error_model({"h": [1.0]}, ax)
    with pytest.raises(TypeError, match="parts must be True or False"):
        plot_error_model(model, ax, parts=1)
    plt.close(ax.figure)
