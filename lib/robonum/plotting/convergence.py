"""Error against step size and against work, from :class:`robonum.ConvergenceStudy` objects.

Both plots read the runs a study kept, so nothing is integrated twice: the
error-vs-h plot shows the slopes (orders), the work-precision plot shows
what a given accuracy costs in ``f`` evaluations (Hairer-Norsett-Wanner I,
sec. II.10 uses the same diagrams).
"""

from __future__ import annotations

import numpy as np

from .. import _validate as check
from ..convergence import ConvergenceStudy
from .regions import _axes


def _studies(studies) -> list[ConvergenceStudy]:
    if isinstance(studies, ConvergenceStudy):
        return [studies]
    out = list(studies) if isinstance(studies, (list, tuple)) else None
    if not out or not all(isinstance(s, ConvergenceStudy) for s in out):
        raise TypeError(
            "studies must be a ConvergenceStudy or a non-empty list of them "
            "(from rn.convergence_study)"
        )
    return out


def _labels(labels, studies) -> list[str]:
    if labels is None:
        return [s.method for s in studies]
    labels = list(labels) if isinstance(labels, (list, tuple)) else None
    if labels is None or len(labels) != len(studies) or not all(isinstance(x, str) for x in labels):
        raise TypeError(f"labels must be a list of {len(studies)} strings, one per study")
    return labels


def _drawable(errors) -> np.ndarray:
    """Where an error can sit on a log axis: finite (a failed run is inf) and positive."""
    return np.isfinite(errors) & (errors > 0)


def plot_convergence(studies, ax=None, *, labels=None, slopes=()) -> tuple:
    """Log-log error at ``t1`` against the step actually used, one line per study.

    ``slopes``: reference orders drawn as dotted lines through the last point
    of the study with that order (e.g. ``slopes=(1, 4)``).  Failed runs
    (infinite error) are left out of the line.  Returns ``(ax, lines)``.
    """
    studies = _studies(studies)
    names = _labels(labels, studies)
    ax = _axes(ax)
    lines = []
    for s, name in zip(studies, names):
        ok = _drawable(s.errors)
        lines += ax.loglog(s.h[ok], s.errors[ok], "o-", ms=4, label=name)
    if isinstance(slopes, (str, bytes)) or not hasattr(slopes, "__iter__"):
        raise TypeError(f"slopes must be a sequence of orders, got {type(slopes).__name__}")
    for p in slopes:
        p = check.real("slopes", p, 0.5, 10)
        best = min(studies, key=lambda s: abs(s.fitted_order() - p))
        ok = _drawable(best.errors)
        h, e = best.h[ok], best.errors[ok]
        lines += ax.loglog(h, e[-1] * (h / h[-1]) ** p, "k:", lw=1)
        ax.annotate(
            f"slope {p:g}",
            (h[0], e[-1] * (h[0] / h[-1]) ** p),
            textcoords="offset points",
            xytext=(4, 0),
            fontsize="small",
        )
    ax.set_xlabel("h")
    ax.set_ylabel("error at t1")
    ax.legend()
    return ax, lines


def plot_work_precision(studies, ax=None, *, labels=None) -> tuple:
    """Log-log error at ``t1`` against ``nfev`` of each kept run; returns ``(ax, lines)``."""
    studies = _studies(studies)
    names = _labels(labels, studies)
    ax = _axes(ax)
    lines = []
    for s, name in zip(studies, names):
        ok = _drawable(s.errors)
        lines += ax.loglog(s.nfev[ok], s.errors[ok], "o-", ms=4, label=name)
    ax.set_xlabel("nfev")
    ax.set_ylabel("error at t1")
    ax.legend()
    return ax, lines
