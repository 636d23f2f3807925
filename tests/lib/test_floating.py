"""robonum.floating: machine epsilon vs unit roundoff, exact representation errors,
cancellation in (1 - cos x)/x², compensated sums and the simulation clock.

Independent truth: exact rational arithmetic (fractions), Taylor series summed in
fractions, math.fsum, and plain Python loops doing the same IEEE additions.
"""

import math
from fractions import Fraction

import numpy as np
import pytest

from robonum import floating as fl

U = 2.0**-53


def test_epsilon_and_unit_roundoff():
    assert fl.machine_epsilon() == np.finfo(float).eps == 2.0**-52 == fl.EPS
    assert fl.unit_roundoff() == 2.0**-53 == fl.UNIT_ROUNDOFF
    assert fl.machine_epsilon("float32") == 2.0**-23
    assert 1.0 + fl.EPS != 1.0 and 1.0 + fl.UNIT_ROUNDOFF == 1.0  # the tie rounds to even (1)
    assert 1.0 + 1.5 * fl.UNIT_ROUNDOFF == 1.0 + fl.EPS


def test_round_to_is_correct_rounding_without_double_rounding():
    assert fl.round_to(Fraction(1) + Fraction(1, 2**53)) == 1.0  # tie -> even
    assert fl.round_to(Fraction(1) + Fraction(3, 2**54)) == 1.0 + 2.0**-52
    # 1 + 2^-24 + 2^-60 lies just above the float32 midpoint between 1 and 1 + 2^-23.  Rounding
    # to float64 first lands exactly on the midpoint (a tie, then 1.0): double rounding.
    x = Fraction(1) + Fraction(1, 2**24) + Fraction(1, 2**60)
    assert float(np.float32(float(x))) == 1.0
    assert fl.round_to(x, "float32") == 1.0 + 2.0**-23
    assert fl.round_to(Fraction(1, 10), "float32") == float(np.float32(0.1))
    with pytest.raises(TypeError, match="value must be a fractions.Fraction"):
        fl.round_to(0.1)
    with pytest.raises(ValueError, match="value must be at most"):
        fl.round_to(Fraction(10) ** 39, "float32")


def test_representation_error_is_exact_and_at_most_u():
    exact = abs(Fraction(0.1) - Fraction(1, 10)) / Fraction(1, 10)
    assert fl.representation_error("0.1") == float(exact)
    assert fl.representation_error("0.1") == pytest.approx(
        U * 0.4 * 1.25, rel=1e-12
    )  # = 2^-54 = u/2
    assert fl.representation_error("1.5") == 0.0
    rng = np.random.default_rng(7)
    for m, e in zip(rng.integers(1, 10**12, 300), rng.integers(-25, 25, 300)):
        assert fl.representation_error(f"{m}e{e}") <= U
        assert fl.representation_error(f"{m}e{e}", "float32") <= 2.0**-24
    for bad in ("abc", "0", "1e400", "1e-400", "1/0", "1e999999999", "1" * 101):
        with pytest.raises(ValueError, match="text must be"):
            fl.representation_error(bad)
    with pytest.raises(TypeError, match="text must be a string"):
        fl.representation_error(0.1)
    with pytest.raises(ValueError, match="dtype must be one of"):
        fl.representation_error("0.1", "float16")


def _ratio_series(x: float) -> Fraction:
    """(1 - cos x)/x² = Σ_{k>=1} (-1)^(k+1) x^(2k-2)/(2k)!, summed exactly at the double x."""
    X, total, term = Fraction(x), Fraction(0), Fraction(1, 2)
    for k in range(1, 30):
        total += term
        term *= -X * X / ((2 * k + 1) * (2 * k + 2))
    return total


def test_one_minus_cos_ratio_stable_form_is_accurate():
    xs = np.geomspace(1e-10, 1.0, 60)
    stable = fl.one_minus_cos_ratio(xs, "stable")
    for x, s in zip(xs, stable):
        ref = _ratio_series(float(x))
        assert abs(Fraction(float(s)) - ref) / ref < 8 * U  # a few roundings: sin, /, **2, *


