"""Committed figures are exactly what `make figures` draws from the library today."""

import importlib.util
from pathlib import Path

import matplotlib
import nbformat
import pytest
from matplotlib.testing.compare import compare_images

import robonum.explore.exploration as exploration_module

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("make_figures", ROOT / "tools" / "make_figures.py")
make_figures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_figures)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    return {p.name: p for p in make_figures.write_all(tmp_path_factory.mktemp("figures"))}


@pytest.mark.parametrize("name", sorted(make_figures.FIGURES))
def test_committed_figure_is_up_to_date(fresh, name):
    committed = ROOT / "figures" / name
    assert committed.exists(), f"figures/{name} missing: run `make figures`"
    # RMS tolerance (0-255 scale) absorbs anti-aliasing noise, not a changed curve.
    diff = compare_images(str(committed), str(fresh[name]), tol=2.0)
    assert diff is None, f"figures/{name} is stale ({diff}); run `make figures`"


def test_every_committed_figure_has_a_recipe():
    assert {p.name for p in (ROOT / "figures").glob("*.png")} <= set(make_figures.FIGURES)


# -- Exploration frames: what is drawn stays in the axes, every text in the frame ---------------

# The chapters whose every exploration frame is checked (issue 29: a cloud that left its
# window, a title past the frame's edge, a clipped curve that looked stable).  Each runs its
# notebook's code (no kernel) and draws every frame once: 5-20 s a chapter.
CHECKED_CHAPTERS = [
    "book/integrators/one_step_order.ipynb",
    "book/integrators/stability_stiffness.ipynb",
    "book/integrators/symplectic_energy.ipynb",
    "book/stiff/implicit_solvers.ipynb",
]


def explorations_of(notebook: Path, monkeypatch) -> list:
    """Every Exploration a notebook's code cells build, in order (the code runs here, no kernel)."""
    made = []
    original = exploration_module.Exploration.__init__

    def record(self, *args, **kwargs):
        original(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(exploration_module.Exploration, "__init__", record)
    monkeypatch.chdir(notebook.parent)
    namespace = {"__name__": "__main__"}
    for cell in nbformat.read(notebook, as_version=4).cells:
        if cell.cell_type == "code":
            exec(compile(cell.source, str(notebook), "exec"), namespace)
    return made


@pytest.mark.parametrize("chapter", CHECKED_CHAPTERS)
def test_exploration_frames_show_what_they_draw(chapter, monkeypatch):
    matplotlib.use("Agg")  # the cells call plt.show(): nothing to show here
    explorations = explorations_of(ROOT / chapter, monkeypatch)
    assert explorations, f"{chapter} builds no exploration"
    bad = {
        f"{ex.title} {ex.values_at(key)}": issues
        for ex in explorations
        for key, issues in ex.figure_problems().items()
    }
    assert not bad, f"{chapter}: frames whose picture hides what they draw: {bad}"
