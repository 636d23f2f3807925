"""rn.book.measure: round-off stated as a bound in units of eps, and best-of timing."""

import numpy as np
import pytest

from robonum.book.measure import EPS, below_eps, best_time, eps_bound, eps_text


def test_eps_bound_is_the_smallest_power_of_two_above():
    assert eps_bound(0.0) == 1 and eps_bound(EPS) == 1
    assert eps_bound(np.nextafter(EPS, 1)) == 2 and eps_bound(3e-16) == 2
    assert eps_bound([1e-17, 5 * EPS, 0.0]) == 8
    k = eps_bound(1e-13)
    assert (k // 2) * EPS < 1e-13 <= k * EPS


def test_below_eps_refuses_a_false_bound():
    assert below_eps(3e-16, 2) == "< 2 ε" and below_eps(1e-14, 1024) == "< 1,024 ε"
    with pytest.raises(ValueError, match="not below 2 eps"):
        below_eps(5e-16, 2)


def test_best_time_is_the_least_of_the_repeats():
    calls = []
    assert best_time(lambda: calls.append(1), repeat=4) >= 0.0 and len(calls) == 4


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: eps_bound(-1e-16), "err must be >= 0"),
        (lambda: eps_bound(np.nan), "err"),
        (lambda: best_time(3.0), "fn must be callable"),
        (lambda: best_time(lambda: None, repeat=0), "repeat"),
        (lambda: below_eps(1e-16, 0), "k"),
    ],
)
def test_bad_input_names_the_parameter(call, match):
    with pytest.raises((TypeError, ValueError), match=match):
        call()


def test_eps_text_says_an_exact_zero_and_bounds_the_rest():
    assert eps_text(0.0) == "0 (같음)" and eps_text([0.0, 0.0]) == "0 (같음)"
    assert eps_text(EPS / 2) == "≤ 1ε" and eps_text([0.0, 3 * EPS]) == "≤ 4ε"
