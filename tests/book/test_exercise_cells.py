"""An exercise's cell hides its input: the source holds the answer, the hint and the solution.

A code cell that builds an exercise (``Exercise(...)`` or ``Exercise.choice(...)``)
shows the reader only its output, where the hint and solution wait behind a
button; its input, printed as code, would give them away on the page and in the
student's PDF (``tests/book/test_pdf.py`` finds that too, but only after a
build and a print).  This reads the notebooks, so it needs no build.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUILDS_EXERCISE = re.compile(r"\bExercise(\.choice)?\(")


def unhidden_exercise_cells(nb: dict) -> list[int]:
    """Indices of code cells that build an exercise but lack the ``hide-input`` tag."""
    return [
        i
        for i, cell in enumerate(nb["cells"])
        if cell["cell_type"] == "code"
        and BUILDS_EXERCISE.search("".join(cell["source"]))
        and "hide-input" not in cell.get("metadata", {}).get("tags", [])
    ]


def test_the_check_sees_a_missing_tag():
    cell = {"cell_type": "code", "metadata": {}, "source": ['Exercise.choice("k", "q?", ["a"])']}
    hidden = {**cell, "metadata": {"tags": ["hide-input"]}}
    prose = {"cell_type": "markdown", "metadata": {}, "source": ["Exercise(s) below"]}
    assert unhidden_exercise_cells({"cells": [prose, hidden, cell]}) == [2]


def test_every_exercise_cell_hides_its_input():
    notebooks = sorted((ROOT / "book").rglob("*.ipynb"))
    assert notebooks
    found = {
        str(p.relative_to(ROOT)): bad
        for p in notebooks
        if (bad := unhidden_exercise_cells(json.loads(p.read_text(encoding="utf-8"))))
    }
    assert not found, f"exercise cells without the hide-input tag (notebook: cell indices): {found}"
