"""robonum_sphinx.numbering in a two-page Sphinx project: insert a table and the numbers follow.

Each test builds two tiny notebooks (stored outputs, not executed) with myst-nb and
our extension; a build takes about a second.  Checked: tables and a plot numbered
per chapter in page order, references in Markdown and inside cell outputs
resolved to the new numbers, and a reference to a missing name a warning.
"""

from __future__ import annotations

import base64
import io
import re

import nbformat
import pytest
from sphinx.application import Sphinx

from robonum.book import Table

PNG = base64.b64encode(
    bytes.fromhex(
        "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
        "0000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
    )
).decode()


def table_output(name: str, caption: str) -> dict:
    t = Table([[1]], ["a"], caption=caption, name=name)
    return nbformat.v4.new_output(
        "display_data", data={"text/html": t.to_html(), "text/plain": repr(t)}
    )


def chapter(title: str, tables: list[tuple[str, str]], text: str, figure=None):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nb.metadata["language_info"] = {"name": "python"}
    nb.cells.append(nbformat.v4.new_markdown_cell(f"# {title}\n\n{text}"))
    for name, caption in tables:
        cell = nbformat.v4.new_code_cell("Table(...)")
        cell.outputs = [table_output(name, caption)]
        nb.cells.append(cell)
    if figure:
        cell = nbformat.v4.new_code_cell("fig")
        cell.metadata["rn_figure"] = figure
        cell.outputs = [
            nbformat.v4.new_output("display_data", data={"image/png": PNG, "text/plain": "F"})
        ]
        nb.cells.append(cell)
    return nb


def build(tmp_path, pages: dict) -> tuple[dict[str, str], str]:
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(
        "extensions = ['myst_nb', 'robonum_sphinx']\n"
        "numfig = True\nlanguage = 'ko'\nnb_execution_mode = 'off'\n"
        "nb_mime_priority_overrides = [('html', 'text/html', 0)]\n"
        "myst_enable_extensions = ['dollarmath']\n"
        "rn_glossary = 'none.yml'\n"
    )
    toc = "\n".join(pages)
    (src / "index.md").write_text(f"# 책\n\n```{{toctree}}\n{toc}\n```\n")
    for name, nb in pages.items():
        nbformat.write(nb, src / f"{name}.ipynb")
    warnings = io.StringIO()
    app = Sphinx(
        src,
        src,
        tmp_path / "out",
        tmp_path / "doctrees",
        "html",
        status=None,
        warning=warnings,
        freshenv=True,
    )
    app.build()
    html = {n: (tmp_path / "out" / f"{n}.html").read_text(encoding="utf-8") for n in pages}
    return html, warnings.getvalue()


def numbers(page: str) -> list[str]:
    return re.findall(r'<span class="caption-number">([^<]*?)\s*</span>', page)


def refs(page: str) -> list[str]:
    return re.findall(
        r'<a class="reference internal" href="[^"]*#(?:tab|fig)-[^"]*">(?:<span[^>]*>)?([^<]*)<',
        page,
    )


TEXT = "값은 {numref}`tab-b`와 {numref}`tab-other`에 있습니다."


def pages(extra_table: bool) -> dict:
    first = [("tab-new", "새 표")] if extra_table else []
    return {
        "one": chapter(
            "1. 첫 장",
            [*first, ("tab-a", "가"), ("tab-b", "나 {numref}`tab-a`")],
            TEXT,
            figure={"name": "fig-plot", "caption": "그림 $x$의 설명"},
        ),
        "two": chapter("2. 둘째 장", [("tab-other", "다")], "{numref}`fig-plot`을 보세요."),
    }


@pytest.mark.parametrize("extra_table", [False, True])
def test_numbers_and_references_follow_an_inserted_table(tmp_path, extra_table):
    html, warnings = build(tmp_path, pages(extra_table))
    shift = 1 if extra_table else 0
    expected_one = [f"표 1.{k}" for k in range(1, 3 + shift)] + ["그림 1.1"]
    assert numbers(html["one"]) == expected_one
    assert numbers(html["two"]) == ["표 2.1"]
    # the prose's references, then the caption's reference inside the cell output
    assert refs(html["one"]) == [f"표 1.{2 + shift}", "표 2.1", f"표 1.{1 + shift}"]
    assert refs(html["two"]) == ["그림 1.1"]
    assert 'alt="그림 x의 설명"' in html["one"]
    # (a second app in one process re-registers the extensions' directives and nodes)
    other = [w for w in warnings.splitlines() if w.strip() and "already registered" not in w]
    assert other == []


def test_a_reference_to_a_missing_name_is_a_warning(tmp_path):
    book = pages(False)
    book["two"] = chapter("2. 둘째 장", [("tab-other", "다 {numref}`tab-gone`")], "")
    _html, warnings = build(tmp_path, book)
    assert "tab-gone" in warnings
