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

Primitives (one tape node each): ``+ - * /``, negation, ``u**c``, ``u**w``,
``c**w``, exp, log, sin, cos, tanh, sqrt.  Each checks its domain and that its
value and local partials are finite (:mod:`robonum.autodiff.domain`), so the
same input fails here as in forward mode.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .. import _validate as check
from ._io import as_outputs, call_f, check_inputs
from .domain import NOT_OPERANDS, DomainError, overflow, pow_const, pow_value, real_const, unary

_finite = math.isfinite


class Tape:
    """The list of :class:`Var` in creation order; one tape per differentiation."""

    def __init__(self):
        self.nodes: list[Var] = []

    def __len__(self):
        return len(self.nodes)

    def var(self, value) -> "Var":
        """A new independent variable (a leaf) on this tape; ``value`` a finite real number."""
        return _node(check.real("value", value), (), self, "input")

    def backward(self, output: "Var") -> None:
        """Set ``node.grad = ∂output/∂node`` for every node up to ``output``.

        One reverse sweep: ``v̄_out = 1``, then for each node from the last to
        the first, ``v̄_p += v̄ · ∂v/∂p`` for its parents ``p``.  A node's adjoint
        is final when the loop reaches it (its children come later on the tape),
        so that is where an overflowed adjoint is caught.
        """
        if not isinstance(output, Var):
            raise TypeError(f"output must be a Var, got {type(output).__name__}")
        nodes = self.nodes
        if (
            output.tape is not self
            or output.index >= len(nodes)
            or nodes[output.index] is not output
        ):
            raise ValueError(
                "output must be a Var recorded on this tape (and the tape not cleared)"
            )
        sweep(nodes, ((output, 1.0),))


def sweep(nodes: list, seeds) -> None:
    """The reverse sweep over ``nodes`` (a tape's list) from seeds ``[(Var, adjoint), ...]``.

    All adjoints are zeroed, each seed's adjoint is added to its node, and the
    loop runs from the last seeded node down to the first node of the tape.
    Seeding several outputs at once gives ``Σ_i w_i ∂y_i/∂node`` (a
    vector-Jacobian product) in one sweep; :mod:`.checkpoint` uses it.
    """
    for node in nodes:
        node.grad = 0.0
    for node, adjoint in seeds:
        node.grad += adjoint
    for k in range(max(node.index for node, _ in seeds), -1, -1):
        node = nodes[k]
        g = node.grad
        if g == 0.0:
            continue  # no sensitivity to pass on; also avoids 0·inf = nan
        if not _finite(g):
            raise DomainError(
                f"reverse sweep: the adjoint of tape node {k} overflows a double "
                "(the derivative of the output is too large to represent)"
            )
        for parent, partial in node.parents:
            parent.grad += partial * g


