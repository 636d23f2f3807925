"""The public API of robonum, walked the same way on every run.

What is public (the suite covers exactly this, so a new function is covered the day it lands):

* every non-module name in ``robonum.__all__``;
* the public subpackages: the modules named in ``robonum.__all__``, ``robonum.steppers``
  (``RadauIIA`` and ``VariableBDF`` are reached only through it), ``robonum.fast``,
  ``robonum.problems.testset`` (the benchmark problems of chapter 12) and the book layer
  ``robonum.book``, ``robonum.explore``, ``robonum.plotting``;
* in each of them, the names of its ``__all__`` -- or, without one, every name not starting
  with ``_`` that is *defined* there (a name imported from elsewhere belongs to its home) --
  and, recursively, the submodules listed the same way.

Constants, exception classes and typing helpers are not callables with inputs to attack and
are skipped by kind; everything else callable is returned.
"""

from __future__ import annotations

import importlib
import inspect

import robonum as rn

EXTRA_ROOTS = ("steppers", "fast", "problems.testset", *rn.BOOK_LAYER)


def _names(mod):
    names = getattr(mod, "__all__", None)
    return list(names) if names is not None else [n for n in vars(mod) if not n.startswith("_")]


def _home(obj) -> str:
    return getattr(obj, "__module__", "") or ""


def _walk(mod, out: dict, seen: set) -> None:
    explicit = hasattr(mod, "__all__")
    for n in _names(mod):
        obj = getattr(mod, n)
        if inspect.ismodule(obj):
            if obj.__name__.startswith(mod.__name__ + ".") and obj.__name__ not in seen:
                seen.add(obj.__name__)
                _walk(obj, out, seen)
        elif _attackable(obj) and (explicit or _home(obj).startswith(mod.__name__)):
            out.setdefault(f"{mod.__name__}.{n}", obj)


def _attackable(obj) -> bool:
    if not callable(obj) or _home(obj).startswith(("typing", "builtins")):
        return False
    return not (inspect.isclass(obj) and issubclass(obj, BaseException))


def public_callables() -> dict:
    """``{"robonum.solve_ivp": solve_ivp, ...}``: every public callable, first name wins."""
    out: dict = {}
    for n in rn.__all__:
        obj = getattr(rn, n)
        if not inspect.ismodule(obj) and _attackable(obj):
            out[f"robonum.{n}"] = obj
    roots = [n for n in rn.__all__ if inspect.ismodule(getattr(rn, n))] + list(EXTRA_ROOTS)
    seen = set()
    for r in roots:
        mod = importlib.import_module(f"robonum.{r}")
        seen.add(mod.__name__)
        _walk(mod, out, seen)
    firsts, by_id = {}, {}
    for name, obj in out.items():  # one entry per object (rn.solve_ivp is also rn.ivp...)
        by_id.setdefault(id(obj), name)
    for name, obj in out.items():
        if by_id[id(obj)] == name:
            firsts[name] = obj
    return firsts
