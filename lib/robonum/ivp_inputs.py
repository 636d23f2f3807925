"""What ``solve_ivp`` accepts beyond an ``ODEProblem``, turned into one (SciPy's conventions).

* ``args``: extra arguments, ``f(t, y, *args)`` and ``jac(t, y, *args)``;
* ``vectorized=True``: ``f`` takes ``y`` of shape ``(n, k)`` and returns ``(n, k)``; the
  core calls it with one column;
* ``jac`` as a constant matrix (dense or SciPy sparse) or a callable returning a
  sparse matrix: the core's linear algebra is dense, so it is made dense once
  (``n`` is capped by :data:`robonum.problem.MAX_DIM`);
* a decreasing ``t_span``: the core always marches forward, so the run solves
  ``z(s) = y(-s)``, ``z' = -f(-s, z)`` on ``(-t0, -t1)`` and maps the times back --
  the same steps, mirrored, as a backward run would take.
"""

from __future__ import annotations

import itertools
import re
import warnings

import numpy as np

from . import _validate as check
from .declarations import returned_array
from .dense import evaluated
from .solution import SUCCESS, Solution

MAX_ARGS = 64
MAX_T_EVAL = 10**6  # output times of solve_ivp: 8 MB per state component


def _dense(matrix):
    """A SciPy sparse matrix (anything with ``toarray``) as a dense array."""
    return matrix.toarray() if hasattr(matrix, "toarray") else matrix


def _vectorized_output(out, t) -> np.ndarray:
    """A vectorized ``fun``'s value as an array; a ragged one is refused by name."""
    return returned_array("fun (vectorized=True)", out, "an (n, k) array for y of shape (n, k)", t)


def with_args(fun, jac, args, vectorized: bool):
    """``(f, jac)`` as the core calls them: ``f(t, y) -> (n,)``, ``jac(t, y) -> (n, n)``."""
    if args is not None:
        try:
            # SciPy unpacks any sequence; islice: an endless or huge iterable stops at the cap
            args = tuple(itertools.islice(iter(args), MAX_ARGS + 1))
        except TypeError:
            raise TypeError(
                f"Supplied 'args' cannot be unpacked: give a tuple such as args=(k,), "
                f"got {type(args).__name__}"
            ) from None
        if len(args) > MAX_ARGS:
            raise ValueError(f"args: at most {MAX_ARGS} values, got more")
    extra = args or ()
    call = f"(t, y{', *args' if extra else ''})"  # args given: say how many the callables get
    check.callable_("fun", fun, 2 + len(extra), "fun" + call)
    if callable(jac):
        check.callable_("jac", jac, 2 + len(extra), "jac" + call)
    vectorized = check.boolean("vectorized", vectorized)

    if vectorized:

        def f(t, y):
            return _vectorized_output(fun(t, y[:, None], *extra), t).reshape(-1)

        def columns(t, Y):
            return _vectorized_output(fun(t, Y, *extra), t)

        f.columns = columns  # Work takes all difference columns of a Jacobian in one call

    elif extra:

        def f(t, y):
            return fun(t, y, *extra)

    else:
        f = fun
    if jac is None or not callable(jac):
        return f, _constant_jacobian(jac)

    def J(t, y):
        return _dense(jac(t, y, *extra))

    return f, J


def _constant_jacobian(jac):
    if jac is None:
        return None
    matrix = check.real_array("jac", _dense(jac), ndim=2)

    def J(t, y):
        return matrix

    J.constant = True  # evaluated once: Work does not count it in njev (as SciPy)
    return J


def reversed_in_time(f, jac, events):
    """``(g, jac_g, events_g)`` of ``z(s) = y(-s)``: ``g(s, z) = -f(-s, z)``."""

    def g(s, z):
        return -np.asarray(f(-s, z))

    jac_g = None
    if jac is not None:

        def jac_g(s, z):
            return -np.asarray(jac(-s, z))

        jac_g.constant = getattr(jac, "constant", False)
    return g, jac_g, [ev.mirrored() for ev in events]


def mirrored_dense(dense):
    """The dense output of the mirrored run, read at original times."""
    if dense is None:
        return None

    def sol(t):
        if not dense.pieces:  # the run made no step: zeros of no rows, whatever t
            return dense(t)
        # t checked (and named in a refusal) at the run's own times, before the sign flip
        return evaluated(lambda tt: dense.at_times(-tt), t, sol.t_min, sol.t_max)

    sol.t_min, sol.t_max = -dense.t_max, -dense.t_min
    sol.pieces = dense.pieces
    return sol


# "t = 2.5", "t = -1e+11", "t = inf": every time a message of the loop prints
_TIME_IN_MESSAGE = re.compile(r"(\bt = )(-?)(inf|\d[\d.]*(?:e[+-]?\d+)?)")


def unmirrored(message: str) -> str:
    """A message of the mirrored run (time ``s = -t``) at original times: each ``t = x`` is ``-x``."""

    def flip(m):
        if float(m.group(3)) == 0.0:
            return m.group(0)
        return m.group(1) + ("" if m.group(2) else "-") + m.group(3)

    return _TIME_IN_MESSAGE.sub(flip, message)


