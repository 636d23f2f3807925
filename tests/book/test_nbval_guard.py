"""nbval really compares what the chapters state: a tampered stored output must fail.

Two guards, each running nbval (with this repository's comparison plugin,
``tests/nbval_numbers.py``) in a subprocess:

* on a copy of a real page whose stored outputs were altered where an
  exploration cell and a printed number live, once with nbval's own kernel
  (``make test-notebooks``) and once on the book build's run of the page
  (``--nbval-replay``, as ``make test`` runs nbval: ``tests/nbval_replay.py``);
* on a small notebook made here that shows a glued Newton-like result, a count,
  a table with a banded column and an exercise.  Run with its values moved
  as another machine moves them (within the printed digits, within the
  band), it passes; with each stored output changed as a reader could see,
  every one of those cells fails.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "book" / "intro" / "how_to_use.ipynb"
sys.path.insert(0, str(ROOT / "tools"))
from run_notebooks import run as execute  # noqa: E402


def _nbval(path: Path, *replay: str, **env) -> subprocess.CompletedProcess:
    """nbval on ``path`` in a subprocess; ``replay``: ``"--nbval-replay", cache`` (no kernel)."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            str(path),
            "--nbval",
            "--nbval-current-env",
            *replay,
            "--nbval-sanitize-with",
            str(ROOT / "tests" / "nbval_sanitize.cfg"),
            "-p",
            "tests.nbval_numbers",
            "-p",
            "tests.nbval_replay",
            "-p",
            "no:cacheprovider",
            "-q",
        ],
        cwd=path.parent,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
    )


CACHE = ROOT / "_build" / ".jupyter_cache"  # the book build's run of every notebook


@pytest.mark.parametrize("mode", ["kernel", "replay"])
def test_tampered_outputs_fail_nbval(tmp_path, mode):
    """nbval in its own kernel (``make test-notebooks``) and on the build's run
    (``--nbval-replay``, ``make test``: tests/nbval_replay.py) fails both tampered cells."""
    replay = ()
    if mode == "replay":
        if not CACHE.is_dir():
            pytest.fail(f"no execution cache in {CACHE}: run `make book` first")
        replay = ("--nbval-replay", str(CACHE))
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    html_cells = [
        c
        for c in nb["cells"]
        if c["cell_type"] == "code" and any("text/html" in o.get("data", {}) for o in c["outputs"])
    ]
    text_cells = [
        c
        for c in nb["cells"]
        if c["cell_type"] == "code" and any(o.get("name") == "stdout" for o in c["outputs"])
    ]
    assert html_cells and text_cells, "the notebook no longer has the outputs this test guards"
    for out in html_cells[0]["outputs"]:
        if "text/html" in out.get("data", {}):
            html = "".join(out["data"]["text/html"])
            out["data"]["text/html"] = html.replace("간격 h", "간격 H", 1)
    for out in text_cells[0]["outputs"]:
        if out.get("name") == "stdout":
            out["text"] = "".join(out["text"]).replace("장", "개", 1)
    shutil.copytree(ROOT / "book", tmp_path / "book")
    tampered = tmp_path / NOTEBOOK.relative_to(ROOT)
    tampered.write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")
    result = _nbval(tampered, *replay)
    assert result.returncode != 0, result.stdout[-2000:]
    assert "2 failed" in result.stdout, result.stdout[-2000:]


# RN_WIGGLE moves every value as a machine with other rounding could: 2e-8 relative for
# the Newton-like result (measured between BLAS kernels: up to 7e-8), 2 % for the adaptive
# run's nfev (within its 5 % band; it prints a different number).
CELLS = [
    "import os\nfrom robonum.book import Exercise, Table, Tol, glue\n"
    "w = float(os.environ.get('RN_WIGGLE', '0'))",
    "glue('newton', 3.9875498734 * (1 + w))",
    "glue('count', 7)",
    "band = Tol(rtol=0.05, why='the accepted steps of an adaptive run depend on rounding')\n"
    "Table([['HIRES', 5271 * (1 + 1e6 * w), 2.5]], ['문제', 'nfev', 'x'], formats={1: '.0f'}, tol={1: band})",
    "Table([['ROBER', 0.25]], ['문제', 'y'])",
    "Exercise('ratio', '비는?', answer=16.2074347 * (1 + w), rtol=0.01, hint='힌트.', solution='풀이.')",
]
MARKDOWN = "차수 {glue:text}`newton:.3f`, 실패 {glue:text}`count`번."


def _made_notebook(path: Path) -> dict:
    nb = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell(MARKDOWN)]
        + [nbformat.v4.new_code_cell(c) for c in CELLS]
    )
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(nb, path)
    execute(path)
    return json.loads(path.read_text(encoding="utf-8"))


def _replace_in_output(cell: dict, old: str, new: str) -> None:
    for out in cell["outputs"]:
        for mime, value in out.get("data", {}).items():
            text = "".join(value) if isinstance(value, list) else value
            if old in text:
                out["data"][mime] = text.replace(old, new)
                return
    raise AssertionError(f"{old!r} is not in the cell's outputs")


def test_values_moved_as_by_rounding_pass_and_values_a_reader_would_see_change_fail(tmp_path):
    path = tmp_path / "made.ipynb"
    nb = _made_notebook(path)
    moved = _nbval(path, RN_WIGGLE="2e-8")
    assert moved.returncode == 0, moved.stdout[-3000:]

    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    _replace_in_output(code[1], "3.9875498734", "3.9895498734")  # prints 3.990, not 3.988
    _replace_in_output(code[2], "7", "6")  # a count
    _replace_in_output(code[3], ">5271<", ">5600<")  # beyond the 5 % band
    _replace_in_output(code[4], "0.25", "0.26")  # a printed number, no band
    _replace_in_output(code[5], 'data-answer="16.2074347"', 'data-answer="16.3"')
    path.write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")
    tampered = _nbval(path)
    assert "5 failed, 1 passed" in tampered.stdout, tampered.stdout[-3000:]
