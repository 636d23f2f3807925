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

from .. import _validate as check
from ..analysis import multistep
from ..analysis.stability import StabilityFunction, stability_function
from ..tableau import ButcherTableau

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
    if ax is None:
        import matplotlib.pyplot as plt
        _, ax = plt.subplots(figsize=(5, 4.5))
    return ax


def _limits(name: str, lim, default) -> tuple[float, float]:
    return default if lim is None else check.interval(name, lim)


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


def plot_stability_region(tableau_or_R, ax=None, *, xlim=None, ylim=None, n: int = 401,
                          color: str = "C0", label: str | None = None,
                          alpha: float = 0.35) -> RegionPlot:
    """Fill ``{z : |R(z)| <= 1}`` on an ``n`` x ``n`` grid and draw ``|R| = 1``.

    ``tableau_or_R`` is a tableau, a method name (``"rk4"``) or any callable
    ``R(z)`` accepting complex arrays.  Default window: ``[-5, 2] x [-4, 4]``
    for explicit methods, ``[-5, 5] x [-5, 5]`` otherwise.
    Example: ``plot_stability_region("rk4").mask.mean()`` is the stable
    fraction of the window.
    """
    if isinstance(tableau_or_R, (str, ButcherTableau)):
        R = stability_function(tableau_or_R)
    elif callable(tableau_or_R):
        R = tableau_or_R
    else:
        raise TypeError("tableau_or_R must be a ButcherTableau, a method name or a callable R(z)")
    explicit = isinstance(R, StabilityFunction) and R.tableau.is_explicit
    xlim = _limits("xlim", xlim, (-5.0, 2.0) if explicit else (-5.0, 5.0))
    ylim = _limits("ylim", ylim, (-4.0, 4.0) if explicit else (-5.0, 5.0))
    n = check.integer("n", n, 11, 4001)
    check.positive("alpha", alpha)
    ax = _axes(ax)
    x, y, Z = _grid(xlim, ylim, n)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        absR = np.abs(np.asarray(R(Z)))
    fill, line = _draw(ax, x, y, absR, color, label, alpha)
    return RegionPlot(ax, fill, line, x, y, absR <= 1.0)


def plot_bdf_region(k: int, ax=None, *, xlim=None, ylim=None, n: int = 301,
                    color: str = "C1", label: str | None = None,
                    alpha: float = 0.35) -> RegionPlot:
    """Fill the stability region of BDF-k and draw its boundary locus.

    Membership is decided point by point from the roots of
    ``rho(zeta) - z sigma(zeta)`` (all ``|zeta| <= 1``), not from the locus,
    so the picture is right even where the locus loops; the region is the
    exterior of the locus.  The default window is the locus' bounding box
    padded by 30 %.  Example: ``plot_bdf_region(2)``.
    """
    k = check.integer("k", k, 1, 6)
    rho, sigma = multistep.bdf_polynomials(k)
    locus = multistep.boundary_locus(rho, sigma)
    pad_x = 0.3 * (np.ptp(locus.real) + 1.0)
    pad_y = 0.3 * (np.ptp(locus.imag) + 1.0)
    xlim = _limits("xlim", xlim, (locus.real.min() - pad_x, locus.real.max() + pad_x))
    ylim = _limits("ylim", ylim, (locus.imag.min() - pad_y, locus.imag.max() + pad_y))
    n = check.integer("n", n, 11, 2001)
    check.positive("alpha", alpha)
    ax = _axes(ax)
    x, y, Z = _grid(xlim, ylim, n)
    mod = multistep.max_root_modulus(rho, sigma, Z)
    fill, _ = _draw(ax, x, y, mod, color, None, alpha, contour=False)
    (line,) = ax.plot(locus.real, locus.imag, color=color, lw=1.0,
                      label=label if label is not None else f"BDF{k}")
    return RegionPlot(ax, fill, line, x, y, mod <= 1.0)
