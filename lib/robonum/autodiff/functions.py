"""Elementary functions that work on every number type the book differentiates.

``sin(x)`` is the checked real kernel for a float (``math.sin``), ``cmath.sin``
for a complex number (needed by the complex step), the method ``x.sin()``
for a :class:`Dual` or :class:`Var`, and ``np.sin`` for a numpy array (an
object array is mapped element by element, so arrays mixing duals and
floats work too).  A model written with these functions is written once and
can be evaluated, differentiated in forward or reverse mode, or complex-stepped.

Every type follows the package policy (see :mod:`robonum.autodiff`): a
non-finite argument, an argument outside the domain (``log(-1)``,
``sqrt(-1)``) or a result that overflows (``exp(1000)``) raises
:class:`~robonum.autodiff.DomainError` naming the function, the value and the
domain, instead of numpy's NaN-plus-warning or math's bare "math domain
error".  ``bool`` and strings are a ``TypeError``.

``math.sin`` raises on a Dual and on a complex number, hence the dispatch.
"""

from __future__ import annotations

import cmath
import math
import numbers

import numpy as np

from .domain import DomainError, domain_error, real_value, show
from .forward import Dual
from .reverse import Var

__all__ = ["sin", "cos", "exp", "log", "sqrt", "tanh"]


def _real(name: str, x) -> float:
    try:
        v = float(x)
    except OverflowError:
        raise DomainError(f"{name}(x) needs a finite x, got {show(x)}") from None
    if not math.isfinite(v):
        raise DomainError(f"{name}(x) needs a finite x, got x = {show(x)}")
    return real_value(name, v)


def _complex(name: str, x) -> complex:
    z = complex(x)
    if not (math.isfinite(z.real) and math.isfinite(z.imag)):
        raise DomainError(f"{name}(x) needs a finite x, got x = {show(x)}")
    try:
        w = getattr(cmath, name)(z)
    except (ValueError, OverflowError):  # cmath's "math domain error" / "math range error"
        raise domain_error(name, z, complex_arg=True) from None
    if not (math.isfinite(w.real) and math.isfinite(w.imag)):
        raise domain_error(name, z, complex_arg=True)
    return w


def _array(name: str, x: np.ndarray) -> np.ndarray:
    kind = x.dtype.kind
    if kind == "O":  # duals, vars, floats: each element by its own rule
        out = np.empty(x.shape, dtype=object)
        for idx, e in np.ndenumerate(x):
            out[idx] = _dispatch(name, e)
        return out
    if kind not in "iufc":
        raise TypeError(f"{name}(x): x must hold numbers, got an array of dtype {x.dtype}")
    bad = ~np.isfinite(x)
    if bad.any():
        raise DomainError(
            f"{name}(x) needs finite x, got x = {show(x[bad].flat[0])} at index "
            f"{tuple(int(i) for i in np.argwhere(bad)[0])}"
        )
    with np.errstate(all="ignore"):  # NaN/inf are found below, with the offending value
        y = getattr(np, name)(x)
    bad = ~np.isfinite(y)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        err = domain_error(name, x[idx], complex_arg=(kind == "c"))
        raise DomainError(
            f"{err} at index {idx}"
            + ("" if x.dtype.itemsize >= 8 or kind == "c" else f" (dtype {x.dtype})")
        )
    return y


_FLOATS = (float, np.float64)  # exact types: the fast path of the hot loops
_COMPLEXES = (complex, np.complex128)


def _dispatch(name: str, x):
    t = type(x)
    if t in _FLOATS:
        return _real(name, x)
    if t in _COMPLEXES:
        return _complex(name, x)
    if isinstance(x, (Dual, Var)):
        return getattr(x, name)()
    if isinstance(x, np.ndarray):
        return _array(name, x)
    if isinstance(x, (bool, np.bool_)):
        raise TypeError(f"{name}(x): x must be a number, got bool {x!r}")
    if isinstance(x, numbers.Real):
        return _real(name, x)
    if isinstance(x, numbers.Complex):
        return _complex(name, x)
    raise TypeError(
        f"{name}(x): x must be a float, complex, Dual, Var or numpy array, got {type(x).__name__}"
    )


def sin(x):
    """``sin x``; for duals ``sin(v + dε) = sin v + d cos v ε``."""
    return _dispatch("sin", x)


def cos(x):
    """``cos x``; for duals ``cos(v + dε) = cos v - d sin v ε``."""
    return _dispatch("cos", x)


def exp(x):
    """``e^x`` (real ``x <= 709.78``, above it overflows); for duals ``exp(v + dε) = e^v (1 + d ε)``."""
    return _dispatch("exp", x)


def log(x):
    """Natural logarithm (real ``x > 0``, complex ``x != 0``); ``(log x)' = 1/x``."""
    return _dispatch("log", x)


def sqrt(x):
    """``√x`` (real ``x >= 0``; a Dual or Var needs ``x > 0``); ``(√x)' = 1/(2√x)``."""
    return _dispatch("sqrt", x)


def tanh(x):
    """``tanh x``; ``(tanh x)' = 1 - tanh² x``."""
    return _dispatch("tanh", x)
