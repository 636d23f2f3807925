"""``glue`` for chapters: a computed value into the prose, the same string on every machine.

myst-nb's ``glue`` stores the value's repr in the notebook, where nbval
compares it, and formats it in the text with ``{glue:text}`key:.3g```.  Two
things go wrong with raw results: a numpy scalar (``np.float64(2.8e-05)``)
cannot be formatted by myst-nb, and the last bits of a float differ between
machines (BLAS paths).  :func:`glue` turns numpy scalars into Python numbers
and rounds floats to 12 significant digits -- far above round-off, far below
anything the prose shows.  :func:`glue_math` stores LaTeX for ``{glue:md}`key:myst```.
"""
from __future__ import annotations

import numbers

import numpy as np
from IPython.display import Markdown
from myst_nb import glue as _myst_glue

from .. import _validate as check
from .numbers import round_sig


def _plain(value):
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        x = float(value)
        return round_sig(x, 12) if np.isfinite(x) else x
    if isinstance(value, str):
        return value
    raise TypeError(f"value must be a number or a string, got {type(value).__name__} "
                    "(glue a table or figure with myst_nb.glue directly)")


def glue(key: str, value) -> None:
    """Store ``value`` (a number or a string) under ``key`` for ``{glue:text}`key```, not displayed."""
    check.text("key", key)
    _myst_glue(key, _plain(value), display=False)


def glue_math(key: str, latex: str) -> None:
    """Store inline math for ``{glue:md}`key:myst``` (``{glue:text}`` would show raw TeX)."""
    check.text("key", key)
    check.text("latex", latex)
    _myst_glue(key, Markdown(f"${latex}$"), display=False)
