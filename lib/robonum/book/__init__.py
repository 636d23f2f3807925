"""The book's own machinery: figure style, Korean reader-facing text, display helpers, exercises.

* :mod:`.style` -- ``use_book_style()``: a Hangul font and the book's matplotlib settings;
* :mod:`.ko` -- Korean sentences for what the library reports in English (run status, input errors),
  and ``sentences`` to join notes into prose;
* :mod:`.numbers` -- numbers written the way a person writes them (``fmt``, ``fmt_h``, ``sci``), and
  ``matches_printed``: does a computed value agree with a printed chapter's, at its digits;
* :mod:`.latex` -- polynomials and ``R(z)`` typeset as LaTeX;
* :mod:`.glue` -- ``glue``: computed values into the prose;
* :mod:`.tol` -- ``Tol``: how far a shown number may move between machines, and why;
* :mod:`.table` -- ``Table``: results as an HTML table with typeset math, not printed text;
* :mod:`.exercise` -- ``Exercise``: self-checked classroom exercises (static page and Jupyter);
* :mod:`.bench` -- the benchmark harness: work-precision runs, fronts and cost ratios.

This is the book layer: it imports the numerical core, the core never imports it.
"""

import importlib

from . import ko, latex
from .exercise import CheckResult, Exercise
from .glue import glue, glue_math
from .ko import run_message, sentences
from .numbers import fmt, fmt_h, matches_printed, pct, pow10, round_sig, sci
from .style import FONT_NAME, use_book_style
from .table import Table
from .tol import Tol

__all__ = [
    "bench",
    "FONT_NAME",
    "use_book_style",
    "Exercise",
    "CheckResult",
    "Table",
    "ko",
    "latex",
    "run_message",
    "sentences",
    "fmt",
    "fmt_h",
    "pow10",
    "sci",
    "pct",
    "round_sig",
    "matches_printed",
    "glue",
    "glue_math",
    "Tol",
]


def __getattr__(name):
    """``bench`` (which imports scipy.integrate, 0.7 s) is loaded on first use, not by every page."""
    if name == "bench":
        return importlib.import_module(f"{__name__}.bench")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
