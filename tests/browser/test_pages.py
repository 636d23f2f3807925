"""Every built page, loaded once, as a reader meets it: from disk (file://, no server) on a phone.

One load per page (a page with its frames is up to 2 MB and Chromium needs
2-4 s here to load it), checked for everything a reader without a server and
with a phone would meet: no request leaves the build folder, no page or
console errors, all math typeset by the bundled MathJax with no error, the
document does not scroll sideways at 390 px (a wide table, formula or code
block may scroll inside its own box, and nothing in such a box starts left of it,
where no scrolling reaches), Korean prose breaks between words,
the download menu offers the page's source (a chapter's notebook) as a file
inside the build, every control of every exploration (each slider, each
radio option; by keyboard) changes its frame, no exploration overflows with
its longest message, every self-check exercise judges a wrong and the right
answer with hint and solution hidden until asked, and the page with its
frames stays < 2 MB.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from conftest import (
    HTML,
    book_pages,
    file_url,
    is_redirect,
    reader_pages,
    shoot,
    walk_exercise,
    watch,
)

PAGES = book_pages() if HTML.exists() else []
PHONE = {"width": 390, "height": 844}
MAX_PAGE_BYTES = 2_000_000


def test_the_book_has_pages():
    assert "book/index.html" in PAGES and len(PAGES) >= 2


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


# Text that starts left of the box that scrolls it: scrolling only reaches content to the right,
# so those letters are cut off for good (a wide table's caption once lost its first 2-13 px).
_CLIPPED_LEFT = """() => {
  const out = [];
  for (const box of document.querySelectorAll('.bd-article *')) {
    if (!['auto', 'scroll', 'hidden'].includes(getComputedStyle(box).overflowX)
        || !box.getClientRects().length) continue;
    const left = box.getBoundingClientRect().left + box.clientLeft;
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      if (Array.from(range.getClientRects()).some(r => r.width > 0 && r.left < left - 1))
        out.push(box.tagName.toLowerCase() + '.' + box.className + ': ' + n.textContent.trim().slice(0, 20));
    }
  }
  return out.slice(0, 8);
}"""


# A caption wider than the box its table scrolls in: on a phone each line of it runs past the
# screen edge, and a reader has to scroll the table sideways to read one sentence (a wide
# table's caption was one line as wide as the table: "표 8.3 관절 강성에 따른" and then nothing).
_WIDE_CAPTION = """() => {
  const out = [];
  for (const cap of document.querySelectorAll('.bd-article caption')) {
    let box = cap.parentElement;
    while (box && !['auto', 'scroll', 'hidden'].includes(getComputedStyle(box).overflowX))
      box = box.parentElement;
    if (!box || !cap.getClientRects().length) continue;
    const width = cap.getBoundingClientRect().width;
    if (width > box.clientWidth + 1)
      out.push(cap.textContent.trim().slice(0, 12) + ': ' + Math.round(width) + ' px in ' + box.clientWidth);
  }
  return out.slice(0, 8);
}"""


# A wide result table scrolled to its end still shows what each row is (its first column)
# and its caption, inside the part of the page a reader sees.
_SCROLLED_TABLE = """() => {
  const out = [];
  for (const t of document.querySelectorAll('.bd-article table.rn-table')) {
    if (t.scrollWidth <= t.clientWidth + 1) continue;
    t.scrollLeft = t.scrollWidth;
    const seen = t.parentElement.getBoundingClientRect();
    for (const el of [t.querySelector('caption'), ...t.querySelectorAll('tr > :first-child')]) {
      if (!el) continue;
      const text = document.createRange();      // where its text is (a caption's box is wider)
      text.selectNodeContents(el);
      const r = text.getBoundingClientRect();
      if (r.width === 0) continue;              // an empty header cell
      if (r.left < seen.left - 1 || r.right > seen.right + 1)
        out.push(el.textContent.trim().slice(0, 12) + ': ' + Math.round(r.left) + '..' + Math.round(r.right)
                 + ' outside ' + Math.round(seen.left) + '..' + Math.round(seen.right));
    }
    t.scrollLeft = 0;
  }
  return out.slice(0, 8);
}"""


READ = reader_pages() if HTML.exists() else []


def _typeset(page):
    if page.locator(".math").count():
        page.wait_for_function(
            "window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=20000
        )
        page.evaluate("MathJax.startup.promise")
        page.wait_for_timeout(100)


def _offered_files(page, path):
    """The files the page's download menu links to; each must exist inside the build."""
    links = page.eval_on_selector_all(
        ".dropdown-download-buttons a[href]", "els => els.map(a => a.href)"
    )
    files = []
    for href in links:
        url = urlparse(href)
        if url.scheme != "file":  # e.g. a javascript: print button
            continue
        local = Path(unquote(url.path)).resolve()
        assert local.is_relative_to(HTML), f"{path}: download link leaves the build: {href}"
        assert local.is_file(), f"{path}: download link to a missing file {local}"
        files.append(local)
    return links, files


