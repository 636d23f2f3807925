"""Floating point, the ground every computation of the book stands on.

Two numbers describe binary64 (``float``) and binary32 rounding to nearest:

* **machine epsilon** ``ε = 2^-52 ≈ 2.2e-16`` (``2^-23`` for float32): the
  spacing of the floating-point numbers at 1, ``np.finfo(float).eps``;
* **unit roundoff** ``u = ε/2 = 2^-53 ≈ 1.1e-16``: the largest relative error
  of one rounding, ``fl(x) = x (1 + δ)`` with ``|δ| <= u``.

Around any ``x`` the spacing is ``np.spacing(x)`` ≈ ``ε |x|``, so a sum
``t + h`` with ``|h|`` below half the spacing at ``t`` returns ``t``.  This
module has the book's small experiments on top of that:
:func:`representation_error` (the exact error of storing a decimal),
:func:`one_minus_cos_ratio` (catastrophic cancellation and its cure),
:func:`compensated_sum` and :func:`clock` (a simulation clock ``t += h`` and
compensated summation).  References: Higham, *Accuracy and Stability of
Numerical Algorithms* (2nd ed., 2002), secs. 2.1-2.2 (ε, u), 1.7 (cancellation),
4.3 (compensated summation); Goldberg, ACM Computing Surveys 23(1), 1991.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from . import _validate as check

__all__ = [
    "EPS",
    "UNIT_ROUNDOFF",
    "DTYPES",
    "machine_epsilon",
    "unit_roundoff",
    "round_to",
    "representation_error",
    "one_minus_cos_ratio",
    "compensated_sum",
    "SUM_METHODS",
    "CLOCK_METHODS",
    "ClockRun",
    "clock",
]

EPS = 2.0**-52  # np.finfo(float).eps
UNIT_ROUNDOFF = 2.0**-53  # EPS / 2
DTYPES = {"float64": np.float64, "float32": np.float32}
SUM_METHODS = ("naive", "kahan", "neumaier")
CLOCK_METHODS = ("naive", "kahan", "neumaier", "counter")
N_MAX = 5_000_000  # clock steps; a compensated clock is a Python loop, ~0.2 s per 10^6 steps
SIZE_MAX = 1_000_000  # entries of an array argument
_TEXT_MAX = 100
_DECIMAL = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE]([+-]?\d+))?")


def _dtype(dtype) -> type:
    check.one_of("dtype", dtype, DTYPES)
    return DTYPES[dtype]


def machine_epsilon(dtype: str = "float64") -> float:
    """``ε``: the spacing at 1 (``2^-52`` for float64, ``2^-23`` for float32)."""
    return float(np.finfo(_dtype(dtype)).eps)


def unit_roundoff(dtype: str = "float64") -> float:
    """``u = ε/2``: the largest relative error of rounding a real number to ``dtype`` (to nearest)."""
    return machine_epsilon(dtype) / 2.0


def round_to(value: Fraction, dtype: str = "float64") -> float:
    """The exact rational ``value`` rounded to nearest (ties to even) in ``dtype``, as a float.

    ``float(Fraction)`` is correctly rounded to float64; for float32 the two
    float32 neighbours of that double are compared with ``value`` exactly, so
    there is no double rounding.  ``|value|`` must not exceed the dtype's largest number.
    """
    if not isinstance(value, Fraction):
        raise TypeError(f"value must be a fractions.Fraction, got {type(value).__name__}")
    typ = _dtype(dtype)
    big = Fraction(float(np.finfo(typ).max))
    if abs(value) > big:
        raise ValueError(f"value must be at most {float(big):.3g} in magnitude for {dtype}")
    guess = typ(float(value))
    below = np.nextafter(guess, typ(-np.inf))
    above = np.nextafter(guess, typ(np.inf))
    best = None
    for cand in (below, guess, above):
        if not np.isfinite(cand):
            continue
        key = abs(Fraction(float(cand)) - value)
        if best is None or key < best[0] or (key == best[0] and _even(cand)):
            best = (key, cand)
    return float(best[1])


def _even(x) -> bool:
    """Is the last bit of ``x``'s significand 0 (the tie-breaking rule of rounding to nearest)?"""
    bits = np.asarray(x).view(np.uint32 if np.asarray(x).dtype == np.float32 else np.uint64)
    return int(bits) % 2 == 0


