"""Forward-mode automatic differentiation with dual numbers.

A dual number ``a + b ε`` with ``ε² = 0`` carries a value ``a`` and a
directional derivative ``b``.  Expanding ``f(x + ε) = f(x) + f'(x) ε`` shows
that evaluating ``f`` on duals yields ``f'`` exactly (up to the rounding of
each elementary operation) with no step size to choose.
Reference: Griewank & Walther, *Evaluating Derivatives* (2nd ed., SIAM 2008),
ch. 3 (forward mode); Baydin et al., "Automatic differentiation in machine
learning: a survey", JMLR 18 (2018), sec. 3.1.

One forward pass gives one column ``J[:, j]`` of the Jacobian, so the full
Jacobian of ``f: R^n -> R^m`` costs ``n`` passes.

Every operation checks its domain and that value and derivative stay finite
(:mod:`robonum.autodiff.domain`); a :class:`Dual` therefore never holds NaN or inf.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .. import _validate as check
from ._io import as_outputs, call_f, check_inputs
from .domain import NOT_OPERANDS, DomainError, overflow, pow_const, pow_value, real_const, unary

_finite = math.isfinite


def _dual(v: float, d: float) -> "Dual":
    """A Dual from values already known to be finite floats (skips the public checks)."""
    z = object.__new__(Dual)
    z.v, z.d = v, d
    return z


def _out(op: str, v: float, d: float, u, w=None) -> "Dual":
    if _finite(v) and _finite(d):
        return _dual(v, d)
    raise overflow(op, u=u, **({} if w is None else {"w": w}))


class Dual:
    """``v + d ε`` with ``ε² = 0``: value ``v`` and derivative ``d`` (both finite floats).

    Supports ``+ - * / **`` with real numbers on either side and with other duals;
    the elementary functions live in :mod:`robonum.autodiff.functions`
    (``sin, cos, exp, log, sqrt, tanh``), which also work on numpy object
    arrays of duals.  Mixing with a :class:`Var`, a complex number or a bool is
    a ``TypeError``; leaving an operation's domain is a ``DomainError``.
    """

    __slots__ = ("v", "d")

    def __init__(self, v, d=0.0):
        self.v = check.real("v", v)
        self.d = check.real("d", d)

    def __repr__(self):
        return f"Dual({self.v!r}, {self.d!r})"

    def __float__(self):
        # math.sin(dual) would otherwise fail with a bare "must be real number".
        raise TypeError(
            "a Dual cannot become a float (its derivative would be lost); "
            "use robonum.autodiff.sin/cos/exp/... instead of math.*"
        )

    # --- arithmetic: (a + bε) op (c + dε), dropping ε² terms -------------
    def __add__(self, o):
        o = _operand("u + w", o, False)
        return NotImplemented if o is None else _out("u + w", self.v + o.v, self.d + o.d, self, o)

    def __radd__(self, o):
        o = _operand("u + w", o, True)
        return _out("u + w", self.v + o.v, self.d + o.d, o, self)

    def __neg__(self):
        return _dual(-self.v, -self.d)

    def __pos__(self):
        return self

    def __sub__(self, o):
        o = _operand("u - w", o, False)
        return NotImplemented if o is None else _out("u - w", self.v - o.v, self.d - o.d, self, o)

    def __rsub__(self, o):
        o = _operand("u - w", o, True)
        return _out("u - w", o.v - self.v, o.d - self.d, o, self)

    def __mul__(self, o):
        o = _operand("u * w", o, False)
        if o is None:
            return NotImplemented
        return _out("u * w", self.v * o.v, self.d * o.v + self.v * o.d, self, o)

    def __rmul__(self, o):
        o = _operand("u * w", o, True)
        return _out("u * w", self.v * o.v, self.d * o.v + self.v * o.d, o, self)

    def __truediv__(self, o):
        o = _operand("u / w", o, False)
        return NotImplemented if o is None else _div(self, o)

    def __rtruediv__(self, o):
        return _div(_operand("u / w", o, True), self)

    def __pow__(self, o):
        if isinstance(o, Dual):
            # u^w = exp(w log u): (u^w)' = u^w (w' log u + w u'/u), real only for u > 0.
            val = pow_value(self.v, o.v, "u**w with a Dual exponent")
            return _out(
                "u**w", val, val * (o.d * math.log(self.v) + o.v * self.d / self.v), self, o
            )
        if isinstance(o, bool) or not isinstance(o, numbers.Real):
            _operand("u**c", o, False)  # a TypeError naming ** for str, list, complex ...
            return NotImplemented
        value, slope = pow_const(self.v, real_const("u**c", o))  # (u^c)' = c u^(c-1) u'
        return _out("u**c", value, slope * self.d, self, o)

    def __rpow__(self, o):
        c = _operand("c**w", o, True).v
        val = pow_value(c, self.v, "c**w with a Dual exponent")  # (c^w)' = c^w ln(c) w'
        return _out("c**w", val, val * (self.d * math.log(c)), o, self)

    # --- elementary functions: f(v + dε) = f(v) + f'(v) d ε --------------
    def sin(self):
        v, s = unary("sin", self.v)
        return _out("sin(x)", v, s * self.d, self)

    def cos(self):
        v, s = unary("cos", self.v)
        return _out("cos(x)", v, s * self.d, self)

    def exp(self):
        v, s = unary("exp", self.v)
        return _out("exp(x)", v, s * self.d, self)

    def log(self):
        v, _ = unary("log", self.v)  # checks x > 0 and that 1/x is finite
        return _out("log(x)", v, self.d / self.v, self)

    def sqrt(self):
        r, _ = unary("sqrt", self.v)  # checks x > 0 (the slope is infinite at 0)
        return _out("sqrt(x)", r, self.d / (2.0 * r), self)

    def tanh(self):
        v, s = unary("tanh", self.v)
        return _out("tanh(x)", v, s * self.d, self)


def _operand(op: str, o, reflected: bool):
    """A Dual for a Dual or a real constant (derivative 0).

    Anything else: ``None`` from a forward operator (Python then tries the other
    operand, e.g. a numpy array), a ``TypeError`` naming ``op`` from a reflected
    one (the other operand has already declined) and for types that never are
    operands (else ``Dual * "ab"`` ends in str's "can't multiply sequence").
    """
    if isinstance(o, Dual):
        return o
    if isinstance(o, numbers.Real) and not isinstance(o, bool):
        return _dual(real_const(op, o), 0.0)
    if reflected or isinstance(o, NOT_OPERANDS):
        hint = " (forward and reverse mode do not mix)" if type(o).__name__ == "Var" else ""
        raise TypeError(
            f"{op}: cannot combine a {type(o).__name__} with a Dual; use real "
            f"numbers, Duals or numpy arrays of them{hint}"
        )
    return None


def _div(u: Dual, w: Dual) -> Dual:
    if w.v == 0.0:
        raise DomainError(f"u / w needs w != 0, got w = {w.v!r}")
    # (a/c)' = (a' c - a c') / c² = (a' - (a/c) c') / c
    q = u.v / w.v
    return _out("u / w", q, (u.d - q * w.d) / w.v, u, w)


def jacobian_forward(f, x) -> np.ndarray:
    """Jacobian ``J[i, j] = ∂f_i/∂x_j`` by forward mode, one pass per input.

    Pass ``j`` seeds ``x_k + δ_kj ε`` and reads column ``j`` from the ε parts
    of the outputs.  ``f`` receives a numpy object array of :class:`Dual` of
    shape ``(n,)`` and may return a scalar or a 1-D sequence; the result always
    has shape ``(m, n)`` (``m = 1`` for a scalar ``f``).  An output that is a
    real constant has a zero row.
    Reference: Griewank & Walther (2008), ch. 3.
    """
    x = check_inputs(f, x)
    J, m = None, None
    for j in range(x.size):
        X = np.array(
            [_dual(float(v), 1.0 if k == j else 0.0) for k, v in enumerate(x)], dtype=object
        )
        Y = as_outputs(call_f(f, X, x), Dual, m)
        if J is None:
            m = Y.size
            J = np.zeros((m, x.size))
        J[:, j] = [y.d if isinstance(y, Dual) else 0.0 for y in Y]
    return J


def derivative(f, x) -> float:
    """``f'(x)`` of a scalar function of one real variable: ``f(x + ε) = f(x) + f'(x) ε``.

    ``f`` receives one :class:`Dual` and must return one Dual or a real constant.
    Reference: Griewank & Walther (2008), ch. 3.
    """
    check.callable_("f", f)
    x = check.real("x", x)
    y = as_outputs(call_f(f, _dual(x, 1.0), x), Dual)
    if y.size != 1:
        raise ValueError(f"f must return a scalar, got {y.size} outputs")
    return float(y[0].d) if isinstance(y[0], Dual) else 0.0
