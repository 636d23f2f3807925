"""The real domain of every elementary operation, checked in one place.

Each kernel takes finite floats and returns the value and the slope (local
derivative) of one operation, both finite, or raises :class:`DomainError`
whose message names the operation, the offending value and the valid domain,
e.g. ``log(x) needs x > 0, got x = -1.0``.  Forward mode (:class:`Dual`),
reverse mode (:class:`Var`) and the float/complex/array dispatch of
:mod:`robonum.autodiff.functions` all call these kernels, so the same input
fails the same way in every mode.

Domains (real arguments)::

    log x      x > 0              (slope 1/x must not overflow: x >= 1/DBL_MAX)
    sqrt x     x >= 0 for the value, x > 0 for the slope 1/(2 sqrt x)
    exp x      x <= ln(DBL_MAX) = 709.78  (e^x overflows above)
    u**c       u >= 0 unless c is an integer; u != 0 if c < 0; slope c u^(c-1)
               needs u > 0 when 0 < c < 1
    u**w, c**w base > 0 (u^w = e^(w ln u) is real-differentiable only there)
    u / w      w != 0

Reference: IEEE 754-2019, sec. 7 (overflow, invalid operation); C99 Annex F
(the domain of exp, log, sqrt, pow); Griewank & Walther, *Evaluating
Derivatives* (2nd ed., SIAM 2008), sec. 2.2 (elementary functions and their
derivatives).
"""

from __future__ import annotations

import math
import sys

import numpy as np

from ..errors import RobonumError

DBL_MAX = sys.float_info.max
EXP_MAX = math.log(DBL_MAX)  # 709.78: e^x is inf above
COSH_MAX = math.log(DBL_MAX) + math.log(
    2.0
)  # 710.48: cosh/sinh of a complex argument overflow above

_REAL_DOMAIN = {
    "log": "x > 0",
    "sqrt": "x >= 0",
    "exp": f"x <= {EXP_MAX:.4f} (e^x overflows a double above)",
}
_COMPLEX_DOMAIN = {
    "log": "x != 0",
    "exp": f"Re x <= {EXP_MAX:.4f}",
    "sin": f"|Im x| <= {COSH_MAX:.4f}",
    "cos": f"|Im x| <= {COSH_MAX:.4f}",
    "tanh": "x away from the poles i(pi/2 + k pi)",
    "sqrt": "a finite x",
}


# Operand types that can never take part in Dual/Var arithmetic; refused with a TypeError
# that names the operator (a list or str would otherwise get Python's sequence messages).
NOT_OPERANDS = (str, bytes, list, tuple, dict, set, bool, complex, type(None))


class DomainError(RobonumError, ValueError):
    """An elementary operation was evaluated outside its real domain, or overflowed.

    Also a ``ValueError``, so code written for ``math`` ("math domain error")
    still catches it.
    """


def show(value) -> str:
    """A short text for a value; a huge int by its number of digits, not 400 of them."""
    if isinstance(value, np.generic):
        value = value.item()  # -2.0, not np.float64(-2.0)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**20:
        return f"an integer with {len(str(abs(value)))} digits"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def real_const(op: str, c) -> float:
    """A real constant operand (already known to be a non-bool ``numbers.Real``) as a finite float."""
    try:
        x = float(c)
    except OverflowError:
        raise DomainError(
            f"{op} needs finite operands, got a constant too large for a double "
            f"({show(c)}; |c| <= {DBL_MAX:.4g})"
        ) from None
    if not math.isfinite(x):
        raise DomainError(f"{op} needs finite operands, got the constant {show(c)}")
    return x


def overflow(op: str, **operands) -> DomainError:
    """The error for an operation whose value or derivative is beyond the largest double."""
    where = ", ".join(f"{k} = {show(v)}" for k, v in operands.items())
    return DomainError(
        f"{op} overflows: its value or derivative exceeds the largest double "
        f"({DBL_MAX:.4g}) at {where}"
    )


def domain_error(name: str, x, complex_arg: bool = False) -> DomainError:
    domain = (_COMPLEX_DOMAIN if complex_arg else _REAL_DOMAIN).get(name, "a finite x")
    return DomainError(f"{name}(x) needs {domain}, got x = {show(x)}")


def real_value(name: str, x: float) -> float:
    """The value only of ``name`` at a finite float (``sqrt(0) = 0`` is fine here)."""
    if (
        (name == "log" and not x > 0.0)
        or (name == "sqrt" and x < 0.0)
        or (name == "exp" and x > EXP_MAX)
    ):
        raise domain_error(name, x)
    return getattr(math, name)(x)


def unary(name: str, x: float) -> tuple[float, float]:
    """``(f(x), f'(x))`` for f in sin, cos, tanh, exp, log, sqrt at a finite float ``x``."""
    if name == "sin":
        return math.sin(x), math.cos(x)
    if name == "cos":
        return math.cos(x), -math.sin(x)
    if name == "tanh":
        # Own formula: (e^{2x}-1)/(e^{2x}+1) would overflow to nan for x > 355.
        t = math.tanh(x)
        return t, 1.0 - t * t
    if name == "exp":
        e = real_value("exp", x)
        return e, e
    if name == "log":
        value, slope = real_value("log", x), 1.0 / x
        if not math.isfinite(slope):  # x below 1/DBL_MAX (subnormal): 1/x is inf
            raise DomainError(
                f"log(x) is differentiable only for x >= {1.0 / DBL_MAX:.4g} "
                f"(its derivative 1/x overflows a double), got x = {x!r}"
            )
        return value, slope
    if name == "sqrt":
        r = real_value("sqrt", x)
        if x == 0.0:
            raise DomainError(
                "sqrt(x) is differentiable only for x > 0 (its derivative "
                "1/(2 sqrt x) is infinite at 0), got x = 0.0"
            )
        return r, 0.5 / r
    raise ValueError(f"unknown elementary function {name!r}")  # a programming error here


def pow_const(u: float, c: float) -> tuple[float, float]:
    """``(u^c, c u^(c-1))`` for a constant exponent ``c``."""
    if c == 0.0:
        return 1.0, 0.0  # u^0 = 1 for every u, including 0 (C99 pow)
    if u < 0.0 and not c.is_integer():  # Python would return a complex number
        raise DomainError(f"u**c with non-integer c = {c!r} needs u >= 0, got u = {u!r}")
    if u == 0.0 and c < 0.0:
        raise DomainError(f"u**c with c = {c!r} < 0 needs u != 0, got u = 0.0")
    if u == 0.0 and c < 1.0:
        raise DomainError(
            f"u**c with 0 < c = {c!r} < 1 is not differentiable at u = 0 "
            "(its derivative c u^(c-1) is infinite), got u = 0.0"
        )
    try:
        value, slope = u**c, c * u ** (c - 1.0)
    except OverflowError:  # float ** float raises instead of returning inf
        raise overflow("u**c", u=u, c=c) from None
    if not (math.isfinite(value) and math.isfinite(slope)):
        raise overflow("u**c", u=u, c=c)
    return value, slope


def pow_value(u: float, w: float, label: str) -> float:
    """``u^w`` for a differentiable exponent: needs ``u > 0``; ``label`` names the operation."""
    base = label.split("**")[0]
    if not u > 0.0:
        raise DomainError(f"{label} needs base {base} > 0, got {base} = {u!r}")
    try:
        value = u**w
    except OverflowError:
        raise overflow(label.split(" with")[0], **{base: u, "w": w}) from None
    return value
