"""Forward and reverse mode against hand-derived derivatives, each other, and scipy;
the error policy of robonum.autodiff (DomainError, bad input, the user's f)."""

import gc
import math
import warnings
import weakref

import numpy as np
import pytest
import scipy.differentiate

from robonum import arm
from robonum import autodiff as ad
from robonum.autodiff import (
    DomainError,
    Dual,
    Tape,
    ad_cost,
    cos,
    derivative,
    exp,
    grad,
    jacobian_forward,
    jacobian_reverse,
    log,
    sin,
    sqrt,
    tanh,
)
from robonum.errors import EvaluationError, RobonumError
from robonum.finite_diff import derivative_fd, jacobian_fd

EPS = np.finfo(float).eps

# (name, f, hand-derived f', x) — derivatives worked out on paper, not by the code under test.
SCALAR_CASES = [
    ("x**x", lambda x: x**x, lambda x: x**x * (math.log(x) + 1.0), 1.7),
    ("tanh", lambda x: tanh(3.0 * x), lambda x: 3.0 * (1.0 - math.tanh(3.0 * x) ** 2), 0.4),
    ("log", lambda x: log(x * x + 1.0), lambda x: 2.0 * x / (x * x + 1.0), 0.8),
    ("sqrt", lambda x: sqrt(1.0 + x**3), lambda x: 1.5 * x * x / math.sqrt(1.0 + x**3), 1.3),
    (
        "division",
        lambda x: (x * x + 1.0) / (x - 3.0),
        lambda x: (2.0 * x * (x - 3.0) - (x * x + 1.0)) / (x - 3.0) ** 2,
        0.6,
    ),
    ("rdiv-rsub", lambda x: 1.0 / x + (2.0 - x), lambda x: -1.0 / x**2 - 1.0, 0.9),
    ("const**x", lambda x: 2.0**x, lambda x: 2.0**x * math.log(2.0), 1.1),
    (
        "exp*cos",
        lambda x: exp(-x) * cos(5.0 * x),
        lambda x: -math.exp(-x) * (math.cos(5 * x) + 5 * math.sin(5 * x)),
        0.3,
    ),
    ("neg-pow", lambda x: -(x**-2.5), lambda x: 2.5 * x**-3.5, 1.4),
]


@pytest.mark.parametrize("name, f, df, x", SCALAR_CASES, ids=[c[0] for c in SCALAR_CASES])
def test_four_methods_agree_with_hand_derivative(name, f, df, x):
    exact = df(x)
    fwd = derivative(f, x)
    rev = grad(lambda v: f(v[0]), [x])[0]
    cs = derivative_fd(f, x, h=1e-20, scheme="complex")
    central = derivative_fd(f, x, scheme="central")
    assert fwd == pytest.approx(exact, rel=4 * EPS, abs=4 * EPS)
    assert rev == pytest.approx(exact, rel=4 * EPS, abs=4 * EPS)
    assert cs == pytest.approx(exact, rel=4 * EPS, abs=4 * EPS)
    assert central == pytest.approx(exact, rel=1e-9)


def _multi(x):
    """f(x, y, z) = [x y / z + e^x sin y - sqrt(z) log x,  tanh(x - y) z**y]."""
    a, b, c = x[0], x[1], x[2]
    return [a * b / c + exp(a) * sin(b) - sqrt(c) * log(a), tanh(a - b) * c**b]


def _multi_jac(x):
    a, b, c = x
    t = math.tanh(a - b)
    s = 1.0 - t * t
    return np.array(
        [
            [
                b / c + math.exp(a) * math.sin(b) - math.sqrt(c) / a,
                a / c + math.exp(a) * math.cos(b),
                -a * b / c**2 - math.log(a) / (2 * math.sqrt(c)),
            ],
            [s * c**b, -s * c**b + t * c**b * math.log(c), t * b * c ** (b - 1)],
        ]
    )


def test_vector_function_all_modes():
    x = [1.2, 0.7, 2.5]
    exact = _multi_jac(x)
    for J in (
        jacobian_forward(_multi, x),
        jacobian_reverse(_multi, x),
        jacobian_fd(_multi, x, scheme="complex"),
    ):
        np.testing.assert_allclose(J, exact, rtol=8 * EPS, atol=8 * EPS)
    np.testing.assert_allclose(jacobian_fd(_multi, x), exact, rtol=1e-8)


