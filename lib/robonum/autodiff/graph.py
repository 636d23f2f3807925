"""The computational graph that a reverse-mode recording leaves on its tape.

:func:`trace` runs ``f`` once on :class:`~robonum.autodiff.Var` inputs and
copies the tape into a :class:`Graph`: one :class:`Node` per primitive
(``+ - * /``, ``sin``, ``u**c`` ...) with its value, its parents and the local
partials ``∂v/∂p`` recorded at that moment.  Nothing is typed by hand: the
picture of a graph is the list the library really swept.

Two sweeps over the same list give the two modes (Griewank & Walther,
*Evaluating Derivatives*, 2nd ed., SIAM 2008, ch. 3; Baydin et al., JMLR 18
(2018), sec. 3):

* tangents (forward mode) in creation order, ``v̇ = Σ_p (∂v/∂p) ṗ``
  with the inputs seeded by a direction ``ẋ``;
* adjoints (reverse mode) in reverse creation order, ``p̄ += v̄ ∂v/∂p``
  with the output seeded by ``ȳ = 1`` -- the same loop as ``Tape.backward``,
  which can be stopped after any number of nodes to watch it work.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _validate as check
from ..errors import EvaluationError
from ._io import real_vector
from .reverse import Tape, Var, _record

MAX_NODES = 100_000  # a graph is a copy of the tape; far beyond any drawing
_SYMBOL = {
    "u + w": "+",
    "u - w": "−",
    "u * w": "×",
    "u / w": "÷",
    "-u": "−u",
    "u**w": "u^w",
    "c**w": "c^w",
    "u**c": "u^c",
    "input": "입력",
}


@dataclass(frozen=True)
class Node:
    """One primitive: ``value = op(parents)`` with local partials ``∂value/∂parent``.

    ``symbol`` is a short label for drawings: ``+``, ``×0.7`` (a constant
    factor), ``c÷u`` (a constant divided by the node's parent), ``sin`` ...
    """

    index: int
    op: str
    value: float
    parents: tuple
    partials: tuple
    symbol: str


def _symbol(var: Var) -> str:
    op = var.op
    if len(var.parents) == 1 and op in ("u * w", "u + w", "u - w", "u / w"):
        ((parent, c),) = var.parents
        if op == "u * w":
            return f"×{c:.3g}"
        if op == "u + w":
            return "+c"
        if op == "u - w":
            return "−c" if c > 0 else "c−u"
        # u/c has slope 1/c, so slope·u = value; c/u has slope -value/u, so slope·u = -value
        reflected = c == 0.0 or (c * parent.v) * var.v < 0.0
        return "c÷u" if reflected else f"÷{1.0 / c:.3g}"
    return _SYMBOL.get(op, op)


@dataclass(frozen=True)
class Graph:
    """Nodes in creation order (a topological order), the input and output node indices."""

    nodes: tuple
    inputs: tuple
    outputs: tuple

    def __len__(self):
        return len(self.nodes)

    def depths(self) -> np.ndarray:
        """Longest path from an input to each node (the column it is drawn in)."""
        d = np.zeros(len(self.nodes), dtype=int)
        for node in self.nodes:
            if node.parents:
                d[node.index] = 1 + max(d[p] for p in node.parents)
        return d

    def tangents(self, seed) -> np.ndarray:
        """Forward sweep: ``v̇_k = Σ_p (∂v_k/∂p) ṗ`` with ``ẋ = seed`` on the inputs.

        ``seed`` is a direction of length ``len(inputs)``; the outputs' tangents
        are ``J @ seed`` (one column of the Jacobian for a unit vector).
        """
        seed = real_vector("seed", seed, max_size=len(self.inputs))
        if seed.size != len(self.inputs):
            raise ValueError(
                f"seed must have one entry per input ({len(self.inputs)}), got {seed.size}"
            )
        t = np.zeros(len(self.nodes))
        t[list(self.inputs)] = seed
        for node in self.nodes:
            if node.parents:
                acc = 0.0
                for p, partial in zip(node.parents, node.partials):
                    acc += partial * t[p]
                t[node.index] = acc
        return t

    def sweep_order(self, output: int = 0) -> list:
        """The nodes the reverse sweep for output ``output`` works on, in the order it does.

        Those are the nodes from the output down to node 0 whose adjoint is not
        zero when the loop reaches them (``Tape.backward`` skips the others).
        """
        return self._adjoints(output, None)[1]

    def adjoints(self, output: int = 0, steps: int | None = None) -> np.ndarray:
        """Reverse sweep ``p̄ += v̄ ∂v/∂p`` from ``ȳ_output = 1``, stopped after ``steps`` nodes.

        ``steps = None`` runs the whole sweep: then ``adjoints[inputs]`` is row
        ``output`` of the Jacobian, bit for bit what ``Tape.backward`` gives.
        """
        return self._adjoints(output, steps)[0]

    def tangent_flows(self, seed) -> dict:
        """``{(parent, child): (∂child/∂parent) · ṗarent}``: what each edge carries forward.

        A node's tangent is the sum of the flows into it.
        """
        t = self.tangents(seed)
        return self._flows(self.nodes, lambda p, node, w: w * t[p])

    def adjoint_flows(self, output: int = 0, steps: int | None = None) -> dict:
        """``{(parent, child): v̄_child · ∂child/∂parent}`` for the children already swept.

        A parent's adjoint is the sum of the flows out of it once its children are done.
        """
        a, done = self._adjoints(output, steps)
        return self._flows([self.nodes[k] for k in done], lambda p, node, w: w * a[node.index])

    @staticmethod
    def _flows(nodes, value) -> dict:
        flows = {}
        for node in nodes:
            for p, w in zip(node.parents, node.partials):
                key = (p, node.index)
                flows[key] = flows.get(key, 0.0) + value(p, node, w)  # u*u: both edges add
        return flows

    def _adjoints(self, output, steps):
        out = check.integer("output", output, lo=0, hi=len(self.outputs) - 1)
        if steps is not None:
            steps = check.integer("steps", steps, lo=0, hi=len(self.nodes))
        a = np.zeros(len(self.nodes))
        start = self.outputs[out]
        a[start] = 1.0
        done = []
        for k in range(start, -1, -1):
            if steps is not None and len(done) == steps:
                break
            g = a[k]
            if g == 0.0:
                continue
            node = self.nodes[k]
            for p, partial in zip(node.parents, node.partials):
                a[p] += partial * g
            done.append(k)
        return a, done


def trace(f, x) -> Graph:
    """Run ``f`` once on tape variables at ``x`` and return its computational graph.

    ``f`` follows the rules of :func:`robonum.autodiff.grad` (written with
    ``robonum.autodiff`` functions; scalar or 1-D output).  Every output must
    depend on ``x`` (a constant output has no node) and the tape may hold at
    most ``MAX_NODES`` nodes.  Reference: Griewank & Walther (2008), sec. 2.2
    (the evaluation procedure and its graph).
    """
    tape = _LimitedTape()
    try:
        X, Y = _record(tape, f, x)
        for i, y in enumerate(Y):
            if not isinstance(y, Var):
                raise ValueError(
                    f"f's output {i} is the constant {y!r}: it does not depend on x, "
                    "so the graph has no node for it"
                )
        nodes = tuple(
            Node(
                v.index,
                v.op,
                v.v,
                tuple(p.index for p, _ in v.parents),
                tuple(w for _, w in v.parents),
                _symbol(v),
            )
            for v in tape.nodes
        )
        return Graph(nodes, tuple(v.index for v in X), tuple(y.index for y in Y))
    finally:
        tape.nodes.clear()


class _LimitedTape(Tape):
    """A tape that refuses to grow past ``MAX_NODES`` (checked as nodes are appended)."""

    def __init__(self):
        super().__init__()
        self.nodes = _CappedList()


class _CappedList(list):
    def append(self, item):
        if len(self) >= MAX_NODES:
            raise EvaluationError(
                f"f records more than {MAX_NODES} primitive operations: trace is "
                "for graphs small enough to look at (use grad or jacobian_reverse)",
                reason="too_many_nodes",
            )
        super().append(item)
