"""The printed book: both editions are built from the HTML build and read back.

``tools/pdf_book.py --if-stale`` prints them (about a minute on two cores) unless
``make pdf`` already did so after the last book build.  The checks read the PDFs
with PyMuPDF and compare them with the built HTML, never with stored numbers:
every page of the table of contents is there and begins where the contents say,
no formula is left as TeX, Hangul is set in the bundled NanumGothic and every font
is embedded, each exploration is printed with its values as a caption, and the
exercises' keys, hints and solutions are in the teacher's edition only.
"""

from __future__ import annotations

import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pymupdf
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
HTML = ROOT / "_build" / "html"
OUT = ROOT / "_build" / "pdf"
KEY_LABEL = "교사용 정답"  # robonum_sphinx/static/teacher.js
CAPTION = "그림의 값:"  # _static/robonum-print.css
RAW_TEX = re.compile(r"\\[()\[\]]|\$\$|\\(frac|lambda|mathrm|left|right|begin|sqrt|cdot)\b")
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def toc_docs() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    return [toc["root"]] + [c["file"] for p in toc["parts"] for c in p["chapters"]]


@pytest.fixture(scope="module")
def books():
    if not (HTML / "index.html").exists():
        pytest.fail("no built book: run `make book` first")
    subprocess.run(
        [sys.executable, str(ROOT / "tools" / "pdf_book.py"), "--if-stale"], check=True, cwd=ROOT
    )
    return {
        "student": Read(pymupdf.open(OUT / "book.pdf")),
        "teacher": Read(pymupdf.open(OUT / "book-teacher.pdf")),
    }


class Read:
    """A PDF and its text, extracted once: all of it, and the spans not set as code."""

    def __init__(self, doc):
        self.doc, self.page_count = doc, doc.page_count
        lines = list(text_lines(doc))
        self.text = "\n".join("".join(t for _, t in line) for line in lines)
        self.spans = [(f, t) for line in lines for f, t in line if f is not None]


TEXT_ONLY = pymupdf.TEXTFLAGS_DICT & ~pymupdf.TEXT_PRESERVE_IMAGES  # images: slow, not needed


def text_lines(doc):
    """Each line of text as (font, text) spans; font None for a span set as code (monospace)."""
    for page in doc:
        for block in page.get_text("dict", flags=TEXT_ONLY)["blocks"]:
            for line in block.get("lines", []):
                yield [(None if mono(s) else s["font"], s["text"]) for s in line["spans"]]


def mono(span) -> bool:
    return bool(span["flags"] & pymupdf.TEXT_FONT_MONOSPACED) or "Mono" in span["font"]


def prose_spans(doc):
    """(font, text) of every span not set in a monospace font (code may show TeX source)."""
    return [(f, t) for line in text_lines(doc) for f, t in line if f is not None]


def raw_tex(spans) -> list[str]:
    return [t for _, t in spans if RAW_TEX.search(t)]


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


class _Exercises(HTMLParser):
    """Text of every hint and solution of a page, and the page's other text (code left out:
    an exercise's cell holds its hint and solution as source, hidden in print)."""

    SKIP = {"pre", "script", "style", "summary"}
    VOID = {"br", "img", "input", "meta", "link", "hr", "source", "wbr"}

    def __init__(self):
        super().__init__()
        self.depth, self.stack, self.skip = 0, [], 0
        self.keys, self.prose, self.current = [], [], []

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        cls = dict(attrs).get("class") or ""
        if tag == "details" and ("rn-hint" in cls or "rn-solution" in cls):
            self.stack.append(self.depth)
            self.current = []
        self.skip += tag in self.SKIP
        self.depth += 1

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        self.depth -= 1
        self.skip -= tag in self.SKIP
        if self.stack and self.depth == self.stack[-1]:
            self.stack.pop()
            self.keys.append("".join(self.current))

    def handle_data(self, data):
        if not self.skip:
            (self.current if self.stack else self.prose).append(data)


def key_fragments() -> tuple[list[str], str]:
    """The longest Hangul run of each hint and solution, and all other text of the book."""
    fragments, prose = [], []
    for doc in toc_docs():
        parser = _Exercises()
        parser.feed((HTML / f"{doc}.html").read_text(encoding="utf-8"))
        prose += parser.prose
        for text in parser.keys:
            runs = re.findall(r"[\uac00-\ud7a3][\uac00-\ud7a3 ,.]*[\uac00-\ud7a3]", text)
            longest = squeeze(max(runs, key=lambda r: len(squeeze(r)), default=""))
            if len(longest) >= 6:  # shorter runs ("입니다") are common in prose
                fragments.append(longest)
    return fragments, squeeze("".join(prose))


