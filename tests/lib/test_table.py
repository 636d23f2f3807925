"""Result tables, the inline markup they share with exercises, and numbers written for people."""

import re
from fractions import Fraction
from html.parser import HTMLParser

import numpy as np
import pytest

from robonum.book import Table, Tol, fmt, fmt_h, matches_printed, pct, pow10, round_sig, sci
from robonum.book.markup import _width, block_html, inline_html, plain_text

MATH = '<span class="math notranslate nohighlight">{}</span>'


def stability_table(**kw):
    rows = [["rk4", 4, -2.7852935634, True], ["backward_euler", 1, -np.inf, np.bool_(False)]]
    return Table(
        rows,
        ["방법", "차수", "실수축 끝 $x$", "A-안정"],
        caption="**안정** 구간",
        name="tab-stability",
        **kw,
    )


class _Cells(HTMLParser):
    """Rows of (tag, attrs, text) for th/td, plus every start tag seen."""

    def __init__(self, text):
        super().__init__()
        self.rows, self.tags, self._cell = [], [], None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "tr":
            self.rows.append([])
        elif tag in ("th", "td"):
            self._cell = [tag, dict(attrs), ""]
            self.rows[-1].append(self._cell)

    def handle_endtag(self, tag):
        if tag in ("th", "td"):
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[2] += data


# -- HTML ----------------------------------------------------------------------------
def test_html_structure_scrolls_instead_of_overflowing():
    html = stability_table().to_html()
    assert html.startswith(
        '<div class="rn-table-wrap" data-rn-name="tab-stability" style="overflow-x:auto;'
    )
    assert (
        '<table class="rn-table"' in html
        and '<caption style="padding:0 .9em"><strong>안정</strong> 구간</caption>' in html
    )
    cells = _Cells(html)
    header, *body = cells.rows
    assert [c[0] for c in header] == ["th"] * 4 and all(c[1]["scope"] == "col" for c in header)
    assert [[c[2] for c in row] for row in body] == [
        ["rk4", "4", "-2.785", "예"],
        ["backward_euler", "1", "-∞", "아니요"],
    ]
    # numeric columns are right-aligned and never break inside a number; text columns are left
    num = "text-align:right;white-space:nowrap"
    assert [c[1].get("style") for c in body[0]] == [None, num, num, None]


def test_a_text_cell_of_numbers_breaks_between_numbers_never_inside_one():
    # "1.2e-3" once broke after its "-" on a phone; "5.21 / 704" may wrap at its spaces, which
    # keeps a table of such cells within a 390 px screen
    t = Table([["5.21 / 704", "-1.2e-3 (4.1)", "유연 관절-2", "+3"]], list("abcd"))
    cells = _Cells(t.to_html()).rows[1]
    assert [c[2] for c in cells] == ["5.21 / 704", "-1.2e-3 (4.1)", "유연 관절-2", "+3"]
    html = t.to_html()
    assert "<td>5.21 / 704</td>" in html and "<td>+3</td>" in html
    assert '<td><span style="white-space:nowrap">-1.2e-3</span> (4.1)</td>' in html
    assert "<td>유연 관절-2</td>" in html  # words: not a text of numbers


def test_html_is_deterministic_and_the_notebook_stores_each_number_once():
    a, b = stability_table(), stability_table()
    assert a.to_html() == b.to_html() and a.to_text() == b.to_text()
    bundle = a._repr_mimebundle_()
    # the notebook tests compare the HTML; text/plain only names the table, so a
    # number is not compared twice (once without the band its column may carry)
    assert bundle == {
        "text/html": a.to_html(),
        "text/plain": "안정 구간 (Table(2 rows x 4 columns))",
    }
    assert not re.search(r"\d\.\d", bundle["text/plain"])
    assert a._repr_html_() == a.to_html() and str(a) == a.to_text()


def test_a_column_with_a_band_marks_its_cells_and_only_its_cells():
    band = Tol(rtol=0.05, why="adaptive step sequence differs between machines")
    t = Table(
        [["hires", 5271, 0.98], ["rober", 1661, 1.02]], ["문제", "nfev", "비"], tol={"nfev": band}
    )
    html = t.to_html()
    assert html.count('data-rn-tol="0.05 0.0"') == 2
    assert re.search(r'<td data-rn-tol="0.05 0.0"[^>]*>5271</td>', html)
    assert '<td style="text-align:right;white-space:nowrap">0.98</td>' in html
    with pytest.raises(TypeError, match=r"tol\[1\] must be a robonum.book.Tol"):
        Table([["a", 1]], ["x", "y"], tol={1: 0.05})
    with pytest.raises(ValueError, match="tol key 'z'"):
        Table([["a", 1]], ["x", "y"], tol={"z": band})