class Var:
    """A value on a tape, with its parents and local partials; ``grad`` after a sweep.

    Usually made by :meth:`Tape.var` and by arithmetic; the constructor checks
    ``v`` (finite real), ``parents`` (pairs ``(Var on tape, finite partial)``) and ``tape``.
    ``op`` names the primitive that made the node (``"input"``, ``"u + w"``, ``"u * w"``,
    ``"sin"``, ``"u**c"`` ...; :func:`robonum.autodiff.graph.trace` reads it).
    """

    __slots__ = ("v", "grad", "parents", "tape", "index", "op")

    def __init__(self, v, parents, tape, op="custom"):
        if not isinstance(tape, Tape):
            raise TypeError(f"tape must be a Tape, got {type(tape).__name__}")
        v = check.real("v", v)
        if not isinstance(parents, (tuple, list)):
            raise TypeError(
                f"parents must be a tuple of (Var, partial) pairs, got {type(parents).__name__}"
            )
        pairs = []
        for i, pair in enumerate(parents):
            if not (
                isinstance(pair, (tuple, list)) and len(pair) == 2 and isinstance(pair[0], Var)
            ):
                raise TypeError(f"parents[{i}] must be a pair (Var, partial), got {pair!r}"[:200])
            if pair[0].tape is not tape:
                raise ValueError(f"parents[{i}] is recorded on another tape")
            pairs.append((pair[0], check.real(f"parents[{i}] partial", pair[1])))
        _setup(self, v, tuple(pairs), tape, check.text("op", op))

    def __repr__(self):
        return f"Var({self.v!r}, grad={self.grad!r})"

    def __float__(self):
        # math.sin(var) would otherwise fail with a bare "must be real number".
        raise TypeError(
            "a Var cannot become a float (it would drop off the tape); "
            "use robonum.autodiff.sin/cos/exp/... instead of math.*"
        )

    # --- arithmetic: value and local partials --------------------------------
    def __add__(self, o, reflected=False):
        o = _other("u + w", self, o, reflected)
        if o is None:
            return NotImplemented
        if isinstance(o, Var):
            return _rec("u + w", self.v + o.v, ((self, 1.0), (o, 1.0)), self, o)
        return _rec("u + w", self.v + o, ((self, 1.0),), self, o)

    def __radd__(self, o):
        return self.__add__(o, reflected=True)

    def __neg__(self):
        return _node(-self.v, ((self, -1.0),), self.tape, "-u")

    def __pos__(self):
        return self

    def __sub__(self, o):
        o = _other("u - w", self, o, False)
        if o is None:
            return NotImplemented
        if isinstance(o, Var):
            return _rec("u - w", self.v - o.v, ((self, 1.0), (o, -1.0)), self, o)
        return _rec("u - w", self.v - o, ((self, 1.0),), self, o)

    def __rsub__(self, o):
        c = _other("u - w", self, o, True)
        return _rec("u - w", c - self.v, ((self, -1.0),), o, self)

    def __mul__(self, o, reflected=False):
        o = _other("u * w", self, o, reflected)
        if o is None:
            return NotImplemented
        if isinstance(o, Var):
            return _rec("u * w", self.v * o.v, ((self, o.v), (o, self.v)), self, o)
        return _rec("u * w", self.v * o, ((self, o),), self, o)

    def __rmul__(self, o):
        return self.__mul__(o, reflected=True)

    def __truediv__(self, o):
        o = _other("u / w", self, o, False)
        if o is None:
            return NotImplemented
        w = o.v if isinstance(o, Var) else o
        if w == 0.0:
            raise DomainError(f"u / w needs w != 0, got w = {w!r}")
        q = self.v / w  # ∂(u/w)/∂u = 1/w, ∂(u/w)/∂w = -q/w
        parents = ((self, 1.0 / w), (o, -q / w)) if isinstance(o, Var) else ((self, 1.0 / w),)
        return _rec("u / w", q, parents, self, o)

    def __rtruediv__(self, o):
        c = _other("u / w", self, o, True)
        if self.v == 0.0:
            raise DomainError(f"u / w needs w != 0, got w = {self.v!r}")
        q = c / self.v
        return _rec("u / w", q, ((self, -q / self.v),), o, self)

    def __pow__(self, o):
        if isinstance(o, Var):
            o = _other("u**w", self, o, False)  # same-tape check
            val = pow_value(self.v, o.v, "u**w with a Var exponent")
            # ∂(u^w)/∂u = w u^(w-1) = w u^w / u (no pow that could raise), ∂(u^w)/∂w = u^w ln u
            return _rec(
                "u**w", val, ((self, o.v * val / self.v), (o, val * math.log(self.v))), self, o
            )
        if isinstance(o, bool) or not isinstance(o, numbers.Real):
            _other("u**c", self, o, False)  # a TypeError naming ** for str, list, complex ...
            return NotImplemented
        value, slope = pow_const(self.v, real_const("u**c", o))
        return _node(value, ((self, slope),), self.tape, "u**c")

    def __rpow__(self, o):
        c = _other("c**w", self, o, True)
        val = pow_value(c, self.v, "c**w with a Var exponent")
        return _rec("c**w", val, ((self, val * math.log(c)),), o, self)

    # --- elementary functions: value and local partial ----------------------
    def exp(self):
        return _unary("exp", self)

    def log(self):
        return _unary("log", self)

    def sin(self):
        return _unary("sin", self)

    def cos(self):
        return _unary("cos", self)

    def tanh(self):
        return _unary("tanh", self)

    def sqrt(self):
        return _unary("sqrt", self)


