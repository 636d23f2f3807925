"""The catalogue of methods: every tableau under a short key.

``get("rk4")`` returns the tableau; ``names()`` lists the keys.
"""
from __future__ import annotations

from ..tableau import ButcherTableau
from . import explicit, implicit

_REGISTRY: dict[str, ButcherTableau] = {**explicit.ALL, **implicit.ALL}


def names() -> list[str]:
    """Keys of every registered tableau."""
    return list(_REGISTRY)


def get(name) -> ButcherTableau:
    """The tableau registered as ``name`` (a tableau passes through unchanged)."""
    if isinstance(name, ButcherTableau):
        return name
    if not isinstance(name, str):
        raise TypeError(f"method must be a method name or a ButcherTableau, got {type(name).__name__}")
    key = name.lower()
    if key not in _REGISTRY:
        raise ValueError(f"method must be one of {names()}, got {name!r}")
    return _REGISTRY[key]
