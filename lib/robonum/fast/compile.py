"""How the compiled solver is built: one kernel for every problem, cached on disk.

Passing a numba function to a numba function normally compiles the caller
again for each new callee (~10 s for the Radau loop).  Typed as a
first-class function (``numba.types.FunctionType``), ``f`` and ``jac`` are
called through a pointer instead: the loop is compiled once (~20 s) for the
signature ``f(float64, float64[::1]) -> float64[::1]``, ``jac(...) ->
float64[:, ::1]``, and each new problem only compiles its own ``f`` and
``jac`` (under a second).  The pointer call costs about a factor 2 in run
time on small problems against inlining, still below LSODA's.

numba's disk cache keys the kernel on ``fast/radau.py`` alone; a change in a
helper in another file, or in the constants and rules it compiles from the Python
stepper's modules (``steppers/radau*.py``: frozen into the machine code as globals), in
the step-size rule of ``control.py`` or in the difference increments of ``jacobian.py``,
would load stale code (a documented numba limitation).  The cache is therefore
dropped whenever the hash of those sources changes.
"""

from __future__ import annotations

import hashlib
import inspect
import pathlib
import weakref

import numba
import numpy as np
from numba import types

from .radau import radau_loop
from .radau_method import CONSTANTS

_VEC = types.float64[::1]
F_TYPE = types.FunctionType(_VEC(types.float64, _VEC))
JAC_TYPE = types.FunctionType(types.float64[:, ::1](types.float64, _VEC))
SIGNATURE = (
    F_TYPE,
    JAC_TYPE,
    types.boolean,
    types.float64,
    types.float64,
    _VEC,
    types.float64,
    types.float64,
    types.float64,
    types.float64,
    types.int64,
    types.float64,
    numba.typeof(CONSTANTS[3]),
)  # the same type for every stage count
_HERE = pathlib.Path(__file__).parent
_KERNEL = None
_JITTED: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _sources() -> list[pathlib.Path]:
    """Every file whose text the compiled kernel depends on."""
    steppers = _HERE.parent / "steppers"
    core = [_HERE.parent / "control.py", _HERE.parent / "jacobian.py"]
    return sorted(_HERE.glob("*.py")) + sorted(steppers.glob("radau*.py")) + core


def _drop_stale_cache() -> None:
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in _sources() if p.exists())).hexdigest()
    cache = _HERE / "__pycache__"
    stamp = cache / "radau_loop.sources"
    try:
        if stamp.read_text() == digest:
            return
    except OSError:
        pass
    for old in cache.glob("radau.radau_loop-*"):
        old.unlink(missing_ok=True)
    try:
        cache.mkdir(exist_ok=True)
        stamp.write_text(digest)
    except OSError:  # a read-only install: numba then keeps no cache either
        pass


def kernel():
    """The Radau loop compiled for function pointers (once per process, from disk if cached)."""
    global _KERNEL
    if _KERNEL is None:
        _drop_stale_cache()
        _KERNEL = numba.njit(SIGNATURE, cache=True)(radau_loop)
    return _KERNEL


@numba.njit(cache=False)
def no_jacobian(t, y):
    """Stands in for ``jac`` when the loop takes forward differences (never called)."""
    return np.zeros((0, 0))


def compiled(fn, name: str = "fun"):
    """``fn`` itself if numba already compiled it, else ``numba.njit(fn)`` (kept per function).

    Only a Python function (or a jitted one) can be compiled: anything else callable is a
    ``TypeError`` naming ``name``, not numba's "the decorated object is not a function".
    """
    if numba.extending.is_jitted(fn):
        return fn
    if not inspect.isfunction(fn):
        raise TypeError(
            f"{name} must be a Python function (def or lambda) or an @numba.njit one for "
            f"robonum.fast, got {type(fn).__name__}; rn.solve_ivp takes any callable"
        )
    try:
        return _JITTED[fn]
    except (KeyError, TypeError):
        pass
    jf = numba.njit(cache=False)(fn)
    try:
        _JITTED[fn] = jf
    except TypeError:  # refuses weak references: compiled again next time
        pass
    return jf