def _setup(z: Var, v: float, parents: tuple, tape: Tape, op: str) -> None:
    z.v, z.grad, z.parents, z.tape, z.op = v, 0.0, parents, tape, op
    z.index = len(tape.nodes)
    tape.nodes.append(z)


def _node(v: float, parents: tuple, tape: Tape, op: str) -> Var:
    """Record a node whose value and partials are already known to be finite."""
    z = object.__new__(Var)
    _setup(z, v, parents, tape, op)
    return z


def _rec(op: str, v: float, parents: tuple, u, w) -> Var:
    """Record a node after checking that its value and local partials are finite."""
    if _finite(v) and all(_finite(p) for _, p in parents):
        return _node(v, parents, parents[0][0].tape, op)
    raise overflow(op, u=u, w=w)


def _unary(name: str, a: Var) -> Var:
    value, slope = unary(name, a.v)  # domain and overflow checks for both modes
    return _node(value, ((a, slope),), a.tape, name)


def _other(op: str, a: Var, o, reflected: bool):
    """The other operand: a Var on ``a``'s tape or a finite float constant.

    Anything else: ``None`` from a forward operator (Python then tries the other
    operand), a ``TypeError`` naming ``op`` from a reflected one and for types
    that never are operands (see forward._operand).
    """
    if isinstance(o, Var):
        if o.tape is not a.tape:
            raise ValueError(f"{op}: cannot combine Vars recorded on different tapes")
        return o
    if isinstance(o, numbers.Real) and not isinstance(o, bool):
        return real_const(op, o)
    if reflected or isinstance(o, NOT_OPERANDS):
        hint = " (forward and reverse mode do not mix)" if type(o).__name__ == "Dual" else ""
        raise TypeError(
            f"{op}: cannot combine a {type(o).__name__} with a Var; use real "
            f"numbers, Vars or numpy arrays of them{hint}"
        )
    return None


def _record(tape, f, x):
    """Run ``f`` once, recording on ``tape``; return (inputs, outputs)."""
    x = check_inputs(f, x)
    X = np.array([_node(float(v), (), tape, "input") for v in x], dtype=object)
    return X, as_outputs(call_f(f, X, x), Var, tape=tape)


def jacobian_reverse(f, x) -> np.ndarray:
    """Jacobian ``J[i, j] = ∂f_i/∂x_j`` by reverse mode: one recording, one sweep per output.

    Sweep ``i`` seeds ``ȳ_i = 1`` and reads row ``i`` from the inputs' adjoints.
    Shape ``(m, n)`` (``m = 1`` for a scalar ``f``); a real-constant output has a zero row.
    Reference: Griewank & Walther (2008), ch. 3.
    """
    return _jacobian(Tape(), f, x)


def _jacobian(tape, f, x):
    X, Y = _record(tape, f, x)
    try:
        J = np.zeros((Y.size, X.size))
        for i, y in enumerate(Y):
            if isinstance(y, Var):  # a constant output has a zero row
                tape.backward(y)
                J[i] = [xj.grad for xj in X]
        return J
    finally:
        tape.nodes.clear()  # break the Var <-> Tape cycle now, not at the next gc


def grad(f, x) -> np.ndarray:
    """Gradient ``∇f(x)`` of a scalar ``f: R^n -> R``: one forward pass and one reverse sweep.

    Its cost is a small constant multiple of one evaluation of ``f``,
    independent of ``n`` (Griewank & Walther 2008, ch. 3-4; "cheap gradient principle").
    A real-constant ``f`` has gradient 0.
    """
    tape = Tape()
    X, Y = _record(tape, f, x)
    try:
        if Y.size != 1:
            raise ValueError(
                f"f must return a scalar for grad, got {Y.size} outputs (use jacobian_reverse)"
            )
        if not isinstance(Y[0], Var):
            return np.zeros(X.size)
        tape.backward(Y[0])
        return np.array([xj.grad for xj in X])
    finally:
        tape.nodes.clear()