def test_one_minus_cos_ratio_naive_form_loses_digits_as_modelled():
    xs = np.geomspace(1e-7, 1.0, 60)
    naive = fl.one_minus_cos_ratio(xs)
    for x, v in zip(xs, naive):
        ref = float(_ratio_series(float(x)))
        # cos x is rounded once (|error| <= u/2 below 1); 1 - cos x is exact; so the
        # relative error is at most ~u/x², well inside the model 2u/x² (plus a few u).
        assert abs(v - ref) / ref <= 2 * U / x**2 + 4 * U
    assert (
        fl.one_minus_cos_ratio(1e-7) != 0.5 and fl.one_minus_cos_ratio(math.sqrt(U) * 0.99) == 0.0
    )
    assert isinstance(fl.one_minus_cos_ratio(0.5), float)
    with pytest.raises(ValueError, match="x must be nonzero"):
        fl.one_minus_cos_ratio([0.1, 0.0])
    with pytest.raises(ValueError, match="form must be one of"):
        fl.one_minus_cos_ratio(0.1, "taylor")
    with pytest.raises(ValueError, match=r"\|x\| <= 1e6"):
        fl.one_minus_cos_ratio(1e7)


def test_compensated_sum_against_fsum():
    values = [0.1] * 100_000
    exact = math.fsum(values)
    assert abs(fl.compensated_sum(values, "naive") - exact) > 1e-9  # plain summation drifts
    for method in ("kahan", "neumaier"):
        assert abs(fl.compensated_sum(values, method) - exact) <= math.ulp(exact)
    # Neumaier also handles a term larger than the running sum; Kahan loses it.
    assert fl.compensated_sum([1e100, 1.0, -1e100], "neumaier") == 1.0
    assert fl.compensated_sum([1e100, 1.0, -1e100], "kahan") == 0.0
    with pytest.raises(ValueError, match="overflow"):
        fl.compensated_sum([1e308, 1e308])
    with pytest.raises(ValueError, match="method must be one of"):
        fl.compensated_sum([1.0], "pairwise")


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_naive_clock_is_the_same_ieee_loop(dtype):
    typ = getattr(np, dtype)
    h, n = typ(1e-3), 5_000
    t = typ(0.0)
    marks = {}
    for k in range(1, n + 1):
        t = typ(t + h)
        marks[k] = float(t)
    run = fl.clock(1e-3, n, "naive", dtype, samples=50)
    assert [marks[k] for k in run.k.tolist()] == run.t.tolist()
    assert run.k[-1] == n and run.h == float(h)
    assert run.drift[-1] == float(Fraction(marks[n]) - n * Fraction(float(h)))


def test_clock_drift_after_a_million_steps():
    """The page's numbers: IEEE additions in a fixed order are deterministic on every machine."""
    runs = {
        (dt, m): fl.clock(1e-3, 10**6, m, dt, samples=10)
        for dt in ("float64", "float32")
        for m in fl.CLOCK_METHODS
    }
    grid64, grid32 = float(np.spacing(1000.0)), float(np.spacing(np.float32(1000.0)))
    assert runs[("float64", "naive")].drift[-1] == pytest.approx(-1.6734950702979035e-08, rel=1e-9)
    assert runs[("float32", "naive")].drift[-1] == pytest.approx(-8.858506970107555, rel=1e-9)
    # a bound for the naive clock: each addition errs by at most half the spacing at t <= 1000
    assert abs(runs[("float64", "naive")].drift[-1]) <= 10**6 * grid64 / 2
    for dt, grid in (("float64", grid64), ("float32", grid32)):
        for m in ("kahan", "counter"):
            assert abs(runs[(dt, m)].drift[-1]) <= grid / 2  # correctly rounded
    assert abs(runs[("float64", "neumaier")].drift[-1]) <= grid64 / 2
    # Neumaier's correction term is itself a long uncompensated float32 sum
    assert abs(runs[("float32", "neumaier")].drift[-1]) > 10 * grid32


def test_power_of_two_step_accumulates_exactly():
    assert np.all(fl.clock(2.0**-10, 10**5, "naive").drift == 0.0)


def test_clock_checks_its_inputs():
    with pytest.raises(ValueError, match="h must be"):
        fl.clock(0.0, 10)
    with pytest.raises(ValueError, match="h must be"):
        fl.clock(1e4, 10)
    with pytest.raises(ValueError, match="n must be an integer in"):
        fl.clock(1e-3, 10**7)
    with pytest.raises(TypeError, match="n must be an integer"):
        fl.clock(1e-3, 1e3)
    with pytest.raises(ValueError, match="method must be one of"):
        fl.clock(1e-3, 10, "pairwise")
    with pytest.raises(ValueError, match="dtype must be one of"):
        fl.clock(1e-3, 10, dtype="float16")
    with pytest.raises(ValueError, match="samples must be an integer in"):
        fl.clock(1e-3, 10, samples=0)
    run = fl.clock(1e-3, 7, samples=100)  # fewer steps than samples: every step once
    assert run.k.tolist() == list(range(1, 8))
