"""The built book numbers its tables and figures per chapter, and every reference shows that number.

Reads ``_build/html`` (skipped without a build, like ``test_built_html.py``); plain
regular expressions over 19 pages, about a second.
"""

from __future__ import annotations

import html
import re

import pytest

from robonum_sphinx.latex_text import to_text
from tests.book.test_built_html import CODE, HTML, built_pages, needs_build

TITLE = re.compile(r"<h1>(.*?)<", re.S)
CHAPTER = re.compile(r"\s*(\d+)\.\s")
# a numbered figure or table: its id, then the number its caption shows
FIGURE = re.compile(
    r'<figure[^>]*\bid="(fig-[a-z0-9-]+)".*?<span class="caption-number">([^<]*)</span>'
    r'<span class="caption-text">(.*?)</span><a class="headerlink"',
    re.S,
)
TABLE = re.compile(
    r'<div class="rn-numbered-table" id="(tab-[a-z0-9-]+)">.*?<caption[^>]*>'
    r'<span class="caption-number">([^<]*)</span>',
    re.S,
)
LINK = re.compile(
    r'<a class="reference internal" href="([^"]*)#((?:tab|fig)-[a-z0-9-]+)">(.*?)</a>', re.S
)
ALT = re.compile(r'<img[^>]*\balt="([^"]*)"')


MATH = re.compile(r'<span class="math notranslate nohighlight">\\\((.*?)\\\)</span>', re.S)


def text(fragment: str) -> str:
    """A fragment's words, formulas as Unicode (as the alt text has them)."""
    fragment = MATH.sub(lambda m: to_text(html.unescape(m.group(1))), fragment)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", fragment))).strip()


def numbered(page: str) -> list[tuple[str, str, str]]:
    """(kind, id, shown number) of every numbered figure and table on ``page``, in page order."""
    found = [(m.start(), "그림", m.group(1), m.group(2)) for m in FIGURE.finditer(page)]
    found += [(m.start(), "표", m.group(1), m.group(2)) for m in TABLE.finditer(page)]
    return [(k, i, n.strip()) for _, k, i, n in sorted(found)]


def expected(kind: str, chapter: str | None, k: int) -> str:
    return f"{kind} {chapter}.{k}" if chapter else f"{kind} {k}"


pytestmark = needs_build


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return {str(p.relative_to(HTML)): p.read_text(encoding="utf-8") for p in built_pages()}


def test_numbers_run_per_chapter_in_page_order(pages):
    counts = {"그림": 0, "표": 0}
    for name, page in pages.items():
        title = TITLE.search(page)
        m = CHAPTER.match(text(title.group(1))) if title else None
        chapter = m.group(1) if m else None
        seen = {"그림": 0, "표": 0}
        for kind, _id, shown in numbered(page):
            seen[kind] += 1
            assert shown == expected(kind, chapter, seen[kind]), (name, _id)
        for kind in counts:
            counts[kind] += seen[kind]
    assert counts["그림"] >= 27 and counts["표"] >= 110, counts


def test_every_reference_shows_its_targets_number(pages):
    labels = {i: n for page in pages.values() for _k, i, n in numbered(page)}
    links = 0
    for name, page in pages.items():
        for _uri, target, shown in LINK.findall(page):
            assert target in labels, (name, target)
            assert text(shown) == labels[target], (name, target, text(shown))
            links += 1
        prose = CODE.sub(" ", page)  # a cell's source shows the reference as written
        assert "{numref}" not in prose and 'class="rn-ref"' not in prose, name
    assert links > 120  # the prose, captions and exercises refer to tables about 150 times


def test_a_figures_alt_text_is_its_caption(pages):
    for name, page in pages.items():
        for m in FIGURE.finditer(page):
            alts = ALT.findall(m.group(0))
            assert alts and html.unescape(alts[0]) == text(m.group(3)), (name, m.group(1))


def test_no_image_has_a_file_path_for_alt_text(pages):
    for name, page in pages.items():
        for alt in ALT.findall(page):
            assert alt and not re.search(r"\.(png|webp|svg|jpe?g)\b|_images/", alt), (name, alt)
