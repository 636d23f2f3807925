"""Deterministic cost counts for forward versus reverse mode.

Wall-clock times of pure Python vary from run to run; counts do not.  For
``f: R^n -> R^m`` forward mode needs ``n`` passes (one per input) and
reverse mode one recorded pass plus ``m`` sweeps over the tape (one per
output).  For a scalar function (``m = 1``) the gradient therefore costs
``O(n · ops)`` forward and ``O(ops)`` reverse.
Reference: Griewank & Walther, *Evaluating Derivatives* (2nd ed., 2008), ch. 4
(complexity of the basic modes); Baydin et al., JMLR 18 (2018), sec. 3.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import _validate as check
from .forward import jacobian_forward
from .reverse import Tape, _jacobian

_COUNT_MAX = 2**63 - 1  # counts fit numpy's int64 (tables and arrays of costs)


@dataclass(frozen=True)
class ADCost:
    """Counts measured while computing one full Jacobian in each mode.

    ``forward_passes`` and ``reverse_passes`` are calls of ``f`` actually made;
    ``reverse_sweeps`` are backward sweeps actually run; ``tape_length`` is
    the number of nodes recorded in the reverse pass (``n`` inputs plus one
    per primitive operation), ``tape_edges`` the number of local partials on
    the tape, and ``swept_partials`` those the ``m`` sweeps actually multiply,
    summed over the sweeps: a sweep starts at its output and skips every node
    whose adjoint is 0 (a node the output does not depend on), so with many
    outputs it is far below ``m · tape_edges``.  ``ops_per_pass = tape_length - n``
    counts primitive operations of one evaluation (a Dual pass runs the same
    operations: every operator and elementary function is one primitive in both modes).
    All fields are integers in ``[0, 2^63)`` (checked, since the record is public).
    """

    n: int
    m: int
    forward_passes: int
    reverse_passes: int
    reverse_sweeps: int
    tape_length: int
    tape_edges: int
    swept_partials: int

    def __post_init__(self):
        for name in (
            "n",
            "m",
            "forward_passes",
            "reverse_passes",
            "reverse_sweeps",
            "tape_length",
            "tape_edges",
            "swept_partials",
        ):
            check.integer(name, getattr(self, name), lo=0, hi=_COUNT_MAX)

    @property
    def ops_per_pass(self) -> int:
        return self.tape_length - self.n

    @property
    def forward_ops(self) -> int:
        """Primitive operations of forward mode: ``n`` passes of ``ops_per_pass`` each."""
        return self.forward_passes * self.ops_per_pass

    @property
    def reverse_ops(self) -> int:
        """One recorded pass plus the local partials the ``m`` sweeps multiply."""
        return self.reverse_passes * self.ops_per_pass + self.swept_partials


class _CountingTape(Tape):
    def __init__(self):
        super().__init__()
        self.sweeps = 0
        self.length = 0
        self.edges = 0
        self.swept = 0

    def backward(self, output):
        self.sweeps += 1
        self.length = len(self.nodes)
        self.edges = sum(len(node.parents) for node in self.nodes)
        super().backward(output)
        # reverse.sweep multiplied the partials of each node up to the output whose adjoint,
        # final when the loop reached it, was not 0: the same test, read after the sweep
        reached = self.nodes[: output.index + 1]
        self.swept += sum(len(node.parents) for node in reached if node.grad != 0.0)


class _CountingFunction:
    def __init__(self, f):
        self.f, self.calls = f, 0

    def __call__(self, x):
        self.calls += 1
        return self.f(x)


def ad_cost(f, x) -> ADCost:
    """Run ``jacobian_forward`` and the reverse Jacobian on ``f`` at ``x`` and count the work.

    Example: for ``f = robonum.arm.sin_chain`` (``Σ sin(x_i) x_{i+1}``),
    ``forward_passes == n`` while ``reverse_passes == reverse_sweeps == 1``.
    """
    check.callable_("f", f)
    fwd = _CountingFunction(f)
    J = jacobian_forward(fwd, x)
    rev, tape = _CountingFunction(f), _CountingTape()
    _jacobian(tape, rev, x)
    m, n = J.shape
    return ADCost(
        n=n,
        m=m,
        forward_passes=fwd.calls,
        reverse_passes=rev.calls,
        reverse_sweeps=tape.sweeps,
        tape_length=tape.length,
        tape_edges=tape.edges,
        swept_partials=tape.swept,
    )
