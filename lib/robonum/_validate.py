"""Input checks shared by the public functions.

Every check raises ``TypeError`` (wrong kind of value) or ``ValueError``
(right kind, outside the allowed range) whose message names the parameter
and the allowed range, so that a bad slider value or a typo fails at the
boundary instead of deep inside numpy.  The checks themselves never crash:
a Python int too large for a float (``10**400``) is refused with a
``ValueError``, not an ``OverflowError``; a complex number where a real one
is expected is a ``TypeError``, never silently cast.
"""

from __future__ import annotations

import inspect
import math
import numbers
import warnings

import numpy as np

_FLOAT_MAX = float(np.finfo(float).max)


def _range_text(lo, hi, lo_open=False, hi_open=False) -> str:
    left = "(" if lo_open or lo is None else "["
    right = ")" if hi_open or hi is None else "]"
    lo_s = "-inf" if lo is None else f"{lo:g}"
    hi_s = "inf" if hi is None else f"{hi:g}"
    return f"{left}{lo_s}, {hi_s}{right}"


def real(name: str, value, lo: float | None = None, hi: float | None = None) -> float:
    """Return ``value`` as a finite float in ``[lo, hi]`` (either bound may be None).

    Accepts Python and numpy reals (not bool, not complex).
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        kind = (
            "bool"
            if isinstance(value, bool)
            else "complex"
            if isinstance(value, numbers.Complex)
            else type(value).__name__
        )
        raise TypeError(f"{name} must be a real number, got {kind} {value!r}"[:200])
    try:
        x = float(value)
    except OverflowError:
        raise ValueError(
            f"{name} must be a finite real number (|{name}| <= {_FLOAT_MAX:.3g}), "
            f"got an integer with {len(str(abs(int(value))))} digits"
        ) from None
    if not math.isfinite(x):
        raise ValueError(f"{name} must be finite, got {value!r}")
    if (lo is not None and x < lo) or (hi is not None and x > hi):
        raise ValueError(f"{name} must be in {_range_text(lo, hi)}, got {value!r}")
    return x


def atol(value, n: int | None = None, *, hi: float = 1e10):
    """``atol`` as a float, or per component as a read-only ``(n,)`` array, each in ``(0, hi]``.

    Mixed units (m, rad, m/s) need one absolute tolerance per component, as SciPy's
    ``solve_ivp`` allows; ``n`` is checked when the state size is known.
    """
    if np.ndim(value) == 0:
        return positive("atol", value, hi=hi)
    return _per_component("atol", value, n, 0.0, hi, lo_open=True)


def _per_component(name: str, value, n: int | None, lo: float, hi: float, lo_open: bool):
    """A tolerance per component: a read-only ``(n,)`` array with every entry in range."""
    arr = real_array(name, value, ndim=1)
    if n is not None and arr.shape != (n,):
        raise ValueError(f"{name} must be a number or have shape ({n},) like y0, got {arr.shape}")
    if arr.size == 0 or np.any(arr <= lo if lo_open else arr < lo) or np.any(arr > hi):
        raise ValueError(f"every {name} must be in {_range_text(lo, hi, lo_open)}, got {arr!r}")
    arr = arr.copy()
    arr.setflags(write=False)
    return arr


# SciPy's floor: a double cannot meet a smaller rtol; solve_ivp raises one to it with a warning
RTOL_FLOOR = 100 * float(np.finfo(float).eps)  # (ivp_inputs.raised_rtol), other doors refuse it
RTOL_RANGE = (RTOL_FLOOR, 1.0)


def rtol(value, n: int | None = None):
    """``rtol`` as a float in [100 eps, 1], or per component as a read-only ``(n,)`` array.

    A per-component ``rtol`` weighs each component in the error test; the Newton
    tolerance of an implicit stepper follows the tightest one (:func:`rtol_min`).
    """
    lo, hi = RTOL_RANGE
    if np.ndim(value) == 0:
        return positive("rtol", value, lo=lo, hi=hi)
    return _per_component("rtol", value, n, lo, hi, lo_open=False)


def rtol_min(value) -> float:
    """The tightest relative tolerance: a number, or the smallest of a per-component ``rtol``."""
    return float(np.min(value))


def same(a, b) -> bool:
    """Equal tolerances, numbers or arrays (``==`` on arrays is elementwise)."""
    return bool(np.array_equal(a, b))


def positive(
    name: str, value, *, allow_zero: bool = False, hi: float | None = None, lo: float | None = None
) -> float:
    """Return ``value`` as a finite float > 0 (or >= 0), optionally within ``[lo, hi]``.

    ``lo`` is a physical lower bound (e.g. a smallest meaningful inductance);
    without it any positive float is accepted.
    """
    x = real(name, value)
    if x < 0 or (x == 0 and not allow_zero):
        raise ValueError(
            f"{name} must be finite and {'>= 0' if allow_zero else '> 0'}"
            + (f" and <= {hi:g}" if hi is not None else "")
            + f", got {value!r}"
        )
    if (lo is not None and x < lo) or (hi is not None and x > hi):
        raise ValueError(
            f"{name} must be in {_range_text(lo if lo is not None else 0, hi, lo_open=lo is None and not allow_zero)}, "
            f"got {value!r}"
        )
    return x


def integer(name: str, value, lo: int | None = None, hi: int | None = None) -> int:
    """Return ``value`` as an int in ``[lo, hi]`` (either bound may be None)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    n = int(value)
    if (lo is not None and n < lo) or (hi is not None and n > hi):
        shown = str(n) if len(str(n)) <= 30 else f"an integer with {len(str(abs(n)))} digits"
        raise ValueError(f"{name} must be an integer in {_range_text(lo, hi)}, got {shown}")
    return n


