"""Numbers written the way a person writes them, for glue values, titles and tables.

>>> fmt(2.7852935634)
'2.785'
>>> sci(2.79e-4), sci(2.79e-4, plain=True)
('2.79 \\\\times 10^{-4}', '2.79e-4')
>>> fmt_h(0.0333333)
'0.0333'

Every function rounds with Python's correctly rounded ``format`` (round half
to even on the binary value), so one float always gives one string, on every
machine.  Two machines agree only when the *values* agree to the digits shown:
a round-off-level result (1.0e-15 here, 1.33e-15 there) prints differently and
should be shown as a bound, not a value.  Minus signs are ASCII ``-`` (they
copy and paste into code and into the exercise boxes).
"""

from __future__ import annotations

import math
import numbers
import re
import unicodedata
from decimal import Decimal

from .. import _validate as check

__all__ = ["round_sig", "fmt", "fmt_h", "sci", "pct", "parse_number"]

# Positional notation for 10**_LO <= |x| < 10**_HI, scientific outside.
_LO, _HI = -4, 6


def _digits(name: str, sig) -> int:
    return check.integer(name, sig, 1, 17)


def _split(x: float, sig: int) -> tuple[Decimal, int]:
    """``x`` rounded to ``sig`` significant digits as (mantissa in [1, 10), exponent)."""
    mant, exp = format(x, f".{sig - 1}e").split("e")
    return Decimal(mant), int(exp)


def _nonfinite(x: float, latex: bool) -> str | None:
    if math.isnan(x):
        return "\\mathrm{NaN}" if latex else "NaN"
    if math.isinf(x):
        inf = "\\infty" if latex else "∞"
        return inf if x > 0 else "-" + inf
    return None


def _plain(d: Decimal) -> str:
    """Positional text of a Decimal without trailing zeros (``1E+3`` -> ``1000``)."""
    s = format(d.normalize(), "f")
    return "0" if s in ("-0", "0") else s


def _real(x, name: str = "x") -> float:
    """A real number as float; unlike ``_validate.real`` NaN and infinities pass (tables show them)."""
    if isinstance(x, numbers.Real) and not isinstance(x, bool):
        try:
            f = float(x)
        except OverflowError:
            pass
        else:
            if not math.isfinite(f):
                return f
    return check.real(name, x)


def round_sig(x, sig: int = 12) -> float:
    """Finite ``x`` rounded to ``sig`` significant digits, as a float.

    ``round_sig(2.7852935634, 4) == 2.785``; handy for glue values that must
    not change with round-off between machines.
    """
    x, sig = check.real("x", x), _digits("sig", sig)
    return 0.0 if x == 0 else float(format(x, f".{sig - 1}e"))


def matches_printed(x, printed: str) -> bool:
    """Does ``x`` round to the value a printed chapter gives, at the digits it gives?

    ``printed`` is the number as printed (``"4.6e-5"``, ``"0.053"``, ``"1.51"``);
    its significant digits (2, 2, 3) say how precisely it was measured, so
    ``matches_printed(4.63e-5, "4.6e-5")`` is True and ``matches_printed(4.66e-5, "4.6e-5")``
    is not.  The book's verdicts on the printed examples ("재현됩니다") come from it.
    """
    x = check.real("x", x)
    if not isinstance(printed, str):
        raise TypeError(
            f"printed must be the number as printed (a str such as '4.6e-5'), "
            f"got {type(printed).__name__}"
        )
    try:
        d = Decimal(printed.strip())
    except ArithmeticError:
        raise ValueError(f"printed must be a number such as '4.6e-5', got {printed!r}") from None
    if not d.is_finite() or d == 0:
        raise ValueError(f"printed must be a finite non-zero number, got {printed!r}")
    return round_sig(x, len(d.as_tuple().digits)) == float(d)


def fmt(x, sig: int = 4, *, zeros: bool = False) -> str:
    """``x`` with ``sig`` significant digits, positional for 1e-4 <= |x| < 1e6.

    Trailing zeros are dropped (``fmt(2.5) == '2.5'``) unless ``zeros=True``
    (``fmt(2.5, 3, zeros=True) == '2.50'``, for columns that line up).  Python
    ints are exact and printed in full.  Outside the positional range the
    plain scientific form is used (``fmt(2.79e-7) == '2.79e-7'``).  NaN and
    infinities print as ``NaN``, ``∞`` and ``-∞``.
    """
    sig = _digits("sig", sig)
    zeros = check.boolean("zeros", zeros)
    if isinstance(x, int) and not isinstance(x, bool):
        return str(x)
    x = _real(x)
    special = _nonfinite(x, latex=False)
    if special is not None:
        return special
    if x == 0:
        return "0." + "0" * (sig - 1) if zeros and sig > 1 else "0"
    mant, exp = _split(x, sig)
    if not _LO <= exp < _HI:
        return sci(x, sig, plain=True, zeros=zeros)
    d = mant.scaleb(exp)
    if not zeros:
        return _plain(d)
    places = max(sig - 1 - exp, 0)
    return format(d, f".{places}f")


