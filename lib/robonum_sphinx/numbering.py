"""Numbered figures and tables, per chapter, by the toolchain (Sphinx ``numfig``).

The book's chapters are numbered by hand in their titles ("# 11. 적응 간격 ..."),
because the parts of ``_toc.yml`` are unnumbered.  Sphinx would number every
figure and table through the whole book (그림 1 ... 그림 27).  Here:

* a notebook's result table (``rn.book.Table(..., name="tab-...")``, raw HTML
  in a cell output) becomes an enumerable node of type ``table`` whose id is its
  name, and a code cell whose metadata holds ``rn_figure: {name, caption}`` has
  its plot wrapped in a real ``figure`` node with that caption (the image's alt
  text, :mod:`.figure_alt`) -- both before Sphinx's domains collect labels, so
  ``{numref}`name``` and ``{ref}`name``` resolve as for any figure;
* after Sphinx has numbered them, each page's numbers are re-counted per
  chapter in page order: (11, 1), (11, 2) ... -> "표 11.1", "그림 11.1";
* when a page is written, each table's number goes into its caption, and the
  references that cell outputs hold (``<a class="rn-ref">`` from
  :func:`robonum.book.markup.inline_html`, or the literal ``{numref}`name```
  inside an exploration's message) become the number, as in the prose.

A reference to a name that does not exist is a build warning (the book builds
with ``-W``); ``tests/book/test_numbering.py`` checks the same on the sources.
"""

from __future__ import annotations

import html
import re

from docutils import nodes
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

__all__ = ["chapter_number", "per_chapter", "setup_numbering"]

logger = logging.getLogger(__name__)
TABLE_NAME = re.compile(r'<div class="rn-table-wrap" data-rn-name="([^"]+)"')
CAPTION = re.compile(r"(<caption[^>]*>)")
REF_LINK = re.compile(r'<a class="rn-ref" data-rn-ref="([^"]+)" href="[^"]*">[^<]*</a>')
REF_TOKEN = re.compile(r"\{numref\}`([a-z0-9][a-z0-9-]*)`")
CHAPTER = re.compile(r"\s*(\d+)\.\s")
FIGURE_KEY = "rn_figure"  # a code cell's metadata: {"name": "fig-...", "caption": "..."}
FIGURE_NAME = re.compile(r"fig-[a-z0-9]+(?:-[a-z0-9]+)*\Z")
_MATH = re.compile(r"(?<!\\)\$(.+?)(?<!\\)\$")


class rn_numbered_table(nodes.General, nodes.Element):  # noqa: N801 (docutils node name)
    """A cell output's HTML table with a name: numbered as a table, the target of its name."""


def _visit_table(self, node):
    self.body.append(self.starttag(node, "div", CLASS="rn-numbered-table"))


def _depart_table(self, node):
    self.body.append("</div>")


def _skip(self, node):
    pass


def _table_title(node) -> str:
    return node.get("rn_caption", "")


def _caption_node(text: str) -> nodes.caption:
    """A figure caption from the book's inline markup: text and ``$...$`` math."""
    caption = nodes.caption(text)
    pos = 0
    for m in _MATH.finditer(text):
        caption += nodes.Text(text[pos : m.start()])
        caption += nodes.math(m.group(0), m.group(1))
        pos = m.end()
    caption += nodes.Text(text[pos:])
    return caption


def _mime_bundles(cell):
    return [n for n in cell.findall(nodes.container) if n.get("nb_element") == "mime_bundle"]


def _has_image(bundle) -> bool:
    return any(isinstance(n, nodes.image) for n in bundle.findall(nodes.image))


class NameOutputs(SphinxTransform):
    """Named tables and figures of cell outputs as enumerable nodes (see module doc)."""

    default_priority = 840  # before SphinxDomains (850), which collects the labels

    def apply(self, **kwargs) -> None:
        for bundle in list(self.document.findall(nodes.container)):
            if bundle.get("nb_element") != "mime_bundle":
                continue
            m = next((TABLE_NAME.search(r.astext()) for r in bundle.findall(nodes.raw)), None)
            if m:
                self._wrap_table(bundle, m.group(1))
        for cell in list(self.document.findall(nodes.container)):
            spec = (cell.get("cell_metadata") or {}).get(FIGURE_KEY)
            if cell.get("nb_element") == "cell_code" and spec:
                self._wrap_figure(cell, spec)

    def _name(self, node, name: str) -> None:
        node["ids"].append(name)
        node["names"].append(name)
        self.document.note_explicit_target(node, node)

    def _wrap_table(self, bundle, name: str) -> None:
        raw = next(r for r in bundle.findall(nodes.raw) if TABLE_NAME.search(r.astext()))
        m = re.search(r"<caption[^>]*>(.*?)</caption>", raw.astext(), re.S)
        title = html.unescape(re.sub(r"<[^>]+>", "", m.group(1))) if m else name
        node = rn_numbered_table(rn_caption=title)
        bundle.replace_self(node)
        node += bundle
        self._name(node, name)

    def _wrap_figure(self, cell, spec) -> None:
        name, text = spec.get("name", ""), spec.get("caption", "")
        bundles = [b for b in _mime_bundles(cell) if _has_image(b)]
        if not FIGURE_NAME.match(name) or not text or len(bundles) != 1:
            logger.warning(
                "%s needs a name 'fig-...' and a caption, on a cell with one plot "
                "(got name %r, %d plots)",
                FIGURE_KEY,
                name,
                len(bundles),
                location=cell,
                type="robonum",
                subtype="figure",
            )
            return
        figure = nodes.figure()
        bundles[0].replace_self(figure)
        figure += bundles[0]
        figure += _caption_node(text)
        self._name(figure, name)


