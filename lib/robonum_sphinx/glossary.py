"""The glossary: one data file, a generated page, and a terminology check.

``book/appendix/glossary.yml`` is the single source.  Each entry has the
Korean term the book uses, the English term, a short definition, where the
term is introduced (a chapter of this book and/or a section of the printed
chapters) and the *retired* variants: regular expressions for wordings the
book no longer uses, each with the wording to use instead, and
*synonyms*: other spellings a reader may type into the search box (자코비안
for 야코비안), which the search reads as the term.

* The ``rn-glossary`` directive renders the file as a table on the glossary
  page and registers every term, so ``{term}`강성``` links to its row.
* :func:`lint` finds retired variants in page sources;
  ``tests/book/test_glossary.py`` runs it over every page.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from pathlib import Path

import yaml

__all__ = ["Term", "Retired", "Finding", "load", "lint", "prose_only", "term_id"]


@dataclasses.dataclass(frozen=True)
class Retired:
    pattern: str  # a regular expression over prose (code and math removed)
    use: str  # what to write instead
    regex: re.Pattern

    def finditer(self, text: str):
        return self.regex.finditer(text)


@dataclasses.dataclass(frozen=True)
class Term:
    term: str
    english: str
    definition: str
    chapter: str | None = None  # docname of the chapter that introduces it
    printed: str | None = None  # section of the printed chapters, e.g. "7.50 §4.1"
    forms: tuple[str, ...] = ()  # regexes that count as using the term (default: the term)
    retired: tuple[Retired, ...] = ()
    synonyms: tuple[str, ...] = ()  # spellings a reader may search for; search reads the term

    @property
    def id(self) -> str:
        return term_id(self.english)

    @property
    def search_word(self) -> str:
        """What a synonym is searched as: the first of ``forms`` (룽게-쿠타), else the term."""
        return self.forms[0] if self.forms else self.term


@dataclasses.dataclass(frozen=True)
class Finding:
    line: int
    text: str
    term: str
    use: str
    pattern: str

    def __str__(self) -> str:
        return f"line {self.line}: '{self.text}' -> {self.use}  (term {self.term}; rule {self.pattern})"


def term_id(english: str) -> str:
    """HTML id of a term's row: ``term-`` and the English term in ASCII (``term-step-size``)."""
    text = english.replace("–", "-").replace("—", "-").replace("'", "").replace("’", "")
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    return f"term-{slug}"


