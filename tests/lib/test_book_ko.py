"""Korean reader-facing run messages: built from what was computed, written as sentences."""

import numpy as np
import pytest

import robonum as rn
from robonum.book import run_message, sentences


def _runs():
    stiff = rn.problems.stiff_cosine()
    bad = rn.ODEProblem(lambda t, y: np.array([np.nan if t > 0.5 else -y[0]]), [1.0], (0.0, 1.0))
    return {
        "diverged": rn.integrate(stiff, "rk4", 0.01),
        "nan_in_f": rn.integrate(bad, "rk4", 0.1),
        "max_steps": rn.integrate(stiff, "dopri5", rtol=1e-6, atol=1e-9, max_steps=10),
    }


@pytest.mark.parametrize("reason", ["diverged", "nan_in_f", "max_steps"])
def test_a_failed_run_is_told_in_sentences_with_the_time_reached(reason):
    sol = _runs()[reason]
    assert sol.reason == reason
    text = run_message(sol)
    assert text.endswith(".") and ".." not in text
    assert f"t = {rn.book.fmt(sol.t_final, 3)}" in text


def test_the_step_named_is_the_step_used():
    sol = _runs()["diverged"]
    assert f"간격 h = {rn.book.fmt_h(sol.h)}" in run_message(sol)


def test_success_says_what_the_caller_asked_for():
    sol = rn.integrate(rn.problems.stiff_cosine(), "backward_euler", 0.1)
    assert (
        run_message(sol) == ""
        and run_message(sol, success="끝까지 갔습니다.") == "끝까지 갔습니다."
    )


def test_sentences_join_notes_into_prose():
    assert (
        sentences("|R| > 1: 밖에 있습니다", "", "  ", "발산했습니다.")
        == "|R| > 1: 밖에 있습니다. 발산했습니다."
    )
    assert sentences("왜?") == "왜?" and sentences() == ""
    with pytest.raises(TypeError, match="parts"):
        sentences("a", None)