def test_arm_ad_equals_analytic_jacobian_bitwise():
    # Seed 003 example 5: "AD error exactly 0".  It holds because the dual and tape
    # arithmetic performs the same floating-point operations as the analytic formula.
    rng = np.random.default_rng(3)
    for q in [(0.3, 0.5), *rng.uniform(-np.pi, np.pi, size=(200, 2))]:
        J = arm.arm_jacobian(q)
        np.testing.assert_array_equal(jacobian_forward(arm.arm_fk, q), J)
        np.testing.assert_array_equal(jacobian_reverse(arm.arm_fk, q), J)


def test_arm_against_scipy_differentiate():
    q = np.array([0.3, 0.5])
    res = scipy.differentiate.jacobian(lambda Q: arm.arm_fk(Q), q)
    np.testing.assert_allclose(jacobian_forward(arm.arm_fk, q), res.df, rtol=1e-10, atol=1e-12)


def test_arm_analytic_jacobian_against_complex_step():
    q = (0.3, 0.5)
    np.testing.assert_allclose(
        arm.arm_jacobian(q),
        jacobian_fd(arm.arm_fk, q, scheme="complex"),
        rtol=2 * EPS,
        atol=2 * EPS,
    )


def test_sin_chain_gradient_and_numpy_style():
    x = np.linspace(-1.0, 2.0, 12)
    g = arm.sin_chain_grad(x)
    np.testing.assert_allclose(grad(arm.sin_chain, x), g, rtol=4 * EPS, atol=4 * EPS)
    np.testing.assert_allclose(jacobian_forward(arm.sin_chain, x)[0], g, rtol=4 * EPS, atol=4 * EPS)
    vectorised = lambda v: np.sum(np.sin(v[:-1]) * v[1:])  # object arrays call Var.sin()
    np.testing.assert_allclose(grad(vectorised, x), g, rtol=4 * EPS, atol=4 * EPS)
    assert arm.sin_chain(x) == pytest.approx(np.sum(np.sin(x[:-1]) * x[1:]), rel=1e-14)


def test_reverse_handles_a_chain_of_100000_operations():
    # y_{k+1} = sin(y_k): dy_N/dy_0 = prod cos(y_k); a recursive topological sort
    # would hit Python's recursion limit (~1000) long before this.
    N = 100_000

    def chain(v):
        y = v[0]
        for _ in range(N):
            y = sin(y)
        return y

    y, expected = 1.0, 1.0
    for _ in range(N):
        expected *= math.cos(y)
        y = math.sin(y)
    assert grad(chain, [1.0])[0] == pytest.approx(expected, rel=1e-12)
    assert derivative(lambda v: chain([v]), 1.0) == pytest.approx(expected, rel=1e-12)


def test_tapes_do_not_leak_between_calls():
    seen = []

    def f(v):
        seen.append((weakref.ref(v[0].tape), len(v[0].tape)))
        return v[0] * v[1] + sin(v[0])

    g1, g2 = grad(f, [0.5, 2.0]), grad(f, [0.5, 2.0])
    np.testing.assert_array_equal(g1, g2)
    assert seen[0][1] == seen[1][1] == 2  # each call starts on a fresh tape
    gc.collect()
    assert seen[0][0]() is None and seen[1][0]() is None


def test_explicit_tape_and_mixing_tapes():
    tape = Tape()
    x, y = tape.var(3.0), tape.var(4.0)
    r = sqrt(x * x + y * y)
    tape.backward(r)
    assert (x.grad, y.grad) == pytest.approx((0.6, 0.8), abs=EPS)
    other = Tape().var(1.0)
    with pytest.raises(ValueError, match="different tapes"):
        x + other
    with pytest.raises(ValueError, match="output"):
        tape.backward(other)


def test_reverse_shared_subexpression_and_constant_output():
    # f = u*u with u = sin(x): the adjoint of u collects two contributions.
    assert grad(lambda v: sin(v[0]) * sin(v[0]), [0.4])[0] == pytest.approx(
        math.sin(0.8), rel=2 * EPS
    )
    np.testing.assert_array_equal(grad(lambda v: 3.0, [1.0, 2.0]), [0.0, 0.0])
    np.testing.assert_array_equal(
        jacobian_reverse(lambda v: [v[0], 2.0], [1.0, 2.0]), [[1, 0], [0, 0]]
    )