def fmt_h(h, sig: int = 3) -> str:
    """A step size or other positive parameter for titles: ``fmt_h(0.0333333) == '0.0333'``."""
    return fmt(check.positive("h", h), sig)


def sci(x, sig: int = 3, *, plain: bool = False, zeros: bool = False) -> str:
    """Scientific notation: LaTeX ``2.79 \\times 10^{-4}`` or, with ``plain=True``, ``2.79e-4``.

    Put the LaTeX form inside ``$...$``.  A mantissa of exactly 1 is left out
    (``10^{-6}`` / ``1e-6``); exponent 0 gives the mantissa alone (``2.5``).
    """
    sig = _digits("sig", sig)
    plain, zeros = check.boolean("plain", plain), check.boolean("zeros", zeros)
    x = _real(x)
    special = _nonfinite(x, latex=not plain)
    if special is not None:
        return special
    if x == 0:
        return "0"
    mant, exp = _split(x, sig)
    m = format(mant, f".{sig - 1}f") if zeros else _plain(mant)
    if exp == 0:
        return m
    if plain:
        return f"{m}e{exp}"
    power = f"10^{{{exp}}}"
    if m in ("1", "-1"):
        return power if m == "1" else "-" + power
    return f"{m} \\times {power}"


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def pow10(x, *, tex: bool = False) -> str:
    """A positive ``x`` as ``m×10ᵉ`` (2 significant digits): ``pow10(3e6) == '3×10⁶'``.

    For slider labels and table cells, which the browser's font shows with superscript
    digits; ``tex=True`` gives ``'$3\\times 10^{6}$'`` for figure titles, whose font has
    none.  A mantissa of 1 is left out: ``pow10(1e4) == '10⁴'``.
    """
    x = check.positive("x", x)
    tex = check.boolean("tex", tex)
    mant, exp = _split(x, 2)
    m = _plain(mant)
    if tex:
        lead = "" if m == "1" else m + r"\times "
        return f"${lead}10^{{{exp}}}$"
    return ("10" if m == "1" else f"{m}×10") + str(exp).translate(_SUPERSCRIPT)


def pct(fraction, sig: int = 2) -> str:
    """A fraction as a percentage for readers: ``pct(0.001) == '0.1 %'``."""
    return f"{fmt(100 * check.real('fraction', fraction), sig)} %"


# -- reading numbers typed by a reader (the exercises' JS mirrors this exactly) -----
_NUM = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\Z")
EXAMPLES = "2.5, -0.03, 2.5e-3, 1/3"
PARSE_MESSAGES = {
    "empty": "값을 입력하세요.",
    "comma": "쉼표(,)는 쓸 수 없습니다. 소수점은 마침표로 적습니다(예: 2.5).",
    "bad": f"숫자로 읽을 수 없습니다. 이렇게 적어 보세요: {EXAMPLES}",
    "zero": "분모가 0입니다.",
    "big": "수가 너무 큽니다.",
}


def parse_number(text: str) -> float | str:
    """A number as a reader types it, or the Korean message saying why it is not one.

    - surrounding spaces are ignored; full-width digits and the minus sign U+2212 are accepted;
    - ``.`` is the decimal point; a comma is refused (``2,5`` could mean 2.5 or 25 and
      ``1,000`` could mean 1 or 1000);
    - ``2.5``, ``-0.03``, ``.5``, ``2.5e-3`` and a fraction of two such numbers (``1/3``);
    - anything else (``inf``, ``pi``, ``1/0``, ``1e999``) is refused with a message.
    """
    t = unicodedata.normalize("NFKC", text).replace("\u2212", "-").strip()
    if not t:
        return PARSE_MESSAGES["empty"]
    if "," in t:
        return PARSE_MESSAGES["comma"]
    parts = [p.strip() for p in t.split("/")]
    if len(parts) > 2 or not all(_NUM.match(p) for p in parts):
        return PARSE_MESSAGES["bad"]
    x = float(parts[0])
    if len(parts) == 2:
        if float(parts[1]) == 0:
            return PARSE_MESSAGES["zero"]
        x = x / float(parts[1])
    return x if math.isfinite(x) else PARSE_MESSAGES["big"]