def boolean(name: str, value) -> bool:
    """Require a real ``bool`` (``0``/``1`` or strings are refused: a typo should not pass)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__}")
    return bool(value)


def callable_(name: str, f, nargs: int | None = None, call: str = "") -> None:
    """Require ``f`` to be callable -- with ``nargs`` positional arguments when given.

    ``call`` shows how the library calls it (``"V(q)"``); a function of the wrong arity is
    refused here by name, not by Python's ``<lambda>() takes 0 positional arguments`` later.
    A callable without an inspectable signature (a numpy ufunc, a builtin) passes.
    """
    if not callable(f):
        raise TypeError(f"{name} must be callable, got {type(f).__name__}")
    if nargs is None:
        return
    try:
        sig = inspect.signature(f)
    except (TypeError, ValueError):
        return
    try:
        sig.bind(*([None] * nargs))
    except TypeError:
        raise TypeError(
            f"{name} must take {nargs} positional argument{'s' if nargs != 1 else ''}"
            + (f", called as {call}" if call else "")
            + f"; got a function with signature {sig}"
        ) from None


def text(name: str, value) -> str:
    """Require a ``str``."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {type(value).__name__}")
    return value


def real_array(
    name: str,
    values,
    *,
    ndim: int | None = None,
    min_size: int = 1,
    max_size: int | None = None,
    finite: bool = True,
    abs_max: float | None = None,
) -> np.ndarray:
    """``values`` as a float array; complex input is a ``TypeError``, never cast.

    ``ndim`` fixes the number of dimensions (a scalar is promoted when
    ``ndim == 1``); ``max_size`` caps the number of entries; ``abs_max`` bounds the
    finite entries in magnitude (where squares or products of them must not overflow).
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # ComplexWarning / overflow must not pass silently
            raw = np.asarray(values)
            if raw.dtype == object:
                raw = np.asarray(values, dtype=float)
    except OverflowError:
        raise ValueError(
            f"{name} holds a number too large for a float (|x| <= {_FLOAT_MAX:.3g})"
        ) from None
    except (TypeError, ValueError, Warning) as exc:
        raise TypeError(
            f"{name} must be a real number or an array of real numbers "
            f"({type(exc).__name__}: {exc})"[:300]
        ) from None
    if np.iscomplexobj(raw):
        raise TypeError(f"{name} must be real, got complex values")
    if raw.dtype.kind not in "iuf":
        kind = "booleans" if raw.dtype.kind == "b" else f"dtype {raw.dtype}"
        raise TypeError(f"{name} must contain real numbers, got {kind}")
    arr = np.array(raw, dtype=float)
    if ndim == 1 and arr.ndim == 0:
        arr = arr.reshape(1)
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-D array, got shape {arr.shape}")
    if arr.size < min_size:
        raise ValueError(
            f"{name} must have at least {min_size} "
            f"{'entry' if min_size == 1 else 'entries'}, got shape {arr.shape}"
        )
    if max_size is not None and arr.size > max_size:
        raise ValueError(f"{name} has {arr.size:,} entries; at most {max_size:,} are allowed")
    if finite and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must contain only finite values (no NaN or inf)")
    big = np.abs(arr[np.isfinite(arr)]) if abs_max is not None else ()
    if len(big) and big.max() > abs_max:
        raise ValueError(f"{name} must have entries |x| <= {abs_max:g}, got {big.max():.3g}")
    return arr


def complex_points(
    name: str, z, max_points: int, *, advice: str = "", at_infinity: str = ""
) -> np.ndarray:
    """A number or an array of numbers as a complex array of at most ``max_points`` finite points.

    ``advice`` says what to do instead when there are too many points;
    ``at_infinity`` where to look for ``z -> inf`` when a point is not finite.
    """
    try:
        zz = np.asarray(z)
        if zz.dtype == object or zz.dtype.kind not in "biufc":
            raise TypeError
        zz = zz.astype(complex)
    except (TypeError, ValueError, OverflowError):
        raise TypeError(
            f"{name} must be a number or an array of numbers, got {type(z).__name__}"
        ) from None
    if zz.size > max_points:
        raise ValueError(
            f"{name} has {zz.size:,} points; at most {max_points:,} per call"
            + (f" {advice}" if advice else "")
        )
    if not np.all(np.isfinite(zz)):
        raise ValueError(
            f"{name} must contain only finite values" + (f" {at_infinity}" if at_infinity else "")
        )
    return zz


def state_vector(name: str, y, *, max_size: int | None = 100_000, min_size: int = 1) -> np.ndarray:
    """A finite 1-D state, real (float) or complex (complex128) -- a complex ``y0`` is kept.

    ``min_size=0`` admits a state with no components (SciPy's ``solve_ivp`` takes one).
    """
    raw = np.asarray(y) if not isinstance(y, (str, bytes)) else y
    if isinstance(raw, np.ndarray) and raw.dtype.kind == "c":
        arr = raw.astype(complex).reshape(-1) if raw.ndim == 0 else raw.astype(complex)
        # shape and size: the real parts raise the real path's messages
        real_array(name, arr.real, ndim=1, min_size=min_size, max_size=max_size, finite=False)
        if not np.isfinite(arr).all():
            raise ValueError(f"{name} must be finite, got non-finite entries")
        return arr
    if isinstance(raw, np.ndarray) and raw.dtype.kind in "iuf" and not np.isfinite(raw).all():
        raise ValueError(f"All components of the initial state `{name}` must be finite.")
    return real_array(name, y, ndim=1, min_size=min_size, max_size=max_size)


def finite_vector(name: str, y, *, max_size: int | None = 100_000) -> np.ndarray:
    """Return ``y`` as a non-empty 1-D finite float array (a scalar becomes shape (1,))."""
    return real_array(name, y, ndim=1, min_size=1, max_size=max_size)


def interval(
    name: str, span, *, max_length: float | None = None, open_end: bool = False
) -> tuple[float, float]:
    """Return ``span`` as ``(t0, t1)`` with finite ``t0 < t1`` (and ``t1 - t0 <= max_length``);
    ``open_end=True`` also takes ``t1 = inf``."""
    if isinstance(span, (str, bytes)):
        raise TypeError(f"{name} must be a pair (t0, t1), got a string")
    try:
        t0, t1 = span
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a pair (t0, t1), got {type(span).__name__}") from None
    t0 = real(f"{name}[0]", t0)
    if open_end and isinstance(t1, (int, float, np.floating)) and t1 == math.inf:
        return t0, math.inf
    t1 = real(f"{name}[1]", t1)
    if not t1 > t0:
        raise ValueError(f"{name} must satisfy t0 < t1, got ({t0:g}, {t1:g})")
    if not math.isfinite(t1 - t0):
        raise ValueError(f"{name} is too long: t1 - t0 overflows, got ({t0:g}, {t1:g})")
    if max_length is not None and t1 - t0 > max_length:
        raise ValueError(f"{name} must be at most {max_length:g} long, got {t1 - t0:g}")
    return t0, t1


def one_of(name: str, value, options) -> None:
    """Require ``value`` to be one of ``options`` (the message lists them)."""
    try:
        ok = value in options
    except TypeError:  # unhashable value tested against a dict/set
        ok = False
    if not ok:
        shown = repr(value) if len(repr(value)) < 60 else f"a {type(value).__name__}"
        raise ValueError(f"{name} must be one of {sorted(map(str, options))}, got {shown}")


def count(name: str, n: int, cap: int, advice: str) -> int:
    """Refuse a computed count (steps, frames, grid points) above ``cap``, saying what to do."""
    if n > cap:
        raise ValueError(f"{name} = {n:,} exceeds the limit of {cap:,}; {advice}")
    return n
