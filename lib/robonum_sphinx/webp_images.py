"""The notebooks' static plots as lossless WebP: the same pixels in about 40 % of the bytes.

Matplotlib's inline backend hands myst-nb a PNG for every static plot; measured on the
book's 27 plots, lossless WebP (the settings the explorations' frames use) holds the same
pixels in 0.83 MB instead of 2.0 MB, which brings every chapter's first view under the
600 KB goal of issue 27 (tests/browser/test_weight.py).  Every browser the book supports
shows WebP, and so does Chromium when it prints the book.

At ``doctree-read``, after :func:`robonum_sphinx.figure_alt.set_alt_text` has read the
plot's text out of the PNG (WebP keeps no text chunk), each notebook PNG gets a WebP
twin next to it, and the image node and Sphinx's image registry point at the twin, so
only the WebP is copied to ``_images/``.  The twin is written once (myst-nb names the
PNG by the hash of its bytes, and the twin takes that name), so an unchanged rebuild
converts nothing.
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes

__all__ = ["plots_as_webp"]

# Lossless: a plot's thin lines and text must not blur; quality/method are effort only.
WEBP = {"lossless": True, "quality": 80, "method": 4}
NOTEBOOK_OUTPUTS = "jupyter_execute"  # myst-nb writes a notebook's images under this folder


def _webp_twin(png: Path) -> Path | None:
    """The WebP file holding ``png``'s pixels, written if missing; None if it cannot be read."""
    twin = png.with_suffix(".webp")  # myst-nb names a plot by its content's hash: so is the twin
    if twin.exists():
        return twin
    try:
        from PIL import Image

        with Image.open(png) as img:
            img.save(twin, "webp", **WEBP)
    except (OSError, ValueError):
        return None  # the PNG stays: a plot is better heavy than missing
    return twin


def plots_as_webp(app, doctree) -> None:
    """``doctree-read``: point each notebook plot of the page at its WebP twin."""
    if app.builder.format != "html":
        return
    env, src = app.env, Path(app.srcdir)
    for image in doctree.findall(nodes.image):
        rel = image.get("candidates", {}).get("*", "")
        if not rel.endswith(".png") or NOTEBOOK_OUTPUTS not in Path(rel).parts:
            continue
        twin = _webp_twin(src / rel)
        if twin is None:
            continue
        new = str(Path(rel).with_name(twin.name))
        image["uri"], image["candidates"] = new, {"*": new}
        _register(env, rel, new)


def _register(env, old: str, new: str) -> None:
    """Swap ``old`` for ``new`` in Sphinx's image registry for this page."""
    env.images.add_file(env.docname, new)
    docs = env.images.get(old, (set(), ""))[0]
    docs.discard(env.docname)
    if not docs:
        env.images.pop(old, None)
