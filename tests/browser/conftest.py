"""Serve the built book on loopback and drive Debian's Chromium through Playwright.

No browser is downloaded: Playwright is pointed at the ``chromium`` found on
PATH.  The flags keep Chromium from calling home, so every request a page
makes is one the book itself asked for.

The book is read from ``_build/html``; set ``ROBONUM_HTML`` to test a build
elsewhere (screenshots then go next to it, in ``<build>/../screenshots``).
"""
from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HTML = Path(os.environ.get("ROBONUM_HTML", ROOT / "_build" / "html")).resolve()
SHOTS = HTML.parent / "screenshots"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


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
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        pytest.fail("Debian's chromium is not on PATH: apt-get install chromium (make test does it as root)")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=exe, args=FLAGS)
        yield b
        b.close()


def book_pages() -> list[str]:
    """Every page of the book, as paths relative to the build folder."""
    skip = {"genindex.html", "search.html"}
    pages = sorted(p.relative_to(HTML).as_posix() for p in HTML.rglob("*.html")
                   if "_static" not in p.parts and "_sources" not in p.parts and p.name not in skip)
    return pages


def file_url(path: str = "") -> str:
    """``file://`` URL of a page of the build (the book opened from disk, no server)."""
    return (HTML / path).as_uri()


def watch(page, allowed: tuple[str, ...]):
    """Record requests outside ``allowed`` (and abort them) and page/console errors on ``page``."""
    page.outside, page.errors = [], []
    page.on("request", lambda r: None if r.url.startswith(allowed) else page.outside.append(r.url))
    page.on("pageerror", lambda e: page.errors.append(f"pageerror: {e}"))
    page.on("console", lambda m: page.errors.append(f"console.{m.type}: {m.text}")
            if m.type == "error" else None)
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith(allowed)
               else route.abort())
    return page
