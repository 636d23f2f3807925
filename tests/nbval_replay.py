"""nbval on the book build's own run of each notebook: ``--nbval-replay=_build/.jupyter_cache``.

``make test`` builds the book first, and the build executes every notebook (the pages a
reader gets are that run's outputs).  nbval then ran them all a second time in its own
kernels: about 200 s of the two cores' time, a fifth of ``make test``.  With this option
nbval takes each code cell's outputs from the build's execution cache (jupyter-cache,
matched on the notebook's code, as the build itself matches it) instead of a kernel,
and judges them exactly as after its own run: the same sanitizers, the same comparison
(with ``tests/nbval_numbers.py``), the same cell tags.  A cell the build ran differently
from the stored source, a notebook the build did not run, or an error output fails.

What the stored outputs are checked against is then the published book itself.
``make test-notebooks`` still runs nbval with its own kernels (the check to run under
another BLAS kernel, ``OPENBLAS_CORETYPE=...``), and ``tests/book/test_nbval_guard.py``
shows that a tampered stored output fails in both modes.
"""

from __future__ import annotations

import copy
from pathlib import Path

import nbformat
import pytest
from nbval.plugin import IPyNbCell, IPyNbFile, coalesce_streams


def pytest_addoption(parser):
    parser.addoption(
        "--nbval-replay",
        metavar="CACHE",
        default=None,
        help="nbval compares the outputs of the book build's run (this jupyter-cache "
        "folder) instead of running each notebook again",
    )


def executed_cells(cache_dir: str | Path, notebook: str | Path) -> list | None:
    """The code cells of the cache's run of ``notebook`` (None when the cache has none)."""
    from jupyter_cache import get_cache

    stored = nbformat.read(str(notebook), as_version=4)
    cache = get_cache(str(cache_dir))
    try:
        record = cache.match_cache_notebook(stored)
    except KeyError:
        return None
    return [c for c in cache.get_cache_bundle(record.pk).nb.cells if c.cell_type == "code"]


def _setup(self):
    """In place of starting a kernel: read the build's run of this notebook."""
    self.setup_sanitize_files()
    self.replayed = executed_cells(self.config.getoption("nbval_replay"), self.fspath)


def _runtest(self):
    """nbval's ``IPyNbCell.runtest`` from the point its kernel has answered (nbval 0.11)."""
    if self.options["skip"]:
        pytest.skip()
    cells = self.parent.replayed
    if cells is None:
        self.raise_cell_error(
            "the build did not execute this notebook (not in _toc.yml, or its code changed "
            "since the build): run `make book` first"
        )
    ran = cells[self.cell_num] if self.cell_num < len(cells) else None
    if ran is None or ran.source != self.cell.source:
        self.raise_cell_error("the build executed another version of this cell")
    outs = coalesce_streams(copy.deepcopy(ran.outputs))
    self.test_outputs = outs
    for out in outs:
        if out.output_type == "error" and not self.options["check_exception"]:
            self.raise_cell_error(
                "Cell execution caused an exception", "\n" + "\n".join(out.traceback)
            )
    unrun = self.cell.execution_count is None
    if unrun and self.cell.outputs:
        self.raise_cell_error("Unrun reference cell has outputs")
    if self.options["check"] and not unrun:
        if not self.compare_outputs(outs, coalesce_streams(self.cell.outputs)):
            self.raise_cell_error("Cell outputs differ", "\n".join(self.comparison_traceback))


def pytest_configure(config):
    if config.getoption("nbval_replay", None) is None:
        return
    if not Path(config.getoption("nbval_replay")).is_dir():
        raise pytest.UsageError(
            f"--nbval-replay: no execution cache at {config.getoption('nbval_replay')} "
            "(run `make book` first)"
        )
    # Only for this session (the option is given): a plain `pytest --nbval` runs kernels.
    mp = pytest.MonkeyPatch()
    mp.setattr(IPyNbFile, "setup", _setup)
    mp.setattr(IPyNbCell, "runtest", _runtest)
    config.add_cleanup(mp.undo)
