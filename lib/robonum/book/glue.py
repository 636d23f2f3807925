"""``glue`` for chapters: a computed value into the prose, and how far it may move between machines.

myst-nb's ``glue`` stores the value's repr in the notebook and formats it in
the text with ``{glue:text}`key:.3g```.  :func:`glue` turns numpy scalars into
Python numbers (myst-nb cannot format ``np.float64(2.8e-05)``) and rounds
floats to 12 significant digits, so that round-off in the last bits does not
reach the stored text.

That is not enough for a value that passes through a tolerance-controlled
algorithm (Newton stopped at a tolerance, adaptive step control, a count of
failed solves): rounding there changes which iterate is accepted, and the
value moves at the 1e-9 ... 1e-7 level or more (see :mod:`.tol`).  The
notebook tests therefore compare a glued number at the precision the page
prints it -- to half a unit of the last digit of the finest format the
page's text applies to the key -- and, where a value may move further than
that, within the :class:`~robonum.book.tol.Tol` given here, which is stored
with the output.  A value glued but never shown is not compared; keep glue
for what the prose shows.  :func:`glue_math` stores LaTeX for
``{glue:md}`key:myst```.
"""

from __future__ import annotations

import numbers

import numpy as np
from IPython.core.formatters import format_display_data
from IPython.display import Markdown
from IPython.display import display as _display

from .. import _validate as check
from .numbers import round_sig
from .tol import GLUE_METADATA, Tol

# myst-nb's glue output, written here rather than through ``myst_nb.glue``: importing myst_nb
# pulls in nbformat and jsonschema (1-2 s in every kernel, measured with -X importtime; the
# notebooks run in about 30 kernels per `make test`).  tests/lib/test_glue.py checks that
# the bundle is byte for byte what myst_nb.glue writes, so a change of format is caught.
GLUE_PREFIX = "application/papermill.record/"


def _record(key: str, value, extra: dict | None = None) -> None:
    """What ``myst_nb.glue(key, value, display=False)`` displays, with ``extra`` metadata."""
    bundle, metadata = format_display_data(value)
    metadata["scrapbook"] = dict(name=key, mime_prefix=GLUE_PREFIX)
    metadata.update(extra or {})
    _display({GLUE_PREFIX + k: v for k, v in bundle.items()}, raw=True, metadata=metadata)


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
    raise TypeError(
        f"value must be a number or a string, got {type(value).__name__} "
        "(glue a table or figure with myst_nb.glue directly)"
    )


def glue(key: str, value, *, tol: Tol | None = None) -> None:
    """Store ``value`` (a number or a string) under ``key`` for ``{glue:text}`key```, not displayed.

    ``tol``: how far the number may move between machines, and why (a
    :class:`~robonum.book.tol.Tol`); without it the tests compare the value at
    the precision the page prints it.
    """
    check.text("key", key)
    value = _plain(value)
    if tol is None:
        _record(key, value)
        return
    if not isinstance(tol, Tol):
        raise TypeError(f"tol must be a robonum.book.Tol, got {type(tol).__name__}")
    if isinstance(value, (bool, str)):
        raise TypeError(f"tol applies to numbers; {key!r} is a {type(value).__name__}")
    _record(key, value, {GLUE_METADATA: tol.metadata()})  # the band: the page ignores it


def glue_math(key: str, latex: str) -> None:
    """Store inline math for ``{glue:md}`key:myst``` (``{glue:text}`` would show raw TeX)."""
    check.text("key", key)
    check.text("latex", latex)
    _record(key, Markdown(f"${latex}$"))