def _walk_exercises(page, path):
    """Every self-check exercise answers right and wrong, with hint and solution hidden until asked."""
    found = page.eval_on_selector_all(".rn-check", "els => els.map(e => [e.id, e.dataset.ready])")
    ids = [uid for uid, _ in found]
    assert len(set(ids)) == len(ids), f"{path}: duplicate exercise keys {ids}"
    roots = page.locator(".rn-check")
    for i, (uid, ready) in enumerate(found):
        assert ready == "1", f"{path}#{uid}: script did not run"
        walk_exercise(roots.nth(i), f"{path}#{uid}")


@pytest.mark.parametrize("path", READ)
def test_page_as_a_reader_meets_it(browser, path):
    assert (HTML / path).stat().st_size < MAX_PAGE_BYTES, f"{path} is heavier than 2 MB"
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True
    )
    page = watch(context.new_page(), (file_url().rstrip("/") + "/", "data:", "blob:", "about:"))
    try:
        page.goto(file_url(path), wait_until="load")
        _typeset(page)
        _check_math(page, path)
        scroll_width, inner = page.evaluate(
            "[document.scrollingElement.scrollWidth, window.innerWidth]"
        )
        culprits = page.evaluate(_OVERFLOWING) if scroll_width > inner + 1 else []
        shoot(page, "phone_" + path.replace("/", "_") + ".png")
        assert scroll_width <= inner + 1, (
            f"{path} is {scroll_width} px wide on a {inner} px screen; too wide: {culprits}"
        )
        clipped = page.evaluate(_CLIPPED_LEFT)
        assert clipped == [], f"{path}: text cut off at the left edge of its scroll box: {clipped}"
        wide = page.evaluate(_WIDE_CAPTION)
        assert wide == [], f"{path}: a caption wider than the box it scrolls in: {wide}"
        lost = page.evaluate(_SCROLLED_TABLE)
        assert lost == [], f"{path}: a wide table scrolled to its end hides its row labels: {lost}"
        para = page.locator(".bd-article p").first  # Korean breaks between words
        if para.count():
            assert para.evaluate("p => getComputedStyle(p).wordBreak") == "keep-all"
        toggles = page.locator(".bd-article summary, .bd-article button").all_inner_texts()
        english = [t for t in toggles if re.search(r"\b(?:Show|Hide|Click)\b", t)]
        assert english == [], f"{path}: English controls in the Korean page: {english[:3]}"
        links, files = _offered_files(page, path)
        assert files, f"{path}: no download link in the page header"
        source = HTML / "_sources" / Path(path).with_suffix(".ipynb")
        if source.exists():  # a notebook page offers the notebook itself
            assert source.resolve() in files, f"{path}: the notebook is not offered: {links}"
        _check_sliders(page, path)
        _walk_exercises(page, path)  # last: it types answers and opens hints
        assert page.outside == [], f"{path} requested outside the folder: {page.outside}"
        assert page.errors == [], f"{path}: {page.errors}"
    finally:
        context.close()


def test_the_root_page_forwards_to_the_front_page():
    assert is_redirect("index.html") and "book/index.html" in (HTML / "index.html").read_text()


def _check_math(page, path):
    raw = page.evaluate(
        "Array.from(document.querySelectorAll('.math'))"
        ".filter(e => !e.querySelector('mjx-container')).length"
    )
    assert raw == 0, f"{path}: {raw} formulas left untypeset from file://"
    errors = page.evaluate(
        "Array.from(document.querySelectorAll('mjx-merror'))"
        ".map(e => e.getAttribute('data-mjx-error') || e.textContent)"
    )
    assert errors == [], f"MathJax could not typeset on {path}: {errors}"


