"""Committed figures are exactly what `make figures` draws from the library today."""

import importlib.util
from pathlib import Path

import pytest
from matplotlib.testing.compare import compare_images

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
