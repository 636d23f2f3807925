"""Render one frame: call the user's function, never let it crash the page.

A frame is ``(image_bytes, message)``, the message a
:class:`~robonum.explore.messages.Message` (a ``str`` with a kind).  The
user's function returns a figure, or ``(figure, message)``; bad parameter
combinations raise ``ValueError`` (or ``ArithmeticError``, or any robonum
error) and become a frame that *shows* the message (a warning), and
numpy/matplotlib warnings are collected into one line instead of a flood
(which makes the message a warning too).

Every frame of an exploration is drawn at one size in inches (so fonts in
points have one on-screen size and the page does not jump between frames),
with no text smaller than ``min_font`` points (legible on a phone), and
encoded as lossless WebP: a two-panel frame at twice the CSS resolution
(6.7x the pixels of the old 72-dpi PNG) measured 24 KB against the old
PNG's 20 KB, and a 2x PNG's 62 KB, with no lossy ringing around text.
"""

from __future__ import annotations

import io
import unicodedata
import warnings

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text
from PIL import Image

from .. import _validate as check
from ..errors import RobonumError
from . import figcheck
from .messages import combine, warning

FORMATS = {"webp": "image/webp", "png": "image/png"}
# Lossless; quality/method are compression effort.  On 1120x672 plot frames 80/4
# gave the smallest files of the settings tried (100/6 no smaller, 30x slower).
_WEBP = {"lossless": True, "quality": 80, "method": 4}
MESSAGE_BG, MESSAGE_FG = "#fdecea", "#8c1d18"
MAX_INCHES = 50.0  # a figure side: 50 in at 100 dpi is 5000 px, larger than any page shows


def new_figure(width: float = 6.4, height: float = 3.6, **kwargs) -> Figure:
    """A figure that pyplot does not track, so a notebook cell never shows it twice."""
    width = check.real("width", width, 0.5, MAX_INCHES)
    height = check.real("height", height, 0.5, MAX_INCHES)
    return Figure(figsize=(width, height), **kwargs)


def _advance(s: str, pt: float) -> float:
    """Rough width in points: East Asian wide glyphs ~1 em, others ~0.6 em (generous)."""
    return pt * sum(1.0 if unicodedata.east_asian_width(c) in "WF" else 0.6 for c in s)


def _fit(s: str, width_pt: float, pt: float) -> int:
    """How many leading characters of ``s`` fit in ``width_pt``."""
    total = 0.0
    for k, c in enumerate(s):
        total += _advance(c, pt)
        if total > width_pt:
            return k
    return len(s)


def wrap_lines(text: str, width_pt: float, pt: float) -> list[str]:
    """Greedy wrap at spaces; a word longer than a line (a long number, a path) is cut."""
    lines, line = [], ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if _advance(candidate, pt) <= width_pt:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = word
        while _advance(line, pt) > width_pt:
            k = max(1, _fit(line, width_pt, pt))
            lines.append(line[:k])
            line = line[k:]
    return lines + ([line] if line else [])


