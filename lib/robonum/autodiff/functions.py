"""Elementary functions that work on every number type the book differentiates.

``sin(x)`` is ``math.sin`` for a float, ``cmath.sin`` for a complex number
(needed by the complex step), the method ``x.sin()`` for a :class:`Dual` or
:class:`Var`, and ``np.sin`` for a numpy array (numpy calls ``x.sin()`` on
each element of an object array, so arrays of duals work too).  A model
written with these functions is written once and can be evaluated,
differentiated in forward or reverse mode, or complex-stepped.

``math.sin`` raises on a Dual and on a complex number, hence the dispatch.
"""
from __future__ import annotations

import cmath
import math
import numbers

import numpy as np

from .forward import Dual
from .reverse import Var

__all__ = ["sin", "cos", "exp", "log", "sqrt", "tanh"]


def _dispatch(name: str, x):
    if isinstance(x, (Dual, Var)):
        return getattr(x, name)()
    if isinstance(x, (np.ndarray, np.generic)):
        return getattr(np, name)(x)
    if isinstance(x, numbers.Real):
        return getattr(math, name)(x)
    if isinstance(x, numbers.Complex):
        return getattr(cmath, name)(x)
    raise TypeError(f"{name}(x): x must be a float, complex, Dual, Var or numpy array, "
                    f"got {type(x).__name__}")


def sin(x):
    """``sin x``; for duals ``sin(v + dε) = sin v + d cos v ε``."""
    return _dispatch("sin", x)


def cos(x):
    """``cos x``; for duals ``cos(v + dε) = cos v - d sin v ε``."""
    return _dispatch("cos", x)


def exp(x):
    """``e^x``; for duals ``exp(v + dε) = e^v (1 + d ε)``."""
    return _dispatch("exp", x)


def log(x):
    """Natural logarithm (real inputs need ``x > 0``); ``(log x)' = 1/x``."""
    return _dispatch("log", x)


def sqrt(x):
    """``√x`` (real inputs need ``x >= 0``); ``(√x)' = 1/(2√x)``."""
    return _dispatch("sqrt", x)


def tanh(x):
    """``tanh x``; ``(tanh x)' = 1 - tanh² x``."""
    return _dispatch("tanh", x)
