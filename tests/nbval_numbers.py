"""nbval compares what the reader sees, at the precision the reader sees it.

nbval compares each stored output of a notebook with a fresh run, string for
string.  That is right for text, and wrong for numbers that pass through a
tolerance-controlled algorithm: there the last bits of rounding (another
BLAS kernel, another CPU) change which Newton iterate or which step is
accepted, and a result moves by 1e-9 ... 1e-7 relative, or more (measured
between OpenBLAS's Haswell and SkylakeX kernels).  This plugin lets a fresh
output count as equal to its reference where, and only where, the two agree
as the page shows them:

* a glued number (``robonum.book.glue``) agrees when it is within half a unit
  of the last digit of the finest format the page's text applies to it
  (``{glue:text}`key:.3g``` -> 3 significant digits), or within the
  ``Tol`` stored with it.  A key the page never shows is not compared; one
  shown as its repr (no format) is compared as stored (12 digits);
* a number in a table cell that carries a band (``data-rn-tol``, from
  ``Table(..., tol=...)``) agrees within that band; the cell's other text
  must be identical;
* an exercise's answer key (``data-answer``) agrees within a thousandth of
  the tolerance the exercise grants the reader;
* everything else -- printed numbers, messages, integers, strings -- must be
  identical, as before.

Whatever does not agree is left to nbval, which reports the difference.
Loaded for every pytest run of this repository by the root ``conftest.py``.
"""

from __future__ import annotations

import ast
import copy
import re

from nbval.plugin import IPyNbCell

from robonum.book.tol import GLUE_METADATA, HTML_ATTRIBUTE, Tol

GLUE_MIME = "application/papermill.record/text/plain"

