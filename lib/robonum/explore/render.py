"""Render one frame: call the user's function, never let it crash the page.

A frame is ``(png_bytes, message)``.  The user's function returns a figure,
or ``(figure, message)``; bad parameter combinations raise ``ValueError``
(or any robonum error) and become a frame that *shows* the message, and
numpy/matplotlib warnings are collected into one line instead of a flood.
"""
from __future__ import annotations

import io
import textwrap
import warnings

import numpy as np
from matplotlib.figure import Figure

from ..errors import RobonumError


def new_figure(width: float = 6.4, height: float = 3.6, **kwargs) -> Figure:
    """A figure that pyplot does not track, so a notebook cell never shows it twice."""
    return Figure(figsize=(width, height), **kwargs)


def message_figure(text: str, width: float = 6.4, height: float = 3.6) -> Figure:
    """A figure that only shows ``text``: used when a frame cannot be drawn."""
    fig = new_figure(width, height)
    fig.text(0.5, 0.5, "\n".join(textwrap.wrap(text, 60)), ha="center", va="center",
             fontsize=11, color="#a00000", wrap=True)
    return fig


def _png(fig: Figure, dpi: int) -> bytes:
    buf = io.BytesIO()
    # No "Software" metadata: the bytes then depend only on the drawing.
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
    return buf.getvalue()


def render_frame(func, values: dict, dpi: int, size: tuple[float, float]) -> tuple[bytes, str]:
    """``(png, message)`` for ``func(**values)``."""
    with warnings.catch_warnings(record=True) as caught, np.errstate(all="ignore"):
        warnings.simplefilter("always")
        try:
            out = func(**values)
        except (ValueError, ArithmeticError, RobonumError) as exc:
            return _png(message_figure(str(exc), *size), dpi), str(exc)
    fig, message = (out if isinstance(out, tuple) else (out, ""))
    if not isinstance(fig, Figure):
        raise TypeError(f"the exploration function must return a matplotlib Figure "
                        f"(or (Figure, message)), got {type(fig).__name__}")
    if caught:
        first = str(caught[0].message).splitlines()[0]
        note = f"numerical warning ({len(caught)}x): {first}"
        message = f"{message}; {note}" if message else note
    try:
        return _png(fig, dpi), str(message)
    finally:
        if hasattr(fig, "number"):  # made by pyplot: release it, or the cell shows it again
            import matplotlib.pyplot as plt
            plt.close(fig)
