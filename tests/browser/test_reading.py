"""Reader-grade pages beyond one page's load: browser titles, the front page, the footer,
the errata page's links to their evidence.  (Each page's own load -- phone, file://,
controls, exercises, downloads -- is test_pages.py.)
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from conftest import HTML, reader_pages
from tests.book.errata_entries import entries as errata_entries  # one parser for the errata page

ERRATA_SOURCE = Path(__file__).resolve().parents[2] / "book" / "appendix" / "errata.md"

READ = reader_pages() if HTML.exists() else []
PHONE = {"width": 390, "height": 844}
PRINTED_CHAPTERS = [
    "1.18 수치 해석: ODE 적분기(룽게-쿠타·암시적·심플렉틱)·자동 미분(순방향·역방향 모드)·수치 안정성",
    "7.50 강성 방정식과 암시적 해법",
]


def _book_title() -> str:
    text = (HTML / "book" / "index.html").read_text(encoding="utf-8")
    return re.search(r"<title>(.*?)</title>", text, re.S).group(1).strip()


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
        assert page.is_file() and page.is_relative_to(HTML), (
            f"evidence link to a missing page: {href}"
        )
        if anchor:
            assert f'id="{anchor}"' in page.read_text(encoding="utf-8"), f"no #{anchor} in {target}"
        if cls == "rn-evidence-pending":
            pending.append(href)
    assert len(pending) < len(links), f"no entry reaches its evidence box yet: {pending}"


# A number as the errata page writes one ("293", "6,467", "0.42", "2.7e-13"), not inside a
# section reference of the printed chapters ("§8.2", "1.18.5", "7.50").
_NUMBER = re.compile(r"(?<![\w.§])\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?(?![\w.])")
_SECTION = re.compile(r"§\s*\d+(?:\.\d+)*|\b(?:1\.18|7\.50)(?:\.\d+)*")


def _visible_text(path: Path) -> str:
    """A built page as text: tags, embedded images and thousands separators removed
    (math stays as its TeX source, which is what the errata page's $…$ holds too)."""
    text = re.sub(r'src="data:[^"]*"', "", path.read_text(encoding="utf-8"))
    return html.unescape(re.sub(r"<[^>]+>", " ", text)).replace(",", "")


def test_errata_numbers_are_the_chapters_numbers():
    """The errata page is typed by hand; every number in an entry's "이 책" row must appear
    on the chapter it points to, where the number is computed (so the two cannot drift)."""
    found = errata_entries(ERRATA_SOURCE.read_text(encoding="utf-8"))
    assert found, "no rn-erratum entries found in errata.md"
    missing = []
    for fields in found:
        shown = _NUMBER.findall(_visible_text(HTML / (fields["page"].partition("#")[0] + ".html")))
        page = set(shown) | {
            n.partition("e")[0] for n in shown
        }  # 3.4e-09 is the $3.4\times10^{-9}$ of the entry
        book = _SECTION.sub(" ", fields["book"])
        missing += [
            f"{fields['name']}: {n}"
            for n in _NUMBER.findall(book)
            if n.replace(",", "") not in page
        ]
    assert missing == [], (
        f"numbers on the errata page that its evidence pages do not show: {missing}"
    )