def test_a_column_may_give_each_row_its_own_band():
    steady = Tol(atol=0.5, why="a tolerance-controlled run: a flipped step moves it")
    noisy = Tol(atol=1.0, why="rounding of two runs divided by their small difference")
    t = Table([["a", 9.5], ["b", 8.4], ["c", 4.4]], ["x", "자릿수"], tol={1: [steady, None, noisy]})
    html = t.to_html()
    assert re.search(r'<td data-rn-tol="0.0 0.5"[^>]*>9.5</td>', html)
    assert re.search(r'<td style="[^"]*">8.4</td>', html)
    assert re.search(r'<td data-rn-tol="0.0 1.0"[^>]*>4.4</td>', html)
    with pytest.raises(ValueError, match=r"tol\[1\] has 2 bands but there are 3 rows"):
        Table([["a", 1], ["b", 2], ["c", 3]], ["x", "y"], tol={1: [steady, noisy]})
    with pytest.raises(TypeError, match=r"tol\[1\] must be a robonum.book.Tol"):
        Table([["a", 1]], ["x", "y"], tol={1: [0.5]})


def test_escaping_and_math_in_headers_and_cells():
    t = Table([["<b>&", "$a < b$", "\\$5"]], ["x < y & z", "$\\lambda h$", "돈"])
    html = t.to_html()
    assert "<b>" not in html and "&lt;b&gt;&amp;" in html and "x &lt; y &amp; z" in html
    assert MATH.format("\\(a &lt; b\\)") in html and MATH.format("\\(\\lambda h\\)") in html
    assert "<td>$5</td>" in html


def test_formats_by_index_by_header_and_callables():
    t = stability_table(formats={2: ".4f", "차수": lambda p: f"${p}$차"})
    cells = _Cells(t.to_html()).rows[1]
    assert cells[2][2] == "-2.7853"
    assert MATH.format("\\(4\\)") + "차" in t.to_html()
    assert _Cells(t.to_html()).rows[2][2][2] == "-∞"  # a format spec never prints "-inf"
    listed = stability_table(formats=[None, None, ".2e", None])
    assert _Cells(listed.to_html()).rows[1][2][2] == "-2.79e+00"


def test_default_cell_texts():
    t = Table([[None, 3, 0.1 + 0.2, 10**20, Fraction(1, 3), float("nan")]], list("abcdef"))
    assert [c[2] for c in _Cells(t.to_html()).rows[1]] == [
        "—",
        "3",
        "0.3",
        "100000000000000000000",
        "0.3333",
        "NaN",
    ]


def test_alignment_choices():
    assert stability_table(align="lrrc").align == ["left", "right", "right", "center"]
    assert stability_table(align="center").align == ["center"] * 4
    assert stability_table(align={0: "r"}).align[0] == "right"
    # a numeric column with a missing value is still numeric
    assert Table([[1.0], [None]], ["x"]).align == ["right"]


@pytest.mark.parametrize(
    "kwargs, exc, word",
    [
        ({"formats": [".3f"]}, ValueError, "formats"),
        ({"formats": {"없는 열": ".3f"}}, ValueError, "formats"),
        ({"formats": {0: 3}}, TypeError, "formats"),
        ({"align": "lrx?"}, ValueError, "align"),
        ({"caption": 3}, TypeError, "caption"),
    ],
)
def test_bad_options_are_refused(kwargs, exc, word):
    with pytest.raises(exc, match=word):
        stability_table(**kwargs)


def test_bad_shapes_are_refused():
    with pytest.raises(ValueError, match=r"rows\[1\] has 1 values but there are 2 columns"):
        Table([[1, 2], [3]], ["a", "b"])
    with pytest.raises(ValueError, match="columns"):
        Table([], [])


# -- text/plain ----------------------------------------------------------------------
def test_text_plain_is_aligned_with_wide_hangul():
    # Hangul takes two columns in a monospace font: 방법 is as wide as "rk4 ", 차수 as "----"
    assert stability_table().to_text() == "\n".join(
        [
            "안정 구간",
            "방법            차수  실수축 끝 x  A-안정",
            "--------------  ----  -----------  ------",
            "rk4                4       -2.785  예",
            "backward_euler     1           -∞  아니요",
        ]
    )


def test_text_plain_makes_common_tex_readable():
    assert (
        plain_text("$2.79 \\times 10^{-4}$, $\\lambda h \\le 2$, `x`, **굵게**")
        == "2.79 × 10^-4, λ h ≤ 2, x, 굵게"
    )
    assert plain_text("$\\operatorname{Re}\\lambda$ and \\$5") == "Reλ and $5"


def test_width_counts_hangul_as_two():
    assert _width("방법") == 4 and _width("rk4") == 3 and _width("∞") == 1


