"""Serve the built book on loopback and drive Debian's Chromium through Playwright.

No browser is downloaded: Playwright is pointed at the ``chromium`` found on
PATH.  The flags keep Chromium from calling home, so every request a page
makes is one the book itself asked for.
"""
from __future__ import annotations

import functools
import http.server
import shutil
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HTML = ROOT / "_build" / "html"
SHOTS = ROOT / "_build" / "screenshots"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def site():
    """Base URL of the built book, served from _build/html on 127.0.0.1."""
    if not (HTML / "index.html").exists():
        pytest.fail("no built book in _build/html: run `make book` first")
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
    """Every page of the book, as paths relative to _build/html."""
    skip = {"genindex.html", "search.html"}
    pages = sorted(p.relative_to(HTML).as_posix() for p in HTML.rglob("*.html")
                   if "_static" not in p.parts and "_sources" not in p.parts and p.name not in skip)
    return pages
