"""robonum.book.glue writes exactly what myst-nb's glue writes, without importing myst_nb.

The book's glue builds myst-nb's display bundle itself (importing myst_nb costs every
kernel 1-2 s).  myst-nb reads that bundle back when it builds the page, so the two must
stay the same: these tests record what each one displays and compare.
"""

import importlib
import subprocess
import sys

import myst_nb
import myst_nb.ext.glue as myst_glue
import numpy as np
import pytest
from IPython.display import Markdown

from robonum.book import Tol
from robonum.book.tol import GLUE_METADATA

# the module (robonum.book.glue, the name, is the function the package re-exports)
book_glue = importlib.import_module("robonum.book.glue")

VALUES = [3, 2.5, -1e-300, 0.1 + 0.2, "문자열", True, float("inf")]


@pytest.fixture
def shown(monkeypatch):
    """What myst_nb.glue and robonum.book.glue display: (bundle, metadata) per call."""
    calls = {"myst": [], "book": []}

    def recorder(side):
        def display(bundle, raw=False, metadata=None):
            assert raw
            calls[side].append((bundle, metadata))

        return display

    monkeypatch.setattr(myst_glue, "ipy_display", recorder("myst"))
    monkeypatch.setattr(book_glue, "_display", recorder("book"))
    return calls


def test_the_prefix_is_myst_nbs():
    assert book_glue.GLUE_PREFIX == myst_glue.GLUE_PREFIX


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_a_glued_value_is_displayed_as_myst_nb_displays_it(shown, value):
    # the book's glue first makes the value a plain number rounded to 12 digits (its docstring)
    myst_nb.glue("k", book_glue._plain(value), display=False)
    book_glue.glue("k", value)
    assert shown["book"] == shown["myst"]


def test_glued_math_is_myst_nbs_markdown_glue(shown):
    myst_nb.glue("m", Markdown("$z = h\\lambda$"), display=False)
    book_glue.glue_math("m", "z = h\\lambda")
    assert shown["book"] == shown["myst"]


def test_a_band_only_adds_its_metadata(shown):
    myst_nb.glue("k", 1.25, display=False)
    book_glue.glue("k", np.float64(1.25), tol=Tol(rtol=0.05, why="a count of steps"))
    (bundle, metadata), (want_bundle, want_metadata) = shown["book"][0], shown["myst"][0]
    extra = {k: v for k, v in metadata.items() if k not in want_metadata}
    assert bundle == want_bundle and list(extra) == [GLUE_METADATA]
    assert {k: metadata[k] for k in want_metadata} == want_metadata


def test_the_book_layer_does_not_import_myst_nb():
    code = "import sys, robonum.book; print('myst_nb' in sys.modules, 'nbformat' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"], out.stdout
