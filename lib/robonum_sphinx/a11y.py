"""Accessibility of the built pages: Korean names for the theme's controls, landmarks, math-only labels.

Measured with axe-core on the built book (tests/browser/test_a11y.py), the
pages failed in ways that come from the toolchain, not from the chapters:

* The theme's and MyST-NB's controls are named in English ("Skip to main
  content", "Color mode", "Toggle hidden content" on every "코드 보기", "Back
  to top", "Link to this heading" ...), and where an English ``aria-label``
  sits on a control that shows Korean text, the spoken name does not match
  the visible one (axe: label-content-name-mismatch).
* The book title in the primary sidebar lies outside every landmark (region).
* The bibliography is a ``role="list"`` whose entries carry the deprecated
  ``doc-biblioentry`` role instead of ``listitem`` (aria-required-children).
* A table header or a radio button labelled only by a formula has no text axe
  (and some screen readers) can read: MathJax's assistive MathML is not part of
  a name (empty-table-header, label).  Such a formula gets a visually hidden
  Unicode twin (``x²`` for ``\\(x^2\\)``, :mod:`.latex_text`) and the typeset
  formula is hidden from assistive technology, so it is read once.

Every step is a string rewrite of one rendered page (:func:`accessible`),
applied as Sphinx writes the page (:func:`setup_a11y` wraps the HTML
builder's template renderer), so an incremental build fixes exactly the pages
it writes.  Each rewrite is idempotent.  The focus rings are CSS
(``_static/robonum.css``); the copy button's Korean words are set by
``static/a11y.js`` (sphinx-copybutton builds its button in the browser).
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from .latex_text import to_text

__all__ = ["KOREAN", "accessible", "korean_chrome", "math_only_names", "setup_a11y"]

STATIC = Path(__file__).resolve().parent / "static"
SCRIPT = "robonum-a11y.js"

# English strings of the theme (pydata-sphinx-theme, sphinx-book-theme) and of MyST-NB,
# as they appear in a rendered page, and the Korean a reader sees or hears instead.
KOREAN: tuple[tuple[str, str], ...] = (
    (">Skip to main content<", ">본문으로 건너뛰기<"),
    ("</i>Back to top</button>", "</i>맨 위로</button>"),
    ('title="Link to this heading"', 'title="이 제목으로 가는 링크"'),
    ('title="Link to this equation"', 'title="이 식으로 가는 링크"'),
    ('title="Link to this table"', 'title="이 표로 가는 링크"'),
    ('title="Link to this image"', 'title="이 그림으로 가는 링크"'),
    ('title="Link to this code"', 'title="이 코드로 가는 링크"'),
    ('title="Toggle primary sidebar"', 'title="책 목차 열고 닫기"'),
    ('title="Toggle secondary sidebar"', 'title="이 페이지 차례 열고 닫기"'),
    ('aria-label="Site navigation"', 'aria-label="책 목차 열기"'),
    ('aria-label="On this page"', 'aria-label="이 페이지 차례 열기"'),
    ('aria-label="Version warning"', 'aria-label="버전 안내"'),
    ('aria-label="Main"', 'aria-label="책 목차"'),
    ('aria-label="Page"', 'aria-label="이 페이지 차례"'),
    ('title="previous page"', 'title="이전 페이지"'),
    ('title="next page"', 'title="다음 페이지"'),
    # The colour-mode button cycles light -> dark -> system.  Its name is the title of
    # the one icon on show (the theme's CSS shows the current mode's icon), so a
    # screen reader hears the current mode; the tooltip says what the button does.
    ('aria-label="Color mode" data-bs-title="Color mode"', 'data-bs-title="색 모드 바꾸기"'),
    ('data-mode="light" title="Light"', 'data-mode="light" title="색 모드: 밝게"'),
    ('data-mode="dark"  title="Dark"', 'data-mode="dark"  title="색 모드: 어둡게"'),
    ('data-mode="auto"  title="System Settings"', 'data-mode="auto"  title="색 모드: 시스템 설정"'),
    # A hidden cell's toggle shows "코드 보기" / "코드 숨기기": that text is its name.
    ('<summary aria-label="Toggle hidden content">', "<summary>"),
    # The bibliography: entries of a role="list" must be list items.
    ('role="doc-biblioentry"', 'role="listitem"'),
)

# The search field buttons show "검색 Ctrl+K": an aria-label of "검색" hides the shortcut
# from the spoken name (label-content-name-mismatch); without it the name is what shows.
_SEARCH_FIELD = re.compile(
    r'(<button class="btn search-button-field[^"]*"[^>]*?) aria-label="[^"]*"'
)
# The primary sidebar (book title, search, table of contents) as a landmark.
_SIDEBAR = re.compile(r'<div id="pst-primary-sidebar" class="([^"]*)">')
_SIDEBAR_ROLE = (
    '<div id="pst-primary-sidebar" class="\\1" role="complementary" aria-label="책 둘러보기">'
)

_MATH = re.compile(r'<span class="math notranslate nohighlight">\\\((.*?)\\\)</span>', re.S)
_CELL = re.compile(r"(<th\b[^>]*>)(.*?)(</th>)", re.S)
_LABEL = re.compile(r"(<label\b[^>]*>)(.*?)(</label>)", re.S)
_TAG = re.compile(r"<[^>]+>")


def korean_chrome(page: str) -> str:
    """``page`` with the toolkit's English control names in Korean and the landmarks fixed."""
    for english, korean in KOREAN:
        page = page.replace(english, korean)
    page = _SEARCH_FIELD.sub(r"\1", page)
    return _SIDEBAR.sub(_SIDEBAR_ROLE, page)


def _spoken(match: re.Match) -> str:
    tex = html.unescape(match.group(1))
    return (
        f'<span aria-hidden="true">{match.group(0)}</span>'
        f'<span class="visually-hidden">{html.escape(to_text(tex), quote=False)}</span>'
    )


def _math_only(match: re.Match) -> str:
    """A header cell or label whose only text is math: each formula gets a Unicode twin."""
    start, inner, end = match.groups()
    if 'class="visually-hidden"' in inner or not _MATH.search(inner):
        return match.group(0)
    if _TAG.sub("", _MATH.sub("", inner)).strip():
        return match.group(0)  # it has words of its own
    return start + _MATH.sub(_spoken, inner) + end


def math_only_names(page: str) -> str:
    """Table headers and labels named only by formulas, made readable (see the module doc)."""
    if 'class="math' not in page:
        return page
    return _LABEL.sub(_math_only, _CELL.sub(_math_only, page))


def accessible(page: str) -> str:
    """Every rewrite of this module, in order, on one rendered page."""
    return math_only_names(korean_chrome(page))


def _wrap_renderer(app) -> None:
    """``builder-inited``: pass every page the HTML builder renders through :func:`accessible`."""
    templates = getattr(app.builder, "templates", None)
    if app.builder.format != "html" or templates is None or hasattr(templates, "rn_a11y"):
        return
    render = templates.render

    def render_accessible(template: str, context: dict) -> str:
        return accessible(render(template, context))

    templates.render = render_accessible
    templates.rn_a11y = True


def _copy_script(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "_static" / SCRIPT
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes((STATIC / "a11y.js").read_bytes())


def setup_a11y(app) -> None:
    """Hook this module into the build (called from the extension's ``setup``)."""
    app.connect("builder-inited", _wrap_renderer)
    app.connect("build-finished", _copy_script)
    app.add_js_file(SCRIPT, loading_method="defer")
