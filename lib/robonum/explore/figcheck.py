"""Does a frame show what it draws?  A check for plotted data outside the axes and text outside the figure.

Two slips a reader sees at once and a test of messages never does:

* a line, a set of markers or a collection that should be visible lies
  (partly) outside its axes' view limits -- a cloud of points that left the
  window, a curve that ran off the top -- so the picture contradicts the
  message beside it;
* a title, an axis label or a tick label runs past the figure's edge.

:func:`problems` draws the figure once (Agg) and lists both, in words.  An
artist that may leave the axes on purpose (a diverging run, clipped at a
limit the message names) is marked with :func:`may_leave`: the exemption is
written where the figure is drawn, not in the test.
"""

from __future__ import annotations

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import Collection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

_MAY_LEAVE = "_rn_may_leave"
_SLACK_PX = 1.0  # anti-aliasing: a glyph's box may touch the edge


def may_leave(*artists):
    """Mark artists (lines, collections) whose data may leave the axes on purpose; returns them."""
    for artist in artists:
        setattr(artist, _MAY_LEAVE, True)
    return artists[0] if len(artists) == 1 else artists


def _shown_points(artist) -> np.ndarray:
    """(n, 2) display coordinates of a line's or collection's finite data points.

    Each through the artist's own transform, so a reference line in axes
    coordinates (``axhline``) is where it is drawn, not read as data.
    """
    if isinstance(artist, Line2D):
        xy = np.column_stack([np.asarray(d, dtype=float) for d in artist.get_data()])
        transform = artist.get_transform()
    elif isinstance(artist, Collection):
        offsets = np.asarray(artist.get_offsets(), dtype=float).reshape(-1, 2)
        if artist.get_offset_transform() is not artist.axes.transData or not offsets.size:
            # not markers at data points (a filled band, a mesh): its paths' vertices
            paths = artist.get_paths()
            if not paths:
                return np.empty((0, 2))
            xy = np.concatenate([path.vertices for path in paths])
            transform = artist.get_transform()
        else:
            xy, transform = offsets, artist.get_offset_transform()
    else:
        return np.empty((0, 2))
    xy = xy[np.all(np.isfinite(xy), axis=1)]
    if not xy.size:
        return np.empty((0, 2))
    with np.errstate(all="ignore"):
        return transform.transform(xy)


def _outside(ax, shown: np.ndarray) -> int:
    """How many display points lie outside the axes (log axes work: it is display space)."""
    box = ax.bbox
    out = ~np.isfinite(shown).all(axis=1) | (
        (shown[:, 0] < box.x0 - _SLACK_PX)
        | (shown[:, 0] > box.x1 + _SLACK_PX)
        | (shown[:, 1] < box.y0 - _SLACK_PX)
        | (shown[:, 1] > box.y1 + _SLACK_PX)
    )
    return int(np.count_nonzero(out))


def _name(ax, artist) -> str:
    label = artist.get_label()
    what = type(artist).__name__ + (f" {label!r}" if label and not label.startswith("_") else "")
    title = ax.get_title() or ax.get_ylabel() or f"axes {ax.figure.axes.index(ax)}"
    return f"{what} in {title!r}"


def _texts(fig: Figure, renderer):
    """(what, window box) of every text a reader reads: titles, labels, legends, tick labels."""
    texts = list(fig.texts) + ([fig._suptitle] if fig._suptitle is not None else [])
    for ax in fig.axes:
        texts += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label]
        texts += list(ax.texts)
        legend = ax.get_legend()
        if legend is not None:
            texts += list(legend.get_texts())
    for text in texts:
        if text.get_visible() and text.get_text().strip():
            yield repr(text.get_text()), text.get_window_extent(renderer)
    for ax in fig.axes:  # tick labels: the ones drawn, which the axes' tight box holds
        if ax.get_visible():
            yield f"a tick label of {ax.get_title() or 'an axes'!r}", ax.get_tightbbox(renderer)


def problems(fig: Figure, *, draw: bool = True) -> list[str]:
    """What a reader would see wrong in ``fig``: data outside its axes, text outside the figure.

    ``draw=False``: ``fig`` has just been drawn on its Agg canvas (as
    :func:`.render.encode` does for every frame); its boxes are read from that drawing.
    """
    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    if draw:
        canvas.draw()
    renderer = canvas.get_renderer()
    found = []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        for artist in list(ax.lines) + list(ax.collections):
            if not artist.get_visible() or getattr(artist, _MAY_LEAVE, False):
                continue
            shown = _shown_points(artist)
            n = _outside(ax, shown) if shown.size else 0
            if n:
                found.append(f"{_name(ax, artist)}: {n} of {len(shown)} points outside the axes")
    frame = fig.bbox
    for what, box in _texts(fig, renderer):
        if (
            box.x0 < frame.x0 - _SLACK_PX
            or box.x1 > frame.x1 + _SLACK_PX
            or box.y0 < frame.y0 - _SLACK_PX
            or box.y1 > frame.y1 + _SLACK_PX
        ):
            found.append(f"text {what} runs past the figure's edge")
    return found
