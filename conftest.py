"""pytest set-up for the whole repository: notebook outputs are compared as the reader sees them.

``tests/nbval_numbers.py`` refines nbval's comparison of stored notebook outputs
(numbers at the precision the page prints them, or within a stated band);
``tests/nbval_replay.py`` (``--nbval-replay``) lets nbval judge the book build's run
of each notebook instead of running it again.
"""

pytest_plugins = ["tests.nbval_numbers", "tests.nbval_replay"]


# Test files that share a session fixture, so that one xdist worker runs them and makes it once:
# test_weight and test_table_width read the desktop visit test_a11y makes (tests/browser/desktop_visit.py).
SAME_WORKER = {
    "tests/browser/test_weight.py": "tests/browser/test_a11y.py",
    "tests/browser/test_table_width.py": "tests/browser/test_a11y.py",
}


# The work units that take longest, longest first (measured with --durations on 2 workers: the
# desktop visit 113-150 s, the PDFs 44-59 s, nbval's guards 40-54 s, the phone visits 80-110 s,
# the solver tests again with one BLAS thread 15 s, the SciPy spec 16 s, the live JupyterLab
# 18-20 s, the test-set references 12 s, search and exercises 10-11 s each; the notebooks,
# replayed from the build's run, take a second or two).  xdist's own order is by number of
# tests, which put these few-test files last, where one of them ran while the other worker had
# nothing left (test_testset: one core idle for its 12 s).
LONGEST_FIRST = (
    "tests/browser/test_a11y.py",
    "tests/book/test_pdf.py",
    "tests/book/test_nbval_guard.py",
    "tests/browser/test_pages.py",
    "tests/lib/test_one_blas_thread.py",
    "tests/lib/test_scipy_ivp_spec.py",
    "tests/browser/test_live_jupyterlab.py",
    "tests/lib/test_testset.py",
    "tests/browser/test_exercises.py",
    "tests/browser/test_search.py",
)


def _scope(item) -> str:
    path = item.nodeid.split("::")[0]
    return SAME_WORKER.get(path, path)


def pytest_collection_modifyitems(config, items):
    """On an xdist worker: the units of :data:`LONGEST_FIRST` first, then the others by number
    of tests (xdist's rule).  The sort is stable, so a notebook's cells keep their order.

    The scheduler hands out the units in the order the workers collected them, so the sort
    must happen there.  A worker is told ``dist = "no"`` (xdist's ``remote.setup_config``), so
    it is known by its ``workerinput``: testing ``dist == "loadfile"`` here, as this hook did,
    never sorted anything, and the desktop visit started after every file of tests/book.
    """
    if not hasattr(config, "workerinput"):
        return
    rank = {scope: i for i, scope in enumerate(LONGEST_FIRST)}
    count: dict[str, int] = {}
    for item in items:
        count[_scope(item)] = count.get(_scope(item), 0) + 1
    items.sort(key=lambda item: (rank.get(_scope(item), len(rank)), -count[_scope(item)]))


def pytest_xdist_make_scheduler(config, log):
    """``--dist loadfile`` (each file on one worker: a notebook's cells run in order in one
    kernel), with the files of :data:`SAME_WORKER` counted as one.

    (xdist's own ``--dist loadgroup`` marks do not reach its scheduler under pytest 9.2:
    it renames ``item._nodeid``, which pytest 9 no longer reads.)
    """
    if config.getvalue("dist") != "loadfile":
        return None
    config.option.loadscopereorder = False  # the workers' collection is in the order above
    from xdist.scheduler import LoadFileScheduling

    class SharedFiles(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            scope = super()._split_scope(nodeid)
            return SAME_WORKER.get(scope, scope)

    return SharedFiles(config, log)