def test_cost_counts_forward_n_passes_reverse_one():
    for n in (2, 10, 100):
        x = np.linspace(0.1, 1.0, n)
        c = ad_cost(arm.sin_chain, x)
        assert (c.n, c.m, c.forward_passes, c.reverse_passes, c.reverse_sweeps) == (n, 1, n, 1, 1)
        assert c.tape_length == n + 2 * (n - 1) + (n - 2)  # inputs, (sin, mul) per term, adds
        assert c.forward_ops == n * c.ops_per_pass
    c10, c100 = ad_cost(arm.sin_chain, np.ones(10)), ad_cost(arm.sin_chain, np.ones(100))
    assert c100.forward_ops / c10.forward_ops > 90  # ~ n^2 growth
    assert c100.reverse_ops / c10.reverse_ops < 12  # ~ n growth
    arm_cost = ad_cost(arm.arm_fk, [0.3, 0.5])
    assert (arm_cost.forward_passes, arm_cost.reverse_sweeps) == (2, 2)


def test_reverse_cost_counts_the_partials_each_sweep_multiplies():
    """A sweep starts at its output and skips nodes with a zero adjoint: with many outputs,
    each depending on a few nodes, the sweeps multiply far fewer partials than m times the
    tape's.  Counted against the graph's own sweep order (robonum.autodiff.graph)."""

    def points(q, m=50):  # 2m outputs, each a few operations past a shared start
        c, s = ad.cos(q[0] + q[1]), ad.sin(q[0] + q[1])
        return [v for j in range(1, m + 1) for v in (j / m * c + q[0], j / m * s)]

    q = [0.3, 0.5]
    c, G = ad_cost(points, q), ad.trace(points, q)
    swept = sum(len(G.nodes[k].parents) for o in range(c.m) for k in G.sweep_order(o))
    assert c.m == 100 and c.swept_partials == swept
    assert c.swept_partials < c.m * c.tape_edges / 10  # the old count, m * tape_edges
    assert c.reverse_ops == c.ops_per_pass + swept
    chain = ad_cost(arm.sin_chain, np.linspace(0.1, 1.0, 10))  # one output reaches every node
    assert chain.swept_partials == chain.tape_edges


def test_dual_algebra_eps_squared_is_zero():
    e = Dual(0.0, 1.0)
    sq = e * e
    assert (sq.v, sq.d) == (0.0, 0.0)
    z = Dual(2.0, 1.0) ** Dual(3.0, 0.0)  # dual**dual reduces to 3 x^2 for constant exponent
    assert (z.v, z.d) == pytest.approx((8.0, 12.0), rel=2 * EPS)
    w = Dual(2.0, 0.0) ** Dual(3.0, 1.0)  # d/dy 2^y = 2^y ln 2
    assert w.d == pytest.approx(8.0 * math.log(2.0), rel=2 * EPS)


