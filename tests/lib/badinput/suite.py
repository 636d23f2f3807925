"""What the property-based suite attacks: each public function, its baseline call, its parameters."""

from __future__ import annotations

import inspect

from hypothesis import strategies as st

from .api import public_callables
from .baselines import CALLS, NAMED, NOT_GENERATED, resolve
from .hostile import ANY_SCALAR, hostile

API = public_callables()
_NAMED_KINDS = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


def parameters(fn) -> list:
    """The parameters a caller names (no ``*args``/``**kwargs``, no ``self``)."""
    return [p for p in inspect.signature(fn).parameters.values() if p.kind in _NAMED_KINDS]


def missing(name: str) -> list:
    """Required parameters of ``name`` with no valid value in CALLS or NAMED."""
    given = CALLS.get(name) or {}
    return [
        p.name
        for p in parameters(API[name])
        if p.default is p.empty and p.name not in given and p.name not in NAMED
    ]


def baseline(name: str) -> dict:
    """Fresh keyword arguments of a valid call: CALLS first, NAMED for the other required ones."""
    given = CALLS.get(name) or {}
    kwargs = {}
    for p in parameters(API[name]):
        if p.name in given:
            kwargs[p.name] = resolve(given[p.name])
        elif p.default is p.empty:
            kwargs[p.name] = NAMED[p.name]()
    return kwargs


def valid_value(name: str, p: inspect.Parameter):
    """The valid value hostile ones are drawn around: the baseline's, else the default."""
    given = CALLS.get(name) or {}
    if p.name in given:
        return resolve(given[p.name])
    if p.default is p.empty:
        return NAMED[p.name]()
    return p.default


def strategy(name: str):
    """``(parameter name, hostile value)`` pairs for one function."""
    choices = []
    for p in parameters(API[name]):
        valid = valid_value(name, p)
        values = hostile(valid) if valid is not None else ANY_SCALAR | hostile([1.0, 2.0])
        choices.append(st.tuples(st.just(p.name), values))
    return st.one_of(choices)


COVERED = sorted(n for n in API if n not in NOT_GENERATED and not missing(n))
