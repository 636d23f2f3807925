"""Assemble the printed pages into one book PDF: front matter, page numbers, links, outline.

Pure PyMuPDF work on the bytes ``tools/pdf_book.py`` printed with Chromium; no
browser here.  Page numbers are the PDF's own (the cover is page 1), so the
printed table of contents, the outline and a viewer's page box agree.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlparse

import pymupdf

EDITIONS = {
    "student": ("학생용", "연습 문제의 답과 풀이는 싣지 않았습니다."),
    "teacher": (
        "교사용",
        "연습 문제마다 정답, 맞다고 보는 범위(허용 오차), 힌트와 풀이를 함께 실었습니다.",
    ),
}


@dataclass
class Printed:
    """One page of the book as Chromium printed it."""

    doc: str  # docname, e.g. book/stiff/adaptive
    title: str
    part: str | None  # the _toc.yml caption of the part it opens, if it opens one
    pdf: bytes
    sections: list = field(default_factory=list)  # [(title, page within this PDF)]


def front_html(title: str, author: str, edition: str, rows: list, css_font: str) -> str:
    """Cover and table of contents; ``rows`` are (level, text, page) with level 0 a part."""
    label, note = EDITIONS[edition]
    items = []
    for level, text, page in rows:
        if level == 0:
            items.append(f'<li class="part">{html.escape(text)}</li>')
        else:
            items.append(
                f'<li><a href="https://rn.invalid/page/{page}"><span>{html.escape(text)}</span>'
                f'<span class="dots"></span><span class="no">{page}</span></a></li>'
            )
    return f"""<!doctype html><html lang="ko"><head><meta charset="utf-8"><style>
@font-face {{ font-family: "RN NanumGothic"; src: url("{css_font}"); font-weight: 400; }}
@font-face {{ font-family: "RN NanumGothic"; src: url("{css_font.replace(".ttf", "Bold.ttf")}");
  font-weight: 700; }}
@page {{ size: A4; margin: 16mm 15mm 18mm; }}
body {{ font-family: "RN NanumGothic", sans-serif; font-size: 11pt; color: #000; }}
.cover {{ height: 240mm; display: flex; flex-direction: column; justify-content: center;
  text-align: center; break-after: page; }}
.cover h1 {{ font-size: 24pt; font-weight: 700; margin: 0 0 .6em; word-break: keep-all; }}
.cover .edition {{ font-size: 16pt; font-weight: 700; margin: 1.5em 0 .4em; }}
h2 {{ font-size: 16pt; }}
ol {{ list-style: none; padding: 0; margin: 0; }}
li {{ margin: .25em 0; }}
li.part {{ font-weight: 700; margin-top: .9em; }}
li a {{ display: flex; color: inherit; text-decoration: none; padding-left: 1.2em; }}
.dots {{ flex: 1; border-bottom: 1px dotted #777; margin: 0 .4em .35em; }}
</style></head><body>
<section class="cover"><h1>{html.escape(title)}</h1><p>{html.escape(author)}</p>
<p class="edition">{label}</p><p>{html.escape(note)}</p></section>
<h2>차례</h2><ol>{"".join(items)}</ol></body></html>"""


def toc_rows(pages: list[Printed], starts: list[int]) -> list:
    rows = []
    for p, start in zip(pages, starts):
        if p.part:
            rows.append((0, p.part, start))
        rows.append((1, p.title, start))
    return rows


def start_pages(pages: list[Printed], front_pages: int) -> list[int]:
    """1-based page on which each printed page begins, after ``front_pages`` of front matter."""
    starts, at = [], front_pages + 1
    for p in pages:
        starts.append(at)
        at += pymupdf.open(stream=p.pdf).page_count
    return starts


def _retarget_links(book, html_dir: Path, first_page: dict[str, int]) -> None:
    """Links between pages of the book go to the page in this PDF; other local links go.

    Chromium writes a link to another page as a ``file://`` URL of this machine,
    useless on paper and in a shared PDF; the table of contents' placeholder
    links (``https://rn.invalid/page/N``) become jumps to page N.
    """
    root = html_dir.resolve()
    for page in book:
        for link in page.get_links():
            uri = link.get("uri") or ""
            target = None
            if uri.startswith("https://rn.invalid/page/"):
                target = int(uri.rsplit("/", 1)[1]) - 1
            elif uri.startswith("file:"):
                path = Path(unquote(urlparse(uri).path))
                if path.is_relative_to(root):
                    doc = path.relative_to(root).with_suffix("").as_posix()
                    target = first_page.get(doc)
            else:
                continue
            page.delete_link(link)
            if target is not None:
                page.insert_link({"kind": pymupdf.LINK_GOTO, "page": target, "from": link["from"]})


def _number_pages(book) -> None:
    """Page numbers at the foot of every page but the cover (Helvetica: digits only)."""
    for page in book:
        if page.number == 0:
            continue
        text = str(page.number + 1)
        width = pymupdf.get_text_length(text, fontname="helv", fontsize=9)
        x = (page.rect.width - width) / 2
        page.insert_text((x, page.rect.height - 9 * 72 / 25.4), text, fontname="helv", fontsize=9)


def assemble(front: bytes, pages: list[Printed], html_dir: Path, meta: dict) -> pymupdf.Document:
    """One document: front matter, every page in order, numbered, linked, with an outline."""
    book = pymupdf.open(stream=front)
    starts = start_pages(pages, book.page_count)
    outline = [[1, "차례", 2]]
    part_level = 1
    for p, start in zip(pages, starts):
        book.insert_pdf(pymupdf.open(stream=p.pdf))
        if p.part:
            outline.append([1, p.part, start])
            part_level = 2
        outline.append([part_level, p.title, start])
        outline += [[part_level + 1, t, start + n - 1] for t, n in p.sections]
    _retarget_links(book, html_dir, {p.doc: s - 1 for p, s in zip(pages, starts)})
    _number_pages(book)
    book.set_toc(outline)
    book.set_metadata(meta)
    return book


def sections_of(pdf: bytes) -> list:
    """The second-level headings Chromium put in a page's outline: (title, page)."""
    return [(t, n) for level, t, n in pymupdf.open(stream=pdf).get_toc() if level == 2]
