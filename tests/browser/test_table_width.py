"""No table of the book is wider than the text column at 1280 px (issue 29, item 18).

On a phone a wide table scrolls inside its own box, and that is fine; on a
desktop the reader should see a whole table.  Four tables once ran 771-1017 px
in the 688 px column and hid their last columns behind a scroll bar nobody
noticed.  Each page is loaded once at 1280 px, formulas typeset (MathJax
changes widths), and every table in the article is measured in one call: a
table whose content is wider than the box that shows it (the table itself
when it scrolls, or any ancestor up to the article) is reported with its
caption and both widths.
"""

from __future__ import annotations

import pytest

from conftest import HTML, reader_pages

# Only pages with a table are visited (a file read is free, a visit costs about 1 s).
PAGES = (
    [p for p in reader_pages() if "<table" in (HTML / p).read_text(encoding="utf-8")]
    if HTML.exists()
    else []
)
DESKTOP = {"width": 1280, "height": 900}
PAGES_AT_ONCE = 2  # the machines have 2 cores

# For each table: the widest of its own scroll width and its rows, against the narrowest
# box that shows it (itself, when display:block scrolls it, and its ancestors up to the
# article).  1 px of slack: widths are rounded differently by scrollWidth and the rects.
_WIDE_TABLES = """() => {
  const article = document.querySelector('.bd-article');
  if (!article) return [];
  return Array.from(article.querySelectorAll('table')).flatMap(t => {
    const rows = Array.from(t.querySelectorAll('tr')).map(r => r.getBoundingClientRect().width);
    const content = Math.max(t.scrollWidth, ...rows);
    let shown = t.clientWidth || t.getBoundingClientRect().width;
    for (let el = t.parentElement; el && el !== article.parentElement; el = el.parentElement) {
      if (el.clientWidth) shown = Math.min(shown, el.clientWidth);
    }
    if (content <= shown + 1) return [];
    const cap = t.querySelector('caption');
    const name = (cap ? cap.innerText : t.innerText).replace(/\\s+/g, ' ').slice(0, 50);
    return [`${name}: ${Math.round(content)} px in ${Math.round(shown)} px`];
  });
}"""


def _typeset(page) -> None:
    if page.locator(".math").count():
        page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise")
        page.evaluate("MathJax.startup.promise")


def wide_tables_on(page) -> list[str]:
    """The tables of a loaded, typeset page that are wider than their box (reusable by a visit
    that already loads every page at 1280 px, such as test_a11y's)."""
    return page.evaluate(_WIDE_TABLES)


def wide_tables(browser, site, paths: list[str]) -> dict[str, list[str]]:
    """Visit ``paths`` side by side at 1280 px; each page's tables wider than their box."""
    contexts = [browser.new_context(viewport=DESKTOP) for _ in paths]
    pages = [c.new_page() for c in contexts]
    try:
        for page, path in zip(pages, paths):
            page.goto(f"{site}/{path}", wait_until="commit")
        found = {}
        for page, path in zip(pages, paths):
            page.wait_for_load_state("load")
            _typeset(page)
            found[path] = wide_tables_on(page)
        return found
    finally:
        for c in contexts:
            c.close()


@pytest.fixture(scope="module")
def measured(browser, site) -> dict[str, list[str]]:
    found = {}
    for i in range(0, len(PAGES), PAGES_AT_ONCE):
        found.update(wide_tables(browser, site, PAGES[i : i + PAGES_AT_ONCE]))
    return found


@pytest.mark.parametrize("path", PAGES)
def test_every_table_fits_the_column_at_1280px(measured, path):
    assert measured[path] == [], f"{path}: tables wider than the text column: {measured[path]}"


def test_the_measure_sees_a_table_too_wide(browser, site):
    """The check itself: a table made wider than the column on a real page is reported."""
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"{site}/{PAGES[0]}")
        assert wide_tables_on(page) == []
        page.evaluate(
            """() => {
              const t = document.createElement('table');
              t.innerHTML = '<caption>injected</caption><tr>' +
                '<td style="white-space:nowrap">' + '넓은 칸 '.repeat(80) + '</td></tr>';
              document.querySelector('.bd-article').appendChild(t);
            }"""
        )
        assert [w.split(":")[0] for w in wide_tables_on(page)] == ["injected"]
    finally:
        context.close()