def representation_error(text: str, dtype: str = "float64") -> float:
    """Relative error ``|fl(x) - x| / |x|`` of storing the decimal ``text`` in ``dtype``, exactly.

    ``text`` is a decimal such as ``"0.1"`` or ``"1e-3"`` (at most 100
    characters, nonzero, within the dtype's normal range).  The exact error
    is computed with fractions and then rounded once, so the result is the
    true error to double precision; it never exceeds ``unit_roundoff(dtype)``.
    """
    check.text("text", text)
    match = _DECIMAL.fullmatch(text.strip()) if len(text) <= _TEXT_MAX else None
    if match is None or abs(int(match.group(1) or 0)) > 400:
        raise ValueError(
            f"text must be a decimal number such as '0.1' or '1e-3' (at most "
            f"{_TEXT_MAX} characters, exponent within ±400), got {text[:40]!r}"
        )
    x = Fraction(text.strip())
    typ = _dtype(dtype)
    tiny, big = Fraction(float(np.finfo(typ).tiny)), Fraction(float(np.finfo(typ).max))
    if not tiny <= abs(x) <= big:
        raise ValueError(
            f"text must be a nonzero number in the normal range of {dtype} "
            f"({float(tiny):.3g} <= |x| <= {float(big):.3g}), got {text!r}"
        )
    stored = Fraction(round_to(x, dtype))
    return float(abs(stored - x) / abs(x))


def _real_values(name: str, x, max_size: int = SIZE_MAX) -> np.ndarray:
    return check.real_array(name, x, max_size=max_size)


def one_minus_cos_ratio(x, form: str = "naive"):
    """``(1 - cos x) / x²`` computed two ways; the limit at ``x -> 0`` is ``1/2``.

    ``form="naive"`` subtracts: ``cos x`` carries a rounding error up to
    ``u`` and ``1 - cos x ≈ x²/2`` is small, so the relative error is about
    ``2u / x²`` (all digits are lost once ``cos x`` rounds to 1, near
    ``|x| = √u ≈ 1.05e-8``).  ``form="stable"`` uses the identity
    ``1 - cos x = 2 sin²(x/2)``: ``((sin(x/2)) / (x/2))² / 2`` has no
    subtraction and stays accurate to a few ``u``.  ``x``: reals with
    ``1e-150 <= |x| <= 1e6`` (a float or an array of at most 10^6 entries).
    Reference: Higham (2002), sec. 1.7.
    """
    check.one_of("form", form, ("naive", "stable"))
    arr = _real_values("x", x)
    if np.any(arr == 0.0):
        raise ValueError("x must be nonzero (the ratio is 0/0 there; its limit is 1/2)")
    if np.any(np.abs(arr) > 1e6) or np.any(np.abs(arr) < 1e-150):
        raise ValueError("x must satisfy 1e-150 <= |x| <= 1e6 (below, x² underflows to 0)")
    if form == "naive":
        out = (1.0 - np.cos(arr)) / arr**2
    else:
        half = arr / 2.0
        out = 0.5 * (np.sin(half) / half) ** 2
    return float(out) if np.ndim(x) == 0 else out


def _add(s, c, x, method: str):
    """One step of a running sum ``s`` with compensation ``c``, in the arithmetic of its operands.

    Kahan feeds the lost low part back into the next addend (``c`` is subtracted);
    Neumaier collects it separately (the result is ``s + c``), which also works when
    ``|x| > |s|``.  Higham, *Accuracy and Stability*, sec. 4.3.
    """
    if method == "naive":
        return s + x, c
    if method == "kahan":
        y = x - c
        t = s + y
        return t, (t - s) - y
    t = s + x
    return t, c + ((s - t) + x if abs(s) >= abs(x) else (x - t) + s)