# A control's exploration as the reader sees it, in one call: frame key, picture, value text.
_SEEN = """c => {
  const root = c.closest('div.rn-explore'), img = root.querySelector('img.rn-frame');
  const out = c.id ? root.querySelector('output[for="' + c.id + '"]') : null;
  return {key: img.dataset.key, src: img.getAttribute('src'), text: out ? out.innerText : null,
          valuetext: c.getAttribute('aria-valuetext'), at_end: c.value === c.max,
          checked: Array.from(c.querySelectorAll('input[type=radio]')).filter(e => e.checked)
                        .map(e => e.value),
          options: Array.from(c.querySelectorAll('input[type=radio]')).map(e => e.value)};
}"""


def _check_sliders(page, path):
    """Every control of every exploration, by keyboard: each slider and each radio option
    changes the frame key, the picture and the value shown; nothing overflows at 390 px."""
    roots = page.locator("div.rn-explore")
    for r in range(roots.count()):
        root = roots.nth(r)
        view = root.get_attribute("data-view")
        assert view == "static", (
            f"{path}: exploration {r} is not the full static view "
            f"(data-view={view!r}): build the book with ROBONUM_STATIC=1"
        )
        img = root.locator("img.rn-frame")
        img.scroll_into_view_if_needed()
        page.wait_for_function(
            "img => img.complete && img.naturalWidth > 0", arg=img.element_handle()
        )
        natural, css = img.evaluate("i => [i.naturalWidth, +i.getAttribute('width')]")
        assert natural >= 2 * css, (
            f"{path}: exploration {r} frames are not rendered at 2x their CSS width"
        )
        controls = root.locator("[data-rn-param]")
        kinds = controls.evaluate_all(
            "els => els.map(e => e.tagName === 'INPUT' ? e.type : e.tagName.toLowerCase())"
        )
        assert kinds, f"{path}: exploration {r} has no controls"
        for i, kind in enumerate(kinds):
            c = controls.nth(i)
            where = f"{path}: exploration {r}, control {i} ({kind})"
            if kind == "range":
                _check_range(page, where, c)
            elif kind == "fieldset":
                _check_radios(page, where, c)
            else:
                _check_select(where, c)
    if roots.count():
        _check_narrow(page, path, roots)


def _check_range(page, where, s):
    before = s.evaluate(_SEEN)
    s.focus()  # (focus scrolls it into view, as a tab would)
    page.keyboard.press("ArrowLeft" if before["at_end"] else "ArrowRight")
    after = s.evaluate(_SEEN)
    assert after["key"] != before["key"], f"{where} did not change the frame key"
    assert after["src"] != before["src"], f"{where} did not change the picture"
    assert after["text"] != before["text"], f"{where} did not update its value text"
    assert after["valuetext"] == after["text"], f"{where}: aria-valuetext is not the value shown"


def _check_radios(page, where, group):
    start = group.evaluate(_SEEN)
    assert len(start["checked"]) == 1, f"{where}: {len(start['checked'])} options checked"
    group.locator("input:checked").focus()
    seen, before = set(start["checked"]), start
    for _ in range(
        len(start["options"])
    ):  # arrow keys cycle through every option and back to the first
        page.keyboard.press("ArrowRight")
        after = group.evaluate(_SEEN)
        now = after["checked"]
        assert len(now) == 1 and now != before["checked"], (
            f"{where}: the arrow key did not check the next option"
        )
        assert after["key"] != before["key"], (
            f"{where}: option {now[0]} did not change the frame key"
        )
        assert after["src"] != before["src"], f"{where}: option {now[0]} did not change the picture"
        seen.update(now)
        before = after
    assert seen == set(start["options"]), f"{where}: options missed"


def _check_select(where, select):  # (arrow keys on a closed <select> differ by platform)
    values = select.evaluate("s => Array.from(s.options).map(o => o.value)")
    start = select.evaluate("s => s.value")
    for v in [v for v in values if v != start] + [start]:
        before = select.evaluate(_SEEN)
        select.select_option(v)
        after = select.evaluate(_SEEN)
        assert after["key"] != before["key"] and after["src"] != before["src"], (
            f"{where}: option {v} did not change the frame"
        )


def _check_narrow(page, path, roots):
    """At the phone's 390 px, with its longest message shown, no exploration overflows."""
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
