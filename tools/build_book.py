"""Build the HTML book, re-executing notebooks only when something they depend on changed.

Jupyter Book's execution cache keys a notebook on its cell sources only
(jupyter-book#1633): a change under lib/ would otherwise publish stale
outputs.  We hash lib/ and requirements.txt; when the hash differs from the
last build we drop the cache and ask Sphinx to re-read every page.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "_build"
CACHE = BUILD / ".jupyter_cache"
STAMP = BUILD / ".inputs-hash"


def inputs_hash(root: Path = ROOT) -> str:
    """Digest of everything a notebook's outputs depend on besides its own cells.

    ROBONUM_STATIC is part of it: an exploration's output differs between the
    full static view and the preview a bare kernel gets.
    """
    h = hashlib.sha256()
    h.update(f"ROBONUM_STATIC={os.environ.get('ROBONUM_STATIC', '')}".encode())
    files = sorted((root / "lib").rglob("*.py")) + [root / "requirements.txt", root / "_toc.yml",
                                                     root / "_config.yml"]
    for path in files:
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def main() -> int:
    digest = inputs_hash()
    stale = not STAMP.exists() or STAMP.read_text().strip() != digest
    if stale and CACHE.exists():
        print(f"lib/, requirements or the book's configuration changed: clearing {CACHE.relative_to(ROOT)}")
        shutil.rmtree(CACHE)
    if stale and (BUILD / "html").exists():
        # Sphinx never deletes the page of a document that left the table of
        # contents; a stale page would be tested and searched as if it were live.
        shutil.rmtree(BUILD / "html")
    cmd = [str(Path(sys.executable).parent / "jupyter-book"), "build", str(ROOT),
           "--warningiserror", "--keep-going"]
    if stale:
        cmd.append("--all")  # Sphinx would otherwise skip unchanged .ipynb files
    start = time.perf_counter()
    result = subprocess.run(cmd, cwd=ROOT)
    if result.returncode != 0:
        print("book build FAILED", file=sys.stderr)
        return result.returncode
    BUILD.mkdir(exist_ok=True)
    STAMP.write_text(digest + "\n")
    print(f"built in {time.perf_counter() - start:.1f} s: {BUILD / 'html' / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
