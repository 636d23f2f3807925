"""The glossary's numbers and rules are the library's: a definition that states a value the library
computes (a stability interval, an error constant, which BDF orders are A-stable) must state what
the library computes now.

The glossary (book/appendix/glossary.yml) is the one definition pages link to, so a number typed
there by hand would be the one number in the book no page computes.  Each claim below is the
text the definition must contain, built from the library, rounded to the digits the definition
shows; a change on either side fails here.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import robonum as rn
from robonum.methods.multistep import adams_moulton, bdf
from robonum_sphinx import glossary

ROOT = Path(__file__).resolve().parents[2]
DEFINITIONS = {t.term: t.definition for t in glossary.load(ROOT / "book/appendix/glossary.yml")}
EPS = float(np.finfo(float).eps)


def _interval_end(key: str) -> str:
    """The left end x* of a method's real stability interval, as the glossary writes it."""
    x = rn.methods.get(key).real_stability_interval()
    return f"{x:.0f}" if x == round(x) else f"{x:.3f}"


def _bdf_classes() -> str:
    """'1·2차는 A-안정, 3–6차는 A(α)-안정, 7차부터는 영불안정', decided by the library's BDFs."""
    a_stable = [k for k in range(1, 8) if bdf(k, allow_unstable=True).is_A_stable()]
    zero_stable = [k for k in range(1, 8) if bdf(k, allow_unstable=True).zero_stability().stable]
    wedge = [k for k in zero_stable if k not in a_stable and bdf(k).alpha_angle() > 0]
    assert a_stable == [1, 2] and wedge == [3, 4, 5, 6] and zero_stable == list(range(1, 7)), (
        a_stable,
        wedge,
        zero_stable,
    )
    first_unstable = max(zero_stable) + 1
    return (
        f"{a_stable[0]}·{a_stable[-1]}차는 A-안정, {wedge[0]}–{wedge[-1]}차는 A(α)-안정, "
        f"{first_unstable}차부터는 영불안정"
    )


def _error_constants() -> str:
    """BDF-k's error constant is -1/(k+1) for every k, the trapezoid rule's -1/12."""
    for k in range(1, 7):
        assert bdf(k).error_constant() == Fraction(-1, k + 1), k
    c = adams_moulton(1).error_constant()  # the trapezoid rule as a linear multistep method
    return f"$k$차 BDF는 $-1/(k+1)$, 사다리꼴 규칙은 ${c.numerator}/{c.denominator}$"


CLAIMS = {
    "안정 구간": lambda: (
        f"전진 오일러는 $x^* = {_interval_end('euler')}$, RK4는 $x^* \\approx {_interval_end('rk4')}$"
    ),
    "기계 엡실론": lambda: (
        f"$\\varepsilon = 2^{{{int(np.log2(EPS))}}} \\approx {EPS:.2g}".replace(
            "e-", "\\times10^{-"
        )
        + "}$"
    ),
    "단위 반올림": lambda: (
        f"$u = 2^{{{int(np.log2(EPS / 2))}}} \\approx {EPS / 2:.2g}".replace("e-", "\\times10^{-")
        + "}$"
    ),
    "BDF": _bdf_classes,
    "오차 상수": _error_constants,
}


@pytest.mark.parametrize("term", CLAIMS)
def test_definition_states_what_the_library_computes(term):
    expected = CLAIMS[term]()
    assert expected in DEFINITIONS[term], (
        f"glossary {term!r} should say {expected!r} (computed by robonum); it says "
        f"{DEFINITIONS[term]!r}"
    )


def test_x_star_has_one_meaning():
    """x* is the left end of the real stability interval, negative: the glossary says so."""
    text = DEFINITIONS["안정 구간"]
    assert "$[x^*, 0]$" in text and "음수" in text, text
    assert rn.methods.get("rk4").real_stability_interval() < 0
