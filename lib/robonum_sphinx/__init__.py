"""robonum_sphinx: the book's own Sphinx extension.

* Korean search (:mod:`.korean_search`): Hangul is indexed and queried by
  two-syllable pieces, so 강성 finds 강성을, 강성입니다, 강성이 ...; the
  glossary's synonyms are searched as its terms (자코비안 finds 야코비안).
* Search snippets offline (:mod:`.page_text`): every page's readable text
  (formulas as Unicode) ships in ``_static/robonum-search.js``, loaded by
  the search page only; snippets then work from ``file://`` too.
* The glossary table (``rn-glossary``, :mod:`.glossary`) generated from
  ``book/appendix/glossary.yml``, and the check for retired terms.
* Errata entries in one form (``rn-erratum``, :mod:`.errata`).
* Every image gets alt text: its caption, or the titles, axis labels and
  legend a notebook's figure stores in its PNG (:mod:`.figure_alt`).
* Numbered tables and figures per chapter ("표 11.4", "그림 1.2") by the toolchain,
  and references to them from prose and cell outputs (:mod:`.numbering`).
* Exploration frames as files loaded on demand, skip links to the
  explorations, a focus ring on their controls (:mod:`.frames`).
* Accessibility fixes of the theme's markup: Korean control names, landmarks,
  formulas as the only label (:mod:`.a11y`).
* The front page's browser title is not doubled (``templates/layout.html``).

List it in ``_config.yml`` under ``sphinx.config.extensions`` (Jupyter Book
drops ``local_extensions`` when that list is given).
"""

from __future__ import annotations

import json
from pathlib import Path

from .a11y import setup_a11y
from .errata import Erratum, ResolveEvidence
from .figure_alt import set_alt_text
from .frames import copy_assets as _copy_explore_assets
from .frames import page_context as _explore_frames
from .glossary import _directive as _glossary_directive
from .glossary import load as _load_glossary
from .korean_search import SearchKorean, js_splitter, no_results_js, synonym_rules
from .numbering import setup_numbering
from .page_text import article_text
from .print_edition import setup_print
from .webp_images import plots_as_webp

__version__ = "0.1.0"

HERE = Path(__file__).resolve().parent
SEARCH_JS = "robonum-search.js"


def _add_templates(app, config):
    path = str(HERE / "templates")
    if path not in config.templates_path:
        config.templates_path.insert(0, path)


def _page_context(app, pagename, templatename, context, doctree):
    if pagename == "search":
        app.add_js_file(SEARCH_JS)


def search_pages(app) -> dict[str, str]:
    """docname -> readable article text (minimal HTML) of every built page."""
    pages = {}
    for docname in sorted(app.env.found_docs):
        path = Path(app.builder.get_outfilename(docname))
        if path.exists():
            pages[docname] = article_text(path.read_text(encoding="utf-8"))
    return pages


def _write_search_text(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    data = json.dumps(search_pages(app), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    data = data.replace("</", "<\\/")
    shim = (HERE / "static" / "search-pages.js").read_text(encoding="utf-8")
    target = Path(app.outdir) / "_static" / SEARCH_JS
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(
        f"window.RN_SEARCH_PAGES = {data};\n{no_results_js()}{shim}", encoding="utf-8"
    )


def _search_synonyms(app):
    """Build the browser's query splitter with the glossary's synonyms (language_data.js)."""
    path = Path(app.srcdir) / app.config.rn_glossary
    rules = synonym_rules(_load_glossary(path)) if path.exists() else []
    SearchKorean.js_splitter_code = js_splitter(rules)


# The errata and glossary pages show other pages' titles and labels, which
# Sphinx does not track as dependencies: re-read them on every build (both small).
def note_reread(env) -> None:
    if not hasattr(env, "rn_reread"):
        env.rn_reread = set()
    env.rn_reread.add(env.docname)


def _reread(app, env, added, changed, removed):
    return sorted(
        d for d in getattr(env, "rn_reread", ()) if d in env.found_docs and d not in removed
    )


def _purge(app, env, docname):
    getattr(env, "rn_reread", set()).discard(docname)


def _merge(app, env, docnames, other):
    if not hasattr(env, "rn_reread"):
        env.rn_reread = set()
    env.rn_reread |= getattr(other, "rn_reread", set()) & set(docnames)


def _drop_widget_state(app, doctree):
    """Remove the ipywidgets state myst-nb embeds in every page head (150+ KB per chapter).

    The built page never loads widget JavaScript (``nb_ipywidgets_js: {}``):
    its explorations and exercises are self-contained HTML, so the state
    nbclient recorded during execution is dead weight.
    """
    meta = getattr(app.env, "nb_metadata", {}).get(app.env.docname, {})
    meta.get("js_files", {}).pop("ipywidgets_state", None)


def setup(app):
    app.connect("doctree-read", _drop_widget_state)
    app.connect("doctree-read", set_alt_text)
    app.connect("doctree-read", plots_as_webp)  # after set_alt_text: it reads the PNG's text
    app.add_search_language(SearchKorean)
    app.add_config_value("rn_glossary", "book/appendix/glossary.yml", "html")
    app.connect("builder-inited", _search_synonyms)
    app.add_directive("rn-glossary", _glossary_directive())
    app.add_directive("rn-erratum", Erratum)
    app.connect("config-inited", _add_templates)
    app.connect("html-page-context", _page_context)
    app.connect("html-page-context", _explore_frames)  # frames as files, skip links
    app.connect("build-finished", _copy_explore_assets)
    app.add_post_transform(ResolveEvidence)
    app.connect("env-get-outdated", _reread)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("build-finished", _write_search_text)
    setup_print(app)  # the printed book: Korean font, teacher's view
    setup_a11y(app)  # Korean control names, landmarks, math-only labels (a11y.py)
    setup_numbering(app)  # tables and figures numbered per chapter (numbering.py)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
