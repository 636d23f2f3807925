"""Reading the book's corrections of the printed chapters from their sources.

Two places hold a correction: the chapter, where a label ``(err-…)=`` sits on an admonition
titled "인쇄판과 다른 점: …" right after the cell that computes the evidence, and the errata
page (``book/appendix/errata.md``), where an ``rn-erratum`` entry names that label in
``:evidence:`` and the chapter in ``:page:``.  This module parses both, with no Sphinx build,
so a test can compare them (tests/book/test_errata.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
ERRATA = BOOK / "appendix" / "errata.md"
BOX_TITLE = "인쇄판과 다른 점"

_LABEL = re.compile(r"^\((err-[\w-]+)\)=[ \t]*$", re.M)
# a label, then (blank lines allowed) the opening fence of an admonition with the box's title
_BOX = re.compile(
    r"^\((err-[\w-]+)\)=[ \t]*\n\s*(`{3,}|:{3,})\{admonition\}[ \t]*" + BOX_TITLE, re.M
)
_BOX_TITLED = re.compile(_BOX.pattern + r"[ \t]*:?([^\n]*)$", re.M)
# the whole box: label, opening fence, the admonition's options and text, the same fence closing it
_BOX_BODY = re.compile(_BOX.pattern + r"[^\n]*\n(.*?)^\2[ \t]*$", re.M | re.S)
_ENTRY = re.compile(r"^:::\{rn-erratum\}[ \t]*(.*?)\n(.*?)^:::[ \t]*$", re.M | re.S)
_FIELD = re.compile(r"^:(\w+):[ \t]*(.*)$", re.M)


def page_text(path: Path) -> str:
    """The Markdown a page's reader sees: a .md file, or a notebook's Markdown cells."""
    if path.suffix == ".md":
        return path.read_text(encoding="utf-8")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n\n".join(
        "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
        for c in cells
        if c["cell_type"] == "markdown"
    )


def pages(book: Path = BOOK) -> dict[str, str]:
    """docname ('book/stiff/robot_stiffness') -> Markdown, for every chapter and page but the errata."""
    out = {}
    for path in sorted([*book.rglob("*.ipynb"), *book.rglob("*.md")]):
        if ".ipynb_checkpoints" in path.parts or path.name == ERRATA.name:
            continue
        out[path.relative_to(book.parent).with_suffix("").as_posix()] = page_text(path)
    return out


def labels(text: str) -> set[str]:
    """Every ``(err-…)=`` label on a page."""
    return set(_LABEL.findall(text))


def boxes(text: str) -> set[str]:
    """The labels that sit on a "인쇄판과 다른 점" admonition: the page's inline corrections."""
    return {m.group(1) for m in _BOX.finditer(text)}


def box_titles(text: str) -> dict[str, str]:
    """label -> the box's title after "인쇄판과 다른 점" (empty when the title names no topic)."""
    return {m.group(1): m.group(3).strip() for m in _BOX_TITLED.finditer(text)}


def box_bodies(text: str) -> dict[str, str]:
    """label -> the box's lines between its fences (its ``:class:`` option first)."""
    return {m.group(1): m.group(3) for m in _BOX_BODY.finditer(text)}


def entries(text: str) -> list[dict[str, str]]:
    """The errata page's entries as {'title': …, 'name': …, 'kind': …, 'evidence': …, 'page': …}."""
    out = []
    for title, body in _ENTRY.findall(text):
        fields = dict(_FIELD.findall(body))
        fields["title"] = title.strip()
        out.append(fields)
    return out
