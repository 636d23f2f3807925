"""Committed figures are exactly what `make figures` draws from the library today."""

import html
import importlib.util
import json
import re
from pathlib import Path

import pytest
from matplotlib.testing.compare import compare_images

from tests.book.test_built_html import HTML, built_pages

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

# The build draws every frame of every exploration once (ROBONUM_STATIC=1) and checks each
# drawing as it is encoded (robonum.explore.render: figcheck on the same Agg drawing); the
# page records what was found in data-rn-figcheck.  Read from the built book here, so no frame
# is drawn a second time (issue 29: a cloud that left its window, a title past the frame's
# edge, a clipped curve that looked stable).
EXPLORATION = re.compile(r'<div class="rn-explore" id="([^"]+)"([^>]*)>')
FIGCHECK = re.compile(r'data-rn-figcheck="([^"]*)"')
CHAPTERS = [
    p.relative_to(HTML).as_posix()
    for p in built_pages()
    if 'class="rn-explore"' in p.read_text(encoding="utf-8")
]


def test_the_built_book_has_explorations():
    assert (HTML / "index.html").exists(), f"no built book in {HTML}: run `make book`"
    assert len(CHAPTERS) >= 10, CHAPTERS


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_exploration_frames_show_what_they_draw(chapter):
    found = EXPLORATION.findall((HTML / chapter).read_text(encoding="utf-8"))
    assert found, f"{chapter}: no exploration"
    bad = {}
    for uid, attrs in found:
        checked = FIGCHECK.search(attrs)
        assert checked, (
            f"{chapter}: exploration {uid} was not drawn and checked frame by frame "
            "(build the book with ROBONUM_STATIC=1)"
        )
        problems = json.loads(html.unescape(checked.group(1)))
        if problems:
            bad[uid] = problems
    assert not bad, f"{chapter}: frames whose picture hides what they draw: {bad}"