def load(path: str | Path) -> list[Term]:
    """Read and validate the glossary file; raise ``ValueError`` naming the bad entry."""
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    entries = data.get("terms") if isinstance(data, dict) else None
    if not isinstance(entries, list) or not entries:
        raise ValueError(f"{path}: expected a mapping with a non-empty list 'terms'")
    terms, seen, ids = [], set(), set()
    synonym_of: dict[str, str] = {}
    for i, e in enumerate(entries):
        where = f"{path}: entry {i + 1} ({e.get('term', '?') if isinstance(e, dict) else e!r})"
        if not isinstance(e, dict):
            raise ValueError(f"{where}: not a mapping")
        unknown = set(e) - {
            "term",
            "english",
            "definition",
            "chapter",
            "printed",
            "forms",
            "retired",
            "synonyms",
        }
        if unknown:
            raise ValueError(f"{where}: unknown keys {sorted(unknown)}")
        for key in ("term", "english", "definition"):
            if not isinstance(e.get(key), str) or not e[key].strip():
                raise ValueError(f"{where}: '{key}' must be a non-empty string")
        if not (e.get("chapter") or e.get("printed")):
            raise ValueError(
                f"{where}: give 'chapter' (a page of this book) or 'printed' (a printed section)"
            )
        if e["term"] in seen:
            raise ValueError(f"{where}: duplicate term")
        seen.add(e["term"])
        retired = []
        for r in e.get("retired") or []:
            if not isinstance(r, dict) or not isinstance(r.get("pattern"), str):
                raise ValueError(f"{where}: each retired variant needs a 'pattern'")
            try:
                regex = re.compile(r["pattern"])
            except re.error as exc:
                raise ValueError(f"{where}: bad pattern {r['pattern']!r}: {exc}") from None
            retired.append(Retired(r["pattern"], r.get("use") or e["term"], regex))
        forms = tuple(e.get("forms") or ())
        for f in forms:
            re.compile(f)
        synonyms = tuple(e.get("synonyms") or ())
        for syn in synonyms:
            if not isinstance(syn, str) or not syn.strip() or syn != syn.strip():
                raise ValueError(f"{where}: each synonym must be a non-empty string")
            if syn in synonym_of:
                raise ValueError(f"{where}: synonym {syn!r} is also one of {synonym_of[syn]!r}")
            synonym_of[syn] = e["term"]
        if synonyms and forms and not re.fullmatch(r"[\w\s-]+", forms[0]):
            raise ValueError(f"{where}: synonyms are searched as forms[0], which must be a word")
        term = Term(
            e["term"].strip(),
            e["english"].strip(),
            e["definition"].strip(),
            e.get("chapter"),
            e.get("printed"),
            forms,
            tuple(retired),
            synonyms,
        )
        if term.id in ids:
            raise ValueError(f"{where}: two terms share the id {term.id}")
        ids.add(term.id)
        terms.append(term)
    clash = sorted(set(synonym_of) & seen)
    if clash:
        raise ValueError(f"{path}: synonyms that are terms themselves: {clash}")
    return terms


# --- what counts as prose ---------------------------------------------------
_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,}|:{3,})(.*)$")
_CODE_DIRECTIVES = {"code", "code-block", "code-cell", "sourcecode", "math", "raw", "glossary"}
_INLINE = [
    re.compile(r"<!--.*?-->", re.S),  # HTML comments
    re.compile(r"\$\$.+?\$\$", re.S),  # display math
    re.compile(r"(?<![\\$])\$(?!\s)[^$\n]+?(?<!\s)\$"),  # inline math
    re.compile(r"\\\(.+?\\\)|\\\[.+?\\\]", re.S),  # \( \) and \[ \]
    re.compile(r"(`+).+?\1", re.S),  # inline code and {role}`...`
    re.compile(r"“[^”]*”|「[^」]*」|『[^』]*』"),  # quotations of the printed text
    re.compile(r"\]\([^)]*\)"),  # link targets
    re.compile(r"^\s*\([\w.:-]+\)=\s*$", re.M),  # MyST labels
    re.compile(r"^\s*:[\w-]+:.*$", re.M),  # directive options
]
_MATH_PLACEHOLDER = "0"


def prose_only(text: str) -> str:
    """``text`` with code, math, quotations and markup blanked out; lines keep their numbers.

    Math becomes ``0`` so that "$10^4$단계 뒤" still reads as a number of steps.
    """
    out: list[str] = []
    code = None  # the fence of the code/math block we are in
    stack: list[str] = []  # fences of open prose directives (admonition, note, ...)
    for line in text.split("\n"):
        m = _FENCE.match(line)
        if code is not None:
            if (
                m
                and not m.group(3).strip()
                and m.group(2)[0] == code[0]
                and len(m.group(2)) >= len(code)
            ):
                code = None
            out.append("")
            continue
        if m:
            fence, info = m.group(2), m.group(3).strip()
            if not info and stack and fence[0] == stack[-1][0] and len(fence) >= len(stack[-1]):
                stack.pop()
                out.append("")
                continue
            name = info[1 : info.index("}")] if info.startswith("{") and "}" in info else None
            if name is None or name in _CODE_DIRECTIVES:
                code = fence
                out.append("")
            else:
                stack.append(fence)
                out.append(info[info.index("}") + 1 :])  # the directive's title is prose
            continue
        out.append(line)
    text = "\n".join(out)
    for regex in _INLINE:

        def blank(m):
            s = m.group(0)
            keep = _MATH_PLACEHOLDER if s.startswith(("$", "\\(", "\\[")) else " "
            return keep + re.sub(r"[^\n]", " ", s[1:])

        text = regex.sub(blank, text)
    return text


