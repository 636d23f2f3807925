"""The issue's classification of one call with one hostile argument: good, weak or bad.

* **good** -- a ``TypeError``/``ValueError``/``RobonumError`` whose message names the
  parameter (or a callable argument whose output no longer fits it: ``jac`` for a new
  ``y0``); autodiff's ``DomainError`` (it names the operation); the reader's own exception (``UserBug``) surfacing; or a result with no NaN
  (and no inf the input did not hold), or one whose ``status``/``success`` says it failed.
* **weak** -- such an error that does not name the parameter, or numpy warnings escaping.
* **bad** -- any other exception (``IndexError``, ``AttributeError``, ``ZeroDivisionError``,
  ``OverflowError``, ``KeyError``, ``LinAlgError``, numba's errors ...), no answer within
  ``TIME_CAP`` seconds, NaN or a new inf returned without a word, or a run reporting success
  on an answer that a wrong Jacobian changed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import re
import signal
import warnings

import numpy as np

from robonum.errors import RobonumError

from .hostile import HostileCallable, UserBug

TIME_CAP = 10.0  # s; the slowest hostile call takes < 0.5 s alone: 20x slack for a busy machine
FIRST_CALL_CAP = 120.0  # s; a valid call may compile numba loops first (seconds on a busy machine)
ALIASES = {  # a message may name the role instead of the parameter
    "fun": ("f",),
    "f": ("fun",),
    "grad_V": ("V",),
    "q0": ("q",),
    "p0": ("p",),
    "t0": ("t_span",),
    "t_bound": ("t_span",),
}


NAN_IS_DATA = {  # functions whose result holds the values they were given, NaN included
    "Table": "a table shows the numbers it is given (a NaN cell of a diverged run is printed)",
}


INF_IS_ANSWER = {  # functions documented to answer inf for a finite input
    **{
        name: "the predicted growth (1 + d)^n passes the float range: inf, as documented"
        for name in ("rk_orthogonality_prediction", "euler_orthogonality_prediction")
    },
    "norm_prediction": "the predicted growth passes the float range: inf, as documented",
    "max_root_modulus": "a root escaping to infinity (|z| -> inf) is inf, as documented",
    **{
        name: "an error measure of a state beyond 1e154 saturates at inf, like a diverged one"
        for name in ("orthogonality_error", "orthogonality_errors", "norm_errors")
    },
}


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang


def names(message: str, pname: str) -> bool:
    for n in (pname, *ALIASES.get(pname, ())):
        if re.search(rf"(?<![A-Za-z0-9_]){re.escape(n)}(?![A-Za-z0-9_])", message):
            return True
    return False


def _chain(exc):
    while exc is not None:
        yield exc
        exc = exc.__cause__ or exc.__context__


def _numbers(x, depth=0):
    """Every float array reachable in a result (containers, dataclasses, robonum records)."""
    if depth > 3:
        return
    if isinstance(x, (float, np.floating, complex, np.complexfloating)):
        yield np.asarray(x)
    elif isinstance(x, np.ndarray) and x.dtype.kind in "fc":
        yield x
    elif isinstance(x, (list, tuple)):
        for v in x[:50]:
            yield from _numbers(v, depth + 1)
    elif isinstance(x, dict):
        for v in list(x.values())[:50]:
            yield from _numbers(v, depth + 1)
    elif dataclasses.is_dataclass(x) and not isinstance(x, type):
        for f in dataclasses.fields(x):
            yield from _numbers(getattr(x, f.name, None), depth + 1)
    elif type(x).__module__.startswith("robonum") and hasattr(x, "__dict__"):
        for v in vars(x).values():
            yield from _numbers(v, depth + 1)


def says_failed(out) -> bool:
    status = getattr(out, "status", None)
    success = getattr(out, "success", None)
    if isinstance(out, dict):
        status, success = out.get("status"), out.get("ok", out.get("success"))
    return (isinstance(status, (int, np.integer)) and status < 0) or success is False


def _end_state(out):
    y = getattr(out, "y", None)
    if isinstance(y, np.ndarray) and y.ndim == 2 and y.shape[1]:
        return y[:, -1]
    return None


@contextlib.contextmanager
def time_cap(seconds: float):
    """Raise ``Hang`` in the block after ``seconds`` (SIGALRM: the main thread, as pytest's)."""
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def classify(fn, kwargs, pname, value, baseline_out=None):
    """Call ``fn(**kwargs)`` and return ``(outcome, detail)``."""
    try:
        with time_cap(TIME_CAP if pname else FIRST_CALL_CAP):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                out = fn(**kwargs)
    except Hang:
        return "bad", f"no answer within {TIME_CAP:g} s"
    except Exception as exc:  # noqa: BLE001 -- classifying every exception is the point
        others = [k for k, v in kwargs.items() if k != pname and callable(v)]
        return _classify_error(exc, pname, others)
    return _classify_result(fn, out, pname, value, baseline_out, caught)


def _classify_error(exc, pname, others=()):
    text = f"{type(exc).__name__}: {exc}"[:300]
    if pname is None:
        return "bad", f"the valid call failed: {text}"
    if any(isinstance(e, UserBug) for e in _chain(exc)):
        return "good", "the reader's own error surfaced"
    if type(exc).__name__ == "DomainError":  # autodiff: names the operation and its operands
        return "good", text
    if isinstance(exc, (TypeError, ValueError, RobonumError)):
        message = str(exc) + " ".join(getattr(exc, "__notes__", []))
        # a callable whose output no longer fits the changed argument may be the one named
        if names(message, pname) or any(names(message, k) for k in others):
            return "good", text
        return "weak", f"unnamed: {text}"
    return "bad", text


def _has_nan(arrays) -> bool:
    return any(np.isnan(a).any() for a in arrays)


def _classify_result(fn, out, pname, value, baseline_out, caught):
    numpy_warnings = [w for w in caught if issubclass(w.category, RuntimeWarning)]
    failed = says_failed(out)
    arrays = list(_numbers(out))
    if not failed and getattr(fn, "__name__", "") not in NAN_IS_DATA and _has_nan(arrays):
        return "bad", f"NaN returned without a word: {out!r:.150}"
    inf_ok = getattr(fn, "__name__", "") in INF_IS_ANSWER
    if not failed and not inf_ok and _new_inf(arrays, value, baseline_out):
        return "bad", f"inf returned without a word: {out!r:.150}"
    if (
        isinstance(value, HostileCallable)
        and value.kind == "scaled"
        and pname == "jac"
        and not failed
    ):
        y, y_ref = _end_state(out), _end_state(baseline_out)
        if y is not None and y_ref is not None and y.shape == y_ref.shape:
            if np.max(np.abs(y - y_ref)) > 0.05 * np.max(np.abs(y_ref)):
                return "bad", f"success on a wrong answer {y} (right: {y_ref})"
    if len(numpy_warnings) >= 1:
        return "weak", f"{len(numpy_warnings)} warnings: {numpy_warnings[0].message}"[:200]
    return "good", "answered"


def _finite_input(value) -> bool:
    try:
        return bool(np.all(np.isfinite(np.asarray(value, dtype=complex))))
    except (TypeError, ValueError, OverflowError):
        return True


def _new_inf(arrays, value, baseline_out) -> bool:
    if not any(np.isinf(a).any() for a in arrays):
        return False
    if baseline_out is not None and any(np.isinf(a).any() for a in _numbers(baseline_out)):
        return False  # inf is one of this function's answers (an A-stable interval)
    return _finite_input(value) and not (isinstance(value, float) and math.isinf(value))
