"""Build the HTML book, re-executing notebooks only when something they depend on changed.

Jupyter Book's execution cache keys a notebook on its cell sources only
(jupyter-book#1633): a change under lib/ would otherwise publish stale
outputs.  We hash lib/ and requirements.txt; when the hash differs from the
last build we drop the cache and ask Sphinx to re-read every page.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import nbformat
from jupyter_cache import get_cache
from jupyter_cache.executors import load_executor

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


def toc_notebooks(root: Path = ROOT) -> list[Path]:
    """The .ipynb pages listed in _toc.yml (the ones the build executes)."""
    text = (root / "_toc.yml").read_text(encoding="utf-8")
    files = re.findall(r"^\s*-?\s*(?:file|root):\s*(\S+)", text, re.M)
    return [root / f"{f}.ipynb" for f in files if (root / f"{f}.ipynb").exists()]


def execute_in_parallel(notebooks: list[Path]) -> None:
    """Fill the build's execution cache with every notebook that is not in it, on all cores.

    myst-nb would execute them one after another during the Sphinx read; it
    finds them in jupyter-cache instead (the cache matches on the code cells),
    so a fresh build costs about the slowest notebook, not the sum.
    """
    cache = get_cache(str(CACHE))
    todo = []
    for path in notebooks:
        try:
            cache.match_cache_notebook(nbformat.read(str(path), as_version=4))
        except KeyError:
            todo.append(cache.add_nb_to_project(str(path)).pk)
    if not todo:
        return
    tic = time.perf_counter()
    result = load_executor("local-parallel", cache=cache).run_and_cache(
        filter_pks=todo, timeout=600, allow_errors=False)
    print(f"executed {len(result.succeeded)} notebook(s) in parallel in {time.perf_counter() - tic:.1f} s")
    for uri in result.excepted + result.errored:
        print(f"notebook failed: {uri} (the build will report its traceback)", file=sys.stderr)


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
    execute_in_parallel(toc_notebooks())
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
