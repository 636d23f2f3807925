"""Numbers as a person writes them next to a slider: 0.5, 2.5e-3, 1e4, 0.387.

A value that has a short exact form (up to ``digits + 1`` significant
digits) is shown exactly (0.3873 stays 0.3873, 2.785 stays 2.785); a
computed grid value is rounded to ``digits`` significant digits
(0.387298 -> 0.387).  Magnitudes below 0.01 or from 10^4 on use a compact
exponent without '+' or leading zeros (2.5e-3, 1e4).
"""

from __future__ import annotations

import math
import numbers


def is_number(v) -> bool:
    """A real number that a slider can show (bool is a choice, not a number)."""
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def _with_sig(v: float, sig: int) -> str:
    exp = math.floor(math.log10(abs(v)))
    if -2 <= exp < 4:
        # Re-derive the exponent after rounding (9.996 at 3 digits is 10.0).
        rounded = float(f"{v:.{sig - 1}e}")
        exp = math.floor(math.log10(abs(rounded)))
        if -2 <= exp < 4:
            text = f"{rounded:.{max(0, sig - 1 - exp)}f}"
            return text.rstrip("0").rstrip(".") if "." in text else text
    mantissa, _, power = f"{v:.{sig - 1}e}".partition("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}e{int(power)}"


def human(v, digits: int = 3) -> str:
    """``v`` rounded the way a person writes it (see the module docstring)."""
    if not is_number(v):
        return str(v)
    if isinstance(v, numbers.Integral) and abs(v) < 10**4:
        return str(int(v))
    x = float(v)
    if x == 0 or not math.isfinite(x):
        return "0" if x == 0 else str(x)
    for sig in range(1, digits + 2):
        text = _with_sig(x, sig)
        if float(text) == x:
            return text
    return _with_sig(x, digits)


def distinct_labels(values, digits: int = 3) -> tuple[tuple[str, ...], int]:
    """Labels for ``values`` and the digits used: more digits until no two labels coincide."""
    for d in range(digits, 16):
        labels = tuple(human(v, d) for v in values)
        if len(set(labels)) == len(labels):
            return labels, d
    return tuple(repr(v) for v in values), 17
