"""Checks shared by the forward and reverse drivers (inputs in, outputs out)."""
from __future__ import annotations

import math
import numbers

import numpy as np

from .. import _validate as check


def check_inputs(f, x) -> np.ndarray:
    """Require a callable ``f`` and a finite 1-D ``x``; return ``x`` as floats."""
    check.callable_("f", f)
    return check.finite_vector("x", x)


def as_outputs(out, cls) -> np.ndarray:
    """Flatten ``f``'s output to a 1-D object array of ``cls`` or real constants.

    A real constant is allowed (an output that does not depend on ``x`` has
    derivative 0).  Anything else, or a non-finite value, is an error that
    names ``f`` rather than a failure deep inside the sweep.
    """
    try:
        y = np.asarray(out, dtype=object).ravel()
    except (TypeError, ValueError) as exc:
        raise TypeError(f"f must return a number or a 1-D sequence, got {type(out).__name__}") from exc
    if y.size == 0:
        raise ValueError("f must return at least one output, got an empty sequence")
    for yi in y:
        if isinstance(yi, cls):
            value = yi.v
        elif isinstance(yi, numbers.Real) and not isinstance(yi, bool):
            value = float(yi)
        else:
            raise TypeError(f"f must return {cls.__name__} values or real constants, "
                            f"got {type(yi).__name__} (is f using math.* instead of "
                            "robonum.autodiff functions?)")
        if not math.isfinite(value):
            raise ValueError(f"f(x) must be finite, got an output value {value!r}")
    return y


def check_real_power(u: float, c: float) -> None:
    """Python turns (-8.0)**(1/3) into a complex number; refuse instead."""
    if u < 0.0 and c != int(c):
        raise ValueError(f"u**c with non-integer c = {c!r} needs u >= 0, got u = {u!r}")
