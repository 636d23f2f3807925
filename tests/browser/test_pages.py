"""Every built page, opened offline in headless Chromium.

Asserts: no request leaves the build folder, no page or console errors, all
math typeset by the bundled MathJax, every control of every exploration
(each slider, each radio option; mouse-free: keyboard arrows) changes its
frame, no exploration overflows a 390 px phone screen, and the page (with
its frames) stays < 2 MB.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import HTML, book_pages, shoot

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
    shoot(page, path.replace("/", "_") + ".png", full_page=True)  # as a reader first sees it
    _check_sliders(page, path)
    assert page.outside == [], f"{path} requested outside the build: {page.outside}"
    assert page.errors == [], f"{path}: {page.errors}"


def _frame(img):
    return img.get_attribute("data-key"), img.get_attribute("src")


def _check_sliders(page, path):
    """Every control of every exploration, by keyboard: each slider and each radio option
    changes the frame key, the picture and the value shown; nothing overflows at 390 px."""
    roots = page.locator("div.rn-explore")
    for r in range(roots.count()):
        root = roots.nth(r)
        view = root.get_attribute("data-view")
        assert view == "static", (f"{path}: exploration {r} is not the full static view "
                                  f"(data-view={view!r}): build the book with ROBONUM_STATIC=1")
        img = root.locator("img.rn-frame")
        img.scroll_into_view_if_needed()
        page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=img.element_handle())
        assert img.evaluate("i => i.naturalWidth") >= 2 * int(img.get_attribute("width")), \
            f"{path}: exploration {r} frames are not rendered at 2x their CSS width"
        controls = root.locator("[data-rn-param]")
        assert controls.count() > 0, f"{path}: exploration {r} has no controls"
        for i in range(controls.count()):
            c = controls.nth(i)
            kind = c.evaluate("e => e.tagName === 'INPUT' ? e.type : e.tagName.toLowerCase()")
            where = f"{path}: exploration {r}, control {i} ({kind})"
            if kind == "range":
                _check_range(page, where, root, img, c)
            elif kind == "fieldset":
                _check_radios(page, where, img, c)
            else:
                _check_select(where, img, c)
    if roots.count():
        _check_narrow(page, path, roots)


def _check_range(page, where, root, img, s):
    out = root.locator(f"output[for='{s.get_attribute('id')}']")
    before = _frame(img) + (out.inner_text(),)
    at_end = s.evaluate("e => e.value") == s.get_attribute("max")
    s.scroll_into_view_if_needed()
    s.focus()
    page.keyboard.press("ArrowLeft" if at_end else "ArrowRight")
    after = _frame(img) + (out.inner_text(),)
    assert after[0] != before[0], f"{where} did not change the frame key"
    assert after[1] != before[1], f"{where} did not change the picture"
    assert after[2] != before[2], f"{where} did not update its value text"
    assert s.get_attribute("aria-valuetext") == after[2]


def _check_radios(page, where, img, group):
    radios = group.locator("input[type=radio]")
    n = radios.count()
    checked = "g => Array.from(g.querySelectorAll('input[type=radio]')).filter(e => e.checked)" \
              ".map(e => e.value)"
    start = group.evaluate(checked)
    assert len(start) == 1, f"{where}: {len(start)} options checked"
    group.locator("input:checked").focus()
    seen = set(start)
    for _ in range(n):  # arrow keys cycle through every option and back to the first
        before, was = _frame(img), group.evaluate(checked)
        page.keyboard.press("ArrowRight")
        now = group.evaluate(checked)
        assert len(now) == 1 and now != was, f"{where}: the arrow key did not check the next option"
        after = _frame(img)
        assert after[0] != before[0], f"{where}: option {now[0]} did not change the frame key"
        assert after[1] != before[1], f"{where}: option {now[0]} did not change the picture"
        seen.update(now)
    assert seen == {radios.nth(j).get_attribute("value") for j in range(n)}, f"{where}: options missed"


def _check_select(where, img, select):  # (arrow keys on a closed <select> differ by platform)
    values = select.evaluate("s => Array.from(s.options).map(o => o.value)")
    start = select.evaluate("s => s.value")
    for v in [v for v in values if v != start] + [start]:
        before = _frame(img)
        select.select_option(v)
        after = _frame(img)
        assert after[0] != before[0] and after[1] != before[1], f"{where}: option {v} did not change the frame"


def _check_narrow(page, path, roots):
    """At a 390 px phone width, with its longest message shown, no exploration overflows."""
    size = page.viewport_size
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        for r in range(roots.count()):
            wide = roots.nth(r).evaluate("""root => {
                const frames = JSON.parse(root.querySelector('script.rn-data').textContent).frames;
                const msg = root.querySelector('.rn-msg'), old = msg.textContent;
                msg.textContent = Object.values(frames).map(f => f[1])
                    .reduce((a, b) => (b.length > a.length ? b : a), '');
                const right = Math.min(root.getBoundingClientRect().right, window.innerWidth);
                const out = Array.from(root.querySelectorAll('*'))
                    .filter(e => e.getClientRects().length && e.getBoundingClientRect().right > right + 1)
                    .map(e => e.tagName + '.' + e.className);
                if (root.scrollWidth > root.clientWidth + 1) out.push('scrollWidth ' + root.scrollWidth);
                if (root.getBoundingClientRect().right > window.innerWidth + 1) out.push('root');
                msg.textContent = old;
                return out;
            }""")
            assert wide == [], f"{path}: exploration {r} overflows at 390 px: {wide}"
            shoot(roots.nth(r), f"{path.replace('/', '_')}.explore{r}.390px.png")
    finally:
        page.set_viewport_size(size)