def lint(text: str, terms: list[Term], *, markdown: bool = True) -> list[Finding]:
    """Retired variants in ``text`` (Markdown unless ``markdown=False``), in line order."""
    prose = prose_only(text) if markdown else text
    findings = []
    for term in terms:
        for rule in term.retired:
            for m in rule.finditer(prose):
                line = prose.count("\n", 0, m.start()) + 1
                findings.append(Finding(line, m.group(0), term.term, rule.use, rule.pattern))
    return sorted(findings, key=lambda f: (f.line, f.text))


def uses_term(text: str, term: Term) -> bool:
    """Whether prose ``text`` uses ``term`` (or one of its ``forms``)."""
    prose = prose_only(text)
    patterns = term.forms or (re.escape(term.term),)
    return any(re.search(p, prose) for p in patterns)


# --- the Sphinx side ---------------------------------------------------------
def _directive():
    from docutils import nodes
    from docutils.parsers.rst import Directive, directives
    from sphinx import addnodes

    class GlossaryTable(Directive):
        """``{rn-glossary} glossary.yml``: the glossary file as a table with linkable rows."""

        required_arguments = 1
        has_content = False
        option_spec = {"class": directives.class_option}

        def run(self):
            env = self.state.document.settings.env
            from . import note_reread

            note_reread(env)
            rel, path = env.relfn2path(self.arguments[0], env.docname)
            env.note_dependency(rel)
            try:
                terms = load(path)
            except (OSError, ValueError) as exc:
                raise self.error(f"rn-glossary: {exc}") from None
            terms = sorted(terms, key=lambda t: t.term.lower())
            headers = ["용어", "English", "짧은 정의", "처음 나오는 곳"]
            table = nodes.table(classes=["rn-glossary"] + self.options.get("class", []))
            group = nodes.tgroup(cols=len(headers))
            table += group
            for width in (16, 18, 46, 20):
                group += nodes.colspec(colwidth=width)
            head = nodes.thead()
            row = nodes.row()
            for h in headers:
                row += nodes.entry("", nodes.paragraph(text=h))
            head += row
            group += head
            body = nodes.tbody()
            std = env.get_domain("std")
            for t in terms:
                row = nodes.row(ids=[t.id])
                name = nodes.paragraph()
                name += nodes.strong(text=t.term)
                row += nodes.entry("", name, classes=["rn-col-term"])
                row += nodes.entry("", nodes.paragraph(text=t.english), classes=["rn-col-english"])
                para = nodes.paragraph()
                inline, messages = self.state.inline_text(t.definition, self.lineno)
                para += inline
                row += nodes.entry("", para, *messages, classes=["rn-col-definition"])
                where = nodes.paragraph()
                if t.chapter:
                    ref = addnodes.pending_xref(
                        "",
                        nodes.inline(text=t.chapter),
                        refdomain="std",
                        reftype="doc",
                        reftarget="/" + t.chapter,
                        refexplicit=False,
                        refwarn=True,
                        refdoc=env.docname,
                    )
                    where += ref
                if t.printed:
                    if t.chapter:
                        where += nodes.Text(" · ")
                    where += nodes.inline(text=f"인쇄판 {t.printed}", classes=["rn-printed"])
                row += nodes.entry("", where, classes=["rn-col-where"])
                body += row
                note = getattr(std, "_note_term", None)
                if note is not None:
                    note(t.term, t.id, location=(env.docname, self.lineno))
                else:  # pragma: no cover - older Sphinx
                    std.note_object("term", t.term, t.id, location=(env.docname, self.lineno))
            group += body
            return [nodes.container("", table, classes=["rn-table-scroll"])]

    return GlossaryTable
