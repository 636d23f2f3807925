"""Reverse-mode automatic differentiation on a tape.

Every :class:`Var` is appended to its :class:`Tape` when it is created, with
the local partials ``∂v/∂parent`` of the operation that made it.  Parents
are always created before children, so creation order is already a
topological order: the backward sweep is a plain loop over the tape in
reverse, accumulating adjoints ``v̄_parent += v̄ · ∂v/∂parent``.  No
recursion, so a chain of 10⁵ operations is no problem (a recursive
topological sort, as in micrograd's ``engine.py``, stops at Python's
recursion limit of about 1000).
Reference: Griewank & Walther, *Evaluating Derivatives* (2nd ed., SIAM 2008),
ch. 3 (reverse mode); Baydin et al., JMLR 18 (2018), sec. 3.2.

Primitives: add, mul, pow by a constant, exp, log, sin, cos, tanh.  Everything
else is built from them (``a - b = a + (-1)·b``, ``a / b = a · b^(-1)``,
``sqrt a = a^0.5``, ``a^b = exp(b log a)``).
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from ._io import as_outputs, check_inputs, check_real_power


class Tape:
    """The list of :class:`Var` in creation order; one tape per differentiation."""

    def __init__(self):
        self.nodes: list[Var] = []

    def __len__(self):
        return len(self.nodes)

    def var(self, value) -> "Var":
        """A new independent variable (a leaf) on this tape."""
        return Var(float(value), (), self)

    def backward(self, output: "Var") -> None:
        """Set ``node.grad = ∂output/∂node`` for every node up to ``output``.

        One reverse sweep: ``v̄_out = 1``, then for each node from the last to
        the first, ``v̄_p += v̄ · ∂v/∂p`` for its parents ``p``.
        """
        if not isinstance(output, Var) or output.tape is not self:
            raise ValueError("output must be a Var recorded on this tape")
        for node in self.nodes:
            node.grad = 0.0
        output.grad = 1.0
        for k in range(output.index, -1, -1):
            node = self.nodes[k]
            if node.grad == 0.0:
                continue  # no sensitivity to pass on; also avoids 0·inf = nan
            for parent, partial in node.parents:
                parent.grad += partial * node.grad


class Var:
    """A value on a tape, with its parents and local partials; ``grad`` after a sweep."""

    __slots__ = ("v", "grad", "parents", "tape", "index")

    def __init__(self, v: float, parents: tuple, tape: Tape):
        self.v = v
        self.grad = 0.0
        self.parents = parents      # ((parent Var, ∂self/∂parent), ...)
        self.tape = tape
        self.index = len(tape.nodes)
        tape.nodes.append(self)

    def __repr__(self):
        return f"Var({self.v!r}, grad={self.grad!r})"

    def __float__(self):
        # math.sin(var) would otherwise fail with a bare "must be real number".
        raise TypeError("a Var cannot become a float (it would drop off the tape); "
                        "use robonum.autodiff.sin/cos/exp/... instead of math.*")

    # --- derived operations -------------------------------------------------
    def __add__(self, o):
        return _binary(_add, self, o)

    __radd__ = __add__

    def __mul__(self, o):
        return _binary(_mul, self, o)

    __rmul__ = __mul__

    def __neg__(self):
        return _mul(self, -1.0)

    def __pos__(self):
        return self

    def __sub__(self, o):
        return NotImplemented if not _ok(o) else self + (-o)

    def __rsub__(self, o):
        return NotImplemented if not _ok(o) else (-self) + o

    def __truediv__(self, o):
        if isinstance(o, Var):
            return _mul(self, _pow_const(o, -1.0))
        return NotImplemented if not _ok(o) else _mul(self, 1.0 / o)

    def __rtruediv__(self, o):
        return NotImplemented if not _ok(o) else _mul(_pow_const(self, -1.0), o)

    def __pow__(self, o):
        if isinstance(o, Var):
            if not self.v > 0.0:
                raise ValueError(f"u**w with a Var exponent needs base u > 0, got u = {self.v!r}")
            return (o * self.log()).exp()
        return NotImplemented if not _ok(o) else _pow_const(self, float(o))

    def __rpow__(self, o):
        if not _ok(o):
            return NotImplemented
        if not o > 0:
            raise ValueError(f"c**w with a Var exponent needs base c > 0, got c = {o!r}")
        return (self * math.log(o)).exp()

    def sqrt(self):
        return _pow_const(self, 0.5)

    # --- primitive elementary functions: value and local partial -----------
    def exp(self):
        e = math.exp(self.v)
        return Var(e, ((self, e),), self.tape)

    def log(self):
        return Var(math.log(self.v), ((self, 1.0 / self.v),), self.tape)

    def sin(self):
        return Var(math.sin(self.v), ((self, math.cos(self.v)),), self.tape)

    def cos(self):
        return Var(math.cos(self.v), ((self, -math.sin(self.v)),), self.tape)

    def tanh(self):
        # Own primitive: (e^{2x}-1)/(e^{2x}+1) would overflow to nan for x > 355.
        t = math.tanh(self.v)
        return Var(t, ((self, 1.0 - t * t),), self.tape)


def _ok(o) -> bool:
    return isinstance(o, (Var, numbers.Real))


def _binary(op, a: Var, o):
    if isinstance(o, Var):
        if o.tape is not a.tape:
            raise ValueError("cannot combine Vars recorded on different tapes")
        return op(a, o)
    return op(a, float(o)) if _ok(o) else NotImplemented


def _add(a: Var, b) -> Var:
    if isinstance(b, Var):
        return Var(a.v + b.v, ((a, 1.0), (b, 1.0)), a.tape)
    return Var(a.v + b, ((a, 1.0),), a.tape)


def _mul(a: Var, b) -> Var:
    if isinstance(b, Var):
        return Var(a.v * b.v, ((a, b.v), (b, a.v)), a.tape)
    b = float(b)
    return Var(a.v * b, ((a, b),), a.tape)


def _pow_const(a: Var, c: float) -> Var:
    if c == 0.0:
        return Var(1.0, (), a.tape)
    check_real_power(a.v, c)
    return Var(a.v ** c, ((a, c * a.v ** (c - 1.0)),), a.tape)


def _record(tape, f, x):
    """Run ``f`` once, recording on ``tape``; return (inputs, outputs)."""
    x = check_inputs(f, x)
    X = np.array([tape.var(v) for v in x], dtype=object)
    return X, as_outputs(f(X), Var)


def jacobian_reverse(f, x) -> np.ndarray:
    """Jacobian ``J[i, j] = ∂f_i/∂x_j`` by reverse mode: one recording, one sweep per output.

    Sweep ``i`` seeds ``ȳ_i = 1`` and reads row ``i`` from the inputs' adjoints.
    Shape ``(m, n)`` (``m = 1`` for a scalar ``f``).
    Reference: Griewank & Walther (2008), ch. 3.
    """
    return _jacobian(Tape(), f, x)


def _jacobian(tape, f, x):
    X, Y = _record(tape, f, x)
    try:
        J = np.zeros((Y.size, X.size))
        for i, y in enumerate(Y):
            if isinstance(y, Var):          # a constant output has a zero row
                tape.backward(y)
                J[i] = [xj.grad for xj in X]
        return J
    finally:
        tape.nodes.clear()  # break the Var <-> Tape cycle now, not at the next gc


def grad(f, x) -> np.ndarray:
    """Gradient ``∇f(x)`` of a scalar ``f: R^n -> R``: one forward pass and one reverse sweep.

    Its cost is a small constant multiple of one evaluation of ``f``,
    independent of ``n`` (Griewank & Walther 2008, ch. 3-4; "cheap gradient principle").
    """
    tape = Tape()
    X, Y = _record(tape, f, x)
    try:
        if Y.size != 1:
            raise ValueError(f"f must return a scalar for grad, got {Y.size} outputs "
                             "(use jacobian_reverse)")
        if not isinstance(Y[0], Var):
            return np.zeros(X.size)
        tape.backward(Y[0])
        return np.array([xj.grad for xj in X])
    finally:
        tape.nodes.clear()
