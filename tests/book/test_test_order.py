"""``make test``'s two workers start with the longest units (the root conftest's ``LONGEST_FIRST``).

The order is the one the workers collect: xdist's scheduler hands the units out in it.  The
hook that sorts them did nothing until 8f6e09e (it asked for ``--dist loadfile``, which xdist
hides from its workers), and a worker started the 150 s desktop visit only after every file of
tests/book.  Checked with the old hook put back: this test failed.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _root_conftest():
    spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_worker_collects_the_longest_units_first(request):
    if not hasattr(request.config, "workerinput"):
        pytest.skip("the order matters to xdist's workers only (make test: -n 2 --dist loadfile)")
    root = _root_conftest()
    units = list(dict.fromkeys(root._scope(item) for item in request.session.items))
    longest = [unit for unit in root.LONGEST_FIRST if unit in units]
    assert units[: len(longest)] == longest, units[: len(longest) + 3]
