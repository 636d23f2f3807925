"""Hostile values for one parameter, drawn by Hypothesis from the parameter's valid value.

The valid value says what kind the parameter is (a number, an integer, a vector, a pair, a
string, a flag, a callable, an object) and each kind has its attacks: NaN, ±inf, huge and
tiny numbers, integers too large for a float, wrong types, empty and wrong-shaped arrays,
callables that raise, return NaN, the wrong shape or the wrong type, and -- for a ``jac`` --
a Jacobian of the right shape that disagrees with ``f``.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from hypothesis import strategies as st


class UserBug(Exception):
    """What a hostile callable raises: the reader's own bug, which may surface as it is."""


SPECIAL_FLOATS = [math.nan, math.inf, -math.inf, 0.0, -0.0, -1.5, 1e308, -1e308, 1e-320, 5e-324]
WRONG_TYPES = ["abc", None, 1j, True, [], [[1.0, 2.0], [3.0, 4.0]], {"a": 1}, object()]
HUGE_INTS = [10**400, -(10**400), 2**63, 2**64 + 1, -(2**63)]

NUMBER = st.sampled_from(SPECIAL_FLOATS) | st.floats() | st.sampled_from(HUGE_INTS)
ANY_SCALAR = NUMBER | st.sampled_from(WRONG_TYPES) | st.integers(-(2**70), 2**70)


def _arrays_like(base: np.ndarray):
    """Arrays of the right shape with one bad entry, and arrays of a wrong shape."""
    shape = base.shape
    one_bad = st.tuples(
        st.integers(0, max(base.size - 1, 0)), st.sampled_from(SPECIAL_FLOATS[:3] + [1e308])
    ).map(lambda ib: _with_entry(base, *ib))
    wrong_shape = st.sampled_from(
        [
            np.zeros((0,)),
            np.zeros(shape + (1,)) if shape else np.zeros((1, 1)),
            np.resize(base.astype(float), base.size + 1) if base.size else np.ones(2),
            np.resize(base.astype(float), max(base.size - 1, 0)),
            np.full(shape, 1e308),
            np.full(shape, 1e-320),
        ]
    )
    wrong_dtype = st.sampled_from(
        [
            base.astype(complex) + 1j,
            np.full(shape, "a"),
            np.full(shape, True),
            np.array([None] * max(base.size, 1), dtype=object),
        ]
    )
    # and any small array of any float
    anyarr = st.lists(st.floats(), min_size=0, max_size=6).map(np.array)
    return one_bad | wrong_shape | wrong_dtype | anyarr | ANY_SCALAR


def _with_entry(base, i, value):
    a = np.array(base, dtype=float if np.isrealobj(base) else complex)
    if a.size:
        a.flat[i] = value
    return a


def _pairs(base):
    a, b = float(base[0]), float(base[1])
    return (
        st.sampled_from([(b, a), (a, a), (a, math.nan), (math.inf, b), (a, 1e308), (-1e308, 1e308)])
        | st.tuples(st.floats(), st.floats())
        | st.sampled_from([(a,), (a, b, b), "ab", None, 3.0])
    )


def _strings(base: str):
    return (
        st.sampled_from([base + "x", base.upper(), "", " " + base, base * 50])
        | st.text(max_size=8)
        | st.sampled_from(WRONG_TYPES + [3.0, 10**400])
    )


class HostileCallable:
    """Wraps a valid callable and spoils what it returns, from the ``after``-th call on.

    ``after > 0`` lets the first calls pass, so a check made once at the door does not catch
    it and the driver must.
    """

    KINDS = ("raise", "nan", "inf", "extra", "2-D", "str", "None", "complex", "scaled")

    def __init__(self, base, kind: str, after: int):
        self.base, self.kind, self.after, self.calls = base, kind, after, 0

    def __repr__(self):
        return f"HostileCallable({self.kind!r}, after={self.after})"

    def __call__(self, *args, **kwargs):
        self.calls += 1
        out = self.base(*args, **kwargs)
        if self.calls <= self.after:
            return out
        if self.kind == "raise":
            raise UserBug("the reader's function fails")
        return _spoil(out, self.kind)


def _spoil(out, kind):
    if kind in ("str", "None"):
        return {"str": "abc", "None": None}[kind]
    try:
        a = np.asarray(out, dtype=float)
    except (TypeError, ValueError):
        return out  # a Dual, a Var: left as it is
    return {
        "nan": np.full_like(a, math.nan),
        "inf": np.full_like(a, math.inf),
        "extra": np.append(a, 1.0),
        "2-D": np.stack([a, a]),
        "complex": a + 1j,
        "scaled": -1e4 * a if a.any() else a - 1e4,
    }[kind]


def _callables(base):
    spoiled = st.builds(
        HostileCallable,
        st.just(base),
        st.sampled_from(HostileCallable.KINDS),
        st.sampled_from([0, 0, 1, 3]),
    )
    wrong_arity = lambda: 0.0  # noqa: E731  (a real function: its signature is wrong too)
    return spoiled | st.sampled_from(["abc", 3.0, None, [base], wrong_arity])


def kind_of(value) -> str:
    if isinstance(value, bool) or isinstance(value, np.bool_):
        return "bool"
    if isinstance(value, numbers.Integral):
        return "int"
    if isinstance(value, numbers.Number):
        return "number"
    if isinstance(value, str):
        return "str"
    if callable(value) and not isinstance(value, type):
        return "callable"
    if (
        isinstance(value, tuple)
        and len(value) == 2
        and all(isinstance(v, numbers.Real) for v in value)
    ):
        return "pair"
    if isinstance(value, (list, tuple, np.ndarray)):
        try:
            np.asarray(value, dtype=complex)
            return "array"
        except (TypeError, ValueError):
            return "object"
    return "object"


def hostile(value):
    """A strategy of hostile values for a parameter whose valid value is ``value``."""
    k = kind_of(value)
    if k == "bool":
        return st.sampled_from([0, 1, "yes", None, 1.0, np.array([True, False])])
    if k == "int":
        return (
            st.integers(-(2**70), 2**70) | st.sampled_from([value + 0.5, float(value)]) | ANY_SCALAR
        )
    if k == "number":
        return ANY_SCALAR
    if k == "str":
        return _strings(value)
    if k == "callable":
        return _callables(value)
    if k == "pair":
        return _pairs(value)
    if k == "array":
        return _arrays_like(np.asarray(value))
    return st.sampled_from(WRONG_TYPES + [3.0, "abc", math.nan])