def compensated_sum(values, method: str = "kahan") -> float:
    """Sum of ``values`` in order: plain, Kahan's or Neumaier's compensated summation.

    Kahan keeps the rounding error of each addition in ``c`` and subtracts it
    from the next term (``y = x - c; t = s + y; c = (t - s) - y; s = t``);
    Neumaier also handles a term larger than the running sum and adds ``c`` at
    the end.  Their error is ``O(u) Σ|x_i|`` instead of ``O(n u) Σ|x_i|``
    (Higham 2002, sec. 4.3).  ``values``: at most 10^6 finite reals.
    """
    check.one_of("method", method, SUM_METHODS)
    arr = check.real_array("values", values, ndim=1, max_size=SIZE_MAX)
    s = c = 0.0
    for x in arr.tolist():
        s, c = _add(s, c, x, method)
    total = s + c if method == "neumaier" else s
    if not math.isfinite(total):
        raise ValueError("values overflow a double when summed")
    return total


class ClockRun(NamedTuple):
    """A simulation clock after ``k`` steps: its value ``t`` and its drift from ``k·h``.

    ``h`` is the step as stored in the clock's dtype (``fl(h)``); ``drift`` is
    ``t - k·fl(h)`` computed exactly and rounded once, so it shows the error of
    the summation alone (the error of storing ``h`` itself is
    :func:`representation_error`'s business).
    """

    k: np.ndarray
    t: np.ndarray
    drift: np.ndarray
    h: float
    method: str
    dtype: str


def _loop_clock(hh, n: int, method: str, typ, marks: set) -> dict:
    """The compensated clocks, step by step (a Python loop, in ``typ`` arithmetic)."""
    s = typ(0.0)
    c = typ(0.0)
    out = {}
    for k in range(1, n + 1):
        s, c = _add(s, c, hh, method)
        if k in marks:
            out[k] = s if method == "kahan" else s + c
    return out


def clock(h, n, method: str = "naive", dtype: str = "float64", samples: int = 1000) -> ClockRun:
    """Advance a clock ``n`` times by ``h`` and report it at ``samples`` evenly spaced step counts.

    Methods: ``"naive"`` ``t += h`` (what a simulation loop does; one rounding
    per step, the errors add up); ``"kahan"`` and ``"neumaier"`` the same sum
    with compensation (:func:`compensated_sum`); ``"counter"`` an integer step
    counter and ``t = k·h`` (one rounding in all).  ``dtype`` is ``"float64"``
    or ``"float32"`` (a microcontroller's ``float``).  Allowed: ``h`` in
    [1e-30, 1e3], ``n`` in [1, 5·10^6], ``samples`` in [1, 10^4].  The
    compensated clocks run as Python loops (about 0.2 s per 10^6 steps in
    float64, 0.3 s in float32).  Reference: Higham (2002), sec. 4.3.
    """
    check.one_of("method", method, CLOCK_METHODS)
    typ = _dtype(dtype)
    h = check.positive("h", h, lo=1e-30, hi=1e3)
    n = check.integer("n", n, 1, N_MAX)
    samples = check.integer("samples", samples, 1, 10_000)
    hh = typ(h)
    ks = np.unique(np.round(np.linspace(0, n, min(samples, n) + 1)[1:]).astype(np.int64))
    if method == "naive":
        t = np.cumsum(np.full(n, hh, dtype=typ), dtype=typ)[ks - 1]  # sequential, like t += h
    elif method == "counter":
        t = ks.astype(typ) * hh
    else:
        got = _loop_clock(hh, n, method, typ if dtype == "float32" else float, set(ks.tolist()))
        t = np.array([got[k] for k in ks.tolist()], dtype=typ)
    step = Fraction(float(hh))
    drift = np.array(
        [float(Fraction(float(tk)) - k * step) for k, tk in zip(ks.tolist(), t.tolist())]
    )
    return ClockRun(k=ks, t=t.astype(float), drift=drift, h=float(hh), method=method, dtype=dtype)
