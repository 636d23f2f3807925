"""Parameters of an exploration: a name, the values a control offers, a default.

The static page pre-renders one frame per value (or per combination), so a
parameter holds a *finite* list of values.  The live Jupyter view may offer a
finer list (``live_values``), since a kernel recomputes on every move.

A parameter is a ``"number"`` (a slider) or a ``"choice"`` (radio buttons, or
a drop-down list when there are many options).  Build one with
:meth:`Param.numbers`, :meth:`Param.grid`, :meth:`Param.geomgrid` or
:meth:`Param.choice`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .. import _validate as check
from .numfmt import distinct_labels, human, is_number

KINDS = ("number", "choice")


@dataclass(frozen=True, eq=False)
class Param:
    """One control.  ``values`` are what the static page offers.

    ``kind`` is inferred when empty: ``"number"`` if every value is a real
    number, else ``"choice"``.  ``fmt(value) -> str`` writes a number's label;
    without it numbers are written the way a person would (0.5, 2.5e-3, 1e4).
    """

    name: str
    values: tuple
    default: object
    label: str = ""
    labels: tuple = ()
    live_values: tuple = ()
    kind: str = ""
    fmt: Callable | None = field(default=None, repr=False)
    _digits: int = field(default=3, init=False, repr=False)

    def __post_init__(self):
        if not (isinstance(self.name, str) and self.name.isidentifier()):
            raise ValueError(
                f"name must be a Python identifier (it is passed as a keyword), got {self.name!r}"
            )
        for what in ("values", "labels", "live_values"):
            if not isinstance(getattr(self, what), (list, tuple, np.ndarray)):
                raise TypeError(
                    f"parameter {self.name!r}: {what} must be a list or tuple, "
                    f"got {type(getattr(self, what)).__name__}"
                )
            object.__setattr__(self, what, tuple(getattr(self, what)))
        if len(self.values) < 2:
            raise ValueError(
                f"parameter {self.name!r}: values needs at least 2 entries, got {len(self.values)}"
            )
        if len(set(map(repr, self.values))) != len(self.values):
            raise ValueError(f"parameter {self.name!r}: values must be distinct")
        if self.default not in self.values:
            raise ValueError(
                f"parameter {self.name!r}: default {self.default!r} must be one of values {list(self.values)}"
            )
        if self.fmt is not None and not callable(self.fmt):
            raise TypeError(f"parameter {self.name!r}: fmt must be callable (value -> str)")
        kind = self.kind or ("number" if all(map(is_number, self.values)) else "choice")
        check.one_of(f"parameter {self.name!r}: kind", kind, KINDS)
        if kind == "number" and not all(map(is_number, self.values)):
            raise ValueError(f"parameter {self.name!r}: a number slider needs real-number values")
        if kind == "number" and not all(
            is_number(v) and math.isfinite(v) for v in self.values + tuple(self.live_values)
        ):
            raise ValueError(
                f"parameter {self.name!r}: a number slider needs finite real values "
                "(values and live_values)"
            )
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "label", self.label or self.name)
        live = tuple(self.live_values) or self.values
        object.__setattr__(self, "live_values", live)
        # One digit count for static and live labels, so a value reads the same in both.
        _, digits = distinct_labels(live)
        object.__setattr__(self, "_digits", digits)
        if self.labels:
            if len(self.labels) != len(self.values):
                raise ValueError(f"parameter {self.name!r}: labels must match values one to one")
        else:
            object.__setattr__(self, "labels", tuple(self._write(v) for v in self.values))
        object.__setattr__(self, "labels", tuple(map(str, self.labels)))
        if len(set(self.labels)) != len(self.labels):
            raise ValueError(
                f"parameter {self.name!r}: labels must be distinct, got {list(self.labels)}"
            )

    def _write(self, value) -> str:
        return str(self.fmt(value)) if self.fmt is not None else human(value, self._digits)

    @property
    def default_index(self) -> int:
        return self.values.index(self.default)

    def text(self, value) -> str:
        """How ``value`` is shown next to the control (static and live alike)."""
        if value in self.values:
            return self.labels[self.values.index(value)]
        return self._write(value)

    # -- constructors ------------------------------------------------------
    @classmethod
    def choice(cls, name: str, options, default=None, label: str = "") -> "Param":
        """Categorical values, e.g. ``Param.choice("method", {"euler": "오일러", "rk4": "RK4"})``.

        ``options`` is a list of values or a dict value -> display label.
        Shown as radio buttons (a drop-down list when there are many).
        """
        if isinstance(options, dict):
            values, labels = tuple(options), tuple(str(x) for x in options.values())
        elif isinstance(options, (list, tuple)):
            values, labels = tuple(options), ()
        else:
            raise TypeError(
                f"parameter {name!r}: options must be a list of values or a dict "
                f"value -> label, got {type(options).__name__}"
            )
        if not values:
            raise ValueError(f"parameter {name!r}: options must not be empty")
        return cls(
            name, values, values[0] if default is None else default, label, labels, kind="choice"
        )

    @classmethod
    def numbers(cls, name: str, values, default, label: str = "", fmt=None) -> "Param":
        """A slider over exactly these numbers (sorted), e.g. the step sizes the text discusses.

        >>> Param.numbers("h", [0.1, 0.25, 0.5, 1, 2.5, 2.7], default=0.5, label="간격 h").labels
        ('0.1', '0.25', '0.5', '1', '2.5', '2.7')
        """
        values = [check.real(f"{name}: values[{i}]", v) for i, v in enumerate(values)]
        default = check.real(f"{name}: default", default)
        if len(set(values)) != len(values):
            raise ValueError(f"parameter {name!r}: values must be distinct, got {values}")
        # Floats throughout: the drawing function sees 1.0 whether the text wrote 1 or 1.0.
        return cls(name, tuple(sorted(values)), default, label, kind="number", fmt=fmt)

    @classmethod
    def grid(
        cls,
        name: str,
        lo: float,
        hi: float,
        n: int,
        default=None,
        label: str = "",
        n_live: int | None = None,
        fmt=None,
    ) -> "Param":
        """``n`` equally spaced values on ``[lo, hi]``, plus ``default`` if it is not one of them."""
        return cls._spaced(name, lo, hi, n, default, label, n_live, fmt, np.linspace)

    @classmethod
    def geomgrid(
        cls,
        name: str,
        lo: float,
        hi: float,
        n: int,
        default=None,
        label: str = "",
        n_live: int | None = None,
        fmt=None,
    ) -> "Param":
        """``n`` log-spaced values on ``[lo, hi]`` (both > 0), plus ``default`` if missing."""
        check.positive(f"{name}: lo", lo)
        return cls._spaced(name, lo, hi, n, default, label, n_live, fmt, np.geomspace)

    @classmethod
    def _spaced(cls, name, lo, hi, n, default, label, n_live, fmt, space):
        lo, hi = check.real(f"{name}: lo", lo), check.real(f"{name}: hi", hi)
        if not lo < hi:
            raise ValueError(f"parameter {name!r}: need lo < hi, got {lo}, {hi}")
        n = check.integer(f"{name}: n", n, 2, 200)
        values = sorted({_round(v) for v in space(lo, hi, n)})
        if len(values) < n:  # values are shown to 6 digits: closer ones would be one slider stop
            raise ValueError(
                f"parameter {name!r}: {n} values on [{lo:g}, {hi:g}] are not distinct to 6 "
                "significant digits; widen the range or take fewer values"
            )
        if default is None:
            default = values[n // 2]
        else:
            # The text names the default (say h = 0.5): show exactly that value,
            # inserted among the grid values, rather than the nearest grid value.
            default = _round(check.real(f"{name}: default", default, lo, hi))
            values = sorted(set(values) | {default})
        live = ()
        if n_live is not None:
            n_live = check.integer(f"{name}: n_live", n_live, 2, 1000)
            live = tuple(sorted({_round(v) for v in space(lo, hi, n_live)} | set(values)))
        return cls(name, tuple(values), default, label, (), live, kind="number", fmt=fmt)


def _round(v: float) -> float:
    """Round to 6 significant digits so labels and keys are short and stable."""
    v = float(v)
    if v == 0:
        return 0.0
    return float(round(v, 5 - int(math.floor(math.log10(abs(v))))))
