"""Pictures of stability regions (Runge-Kutta and BDF), convention z = h lambda.

Labels are English/mathematical only (``Re z``, ``Im z``); the book adds its
own titles.  Each function takes ``ax=None`` (a new figure is made) and
returns a :class:`RegionPlot` holding the artists it drew.

Reference: Hairer & Wanner, *Solving ODEs II*, sec. IV.2 (RK regions) and
sec. V.1 (BDF regions, boundary locus).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.colors import is_color_like

from .. import _validate as check
from .. import methods

_CLIP = 10.0  # |R| values above this are drawn alike; keeps contour levels sane near poles


@dataclass
class RegionPlot:
    """Artists of a region plot: the axes, the filled region, the boundary.

    ``boundary`` is the ``|R| = 1`` contour for RK methods and the boundary
    locus line for BDF; ``mask`` is the boolean stability grid that was drawn
    on ``x`` (real parts) by ``y`` (imaginary parts).
    """

    ax: object
    fill: object
    boundary: object
    x: np.ndarray
    y: np.ndarray
    mask: np.ndarray


def _axes(ax):
    """The given axes, or new ones (pyplot imported only now: ``import robonum`` stays light)."""
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(5, 4.5))
    elif not hasattr(ax, "contourf"):
        raise TypeError(f"ax must be a matplotlib Axes or None, got {type(ax).__name__}")
    return ax


MAX_WINDOW = 1e6  # |z| far beyond any method's region; a wider grid only costs time


def _limits(name: str, lim, default) -> tuple[float, float]:
    """A window side: finite, increasing and at most MAX_WINDOW wide (wider shows no region)."""
    return default if lim is None else check.interval(name, lim, max_length=MAX_WINDOW)


def _grid(xlim, ylim, n):
    x = np.linspace(*xlim, n)
    y = np.linspace(*ylim, n)
    X, Y = np.meshgrid(x, y)
    return x, y, X + 1j * Y


def _draw(ax, x, y, value, color, label, alpha, contour=True):
    """Fill ``value <= 1`` and (optionally) draw the level-1 contour."""
    v = np.minimum(np.nan_to_num(value, nan=_CLIP, posinf=_CLIP), _CLIP)
    fill = ax.contourf(x, y, v, levels=[0.0, 1.0], colors=[color], alpha=alpha)
    line = ax.contour(x, y, v, levels=[1.0], colors=[color], linewidths=1.5) if contour else None
    ax.axhline(0.0, color="0.3", lw=0.6)
    ax.axvline(0.0, color="0.3", lw=0.6)
    ax.set_xlabel("Re z")
    ax.set_ylabel("Im z")
    ax.set_aspect("equal")
    if label is not None:
        # Contour sets have no legend handle: an empty polygon of the same colour stands in.
        ax.fill([], [], facecolor=color, edgecolor=color, alpha=alpha, label=label)
    return fill, line


MAX_N = 801  # grid points per axis: 801^2 complex evaluations stay under ~100 MB


def _region_values(method_or_R, xlim, ylim):
    """``(kind, evaluate, default xlim, default ylim)`` for a method object or a callable ``R``."""
    if isinstance(method_or_R, str) or type(method_or_R) in methods.METHOD_TYPES:
        m = methods.get(method_or_R)
        if m.family == "rk":
            R = m.stability_function()
            wide = not m.is_explicit
            return (
                lambda Z: np.abs(R(Z)),
                (-5.0, 5.0) if wide else (-5.0, 2.0),
                (-5.0, 5.0) if wide else (-4.0, 4.0),
                None,
            )
        if m.family == "lmm":
            locus = m.boundary_locus()
            finite = locus[np.isfinite(locus)]
            pad_x = 0.3 * (np.ptp(finite.real) + 1.0)
            pad_y = 0.3 * (np.ptp(finite.imag) + 1.0)
            return (
                m.max_root_modulus,
                (finite.real.min() - pad_x, finite.real.max() + pad_x),
                (finite.imag.min() - pad_y, finite.imag.max() + pad_y),
                locus,
            )
        raise ValueError(
            f"{m.name} is a splitting method: its stability is an interval in "
            "h*omega (method.stability_interval()), not a region of the z-plane"
        )
    if callable(method_or_R):
        return (lambda Z: np.abs(np.asarray(method_or_R(Z))), (-5.0, 5.0), (-5.0, 5.0), None)
    raise TypeError(
        "method must be a method name, a method object (ButcherTableau, LinearMultistep) "
        f"or a callable R(z); got {type(method_or_R).__name__}"
    )


def plot_stability_region(
    method,
    ax=None,
    *,
    xlim=None,
    ylim=None,
    n: int = 401,
    color: str = "C0",
    label: str | None = None,
    alpha: float = 0.35,
) -> RegionPlot:
    """Fill the stability region of ``method`` on an ``n`` x ``n`` grid and draw its boundary.

    * Runge-Kutta (a tableau or its name): ``{z : |R(z)| <= 1}`` and the contour ``|R| = 1``;
      default window ``[-5, 2] x [-4, 4]`` (explicit) or ``[-5, 5]^2`` (implicit).
    * Linear multistep (``"bdf3"`` ...): every root of ``rho(zeta) - z sigma(zeta)`` in the
      closed unit disc, decided point by point (right even where the boundary locus
      loops), and the locus drawn as the boundary; default window: the locus' box padded 30 %.
    * Any callable ``R(z)`` accepting complex arrays.
    ``n`` is at most 801.  Returns a :class:`RegionPlot`.
    Example: ``plot_stability_region("rk4").mask.mean()`` is the stable fraction of the window.
    """
    value, dx, dy, locus = _region_values(method, xlim, ylim)
    xlim = _limits("xlim", xlim, dx)
    ylim = _limits("ylim", ylim, dy)
    n = check.integer("n", n, 11, MAX_N)
    alpha = check.real("alpha", alpha, 0.0, 1.0)
    if not is_color_like(color):
        raise ValueError(
            f"color must be a matplotlib color ('C0', 'tab:red', '#1f77b4'), got {color!r:.40}"
        )
    if label is not None:
        check.text("label", label)
    ax = _axes(ax)
    x, y, Z = _grid(xlim, ylim, n)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        v = value(Z)
    fill, line = _draw(
        ax, x, y, v, color, label if locus is None else None, alpha, contour=locus is None
    )
    if locus is not None:
        (line,) = ax.plot(locus.real, locus.imag, color=color, lw=1.0, label=label)
    return RegionPlot(ax, fill, line, x, y, v <= 1.0)
