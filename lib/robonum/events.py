"""Events: times where ``g(t, y(t)) = 0`` along a run, found on each step's dense output.

An event is a function ``g(t, y)`` with two optional attributes, as in SciPy's
``solve_ivp``: ``direction`` (> 0: only where ``g`` goes from negative to
positive, < 0: the reverse, 0: both) and ``terminal`` (``True`` or a count ``k``:
the run stops at the ``k``-th occurrence; ``False``/``0``/``None``: never).
After every accepted step ``g`` is evaluated at the new point; a sign change
in the wanted direction is located by Brent's method on the step's own
polynomial (no ``f``-call), to within a few ulps of ``t`` -- so a contact time
is as accurate as the dense output (Hairer, Norsett & Wanner I, sec. II.6;
Shampine & Thompson, *Appl. Numer. Math.* 2000).  The run keeps ``t_events``
and ``y_events``: one array per event, SciPy's layout.
"""

from __future__ import annotations

import numbers

import numpy as np

from . import _validate as check

MAX_EVENTS = 100  # event functions per run
MAX_OCCURRENCES = 100_000  # recorded occurrences per event; later ones are counted (EventLog.note)
_XTOL = 4 * np.finfo(float).eps  # Brent's absolute tolerance, scaled by |t| below


class Event:
    """One event function with its validated ``direction`` and ``terminal`` count."""

    def __init__(self, fn, index: int):
        name = f"events[{index}]"
        check.callable_(name, fn)
        self.fn, self.name = fn, name
        direction = getattr(fn, "direction", 0)
        self.direction = float(np.sign(check.real(f"{name}.direction", direction)))
        terminal = getattr(fn, "terminal", False)
        if isinstance(terminal, np.bool_):  # e.g. g.terminal = y0[0] > 0
            terminal = bool(terminal)
        if terminal is None or terminal is False:
            terminal = 0
        elif terminal is True:
            terminal = 1
        if isinstance(terminal, bool) or not isinstance(terminal, numbers.Integral) or terminal < 0:
            raise ValueError(
                f"The `terminal` attribute of {name} must be a bool or a nonnegative "
                f"integer, got {terminal!r}"
            )
        self.terminal = int(terminal)  # 0: never stops the run

    def mirrored(self) -> "Event":
        """The same event on the mirrored run ``s = -t`` (direction is along the run: unchanged)."""
        ev = object.__new__(Event)
        ev.fn, ev.name, ev.direction, ev.terminal = (
            lambda s, z, fn=self.fn: fn(-s, z),
            self.name,
            self.direction,
            self.terminal,
        )
        return ev

    def __call__(self, t, y) -> float:
        value = self.fn(t, y)
        out = np.asarray(value)
        if out.size != 1 or out.dtype.kind not in "biuf" or not np.isfinite(out).all():
            raise ValueError(f"{self.name} must return one finite real number, got {value!r}")
        return float(out.reshape(()))

    def crosses(self, g_old: float, g_new: float) -> bool:
        """A zero in ``[t_old, t_new]`` in the wanted direction (SciPy's rule)."""
        up = g_old <= 0 <= g_new
        down = g_old >= 0 >= g_new
        return (up and self.direction >= 0 or down and self.direction <= 0) and g_old != g_new


def as_events(events, args=()) -> list[Event]:
    """``None``, one callable, or a sequence of them -> a list of :class:`Event`;
    ``args`` are passed on, ``g(t, y, *args)``, as to ``fun`` (SciPy's rule)."""
    if events is None:
        return []
    if callable(events):
        events = [events]
    if not isinstance(events, (list, tuple)):
        raise TypeError(f"events must be a callable or a list of callables, got {type(events)}")
    if len(events) > MAX_EVENTS:
        raise ValueError(f"events: at most {MAX_EVENTS} functions, got {len(events)}")
    call = f"g(t, y{', *args' if args else ''})"
    for i, fn in enumerate(events):  # the arity by name, not Python's "<lambda>() takes ..." later
        check.callable_(f"events[{i}]", fn, 2 + len(args), call)
    out = [Event(fn, i) for i, fn in enumerate(events)]
    for ev in out:
        if args:
            ev.fn = lambda t, y, fn=ev.fn: fn(t, y, *args)
    return out