def chapter_number(title: str) -> int | None:
    """The chapter number a page's title starts with ("11. 적응 간격" -> 11), else None."""
    m = CHAPTER.match(title)
    return int(m.group(1)) if m else None


def per_chapter(fignumbers: dict, chapters: dict) -> dict:
    """Sphinx's book-wide numbers re-counted per page, prefixed by the page's chapter.

    ``fignumbers``: docname -> figtype -> id -> (n,) as Sphinx assigned them in
    book order; ``chapters``: docname -> chapter number or None.  Page order is
    kept (Sphinx counts in document order); a page without a chapter number
    counts from 1 without a prefix.
    """
    out = {}
    for doc, types in fignumbers.items():
        prefix = () if chapters.get(doc) is None else (chapters[doc],)
        out[doc] = {
            figtype: {
                fid: prefix + (k,)
                for k, fid in enumerate(sorted(ids, key=lambda i: tuple(ids[i])), 1)
            }
            for figtype, ids in types.items()
        }
    return out


# Sphinx's TocTreeCollector recomputes env.toc_fignumbers on every build and asks
# to rewrite the pages whose numbers changed.  We hand it back its own numbers of
# the last build before it runs (so it compares like with like), then replace them
# by the per-chapter ones and ask to rewrite the pages whose per-chapter numbers moved.
def _restore_book_numbers(app, env):
    env.rn_chapter_fignumbers = getattr(env, "toc_fignumbers", {})
    if hasattr(env, "rn_book_fignumbers"):
        env.toc_fignumbers = env.rn_book_fignumbers
    return []


def _number_per_chapter(app, env):
    env.rn_book_fignumbers = env.toc_fignumbers
    chapters = {d: chapter_number(t.astext()) for d, t in env.titles.items()}
    env.toc_fignumbers = per_chapter(env.toc_fignumbers, chapters)
    old = env.rn_chapter_fignumbers
    return sorted(d for d in env.toc_fignumbers if env.toc_fignumbers[d] != old.get(d))


class ResolveOutputRefs(SphinxPostTransform):
    """Numbers into the tables' captions and into the references cell outputs hold."""

    default_priority = 5  # right after myst-nb picks each output's MIME type (4)

    def run(self, **kwargs) -> None:
        numbers = self.env.toc_fignumbers.get(self.env.docname, {})
        for table in self.document.findall(rn_numbered_table):
            number = numbers.get("table", {}).get(table["ids"][0])
            if number:
                label = self.config.numfig_format["table"] % ".".join(map(str, number))
                span = f'<span class="caption-number">{html.escape(label)} </span>'
                self._edit(table, lambda t, s=span: CAPTION.sub(lambda m: m.group(1) + s, t, 1))
        self._edit(self.document, self._resolve)

    def _edit(self, root, change) -> None:
        for raw in list(root.findall(nodes.raw)):
            text = raw.astext()
            new = change(text)
            if new != text:
                raw.replace_self(nodes.raw("", new, format=raw.get("format", "html")))

    def _target(self, name: str):
        """(uri, label) of ``name``'s figure or table, or None with a warning."""
        std = self.env.domains["std"]
        docname, labelid = std.anonlabels.get(name, (None, None))
        nums = self.env.toc_fignumbers.get(docname, {}) if docname else {}
        figtype = next((t for t, ids in nums.items() if labelid in ids), None)
        if figtype is None:
            logger.warning(
                "{numref}`%s` in a cell output names no numbered table or figure",
                name,
                location=(self.env.docname, None),
                type="robonum",
                subtype="numref",
            )
            return None
        label = self.config.numfig_format[figtype] % ".".join(map(str, nums[figtype][labelid]))
        uri = self.app.builder.get_relative_uri(self.env.docname, docname) + "#" + labelid
        if docname == self.env.docname:
            uri = "#" + labelid
        return uri, label

    def _resolve(self, text: str) -> str:
        def link(m):
            target = self._target(m.group(1))
            if target is None:
                return m.group(0)
            uri, label = target
            return f'<a class="reference internal" href="{uri}">{html.escape(label)}</a>'

        def plain(m):  # inside a message or an attribute: the words only
            target = self._target(m.group(1))
            return m.group(0) if target is None else target[1]

        return REF_TOKEN.sub(plain, REF_LINK.sub(link, text))


def setup_numbering(app) -> None:
    """Register the numbered outputs, per-chapter numbers and output references."""
    app.add_enumerable_node(
        rn_numbered_table,
        "table",
        _table_title,
        html=(_visit_table, _depart_table),
        latex=(_skip, _skip),
        text=(_skip, _skip),
    )
    app.add_transform(NameOutputs)
    app.connect("env-get-updated", _restore_book_numbers, priority=400)
    app.connect("env-get-updated", _number_per_chapter, priority=600)
    app.add_post_transform(ResolveOutputRefs)
