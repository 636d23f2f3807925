"""One term, one word: every page source against book/appendix/glossary.yml.

The glossary file lists, for each term, the wordings the book no longer uses
(``retired``: a regular expression and what to write instead).  Prose is
checked: Markdown files and the Markdown cells of notebooks under book/.
Code, math, inline code and roles, and quotations of the printed chapters
in “…” or 「…」 are not checked (robonum_sphinx.glossary.prose_only).

Pages that still use retired wordings are listed in KNOWN below with the
wording they use.  Those tests are expected failures (strict): once a page
is fixed its test passes, pytest reports XPASS as a failure, and the entry
must be removed from KNOWN.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from robonum_sphinx import glossary
from robonum_sphinx.korean_search import synonym_rules

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
GLOSSARY = BOOK / "appendix" / "glossary.yml"
TERMS = glossary.load(GLOSSARY)

# page -> why it is expected to fail (the wordings it still uses).  Empty: every
# page follows the glossary.  A page that cannot be fixed at once goes here, e.g.
#     # TODO(name): chapter 3 still says "시간 단계" (cells 4, 9); use "걸음".
#     "book/integrators/multistep.ipynb": "시간 단계",
KNOWN: dict[str, str] = {}
# (term, chapter) pairs where the chapter named in the glossary does not use the term yet.
KNOWN_UNUSED: set[tuple[str, str]] = set()


def page_sources() -> list[Path]:
    return sorted(
        p
        for p in BOOK.rglob("*")
        if p.suffix in (".md", ".ipynb") and ".ipynb_checkpoints" not in p.parts
    )


def prose_blocks(path: Path) -> list[tuple[str, str]]:
    """(where, markdown) for a page: the whole .md file, or each Markdown cell of a notebook."""
    if path.suffix == ".md":
        return [("", path.read_text(encoding="utf-8"))]
    nb = json.loads(path.read_text(encoding="utf-8"))
    return [
        (f"cell {i} ", "".join(c["source"]))
        for i, c in enumerate(nb["cells"])
        if c["cell_type"] == "markdown"
    ]


def _param(path: Path):
    rel = path.relative_to(ROOT).as_posix()
    if rel in KNOWN:
        return pytest.param(
            path,
            id=rel,
            marks=pytest.mark.xfail(strict=True, reason=f"uses retired wordings: {KNOWN[rel]}"),
        )
    return pytest.param(path, id=rel)


@pytest.mark.parametrize("path", [_param(p) for p in page_sources()])
def test_page_uses_the_glossary_terms(path):
    problems = [
        f"{where}{finding}"
        for where, text in prose_blocks(path)
        for finding in glossary.lint(text, TERMS)
    ]
    assert not problems, f"{path.relative_to(ROOT)}:\n  " + "\n  ".join(problems)


def test_known_failures_name_existing_pages():
    for rel in KNOWN:
        assert (ROOT / rel).exists(), f"KNOWN lists {rel}, which does not exist: remove it"


def test_glossary_entries_are_complete():
    ids = {t.id for t in TERMS}
    assert len(ids) == len(TERMS)
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    for t in TERMS:
        assert t.definition.rstrip().endswith((".", ")")), (
            f"{t.term}: end the definition with a full stop"
        )
        if t.chapter:
            assert re.search(rf"\b{re.escape(t.chapter)}\b", toc) or t.chapter == "book/index", (
                f"{t.term}: chapter {t.chapter} is not in _toc.yml"
            )
            assert any((ROOT / (t.chapter + s)).exists() for s in (".md", ".ipynb")), t.chapter
        if t.printed:
            assert re.match(r"^(1\.18|7\.50)\b", t.printed), f"{t.term}: printed {t.printed!r}"


def test_terms_do_not_retire_each_other():
    """No term, and no definition, is itself caught by a retired pattern."""
    for t in TERMS:
        for text in (t.term, t.definition):
            found = glossary.lint(text, TERMS)
            assert not found, f"{t.term}: {found}"


def _chapter_text(docname: str) -> str:
    for suffix in (".ipynb", ".md"):
        path = ROOT / (docname + suffix)
        if path.exists():
            return "\n".join(text for _, text in prose_blocks(path))
    raise AssertionError(f"no page {docname}")


def _used(term, chapter):
    pair = (term.term, chapter)
    marks = (
        [pytest.mark.xfail(strict=True, reason="TODO(lead): see KNOWN_UNUSED")]
        if pair in KNOWN_UNUSED
        else []
    )
    return pytest.param(term, id=f"{term.term}@{chapter}", marks=marks)


@pytest.mark.parametrize("term", [_used(t, t.chapter) for t in TERMS if t.chapter])
def test_chapter_uses_its_term(term):
    assert glossary.uses_term(_chapter_text(term.chapter), term), (
        f"{term.term!r} is said to be introduced in {term.chapter}, which does not use it"
    )


@pytest.mark.parametrize(
    "text, expected",
    [
        ("한 단계 적분기와 차수", ["한 걸음 방법"]),
        ("$10^4$단계 뒤 직교성 오차", ["N걸음 뒤 (단계는 stage)"]),
        ("각 시간 단계에서 비선형 방정식", ["걸음"]),
        ("k단계 BDF의 일반 형태", ["k차 BDF (k걸음 BDF의 차수는 k)"]),
        ("안정성 함수는 R(z)이며", ["안정 함수"]),
        ("리군 위의 고차 적분", ["리 군"]),
        ("스텝 크기를 줄이면", ["걸음 (길이는 간격)"]),
        ("A 안정한 방법", ["A-안정, L-안정 (붙임표)"]),
        # allowed: stages, the complex step, quotations of the printed text, code, math
        ("2단계 SDIRK는 2차입니다. 단계값 $k_i$, $s$단계 방법", []),
        ("복소 스텝은 뺄셈이 없습니다", []),
        ("인쇄판은 “2단계 3차 SDIRK”와 “각 시간 단계”라고 씁니다", []),
        ("`스텝` 과 $\\text{시간 단계}$", []),
        ("A-안정성과 L-안정성, A($\\alpha$)-안정성", []),
        ("다단계 방법과 영불안정", []),
        ("```python\n# 시간 단계\n```\n걸음", []),
        ("```{admonition} 인쇄판과 다른 점\n시간 단계\n```", ["걸음"]),
    ],
)
def test_rules(text, expected):
    assert [f.use for f in glossary.lint(text, TERMS)] == expected


# --- synonyms: spellings a reader may search for (tests/browser/test_search.py searches them)
def test_synonyms_are_searched_as_a_word_of_the_book():
    rules = dict(synonym_rules(TERMS))
    assert rules.get("자코비안") == "야코비안" and rules.get("스티프") == "강성", rules
    assert rules.get("룽게쿠타") == "룽게-쿠타"  # forms[0], not "룽게-쿠타 방법"
    for synonym in rules:
        assert not [t for t in TERMS if synonym == t.term], synonym


def _load(tmp_path, entries: str):
    path = tmp_path / "glossary.yml"
    path.write_text("terms:\n" + entries, encoding="utf-8")
    return glossary.load(path)


ENTRY = "  - term: {term}\n    english: {english}\n    definition: 뜻.\n    printed: '1.18'\n"


def test_a_synonym_that_is_a_term_or_listed_twice_is_refused(tmp_path):
    a = ENTRY.format(term="강성", english="stiffness")
    b = ENTRY.format(term="야코비안", english="Jacobian")
    assert _load(tmp_path, a + "    synonyms: [스티프]\n" + b)
    with pytest.raises(ValueError, match="terms themselves"):
        _load(tmp_path, a + "    synonyms: [야코비안]\n" + b)
    with pytest.raises(ValueError, match="also one of"):
        _load(tmp_path, a + "    synonyms: [스티프]\n" + b + "    synonyms: [스티프]\n")
