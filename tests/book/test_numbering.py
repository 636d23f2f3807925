"""Tables and figures are numbered by the toolchain, and every reference names one.

Read from the sources (no build, well under a second): the notebooks' cells and
stored outputs and the Markdown pages.  The built pages are checked in
``test_numbering_built.py``; the numbering rule itself (per chapter, page order)
on made-up numbers here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from robonum.book import Table
from robonum.book.markup import inline_html, plain_text
from robonum_sphinx.numbering import FIGURE_KEY, FIGURE_NAME, chapter_number, per_chapter

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
# "표 11.4", "그림 3.2": a number typed by hand; a section ("11.5절") or chapter ("2장") is not one
HAND_NUMBER = re.compile(r"(?:표|그림)\s*\d+\s*\.\s*\d+")
REF = re.compile(r"\{(?:numref|ref)\}`(?:[^`<]*<)?((?:tab|fig)-[a-z0-9-]+)>?`")
TABLE_NAME = re.compile(r"""\bname\s*=\s*["'](tab-[a-z0-9-]+)["']""")
MD_NAME = re.compile(
    r"^(?:\((?P<label>(?:tab|fig)-[a-z0-9-]+)\)=|:name:\s*(?P<opt>(?:tab|fig)-[a-z0-9-]+))", re.M
)
IMAGE = "image/png"


def notebooks() -> list[Path]:
    return sorted(BOOK.rglob("*.ipynb"))


def cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def source(cell: dict) -> str:
    return "".join(cell["source"])


def book_texts() -> list[tuple[str, str]]:
    """(where, text) of every cell source and Markdown page the book is made from."""
    out = [
        (f"{p.relative_to(ROOT)} cell {i}", source(c))
        for p in notebooks()
        for i, c in enumerate(cells(p))
    ]
    out += [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in BOOK.rglob("*.md")]
    return out


def defined_names() -> list[str]:
    """Every table and figure name the book defines (a name twice is listed twice)."""
    names = []
    for p in notebooks():
        for c in cells(p):
            if c["cell_type"] == "code":
                names += TABLE_NAME.findall(source(c))
                spec = c["metadata"].get(FIGURE_KEY)
                if spec:
                    names.append(spec.get("name", ""))
            else:
                names += [m.group("label") or m.group("opt") for m in MD_NAME.finditer(source(c))]
    for p in BOOK.rglob("*.md"):
        text = p.read_text(encoding="utf-8")
        names += [m.group("label") or m.group("opt") for m in MD_NAME.finditer(text)]
    return names


def hand_numbers(texts) -> list[str]:
    return [f"{where}: {m.group(0)}" for where, t in texts for m in HAND_NUMBER.finditer(t)]


def dangling(texts, names) -> list[str]:
    known = set(names)
    return [f"{where}: {n}" for where, t in texts for n in REF.findall(t) if n not in known]


def test_no_hand_written_number_in_the_book():
    assert hand_numbers(book_texts()) == []


def test_every_reference_names_a_table_or_figure():
    assert dangling(book_texts(), defined_names()) == []


def test_names_are_unique_and_well_formed():
    names = defined_names()
    assert len(names) > 100  # the book's 109 tables and 27 figures
    assert sorted(n for n in set(names) if names.count(n) > 1) == []
    figures = [n for n in names if not n.startswith("tab-")]
    assert all(FIGURE_NAME.match(n) for n in figures), figures


def test_the_checks_catch_what_they_are_for():
    texts = [("a", "표 11.4에서"), ("b", "{numref}`tab-missing`의 값"), ("c", "11.5절과 2장")]
    assert hand_numbers(texts) == ["a: 표 11.4"]
    assert dangling(texts, ["tab-other"]) == ["b: tab-missing"]
    assert dangling([("d", "{numref}`그림 %s <fig-x>`")], ["fig-x"]) == []


def test_every_plot_is_a_captioned_figure():
    """A stored static plot (image/png output) sits in a cell that names and captions it."""
    bare = []
    for p in notebooks():
        for i, c in enumerate(cells(p)):
            plots = sum(IMAGE in o.get("data", {}) for o in c.get("outputs", []))
            spec = c["metadata"].get(FIGURE_KEY) or {}
            if plots and not (spec.get("caption") and spec.get("name")):
                bare.append(f"{p.name} cell {i}")
            if spec and plots != 1:
                bare.append(f"{p.name} cell {i}: {plots} plots for one {FIGURE_KEY}")
    assert bare == []


def test_every_captioned_table_is_named():
    """A result table with a caption is a numbered table (its caption alone would be unnumbered)."""
    unnamed = []
    for p in notebooks():
        for i, c in enumerate(cells(p)):
            for o in c.get("outputs", []):
                page = "".join(o.get("data", {}).get("text/html", ""))
                for wrap in re.findall(r'<div class="rn-table-wrap"[^>]*>.{0,400}', page, re.S):
                    if "<caption" in wrap and "data-rn-name=" not in wrap:
                        unnamed.append(f"{p.name} cell {i}")
    assert unnamed == []


def test_table_refuses_a_hand_number_and_a_bad_name():
    with pytest.raises(ValueError, match="hand-written"):
        Table([[1]], ["a"], caption="**표 11.4** 비")
    with pytest.raises(ValueError, match="tab-"):
        Table([[1]], ["a"], caption="비", name="Table 4")
    with pytest.raises(ValueError, match="caption"):
        Table([[1]], ["a"], name="tab-ratio")
    named = Table([[1]], ["a"], caption="비 {numref}`tab-other`", name="tab-ratio")
    assert 'data-rn-name="tab-ratio"' in named.to_html()
    assert 'data-rn-ref="tab-other"' in named.to_html()


def test_reference_markup():
    assert inline_html("{numref}`tab-a`의 값") == (
        '<a class="rn-ref" data-rn-ref="tab-a" href="#tab-a">tab-a</a>의 값'
    )
    assert plain_text("{numref}`tab-a`의 `x`") == "{numref}`tab-a`의 x"


def test_numbers_per_chapter_in_page_order():
    book = {
        "ch1": {"table": {"t-b": (2,), "t-a": (1,)}, "figure": {"f": (1,)}},
        "ch2": {"table": {"t-c": (4,), "t-d": (3,)}},
        "intro": {"table": {"t-e": (5,)}},
    }
    got = per_chapter(book, {"ch1": 1, "ch2": 11, "intro": None})
    assert got["ch1"] == {"table": {"t-a": (1, 1), "t-b": (1, 2)}, "figure": {"f": (1, 1)}}
    assert got["ch2"] == {"table": {"t-d": (11, 1), "t-c": (11, 2)}}
    assert got["intro"] == {"table": {"t-e": (1,)}}
    assert chapter_number("11. 적응 간격") == 11
    assert chapter_number("이 책 사용법") is None
    assert chapter_number("2026년 판") is None
