"""Print the built book to two PDFs: the student's edition and the teacher's edition.

``make pdf`` (and tests/book/test_pdf.py) run this.  Debian's ``chromium``,
driven by Playwright, opens every page of ``_build/html`` in ``_toc.yml`` order
from ``file://``, waits for its images, its fonts and MathJax's typesetting,
and prints it with the book's print stylesheet (``_static/robonum-print.css``).
Each page is loaded once and printed twice: as it is, then with the teacher's
view on (``window.rnTeacher(true)``: every exercise's key, hint and solution).
``tools/pdf_assemble.py`` then adds a cover and a table of contents with page
numbers, numbers the pages and writes ``_build/pdf/book.pdf`` and
``book-teacher.pdf``; copies go to ``_build/html/pdf/`` so that the teacher's
notes page links them inside the book folder.

Pages print in parallel in one browser (a few tabs), largest first: printing is
the slow part and a chapter's frames are decoded on their own threads.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import time
from pathlib import Path

import pymupdf
import yaml
from chromium import FLAGS, executable
from pdf_assemble import Printed, assemble, front_html, sections_of, start_pages, toc_rows

ROOT = Path(__file__).resolve().parent.parent
HTML = ROOT / "_build" / "html"
OUT = ROOT / "_build" / "pdf"
PDF_OPTIONS = {
    "format": "A4",
    "print_background": True,
    "margin": {"top": "16mm", "bottom": "18mm", "left": "15mm", "right": "15mm"},
    "outline": True,
    "tagged": False,
}
FONT = "RN NanumGothic"

# Run in the page before printing: a lazily loaded frame is fetched now, every image is
# decoded, the print font is loaded, MathJax has finished.  Returns what is missing.
READY = """async (font) => {
  document.documentElement.classList.add("rn-book-print");
  for (const img of document.images) {
    if (img.loading === "lazy") img.loading = "eager";
    if (!img.getAttribute("src") && img.dataset.src) img.src = img.dataset.src;
  }
  await Promise.all([...document.images].map((img) => img.decode().catch(() => null)));
  const broken = [...document.images].filter((img) => !img.complete || !img.naturalWidth)
    .map((img) => img.currentSrc.slice(0, 80));
  const mj = window.MathJax && window.MathJax.startup && window.MathJax.startup.promise;
  if (mj) await mj;
  const faces = await Promise.all([document.fonts.load(`400 1em "${font}"`),
                                   document.fonts.load(`700 1em "${font}"`)]);
  const h1 = document.querySelector("#jb-print-docs-body h1, article h1");
  return { broken, font: faces.every((f) => f.length > 0),
           title: h1 ? h1.textContent.replace(/#$/, "").trim() : document.title };
}"""


def toc_pages(root: Path = ROOT) -> list[tuple[str, str | None]]:
    """(docname, caption of the part it opens) in reading order, from ``_toc.yml``."""
    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    pages = [(toc["root"], None)]
    for part in toc.get("parts", []):
        for i, chapter in enumerate(part.get("chapters", [])):
            pages.append((chapter["file"], part.get("caption") if i == 0 else None))
    return pages


def book_meta(root: Path = ROOT) -> dict:
    config = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8"))
    return {"title": config["title"], "author": config["author"]}


async def _print_one(context, html_dir: Path, doc: str, part: str | None):
    """Load one page once; print it as the student's and as the teacher's edition."""
    page = await context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    await page.emulate_media(media="print")
    await page.goto((html_dir / f"{doc}.html").as_uri(), wait_until="load")
    state = await page.evaluate(READY, FONT)
    if state["broken"] or not state["font"] or errors:
        raise RuntimeError(f"{doc}: not ready to print: {state}, errors {errors}")
    student = await page.pdf(**PDF_OPTIONS)
    exercises = await page.evaluate("() => window.rnTeacher ? window.rnTeacher(true) : -1")
    if exercises < 0:
        raise RuntimeError(f"{doc}: robonum-teacher.js is not loaded (rebuild the book)")
    teacher = await page.pdf(**PDF_OPTIONS) if exercises else student
    await page.close()
    return [Printed(doc, state["title"], part, pdf, sections_of(pdf)) for pdf in (student, teacher)]


async def print_pages(html_dir: Path, pages, tabs: int) -> dict[str, list[Printed]]:
    """Every page printed in both editions, ``tabs`` at a time; doc -> [student, teacher]."""
    from playwright.async_api import async_playwright

    exe = executable()
    if exe is None:
        sys.exit("Debian's chromium is not on PATH: apt-get install chromium fonts-nanum")
    size = {doc: (html_dir / f"{doc}.html").stat().st_size for doc, _ in pages}
    queue = sorted(pages, key=lambda dp: -size[dp[0]])
    done: dict[str, list[Printed]] = {}
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=exe, args=FLAGS)
        context = await browser.new_context()

        async def worker():
            while queue:
                doc, part = queue.pop(0)
                done[doc] = await _print_one(context, html_dir, doc, part)

        await asyncio.gather(*(worker() for _ in range(tabs)))
        front = await _fronts(context, html_dir, pages, done)
        await browser.close()
    done["__front__"] = front
    return done


async def _front(context, html_dir: Path, printed: list[Printed], edition: str) -> bytes:
    """Cover and contents, printed again until its own length stops moving the numbers."""
    meta = book_meta()
    font = (html_dir / "_static" / "fonts" / "NanumGothic.ttf").as_uri()
    path = OUT / f"front-{edition}.html"
    page = await context.new_page()
    length = 2
    for _ in range(4):
        rows = toc_rows(printed, start_pages(printed, length))
        path.write_text(
            front_html(meta["title"], meta["author"], edition, rows, font), encoding="utf-8"
        )
        await page.goto(path.as_uri(), wait_until="load")
        await page.evaluate("() => document.fonts.ready")
        pdf = await page.pdf(**{**PDF_OPTIONS, "outline": False})
        if pymupdf.open(stream=pdf).page_count == length:
            break
        length = pymupdf.open(stream=pdf).page_count
    await page.close()
    path.unlink()
    return pdf


async def _fronts(context, html_dir, pages, done) -> dict[str, bytes]:
    OUT.mkdir(parents=True, exist_ok=True)
    return {
        edition: await _front(context, html_dir, [done[d][i] for d, _ in pages], edition)
        for i, edition in enumerate(("student", "teacher"))
    }


def build(html_dir: Path = HTML, out: Path = OUT, tabs: int = 2) -> dict[str, Path]:
    """Print both editions; returns edition -> path of its PDF."""
    if not (html_dir / "index.html").exists():
        sys.exit(f"no built book in {html_dir}: run `make book` first")
    pages = toc_pages()
    done = asyncio.run(print_pages(html_dir, pages, tabs))
    meta = book_meta()
    paths = {}
    for i, (edition, name) in enumerate((("student", "book.pdf"), ("teacher", "book-teacher.pdf"))):
        printed = [done[doc][i] for doc, _ in pages]
        subject = "학생용" if edition == "student" else "교사용 (정답과 풀이 포함)"
        book = assemble(done["__front__"][edition], printed, html_dir, {**meta, "subject": subject})
        out.mkdir(parents=True, exist_ok=True)
        book.save(out / name, garbage=3, deflate=True)
        (html_dir / "pdf").mkdir(exist_ok=True)
        shutil.copyfile(out / name, html_dir / "pdf" / name)
        paths[edition] = out / name
    return paths


def up_to_date(html_dir: Path = HTML, out: Path = OUT) -> bool:
    """Both PDFs exist and are newer than every file they are printed from."""
    pdfs = [out / "book.pdf", out / "book-teacher.pdf"]
    if not all(p.exists() for p in pdfs):
        return False
    sources = [html_dir / f"{doc}.html" for doc, _ in toc_pages()]
    sources += [p for p in (html_dir / "_static").rglob("*") if p.suffix in (".css", ".js", ".ttf")]
    sources += [ROOT / "tools" / "pdf_book.py", ROOT / "tools" / "pdf_assemble.py"]
    sources += [ROOT / "_toc.yml", ROOT / "_config.yml"]
    newest = max(p.stat().st_mtime for p in sources if p.exists())
    return min(p.stat().st_mtime for p in pdfs) > newest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tabs", type=int, default=int(os.environ.get("ROBONUM_PDF_TABS", 2)))
    parser.add_argument(
        "--if-stale", action="store_true", help="print only if the build changed since the PDFs"
    )
    args = parser.parse_args()
    if args.if_stale and up_to_date():
        print("PDFs are up to date with the built book: not printed again")
        return
    tic = time.perf_counter()
    for edition, path in build(tabs=args.tabs).items():
        print(f"{edition}: {path.relative_to(ROOT)} ({path.stat().st_size / 1e6:.1f} MB)")
    print(f"printed in {time.perf_counter() - tic:.1f} s")


if __name__ == "__main__":
    main()
