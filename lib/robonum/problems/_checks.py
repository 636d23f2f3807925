"""Input checks shared by the problem factories (private).

They build on :mod:`robonum._validate` and add what the catalogue needs on
top: a bool is never a number or a state (``True`` as ``y0`` would silently
become ``1.0``), states have a fixed size and physical bounds, a time span
has a maximum length (so that exact solutions and references stay finite),
and ``exact(t)`` accepts only the times where it is finite and trusted.
Every error names the parameter and the allowed range.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .. import _validate as check

MAX_TIMES = 10**7  # entries of t handed to exact(): 80 MB of float64 per state component
# Robot models (flexible joint, contact, motor, chains): 1e4 s -- almost 3 hours of a
# joint or motor whose fast mode is ~1 kHz, i.e. 1e7 fast periods -- is far beyond
# any experiment.
ROBOT_SPAN = 1e4
ROBOT_SPAN_WHY = "no robot experiment here runs longer than 1e4 s"


def physical(name: str, value, lo: float, hi: float) -> float:
    """A physical parameter in ``[lo, hi]`` (``lo = 0`` allows zero)."""
    if lo > 0:
        return check.positive(name, value, lo=lo, hi=hi)
    if lo == 0:
        return check.positive(name, value, allow_zero=True, hi=hi)
    return check.real(name, value, lo, hi)


def refuse_bool(name: str, value) -> None:
    """``True``/``False`` (or a bool array) is a typo for a number, not ``1.0``/``0.0``."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a real number or array, got a bool")
    if isinstance(value, np.ndarray) and value.dtype.kind == "b":
        raise TypeError(f"{name} must hold real numbers, got a bool array")
    if isinstance(value, (list, tuple)) and any(isinstance(v, (bool, np.bool_)) for v in value):
        raise TypeError(f"{name} must hold real numbers, got a bool entry")


def vector(name: str, value, n: int, bounds, labels=None) -> np.ndarray:
    """``value`` as a finite float vector of exactly ``n`` entries with ``|value[i]| <= bounds[i]``.

    ``bounds`` is one number or one per entry; ``labels`` names the entries
    in the message (e.g. ``("i [A]", "ω [rad/s]")``).
    """
    refuse_bool(name, value)
    y = check.finite_vector(name, value, max_size=max(n, 1) * 10)
    if y.size != n:
        raise ValueError(f"{name} must have {n} components, got {y.size}")
    hi = np.broadcast_to(np.asarray(bounds, dtype=float), (n,))
    bad = np.flatnonzero(np.abs(y) > hi)
    if bad.size:
        i = int(bad[0])
        what = f"{name}[{i}]" + (f" ({labels[i]})" if labels else "")
        raise ValueError(f"{what} must be in [{-hi[i]:g}, {hi[i]:g}], got {y[i]!r}")
    return y


def span(t_span, max_length: float, why: str) -> tuple[float, float]:
    """``t_span`` as ``(t0, t1)``, ``t0 < t1``, ``t1 - t0 <= max_length`` (``why`` says why)."""
    t0, t1 = check.interval("t_span", t_span)
    if t1 - t0 > max_length:
        raise ValueError(
            f"t_span must be at most {max_length:.6g} long ({why}), "
            f"got ({t0:g}, {t1:g}), length {t1 - t0:g}"
        )
    return t0, t1


def times(t, t0: float, max_length: float) -> np.ndarray:
    """The argument of ``exact(t)``: a real scalar or 1-D array in ``[t0, t0 + max_length]``.

    Outside that window the closed forms here can overflow (growth like
    ``e^{λ(t - t0)}``, decay run backwards) or lose their accuracy
    guarantee, so they refuse instead of returning inf or a wrong number.
    """
    refuse_bool("t", t)
    if isinstance(t, numbers.Number) and not isinstance(t, numbers.Real):
        raise TypeError(f"t must be real, got {type(t).__name__}")
    arr = check.real_array("t", t, max_size=MAX_TIMES)
    if arr.ndim > 1:
        raise ValueError(f"t must be a scalar or a 1-D array of times, got shape {arr.shape}")
    t_end = t0 + max_length
    if arr.size and (arr.min() < t0 or arr.max() > t_end):
        raise ValueError(
            f"t must be in [t0, t0 + {max_length:.6g}] = [{t0:g}, {t_end:g}] "
            f"(exact() is finite and accurate there), got values in "
            f"[{arr.min():g}, {arr.max():g}]"
        )
    return arr


def complex_(name: str, value, hi: float) -> complex:
    """``value`` as a complex number with ``|Re|, |Im| <= hi`` (reals are accepted)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Complex):
        raise TypeError(f"{name} must be a real or complex number, got {type(value).__name__}")
    try:
        z = complex(value)
    except OverflowError:  # a Python int beyond the float range, e.g. 10**400
        raise ValueError(
            f"{name} must have |Re|, |Im| <= {hi:g}, got an integer with "
            f"{len(str(abs(int(value))))} digits"
        ) from None
    if not (math.isfinite(z.real) and math.isfinite(z.imag)):
        raise ValueError(f"{name} must be finite, got {value!r}")
    if abs(z.real) > hi or abs(z.imag) > hi:
        raise ValueError(f"{name} must have |Re|, |Im| <= {hi:g}, got {value!r}")
    return z