def span_of(t_span, *, open_end: bool = False) -> tuple[float, float]:
    """``(t0, t1)``: finite, in either order, or equal (nothing to integrate);
    ``open_end=True`` also takes ``t1 = +-inf``."""
    if isinstance(t_span, (str, bytes)):
        raise TypeError("t_span must be a pair (t0, t1), got a string")
    try:
        t0, t1 = t_span
    except (TypeError, ValueError):
        raise TypeError(f"t_span must be a pair (t0, t1), got {type(t_span).__name__}") from None
    t0 = check.real("t_span[0]", t0)
    if open_end and isinstance(t1, (int, float, np.floating)) and abs(t1) == np.inf:
        return t0, float(t1)
    t1 = check.real("t_span[1]", t1)
    if not np.isfinite(t1 - t0):
        raise ValueError(f"t_span must be finite with a finite length, got ({t0:g}, {t1:g})")
    return t0, t1


def times_inside(name, times, t_span, backward: bool):
    """``t_eval`` checked (sorted along the run, inside ``t_span``), mirrored if ``backward``."""
    if times is None:
        return None
    times = check.real_array(name, times, ndim=1, max_size=MAX_T_EVAL)
    t0, t1 = float(t_span[0]), float(t_span[1])
    lo, hi = min(t0, t1), max(t0, t1)
    steps = np.diff(times) * (-1 if backward else 1)
    if np.any(times < lo) or np.any(times > hi) or np.any(steps < 0):
        order = "decreasing" if backward else "increasing"
        raise ValueError(f"{name} must be {order} times inside t_span = ({t0:g}, {t1:g})")
    return -times if backward else times


class Constant:
    """The dense output of a run that did not move: ``y0`` at every ``t``.

    A zero-length ``t_span``, or a state with no components: SciPy's
    ``ConstantDenseOutput`` (it too answers for any ``t``).
    """

    def __init__(self, t0, t1, y0):
        self.t_min, self.t_max = min(t0, t1), max(t0, t1)
        self.y0 = y0

    def __call__(self, t):
        tt = check.real_array("t", t, ndim=1, max_size=MAX_T_EVAL)
        return self.y0.copy() if np.ndim(t) == 0 else np.tile(self.y0[:, None], (1, tt.size))


def no_integration(t_span, y0, method_name, events, dense_output, t_eval):
    """The result of a run in which nothing moves, with no ``f``-call: ``y(t) = y0``.

    Either ``t_span = (t0, t0)``, or ``y0`` has no components (then ``t = [t0, t1]``,
    ``t1`` may be infinite), as SciPy's ``OdeSolver`` treats both corner cases.
    ``y0`` is the state ``solve_ivp`` has already checked.
    """
    t0, t1 = t_span
    if t_eval is None:
        t = np.array([t0] if t1 == t0 else [t0, t1])
    else:
        t = times_inside("t_eval", t_eval, (t0, t1), t1 < t0)
        t = -t if t1 < t0 else t
    what = f"t_span has zero length: y(t) = y0 at t = {t0:g}"
    sol = Solution(
        t=t,
        y=np.tile(y0[:, None], (1, t.size)),
        method=method_name,
        h=None,
        status=SUCCESS,
        reason="success",
        message=what if t1 == t0 else "y0 has no components: nothing to integrate",
    )
    sol.sol = Constant(t0, t1, y0) if dense_output else None
    if events:
        sol.t_events = [np.empty(0) for _ in events]
        sol.y_events = [np.empty((0, y0.size)) for _ in events]
    return sol


def raised_rtol(value):
    """SciPy's rule at a ``solve_ivp`` door: an ``rtol`` in ``[0, 100 eps)`` is raised to ``100 eps``.

    One ``UserWarning`` (SciPy's wording starts the message, so code that filters
    SciPy's warning filters this one) names the parameter and the floor.  Anything
    that is not a number >= 0 (NaN, negative, a string) is passed through unchanged for
    :func:`robonum._validate.rtol` to refuse by name.
    """
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError, OverflowError):  # 10**400, "abc": rtol() names them
        return value
    if arr.ndim > 1 or not np.all(np.isfinite(arr)) or np.any(arr < 0):
        return value
    if not np.any(arr < check.RTOL_FLOOR):
        return value
    warnings.warn(
        f"At least one element of `rtol` is below 100 eps = {check.RTOL_FLOOR:.3g}, the smallest "
        f"relative tolerance a double can meet: raised to {check.RTOL_FLOOR:.3g} (as SciPy does)",
        UserWarning,
        stacklevel=3,
    )
    raised = np.maximum(arr, check.RTOL_FLOOR)
    return float(raised) if raised.ndim == 0 else raised


__all__ = [
    "raised_rtol",
    "with_args",
    "reversed_in_time",
    "mirrored_dense",
    "unmirrored",
    "span_of",
    "times_inside",
    "no_integration",
    "Constant",
    "MAX_ARGS",
    "MAX_T_EVAL",
]
