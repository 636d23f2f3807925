"""The eigenvalues of a Jacobian, scaled by the step (``z = hλ``), over stability regions.

Locally ``y' ≈ J y``; a step ``h`` is stable for the linearisation when
every ``z_i = h λ_i`` lies in the method's stability region (Hairer &
Wanner, *Solving ODEs II*, sec. IV.2).  :func:`stable_step_limit` computes the
largest such ``h``; :func:`plot_eigenvalues` draws the points ``h λ_i``
over the regions of one or more methods (the first filled, the others
lighter), marking points outside the first method's region.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from .. import _validate as check
from .. import methods as catalogue
from .regions import RegionPlot, _draw, _grid, _region_values, plot_stability_region

MAX_EIGENVALUES = 1000
Z_MAX = 1e6  # |z| beyond which a region counts as unbounded along a ray
_TOL = 1e-10  # |R| <= 1 + _TOL counts as stable (|R| = 1 exactly on the imaginary axis)
_SAMPLES = 2000  # geometric samples of |z| in [1e-8, Z_MAX] before refinement
# |λ| <= ZERO max|λ| counts as a zero eigenvalue.  A zero of a 2x2 Jordan block (a free
# body: position and velocity) comes out of eig as a pair ±c sqrt(eps) max|λ|, not 0
# (two free masses joined by a spring, in a rotated basis: ±1.3e-8 max|λ|), and its
# positive member would give h = 0 for every explicit method (tests).
ZERO = 1e-6


def _eigenvalues(lam) -> np.ndarray:
    """``lam`` as a finite complex 1-D array (real input allowed), at most 1000 entries."""
    if isinstance(lam, (bool, np.bool_)) or isinstance(lam, (str, bytes)):
        raise TypeError(f"eigenvalues must be numbers, got {type(lam).__name__}")
    try:
        arr = np.atleast_1d(np.asarray(lam, dtype=complex))
    except (TypeError, ValueError) as exc:
        raise TypeError(f"eigenvalues must be real or complex numbers ({exc})") from None
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"eigenvalues must be a non-empty 1-D array, got shape {arr.shape}")
    if arr.size > MAX_EIGENVALUES:
        raise ValueError(
            f"eigenvalues has {arr.size:,} entries; at most {MAX_EIGENVALUES:,} are allowed"
        )
    if not np.all(np.isfinite(arr)):
        raise ValueError("eigenvalues must be finite (no NaN or inf)")
    return arr


def _amplification(method):
    """``|R(z)|`` (Runge-Kutta) or the largest root modulus (multistep) as a vectorised function."""
    value = _region_values(method, None, None)[0]
    return lambda z: np.asarray(value(np.asarray(z, dtype=complex)), dtype=float)


def _ray_limit(amp, direction: complex) -> float:
    """Largest ``r`` with ``amp(s·direction) <= 1`` for every ``s`` in ``(0, r]`` (inf if ``Z_MAX``)."""
    s = np.geomspace(1e-8, Z_MAX, _SAMPLES)
    with np.errstate(all="ignore"):
        bad = ~(amp(s * direction) <= 1.0 + _TOL)  # NaN (a pole) counts as unstable
    if not bad.any():
        return float("inf")
    i = int(np.argmax(bad))
    if i == 0:
        return 0.0
    lo, hi = s[i - 1], s[i]
    for _ in range(6):  # the bracket shrinks 63-fold per round: 0.7 % -> ~1e-13
        grid = np.linspace(lo, hi, 64)
        with np.errstate(all="ignore"):
            bad = ~(amp(grid * direction) <= 1.0 + _TOL)
        j = int(np.argmax(bad)) if bad.any() else 63
        lo, hi = grid[max(j - 1, 0)], grid[j]
    return float(lo)


def stable_step_limit(method, eigenvalues) -> float:
    """Largest ``h`` such that ``h λ_i`` is in the stability region of ``method`` for every ``i``.

    Along each ray ``z = s λ_i/|λ_i|`` the region is followed outward from
    ``z = 0`` to its first boundary crossing ``s_i`` (sampled geometrically
    on ``|z|`` in [1e-8, 1e6], then refined to about 1e-13 relative), and
    ``h = min_i s_i / |λ_i|``.  Zero eigenvalues (``|λ| <= 1e-6 max|λ|``, since
    eig returns a double zero of a free body as ``±c sqrt(eps) max|λ|``; :data:`ZERO`)
    impose nothing; a ray that stays inside up to ``|z| = 1e6`` (A-stable
    methods) imposes nothing either, and with no constraint at all the result
    is ``inf``.  A mode with ``Re λ > 0`` grows in the exact solution too; for
    most methods it gives ``h ≈ 0`` here.  An unstable island narrower than
    1.6 % of ``|z|`` between samples could be missed.

    ``method``: a catalogue name or method object (Runge-Kutta or linear
    multistep); ``eigenvalues``: finite real or complex numbers (at most 1000).
    Example: ``stable_step_limit("rk4", [-1000.0])`` is ``2.7853e-3``.
    """
    lam = _eigenvalues(eigenvalues)
    amp = _amplification(method)
    size = np.abs(lam)
    lam = lam[size > ZERO * size.max()]
    # R has real coefficients, so a conjugate pair has one limit: keep Im >= 0 once
    lam = np.unique(lam.real + 1j * np.abs(lam.imag))
    limit = float("inf")
    for value in lam:
        r = abs(value)
        limit = min(limit, _ray_limit(amp, complex(value / r)) / r)
    return limit


@dataclass
class EigenvaluePlot:
    """What :func:`plot_eigenvalues` drew and decided.

    ``regions``: one :class:`RegionPlot` per method; ``points``: the marker
    artists (inside, outside the first method's region) and the list of edge
    arrows for points outside the window; ``z = h λ``;
    ``stable[label]``: per point, whether it lies in that method's region.
    """

    ax: object
    regions: list
    points: tuple
    z: np.ndarray
    stable: dict


@functools.lru_cache(maxsize=16)
def _rk_grid(key: str, xlim: tuple, ylim: tuple, n: int):
    """``(x, y, |R|)`` on the plotting grid of a catalogue RK method (frames of one window share it)."""
    x, y, Z = _grid(xlim, ylim, n)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        v = _region_values(key, None, None)[0](Z)
    v.setflags(write=False)
    return x, y, v


def _region(method, ax, xlim, ylim, n, color, label, alpha) -> RegionPlot:
    """``plot_stability_region``, with the grid of a named RK method computed once per window."""
    if isinstance(method, str) and catalogue.get(method).family == "rk":
        n = check.integer("n", n, 11, 801)
        x, y, v = _rk_grid(method.lower(), tuple(xlim), tuple(ylim), n)
        fill, line = _draw(ax, x, y, v, color, label, alpha)
        return RegionPlot(ax, fill, line, x, y, v <= 1.0)
    return plot_stability_region(
        method, ax, xlim=xlim, ylim=ylim, n=n, color=color, label=label, alpha=alpha
    )


def _window(z, xlim, ylim):
    if xlim is None:
        lo, hi = min(-4.0, 1.15 * z.real.min()), max(1.5, 1.15 * z.real.max())
        xlim = (lo, hi)
    if ylim is None:
        top = max(3.5, 1.15 * np.abs(z.imag).max())
        ylim = (-top, top)
    return check.interval("xlim", xlim), check.interval("ylim", ylim)


def plot_eigenvalues(
    eigenvalues,
    h,
    methods=("rk4",),
    ax=None,
    *,
    xlim=None,
    ylim=None,
    n: int = 301,
    colors=None,
    labels=None,
) -> EigenvaluePlot:
    """Draw ``z = h λ_i`` over the stability regions of ``methods``.

    The first method's region is filled (alpha 0.35), the others lightly
    (alpha 0.12); points inside the first region are black dots, points
    outside are red crosses.  The default window holds every point and at
    least ``[-4, 1.5] x [-3.5, 3.5]`` (where RK4's region lives); with a
    window given, points beyond it are drawn as arrows on its edge,
    labelled with ``|z|``.  The window must contain ``z = 0``.
    ``h`` > 0 (finite); ``methods``: 1 to 4 Runge-Kutta or multistep methods;
    ``n`` <= 801 grid points per axis; ``colors``/``labels``: one per method
    (labels default to the method names).  Returns an :class:`EigenvaluePlot`.
    """
    lam = _eigenvalues(eigenvalues)
    h = check.positive("h", h)
    if isinstance(methods, str) or not isinstance(methods, (list, tuple)):
        methods = (methods,)
    if not 1 <= len(methods) <= 4:
        raise ValueError(f"methods must hold 1 to 4 methods, got {len(methods)}")
    colors = list(colors) if colors is not None else [f"C{i}" for i in range(len(methods))]
    labels = list(labels) if labels is not None else [str(getattr(m, "name", m)) for m in methods]
    if len(colors) != len(methods) or len(labels) != len(methods):
        raise ValueError("colors and labels must have one entry per method")
    for lab in labels:
        check.text("label", lab)
    with np.errstate(over="ignore", invalid="ignore"):
        z = h * lam
    if not np.all(np.isfinite(z)):
        raise ValueError("h * eigenvalues overflows; use a smaller h")
    xlim, ylim = _window(z, xlim, ylim)
    if not (xlim[0] <= 0.0 <= xlim[1] and ylim[0] <= 0.0 <= ylim[1]):
        raise ValueError(f"the window must contain z = 0, got xlim = {xlim}, ylim = {ylim}")
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(5, 4.5))
    regions, stable = [], {}
    for i, (m, color, lab) in enumerate(zip(methods, colors, labels)):
        regions.append(_region(m, ax, xlim, ylim, n, color, lab, 0.35 if i == 0 else 0.12))
        with np.errstate(all="ignore"):
            stable[lab] = _amplification(m)(z) <= 1.0 + _TOL
    first = stable[labels[0]]
    shown = (z.real >= xlim[0]) & (z.real <= xlim[1]) & (z.imag >= ylim[0]) & (z.imag <= ylim[1])
    inside = ax.plot(z.real[first & shown], z.imag[first & shown], "o", color="k", ms=5, zorder=5)[
        0
    ]
    outside = ax.plot(
        z.real[~first & shown], z.imag[~first & shown], "x", color="C3", ms=8, mew=2, zorder=6
    )[0]
    arrows = [
        _edge_arrow(ax, zi, xlim, ylim, "k" if ok else "C3")
        for zi, ok, vis in zip(z, first, shown)
        if not vis
    ]
    return EigenvaluePlot(ax, regions, (inside, outside, arrows), z, stable)


def _edge_arrow(ax, z: complex, xlim, ylim, color):
    """An arrow on the window's edge pointing toward ``z`` (outside the window), labelled ``|z|``."""
    # largest s with s·z inside the window (0 is inside: every window here contains it)
    bounds = [
        b / c
        for b, c in ((xlim[0], z.real), (xlim[1], z.real), (ylim[0], z.imag), (ylim[1], z.imag))
        if c != 0 and b / c > 0
    ]
    s = 0.97 * min(bounds)
    tip = s * z
    tail = 0.8 * tip
    return ax.annotate(
        f"|z| = {abs(z):.3g}",
        xy=(tip.real, tip.imag),
        xytext=(tail.real, tail.imag),
        color=color,
        fontsize=8,
        ha="center",
        va="center",
        zorder=7,
        arrowprops=dict(arrowstyle="->", color=color, lw=1.5),
    )


__all__ = ["stable_step_limit", "plot_eigenvalues", "EigenvaluePlot", "RegionPlot"]
