"""axe-core over every page of the built book, in light and dark mode, offline.

axe-core comes from the pinned PyPI package ``axe-playwright-python`` (its
bundled ``axe.min.js``, injected into the page: nothing is fetched).  Each page
is loaded once, as a reader opens it at 1280 px:

* every axe rule but colour contrast, plus the experimental
  ``label-content-name-mismatch`` (a spoken name that does not contain the
  visible text), in light mode;
* colour contrast in light mode, then again after the page's own colour-mode
  button has switched it to dark, on one element of each look: contrast depends only on
  the text's colour, the background behind it, its size, weight and opacity, so the
  book's thousands of paragraphs in the same style are measured once per page (about 50
  elements a page; the two passes took 3-9 s a page, now 1-3 s, and an injected pale
  paragraph is still found in both modes).  Code blocks (``div.highlight``) are left out
  of the contrast pass: they are a third of the nodes axe measures on a chapter
  and their colours are the theme's accessible Pygments styles (measured cost in
  ``NOTES.md``);
* in the same visit: every control of the theme (and every button, toggle and
  heading link in the article) is named in Korean, every control shows a focus
  ring when the keyboard reaches it, and no formula is a Tab stop unless it
  scrolls.

The book has no axe violation at all, so any violation fails, the minor ones included.
The visit itself (shared with test_weight's first view) is in ``desktop_visit.py``.
"""

from __future__ import annotations

import pytest
from desktop_visit import AXE, PAGES


def test_axe_is_the_pinned_offline_copy():
    head = AXE.read_text(encoding="utf-8")[:200]
    assert head.startswith("/*! axe v4."), head


@pytest.mark.parametrize("path", PAGES)
def test_page_has_no_axe_violation_in_light_and_dark(desktop, path):
    found = desktop[path]
    assert found["axe"] == [], f"{path}: axe violations: {found['axe']}"


@pytest.mark.parametrize("path", PAGES)
def test_every_control_is_named_in_korean_and_shows_its_focus(desktop, path):
    found = desktop[path]
    assert found["english"] == [], f"{path}: controls named in English: {found['english']}"
    assert found["no_ring"] == [], f"{path}: no visible focus ring: {found['no_ring']}"
    assert found["math_stops"] == 0, f"{path}: {found['math_stops']} formulas are Tab stops"