def test_bad_input_names_the_parameter():
    with pytest.raises(TypeError, match="f must be callable"):
        grad(3.0, [1.0])
    with pytest.raises(TypeError, match="f must be callable"):
        jacobian_forward(None, [1.0])
    with pytest.raises(ValueError, match="x must contain only finite"):
        grad(lambda v: v[0], [np.nan])
    with pytest.raises(ValueError, match="x must be a 1-D array"):
        jacobian_reverse(lambda v: v[0], [[1.0, 2.0]])
    with pytest.raises(ValueError, match="x must be finite"):
        derivative(lambda v: v, math.inf)
    with pytest.raises(ValueError, match="f must return a scalar"):
        grad(lambda v: [v[0], v[0]], [1.0])
    with pytest.raises(EvaluationError, match="f raised TypeError.*math"):
        grad(lambda v: math.sin(v[0]), [1.0])  # math.sin cannot see the tape
    with pytest.raises(TypeError, match="f must return"):
        jacobian_forward(lambda v: "a", [1.0])
    with pytest.raises(DomainError, match="u \\* w needs finite operands"):
        grad(lambda v: v[0] * math.inf, [1.0])  # caught at the operation, naming it
    with pytest.raises(ValueError, match="f\\(x\\) must be finite"):
        grad(lambda v: math.nan, [1.0])
    with pytest.raises(ValueError, match="needs base u > 0"):
        derivative(lambda v: v**v, -1.0)
    with pytest.raises(ValueError, match="needs u >= 0"):
        grad(lambda v: v[0] ** 0.5, [-4.0])
    with pytest.raises(ValueError, match="q must hold exactly 2"):
        arm.arm_fk([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="q must contain only finite"):
        arm.arm_jacobian([1.0, np.inf])
    with pytest.raises(TypeError, match="x must be a float"):
        sin("1.0")


# --- error policy: one primitive outside its domain, refused alike by both modes --------
DOMAIN_CASES = [
    ("log\\(x\\) needs x > 0, got x = -1.0", lambda v: log(v), -1.0),
    ("log\\(x\\) needs x > 0, got x = 0.0", lambda v: log(v), 0.0),
    ("log\\(x\\) is differentiable only for x >=", lambda v: log(v), 1e-320),  # 1/x = inf
    ("sqrt\\(x\\) needs x >= 0", lambda v: sqrt(v), -4.0),
    ("sqrt\\(x\\) is differentiable only for x > 0", lambda v: sqrt(v), 0.0),
    ("exp\\(x\\) needs x <= 709.78", lambda v: exp(v), 1000.0),
    ("u / w needs w != 0", lambda v: 1.0 / v, 0.0),
    ("u / w needs w != 0", lambda v: v / (v - 2.0), 2.0),
    ("u\\*\\*c with c = -1.0 < 0 needs u != 0", lambda v: v**-1, 0.0),
    ("u\\*\\*c with 0 < c = 0.5 < 1 is not differentiable at u = 0", lambda v: v**0.5, 0.0),
    ("u\\*\\*c overflows", lambda v: v**400, 10.0),
    ("c\\*\\*w with a (Dual|Var) exponent needs base c > 0", lambda v: (-2.0) ** v, 1.0),
    ("u\\*\\*w with a (Dual|Var) exponent needs base u > 0", lambda v: v ** (v + 1.0), -0.5),
    ("u \\+ w needs finite operands", lambda v: v + math.nan, 1.0),
    ("u \\* w needs finite operands, got a constant too large", lambda v: v * 10**400, 1.0),
]


@pytest.mark.parametrize("message, f, x", DOMAIN_CASES, ids=[c[0][:30] for c in DOMAIN_CASES])
def test_domain_errors_name_the_operation_in_both_modes(message, f, x):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy/math warning may escape
        with pytest.raises(DomainError, match=message) as fwd:
            derivative(f, x)
        with pytest.raises(DomainError, match=message):
            grad(lambda v: f(v[0]), [x])
    assert isinstance(fwd.value, ValueError) and isinstance(fwd.value, RobonumError)


def test_derivative_overflow_is_caught_in_both_modes():
    # y = (x 1e300) 1e300 at x = 1e-300: values 1 and 1e300 are finite, dy/dx = 1e600 is not.
    with pytest.raises(DomainError, match="u \\* w overflows"):
        derivative(lambda v: (v * 1e300) * 1e300, 1e-300)
    with pytest.raises(DomainError, match="adjoint of tape node 0 overflows"):
        grad(lambda v: (v[0] * 1e300) * 1e300, [1e-300])


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: log(-1.0), "log\\(x\\) needs x > 0, got x = -1.0"),
        (lambda: sqrt(np.float64(-1.0)), "sqrt\\(x\\) needs x >= 0"),
        (lambda: exp(1000.0), "exp\\(x\\) needs x <= 709.78"),
        (lambda: exp(np.array([0.0, 1000.0])), "exp\\(x\\) needs x <= 709.78.*at index \\(1,\\)"),
        (lambda: log(np.array([[1.0, -2.0]])), "got x = -2.0 at index \\(0, 1\\)"),
        (lambda: log(0j), "log\\(x\\) needs x != 0"),
        (lambda: exp(1000 + 0j), "exp\\(x\\) needs Re x <= 709.78"),
        (lambda: sin(math.nan), "sin\\(x\\) needs a finite x"),
        (lambda: cos(np.array([np.inf])), "cos\\(x\\) needs finite x"),
        (lambda: tanh(10**400), "tanh\\(x\\) needs a finite x, got an integer with 401 digits"),
    ],
)
def test_float_complex_and_array_arguments_follow_the_same_policy(call, message):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's RuntimeWarning must not escape
        with pytest.raises(DomainError, match=message):
            call()


