"""The notebook comparison at the reader's precision (tests/nbval_numbers.py), on hand-made outputs.

Each rule is tested from both sides: what moves within what the page shows
(or within a stated band) agrees, and a change a reader could see does not.
"""

import json
from pathlib import Path

import pytest

from robonum.book import Table, Tol
from robonum.book.exercise import Exercise
from tests.nbval_numbers import glue_agrees, glue_formats, html_agrees, printed_unit

ROOT = Path(__file__).resolve().parents[2]
BAND = Tol(rtol=0.02, atol=0.5, why="an adaptive run's accepted steps depend on rounding")


def test_glue_formats_reads_every_role_and_spec():
    md = (
        "RK4 {glue:text}`order_rk4:.3f`, again {glue:text}`order_rk4:.1f`; raw {glue}`n` "
        "and {glue:}`m`; {glue:text}`hw_joint_1e-06:.2g`; math {glue:md}`formula:myst`"
    )
    assert glue_formats(md) == {
        "order_rk4": [".3f", ".1f"],
        "n": [""],
        "m": [""],
        "hw_joint_1e-06": [".2g"],
        "formula": [""],
    }
    assert glue_formats("```{glue:figure} fig_a\n:name: x\n```\n:::{glue} tab_b\n:::") == {
        "fig_a": [""],
        "tab_b": [""],
    }


def _pages():
    """Each book notebook: (name, notebook, the text of its markdown cells)."""
    for path in sorted((ROOT / "book").rglob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        yield (
            path.name,
            nb,
            "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"),
        )


def test_every_glue_use_in_the_book_is_read():
    # a use the parser missed would leave a shown number uncompared
    for name, _, md in _pages():
        assert sum(len(v) for v in glue_formats(md).values()) == md.count("{glue"), name


def test_every_glued_value_is_shown_on_its_page():
    # what is glued but never shown is not compared; it only makes a notebook longer
    for name, nb, md in _pages():
        glued = {
            o["metadata"]["scrapbook"]["name"]
            for c in nb["cells"]
            if c["cell_type"] == "code"
            for o in c["outputs"]
            if "scrapbook" in o.get("metadata", {})
        }
        assert glued <= set(glue_formats(md)), (
            f"{name} glues but never shows {sorted(glued - set(glue_formats(md)))}"
        )


@pytest.mark.parametrize(
    "x, spec, unit",
    [
        (11.7549, ".2f", 0.01),
        (3.98e-6, ".2e", 1e-8),
        (2785.3, ".3g", 10.0),
        (0.04567, ".2g", 0.001),
        (5271, ",.0f", 1.0),
        (0.123, ".1%", 0.001),
        (9.996, ".3g", 0.1),  # 9.996 prints as 10.0
        (1.2345, "", 0.0),
        (1.2345, ">8", 0.0),
        (7.0, "g", 1e-5),
    ],
)
def test_printed_unit_is_the_last_digit_the_text_shows(x, spec, unit):
    assert printed_unit(x, spec) == pytest.approx(unit, rel=1e-12)


def test_a_glued_number_agrees_to_half_a_printed_unit():
    # a Newton result that moved 2e-8 relative between BLAS kernels, shown with .3f
    assert glue_agrees("3.9875498734", "3.98754994981", [".3f"], None)
    # on a rounding boundary: the page shows 11.76 here and 11.75 there; both true
    assert glue_agrees("11.7550001", "11.7549999", [".2f"], None)
    # a change the reader would see, beyond half a unit, fails
    assert not glue_agrees("11.754", "11.766", [".2f"], None)
    # the finest format the page uses decides
    assert not glue_agrees("3.98754", "3.98770", [".1f", ".4f"], None)
    # shown as stored (no format): identical text only
    assert not glue_agrees("0.00464032475272", "0.00464032534056", [""], None)


def test_counts_strings_and_flags_must_be_identical_unless_a_band_is_stated():
    assert not glue_agrees("7", "6", [""], None)
    assert not glue_agrees("7", "6", [".0f"], None)
    assert glue_agrees("5271", "5296", [""], BAND)
    assert not glue_agrees("5271", "5600", [""], BAND)
    assert not glue_agrees("'반대쪽'", "'같은 쪽'", [""], BAND)
    assert not glue_agrees("True", "False", [""], BAND)


def test_a_number_the_page_never_shows_is_not_compared():
    assert glue_agrees("1.0", "2.0", None, None)


def _html(rows, **kw):
    return Table(rows, ["문제", "nfev", "자릿수"], **kw).to_html()


def test_a_table_cell_with_a_band_agrees_within_it_and_only_there():
    banded = {"tol": {1: BAND, 2: BAND}}
    assert html_agrees(
        _html([["HIRES", "5271 (7.29)", 7.29]], **banded),
        _html([["HIRES", "5296 (6.90)", 6.90]], **banded),
    )
    # beyond the band
    assert not html_agrees(
        _html([["HIRES", 5271, 7.29]], **banded), _html([["HIRES", 6000, 7.29]], **banded)
    )
    # the words of a banded cell and every unbanded cell must be identical
    assert not html_agrees(
        _html([["HIRES", "5271 회", 7.29]], **banded), _html([["HIRES", "5271 번", 7.29]], **banded)
    )
    assert not html_agrees(
        _html([["HIRES", 5271, 7.29]], tol={1: BAND}), _html([["HIRES", 5271, 7.30]], tol={1: BAND})
    )
    assert not html_agrees(_html([["HIRES", 5271, 7.29]]), _html([["HIRES", 5272, 7.29]]))
    # a band moved to another column does not carry the old one's numbers
    assert not html_agrees(
        _html([["HIRES", 5271, 7.29]], tol={1: BAND}), _html([["HIRES", 5271, 7.29]], tol={2: BAND})
    )


def _exercise(answer, **kw):
    return Exercise("ex", "질문?", answer=answer, hint="힌트.", solution="풀이.", **kw).to_html()


def test_an_answer_key_agrees_within_a_thousandth_of_the_band_the_reader_gets():
    # a convergence ratio 16.2074347 vs 16.2074348, rtol 1 %: the same exercise
    assert html_agrees(_exercise(16.2074347, rtol=0.01), _exercise(16.2074348, rtol=0.01))
    assert not html_agrees(_exercise(16.2074347, rtol=0.01), _exercise(16.25, rtol=0.01))
    assert html_agrees(_exercise(0.5, atol=0.01), _exercise(0.500001, atol=0.01))
    assert not html_agrees(_exercise(0.5, atol=0.01), _exercise(0.5001, atol=0.01))
    # an exact integer answer: no band
    assert not html_agrees(_exercise(994, rtol=0.0), _exercise(993, rtol=0.0))
    # the tolerance itself is part of the text
    assert not html_agrees(_exercise(16.2, rtol=0.01), _exercise(16.2, rtol=0.02))


def test_tol_refuses_a_band_without_width_or_reason():
    with pytest.raises(ValueError, match="why"):
        Tol(rtol=0.1)
    with pytest.raises(ValueError, match="both 0"):
        Tol(why="adaptive steps move with rounding")
    with pytest.raises(ValueError, match="rtol"):
        Tol(rtol=2.0, why="adaptive steps move with rounding")
    assert not BAND.allows(float("nan"), 1.0)
    assert BAND.allows(100.0, 102.5) and not BAND.allows(100.0, 103.0)  # 0.5 + 0.02 * 102.5
