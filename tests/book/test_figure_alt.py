"""A notebook figure's alt text: written from the figure into its PNG, read back by the build.

robonum.book.figure_text stores the figure's titles, axis labels and legend in
the PNG IPython shows; robonum_sphinx.figure_alt reads it when a page is built
and turns formulas into Unicode.  tests/book/test_built_html.py checks the
built pages themselves.
"""

from __future__ import annotations

import base64

import matplotlib
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from robonum.book import use_book_style  # noqa: E402
from robonum.book.figure_text import describe, png_with_text  # noqa: E402
from robonum_sphinx.figure_alt import png_text, readable  # noqa: E402


@pytest.fixture
def figure():
    use_book_style()
    fig, (left, right) = plt.subplots(1, 2)
    left.plot([1, 2], [1, 4], label="RK4, h = 0.1")
    left.plot([1, 2], [1, 2], label="후진 오일러")
    left.legend()
    left.set_title("오차와 간격")
    left.set_xlabel("간격 $h$")
    left.set_ylabel(r"$|H - H_0|$")
    right.set_title(r"$z = h\lambda$의 안정 영역")
    yield fig
    plt.close(fig)


def test_description_names_every_panel_with_its_words(figure):
    text = describe(figure)
    assert text.startswith("그림: 패널 1: 오차와 간격.")
    for part in ("가로축 간격 $h$", "세로축 $|H - H_0|$", "범례 RK4, h = 0.1 / 후진 오일러"):
        assert part in text, (part, text)
    assert "패널 2: $z = h\\lambda$의 안정 영역" in text


def test_a_figure_that_says_nothing_has_no_description():
    fig = plt.figure()
    fig.add_subplot().plot([0, 1])
    assert describe(fig) == ""
    plt.close(fig)


def test_the_png_carries_the_text_and_the_build_reads_it(figure, tmp_path):
    data, size = png_with_text(figure)
    path = tmp_path / "figure.png"
    path.write_bytes(base64.b64decode(data))
    assert size["width"] > 0
    stored = png_text(path)
    assert stored == describe(figure)  # Hangul survives (an iTXt chunk, not Latin-1 tEXt)
    alt = readable(stored)
    assert "세로축 |H - H₀|" in alt and "z = hλ의 안정 영역" in alt, alt
    assert "$" not in alt and "\\" not in alt


def test_a_file_without_text_gives_none(tmp_path):
    fig = plt.figure()
    fig.add_subplot().plot([0, 1])
    path = tmp_path / "plain.png"
    fig.savefig(path)
    plt.close(fig)
    assert png_text(path) == ""
    assert png_text(tmp_path / "missing.png") == ""
