"""Run the adapted SciPy suite in a fresh pytest process and read each test's outcome.

A subprocess keeps SciPy's test module, its markers and its warnings filters
apart from this repository's test session; ``--junitxml`` gives one outcome per
test id without parsing pytest's console output.
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import robonum

from .adapt import adapt, spec_source

TEST_FILE = "test_ivp_robonum.py"

# SciPy's suite runs under SciPy's conftest; these stand in for what it uses.
CONFTEST = '''"""Stand-ins for SciPy's conftest: markers and the thread-count fixture."""
import pytest


@pytest.fixture
def num_parallel_threads():
    return 1  # one thread: the LSODA-only branches that check it are skipped anyway
'''
PYTEST_INI = """[pytest]
markers =
    slow: SciPy's slow tests
    fail_slow: SciPy's per-test time budget (not enforced here)
    thread_unsafe: SciPy's marker for tests not run in parallel threads
"""


@dataclass
class Outcome:
    status: str  # "passed", "failed" or "skipped"
    message: str = ""


def write_suite(folder: Path) -> Path:
    """The adapted test module with its conftest and pytest.ini, in ``folder``."""
    _, source = spec_source()
    (folder / "conftest.py").write_text(CONFTEST)
    (folder / "pytest.ini").write_text(PYTEST_INI)
    path = folder / TEST_FILE
    path.write_text(adapt(source))
    return path


def run_suite(
    folder: Path, deselect: list[str] = (), timeout: float = 600
) -> tuple[dict[str, Outcome], str]:
    """Each test id's outcome, and pytest's console output (for a failure message).

    ``deselect``: test ids (``test_name[params]``) not to run.

    The timeout only guards against a hang; no assertion depends on time.
    """
    path = write_suite(folder)
    report = folder / "report.xml"
    here = Path(__file__).resolve().parents[1]  # tests/lib, for scipy_spec.shim
    lib = Path(robonum.__file__).resolve().parents[1]  # the robonum this session imports
    paths = [str(lib), str(here), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
    cmd = [sys.executable, "-m", "pytest", str(path), "-q", "-p", "no:cacheprovider"]
    cmd += ["-p", "no:xdist", "-rN", f"--junitxml={report}", f"--rootdir={folder}"]
    cmd += [f"--deselect={TEST_FILE}::{test}" for test in deselect]
    done = subprocess.run(cmd, cwd=folder, env=env, capture_output=True, text=True, timeout=timeout)
    console = done.stdout + done.stderr
    if not report.exists():
        raise RuntimeError(f"the adapted suite did not run:\n{console[-3000:]}")
    return read_junit(report), console


def read_junit(report: Path) -> dict[str, Outcome]:
    """test id (``test_name[params]``) -> outcome; an error in set-up or tear-down fails."""
    outcomes: dict[str, Outcome] = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        name = case.get("name", "")
        bad = case.find("failure")
        if bad is None:
            bad = case.find("error")
        skipped = case.find("skipped")
        if bad is not None:
            outcome = Outcome("failed", _first_line(bad))
        elif skipped is not None:
            outcome = Outcome("skipped", skipped.get("message", ""))
        else:
            outcome = Outcome("passed")
        if outcomes.get(name, Outcome("passed")).status != "failed":
            outcomes[name] = outcome  # a tear-down error after a pass still fails
    return outcomes


def _first_line(element: ET.Element) -> str:
    text = element.get("message") or element.text or ""
    return text.strip().splitlines()[0] if text.strip() else ""
