"""Input checks shared by the public functions.

Every check raises ``ValueError`` or ``TypeError`` whose message names the
parameter and the allowed range, so that a bad slider value or a typo fails
at the boundary instead of deep inside numpy.
"""
from __future__ import annotations

import math
import numbers

import numpy as np


class RobonumError(Exception):
    """Base class for errors raised by robonum itself (not by bad input)."""


def positive(name: str, value, *, allow_zero: bool = False) -> float:
    """Return ``value`` as a float, requiring it to be finite and > 0 (or >= 0)."""
    real(name, value)
    x = float(value)
    if x < 0 or (x == 0 and not allow_zero):
        bound = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{name} must be finite and {bound}, got {value!r}")
    return x


def real(name: str, value) -> float:
    """Return ``value`` as a finite float."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    x = float(value)
    if not math.isfinite(x):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return x


def integer(name: str, value, lo: int | None = None, hi: int | None = None) -> int:
    """Return ``value`` as an int in ``[lo, hi]`` (either bound may be None)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    n = int(value)
    if (lo is not None and n < lo) or (hi is not None and n > hi):
        lo_s = "-inf" if lo is None else str(lo)
        hi_s = "inf" if hi is None else str(hi)
        raise ValueError(f"{name} must be an integer in [{lo_s}, {hi_s}], got {n}")
    return n


def callable_(name: str, f) -> None:
    """Require ``f`` to be callable."""
    if not callable(f):
        raise TypeError(f"{name} must be callable, got {type(f).__name__}")


def finite_vector(name: str, y, *, dtype=float) -> np.ndarray:
    """Return ``y`` as a 1-D finite array (a scalar becomes shape (1,))."""
    try:
        arr = np.array(y, dtype=dtype, copy=True)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a number or a 1-D array of numbers") from exc
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must contain only finite values, got {arr}")
    return arr


def interval(name: str, span) -> tuple[float, float]:
    """Return ``span`` as ``(t0, t1)`` with finite ``t0 < t1``."""
    try:
        t0, t1 = span
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a pair (t0, t1)") from exc
    t0, t1 = real(f"{name}[0]", t0), real(f"{name}[1]", t1)
    if not t1 > t0:
        raise ValueError(f"{name} must satisfy t0 < t1, got ({t0}, {t1})")
    return t0, t1


def one_of(name: str, value, options) -> None:
    """Require ``value`` to be one of ``options``."""
    if value not in options:
        raise ValueError(f"{name} must be one of {sorted(map(str, options))}, got {value!r}")