# {glue}`key`, {glue:}`key`, {glue:any}`key`, {glue:text}`key:.3g`; ```{glue:figure} key
_ROLE = re.compile(r"\{glue(?::(\w*))?\}`([^`]+)`")
_DIRECTIVE = re.compile(r"^[`:]{3,}\{glue(?::\w*)?\}\s+(\S+)", re.M)
# [[fill]align][sign][z][#][0][width][grouping][.precision][type]
_SPEC = re.compile(r"(?:.?[<>=^])?[-+ ]?z?#?0?\d*[,_]?(?:\.(\d+))?([eEfFgG%]?)\Z")
_NUMBER = re.compile(r"[-+\u2212]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_CELL = re.compile(r"(<td\b[^>]*\b" + HTML_ATTRIBUTE + r'="([^"]*)"[^>]*>)(.*?)(</td>)', re.S)
_EXERCISE = re.compile(r'<div class="rn-check"[^>]*>')
_TAG = re.compile(r"(<[^>]*>)")


def glue_formats(markdown: str) -> dict[str, list[str]]:
    """Every glue key the text shows, with the format spec of each use ('' = shown as stored)."""
    shown: dict[str, list[str]] = {}
    for role, body in _ROLE.findall(markdown):
        key, _, spec = body.partition(":")
        shown.setdefault(key.strip(), []).append(spec.strip() if role == "text" else "")
    for key in _DIRECTIVE.findall(markdown):
        shown.setdefault(key, []).append("")
    return shown


def _exponent(x: float, digits: int) -> int:
    """Decimal exponent of ``x`` rounded to ``digits`` significant digits."""
    return int(format(x, f".{digits - 1}e").split("e")[1]) if x != 0 else 0


def printed_unit(x: float, spec: str) -> float:
    """Unit in the last place of ``format(x, spec)``; 0.0 when the spec prints the stored text.

    >>> printed_unit(11.7549, ".2f"), printed_unit(3.98e-6, ".2e"), printed_unit(2785.3, ".3g")
    (0.01, 1e-08, 10.0)
    """
    m = _SPEC.match(spec)
    if not spec or m is None:
        return 0.0
    precision, kind = m.groups()
    if not kind and precision is None:  # e.g. '>8': str(x), the stored text
        return 0.0
    p = 6 if precision is None else int(precision)
    if kind in ("f", "F"):
        return 10.0**-p
    if kind == "%":
        return 10.0**-p / 100
    if kind in ("e", "E"):
        return 10.0 ** (_exponent(x, p + 1) - p)
    p = max(p, 1)  # g, G, or a precision alone
    return 10.0 ** (_exponent(x, p) - p + 1)


def _number(text: str):
    """The glued value a ``text/plain`` repr holds, if it is a real number (not bool)."""
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value


def glue_agrees(ref: str, test: str, formats: list[str] | None, band: Tol | None) -> bool:
    """A glued value ``test`` agrees with its stored ``ref`` (see the module docstring)."""
    a, b = _number(ref), _number(test)
    if a is None or b is None:
        return ref == test
    if formats is None:  # never shown in the page
        return True
    if band is not None and band.allows(a, b):
        return True
    half = 0.5 * min(printed_unit(float(a), spec) for spec in formats)
    return abs(a - b) <= half


def _float(text: str) -> float:
    return float(text.replace("\u2212", "-"))


def _cut(html: str) -> tuple[str, list[tuple[str, Tol | None]]]:
    """``html`` with each number that may move replaced by a mark, and those numbers with their bands."""
    numbers: list[tuple[str, Tol | None]] = []

    def mark(text, band):
        numbers.append((text, band))
        return "\x00"

    def cell(m):
        band = Tol.from_attribute(m.group(2))
        inner = "".join(
            part if part.startswith("<") else _NUMBER.sub(lambda n: mark(n.group(0), band), part)
            for part in _TAG.split(m.group(3))
        )
        return m.group(1) + inner + m.group(4)

    def exercise(m):
        tag = m.group(0)
        attrs = dict(re.findall(r'(data-answer|data-rtol|data-atol)="([^"]*)"', tag))
        if "data-answer" not in attrs:
            return tag
        answer = _float(attrs["data-answer"])
        width = max(
            float(attrs.get("data-atol", 0)), float(attrs.get("data-rtol", 0)) * abs(answer)
        )
        band = (
            Tol(atol=1e-3 * width, why="a thousandth of the band the exercise accepts")
            if width
            else None
        )
        return tag.replace(
            f'data-answer="{attrs["data-answer"]}"',
            f'data-answer="{mark(attrs["data-answer"], band)}"',
        )

    return _EXERCISE.sub(exercise, _CELL.sub(cell, html)), numbers


def html_agrees(ref: str, test: str) -> bool:
    """Two HTML outputs agree: identical but for numbers in marked places, each within its band."""
    (ref_text, ref_numbers), (test_text, test_numbers) = _cut(ref), _cut(test)
    if ref_text != test_text or len(ref_numbers) != len(test_numbers):
        return False
    for (a, band), (b, _) in zip(ref_numbers, test_numbers):
        if a != b and (band is None or not band.allows(_float(a), _float(b))):
            return False
    return True


def _text(value) -> str | None:
    if isinstance(value, list):
        return "".join(value)
    return value if isinstance(value, str) else None


def reconcile(cell: IPyNbCell, test: list, ref: list, formats: dict[str, list[str]]) -> list:
    """``test`` with each value that agrees with its reference replaced by the reference's text."""
    if len(test) != len(ref):
        return test
    out = []
    for t, r in zip(test, ref):
        if t.get("output_type") != r.get("output_type") or "data" not in t or "data" not in r:
            out.append(t)
            continue
        t = copy.deepcopy(t)
        for mime, stored in r["data"].items():
            rv, tv = _text(stored), _text(t["data"].get(mime))
            if rv is None or tv is None:
                continue
            rv, tv = cell.sanitize(rv), cell.sanitize(tv)
            if rv == tv:
                continue
            if mime == GLUE_MIME:
                meta = r.get("metadata", {})
                key = meta.get("scrapbook", {}).get("name")
                band = Tol.from_metadata(meta[GLUE_METADATA]) if GLUE_METADATA in meta else None
                same = glue_agrees(rv, tv, formats.get(key), band)
            elif mime == "text/html":
                same = html_agrees(rv, tv)
            else:
                same = False
            if same:
                t["data"][mime] = stored
        out.append(t)
    return out


def _formats_of(notebook_file) -> dict[str, list[str]]:
    cached = getattr(notebook_file, "_rn_glue_formats", None)
    if cached is None:
        markdown = "\n".join(c.source for c in notebook_file.nb.cells if c.cell_type == "markdown")
        cached = notebook_file._rn_glue_formats = glue_formats(markdown)
    return cached


_nbval_compare = IPyNbCell.compare_outputs


def compare_outputs(self, test, ref, skip_compare=None):
    return _nbval_compare(
        self, reconcile(self, test, ref, _formats_of(self.parent)), ref, skip_compare
    )


def pytest_configure(config):
    IPyNbCell.compare_outputs = compare_outputs
