"""Serve the built book on loopback and drive Debian's Chromium through Playwright.

No browser is downloaded: Playwright is pointed at the ``chromium`` found on
PATH.  The flags keep Chromium from calling home, so every request a page
makes is one the book itself asked for.

The book is read from ``_build/html``; set ``ROBONUM_HTML`` to test a build
elsewhere.  ``ROBONUM_SHOTS=1`` (``make shots``) also saves screenshots for a
human reviewer, next to the build in ``<build>/../screenshots``; ``make test``
skips them (a full-page screenshot costs about 2 s a page and asserts nothing).
"""

from __future__ import annotations

import functools
import http.server
import os
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HTML = Path(os.environ.get("ROBONUM_HTML", ROOT / "_build" / "html")).resolve()
SHOTS = HTML.parent / "screenshots"
SHOTS_ON = os.environ.get("ROBONUM_SHOTS", "") not in ("", "0")
sys.path.insert(0, str(ROOT / "tools"))
from chromium import FLAGS, executable  # noqa: E402  (tools/ is not a package)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def site():
    """Base URL of the built book, served from the build folder on 127.0.0.1."""
    if not (HTML / "index.html").exists():
        pytest.fail(f"no built book in {HTML}: run `make book` first")
    handler = functools.partial(_Quiet, directory=str(HTML))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="session")
def browser():
    exe = executable()
    if exe is None:
        pytest.fail(
            "Debian's chromium is not on PATH: apt-get install chromium (make test does it as root)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=exe, args=FLAGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def desktop(browser, site) -> dict[str, dict]:
    """Every page visited once at 1280 px (desktop_visit.py): what test_a11y, test_weight and
    test_table_width check."""
    from desktop_visit import visit_all  # it imports this module's helpers

    return visit_all(browser, site)


def shoot(target, name: str, **kw) -> None:
    """Save a screenshot of a page or element as ``SHOTS/name`` when ``ROBONUM_SHOTS`` is set."""
    if SHOTS_ON:
        SHOTS.mkdir(parents=True, exist_ok=True)
        target.screenshot(path=str(SHOTS / name), **kw)


def book_pages() -> list[str]:
    """Every page of the book, as paths relative to the build folder."""
    skip = {"genindex.html", "search.html"}
    pages = sorted(
        p.relative_to(HTML).as_posix()
        for p in HTML.rglob("*.html")
        if "_static" not in p.parts and "_sources" not in p.parts and p.name not in skip
    )
    return pages


def reader_pages() -> list[str]:
    """:func:`book_pages` without the root index.html, which only forwards to the front page."""
    return [p for p in book_pages() if not is_redirect(p)]


def is_redirect(path: str) -> bool:
    """A page that only forwards elsewhere (meta refresh); it is never read."""
    return 'http-equiv="Refresh"' in (HTML / path).read_text(encoding="utf-8")


def file_url(path: str = "") -> str:
    """``file://`` URL of a page of the build (the book opened from disk, no server)."""
    return (HTML / path).as_uri()


def watch(page, allowed: tuple[str, ...]):
    """Record requests outside ``allowed`` (and abort them) and page/console errors on ``page``."""
    page.outside, page.errors = [], []
    page.on("request", lambda r: None if r.url.startswith(allowed) else page.outside.append(r.url))
    page.on("pageerror", lambda e: page.errors.append(f"pageerror: {e}"))
    page.on(
        "console",
        lambda m: page.errors.append(f"console.{m.type}: {m.text}") if m.type == "error" else None,
    )
    page.route(
        "**/*",
        lambda route: route.continue_() if route.request.url.startswith(allowed) else route.abort(),
    )
    return page


# -- self-check exercises (.rn-check): one walk-through, used by several tests ------------
# What a reader can see of an exercise, read in one call (each Playwright call is a
# round trip of 10-25 ms here; the answers themselves are typed and clicked for real).
_SNAPSHOT = """root => {
  const shown = (el) => !!el && el.checkVisibility() && el.getClientRects().length > 0;
  const fb = root.querySelector('.rn-feedback');
  const part = (cls) => {
    const d = root.querySelectorAll('details.' + cls);
    return {count: d.length, open: d.length ? d[0].hasAttribute('open') : null,
            visible: d.length ? shown(d[0].querySelector('.rn-body')) : null};
  };
  return {kind: root.dataset.kind, answer: root.dataset.answer, state: root.dataset.state || null,
          atol: root.dataset.atol, rtol: root.dataset.rtol,
          role: fb.getAttribute('role'), live: fb.getAttribute('aria-live'), feedback: fb.innerText,
          options: Array.from(root.querySelectorAll('input[type=radio]')).map(r => r.value),
          hint: part('rn-hint'), solution: part('rn-solution')};
}"""


def snapshot(root) -> dict:
    return root.evaluate(_SNAPSHOT)


def _wrong_value(snap) -> str:
    a = float(snap["answer"])
    tol = max(float(snap["atol"]), float(snap["rtol"]) * abs(a))
    return repr(a + 10 * tol + abs(a) + 1)


def answer_exercise(root, value: str, press_enter: bool, kind: str | None = None):
    """Type (or pick) ``value`` and submit it by Enter or by the button."""
    if (kind or root.get_attribute("data-kind")) == "choice":
        root.locator(f"input[type=radio][value='{value}']").check()
        root.locator("button.rn-submit").click()
        return
    box = root.locator("input.rn-input")
    box.fill(value)
    if press_enter:
        box.press("Enter")
    else:
        root.locator("button.rn-submit").click()


def walk_exercise(root, label):
    """A wrong answer, then the right one, then hint and solution opened; asserts each verdict."""
    root.scroll_into_view_if_needed()
    snap = snapshot(root)
    assert (snap["role"], snap["live"]) == ("status", "polite"), (
        f"{label}: feedback is not announced"
    )
    for cls in ("hint", "solution"):
        part = snap[cls]
        assert part["count"] == 1, f"{label}: no rn-{cls}"
        assert not part["open"], f"{label}: rn-{cls} open before asked"
        assert not part["visible"], f"{label}: rn-{cls} visible before asked"
    kind, answer = snap["kind"], snap["answer"]
    if kind == "choice":
        wrong = next(v for v in snap["options"] if v != answer)
    else:
        wrong = _wrong_value(snap)
    answer_exercise(root, wrong, press_enter=True, kind=kind)
    snap = snapshot(root)
    assert snap["state"] == "wrong", f"{label}: {wrong!r} not judged wrong"
    assert snap["feedback"].startswith("아직 아닙니다"), f"{label}: {snap['feedback']!r}"
    answer_exercise(root, answer, press_enter=False, kind=kind)
    snap = snapshot(root)
    assert snap["state"] == "correct", f"{label}: the right answer was refused"
    assert snap["feedback"].startswith("맞습니다"), f"{label}: {snap['feedback']!r}"
    for cls in ("rn-hint", "rn-solution"):
        root.locator(f"details.{cls} > summary").click()
    snap = snapshot(root)
    for cls in ("hint", "solution"):
        assert snap[cls]["open"] and snap[cls]["visible"], f"{label}: rn-{cls} did not open"