def message_figure(text: str, width: float = 6.4, height: float = 3.6) -> Figure:
    """A figure that only shows ``text`` on a pale red ground: used when a frame cannot be drawn."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str (the message to show), got {type(text).__name__}")
    fig = new_figure(width, height, facecolor=MESSAGE_BG)
    pt, spacing = 12, 1.5
    lines = wrap_lines(text, 0.9 * width * 72, pt)
    fits = max(1, int(0.9 * height * 72 / (pt * spacing)))
    if len(lines) > fits:  # the page shows the whole message below the frame anyway
        lines = lines[: fits - 1] + [lines[fits - 1][:-3] + "..."]
    fig.text(
        0.5,
        0.5,
        "\n".join(lines),
        ha="center",
        va="center",
        fontsize=pt,
        color=MESSAGE_FG,
        linespacing=spacing,
    )
    return fig


def enlarge_small_text(fig: Figure, min_pt: float) -> None:
    """Raise every text (tick labels, legends, titles) smaller than ``min_pt`` to ``min_pt``."""
    for text in fig.findobj(Text):
        if text.get_text() and text.get_fontsize() < min_pt:
            text.set_fontsize(min_pt)
    for ax in fig.axes:
        # Ticks made later (at draw time, after a resize) take their size from tick_params.
        for name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            ticks = axis.get_major_ticks()
            if ticks and ticks[0].label1.get_fontsize() < min_pt:
                ax.tick_params(axis=name, which="both", labelsize=min_pt)


def prepare(fig: Figure, size, min_font: float | None) -> Figure:
    """The figure as every frame is drawn: at ``size`` inches, no text under ``min_font``."""
    if tuple(fig.get_size_inches()) != tuple(size):
        fig.set_size_inches(size)
    if min_font:
        enlarge_small_text(fig, min_font)
    return fig


class Frame(tuple):
    """One frame, ``(image, message)``, and what its drawing hides from a reader.

    ``problems`` is :func:`.figcheck.problems` of the drawing that made
    ``image`` (``[]``: nothing; ``None``: not drawn, as in the messages-only mode).
    A frame unpacks as the plain pair it always was.
    """

    def __new__(cls, image: bytes, message: str, problems: list | None = None):
        frame = super().__new__(cls, (image, message))
        frame.problems = problems
        return frame


def encode(fig: Figure, fmt: str, dpi: float, *, after_draw=None) -> bytes:
    """The figure as image bytes (no metadata: the bytes depend only on the drawing).

    One Agg draw, then Pillow: ``savefig`` would draw twice with a layout
    engine (a layout-only pass, then the real one); this measured ~20% less
    CPU per frame with identical pixels.  ``after_draw(fig)`` runs on that
    drawing (the frame check reads its boxes there instead of drawing again).
    """
    if fmt not in FORMATS:
        raise ValueError(f"image format must be one of {sorted(FORMATS)}, got {fmt!r}")
    old_canvas, old_dpi = fig.canvas, fig.dpi
    canvas = FigureCanvasAgg(fig)
    try:
        fig.set_dpi(dpi)
        canvas.draw()
        if after_draw is not None:
            after_draw(fig)
        rgba = Image.frombuffer(
            "RGBA",
            canvas.get_width_height(physical=True),
            canvas.buffer_rgba(),
            "raw",
            "RGBA",
            0,
            1,
        )
        if rgba.getextrema()[3][0] < 255:  # a transparent figure: onto white, not black
            rgba = Image.alpha_composite(Image.new("RGBA", rgba.size, "white"), rgba)
        buf = io.BytesIO()
        rgb = rgba.convert("RGB")
        if fmt == "webp":
            rgb.save(buf, "webp", **_WEBP)
        else:
            rgb.save(buf, "png")
        return buf.getvalue()
    finally:
        fig.set_dpi(old_dpi)
        fig.set_canvas(old_canvas)


def render_frame(
    func,
    values: dict,
    dpi: float,
    size: tuple[float, float],
    *,
    fmt: str = "webp",
    min_font: float | None = None,
    encode_image: bool = True,
) -> Frame:
    """``(image, message)`` for ``func(**values)``, drawn at ``size`` inches and ``dpi``.

    The drawing is checked as it is encoded (:func:`.figcheck.problems`, no
    second draw): the frame's ``problems``.  A frame whose function refused its
    values shows only that message, and has nothing to check (``[]``).
    With ``encode_image=False`` the function still runs (its message is
    computed) but nothing is drawn or encoded, and the image is ``b""``.
    """
    with warnings.catch_warnings(record=True) as caught, np.errstate(all="ignore"):
        warnings.simplefilter("always")
        try:
            out = func(**values)
        except (ValueError, ArithmeticError, RobonumError) as exc:
            fig = message_figure(str(exc), *size)
            if not encode_image:
                return Frame(b"", warning(str(exc)))
            return Frame(encode(fig, fmt, dpi), warning(str(exc)), [])
    fig, message = out if isinstance(out, tuple) else (out, "")
    if not isinstance(fig, Figure):
        raise TypeError(
            f"the exploration function must return a matplotlib Figure "
            f"(or (Figure, message)), got {type(fig).__name__}"
        )
    # Every frame's message reads as prose: sentences ending in a full stop; a plain str is a note.
    message = combine(message)
    if caught:
        first = str(caught[0].message).splitlines()[0]
        # numpy's own text is kept (it names the operation), after a Korean lead.
        message = warning(message, f"계산 중 수치 경고 {len(caught)}회 (첫 경고: {first})")
    try:
        if not encode_image:
            return Frame(b"", message)
        prepare(fig, size, min_font)
        found = []
        image = encode(
            fig, fmt, dpi, after_draw=lambda f: found.extend(figcheck.problems(f, draw=False))
        )
        return Frame(image, message, found)
    finally:
        if hasattr(fig, "number"):  # made by pyplot: release it, or the cell shows it again
            import matplotlib.pyplot as plt

            plt.close(fig)
