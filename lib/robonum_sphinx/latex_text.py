"""LaTeX math as plain Unicode text, for places where MathJax does not run.

Search result snippets are built from text, not from typeset pages, so a
formula like ``\\(z = h\\lambda\\)`` would otherwise show up raw.  This turns
the subset of LaTeX the book uses into readable text (``z = hλ``).  It is a
reader aid, not a renderer: anything it does not know loses its backslash
and keeps its argument, so no raw command ever reaches the reader.

>>> to_text(r"\\(y' = \\lambda y\\)")
"y' = λy"
>>> to_text(r"R(z) = \\frac{1 + z/2}{1 - z/2}")
'R(z) = (1 + z/2)/(1 - z/2)'
>>> to_text(r"h < 2.785\\times10^{-6}")
'h < 2.785×10⁻⁶'
"""

from __future__ import annotations

import re

from . import latex_symbols as sym

__all__ = ["to_text", "strip_delimiters"]

_TOKEN = re.compile(r"\\[A-Za-z]+\*?|\\.|[{}^_&~]|[^\\{}^_&~]")


def strip_delimiters(tex: str) -> str:
    """Drop the math delimiters ``\\(`` ``\\)`` ``\\[`` ``\\]`` ``$$`` ``$`` around a formula."""
    s = tex.strip()
    for left, right in (("\\(", "\\)"), ("\\[", "\\]"), ("$$", "$$"), ("$", "$")):
        if s.startswith(left) and s.endswith(right) and len(s) >= len(left) + len(right):
            return s[len(left) : len(s) - len(right)]
    return s


class _Parser:
    def __init__(self, tex: str):
        self.toks = _TOKEN.findall(tex)
        self.i = 0

    def _peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else None

    def _skip_space(self):
        while self._peek() is not None and self._peek().isspace():
            self.i += 1

    def _skip_space_before_word(self):
        """``\\lambda y`` is ``λy`` (the space only ends the command), ``\\lambda < 0`` keeps it."""
        j = self.i
        while j < len(self.toks) and self.toks[j].isspace():
            j += 1
        nxt = self.toks[j] if j < len(self.toks) else ""
        if nxt.isalnum() or (nxt.startswith("\\") and nxt[1:].rstrip("*") not in sym.SPACED):
            self.i = j

    def group(self) -> str:
        """One argument: a braced group or a single token."""
        self._skip_space()
        tok = self._peek()
        if tok is None:
            return ""
        if tok == "{":
            self.i += 1
            out = self.sequence(stop="}")
            self.i += 1  # the closing brace (if any)
            return out
        if tok == "}":
            return ""
        self.i += 1
        return self.token(tok)

    def optional(self) -> str:
        """An optional ``[...]`` argument (e.g. the n in ``\\sqrt[n]{x}``)."""
        if self._peek() != "[":
            return ""
        self.i += 1
        out = self.sequence(stop="]")
        self.i += 1
        return out

    def sequence(self, stop: str | None = None) -> str:
        parts = []
        while (tok := self._peek()) is not None and tok != stop:
            self.i += 1
            if tok == "{":
                parts.append(self.sequence(stop="}"))
                self.i += 1
            elif tok == "}":
                continue
            else:
                parts.append(self.token(tok))
        return "".join(parts)

    def token(self, tok: str) -> str:
        if tok in ("^", "_"):
            return _script(self.group(), sym.SUP if tok == "^" else sym.SUB, tok)
        if tok == "&":
            return " "
        if tok == "~":
            return " "
        if not tok.startswith("\\"):
            return tok
        name = tok[1:].rstrip("*")
        if name.isalpha() and name not in sym.SPACED:
            self._skip_space_before_word()
        if name in sym.GREEK:
            return sym.GREEK[name]
        if name in sym.SYMBOLS:
            return sym.SYMBOLS[name]
        if name in sym.NAMED:
            return name + " "
        if name in sym.DROP:
            return ""
        if name in ("frac", "tfrac", "dfrac", "cfrac"):
            num, den = self.group(), self.group()
            return f"{_wrap(num)}/{_wrap(den)}"
        if name == "sqrt":
            index = self.optional()
            arg = self.group()
            root = "√" if not index else _script(index, sym.SUP, "^") + "√"
            return root + _wrap(arg)
        if name == "mathbb":
            arg = self.group()
            return "".join(sym.BLACKBOARD.get(c, c) for c in arg)
        if name in ("begin", "end"):
            self.group()  # environment name
            if name == "begin":
                while self._peek() == "{":  # array column spec and similar
                    self.group()
            return " "
        if name in sym.ACCENT:
            arg = self.group()
            return arg + sym.ACCENT[name] if len(arg) == 1 else arg
        if name == "operatorname":
            return self.group() + " "
        if name in sym.KEEP_ARG:
            return self.group()
        return name  # unknown command: keep its name, lose the backslash


def _wrap(s: str) -> str:
    s = s.strip()
    return s if re.fullmatch(r"[\w.′|‖]+", s) else f"({s})"


def _script(s: str, table: dict, mark: str) -> str:
    s = s.strip()
    if s and all(c in table for c in s):
        return "".join(table[c] for c in s)
    if s == "⊤" and mark == "^":
        return "ᵀ"
    if s in ("′", "′′"):
        return s
    if not s:
        return ""
    return f"{mark}{s}" if len(s) == 1 else f"{mark}({s})"


def to_text(tex: str) -> str:
    """Readable Unicode text for a LaTeX formula (delimiters optional)."""
    out = _Parser(strip_delimiters(tex)).sequence()
    out = re.sub(r"[ \t\r\n]+", " ", out)
    out = re.sub(
        r"\b(%s) (?=[(|_^%s])" % ("|".join(sorted(sym.NAMED)), "".join(sym.SUB.values())),
        r"\1",
        out,
    )
    out = re.sub(r" ([,.;:)\]])", r"\1", out)
    out = re.sub(r"([(\[]) ", r"\1", out)
    return out.strip(" ;")
