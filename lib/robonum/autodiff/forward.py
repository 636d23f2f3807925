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
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from .. import _validate as check
from ._io import as_outputs, check_inputs, check_real_power


class Dual:
    """``v + d ε`` with ``ε² = 0``: value ``v`` and derivative ``d``.

    Supports ``+ - * / **`` with floats on either side and with other duals;
    the elementary functions live in :mod:`robonum.autodiff.functions`
    (``sin, cos, exp, log, sqrt, tanh``), which also work on numpy object
    arrays of duals because numpy calls the methods of the same name.
    """

    __slots__ = ("v", "d")

    def __init__(self, v, d=0.0):
        self.v = float(v)
        self.d = float(d)

    def __repr__(self):
        return f"Dual({self.v!r}, {self.d!r})"

    def __float__(self):
        # math.sin(dual) would otherwise fail with a bare "must be real number".
        raise TypeError("a Dual cannot become a float (its derivative would be lost); "
                        "use robonum.autodiff.sin/cos/exp/... instead of math.*")

    # --- arithmetic: (a + bε) op (c + dε), dropping ε² terms -------------
    def __add__(self, o):
        o = _lift(o)
        return NotImplemented if o is None else Dual(self.v + o.v, self.d + o.d)

    __radd__ = __add__

    def __neg__(self):
        return Dual(-self.v, -self.d)

    def __pos__(self):
        return self

    def __sub__(self, o):
        o = _lift(o)
        return NotImplemented if o is None else Dual(self.v - o.v, self.d - o.d)

    def __rsub__(self, o):
        o = _lift(o)
        return NotImplemented if o is None else o - self

    def __mul__(self, o):
        o = _lift(o)
        if o is None:
            return NotImplemented
        return Dual(self.v * o.v, self.d * o.v + self.v * o.d)

    __rmul__ = __mul__

    def __truediv__(self, o):
        o = _lift(o)
        if o is None:
            return NotImplemented
        # (a/c)' = (a' c - a c') / c² = (a' - (a/c) c') / c
        q = self.v / o.v
        return Dual(q, (self.d - q * o.d) / o.v)

    def __rtruediv__(self, o):
        o = _lift(o)
        return NotImplemented if o is None else o / self

    def __pow__(self, o):
        if isinstance(o, numbers.Real):          # u^c: c u^(c-1) u'
            c = float(o)
            if c == 0.0:
                return Dual(1.0, 0.0)
            check_real_power(self.v, c)
            return Dual(self.v ** c, c * self.v ** (c - 1.0) * self.d)
        o = _lift(o)
        if o is None:
            return NotImplemented
        # u^w = exp(w log u) is only real-differentiable for u > 0.
        if not self.v > 0.0:
            raise ValueError(f"u**w with a Dual exponent needs base u > 0, got u = {self.v!r}")
        val = self.v ** o.v
        return Dual(val, val * (o.d * math.log(self.v) + o.v * self.d / self.v))

    def __rpow__(self, o):
        o = _lift(o)
        if o is None:
            return NotImplemented
        if not o.v > 0.0:
            raise ValueError(f"c**w with a Dual exponent needs base c > 0, got c = {o.v!r}")
        return o ** self

    # --- elementary functions: f(v + dε) = f(v) + f'(v) d ε --------------
    def sin(self):
        return Dual(math.sin(self.v), math.cos(self.v) * self.d)

    def cos(self):
        return Dual(math.cos(self.v), -math.sin(self.v) * self.d)

    def exp(self):
        e = math.exp(self.v)
        return Dual(e, e * self.d)

    def log(self):
        return Dual(math.log(self.v), self.d / self.v)

    def sqrt(self):
        r = math.sqrt(self.v)
        return Dual(r, self.d / (2.0 * r))

    def tanh(self):
        t = math.tanh(self.v)
        return Dual(t, (1.0 - t * t) * self.d)


def _lift(o):
    """A Dual for a Dual or a real constant (derivative 0); None otherwise."""
    if isinstance(o, Dual):
        return o
    if isinstance(o, numbers.Real):
        return Dual(o, 0.0)
    return None


def jacobian_forward(f, x) -> np.ndarray:
    """Jacobian ``J[i, j] = ∂f_i/∂x_j`` by forward mode, one pass per input.

    Pass ``j`` seeds ``x_k + δ_kj ε`` and reads column ``j`` from the ε parts
    of the outputs.  ``f`` receives a numpy object array of :class:`Dual` of
    shape ``(n,)`` and may return a scalar or a sequence; the result always
    has shape ``(m, n)`` (``m = 1`` for a scalar ``f``).
    Reference: Griewank & Walther (2008), ch. 3.
    """
    x = check_inputs(f, x)
    columns = []
    for j in range(x.size):
        X = np.array([Dual(v, 1.0 if k == j else 0.0) for k, v in enumerate(x)], dtype=object)
        columns.append([y.d for y in as_outputs(f(X), Dual)])
    return np.array(columns, dtype=float).T


def derivative(f, x) -> float:
    """``f'(x)`` of a scalar function of one real variable: ``f(x + ε) = f(x) + f'(x) ε``.

    Reference: Griewank & Walther (2008), ch. 3.
    """
    check.callable_("f", f)
    y = as_outputs(f(Dual(check.real("x", x), 1.0)), Dual)
    if y.size != 1:
        raise ValueError(f"f must return a scalar, got {y.size} outputs")
    return float(y[0].d)
