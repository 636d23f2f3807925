"""Hostile inputs for every public function, drawn by Hypothesis (issue 28).

For each public function (``api.py`` says which are public) the suite takes a valid call
(``baselines.py``), replaces one argument with a hostile value drawn for that parameter's
kind (``hostile.py``) and classifies the outcome (``oracle.py``): good, weak or bad.  Only
good outcomes pass (``attack.KNOWN`` lists the functions whose owners have yet to fix
theirs); a function that is neither covered nor listed in ``NOT_GENERATED`` with a reason
fails ``test_every_public_function_is_covered_or_listed``.  This file takes the core; the
book layer and ``robonum.fast`` have files of their own (``--dist loadfile`` spreads them).

Reproducible: ``derandomize=True`` (the same examples on every machine) and no example
database (nothing is written next to the tests).  ``deadline=None``: the oracle's own time
cap (``oracle.TIME_CAP``) judges hangs, and a first call that compiles or imports would
trip Hypothesis's per-example deadline on a busy machine.  ``BADINPUT_SURVEY=path`` records
every outcome there instead of failing (``survey.py`` prints the table).
"""

from __future__ import annotations

import pytest

from .attack import BOOK_LAYER, FAST, check_baseline, check_hostile, names_in, with_known
from .attack import write_survey as teardown_module  # noqa: F401  (pytest calls it)
from .baselines import NOT_GENERATED
from .suite import API, missing

CORE = names_in((), exclude=BOOK_LAYER + FAST)


def test_every_public_function_is_covered_or_listed():
    stale = sorted(set(NOT_GENERATED) - set(API))
    assert not stale, f"NOT_GENERATED lists names that are not public (any more): {stale}"
    uncovered = {n: missing(n) for n in API if n not in NOT_GENERATED and missing(n)}
    assert not uncovered, (
        "public functions with no valid call to attack: add one to baselines.CALLS "
        f"(or a reason to NOT_GENERATED): {uncovered}"
    )


@pytest.mark.parametrize("name", CORE)
def test_the_baseline_call_is_valid(name):
    check_baseline(name)


@pytest.mark.parametrize("name", with_known(CORE))
def test_hostile_inputs_get_a_named_error_or_an_honest_answer(name):
    check_hostile(name)
