"""Checks on the built HTML that need no browser: markup that failed to render, image alt text.

They read the book in ``_build/html`` (``ROBONUM_HTML`` points elsewhere), the
same build the browser tests read; ``make test`` builds it first.  Without a
build they are skipped.
"""

from __future__ import annotations

import html
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from robonum_sphinx.page_text import article_text

ROOT = Path(__file__).resolve().parents[2]
HTML = Path(os.environ.get("ROBONUM_HTML", ROOT / "_build" / "html")).resolve()

needs_build = pytest.mark.skipif(
    not (HTML / "index.html").exists(), reason=f"no built book in {HTML} (make book)"
)


def built_pages() -> list[Path]:
    skip = {"genindex.html", "search.html"}
    return sorted(
        p
        for p in HTML.rglob("*.html")
        if "_static" not in p.parts and "_sources" not in p.parts and p.name not in skip
    )


CODE = re.compile(r"<(code|pre)\b[^>]*>.*?</\1>", re.S | re.I)


def reader_text(page_html: str) -> str:
    """The article's prose: no code (blocks, inline ``x**2``, printed outputs), formulas as
    Unicode, tags removed."""
    return html.unescape(re.sub(r"<[^>]+>", " ", article_text(CODE.sub(" ", page_html))))


# --- markup that failed to render (issue 29, item 17) -------------------------------------
# CommonMark closes ``**`` only where it is "right-flanking": ``**`.ipynb`**가`` (a backtick
# before, a Hangul particle after) is not, and the reader sees the asterisks.
LITERAL_BOLD = re.compile(r"\*\*")


def literal_markup(text: str) -> list[str]:
    """Pieces of ``text`` (a reader's text) that show bold markup instead of bold type."""
    return [text[max(0, m.start() - 30) : m.end() + 30] for m in LITERAL_BOLD.finditer(text)]


def test_literal_markup_rule():
    page = "<article class='bd-article'>{}</article>"
    assert literal_markup(reader_text(page.format("<p>노트북은 **<code>.ipynb</code>**가</p>")))
    assert not literal_markup(reader_text(page.format("<p>노트북은 <strong>.ipynb</strong>가</p>")))
    code = "<div class='highlight-ipython3'><pre>x**2</pre></div><p><code>z**2</code>는</p>"
    assert not literal_markup(reader_text(page.format(code)))


@needs_build
def test_no_page_shows_markdown_markup():
    found = {}
    for page in built_pages():
        hits = literal_markup(reader_text(page.read_text(encoding="utf-8")))
        if hits:
            found[page.relative_to(HTML).as_posix()] = hits
    assert not found, f"literal ** (bold that did not render) in the built book: {found}"


# --- alt text of images (issue 29, item 20) ---------------------------------------------
class _Images(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.images: list[dict[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.images.append(dict(attrs))


def images(page_html: str) -> list[dict[str, str | None]]:
    parser = _Images()
    parser.feed(page_html)
    return parser.images


PATHLIKE = re.compile(r"(^|/)[\w.-]+\.(png|jpe?g|gif|svg|webp)$|^data:|^_images/|/_images/", re.I)


def bad_alt(img: dict[str, str | None]) -> str | None:
    """Why ``img`` fails a reader who cannot see it, or None.

    An image marked decorative (``role="presentation"`` or ``aria-hidden``) needs no text.
    """
    if img.get("role") == "presentation" or img.get("aria-hidden") == "true":
        return None
    alt = (img.get("alt") or "").strip()
    src = img.get("src") or ""
    if not alt:
        return "no alt text"
    if PATHLIKE.search(alt) or alt == src or alt == src.rsplit("/", 1)[-1]:
        return f"alt is a file path: {alt[:60]}"
    return None


def test_bad_alt_rule():
    assert bad_alt({"src": "../_images/ab12.png", "alt": "../_images/ab12.png"})
    assert bad_alt({"src": "x.png", "alt": "ab12.png"})
    assert bad_alt({"src": "x.png", "alt": " "})
    assert bad_alt({"src": "x.png"})
    assert not bad_alt({"src": "x.png", "alt": "", "role": "presentation"})
    assert not bad_alt({"src": "x.png", "alt": "그림: 오차와 간격. 가로축 간격 h"})


@needs_build
def test_every_image_has_text_for_a_reader_who_cannot_see_it():
    found, count = {}, 0
    for page in built_pages():
        for img in images(page.read_text(encoding="utf-8")):
            count += 1
            why = bad_alt(img)
            if why:
                found.setdefault(page.relative_to(HTML).as_posix(), []).append(why)
    assert count, "the built book has no image: the test lost its subject"
    assert not found, f"images without a text alternative: {found}"


# --- an output that is a traceback -------------------------------------------------------
# IPython prints a display that fails (an exploration over its max_bytes once did) as a
# traceback output and the cell still succeeds, so the build passes with it on the page.
@needs_build
def test_no_output_is_a_traceback():
    found = {}
    for page in built_pages():
        hit = re.search(r'class="output traceback[^"]*".{0,600}', page.read_text("utf-8"), re.S)
        if hit:
            found[page.relative_to(HTML).as_posix()] = re.sub(r"<[^>]+>", "", hit.group(0))
    assert not found, f"outputs that are tracebacks in the built book: {found}"
