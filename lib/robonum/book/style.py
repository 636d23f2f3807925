"""Figure style for the book: a Hangul-capable font and ASCII minus signs.

Without a CJK font matplotlib draws Hangul as boxes and warns
``Glyph ... missing from font(s) DejaVu Sans``.  We register NanumGothic,
shipped inside the PyPI package ``koreanize-matplotlib``; we locate its font
files without importing that module (its import uses ``distutils``, gone
from Python 3.12).

NanumGothic has no U+2212 minus sign, and mathtext always draws a minus as
U+2212 in the text font (log-axis ticks ``10^{-4}``, labels like ``$z=-2$``),
which logs "Font 'default' does not have a glyph for U+2212" into the cell's
stderr.  We therefore register a copy of each font whose character map also
sends U+2212 to its en-dash glyph (fontTools ships with matplotlib), and keep
``axes.unicode_minus = False`` for plain tick labels.
"""

from __future__ import annotations

import importlib.util
import os
import tempfile
from pathlib import Path

import matplotlib
from matplotlib import font_manager
from matplotlib.figure import Figure

from .. import _validate as check
from .figure_text import png_with_text

FONT_NAME = "NanumGothic Book"  # our renamed copy, never confused with a system NanumGothic
_SYSTEM_DIRS = ("/usr/share/fonts/truetype/nanum",)


def _font_dirs() -> list[Path]:
    dirs = []
    spec = importlib.util.find_spec("koreanize_matplotlib")
    if spec and spec.submodule_search_locations:
        dirs.append(Path(list(spec.submodule_search_locations)[0]) / "fonts")
    dirs.extend(Path(d) for d in _SYSTEM_DIRS)
    return [d for d in dirs if d.is_dir()]


def _with_minus_sign(path: Path) -> Path:
    """A copy of the font at ``path`` that maps U+2212 to its en-dash glyph.

    The copy is renamed (family ``FONT_NAME``) so that a system-wide
    NanumGothic without the minus sign can never be picked instead.
    """
    from fontTools.ttLib import TTFont

    cache = Path(
        os.environ.get("ROBONUM_FONT_CACHE", Path(tempfile.gettempdir()) / "robonum-fonts")
    )
    target = cache / f"{path.stem}-book{path.suffix}"
    if target.exists() and target.stat().st_mtime >= path.stat().st_mtime:
        return target
    font = TTFont(str(path))
    for table in font["cmap"].tables:
        if table.isUnicode() and 0x2212 not in table.cmap and 0x2013 in table.cmap:
            table.cmap[0x2212] = table.cmap[0x2013]
    for record in font["name"].names:
        if record.nameID in (1, 4, 16):  # family, full name, typographic family
            style = str(record).replace("NanumGothic", "").strip()
            record.string = f"{FONT_NAME} {style}".strip() if record.nameID == 4 else FONT_NAME
        elif record.nameID == 6:  # PostScript name: no spaces allowed
            record.string = str(record).replace("NanumGothic", "NanumGothicBook")
    cache.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(f".{os.getpid()}.tmp")
    font.save(str(tmp))
    os.replace(tmp, target)  # atomic: parallel kernels never see half a file
    return target


def use_book_style(dpi: int = 80) -> str:
    """Register a Korean font and set the book's rcParams; return the font name.

    In a notebook kernel inline figures are also drawn at 2x density ("retina").

    Raises ``RuntimeError`` naming the packages to install if no Hangul font
    is found (better than silently drawing boxes).  ``dpi`` is a whole number of dots per
    inch in [10, 1000]: below, text is unreadable; above, one figure takes hundreds of MB.
    """
    dpi = check.integer("dpi", dpi, lo=10, hi=1000)
    files = [p for d in _font_dirs() for p in sorted(d.glob("NanumGothic*.ttf"))]
    if not files:
        raise RuntimeError(
            "no Hangul font found: install the PyPI package "
            "'koreanize-matplotlib' or Debian's 'fonts-nanum'"
        )
    for path in files:
        font_manager.fontManager.addfont(str(_with_minus_sign(path)))
    matplotlib.rcParams.update(
        {
            "font.family": FONT_NAME,
            "axes.unicode_minus": False,
            "figure.dpi": dpi,
            "savefig.dpi": dpi,
            "axes.grid": True,
            "grid.alpha": 0.3,
            "figure.constrained_layout.use": True,
            "svg.hashsalt": "robonum",  # stable ids if SVG is ever written
        }
    )
    _retina_inline()
    return FONT_NAME


def _retina_inline() -> None:
    """In a notebook kernel, draw inline figures at twice the pixel density (crisp on phones).

    Each PNG also carries the figure's titles, axis labels and legend as text
    (:mod:`.figure_text`); the built page's ``alt`` is made from it.
    nbval does not compare PNG outputs, so this changes no regression check.
    """
    try:
        from IPython import get_ipython
        from matplotlib_inline.backend_inline import set_matplotlib_formats
    except ImportError:
        return
    ip = get_ipython()
    if ip is not None:
        set_matplotlib_formats("retina")
        # The same PNG, with the figure's own text stored in it for the page's alt text.
        ip.display_formatter.formatters["image/png"].for_type(Figure, png_with_text)
