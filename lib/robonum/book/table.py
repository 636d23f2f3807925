"""Result tables that fit a phone screen and typeset their math (the markup is :mod:`.markup`).

>>> Table([["rk4", 4, -2.7853]], ["방법", "차수", "실수축 끝 $x$"], formats={2: ".4f"})

In a page the table is ``<div class="rn-table-wrap" style="overflow-x:auto">``
around ``<table class="rn-table">``: a wide table scrolls inside its box
instead of being cut at 390 px.  Cells and headers may hold the markup of
:func:`inline_html` (``$...$`` math, ``**bold**``, ```code```).  The
``str(table)`` is an aligned text table (Hangul counted two columns wide);
a notebook stores the HTML and, as ``text/plain``, only the caption and size,
so the notebook tests compare each number once.  A column whose numbers may
move between machines (an adaptive run's nfev) carries a
:class:`~robonum.book.tol.Tol` (``tol={1: Tol(...)}``): its cells hold the
band as ``data-rn-tol``, and the tests compare their numbers within it.

A table the text refers to has a ``name`` (``name="tab-adaptive-nfev"``): the
book's build numbers it per chapter in page order ("표 11.4", written into the
caption) and resolves ``{numref}`tab-adaptive-nfev``` in the prose to that
number (``robonum_sphinx.numbering``).  A caption never carries a hand-written
number: inserting a table would leave every later one wrong.
"""

from __future__ import annotations

import html
import math
import numbers
import re

import numpy as np

from .markup import _pad, _width, block_html, inline_html, plain_text
from .numbers import fmt
from .tol import HTML_ATTRIBUTE, Tol

__all__ = ["Table", "inline_html", "block_html", "plain_text", "NAME", "NAME_ATTRIBUTE"]

# a table's name: the id of its element in the page and the target of {numref}
NAME = re.compile(r"tab-[a-z0-9]+(?:-[a-z0-9]+)*\Z")
NAME_ATTRIBUTE = "data-rn-name"  # read by robonum_sphinx.numbering
# "**표 11.4**", "표 3.2", "그림 1.1" at the start of a caption: a number typed by hand
_HAND_NUMBER = re.compile(r"\W*(?:표|그림|Table|Fig\.?)\s*\d")

# \$ (a literal dollar), $$display$$, $inline$, `code`
_ALIGN = {
    "l": "left",
    "r": "right",
    "c": "center",
    "left": "left",
    "right": "right",
    "center": "center",
}


# a text of numbers and what joins them: "0.90 (6.7)", "5.21 / 704", "−1.2e-3 ± 4%"
_NUMBERS_ONLY = re.compile(r"[-+−]?(?:\d|\.\d)[\d.,eE%×·/:()±~≈≤≥<>+\-−— ]*\Z")


def _numbers_html(text: str) -> str:
    """A text of numbers for a left-aligned cell: it may wrap between its numbers, as in
    ``5.21 /`` over ``704``, which keeps a table within a phone's width, but never inside one."""
    return " ".join(
        f'<span style="white-space:nowrap">{html.escape(w)}</span>'
        if re.search(r"[-−+]", w[1:])
        else html.escape(w)
        for w in text.split()
    )


def _is_bool(v) -> bool:
    return isinstance(v, (bool, np.bool_))


def _is_number(v) -> bool:
    return isinstance(v, numbers.Number) and not _is_bool(v)


def _nonfinite(v) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, int) and not math.isfinite(v)


def _sequence(name: str, value):
    """``value`` if it is a sequence of entries (not a string, a number or a mapping)."""
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise TypeError(f"{name} must be a sequence, got {type(value).__name__}")
    return value


