"""pytest set-up for the whole repository: notebook outputs are compared as the reader sees them.

``tests/nbval_numbers.py`` refines nbval's comparison of stored notebook outputs
(numbers at the precision the page prints them, or within a stated band).
"""

pytest_plugins = ["tests.nbval_numbers"]


# Test files that share a session fixture, so that one xdist worker runs them and makes it once:
# test_weight and test_table_width read the desktop visit test_a11y makes (tests/browser/desktop_visit.py).
SAME_WORKER = {
    "tests/browser/test_weight.py": "tests/browser/test_a11y.py",
    "tests/browser/test_table_width.py": "tests/browser/test_a11y.py",
}


def pytest_xdist_make_scheduler(config, log):
    """``--dist loadfile`` (each file on one worker: a notebook's cells run in order in one
    kernel), with the files of :data:`SAME_WORKER` counted as one.

    (xdist's own ``--dist loadgroup`` marks do not reach its scheduler under pytest 9.2:
    it renames ``item._nodeid``, which pytest 9 no longer reads.)
    """
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class SharedFiles(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            scope = super()._split_scope(nodeid)
            return SAME_WORKER.get(scope, scope)

    return SharedFiles(config, log)
