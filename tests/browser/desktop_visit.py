"""One visit of every page at 1280 px, from the server: what test_a11y, test_weight and test_table_width check.

A chapter page costs Chromium 2-4 s of CPU to load and typeset here, so the
desktop checks share one load (the phone's checks, from ``file://``, are
test_pages'): axe-core in light and dark mode, the names and focus rings of the
controls, formulas as Tab stops (test_a11y's docstring says how), and, read
right after the page has loaded and before anything is injected, what opening
it fetched (test_weight) and the widths of its tables (test_table_width).  Two pages are checked at once (IN_FLIGHT).

The visit is a session fixture (``conftest.desktop``); the root conftest.py keeps
the two test files on one xdist worker, so it is made once.
"""

from __future__ import annotations

from pathlib import Path

import axe_playwright_python

from conftest import HTML, reader_pages, shoot, watch

AXE = Path(axe_playwright_python.__file__).parent / "axe.min.js"
PAGES = (  # every page a reader can open, and the two Sphinx makes
    reader_pages() + [p for p in ("search.html", "genindex.html") if (HTML / p).exists()]
    if HTML.exists()
    else []
)
DESKTOP = {"width": 1280, "height": 900}

# axe.run started in a later task of the page, so that two pages work at once (each has
# its own renderer process), and its result collected afterwards.
_AXE_START = """([context, options]) => {
  window.rnAxeJob = null;
  setTimeout(() => {
    window.rnAxeJob = axe.run(context === null ? document : context,
                              Object.assign({resultTypes: ['violations']}, options))
      .then(r => r.violations.map(v => `${v.impact} ${v.id}: ` +
        v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ') + ` (${v.nodes.length})`));
  }, 0);
}"""
_AXE_RESULT = """() => new Promise(done => {
  const wait = () => window.rnAxeJob
    ? window.rnAxeJob.then(done, e => done([`axe failed: ${e}`])) : setTimeout(wait, 5);
  wait();
})"""
EVERY_RULE = {
    "rules": {
        "color-contrast": {"enabled": False},
        "label-content-name-mismatch": {"enabled": True},
    }
}
CONTRAST = {"runOnly": {"type": "rule", "values": ["color-contrast"]}}
# The contrast passes measure one element of each look (module doc): text in the same tag,
# colour, background (the first opaque one up the tree), size, weight and opacity has the
# same contrast.  Text over a background image is always measured.  Code blocks and
# formulas are left out.
_SAMPLE = """() => {
  document.querySelectorAll('[data-rn-contrast]').forEach(e => e.removeAttribute('data-rn-contrast'));
  const seen = new Set();
  const back = (e) => {
    for (; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.backgroundImage !== 'none') return 'image';
      if (s.backgroundColor !== 'rgba(0, 0, 0, 0)' && s.backgroundColor !== 'transparent') return s.backgroundColor;
    }
    return 'canvas';
  };
  for (const e of document.body.querySelectorAll('*')) {
    if (e.closest('div.highlight, mjx-container, script, style, [data-rn-contrast]')) continue;
    if (![...e.childNodes].some(t => t.nodeType === 3 && t.textContent.trim())) continue;
    const s = getComputedStyle(e);
    const key = [e.tagName, s.color, back(e), s.fontSize, s.fontWeight, s.opacity].join('|');
    if (key.includes('image') || !seen.has(key)) { seen.add(key); e.setAttribute('data-rn-contrast', ''); }
  }
  return document.querySelectorAll('[data-rn-contrast]').length;
}"""
TEXT = {"include": [["[data-rn-contrast]"]], "exclude": [["div.highlight"], ["mjx-container"]]}
IN_FLIGHT = 2  # pages checked at once: the machines have 2 cores

# A control's name as a reader hears it (near enough for this check), and the controls
# whose names come from the toolchain: everything outside the article, and the
# buttons, toggles and heading links inside it.  A name with Latin letters must
# have Hangul too; a name with no letters at all ("#", "1") is fine.
_NAMES = """() => {
  const name = (e) => {
    const by = e.getAttribute('aria-labelledby');
    if (by) return by.split(/\\s+/).map(id => (document.getElementById(id) || {}).textContent || '').join(' ');
    return e.getAttribute('aria-label') || e.innerText || e.textContent || e.title || '';
  };
  const attrs = ['title', 'aria-label', 'data-bs-title', 'data-tooltip', 'placeholder'];
  const controls = 'button, summary, select, input:not([type=hidden]), [role=button], a[title], [aria-label]';
  const article = document.querySelector('article.bd-article');
  const inArticle = 'summary, button, a.headerlink, [data-tooltip], [data-bs-title]';
  const bad = [];
  const english = (t) => /[A-Za-z]/.test(t) && !/[\\uac00-\\ud7a3]/.test(t);
  for (const e of document.querySelectorAll(controls + ', ' + inArticle)) {
    if (article && article.contains(e) && !e.matches(inArticle)) continue;
    if (e.closest('.rn-explore .rn-controls, mjx-container')) continue;
    const texts = [name(e).trim()].concat(attrs.map(a => e.getAttribute(a) || ''));
    const t = texts.find(t => english(t) && !/^\\.[a-z]+$/.test(t));  // ".pdf": a format
    if (t) bad.push(`${e.tagName.toLowerCase()}.${[...e.classList].join('.')}: ${t.slice(0, 50)}`);
  }
  return [...new Set(bad)];
}"""

