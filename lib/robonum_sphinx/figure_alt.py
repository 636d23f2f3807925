"""Alt text for every image of the book, from the figure's own words.

Sphinx writes an image without ``alt`` as ``<img alt="../_images/3f9c….png">``:
a reader who cannot see the picture hears its file name.  When a page is read
we give each image its text, first found of:

1. an ``alt`` the author wrote (a Markdown image, ``mystnb: image: alt:`` in a cell);
2. the caption of the figure it sits in (a ``{figure}`` directive);
3. the text stored in the PNG itself: a notebook's matplotlib figure carries its
   titles, axis labels and legend (``robonum.book.figure_text``); formulas in it
   are turned into Unicode (``$z = h\\lambda$`` -> z = hλ).

An image with none of these is a build warning (the book builds with ``-W``),
so a figure can never again reach the page with its file path as its text.
"""

from __future__ import annotations

import re
from pathlib import Path

from docutils import nodes
from sphinx.util import logging

from .latex_text import to_text

__all__ = ["png_text", "readable", "set_alt_text"]

logger = logging.getLogger(__name__)
DESCRIPTION_KEY = "Description"  # robonum.book.figure_text.DESCRIPTION_KEY
_MATH = re.compile(r"(?<!\\)\$(.+?)(?<!\\)\$")


def png_text(path: Path) -> str:
    """The ``Description`` text stored in a PNG file ('' if none or not a PNG)."""
    try:
        from PIL import Image

        with Image.open(path) as img:
            return (getattr(img, "text", {}) or {}).get(DESCRIPTION_KEY, "").strip()
    except (OSError, ValueError, ImportError):
        return ""


def readable(text: str) -> str:
    """Matplotlib text as a reader hears it: ``$…$`` mathtext as Unicode, spaces collapsed."""
    text = _MATH.sub(lambda m: to_text(m.group(1)), text)
    return re.sub(r"\s+", " ", text.replace("\\$", "$")).strip()


def _caption(image: nodes.image) -> str:
    # a notebook plot sits in its output's containers inside the figure (numbering.py)
    figure = image.parent
    while figure is not None and not isinstance(figure, nodes.figure):
        figure = figure.parent
    if figure is None:
        return ""
    caption = next(iter(figure.findall(nodes.caption)), None)
    if caption is None:
        return ""
    # formulas as a reader hears them (q_1 -> q₁), the rest as written
    parts = [
        to_text(n.astext()) if isinstance(n, nodes.math) else n.astext()
        for n in caption.findall(lambda n: isinstance(n, (nodes.math, nodes.Text)))
        if not isinstance(n.parent, nodes.math)
    ]
    return re.sub(r"\s+", " ", "".join(parts)).strip()


def _source_file(app, image: nodes.image) -> Path:
    """The image's file in the source tree.

    Sphinx's image collector has already made ``uri`` relative to the source
    folder (``candidates['*']``) when ``doctree-read`` handlers run.
    """
    candidate = image.get("candidates", {}).get("*")
    if candidate:
        return Path(app.srcdir) / candidate
    uri = image.get("uri", "")
    if "://" in uri or uri.startswith("data:"):
        return Path()
    return Path(app.env.relfn2path(uri, app.env.docname)[1])


def set_alt_text(app, doctree) -> None:
    """``doctree-read``: give every image of the page a text alternative (see module doc)."""
    for image in doctree.findall(nodes.image):
        if image.get("alt"):
            continue
        text = _caption(image)
        if not text:
            text = readable(png_text(_source_file(app, image)))
        if text:
            image["alt"] = text
        else:
            logger.warning(
                "image %s has no text for a reader who cannot see it: give it alt text, "
                "a figure caption, or (a notebook plot) a title and axis labels",
                image.get("uri", "?"),
                location=image,
                type="robonum",
                subtype="alt",
            )
