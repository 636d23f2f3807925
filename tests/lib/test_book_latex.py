"""LaTeX of polynomials and R(z): exact coefficients, signs, unit coefficients, bad input."""

from fractions import Fraction as F

import pytest

import robonum as rn
from robonum.book import latex


def test_polynomial_signs_units_and_zeros():
    assert latex.polynomial([F(1), F(-1)]) == "1 - z"
    assert latex.polynomial([0, 0, F(1, 2)]) == r"\tfrac{1}{2} z^{2}"
    assert latex.polynomial([F(-3), 0, 1], var="x") == "-3 + x^{2}"
    assert latex.polynomial([0, 0]) == "0"


def test_stability_functions_from_the_catalogue():
    # Hand-derived: backward Euler 1/(1 - z), trapezoid (1 + z/2)/(1 - z/2), RK4 the Taylor polynomial
    assert latex.stability_function(rn.methods.get("backward_euler")) == r"\frac{1}{1 - z}"
    assert latex.stability_function(rn.methods.get("trapezoid")) == (
        r"\frac{1 + \tfrac{1}{2} z}{1 - \tfrac{1}{2} z}"
    )
    assert latex.stability_function(rn.methods.get("rk4")).endswith(r"\tfrac{1}{24} z^{4}")
    assert latex.stability_function(rn.methods.get("gauss2")).startswith(r"\frac{1 + 0.5 z")


def test_bad_input():
    with pytest.raises(ValueError, match="coeffs"):
        latex.polynomial([])
    with pytest.raises(TypeError, match="var"):
        latex.polynomial([1, 2], var="")


def test_glue_values_are_plain_and_machine_independent():
    import numpy as np

    from robonum.book.glue import _plain

    assert type(_plain(np.float64(0.1))) is float and type(_plain(np.int64(3))) is int
    # two values that differ only in the last bits glue as the same number
    x = 0.1 + 0.2
    assert _plain(x) == _plain(0.3) == 0.3
    with pytest.raises(TypeError, match="value must be a number or a string"):
        _plain([1, 2])
