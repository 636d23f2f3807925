"""One form for every correction of the printed chapters.

An entry on the errata page is written as::

    :::{rn-erratum} 2단계 SDIRK의 차수
    :name: erratum-sdirk-order
    :printed: 7.50 §7.3
    :kind: 오류
    :claim: “…2단계 3차 SDIRK 방법이 L-안정하게 된다.”
    :book: 이 $\\gamma$의 방법은 L-안정하지만 **2차**입니다.
    :evidence: err-7-50-7-3
    :page: book/integrators/stability_stiffness
    :::

and renders as a subsection titled "7.50 §7.3 — 2단계 SDIRK의 차수" with three
rows: 인쇄판 (the printed claim, quoted briefly), 이 책 (what the book
computes instead) and 근거 (a link to where the page computes it).

``:evidence:`` names the MyST label ``(err-…)=`` placed in the chapter on its
"인쇄판과 다른 점" box.  Until the chapter has that label the link falls back
to ``:page:`` (a docname, optionally ``#anchor``), so an entry can be written
before its evidence exists; the fallback link has the class
``rn-evidence-pending`` so a test can list what is still missing.
"""

from __future__ import annotations

import re

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

from .latex_text import to_text

logger = logging.getLogger(__name__)

__all__ = ["Erratum", "KINDS", "ResolveEvidence"]

# kind -> (label shown to readers, CSS class)
KINDS = {
    "오류": ("오류", "error"),  # the printed claim is wrong
    "부정확": ("부정확", "imprecise"),  # right in spirit, wrong in the number
    "규약": ("규약 차이", "convention"),  # both right, different conventions
    "용어": ("용어", "naming"),  # one name for two things, or two for one
    # true only under a condition the printed text leaves unsaid
    "조건부": ("조건부", "conditional"),
    # the printed value is reproduced; the entry says what it is not (a constant, a rule)
    "재현": ("재현", "reproduced"),
}
_PRINTED = re.compile(r"^\d+\.\d+\b")


class Erratum(Directive):
    required_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = {
        "name": directives.unchanged_required,
        "printed": directives.unchanged_required,
        "kind": lambda arg: directives.choice(arg, tuple(KINDS)),
        "claim": directives.unchanged_required,
        "book": directives.unchanged_required,
        "evidence": directives.unchanged,
        "page": directives.unchanged,
    }

    def run(self):
        env = self.state.document.settings.env
        from . import note_reread

        note_reread(env)
        opts = self.options
        for key in ("printed", "kind", "claim", "book"):
            if not opts.get(key):
                raise self.error(f"rn-erratum: the option :{key}: is required")
        if not (opts.get("evidence") or opts.get("page")):
            raise self.error("rn-erratum: give :evidence: (a label in the chapter) and/or :page:")
        if not _PRINTED.match(opts["printed"]):
            raise self.error(
                f"rn-erratum: :printed: should start with the chapter number "
                f"(e.g. '7.50 §7.3'), got {opts['printed']!r}"
            )
        label, css = KINDS[opts["kind"]]
        title_text = f"{opts['printed']} — {self.arguments[0]}"
        section = nodes.section(classes=["rn-erratum", f"rn-erratum-{css}"])
        name = opts.get("name") or nodes.fully_normalize_name("erratum " + opts["printed"])
        section["names"].append(nodes.fully_normalize_name(name))
        section["ids"].append(nodes.make_id(name) or f"erratum-{env.new_serialno('erratum')}")
        self.state.document.note_explicit_target(section, section)
        heading, messages = self.state.inline_text(title_text, self.lineno)
        section += nodes.title(title_text, "", *heading)
        section += messages
        badge = nodes.paragraph(classes=["rn-erratum-kind"])
        badge += nodes.inline(text=label, classes=["rn-kind", f"rn-kind-{css}"])
        section += badge

        rows = nodes.field_list(classes=["rn-erratum-fields"])
        for field, text in (("인쇄판", opts["claim"]), ("이 책", opts["book"])):
            body, messages = self.state.inline_text(text, self.lineno)
            rows += _field(field, nodes.paragraph("", "", *body), *messages)
        rows += _field("근거", nodes.paragraph("", "", self._evidence_link(env)))
        section += rows
        if self.content:
            extra = nodes.container(classes=["rn-erratum-note"])
            self.state.nested_parse(self.content, self.content_offset, extra)
            section += extra
        return [section]

    def _evidence_link(self, env):
        evidence, page = self.options.get("evidence"), self.options.get("page") or ""
        ref = addnodes.pending_xref(
            "",
            nodes.inline(text=evidence or page),
            refdomain="std",
            reftype="ref",
            reftarget=(evidence or "").lower(),
            refexplicit=True,
            refdoc=env.docname,
        )
        ref["rn_evidence"] = True
        ref["rn_fallback"] = page
        return ref


def _field(name, *body):
    field = nodes.field()
    field += nodes.field_name(text=name)
    field += nodes.field_body("", *body)
    return field


def _plain(node) -> str:
    """A title as reader text: formulas as Unicode, not LaTeX."""
    parts = []
    for child in node.findall(lambda n: isinstance(n, (nodes.Text, nodes.math))):
        if isinstance(child, nodes.math):
            parts.append(to_text(child.astext()))
        elif not isinstance(child.parent, nodes.math):
            parts.append(child.astext())
    return "".join(parts).strip()


class ResolveEvidence(SphinxPostTransform):
    """Turn each entry's evidence link into a link to the chapter's labelled box.

    The label (``(err-7-50-7-3)=``) sits on an admonition, which Sphinx keeps as
    an anonymous label (no title), so the link text is made here: the chapter's
    title and the box's title.  A label that does not exist yet links to
    ``:page:`` instead, with the class ``rn-evidence-pending``.
    """

    default_priority = 5  # before Sphinx's own ReferencesResolver (10)

    def run(self, **kwargs):
        env, builder = self.env, self.app.builder
        std = env.get_domain("std")
        for node in list(self.document.findall(addnodes.pending_xref)):
            if not node.get("rn_evidence"):
                continue
            label = node["reftarget"]
            found = std.anonlabels.get(label) if label else None
            if found and found[0]:
                doc, anchor = found
                classes = ["rn-evidence"]
            else:
                doc, _, anchor = node["rn_fallback"].partition("#")
                classes = ["rn-evidence-pending" if label else "rn-evidence-page"]
            if doc not in env.all_docs:
                logger.warning(
                    "rn-erratum: no label %r and no page %r",
                    label,
                    node["rn_fallback"],
                    location=node,
                )
                node.replace_self(nodes.inline(text=label or doc))
                continue
            try:
                uri = builder.get_relative_uri(node["refdoc"], doc)
            except Exception:  # noqa: BLE001 - builders without URIs (text, latex, ...)
                node.replace_self(nodes.inline(text=label or doc))
                continue
            if anchor:
                uri += "#" + anchor
            text = env.titles[doc].astext() if doc in env.titles else doc
            if found:
                box = _titled_target(env, doc, anchor)
                if box:
                    text = f"{text} — {box}"
            ref = nodes.reference("", "", internal=True, refuri=uri, classes=classes)
            ref += nodes.inline(text=text)
            node.replace_self(ref)


def _titled_target(env, docname: str, anchor: str) -> str:
    """The title of the admonition (or section) with id ``anchor`` in ``docname``, if any."""
    try:
        doctree = env.get_doctree(docname)
    except Exception:  # noqa: BLE001
        return ""
    for node in doctree.findall(nodes.Element):
        if anchor in node.get("ids", ()):
            title = next(iter(node.findall(nodes.title)), None)
            return _plain(title) if title is not None else ""
    return ""