class EventLog:
    """Watches a run's steps; ``after_step`` returns ``(t, y)`` where a terminal event stops it."""

    def __init__(self, events, t0, y0):
        self.events = events
        self.g = [ev(t0, y0) for ev in events]
        # A zero at the start is where the caller stopped a previous run (a phase that begins at
        # touchdown): counting it again would stop the new run at once, for ever.  So roots
        # within rounding of t0 are not events of this run.
        self.t0, self.start_slack = t0, 8 * _XTOL * max(1.0, abs(t0))
        self.t = [[] for _ in events]
        self.y = [[] for _ in events]
        self.count = [0] * len(events)  # occurrences, kept or not (MAX_OCCURRENCES)

    def after_step(self, t_old, t_new, y_new, piece):
        g_new = [ev(t_new, y_new) for ev in self.events]
        found = []
        for i, ev in enumerate(self.events):
            if ev.crosses(self.g[i], g_new[i]):
                if self._full(i):  # nothing more to keep, no stop to place: count it only
                    self.count[i] += 1
                    continue
                t_root = self._root(ev, piece, t_old, t_new, g_new[i])
                if abs(t_root - self.t0) > self.start_slack:
                    found.append((t_root, i))
        self.g = g_new
        for t_root, i in sorted(found):
            y_root = y_new if t_root == t_new else piece(np.array([t_root]))[:, 0]
            self.count[i] += 1
            if len(self.t[i]) < MAX_OCCURRENCES:
                self.t[i].append(t_root)
                self.y[i].append(y_root)
            ev = self.events[i]
            if ev.terminal and self.count[i] >= ev.terminal:
                return t_root, y_root  # later roots in this step lie beyond the stop
        return None

    def _full(self, i) -> bool:
        """Event ``i`` has filled its record and no stop of the run depends on where it falls."""
        terminal = self.events[i].terminal
        return len(self.t[i]) >= MAX_OCCURRENCES and (not terminal or self.count[i] + 1 < terminal)

    def note(self) -> str:
        """For the run's message: the events that occurred more often than their record keeps."""
        over = [
            f"{ev.name} occurred {n} times; t_events[{i}] keeps the first {MAX_OCCURRENCES}"
            for i, (ev, n) in enumerate(zip(self.events, self.count))
            if n > MAX_OCCURRENCES
        ]
        return "".join(f"; {text}" for text in over)

    def _root(self, ev, piece, t_old, t_new, g_new):
        from scipy.optimize import brentq  # here: `import robonum` stays numpy-only

        if g_new == 0:
            return t_new

        def g(t):
            return ev(t, piece(np.array([t]))[:, 0])

        xtol = _XTOL * max(1.0, abs(t_old), abs(t_new))
        g_a = g(t_old)
        if g_a == 0 or np.sign(g_a) == np.sign(g_new):
            # the polynomial at t_old differs from y_old by rounding, and g sat on zero there
            return t_old
        return brentq(g, t_old, t_new, xtol=xtol, rtol=4 * np.finfo(float).eps)

    def arrays(self, n, dtype=float):
        """``(t_events, y_events)``: per event its times and a ``(k, n)`` array of states
        (an event that never fired: an empty ``(0,)`` array, as SciPy's)."""
        t_events = [np.array(ts, dtype=float) for ts in self.t]
        # an event that never fired gives an empty (0,) array, as SciPy's
        y_events = [
            np.array(ys, dtype=dtype).reshape(len(ys), n) if ys else np.array([]) for ys in self.y
        ]
        return t_events, y_events


__all__ = ["Event", "EventLog", "as_events", "MAX_EVENTS", "MAX_OCCURRENCES"]
