"""The inline markup of the book's tables and exercises: ``$...$`` math, ``**bold**``, ```code```.

A reference to a numbered table or figure is written as in the Markdown cells,
``{numref}`tab-name``` (the book's build puts the number in: ``robonum_sphinx.numbering``);
:func:`inline_html` turns it into a placeholder link ``<a class="rn-ref">``, and
:func:`plain_text` keeps it as written.

:func:`inline_html` and :func:`block_html` turn it into HTML that MathJax
typesets; :func:`plain_text` into readable text (TeX symbols as Unicode);
``_width``/``_pad`` align text columns with Hangul counted two columns wide.
"""

from __future__ import annotations

import html
import re
import unicodedata

_TOKEN = re.compile(
    r"\\\$|\$\$(.+?)\$\$|\$([^$\n]+?)\$|\{numref\}`([a-z0-9][a-z0-9-]*)`|`([^`\n]+)`", re.S
)
_BOLD = re.compile(r"\*\*(.+?)\*\*", re.S)
_MATH = '<span class="math notranslate nohighlight">{}</span>'


def inline_html(text: str) -> str:
    """Markup -> HTML: escapes ``<``, ``&``, ``>``; ``$x$`` becomes MathJax-ready math.

    Math is written as ``<span class="math ...">\\(x\\)</span>``, the markup
    Sphinx uses: the book's MathJax typesets elements of class ``math`` even
    inside cell outputs (which sit in a ``tex2jax_ignore`` section), and
    JupyterLab typesets ``\\(...\\)`` too.  ``\\$`` is a literal dollar sign.
    """
    pieces = []

    def keep(m):  # math and code are set aside so that ** inside them stays literal
        display, inline, ref, code = m.groups()
        if ref is not None:
            piece = f'<a class="rn-ref" data-rn-ref="{ref}" href="#{ref}">{ref}</a>'
        elif display is not None:
            piece = _MATH.format(f"\\[{html.escape(display.strip(), quote=False)}\\]")
        elif inline is not None:
            piece = _MATH.format(f"\\({html.escape(inline, quote=False)}\\)")
        elif code is not None:
            piece = f"<code>{html.escape(code, quote=False)}</code>"
        else:
            piece = "$"
        pieces.append(piece)
        return f"\x00{len(pieces) - 1}\x00"

    body = html.escape(_TOKEN.sub(keep, text.replace("\x00", "")), quote=False)
    body = _BOLD.sub(r"<strong>\1</strong>", body)
    return re.sub("\x00([0-9]+)\x00", lambda m: pieces[int(m.group(1))], body)


def block_html(text: str) -> str:
    """Paragraphs (blank-line separated) and ``- `` bullet lists of :func:`inline_html` markup."""
    parts = []
    for para in re.split(r"\n\s*\n", text.strip()):
        lines = para.splitlines()
        if lines and all(line.lstrip().startswith("- ") for line in lines):
            items = "".join(f"<li>{inline_html(line.lstrip()[2:])}</li>" for line in lines)
            parts.append(f"<ul>{items}</ul>")
        elif para.strip():
            parts.append(f"<p>{inline_html(' '.join(line.strip() for line in lines))}</p>")
    return "".join(parts)


_SYMBOLS = {
    "times": "×",
    "cdot": "·",
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
    "ne": "≠",
    "approx": "≈",
    "pm": "±",
    "infty": "∞",
    "to": "→",
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "delta": "δ",
    "Delta": "Δ",
    "epsilon": "ε",
    "varepsilon": "ε",
    "theta": "θ",
    "lambda": "λ",
    "mu": "μ",
    "pi": "π",
    "rho": "ρ",
    "sigma": "σ",
    "tau": "τ",
    "omega": "ω",
    "Omega": "Ω",
    "sqrt": "√",
    "quad": " ",
    "qquad": " ",
}


def _tex_text(tex: str) -> str:
    """Common TeX made readable: ``2.79 \\times 10^{-4}`` -> ``2.79 × 10^-4``."""
    tex = re.sub(r"\\(?:mathrm|operatorname|text|mathbf)\{([^{}]*)\}", r"\1", tex)
    tex = re.sub(r"\\([A-Za-z]+)", lambda m: _SYMBOLS.get(m.group(1), m.group(0)), tex)
    tex = re.sub(r"([_^])\{([^{}]*)\}", r"\1\2", tex)
    return tex.replace("\\,", " ").replace("\\;", " ").replace("\\!", "")


def plain_text(text: str) -> str:
    """Markup -> readable plain text: math delimiters, ``**`` and backticks dropped.

    Inside math a few common commands become symbols (``\\lambda`` -> λ,
    ``\\times`` -> ×, ``10^{-4}`` -> ``10^-4``); others stay as written.
    """

    def repl(m):
        display, inline, ref, code = m.groups()
        if m.group(0) == "\\$":
            return "$"
        if ref is not None:
            return m.group(0)
        return code if code is not None else _tex_text((display or inline).strip())

    return _BOLD.sub(r"\1", _TOKEN.sub(repl, text))


def _width(s: str) -> int:
    """Columns ``s`` takes in a monospace font (Hangul and other wide characters count 2)."""
    return sum(
        2 if unicodedata.east_asian_width(c) in "WF" else 0 if unicodedata.combining(c) else 1
        for c in s
    )


def _pad(s: str, width: int, align: str) -> str:
    gap = width - _width(s)
    if align == "right":
        return " " * gap + s
    if align == "center":
        return " " * (gap // 2) + s + " " * (gap - gap // 2)
    return s + " " * gap