def test_valid_edge_arguments_still_work():
    assert sqrt(0.0) == 0.0 and sqrt(0j) == 0j  # the value is fine, only the slope is not
    y = sin(np.array([Dual(0.5, 1.0), 2.0], dtype=object))  # mixed object arrays, element-wise
    assert (y[0].v, y[0].d, y[1]) == (math.sin(0.5), math.cos(0.5), math.sin(2.0))
    z0, sq = Dual(2.0, 1.0) ** 0, Dual(0.0, 1.0) ** 2  # u^0 = 1; (u^2)' = 2u = 0 at 0
    assert (z0.v, z0.d, sq.v, sq.d) == (1.0, 0.0, 0.0, 0.0)


def test_constructors_and_operands_refuse_bad_values():
    with pytest.raises(ValueError, match="v must be finite"):
        Dual(math.nan)
    with pytest.raises(ValueError, match="d must be finite"):
        Dual(1.0, math.inf)
    with pytest.raises(ValueError, match="value must be finite"):
        Tape().var(math.nan)
    with pytest.raises(TypeError, match="v must be a real number"):
        Dual(1j)
    with pytest.raises(TypeError, match="u \\* w: cannot combine a bool"):
        Dual(1.0, 1.0) * True
    with pytest.raises(TypeError, match="do not mix"):
        Dual(1.0, 1.0) + Tape().var(1.0)
    with pytest.raises(TypeError, match="output must be a Var"):
        Tape().backward(1.0)


def test_constant_functions_have_zero_derivatives():
    np.testing.assert_array_equal(jacobian_forward(lambda v: 3.0, [1.0]), [[0.0]])
    np.testing.assert_array_equal(jacobian_reverse(lambda v: 3.0, [1.0, 2.0]), [[0.0, 0.0]])
    np.testing.assert_array_equal(
        jacobian_forward(lambda v: [v[0], 2.0], [1.0, 2.0]), [[1, 0], [0, 0]]
    )
    assert derivative(lambda v: 2.0, 1.0) == 0.0
    assert ad_cost(lambda v: 3.0, [1.0, 2.0]).m == 1


def test_exceptions_inside_f_name_f_and_keep_the_cause():
    with pytest.raises(
        EvaluationError, match="f raised ZeroDivisionError at x = \\[1. 2.\\]"
    ) as info:
        jacobian_forward(lambda v: 1 / 0, [1.0, 2.0])
    assert isinstance(info.value.__cause__, ZeroDivisionError) and info.value.reason == "f_raised"
    with pytest.raises(DomainError, match="log"):  # already names its operation: unchanged
        grad(lambda v: log(v[0] - 5.0), [1.0])


def test_outputs_of_f_are_checked():
    calls = []

    def changing(v):
        calls.append(1)
        return [v[0]] * len(calls)

    with pytest.raises(ValueError, match="same number of outputs"):
        jacobian_forward(changing, [1.0, 2.0])
    with pytest.raises(ValueError, match="scalar or a 1-D sequence, got shape \\(2, 2\\)"):
        jacobian_reverse(lambda v: [[v[0], v[1]], [v[1], v[0]]], [1.0, 2.0])
    with pytest.raises(TypeError, match="got complex"):
        jacobian_forward(lambda v: 1j, [1.0])
    kept = []
    grad(lambda v: kept.append(v[0]) or v[0], [1.0])
    with pytest.raises(ValueError, match="another tape"):
        grad(lambda v: kept[0], [1.0])


def test_every_operator_is_one_tape_node():
    tape = Tape()
    a, b = tape.var(3.0), tape.var(4.0)
    for op in (
        lambda: a - b,
        lambda: a / b,
        lambda: -a,
        lambda: 2.0 - a,
        lambda: 2.0 / a,
        lambda: a**b,
        lambda: 2.0**a,
        lambda: a**2,
        lambda: sqrt(a),
    ):
        before = len(tape)
        op()
        assert len(tape) == before + 1
    q = a / b
    tape.backward(q)
    # 1/4 and -(3/4)/4 are exact in binary, so the partials must be too
    assert (a.grad, b.grad) == (0.25, -0.1875)