# -- markup --------------------------------------------------------------------------
def test_inline_and_block_markup():
    assert inline_html("$$x^2$$") == MATH.format("\\[x^2\\]")
    assert inline_html("a $ b") == "a $ b"  # a lone dollar stays a dollar
    assert inline_html("**$x$**") == "<strong>" + MATH.format("\\(x\\)") + "</strong>"
    assert inline_html("`a*b*` **c**") == "<code>a*b*</code> <strong>c</strong>"
    assert (
        block_html("첫 줄\n이어짐\n\n- 하나\n- $x$")
        == "<p>첫 줄 이어짐</p><ul><li>하나</li><li>" + MATH.format("\\(x\\)") + "</li></ul>"
    )


# -- numbers -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "x, sig, text",
    [
        (2.7852935634, 4, "2.785"),
        (2.0, 4, "2"),
        (-2.785, 4, "-2.785"),
        (0.5, 4, "0.5"),
        (0.0333333, 3, "0.0333"),
        (2.79e-4, 3, "0.000279"),
        (2.79e-5, 3, "2.79e-5"),
        (1234567.0, 4, "1.235e6"),
        (9.9996, 4, "10"),
        (-0.0, 4, "0"),
        (3590, 4, "3590"),
        (np.float64(1 / 3), 4, "0.3333"),
        (Fraction(1, 3), 2, "0.33"),
        (float("inf"), 4, "∞"),
        (-np.inf, 4, "-∞"),
        (float("nan"), 4, "NaN"),
    ],
)
def test_fmt(x, sig, text):
    assert fmt(x, sig) == text


def test_fmt_zeros_sci_fmt_h_pct_round_sig():
    assert fmt(2.5, 3, zeros=True) == "2.50" and fmt(0.0, 3, zeros=True) == "0.00"
    assert fmt(2.79e-7, 3, zeros=True) == "2.79e-7" and fmt(1e-7, 3, zeros=True) == "1.00e-7"
    assert sci(2.79e-4) == "2.79 \\times 10^{-4}" and sci(2.79e-4, plain=True) == "2.79e-4"
    assert sci(1e-6) == "10^{-6}" and sci(-1e6) == "-10^{6}" and sci(1e-6, plain=True) == "1e-6"
    assert sci(2.5) == "2.5" and sci(0.0) == "0" and sci(float("inf")) == "\\infty"
    assert sci(2.0e-4, zeros=True) == "2.00 \\times 10^{-4}"
    assert fmt_h(0.0333333) == "0.0333" and fmt_h(1e-5) == "1e-5"
    assert pct(1e-3) == "0.1 %" and pct(0.05) == "5 %"
    assert round_sig(2.7852935634, 4) == 2.785 and round_sig(-0.0, 3) == 0.0


def test_pow10_in_unicode_for_labels_and_in_tex_for_figure_titles():
    assert pow10(1e4) == "10⁴" and pow10(3e6) == "3×10⁶" and pow10(2.5e-3) == "2.5×10⁻³"
    assert pow10(9.96e4) == "10⁵"  # rounded to 2 digits first, then normalised
    assert pow10(1e4, tex=True) == "$10^{4}$" and pow10(3e7, tex=True) == "$3\\times 10^{7}$"
    for bad in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="x"):
            pow10(bad)


def test_a_value_matches_a_printed_one_at_the_printed_digits():
    assert matches_printed(4.63e-5, "4.6e-5") and not matches_printed(4.66e-5, "4.6e-5")
    assert matches_printed(0.0534, "0.053") and not matches_printed(0.0536, "0.053")
    assert matches_printed(1.5104, "1.51") and not matches_printed(1.5, "1.51")
    assert matches_printed(-2.785294, "-2.785") and not matches_printed(2.785294, "-2.785")
    assert matches_printed(84, "84") and not matches_printed(85, "84")
    with pytest.raises(TypeError, match="printed"):
        matches_printed(1.0, 1.0)
    with pytest.raises(ValueError, match="printed"):
        matches_printed(1.0, "about 1")
    with pytest.raises(ValueError, match="printed"):
        matches_printed(1.0, "0")
    with pytest.raises(ValueError, match="x"):
        matches_printed(float("nan"), "1.0")


def test_numbers_are_deterministic_strings_of_the_value():
    # round half to even on the binary value: 0.125 is exact, 2.675 is not
    assert fmt(0.125, 2) == "0.12" and fmt(2.675, 3) == "2.67"
    assert re.fullmatch(r"-?[0-9.e-]+", fmt(-1.5e-9, 4))


def test_number_helpers_refuse_bad_input():
    with pytest.raises(ValueError, match="sig"):
        fmt(1.0, 0)
    with pytest.raises(TypeError, match="x"):
        fmt(True)
    with pytest.raises(TypeError, match="x"):
        fmt("2.5")
    with pytest.raises(ValueError, match="h"):
        fmt_h(-0.1)
    with pytest.raises(ValueError, match="x"):
        round_sig(float("nan"))
