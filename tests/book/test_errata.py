"""The errata page and the chapters' inline corrections say the same thing.

Every "인쇄판과 다른 점" box in a chapter (a label ``(err-…)=`` on the admonition) must have an
entry on book/appendix/errata.md whose ``:evidence:`` is that label and whose ``:page:`` is that
chapter; every entry must point at a box that exists on its page; and every entry's ``:kind:``
must be one of the kinds the errata page states a rule for (the same kinds the ``rn-erratum``
directive accepts and docs/writing-a-chapter.md describes).

The build's side (the rendered links) is tests/browser/test_reading.py; this test reads the
sources only, so it runs without a build.
"""

from __future__ import annotations

import re

import pytest

from robonum_sphinx.errata import KINDS
from tests.book.errata_entries import (
    BOX_TITLE,
    ERRATA,
    ROOT,
    box_bodies,
    box_titles,
    boxes,
    entries,
    labels,
    pages,
)

PAGES = pages()
ENTRIES = entries(ERRATA.read_text(encoding="utf-8"))
INLINE = sorted((doc, label) for doc, text in PAGES.items() for label in boxes(text))
DOCS = ROOT / "docs" / "writing-a-chapter.md"


def missing_entries(pages_: dict[str, str], entries_: list[dict]) -> list[str]:
    """Inline corrections with no entry naming both their label and their page."""
    listed = {(e.get("page", "").partition("#")[0], e.get("evidence")) for e in entries_}
    return [
        f"{doc}: ({label})="
        for doc, text in pages_.items()
        for label in sorted(boxes(text))
        if (doc, label) not in listed
    ]


def dangling_entries(pages_: dict[str, str], entries_: list[dict]) -> list[str]:
    """Entries whose evidence is not a correction box on their page."""
    bad = []
    for e in entries_:
        doc, label = e.get("page", "").partition("#")[0], e.get("evidence")
        if doc not in pages_:
            bad.append(f"{e.get('name')}: no page {doc!r}")
        elif label not in boxes(pages_[doc]):
            where = "a label without the box" if label in labels(pages_[doc]) else "no such label"
            bad.append(f"{e.get('name')}: ({label})= on {doc}: {where}")
    return bad


def test_the_sources_parse():
    assert len(ENTRIES) >= 10, f"only {len(ENTRIES)} rn-erratum entries found in {ERRATA}"
    assert INLINE, f"no '{BOX_TITLE}' boxes found in the chapters"
    for e in ENTRIES:
        for key in ("name", "printed", "kind", "claim", "book", "evidence", "page"):
            assert e.get(key), f"entry {e['title']!r} has no :{key}:"
    names = [e["name"] for e in ENTRIES]
    assert len(names) == len(set(names)), "two entries share a :name:"


@pytest.mark.parametrize(("doc", "label"), INLINE, ids=[label for _, label in INLINE])
def test_inline_correction_is_on_the_errata_page(doc, label):
    assert missing_entries({doc: PAGES[doc]}, ENTRIES) == [], (
        f"({label})= in {doc} has no entry on {ERRATA.name} with :evidence: {label} "
        f"and :page: {doc}"
    )


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.get("name", "?") for e in ENTRIES])
def test_entry_points_at_its_box(entry):
    assert dangling_entries(PAGES, [entry]) == []


def test_every_box_names_its_topic():
    """One form: a box reads "인쇄판과 다른 점: <topic>", so the errata page's link to it
    ("chapter — box title") says what the correction is about."""
    untitled = [
        f"{doc}: ({label})="
        for doc, text in PAGES.items()
        for label, topic in box_titles(text).items()
        if not topic
    ]
    assert untitled == [], f"boxes titled only '{BOX_TITLE}': {untitled}"


def test_kinds_follow_the_stated_rule():
    """Each entry's kind is one the directive accepts, and the errata page's rule and the
    authors' guide both name every one of them (so no kind is used without a stated rule)."""
    used = {e["kind"] for e in ENTRIES}
    assert used <= set(KINDS), f"kinds with no rule: {sorted(used - set(KINDS))}"
    rule = ERRATA.read_text(encoding="utf-8").partition("\n## ")[0]  # the text before the entries
    stated = set(re.findall(r"\*\*(.+?)\*\*", rule))
    shown = {label for label, _ in KINDS.values()}
    assert shown <= stated, (
        f"kinds missing from the rule on {ERRATA.name}: {sorted(shown - stated)}"
    )
    guide = DOCS.read_text(encoding="utf-8")
    assert all(k in guide for k in KINDS), f"kinds missing from {DOCS.name}: " + ", ".join(
        k for k in KINDS if k not in guide
    )


FORM_CLASS = ":class: rn-printed-diff"


def form_problems(body: str, entry_name: str | None) -> list[str]:
    """What keeps a box from the one form: the class, the printed claim first, the link back."""
    lines = [ln for ln in body.strip().splitlines() if ln.strip()]
    found = []
    if not lines or lines[0].strip() != FORM_CLASS:
        found.append(f"first option is not '{FORM_CLASS}'")
    if len(lines) < 2 or not lines[1].startswith("인쇄판 "):
        found.append("text does not open with the printed claim ('인쇄판 …')")
    back = f"({{ref}}`모아 둔 항목 <{entry_name}>`)"
    if entry_name is None or not lines or not lines[-1].rstrip().endswith(back):
        found.append(f"last line does not link back with {back}")
    return found


@pytest.mark.parametrize("doc,label", INLINE)
def test_box_has_the_one_form(doc, label):
    """Every box reads alike: class rn-printed-diff, the printed claim first, and a link back
    to the errata entry whose ``:evidence:`` is this box (docs/writing-a-chapter.md, item 8)."""
    name = next((e["name"] for e in ENTRIES if e.get("evidence") == label), None)
    assert form_problems(box_bodies(PAGES[doc])[label], name) == [], (doc, label)


def test_the_check_catches_a_drifted_page():
    """The comparison itself fails on the states it exists to catch."""
    page = "(err-x-1)=\n```{admonition} 인쇄판과 다른 점: 무엇\n:class: note\n본문\n```\n"
    entry = {"name": "erratum-x", "page": "book/p", "evidence": "err-x-1", "kind": "오류"}
    assert missing_entries({"book/p": page}, [entry]) == []
    assert dangling_entries({"book/p": page}, [entry]) == []
    assert missing_entries({"book/p": page}, []) == ["book/p: (err-x-1)="]
    assert missing_entries({"book/p": page}, [{**entry, "page": "book/q"}])
    assert dangling_entries({"book/p": page}, [{**entry, "evidence": "err-x-2"}])
    assert dangling_entries({"book/p": "(err-x-1)=\n\n본문\n"}, [entry])  # a label, no box
    assert dangling_entries({"book/p": page}, [{**entry, "page": "book/none"}])
    assert box_titles(page) == {"err-x-1": "무엇"}
    assert box_titles(page.replace(": 무엇", "")) == {"err-x-1": ""}
    # the form check: a note box of plain text with no link back fails all three, the one form passes
    assert len(form_problems(box_bodies(page)["err-x-1"], "erratum-x")) == 3
    good = page.replace(
        ":class: note\n본문", FORM_CLASS + "\n인쇄판 1.2는 …\n({ref}`모아 둔 항목 <erratum-x>`)"
    )
    assert form_problems(box_bodies(good)["err-x-1"], "erratum-x") == []
    assert form_problems(box_bodies(good)["err-x-1"], "erratum-y")
