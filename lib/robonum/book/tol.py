"""How far a shown number may move between machines, and why: :class:`Tol`.

A number that passes through a tolerance-controlled algorithm -- a Newton
iteration stopped at a tolerance, an adaptive step-size controller, a count of
failed solves -- is not a function of the method alone: rounding in the last
bits (another BLAS kernel, another CPU) changes *which* iterate or step is
accepted, and the result moves by far more than round-off.  Measured on this
book's pages (OpenBLAS's Haswell against SkylakeX kernels, and tolerances
scaled by 1 + k 1e-9): 1e-9 ... 7e-8 relative for Newton results; for
adaptive runs up to 0.4 digits of accuracy and 7 % of the f-evaluations (17 %
on the flexible joint); counts of failed solves by several.  Such a number is
shown with a :class:`Tol` that says how far it may
move and why, and the notebook tests (``tests/nbval_numbers.py``) compare it
within that band instead of digit by digit:

>>> from robonum.book import Table, glue
>>> adaptive = Tol(rtol=0.05, why="the accepted steps follow err <= 1 tests that rounding can flip")
>>> glue("nfev_bdf", 5271, tol=adaptive)                         # doctest: +SKIP
>>> Table(rows, ["rtol", "nfev"], tol={1: adaptive})             # doctest: +SKIP

Everything else a page shows is compared at the precision the reader sees it:
a glued value to half a unit of the last digit its text prints, any other
printed number exactly.  See ``docs/writing-a-chapter.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .. import _validate as check

__all__ = ["Tol", "GLUE_METADATA", "HTML_ATTRIBUTE"]

# Where a tolerance travels with an output, for the notebook tests to read:
# a glued value's display metadata, and an attribute of a table cell.
GLUE_METADATA = "robonum"
HTML_ATTRIBUTE = "data-rn-tol"


@dataclass(frozen=True)
class Tol:
    """Two results ``a`` and ``b`` agree when ``|a - b| <= atol + rtol * max(|a|, |b|)``.

    ``why`` is required: a tolerance without a reason is a test made blind.
    ``rtol`` is at most 1 (a larger band compares nothing).
    """

    rtol: float = 0.0
    atol: float = 0.0
    why: str = ""

    def __post_init__(self):
        object.__setattr__(self, "rtol", check.positive("rtol", self.rtol, allow_zero=True, hi=1.0))
        object.__setattr__(self, "atol", check.positive("atol", self.atol, allow_zero=True))
        if not isinstance(self.why, str) or len(self.why.strip()) < 10:
            raise ValueError(
                "why must say in a sentence what makes the number move between machines "
                f"(at least 10 characters), got {self.why!r}"
            )
        if self.rtol == 0 and self.atol == 0:
            raise ValueError("rtol and atol are both 0: a number that cannot move needs no Tol")

    def allows(self, a: float, b: float) -> bool:
        """Whether ``a`` and ``b`` agree within this band (NaN never does)."""
        a, b = float(a), float(b)
        if math.isnan(a) or math.isnan(b):
            return False
        if a == b:
            return True
        return abs(a - b) <= self.atol + self.rtol * max(abs(a), abs(b))

    def metadata(self) -> dict:
        """The form stored with an output: ``{"rtol": ..., "atol": ...}``."""
        return {"rtol": self.rtol, "atol": self.atol}

    def attribute(self) -> str:
        """The HTML attribute value: ``"rtol atol"``."""
        return f"{self.rtol!r} {self.atol!r}"

    @classmethod
    def from_metadata(cls, meta: dict) -> "Tol":
        return cls(
            meta.get("rtol", 0.0), meta.get("atol", 0.0), why="read back from a stored output"
        )

    @classmethod
    def from_attribute(cls, text: str) -> "Tol":
        rtol, atol = (float(x) for x in text.split())
        return cls(rtol, atol, why="read back from a stored output")
