"""The computational graph read from a tape (robonum.autodiff.graph) and its drawing.

Truths used: the hand-derived arm Jacobian and sin_chain gradient, the library's
own Dual (forward) and Tape (reverse) sweeps -- the graph's sweeps must agree with
them bit for bit where they perform the same operations -- and counts worked out
by hand for small functions.
"""

import math

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from robonum import arm  # noqa: E402
from robonum.autodiff import Tape, exp, grad, jacobian_forward, jacobian_reverse, log, sin, trace  # noqa: E402
from robonum.errors import EvaluationError  # noqa: E402
from robonum.plotting.graph import layout, plot_graph  # noqa: E402

EPS = np.finfo(float).eps
Q = (0.3, 0.5)


def test_arm_graph_is_the_recorded_tape():
    g = trace(arm.arm_fk, Q)
    # q1, q2; q1+q2; (cos, *l1) (cos, *l2) +; (sin, *l1) (sin, *l2) +  -- 2 inputs, 11 primitives
    assert len(g) == 13 and g.inputs == (0, 1)
    ops = [n.op for n in g.nodes]
    assert ops.count("cos") == 2 and ops.count("sin") == 2 and ops.count("u * w") == 4
    assert ops.count("u + w") == 3 and ops[:2] == ["input", "input"]
    for node in g.nodes:  # creation order is a topological order
        assert all(p < node.index for p in node.parents)
    x, y = (g.nodes[k].value for k in g.outputs)
    np.testing.assert_array_equal([x, y], arm.arm_fk(Q))
    by_value = {n.symbol for n in g.nodes if n.op == "u * w"}
    assert by_value == {"×1", "×0.7"}  # the constant factors l1 and l2


def test_tangent_and_adjoint_sweeps_equal_dual_and_tape_bitwise():
    # Same floating-point operations as the Dual and Tape code (no division here).
    rng = np.random.default_rng(7)
    for q in [Q, *rng.uniform(-3, 3, size=(50, 2))]:
        g = trace(arm.arm_fk, q)
        Jf, Jr = jacobian_forward(arm.arm_fk, q), jacobian_reverse(arm.arm_fk, q)
        for j in range(2):
            np.testing.assert_array_equal(g.tangents(np.eye(2)[j])[list(g.outputs)], Jf[:, j])
        for i in range(2):
            np.testing.assert_array_equal(g.adjoints(i)[list(g.inputs)], Jr[i])
        np.testing.assert_array_equal(Jr, arm.arm_jacobian(q))


def test_sweep_order_skips_zero_adjoints_and_steps_stop_the_sweep():
    g = trace(arm.arm_fk, Q)
    order = g.sweep_order(0)
    assert order[0] == g.outputs[0] and order == sorted(order, reverse=True)
    assert g.outputs[1] not in order and len(order) == 8  # the y-branch has adjoint 0
    a0 = g.adjoints(0, steps=0)
    assert a0[g.outputs[0]] == 1.0 and np.count_nonzero(a0) == 1
    # after processing the output (x = u + w), both summands hold adjoint 1
    a1 = g.adjoints(0, steps=1)
    assert [a1[p] for p in g.nodes[g.outputs[0]].parents] == [1.0, 1.0]
    np.testing.assert_array_equal(g.adjoints(0, steps=len(order)), g.adjoints(0))


def test_flows_sum_to_the_node_values():
    # A node's tangent is the sum of the flows into it; a parent's adjoint the sum of the flows out.
    def f(v):
        u = sin(v[0]) * v[1]
        return [u * u + exp(v[1]), log(v[0] + 2.0) / v[1]]

    x = [0.7, 1.3]
    g = trace(f, x)
    seed = [0.4, -1.1]
    t, flows = g.tangents(seed), g.tangent_flows(seed)
    for node in g.nodes:
        if node.parents:
            into = sum(v for (p, c), v in flows.items() if c == node.index)
            assert into == pytest.approx(t[node.index], rel=4 * EPS, abs=4 * EPS)
    for out in range(2):
        a, back = g.adjoints(out), g.adjoint_flows(out)
        for k in g.inputs:
            assert sum(v for (p, c), v in back.items() if p == k) == pytest.approx(
                a[k], rel=4 * EPS
            )
    J = jacobian_forward(f, x)
    np.testing.assert_allclose(t[list(g.outputs)], J @ seed, rtol=8 * EPS)
    u_node = next(n for n in g.nodes if n.op == "u * w" and n.parents[0] == n.parents[1])
    assert (
        len([k for k in g.tangent_flows(seed) if k[1] == u_node.index]) == 1
    )  # u*u: one edge, both terms


