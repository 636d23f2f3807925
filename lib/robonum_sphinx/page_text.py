"""The readable text of a built page, for search result snippets.

Sphinx's search page fetches every result page to cut a snippet from it.
That fails from ``file://`` (browsers block the fetch) and shows formulas
as raw LaTeX, because MathJax never runs on fetched text.  We extract each
page's article once, at build time: sections keep their ids (Sphinx looks a
title hit up by its anchor), formulas become Unicode text, and everything a
reader cannot read (scripts, styles, images, header links, buttons) is
dropped, and so is source code (a snippet should read like the book; the
search index still covers code, so a hit only in code shows the page's start).
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

from .latex_text import to_text

__all__ = ["article_text"]

_VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}
_SKIP = {"script", "style", "button", "svg", "noscript", "template", "select", "textarea"}
_BLOCK = {
    "p",
    "div",
    "section",
    "li",
    "ul",
    "ol",
    "dl",
    "dt",
    "dd",
    "table",
    "tr",
    "td",
    "th",
    "pre",
    "blockquote",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "figure",
    "figcaption",
    "details",
    "summary",
    "article",
    "aside",
    "br",
    "hr",
    "label",
    "output",
}


class _Extractor(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.depth = 0  # depth inside the article (0: not inside)
        self.skip_depth = 0  # depth inside something we drop
        self.math_depth = 0  # depth inside a MathJax source span/div
        self.math_buf: list[str] = []
        self.stack: list[str] = []

    def _is_article(self, tag, attrs):
        cls = (attrs.get("class") or "").split()
        return tag == "article" and "bd-article" in cls

    def handle_starttag(self, tag, attrs_list):
        attrs = {k: (v or "") for k, v in attrs_list}
        if self.depth == 0:
            if self._is_article(tag, attrs):
                self.depth = 1
                self.stack = [tag]
            return
        if tag in _VOID:
            if tag in ("br", "hr") and not self.skip_depth:
                self.out.append(" ")
            return
        self.stack.append(tag)
        if self.skip_depth:
            self.skip_depth += 1
            return
        if self.math_depth:
            self.math_depth += 1
            return
        cls = attrs.get("class", "").split()
        code = "cell_input" in cls or (
            any(c.startswith("highlight-") for c in cls) and "output" not in cls
        )
        if (
            tag in _SKIP
            or code
            or "headerlink" in cls
            or "toggle-details__summary" in cls
            or "rn-data" in cls
            or "visually-hidden" in cls  # a11y.py's spoken copy of a formula the snippet has
        ):
            self.skip_depth = 1
            return
        if "math" in cls:
            self.math_depth = 1
            self.math_buf = []
            if tag == "div":
                self.out.append(" ")
            return
        if tag == "section":
            ident = attrs.get("id", "")
            self.out.append(
                f'<section id="{html.escape(ident, quote=True)}">' if ident else "<section>"
            )
        elif tag in _BLOCK:
            self.out.append(" ")

    def handle_endtag(self, tag):
        if self.depth == 0 or tag in _VOID:
            return
        # Pop up to the matching tag (tolerates unclosed <p> and the like).
        while self.stack:
            top = self.stack.pop()
            if self.skip_depth:
                self.skip_depth -= 1
            elif self.math_depth:
                self.math_depth -= 1
                if self.math_depth == 0:
                    self.out.append(html.escape(to_text("".join(self.math_buf)), quote=False))
                    self.out.append(" " if top == "div" else "")
            elif top == "section":
                self.out.append("</section>")
            elif top in _BLOCK:
                self.out.append(" ")
            if top == tag:
                break
        if not self.stack:
            self.depth = 0

    def handle_data(self, data):
        if self.depth == 0 or self.skip_depth:
            return
        if self.math_depth:
            self.math_buf.append(data)
        else:
            self.out.append(html.escape(data, quote=False))


def article_text(page_html: str) -> str:
    """The article of a built page as minimal HTML: ``<section id>`` and plain text only."""
    parser = _Extractor()
    parser.feed(page_html)
    parser.close()
    text = "".join(parser.out)
    text = re.sub(r"\s*(</?section[^>]*>)\s*", r" \1 ", text)  # a heading never runs into text
    text = re.sub(r"\s+", " ", text)
    return text.strip()
