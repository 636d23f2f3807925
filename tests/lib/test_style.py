"""The book style draws Hangul and math minus signs without a single font warning."""

import logging
import warnings

import matplotlib
from matplotlib.figure import Figure

from robonum.book import style


def test_hangul_and_math_minus_render_without_warnings(caplog):
    name = style.use_book_style()
    assert matplotlib.rcParams["font.family"] == [name]
    fig = Figure()
    ax = fig.subplots()
    ax.loglog([1e-4, 1.0], [1e-8, 1.0])  # ticks like 10^{-4}
    ax.set_title("오차와 간격, $z = -2$, 음수 -1")
    ax.set_xlabel("간격 $h$")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "Glyph ... missing" is a UserWarning
        with caplog.at_level(logging.WARNING, logger="matplotlib"):
            fig.canvas.draw()
    assert [r.getMessage() for r in caplog.records] == []


def test_registered_copy_maps_the_minus_sign(tmp_path, monkeypatch):
    from fontTools.ttLib import TTFont

    monkeypatch.setenv("ROBONUM_FONT_CACHE", str(tmp_path))
    source = next(p for d in style._font_dirs() for p in d.glob("NanumGothic.ttf"))
    assert 0x2212 not in TTFont(str(source)).getBestCmap()  # why the copy exists
    copy = TTFont(str(style._with_minus_sign(source)))
    assert 0x2212 in copy.getBestCmap()
    assert copy["name"].getDebugName(1) == style.FONT_NAME
