"""No table of the book is wider than the text column at 1280 px (issue 29, item 18).

On a phone a wide table scrolls inside its own box, and that is fine; on a
desktop the reader should see a whole table.  Four tables once ran 771-1017 px
in the 688 px column and hid their last columns behind a scroll bar nobody
noticed.  Every table of every page is measured in the desktop visit
(desktop_visit.py: loaded once at 1280 px, formulas typeset, since MathJax
changes widths); a table whose content is wider than the box that shows it (the
table itself when it scrolls, or any ancestor up to the article) is reported
with its caption and both widths.  Measured alone this check cost 23-47 s of
page loads; in the shared visit about 0.05 s a page.
"""

from __future__ import annotations

import pytest
from desktop_visit import DESKTOP, PAGES, wide_tables_on


@pytest.mark.parametrize("path", PAGES)
def test_every_table_fits_the_column_at_1280px(desktop, path):
    wide = desktop[path]["wide_tables"]
    assert wide == [], f"{path}: tables wider than the text column: {wide}"


def test_the_measure_sees_a_table_too_wide(browser, site):
    """The check itself: a table made wider than the column on a real page is reported."""
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"{site}/{PAGES[0]}")  # a page with a table or not: the injected one counts
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
