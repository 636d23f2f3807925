"""Checks shared by the drivers: inputs in, the user's ``f`` called, outputs out.

Also used by :mod:`robonum.finite_diff` and :mod:`robonum.arm` (``real_vector``,
``show_x``), so that the three modules refuse the same inputs with the same words.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .. import _validate as check
from ..errors import EvaluationError, RobonumError
from .domain import show


def real_vector(name: str, x, *, min_size: int = 1, max_size: int = 100_000) -> np.ndarray:
    """``check.real_array(ndim=1)`` that also refuses a list mixing bools and numbers.

    ``_validate.real_array`` refuses a bool array, but numpy turns ``[True, 0.1]``
    into floats before it can see the ``True``; ``True`` is not a coordinate.
    """
    arr = check.real_array(name, x, ndim=1, min_size=min_size, max_size=max_size)
    if isinstance(x, (list, tuple)) and any(isinstance(v, (bool, np.bool_)) for v in x):
        raise TypeError(f"{name} must hold real numbers, got booleans")
    return arr


def show_x(x) -> str:
    """``x`` for an error message, shortened (an n = 10^5 input must not flood the screen)."""
    return np.array2string(np.asarray(x), precision=6, threshold=6, max_line_width=120)[:160]


def check_inputs(f, x) -> np.ndarray:
    """Require a callable ``f`` and a finite, non-empty 1-D real ``x``; return ``x`` as floats."""
    check.callable_("f", f)
    return real_vector("x", x)


def call_f(f, arg, x):
    """``f(arg)``; an exception inside ``f`` becomes an :class:`EvaluationError` naming ``f``.

    A :class:`RobonumError` (e.g. a ``DomainError`` from ``log`` of a negative
    number inside ``f``) already names its operation and passes unchanged.  The
    original exception stays attached as ``__cause__`` for its traceback.
    """
    try:
        return f(arg)
    except RobonumError:
        raise
    except Exception as exc:
        raise EvaluationError(
            f"f raised {type(exc).__name__} at x = {show_x(x)}: {exc}"[:600], reason="f_raised"
        ) from exc


def as_outputs(out, cls, m: int | None = None, tape=None) -> np.ndarray:
    """Flatten ``f``'s output to a 1-D object array of ``cls`` or real constants.

    A real constant is allowed (an output that does not depend on ``x`` has
    derivative 0).  ``m`` is the output count of an earlier call, which must
    not change; ``tape`` is the tape the outputs must be recorded on.
    """
    if isinstance(out, (str, bytes)):
        raise TypeError(f"f must return numbers, got a {type(out).__name__}")
    try:
        y = np.asarray(out, dtype=object)
    except (TypeError, ValueError) as exc:  # a ragged nested list
        raise TypeError(f"f must return a number or a 1-D sequence ({exc})"[:300]) from None
    if y.ndim > 1:
        raise ValueError(f"f must return a scalar or a 1-D sequence, got shape {y.shape}")
    y = y.ravel()
    if y.size == 0:
        raise ValueError("f must return at least one output, got an empty sequence")
    if m is not None and y.size != m:
        raise ValueError(
            f"f must return the same number of outputs on every call ({m}), got {y.size}"
        )
    for yi in y:
        if isinstance(yi, cls):
            if tape is not None and yi.tape is not tape:
                raise ValueError(
                    "f returned a Var recorded on another tape (a Var kept from an earlier call?)"
                )
            continue  # Dual and Var values are finite by construction
        if isinstance(yi, bool) or not isinstance(yi, numbers.Real):
            raise TypeError(
                f"f must return {cls.__name__} values or real constants, "
                f"got {type(yi).__name__} (is f using math.* instead of "
                "robonum.autodiff functions?)"
            )
        try:
            value = float(yi)
        except OverflowError:
            raise ValueError(
                f"f(x) must be finite, got an output too large for a double ({show(yi)})"
            ) from None
        if not math.isfinite(value):
            raise ValueError(f"f(x) must be finite, got an output value {value!r}")
    return y