def count_in_html(pattern: str) -> int:
    return sum(
        len(re.findall(pattern, (HTML / f"{d}.html").read_text(encoding="utf-8")))
        for d in toc_docs()
    )


def test_raw_tex_finder_sees_tex_outside_code_only(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((50, 80), r"prose \(y' = \lambda y\)", fontname="helv")
    page.insert_text((50, 120), r'code "$\frac{1}{2}$"', fontname="cour")
    doc.save(tmp_path / "t.pdf")
    found = raw_tex(prose_spans(pymupdf.open(tmp_path / "t.pdf")))
    assert found == [r"prose \(y' = \lambda y\)"]


def test_page_counts_and_contents(books):
    docs = toc_docs()
    for edition, read in books.items():
        doc = read.doc
        assert len(docs) + 2 <= doc.page_count <= 40 * len(docs), (edition, doc.page_count)
        contents = doc[1].get_text()
        assert "차례" in contents
        starts = {link["page"] for link in doc[1].get_links() if "page" in link}
        assert len(starts) == len(docs), f"{edition}: contents link {len(starts)} pages"
        for n in starts:
            assert n >= 2 and doc[n].get_text().strip(), f"{edition}: empty page {n + 1}"
        assert len([e for e in doc.get_toc() if e[1] != "차례"]) > len(docs)
        for page in doc:
            for link in page.get_links():
                assert not (link.get("uri") or "").startswith("file:"), (edition, page.number)
    assert books["teacher"].page_count > books["student"].page_count  # the keys take room


def test_each_contents_entry_starts_its_page(books):
    """The contents' page numbers are where each page of the book begins (its title is there)."""
    for edition, doc in ((e, r.doc) for e, r in books.items()):
        titles = [e for e in doc.get_toc() if e[0] <= 2 and e[1] != "차례"]
        for link in doc[1].get_links():
            if "page" not in link:
                continue
            entry = doc[1].get_textbox(link["from"]).strip()
            number = int(entry.split()[-1])
            assert number == link["page"] + 1, (edition, entry)
            title = squeeze(entry.rsplit(maxsplit=1)[0].rstrip(". "))
            assert title[:8] in squeeze(doc[link["page"]].get_text()), (edition, entry)
        assert titles


def test_no_raw_tex_and_no_screen_machinery(books):
    for edition, read in books.items():
        assert raw_tex(read.spans) == [], edition
        text = read.text
        for clutter in ("Skip to main content", "Toggle", "입력 예", "Color mode"):
            assert clutter not in text, (edition, clutter)


def test_korean_in_the_bundled_font_and_every_font_embedded(books):
    for edition, read in books.items():
        fonts = {f[3].split("+")[-1]: f[1:3] for page in read.doc for f in page.get_fonts()}
        assert any(name.startswith("NanumGothic") for name in fonts), fonts
        # Not embedded: Helvetica (the page numbers' digits, a PDF standard font) and Type 3
        # fonts, whose glyphs are drawings inside the file (Chromium's for some symbols).
        not_embedded = {n for n, (ext, kind) in fonts.items() if ext == "n/a" and kind != "Type3"}
        assert not_embedded <= {"Helvetica"}, (edition, not_embedded)
        hangul = [(f, len(HANGUL.findall(t))) for f, t in read.spans]
        total = sum(n for _, n in hangul)
        nanum = sum(n for f, n in hangul if f.startswith("NanumGothic"))
        assert total > 10_000 and nanum == total, (edition, nanum, total)


def test_explorations_print_their_frame_and_values(books):
    explorations = count_in_html(r'<div class="rn-explore"')
    assert explorations > 0
    for edition, read in books.items():
        assert read.text.count(CAPTION) == explorations, edition


def test_answers_only_in_the_teachers_edition(books):
    exercises = count_in_html(r'<div class="rn-check"')
    assert exercises > 0
    student, teacher = squeeze(books["student"].text), squeeze(books["teacher"].text)
    assert teacher.count(squeeze(KEY_LABEL)) == exercises
    assert squeeze(KEY_LABEL) not in student
    fragments, prose = key_fragments()
    assert len(fragments) >= exercises  # a hint and a solution each, most with a Hangul phrase
    missing = [f for f in fragments if f not in teacher]
    leaked = [f for f in fragments if f in student and f not in prose]
    assert not missing, missing
    assert not leaked, leaked
