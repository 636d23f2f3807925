"""Every built page, opened offline in headless Chromium.

Asserts: no request leaves the build folder, no page or console errors, all
math typeset by the bundled MathJax, every static slider changes its frame
(mouse-free: keyboard arrows), and the page (with its frames) stays < 2 MB.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import HTML, SHOTS, book_pages

PAGES = book_pages() if HTML.exists() else []
MAX_PAGE_BYTES = 2_000_000


def test_the_book_has_pages():
    assert "book/index.html" in PAGES and len(PAGES) >= 2


@pytest.fixture
def page(browser, site):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    pg = context.new_page()
    pg.outside, pg.errors = [], []
    allowed = (site + "/", "data:", "blob:", "about:")
    pg.on("request", lambda r: None if r.url.startswith(allowed) else pg.outside.append(r.url))
    pg.on("pageerror", lambda e: pg.errors.append(f"pageerror: {e}"))
    pg.on("console", lambda m: pg.errors.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
    # A request that tried to leave would hang offline; abort it and record it.
    pg.route("**/*", lambda route: route.continue_() if route.request.url.startswith(allowed)
             else route.abort())
    yield pg
    context.close()


@pytest.mark.parametrize("path", PAGES)
def test_page_offline_clean_and_interactive(page, site, path):
    assert (HTML / path).stat().st_size < MAX_PAGE_BYTES, f"{path} is heavier than 2 MB"
    page.goto(f"{site}/{path}", wait_until="load")
    page.wait_for_timeout(300)
    has_math = page.locator(".math").count() > 0
    if has_math:
        page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise "
                               "&& document.querySelectorAll('mjx-container').length > 0", timeout=20000)
        page.evaluate("MathJax.startup.promise")
        raw = page.evaluate("""Array.from(document.querySelectorAll('.math'))
                               .filter(e => !e.querySelector('mjx-container')).length""")
        assert raw == 0, f"{raw} math elements left untypeset on {path}"
        errors = page.evaluate("Array.from(document.querySelectorAll('mjx-merror'))"
                               ".map(e => e.getAttribute('data-mjx-error') || e.textContent)")
        assert errors == [], f"MathJax could not typeset on {path}: {errors}"
    SHOTS.mkdir(parents=True, exist_ok=True)  # the page as a reader first sees it
    page.screenshot(path=str(SHOTS / (path.replace("/", "_") + ".png")), full_page=True)
    _check_sliders(page, path)
    assert page.outside == [], f"{path} requested outside the build: {page.outside}"
    assert page.errors == [], f"{path}: {page.errors}"


def _check_sliders(page, path):
    sliders = page.locator("input.rn-slider")
    for i in range(sliders.count()):
        s = sliders.nth(i)
        root = s.locator("xpath=ancestor::div[contains(@class,'rn-explore')]")
        img = root.locator("img.rn-frame")
        out = root.locator(f"output[for='{s.get_attribute('id')}']")
        before = (img.get_attribute("data-key"), img.get_attribute("src"), out.inner_text())
        at_end = s.get_attribute("value") == s.get_attribute("max")
        s.scroll_into_view_if_needed()
        s.focus()
        page.keyboard.press("ArrowLeft" if at_end else "ArrowRight")
        after = (img.get_attribute("data-key"), img.get_attribute("src"), out.inner_text())
        assert after[0] != before[0], f"{path}: slider {i} did not change the frame key"
        assert after[1] != before[1], f"{path}: slider {i} did not change the picture"
        assert after[2] != before[2], f"{path}: slider {i} did not update its value text"
        assert s.get_attribute("aria-valuetext") == after[2]
