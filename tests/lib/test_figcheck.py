"""figcheck: a frame whose data leaves its axes, or whose text leaves the figure, is reported."""

import html
import json
import re

import numpy as np

from robonum.explore import Exploration, Param, may_leave, new_figure
from robonum.explore.figcheck import problems


def axes():
    fig = new_figure(4, 3, layout="constrained")
    return fig, fig.subplots()


def test_a_clean_figure_has_no_problems():
    fig, ax = axes()
    t = np.linspace(0, 1, 50)
    ax.plot(t, np.sin(t), label="sin")
    ax.axhline(0.5, color="k")  # axes-fraction x: where it is drawn, not read as data
    ax.fill_between(t, 0, np.sin(t), alpha=0.2)
    ax.scatter(t[::5], np.sin(t[::5]))
    ax.set_title("short title")
    ax.legend()
    assert problems(fig) == []


def test_data_beyond_the_view_limits_is_reported_unless_marked():
    fig, ax = axes()
    (line,) = ax.plot([0, 1, 2], [0, 1, 50])
    ax.set_ylim(-1, 2)
    assert problems(fig) == ["Line2D in 'axes 0': 1 of 3 points outside the axes"]
    may_leave(line)
    assert problems(fig) == []


def test_points_on_a_log_axis_and_a_cloud_that_left_the_window():
    fig, ax = axes()
    ax.semilogy([1, 2, 3], [1e-3, 1e2, 1e9])
    ax.set_ylim(1e-4, 1e4)
    ax.plot(np.full(10, 2.0), np.geomspace(1e5, 1e6, 10), ".")
    found = problems(fig)
    assert len(found) == 2 and "10 of 10 points" in found[1]


def test_a_title_past_the_figure_edge_is_reported():
    fig, ax = axes()
    ax.set_title("max|det J - 1|, area ratio 0.999998 " * 3)
    assert any("runs past the figure's edge" in p for p in problems(fig))


def test_an_exploration_lists_only_frames_with_problems():
    def draw(top):
        fig, ax = axes()
        ax.plot([0, 1], [0, 5])
        ax.set_ylim(0, top)
        return fig

    ex = Exploration(draw, [Param.numbers("top", [2.0, 10.0], default=10.0)], width=300)
    found = ex.figure_problems()
    assert list(found) == [(0,)] and "outside the axes" in found[(0,)][0]


def test_the_static_view_records_each_frames_check_and_the_messages_mode_does_not(monkeypatch):
    """The build's page says what every frame hides (tests/book/test_figures.py reads it)."""

    def draw(top):
        fig, ax = axes()
        ax.plot([0, 1], [0, 5])
        ax.set_ylim(0, top)
        if top < 0:
            raise ValueError("top must be positive")
        return fig

    ex = Exploration(draw, [Param.numbers("top", [-1.0, 2.0, 10.0], default=10.0)], width=300)
    full = ex.to_html()
    found = json.loads(html.unescape(re.search(r'data-rn-figcheck="([^"]*)"', full).group(1)))
    assert len(found) == 1 and "top = 2" in found[0] and "outside the axes" in found[0]
    assert "data-rn-figcheck" not in ex.to_html(encode=False)  # nothing drawn, nothing checked
