"""Build the HTML book, re-executing notebooks only when something they depend on changed.

Jupyter Book's execution cache keys a notebook on its cell sources only
(jupyter-book#1633): a change under lib/ would otherwise publish stale
outputs.  We hash lib/robonum and requirements.txt; when that hash differs from the
last build we drop the cache.  When it or the Sphinx extension or the
configuration changed, we ask Sphinx to re-read every page.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
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
SECONDS = BUILD / ".notebook-seconds.json"  # last measured execution times
# Environment that changes what a notebook outputs (outputs_hash)
OUTPUT_ENV = (
    "ROBONUM_STATIC",
    "OPENBLAS_CORETYPE",
    "OPENBLAS_NUM_THREADS",
    "NPY_DISABLE_CPU_FEATURES",
    "NUMBA_CPU_NAME",
)


def _digest(root: Path, files: list[Path], extra: str) -> str:
    h = hashlib.sha256()
    h.update(extra.encode())
    for path in files:
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def outputs_hash(root: Path = ROOT) -> str:
    """Digest of everything a notebook's outputs depend on besides its own cells.

    The library the notebooks import (lib/robonum) and the pins.  ROBONUM_STATIC
    is part of it: an exploration's output differs between the full static view
    and the preview a bare kernel gets.  So is OpenBLAS's choice of kernel and threads
    (OPENBLAS_CORETYPE, OPENBLAS_NUM_THREADS), and NumPy's and numba's choice of vector
    instructions (NPY_DISABLE_CPU_FEATURES, NUMBA_CPU_NAME): they move the last bits of a
    result (``np.exp`` differs with and without AVX-512), and ``make test`` has nbval judge
    the build's run (tests/nbval_replay.py), so a run under another kernel must run the
    notebooks under it.  The Sphinx extension
    (lib/robonum_sphinx) and the book's configuration are not: they change pages, not
    outputs, so an edit there re-reads the pages without re-executing a notebook.
    """
    files = sorted((root / "lib" / "robonum").rglob("*.py")) + [root / "requirements.txt"]
    env = " ".join(f"{k}={os.environ.get(k, '')}" for k in OUTPUT_ENV)
    return _digest(root, files, env)


def inputs_hash(root: Path = ROOT) -> str:
    """Digest of everything the built pages depend on besides the pages' own files.

    The notebook outputs' digest plus the Sphinx extension, the table of
    contents and the configuration; a change re-reads every page (Sphinx does not
    notice an extension's code or a notebook whose cells did not change).
    """
    files = sorted((root / "lib" / "robonum_sphinx").rglob("*.py")) + [
        root / "_toc.yml",
        root / "_config.yml",
    ]
    return _digest(root, files, outputs_hash(root))


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

    Longest first, one notebook at a time per process: jupyter-cache's own
    parallel executor hands them out in pairs in table-of-contents order
    (``Pool.map``'s chunks), which in a clean clone put the two slowest
    chapters on one core (measured: 129 s for 208 s of notebooks on 2 cores).
    """
    cache = get_cache(str(CACHE))
    todo = {}
    for path in notebooks:
        try:
            cache.match_cache_notebook(nbformat.read(str(path), as_version=4))
        except KeyError:
            todo[cache.add_nb_to_project(str(path)).pk] = path
    if not todo:
        return
    seconds = _last_seconds()
    rank = {path: i for i, path in enumerate(notebooks)}
    # Without a record (a clean clone) the later chapters go first: they compare more solvers.
    order = sorted(todo, key=lambda pk: (-seconds.get(_key(todo[pk]), 0.0), -rank[todo[pk]]))
    tic = time.perf_counter()
    with multiprocessing.Pool(min(len(order), os.cpu_count() or 1)) as pool:
        failed = [
            uri for uris in pool.imap_unordered(_execute_one, order, chunksize=1) for uri in uris
        ]
    print(
        f"executed {len(order) - len(failed)} notebook(s) in parallel in "
        f"{time.perf_counter() - tic:.1f} s"
    )
    for uri in failed:
        print(f"notebook failed: {uri} (the build will report its traceback)", file=sys.stderr)
    _record_seconds(cache)


def _execute_one(pk: int) -> list[str]:
    """Execute one project notebook into the cache (in a pool process); the URIs that failed."""
    result = load_executor("local-serial", cache=get_cache(str(CACHE))).run_and_cache(
        filter_pks=[pk], timeout=600, allow_errors=False
    )
    return result.excepted + result.errored


def _key(path: Path) -> str:
    return Path(path).resolve().relative_to(ROOT).as_posix()


def _last_seconds() -> dict:
    try:
        return json.loads(SECONDS.read_text())
    except (OSError, ValueError):
        return {}


def _record_seconds(cache) -> None:
    """Keep each notebook's execution time for the next build's order (it outlives a cleared cache)."""
    seconds = _last_seconds()
    for record in cache.list_cache_records():
        if record.uri and record.data.get("execution_seconds"):
            seconds[_key(record.uri)] = round(record.data["execution_seconds"], 1)
    SECONDS.write_text(json.dumps(seconds, indent=1, sort_keys=True) + "\n")


def main() -> int:
    digest, outputs = inputs_hash(), outputs_hash()
    last = STAMP.read_text().split() if STAMP.exists() else []
    stale = last[:1] != [digest]
    if last[1:2] != [outputs] and CACHE.exists():
        print(f"lib/robonum or the pins changed: clearing {CACHE.relative_to(ROOT)}")
        shutil.rmtree(CACHE)
    if stale and (BUILD / "html").exists():
        # Sphinx never deletes the page of a document that left the table of
        # contents; a stale page would be tested and searched as if it were live.
        shutil.rmtree(BUILD / "html")
    execute_in_parallel(toc_notebooks())
    cmd = [
        str(Path(sys.executable).parent / "jupyter-book"),
        "build",
        str(ROOT),
        "--warningiserror",
        "--keep-going",
    ]
    if stale:
        cmd.append("--all")  # Sphinx would otherwise skip unchanged .ipynb files
    start = time.perf_counter()
    result = subprocess.run(cmd, cwd=ROOT)
    if result.returncode != 0:
        print("book build FAILED", file=sys.stderr)
        return result.returncode
    BUILD.mkdir(exist_ok=True)
    STAMP.write_text(f"{digest} {outputs}\n")
    print(f"built in {time.perf_counter() - start:.1f} s: {BUILD / 'html' / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
