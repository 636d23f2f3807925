"""What the printed book needs inside the HTML build: its Korean font and the teacher's view.

* The print stylesheet (``_static/robonum-print.css``) names NanumGothic by
  ``@font-face``; the font files are copied into ``_build/html/_static/fonts/``
  at the end of every build, from the ``koreanize-matplotlib`` package the
  book already pins (it bundles NanumGothic, SIL Open Font License) or, failing
  that, from Debian's ``fonts-nanum``.  The repository carries no font binary,
  and a printout does not depend on the reader's installed fonts.
* ``robonum-teacher.js`` (``static/teacher.js``) is loaded by every page: with
  ``?teacher=1`` each exercise shows its key, hint and solution (see the file).
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

from fontTools.ttLib import TTFont
from sphinx.util import logging

HERE = Path(__file__).resolve().parent
TEACHER_JS = "robonum-teacher.js"
FONT_FILES = ("NanumGothic.ttf", "NanumGothicBold.ttf")
DEBIAN_FONTS = Path("/usr/share/fonts/truetype/nanum")

logger = logging.getLogger(__name__)


def font_dir() -> Path | None:
    """A folder holding both NanumGothic files: the pinned package's, else Debian's."""
    candidates = []
    spec = importlib.util.find_spec("koreanize_matplotlib")
    if spec is not None and spec.submodule_search_locations:
        candidates += [Path(p) / "fonts" for p in spec.submodule_search_locations]
    candidates.append(DEBIAN_FONTS)
    for folder in candidates:
        if all((folder / name).is_file() for name in FONT_FILES):
            return folder
    return None


def _copy_if_changed(source: Path, target: Path) -> None:
    """Copy unless the target already has the same bytes."""
    if target.is_file() and target.read_bytes() == source.read_bytes():
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)


def copy_font(source: Path, target: Path) -> None:
    """Copy a TrueType font without its VTT hinting sources (tables TSI0-TSI5).

    NanumGothic ships an empty TSI3 table, and Chromium's font sanitizer (OTS)
    rejects the whole file for it ("TSI3: zero-length table"): the web font
    would never load.  The tables are a font editor's sources, unused for drawing.
    Skipped when the target is newer than the source (the files are 4.7 MB).
    """
    if target.is_file() and target.stat().st_mtime >= source.stat().st_mtime:
        return
    font = TTFont(str(source))
    for tag in [t for t in font.keys() if t.startswith("TSI")]:
        del font[tag]
    target.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(target))


def _write_assets(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    static = Path(app.outdir) / "_static"
    _copy_if_changed(HERE / "static" / "teacher.js", static / TEACHER_JS)
    folder = font_dir()
    if folder is None:
        logger.warning(
            "NanumGothic not found (pip install koreanize-matplotlib, or apt-get install "
            "fonts-nanum): printed pages fall back to the reader's fonts"
        )
        return
    for name in FONT_FILES:
        copy_font(folder / name, static / "fonts" / name)


def setup_print(app) -> None:
    """Register the teacher's view script and the end-of-build copy (called by setup())."""
    app.add_js_file(TEACHER_JS)
    app.connect("build-finished", _write_assets)