def test_sin_chain_graph_gradient():
    x = np.linspace(-1.0, 2.0, 9)
    g = trace(arm.sin_chain, x)
    assert len(g) == 9 + 2 * 8 + 7  # inputs, (sin, *) per term, adds
    np.testing.assert_array_equal(g.adjoints(0)[list(g.inputs)], grad(arm.sin_chain, x))
    np.testing.assert_allclose(
        g.adjoints(0)[list(g.inputs)], arm.sin_chain_grad(x), rtol=4 * EPS, atol=4 * EPS
    )


def test_symbols_of_operations_with_constants():
    g = trace(
        lambda v: [v[0] * 2.5, v[0] + 1.0, 3.0 - v[0], v[0] / 4.0, 2.0 / v[0], v[0] ** 3, -v[0]],
        [1.5],
    )
    assert [g.nodes[k].symbol for k in g.outputs] == ["×2.5", "+c", "c−u", "÷4", "c÷u", "u^c", "−u"]


def test_trace_refuses_constant_outputs_and_huge_graphs():
    with pytest.raises(ValueError, match="output 1 is the constant"):
        trace(lambda v: [v[0], 2.0], [1.0])

    def long(v):
        y = v[0]
        for _ in range(100_001):
            y = sin(y)
        return y

    with pytest.raises(EvaluationError, match="more than 100000"):
        trace(long, [1.0])
    g = trace(arm.arm_fk, Q)
    with pytest.raises(ValueError, match="seed must have one entry per input"):
        g.tangents([1.0])
    with pytest.raises(ValueError, match="output must be an integer in"):
        g.adjoints(2)


def test_tape_backward_unchanged_by_the_seeded_sweep():
    tape = Tape()
    a, b = tape.var(3.0), tape.var(4.0)
    r = (a * a + b * b) ** 0.5
    tape.backward(r)
    assert (a.grad, b.grad) == pytest.approx((0.6, 0.8), abs=EPS)
    assert r.op == "u**c" and a.op == "input"


def test_layout_columns_and_no_overlap():
    g = trace(arm.arm_fk, Q)
    pos = layout(g)
    assert len(set(pos.values())) == len(g)  # every node has its own place
    for node in g.nodes:
        for p in node.parents:
            assert pos[p][0] < pos[node.index][0]  # arrows point right
    assert pos[0][0] == pos[1][0] == 0.0


def test_plot_graph_draws_every_node_and_labelled_edge():
    g = trace(arm.arm_fk, Q)
    fig, ax = plt.subplots()
    flows = g.adjoint_flows(0)
    drawn = plot_graph(
        g, ax, names={0: "q1"}, edge_values=flows, notes={0: "a"}, active=0, done=[0, 2]
    )
    texts = [t.get_text() for t in ax.texts]
    assert sum("\n" in t for t in texts) == len(g)  # one box per node
    assert len(drawn.edge_labels) == len(flows)
    assert any(t.startswith("q1\n0.3\na") for t in texts)
    with pytest.raises(ValueError, match="edge_values key"):
        plot_graph(g, ax, edge_values={(0, 12): 1.0})
    with pytest.raises(ValueError, match="names key"):
        plot_graph(g, ax, names={99: "z"})
    with pytest.raises(TypeError, match="graph must be"):
        plot_graph("graph", ax)
    plt.close(fig)
    assert math.isfinite(sum(flows.values()))
