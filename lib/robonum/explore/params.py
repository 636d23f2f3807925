"""Parameters of an exploration: a name, the values a slider offers, a default.

The static page pre-renders one frame per value (or per combination), so a
parameter holds a *finite* list of values.  The live Jupyter view may offer a
finer list (``live_values``), since a kernel recomputes on every move.
"""
from __future__ import annotations

from dataclasses import dataclass, field
import math
import numbers

import numpy as np

from .. import _validate as check


def _default_format(v) -> str:
    if isinstance(v, numbers.Real) and not isinstance(v, bool):
        return f"{v:.4g}"
    return str(v)


@dataclass(frozen=True, eq=False)
class Param:
    """One control.  ``values`` are what the static page offers.

    Use the constructors :meth:`choice`, :meth:`grid` and :meth:`geomgrid`
    rather than building one by hand.
    """

    name: str
    values: tuple
    default: object
    label: str = ""
    labels: tuple = ()
    live_values: tuple = field(default=())

    def __post_init__(self):
        if not (isinstance(self.name, str) and self.name.isidentifier()):
            raise ValueError(f"name must be a Python identifier (it is passed as a keyword), got {self.name!r}")
        if len(self.values) < 2:
            raise ValueError(f"parameter {self.name!r}: values needs at least 2 entries, got {len(self.values)}")
        if len(set(map(repr, self.values))) != len(self.values):
            raise ValueError(f"parameter {self.name!r}: values must be distinct")
        if self.default not in self.values:
            raise ValueError(f"parameter {self.name!r}: default {self.default!r} must be one of values {list(self.values)}")
        if self.labels and len(self.labels) != len(self.values):
            raise ValueError(f"parameter {self.name!r}: labels must match values one to one")
        object.__setattr__(self, "label", self.label or self.name)
        if not self.labels:
            object.__setattr__(self, "labels", tuple(_default_format(v) for v in self.values))
        if not self.live_values:
            object.__setattr__(self, "live_values", self.values)

    @property
    def default_index(self) -> int:
        return self.values.index(self.default)

    def text(self, value) -> str:
        """How ``value`` is shown next to the slider."""
        if value in self.values:
            return self.labels[self.values.index(value)]
        return _default_format(value)

    # -- constructors ------------------------------------------------------
    @classmethod
    def choice(cls, name: str, options, default=None, label: str = "") -> "Param":
        """Categorical values, e.g. ``Param.choice("method", {"euler": "오일러", "rk4": "RK4"})``.

        ``options`` is a list of values or a dict value -> display label.
        """
        if isinstance(options, dict):
            values, labels = tuple(options), tuple(str(x) for x in options.values())
        else:
            values, labels = tuple(options), ()
        return cls(name, values, values[0] if default is None else default, label, labels)

    @classmethod
    def grid(cls, name: str, lo: float, hi: float, n: int, default=None, label: str = "",
             n_live: int | None = None) -> "Param":
        """``n`` equally spaced values on ``[lo, hi]`` (``n_live`` for the live slider)."""
        return cls._spaced(name, lo, hi, n, default, label, n_live, np.linspace)

    @classmethod
    def geomgrid(cls, name: str, lo: float, hi: float, n: int, default=None, label: str = "",
                 n_live: int | None = None) -> "Param":
        """``n`` log-spaced values on ``[lo, hi]`` (both > 0), for step sizes and tolerances."""
        check.positive(f"{name}: lo", lo)
        return cls._spaced(name, lo, hi, n, default, label, n_live, np.geomspace)

    @classmethod
    def _spaced(cls, name, lo, hi, n, default, label, n_live, space):
        lo, hi = check.real(f"{name}: lo", lo), check.real(f"{name}: hi", hi)
        if not lo < hi:
            raise ValueError(f"parameter {name!r}: need lo < hi, got {lo}, {hi}")
        n = check.integer(f"{name}: n", n, 2, 200)
        values = tuple(float(_round(v)) for v in space(lo, hi, n))
        if default is None:
            default = values[n // 2]
        else:  # snap to the nearest grid value so the static page has it
            default = min(values, key=lambda v: abs(v - check.real(f"{name}: default", default)))
        live = ()
        if n_live is not None:
            n_live = check.integer(f"{name}: n_live", n_live, 2, 1000)
            live = tuple(sorted(set(float(_round(v)) for v in space(lo, hi, n_live)) | set(values)))
        return cls(name, values, default, label, (), live)


def _round(v: float) -> float:
    """Round to 6 significant digits so labels and keys are short and stable."""
    if v == 0:
        return 0.0
    return round(v, 5 - int(math.floor(math.log10(abs(v)))))
