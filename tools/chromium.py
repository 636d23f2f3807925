"""Debian's chromium for Playwright: where it is, and flags that keep it from calling home.

Used by ``tools/pdf_book.py`` (printing the book) and ``tests/browser/conftest.py`` (the
browser tests), so that both drive the same browser the same way.  Nothing is downloaded:
Playwright is pointed at the ``chromium`` on PATH, and with these flags every request a
page makes is one the book itself asked for.
"""

from __future__ import annotations

import shutil

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def executable() -> str | None:
    """Debian's ``chromium`` (``chromium-browser`` elsewhere), or None when it is not on PATH."""
    return shutil.which("chromium") or shutil.which("chromium-browser")