# Every visible control, focused as the keyboard would (the page has already seen a Tab
# press, so a scripted focus matches :focus-visible): it must draw an outline or a
# box-shadow that is not transparent.
_NO_RING = """() => {
  const sel = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]';
  const alpha = (c) => { const m = c.match(/rgba?\\(([^)]*)\\)/); if (!m) return 1;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean); return p.length > 3 ? parseFloat(p[3]) : 1; };
  const shadow = (s) => s !== 'none' && s.split(/,(?![^(]*\\))/).some(part => {
    const c = (part.match(/rgba?\\([^)]*\\)/) || ['rgb(0,0,0)'])[0];
    const len = part.replace(/rgba?\\([^)]*\\)/, '').match(/-?[\\d.]+px/g) || [];
    return alpha(c) > 0 && len.slice(2).some(v => parseFloat(v) > 0); });
  const bad = [];
  for (const e of document.querySelectorAll(sel)) {
    if (e.tabIndex < 0 || e.disabled || !e.checkVisibility({visibilityProperty: true})) continue;
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    e.focus({preventScroll: true});
    if (document.activeElement !== e) continue;
    const s = getComputedStyle(e);
    const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1 && alpha(s.outlineColor) > 0;
    if (!outline && !shadow(s.boxShadow))
      bad.push(`${e.tagName.toLowerCase()}.${[...e.classList].join('.')} ${(e.getAttribute('aria-label') || e.innerText || '').trim().slice(0, 30)}`);
  }
  return [...new Set(bad)];
}"""

_MATH_STOPS = """() => [...document.querySelectorAll('mjx-container')]
  .filter(m => m.tabIndex >= 0 && m.scrollWidth <= m.clientWidth + 1).length"""


def _typeset(page) -> None:
    if page.locator(".math").count():
        page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise")
        page.evaluate("MathJax.startup.promise")
        page.wait_for_timeout(50)  # robonum-a11y.js marks scrolling formulas after that promise


def _dark(page) -> None:
    """Switch to dark mode with the page's own button, as a reader would."""
    # The theme's colours change with a 0.15 s transition; axe must measure the colours it
    # ends on.  Waiting for every transition to finish took 0.4-0.5 s a page; without them
    # the page shows those colours at once.
    page.add_style_tag(content="*, *::before, *::after { transition: none !important; }")
    for _ in range(3):
        if page.evaluate("document.documentElement.dataset.theme") == "dark":
            break
        page.evaluate("document.querySelector('.theme-switch-button').click()")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    page.evaluate("Promise.all(document.getAnimations().map(a => a.finished))")  # any left


FRAMES = "_images/rn-frames/"
# Bytes of the page and of every picture it fetched, from the browser's own record.
_FETCHED = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource').filter(r => r.name.includes('/_images/'));
  return [nav.decodedBodySize].concat(res.map(r => r.decodedBodySize))
    .reduce((a, b) => a + b, 0);
}"""


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


def wide_tables_on(page) -> list[str]:
    """The tables of a loaded, typeset page that are wider than their box (test_table_width)."""
    return page.evaluate(_WIDE_TABLES)


def _axe(pages: list, context, options) -> list[list[str]]:
    """One axe pass on every page at once; each page's violations."""
    for page in pages:
        page.evaluate(_AXE_START, [context, options])
    return [page.evaluate(_AXE_RESULT) for page in pages]


def _first_view(page) -> dict:
    """What opening the page fetched, no control touched (test_weight reads it)."""
    return {
        "bytes": page.evaluate(_FETCHED),
        "default_frames": sorted(
            set(page.eval_on_selector_all("img.rn-frame", "els => els.map(e => e.src)"))
        ),
        "frames_fetched": sorted({u for u in page.requested if FRAMES in u}),
        "outside": list(page.outside),
        "errors": list(page.errors),
    }


def _check(browser, site, paths: list[str]) -> dict[str, dict]:
    """Visit ``paths`` side by side: first view, axe in light and dark, names, focus rings, formulas."""
    contexts = [browser.new_context(viewport=DESKTOP) for _ in paths]
    pages = [watch(c.new_page(), (site + "/", "data:", "blob:", "about:")) for c in contexts]
    found = {}
    try:
        for page, path in zip(pages, paths):
            page.requested = []
            page.on("request", lambda r, page=page: page.requested.append(r.url))
            page.goto(f"{site}/{path}", wait_until="commit")
        for page, path in zip(pages, paths):
            page.wait_for_load_state("load")
            _typeset(page)
            found[path] = {"first_view": _first_view(page), "wide_tables": wide_tables_on(page)}
            page.add_script_tag(path=str(AXE))
        every = _axe(pages, None, EVERY_RULE)
        for page in pages:
            page.evaluate(_SAMPLE)
        light = _axe(pages, TEXT, CONTRAST)
        for page, path, a, b in zip(pages, paths, every, light):
            page.keyboard.press("Tab")  # from here on the keyboard is the pointing device
            found[path].update(
                axe=a + ["light " + v for v in b],
                english=page.evaluate(_NAMES),
                no_ring=page.evaluate(_NO_RING),
                math_stops=page.evaluate(_MATH_STOPS),
            )
            _dark(page)
            page.evaluate(_SAMPLE)  # the looks of dark mode
        for page, path, d in zip(pages, paths, _axe(pages, TEXT, CONTRAST)):
            found[path]["axe"] += ["dark " + v for v in d]
            shoot(page, "dark_" + path.replace("/", "_") + ".png")
    finally:
        for c in contexts:
            c.close()
    return found


def visit_all(browser, site) -> dict[str, dict]:
    """Every page checked once, IN_FLIGHT at a time (pages of like size side by side)."""
    by_size = sorted(PAGES, key=lambda p: (HTML / p).stat().st_size)
    found = {}
    for i in range(0, len(by_size), IN_FLIGHT):
        found.update(_check(browser, site, by_size[i : i + IN_FLIGHT]))
    return found
