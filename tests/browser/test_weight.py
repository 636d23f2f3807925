"""What a chapter weighs for a reader who only reads, and frames loaded when a control moves.

The build keeps each exploration's frames as files (robonum_sphinx.frames):
the page carries only the default frames, the others load when a control
moves.  Measured here on the built book:

* every chapter's HTML is <= 300 KB (one known exception, see OVER_GOAL), and
  the page's own bytes fetched on opening it (its HTML, default frames and
  plots) without a touch of a control are <= 600 KB; every request stays in
  the build folder;
* the page with every one of its frames stays < 2 MB;
* on chapter 1, from a server and from ``file://``, opening fetches no frame
  but the default ones, and a moved slider shows a new frame read from a file;
* chapter 1's first slider is a few Tab presses from the page's top
  (a skip link per exploration after the theme's own), with a focus ring.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from desktop_visit import FRAMES

from conftest import HTML, file_url, reader_pages, watch

MAX_HTML = 300_000  # bytes of a chapter's page itself
# Known over the goals (issue 27), capped so that they do not grow: (HTML, first view).
# robot_stiffness: 338 KB of HTML, 163 KB of it its highlighted code cells (the ch. 8 fixes of
# issue 29, item 15 added 13 KB of code: the contact legend, the nudged runs behind §8.3's text;
# the checks of §8.4-8.5's prose another 14 KB: 256 trapezoid starts, the SDIRK2/BDF2 spread).
# The checks stay visible on the page, where a reader sees what backs a sentence.
OVER_GOAL = {
    "book/stiff/robot_stiffness.html": (345_000, 600_000),
}
# Bytes of the page's own files fetched to show it, no control touched: its HTML and the
# pictures under _images/ (default frames, plots).  The theme's shared, cacheable files
# (_static/: Font Awesome's 1.5 MB script, MathJax 1.2 MB, the theme's CSS, searchindex.js)
# add ~3.7 MB uncompressed on a first visit; they are not the page's weight (issue 27).
MAX_FIRST_VIEW = 600_000
MAX_WITH_FRAMES = 2_000_000  # the page with all of its frames
MAX_TABS = 10
CHAPTER_1 = "book/integrators/one_step_order.html"
DATA = re.compile(r'<script type="application/json" class="rn-data">(.*?)</script>', re.S)

CHAPTERS = (
    [p for p in reader_pages() if 'class="rn-explore"' in (HTML / p).read_text(encoding="utf-8")]
    if HTML.exists()
    else []
)


def frame_files(path: str) -> set[Path]:
    """The frame files a page's explorations refer to."""
    text = (HTML / path).read_text(encoding="utf-8")
    urls = {f[0] for m in DATA.finditer(text) for f in json.loads(m.group(1))["frames"].values()}
    return {(HTML / path).parent.joinpath(u).resolve() for u in urls}


def test_chapters_with_explorations_are_found():
    assert CHAPTER_1 in CHAPTERS and len(CHAPTERS) >= 10


@pytest.mark.parametrize("path", CHAPTERS)
def test_page_weight_on_disk(path):
    size = (HTML / path).stat().st_size
    assert size <= OVER_GOAL.get(path, (MAX_HTML,))[0], f"{path}: {size} bytes of HTML"
    files = frame_files(path)
    assert files and all(f.is_file() and HTML in f.parents for f in files), path
    total = size + sum(f.stat().st_size for f in files)
    assert total < MAX_WITH_FRAMES, f"{path}: {total} bytes with all its frames"


def _frames_requested(page) -> list[str]:
    return [u for u in page.requested if FRAMES in u]


def _open(browser, base: str, path: str):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = watch(context.new_page(), (base, "data:", "blob:", "about:"))
    page.requested = []
    page.on("request", lambda r: page.requested.append(r.url))
    page.goto(base + path, wait_until="networkidle")
    return context, page


@pytest.mark.parametrize("path", CHAPTERS)
def test_first_view_fetches_little_and_only_from_the_book(desktop, path):
    seen = desktop[path]["first_view"]  # read right after loading, before any check touched it
    assert seen["bytes"] <= OVER_GOAL.get(path, (0, MAX_FIRST_VIEW))[1], (
        f"{path}: {seen['bytes']} bytes fetched on opening"
    )
    assert seen["default_frames"], f"{path}: no default frame shown"
    assert seen["frames_fetched"] == seen["default_frames"], f"{path}: frames beyond the defaults"
    assert seen["outside"] == [] and seen["errors"] == [], (path, seen["outside"], seen["errors"])


# The picture on screen is the file the script named (decoded, not the previous one).
_SHOWN = """img => img.complete && img.naturalWidth > 0
  && img.currentSrc.endsWith('/' + img.getAttribute('src').split('/').pop())"""


def _disk_path(url: str) -> Path:
    return Path(unquote(urlparse(url).path)).resolve()


@pytest.mark.parametrize("where", ["http", "file"])
def test_a_moved_slider_shows_a_frame_read_from_a_file(browser, site, where):
    base = site + "/" if where == "http" else file_url().rstrip("/") + "/"
    context, page = _open(browser, base, CHAPTER_1)
    try:
        first = len(_frames_requested(page))
        slider = page.locator("div.rn-explore input[type=range]").first
        img = slider.locator("xpath=ancestor::div[contains(@class,'rn-explore')]//img")
        before = img.get_attribute("src")
        slider.focus()
        page.keyboard.press(
            "ArrowLeft" if slider.evaluate("s => s.value === s.max") else "ArrowRight"
        )
        src = img.get_attribute("src")
        assert src != before and src.startswith("../../" + FRAMES), src
        page.wait_for_function(_SHOWN, arg=img.element_handle())
        url = img.evaluate("i => i.currentSrc")
        assert url in page.requested and len(_frames_requested(page)) > first
        if where == "file":
            assert HTML in _disk_path(url).parents and _disk_path(url).is_file()
        assert page.outside == [] and page.errors == [], (page.outside, page.errors)
    finally:
        context.close()


def test_first_slider_of_chapter_1_is_a_few_tabs_away(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto(file_url(CHAPTER_1), wait_until="load")
        target = page.locator("div.rn-explore [data-rn-param]").first.evaluate(
            "c => c.tagName === 'FIELDSET' ? c.querySelector('input:checked').id : c.id"
        )
        for _tab in range(MAX_TABS):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.hasAttribute('data-rn-skip')"):
                break
        else:
            pytest.fail(f"no skip link to an exploration within {MAX_TABS} Tab presses")
        link = page.locator(":focus")
        assert link.inner_text().startswith("탐색 그림으로 건너뛰기"), link.inner_text()
        box = link.bounding_box()
        assert box and box["y"] >= 0 and box["width"] > 0, "the focused skip link is not shown"
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == target
        ring = page.evaluate(
            "(() => { const s = getComputedStyle(document.activeElement);"
            " return [s.outlineStyle, parseFloat(s.outlineWidth)]; })()"
        )
        assert ring[0] != "none" and ring[1] >= 2, f"no visible focus ring: {ring}"
    finally:
        context.close()
