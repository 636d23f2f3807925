"""Figure style for the book: a Hangul-capable font and ASCII minus signs.

Without a CJK font matplotlib draws Hangul as boxes and warns
``Glyph ... missing from font(s) DejaVu Sans``.  We register NanumGothic,
shipped inside the PyPI package ``koreanize-matplotlib``; we locate its font
files without importing that module (its import uses ``distutils``, gone
from Python 3.12).  NanumGothic has no U+2212 minus sign, hence
``axes.unicode_minus = False``.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import matplotlib
from matplotlib import font_manager

FONT_NAME = "NanumGothic"
_SYSTEM_DIRS = ("/usr/share/fonts/truetype/nanum",)


def _font_dirs() -> list[Path]:
    dirs = []
    spec = importlib.util.find_spec("koreanize_matplotlib")
    if spec and spec.submodule_search_locations:
        dirs.append(Path(list(spec.submodule_search_locations)[0]) / "fonts")
    dirs.extend(Path(d) for d in _SYSTEM_DIRS)
    return [d for d in dirs if d.is_dir()]


def use_book_style(dpi: int = 80) -> str:
    """Register a Korean font and set the book's rcParams; return the font name.

    Raises ``RuntimeError`` naming the packages to install if no Hangul font
    is found (better than silently drawing boxes).
    """
    files = [p for d in _font_dirs() for p in sorted(d.glob("NanumGothic*.ttf"))]
    if not files:
        raise RuntimeError("no Hangul font found: install the PyPI package "
                           "'koreanize-matplotlib' or Debian's 'fonts-nanum'")
    for path in files:
        font_manager.fontManager.addfont(str(path))
    matplotlib.rcParams.update({
        "font.family": FONT_NAME,
        "axes.unicode_minus": False,
        "figure.dpi": dpi,
        "savefig.dpi": dpi,
        "axes.grid": True,
        "grid.alpha": 0.3,
        "figure.constrained_layout.use": True,
        "svg.hashsalt": "robonum",  # stable ids if SVG is ever written
    })
    return FONT_NAME
