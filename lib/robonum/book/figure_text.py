"""A figure's text alternative, written from what the figure itself says.

A reader who cannot see a plot (a screen reader, an image that failed to load)
gets the image's ``alt`` text.  Our figures carry no separate caption: their
titles, axis labels and legend entries are the caption.  :func:`describe`
collects those into one Korean sentence per panel, and :func:`png_with_text`
stores it in the PNG itself (the standard ``Description`` key), so that the
book's build (``robonum_sphinx.figure_alt``) can give the ``<img>`` its
``alt`` without anyone writing it twice.  Formulas stay as matplotlib wrote
them (``$z = h\\lambda$``); the build turns them into Unicode.
"""

from __future__ import annotations

__all__ = ["describe", "png_with_text", "DESCRIPTION_KEY"]

DESCRIPTION_KEY = "Description"  # a PNG text keyword every image viewer knows


def _panel(ax) -> str:
    titles = [ax.get_title(loc) for loc in ("left", "center", "right")]
    parts = [" ".join(t for t in titles if t)]
    axes = [
        f"{name} {label}"
        for name, label in (("가로축", ax.get_xlabel()), ("세로축", ax.get_ylabel()))
        if label
    ]
    if axes:
        parts.append(", ".join(axes))
    legend = ax.get_legend()
    if legend is not None:
        entries = [t.get_text() for t in legend.get_texts() if t.get_text()]
        if entries:
            parts.append("범례 " + " / ".join(entries))  # an entry may hold a comma itself
    return ". ".join(p for p in parts if p)


def describe(fig) -> str:
    """One text for ``fig``: its suptitle, then per panel the title, axis labels and legend.

    A figure with several panels numbers them (패널 1, 패널 2, ...); a panel that
    says nothing (an empty colour-bar axis) is left out.
    """
    head = fig._suptitle.get_text() if getattr(fig, "_suptitle", None) else ""
    panels = [p for p in (_panel(ax) for ax in fig.axes if ax.get_visible()) if p]
    if len(panels) > 1:
        panels = [f"패널 {i}: {p}" for i, p in enumerate(panels, 1)]
    text = ". ".join(p for p in [head, *panels] if p)
    return f"그림: {text}." if text else ""


def png_with_text(fig):
    """IPython's retina PNG of ``fig`` with :func:`describe` stored in the file.

    Registered for matplotlib figures by :func:`robonum.book.use_book_style` in a kernel.
    """
    from IPython.core.pylabtools import retina_figure

    text = describe(fig)
    return retina_figure(fig, base64=True, metadata={DESCRIPTION_KEY: text} if text else None)
