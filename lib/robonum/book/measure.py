"""Small measurements the chapters share: round-off as a bound in units of ε, and timing.

A round-off-level value differs between machines in its digits, so the book
states it as a bound (``docs/writing-a-chapter.md``, "Numbers that hold on
every machine"); a time is the best of a few repeats, the least disturbed.
"""

from __future__ import annotations

import time

import numpy as np

from .. import _validate as check

EPS = float(np.finfo(float).eps)
REPEAT_MAX = 20


def eps_bound(err) -> int:
    """The smallest power of two ``k`` with ``max(err) <= k ε``: a round-off-level error as a bound.

    ``err`` is a number or an array of them (finite, >= 0).
    Example: ``eps_bound(3e-16)`` is 2, since ``ε = 2.2e-16 < 3e-16 <= 2ε``.
    """
    e = check.real_array("err", err)
    if np.any(e < 0):
        raise ValueError("err must be >= 0 (an error size)")
    k, top = 1, float(np.max(e)) if e.size else 0.0
    while top > k * EPS:
        k *= 2
    return k


def eps_text(err) -> str:
    """``"0 (같음)"`` when two results agree bit for bit, else ``"≤ kε"`` (:func:`eps_bound`).

    An exact zero is a fact worth saying (the same operations in the same order); a nonzero
    round-off difference is stated as a bound, whose digits vary by machine.
    """
    e = check.real_array("err", err)
    return "0 (같음)" if e.size and float(np.max(np.abs(e))) == 0.0 else f"≤ {eps_bound(e)}ε"


def below_eps(x: float, k: int) -> str:
    """``"< k ε"`` for a value the page states as a bound; refuses a value that is not below it."""
    x = check.real("x", x)
    k = check.integer("k", k, 1, 2**52)
    if not x < k * EPS:
        raise ValueError(f"x = {x:.3g} is not below {k} eps: the stated bound would be false")
    return f"< {k:,} ε"


def best_time(fn, repeat: int = 3) -> float:
    """The least wall-clock time in seconds of ``repeat`` calls of ``fn()`` (``repeat`` in 1..20)."""
    check.callable_("fn", fn)
    repeat = check.integer("repeat", repeat, 1, REPEAT_MAX)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best
