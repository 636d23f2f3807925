"""The property-based suite's two checks of one public function, shared by its test files.

``check_baseline(name)``: the valid call of ``baselines.py`` answers.  ``check_hostile(name)``:
Hypothesis draws ``(parameter, hostile value)`` pairs (``suite.strategy``) and every outcome
must be good (``oracle.classify``).  ``BADINPUT_SURVEY=path`` records every outcome there
instead of failing (``survey.py`` prints the table); ``BADINPUT_EXAMPLES`` sets the examples
per parameter (3 in ``make test``: about 2,100 calls, 8 to 40 per function).  A deeper search:
``BADINPUT_CAP`` raises that cap of 40, and ``BADINPUT_RANDOM=1`` draws new examples on every
run instead of the same ones (``test_found_by_search.py`` keeps what such a search found).
"""

from __future__ import annotations

import json
import os

import matplotlib
import matplotlib.pyplot as plt
import pytest
from hypothesis import HealthCheck, Phase, given, settings

from .oracle import classify
from .suite import API, COVERED, baseline, parameters, strategy

PER_PARAMETER = int(os.environ.get("BADINPUT_EXAMPLES", "3"))  # examples per parameter
CAP = int(os.environ.get("BADINPUT_CAP", "40"))  # examples per function, at most
RANDOM = os.environ.get("BADINPUT_RANDOM") == "1"  # new examples each run (a deeper search)
SURVEY = os.environ.get("BADINPUT_SURVEY")
RECORD: list = []
_BASE_OUT: dict = {}
BOOK_LAYER = ("robonum.book.", "robonum.explore.", "robonum.plotting.")
FAST = ("robonum.fast.",)

KNOWN: dict = {}  # public functions with a weak or bad outcome left to their owners: none


def names_in(prefixes, *, exclude=()) -> list:
    """Covered names under ``prefixes`` (all when empty), minus those under ``exclude``."""
    return [
        n
        for n in COVERED
        if (not prefixes or n.startswith(prefixes)) and not (exclude and n.startswith(exclude))
    ]


def with_known(names) -> list:
    """``names`` as pytest params, the KNOWN ones marked xfail with their reason."""
    return [
        pytest.param(n, marks=pytest.mark.xfail(reason=KNOWN[n], strict=False)) if n in KNOWN else n
        for n in names
    ]


def _call(name, kwargs, pname=None, value=None):
    with matplotlib.rc_context():  # use_book_style and friends must not restyle other tests
        try:
            return classify(API[name], kwargs, pname, value, _BASE_OUT.get(name))
        finally:
            plt.close("all")


def check_baseline(name):
    """A hostile value means something only next to a call that works."""
    kwargs = baseline(name)
    outcome, detail = _call(name, kwargs)
    assert outcome == "good" and detail == "answered", f"{name}({kwargs}): {detail}"


def _attack(name):
    @settings(
        max_examples=min(max(PER_PARAMETER * len(parameters(API[name])), 8), CAP),
        deadline=None,
        derandomize=not RANDOM,
        database=None,
        phases=[Phase.explicit, Phase.generate],  # no shrinking: the example is printed as is
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy(name))
    def run(drawn):
        pname, value = drawn
        kwargs = baseline(name)
        kwargs[pname] = value
        outcome, detail = _call(name, kwargs, pname, value)
        if SURVEY:
            RECORD.append(
                dict(
                    name=name,
                    param=pname,
                    value=repr(value)[:80],
                    outcome=outcome,
                    detail=detail,
                )
            )
            return
        assert outcome == "good", f"{outcome}: {name}({pname}={value!r:.80}): {detail}"

    return run


def check_hostile(name):
    if name not in _BASE_OUT:
        _BASE_OUT[name] = API[name](**baseline(name))
    _attack(name)()


def write_survey():
    """Append this process's records to ``BADINPUT_SURVEY`` (one JSON object a line)."""
    if SURVEY and RECORD:
        with open(SURVEY, "a") as fh:
            for r in RECORD:
                fh.write(json.dumps(r) + "\n")
        RECORD.clear()