class Table:
    """A small result table: ``Table(rows, columns, caption=..., formats=..., align=...)``.

    Parameters
    ----------
    rows : sequence of rows, each a sequence with one value per column.
    columns : header texts (markup allowed: ``"실수축 끝 $x$"``).
    caption : optional caption (markup allowed).
    formats : per-column formats, a list (one per column, ``None`` = default) or a
        dict keyed by column index or header text.  A format is a format spec
        (``".4f"``, ``".2e"``; its output is shown as plain text) or a callable
        ``value -> str`` (its output is markup, e.g. ``lambda x: f"${sci(x)}$"``).
        By default ints print in full, floats with 4 significant digits
        (:func:`~robonum.book.numbers.fmt`), ``True``/``False`` as 예/아니요,
        ``None`` as an em dash, and strings as markup.
    align : ``"lrr"``-style string or list of ``left``/``right``/``center``;
        by default columns whose values are all numbers are right-aligned.
    tol : per-column :class:`~robonum.book.tol.Tol` (same keys as ``formats``) for
        columns whose numbers may move between machines by more than their
        printed digits (results of adaptive step control, iteration counts); or,
        for a column whose rows move by different amounts, a list of one ``Tol``
        or ``None`` per row (a rounding-dominated row beside steady ones).
    name : ``tab-...`` (lowercase ASCII words joined by ``-``), unique in the book: the
        table becomes "표 N.k" of its chapter, and ``{numref}`name``` refers to it.
        A named table needs a caption.
    """

    def __init__(
        self,
        rows,
        columns,
        *,
        caption: str | None = None,
        formats=None,
        align=None,
        tol=None,
        name: str | None = None,
    ):
        self.columns = [str(c) for c in _sequence("columns", columns)]
        n = len(self.columns)
        if n == 0:
            raise ValueError("columns must name at least one column")
        self.rows = [
            list(_sequence(f"rows[{i}]", r)) for i, r in enumerate(_sequence("rows", rows))
        ]
        for i, r in enumerate(self.rows):
            if len(r) != n:
                raise ValueError(f"rows[{i}] has {len(r)} values but there are {n} columns")
        if caption is not None and not isinstance(caption, str):
            raise TypeError(f"caption must be a string, got {type(caption).__name__}")
        if caption is not None and _HAND_NUMBER.match(caption):
            raise ValueError(
                f"caption {caption[:20]!r}... starts with a hand-written number: give the "
                "table a name= and let the book number it (refer to it as {numref}`name`)"
            )
        self.caption = caption
        if name is not None:
            if not isinstance(name, str) or not NAME.match(name):
                raise ValueError(f"name must look like 'tab-some-words', got {name!r}")
            if not caption:
                raise ValueError(f"table {name!r} needs a caption to be numbered")
        self.name = name
        self.formats = self._per_column("formats", formats, None)
        for j, f in enumerate(self.formats):
            if f is not None and not (callable(f) or isinstance(f, str)):
                raise TypeError(f"formats[{j}] must be a format spec string or a callable")
        self.tol = [self._bands(j, t) for j, t in enumerate(self._per_column("tol", tol, None))]
        if isinstance(align, str):
            align = [align] * n if align in ("left", "right", "center") else list(align)
        default = [
            "right"
            if any(_is_number(r[j]) for r in self.rows)
            and all(_is_number(r[j]) or r[j] is None for r in self.rows)
            else "left"
            for j in range(n)
        ]
        given = self._per_column("align", align, None)
        self.align = []
        for j, a in enumerate(given):
            if a is not None and (not isinstance(a, str) or a not in _ALIGN):
                raise ValueError(
                    f"align[{j}] must be one of l, r, c, left, right, center; got {a!r}"
                )
            self.align.append(_ALIGN[a] if a is not None else default[j])

    def _per_column(self, name, spec, fill) -> list:
        n = len(self.columns)
        if spec is None:
            return [fill] * n
        if isinstance(spec, dict):
            out = [fill] * n
            for k, v in spec.items():
                j = self.columns.index(k) if k in self.columns else k
                if not isinstance(j, int) or isinstance(j, bool) or not -n <= j < n:
                    raise ValueError(f"{name} key {k!r} is neither a column index nor a header")
                out[j] = v
            return out
        spec = list(_sequence(name, spec))
        if len(spec) != n:
            raise ValueError(f"{name} has {len(spec)} entries but there are {n} columns")
        return spec

    def _bands(self, j: int, spec) -> list:
        """Column ``j``'s band for each row: one ``Tol`` for all, or a list of ``Tol``/``None``."""
        rows = len(self.rows)
        bands = list(spec) if isinstance(spec, (list, tuple)) else [spec] * rows
        if len(bands) != rows:
            raise ValueError(f"tol[{j}] has {len(bands)} bands but there are {rows} rows")
        for t in bands:
            if t is not None and not isinstance(t, Tol):
                raise TypeError(f"tol[{j}] must be a robonum.book.Tol, got {type(t).__name__}")
        return bands

    # -- cells -----------------------------------------------------------------
    def cell(self, i: int, j: int) -> tuple[str, bool]:
        """``(text, is_markup)`` of cell ``(i, j)``."""
        v, f = self.rows[i][j], self.formats[j]
        if callable(f):
            return str(f(v)), True
        if isinstance(f, str) and _is_number(v) and not _nonfinite(v):
            return format(v, f), False
        if v is None:
            return "—", False
        if _is_bool(v):
            return ("예" if v else "아니요"), False
        if isinstance(v, str):
            return v, True
        if isinstance(v, numbers.Real):
            return fmt(v), False
        return str(v), False

    # -- views -----------------------------------------------------------------
    def to_html(self) -> str:
        def td(tag, content, align, extra=""):
            # a number never breaks across lines ("+8.41e-" / "03" on a phone); the table
            # scrolls in its own box instead
            rule = [] if align == "left" else [f"text-align:{align}"]
            if tag == "td" and align == "right":
                rule.append("white-space:nowrap")
            style = f' style="{";".join(rule)}"' if rule else ""
            return f"<{tag}{extra}{style}>{content}</{tag}>"

        head = "".join(
            td("th", inline_html(c), a, ' scope="col"') for c, a in zip(self.columns, self.align)
        )
        body = []
        for i in range(len(self.rows)):
            cells = []
            for j, a in enumerate(self.align):
                text, markup = self.cell(i, j)
                band = self.tol[j][i]
                cells.append(
                    td(
                        "td",
                        _numbers_html(text)
                        if _NUMBERS_ONLY.match(text)
                        else inline_html(text)
                        if markup
                        else html.escape(text),
                        a,
                        f' {HTML_ATTRIBUTE}="{band.attribute()}"' if band else "",
                    )
                )
            body.append("<tr>" + "".join(cells) + "</tr>")
        # the table is moved .9em left so that its first column lines up with the text (the
        # border spacing is .9em); the caption spans the whole table, and a caption that fills
        # a phone's width would start .9em left of the scroll box, where no scrolling reaches
        caption = (
            f'<caption style="padding:0 .9em">{inline_html(self.caption)}</caption>'
            if self.caption
            else ""
        )
        named = f' {NAME_ATTRIBUTE}="{self.name}"' if self.name else ""
        return (
            f'<div class="rn-table-wrap"{named} style="overflow-x:auto;max-width:100%">'
            '<table class="rn-table" style="font-variant-numeric:tabular-nums;'
            'border-collapse:separate;border-spacing:.9em .15em;margin-left:-.9em;word-break:keep-all">'
            f"{caption}<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
        )

    def to_text(self) -> str:
        header = [plain_text(c) for c in self.columns]
        body = [
            [plain_text(t) if m else t for t, m in (self.cell(i, j) for j in range(len(header)))]
            for i in range(len(self.rows))
        ]
        widths = [max(_width(r[j]) for r in [header] + body) for j in range(len(header))]

        def line(cells):
            return "  ".join(_pad(c, w, a) for c, w, a in zip(cells, widths, self.align)).rstrip()

        rule = "  ".join("-" * w for w in widths)
        lines = [line(header), rule] + [line(r) for r in body]
        if self.caption:
            lines.insert(0, plain_text(self.caption))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return self.to_html()

    def _repr_mimebundle_(self, include=None, exclude=None):
        # the HTML carries every number (and each band); text/plain only names the table
        return {
            "text/plain": repr(self)
            if not self.caption
            else f"{plain_text(self.caption)} ({repr(self)})",
            "text/html": self.to_html(),
        }

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"Table({len(self.rows)} rows x {len(self.columns)} columns)"
