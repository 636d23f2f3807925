"""Reader-grade pages: a phone-width screen, browser titles, the download menu, the footer.

Every page is opened from file:// (no server) at 390 x 844 (a phone) after MathJax has typeset it:
the document itself must not scroll sideways (a wide table, formula or code
block may scroll inside its own box), the browser title must name the book
once, the page must offer its source (a chapter's notebook) for
download as a file that exists inside the build, and every self-check
exercise must judge a wrong and the right answer and keep hint and solution
hidden until asked.  The errata page's links
reach their evidence.
"""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from conftest import HTML, book_pages, file_url, shoot, walk_exercise, watch

PAGES = book_pages() if HTML.exists() else []
PHONE = {"width": 390, "height": 844}
PRINTED_CHAPTERS = [
    "1.18 수치 해석: ODE 적분기(룽게-쿠타·암시적·심플렉틱)·자동 미분(순방향·역방향 모드)·수치 안정성",
    "7.50 강성 방정식과 암시적 해법",
]

# Elements wider than the screen that do not sit inside a box that scrolls sideways.
_OVERFLOWING = """() => {
  const width = window.innerWidth;
  const scrolls = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p);
      if ((s.overflowX === 'auto' || s.overflowX === 'scroll' || s.overflowX === 'hidden')
          && p.getBoundingClientRect().right <= width + 1) return true;
    }
    return false;
  };
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= width + 1) continue;
    const s = getComputedStyle(el);
    if (s.display === 'none' || s.visibility === 'hidden' || s.position === 'fixed') continue;
    if (scrolls(el)) continue;
    out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
             + (el.className && typeof el.className === 'string'
                ? '.' + el.className.trim().split(/\\s+/).join('.') : '')
             + ' right=' + Math.round(r.right));
  }
  return out.slice(0, 8);
}"""


def _is_redirect(path: str) -> bool:
    """The root index.html only forwards to the front page (meta refresh); it is never read."""
    return 'http-equiv="Refresh"' in (HTML / path).read_text(encoding="utf-8")


READ = [p for p in PAGES if not _is_redirect(p)]


def _book_title() -> str:
    text = (HTML / "book" / "index.html").read_text(encoding="utf-8")
    return re.search(r"<title>(.*?)</title>", text, re.S).group(1).strip()


def _typeset(page):
    if page.locator(".math").count():
        page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise",
                               timeout=20000)
        page.evaluate("MathJax.startup.promise")
        page.wait_for_timeout(100)


def _offered_files(page, path):
    """The files the page's download menu links to; each must exist inside the build."""
    links = page.eval_on_selector_all(".dropdown-download-buttons a[href]", "els => els.map(a => a.href)")
    files = []
    for href in links:
        url = urlparse(href)
        if url.scheme != "file":       # e.g. a javascript: print button
            continue
        local = Path(unquote(url.path)).resolve()
        assert local.is_relative_to(HTML), f"{path}: download link leaves the build: {href}"
        assert local.is_file(), f"{path}: download link to a missing file {local}"
        files.append(local)
    return links, files


