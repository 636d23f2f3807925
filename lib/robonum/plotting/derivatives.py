"""Error of difference quotients against the step h, on log-log axes.

Draws a :func:`robonum.finite_diff.error_vs_h` sweep, one line per scheme
(:func:`plot_error_vs_h`), and the lines of an error model (:func:`plot_error_model`).
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

_CURVES_MAX = 20  # one line per scheme; more than this is not a readable plot


def _curve(name: str, values, size: int) -> np.ndarray:
    y = check.real_array(name, values, ndim=1, max_size=HS_MAX)
    if y.size != size:
        raise ValueError(f"{name} must have one entry per step ({size}), got {y.size}")
    return y


def _checked_sweep(sweep) -> tuple[np.ndarray, list]:
    """The steps and ``(label, errors)`` pairs of a sweep, each validated."""
    if not isinstance(sweep, Mapping):
        raise TypeError(
            f"sweep must be a dict from error_vs_h ({{'h': steps, scheme: errors}}), "
            f"got {type(sweep).__name__}"
        )
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
            raise TypeError(
                f"sweep keys must be non-empty strings not starting with '_', got {key!r}"
            )
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


def plot_error_model(model, ax=None, *, color: str = "0.4", labels=None, parts: bool = True):
    """Dashed truncation and dotted rounding lines of an :func:`~robonum.finite_diff.error_model`
    result, and a diamond at its ``(h_opt, e_opt)``; returns ``(ax, lines)``.

    On log-log axes the truncation line has slope 1 (forward) or 2, the rounding
    line slope -1 (flat for the complex step); they cross near the balance point.
    ``labels``: ``None`` (no legend entries) or two strings (truncation, rounding).
    ``parts=False`` draws their sum as one dashed line instead (``labels`` then unused).
    """
    if not isinstance(model, Mapping) or not {"h", "truncation", "rounding"} <= set(model):
        raise TypeError("model must be the dict returned by robonum.finite_diff.error_model")
    h = check.real_array("model['h']", model["h"], ndim=1, max_size=HS_MAX)
    if np.any(h <= 0.0):
        raise ValueError("model['h'] must hold steps > 0")
    trunc = _curve("model['truncation']", model["truncation"], h.size)
    rnd = _curve("model['rounding']", model["rounding"], h.size)
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots()
    else:
        from matplotlib.axes import Axes

        if not isinstance(ax, Axes):
            raise TypeError(f"ax must be a matplotlib Axes or None, got {type(ax).__name__}")
    if labels is None:
        labels = (None, None)
    elif (
        isinstance(labels, str)
        or not isinstance(labels, (tuple, list))
        or len(labels) != 2
        or not all(isinstance(t, str) for t in labels)
    ):
        raise TypeError("labels must be None or two strings (truncation, rounding)")
    parts = check.boolean("parts", parts)
    tiny = np.finfo(float).tiny
    if parts:
        lines = ax.loglog(h, np.maximum(trunc, tiny), "--", color=color, lw=1, label=labels[0])
        lines += ax.loglog(h, np.maximum(rnd, tiny), ":", color=color, lw=1.3, label=labels[1])
    else:
        lines = ax.loglog(h, np.maximum(trunc + rnd, tiny), "--", color=color, lw=1)
    h_opt, e_opt = model.get("h_opt"), model.get("e_opt")
    if h_opt is not None and e_opt is not None and h.min() <= h_opt <= h.max():
        lines += ax.loglog([h_opt], [e_opt], "D", color=color, ms=5)
    return ax, lines
