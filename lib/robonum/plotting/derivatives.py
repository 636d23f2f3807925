"""Error of difference quotients against the step h, on log-log axes.

Draws a :func:`robonum.finite_diff.error_vs_h` sweep: one line per scheme.
On log-log axes the truncation error is a line of slope p (1 forward, 2
central and complex step) and the rounding error of a difference a line of
slope -1 (``~ ε/h``); the V between them has its bottom near ``h*``.
Reference: Nocedal & Wright, *Numerical Optimization* (2nd ed., 2006), sec. 8.1;
Martins, Sturdza & Alonso, ACM TOMS 29(3), 2003, fig. 2 (the same plot).

matplotlib is imported only when a plot is made (``import robonum`` stays light).
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .. import _validate as check
from ..finite_diff import EPS, HS_MAX

_CURVES_MAX = 20    # one line per scheme; more than this is not a readable plot


def _curve(name: str, values, size: int) -> np.ndarray:
    y = check.real_array(name, values, ndim=1, max_size=HS_MAX)
    if y.size != size:
        raise ValueError(f"{name} must have one entry per step ({size}), got {y.size}")
    return y


def _checked_sweep(sweep) -> tuple[np.ndarray, list]:
    """The steps and ``(label, errors)`` pairs of a sweep, each validated."""
    if not isinstance(sweep, Mapping):
        raise TypeError(f"sweep must be a dict from error_vs_h ({{'h': steps, scheme: errors}}), "
                        f"got {type(sweep).__name__}")
    if "h" not in sweep:
        raise ValueError("sweep must have an 'h' entry (the steps)")
    h = check.real_array("sweep['h']", sweep["h"], ndim=1, max_size=HS_MAX)
    if np.any(h <= 0.0):
        raise ValueError("sweep['h'] must hold steps > 0 (a log axis cannot show 0)")
    curves = []
    for key, values in sweep.items():
        if key == "h":
            continue
        if not isinstance(key, str) or not key or key.startswith("_"):
            # matplotlib silently hides labels that start with "_" from the legend
            raise TypeError(f"sweep keys must be non-empty strings not starting with '_', got {key!r}")
        err = _curve(f"sweep[{key!r}]", values, h.size)
        if np.any(err < 0.0):
            raise ValueError(f"sweep[{key!r}] holds errors, which must be >= 0")
        curves.append((key, err))
    if not curves:
        raise ValueError("sweep must hold at least one error curve besides 'h'")
    if len(curves) > _CURVES_MAX:
        raise ValueError(f"sweep has {len(curves)} curves; at most {_CURVES_MAX} are drawn")
    return h, curves


def plot_error_vs_h(sweep, ax=None, *, floor: float = EPS / 8):
    """Log-log plot of an :func:`~robonum.finite_diff.error_vs_h` result; returns ``(ax, lines)``.

    ``sweep`` is ``{"h": steps, name: errors, ...}``; every error array has one
    entry per step, all finite and ``>= 0``.  Errors below ``floor`` (including
    exact zeros, common for the complex step) are drawn at ``floor`` because a
    log axis cannot show 0.  ``ax=None`` makes a new figure.
    """
    h, curves = _checked_sweep(sweep)
    floor = check.positive("floor", floor)
    if ax is None:
        import matplotlib.pyplot as plt
        _, ax = plt.subplots()
    else:
        from matplotlib.axes import Axes
        if not isinstance(ax, Axes):
            raise TypeError(f"ax must be a matplotlib Axes or None, got {type(ax).__name__}")
    lines = []
    for name, err in curves:
        lines += ax.loglog(h, np.maximum(err, floor), "o-", ms=3, label=name)
    ax.set_xlabel("h")
    ax.set_ylabel("max |J_h - J|")
    ax.legend()
    return ax, lines