# One load per page (they are large): opened from disk at phone width, the page is
# checked for everything a reader without a server and with a phone would meet.
# test_pages.py opens every page once more over http, with its controls moved.
@pytest.mark.parametrize("path", READ)
def test_page_reads_on_a_phone_from_file(browser, path):
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True,
                                  has_touch=True)
    page = watch(context.new_page(), (file_url().rstrip("/") + "/", "data:", "blob:", "about:"))
    try:
        page.goto(file_url(path), wait_until="load")
        _typeset(page)
        raw = page.evaluate("Array.from(document.querySelectorAll('.math'))"
                            ".filter(e => !e.querySelector('mjx-container')).length")
        assert raw == 0, f"{path}: {raw} formulas left untypeset from file://"
        scroll_width, inner = page.evaluate(
            "[document.scrollingElement.scrollWidth, window.innerWidth]")
        culprits = page.evaluate(_OVERFLOWING) if scroll_width > inner + 1 else []
        shoot(page, "phone_" + path.replace("/", "_") + ".png")
        assert scroll_width <= inner + 1, (
            f"{path} is {scroll_width} px wide on a {inner} px screen; too wide: {culprits}")
        # Korean prose breaks between words, not inside them.
        para = page.locator(".bd-article p").first
        if para.count():
            assert para.evaluate("p => getComputedStyle(p).wordBreak") == "keep-all"
        links, files = _offered_files(page, path)
        assert files, f"{path}: no download link in the page header"
        source = HTML / "_sources" / Path(path).with_suffix(".ipynb")
        if source.exists():    # a notebook page offers the notebook itself
            assert source.resolve() in files, f"{path}: the notebook is not offered: {links}"
        _walk_exercises(page, path)     # last: it types answers and opens hints
        assert page.outside == [], f"{path} requested outside the folder: {page.outside}"
        assert page.errors == [], f"{path}: {page.errors}"
    finally:
        context.close()


def _walk_exercises(page, path):
    """Every self-check exercise answers right and wrong, with hint and solution hidden until asked."""
    roots = page.locator(".rn-check")
    ids = [roots.nth(i).get_attribute("id") for i in range(roots.count())]
    assert len(set(ids)) == len(ids), f"{path}: duplicate exercise keys {ids}"
    for i, uid in enumerate(ids):
        root = roots.nth(i)
        assert root.get_attribute("data-ready") == "1", f"{path}#{uid}: script did not run"
        walk_exercise(root, f"{path}#{uid}")


@pytest.mark.parametrize("path", READ)
def test_title_names_the_book_once(path):
    book = _book_title()
    text = (HTML / path).read_text(encoding="utf-8")
    title = re.search(r"<title>(.*?)</title>", text, re.S).group(1).strip()
    title = title.replace("&#8212;", "—")
    assert title.count(book) == 1, f"{path}: browser title {title!r}"
    parts = [p.strip() for p in title.replace(book, "\0").split("—")]
    assert len(parts) == len(set(parts)), f"{path}: a part of the title repeats: {title!r}"
    if path == "book/index.html":
        assert title == book


def test_front_page_says_what_the_book_is(browser, site):
    page = browser.new_page(viewport=PHONE)
    try:
        page.goto(f"{site}/book/index.html", wait_until="load")
        text = page.locator(".bd-article").inner_text()
        for title in PRINTED_CHAPTERS:
            assert title in text, f"the front page does not name the printed chapter {title!r}"
        assert "짝책" in text and "이 책 사용법" in text
    finally:
        page.close()


def test_footer_reads_naturally(browser, site):
    page = browser.new_page(viewport=PHONE)
    try:
        page.goto(f"{site}/book/index.html", wait_until="load")
        footer = page.locator("footer.bd-footer-content").inner_text()
        assert "robonum 팀" in footer
        assert "으로 robonum" not in footer and "Copyright" not in footer, footer
    finally:
        page.close()


def test_errata_link_to_their_evidence():
    """Each entry of the errata page links to a page of the build, and to the labelled box
    ("인쇄판과 다른 점") when the chapter has it; entries still waiting for a label are listed."""
    errata = HTML / "book" / "appendix" / "errata.html"
    text = errata.read_text(encoding="utf-8")
    links = re.findall(r'<a class="(rn-evidence[\w-]*)[^"]*" href="([^"]+)"', text)
    assert links, "the errata page has no evidence links"
    pending = []
    for cls, href in links:
        target, _, anchor = href.partition("#")
        page = (errata.parent / target).resolve()
        assert page.is_file() and page.is_relative_to(HTML), f"evidence link to a missing page: {href}"
        if anchor:
            assert f'id="{anchor}"' in page.read_text(encoding="utf-8"), f"no #{anchor} in {target}"
        if cls == "rn-evidence-pending":
            pending.append(href)
    assert len(pending) < len(links), f"no entry reaches its evidence box yet: {pending}"
