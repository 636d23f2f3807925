"""The property-based suite (``test_property_api.py`` says how it works) over robonum.fast (a file of its own: its numba loops compile once per worker)."""

from __future__ import annotations

import pytest

from .attack import FAST, check_baseline, check_hostile, names_in, with_known
from .attack import write_survey as teardown_module  # noqa: F401  (pytest calls it)

NAMES = names_in(FAST)


@pytest.mark.parametrize("name", NAMES)
def test_the_baseline_call_is_valid(name):
    check_baseline(name)


@pytest.mark.parametrize("name", with_known(NAMES))
def test_hostile_inputs_get_a_named_error_or_an_honest_answer(name):
    check_hostile(name)
