"""A frame's message has a kind (note / success / warning) that the page shows in words and colour."""

import json
import re
import warnings

import pytest

from robonum.explore import Exploration, Param, new_figure
from robonum.explore import exploration as exploration_module
from robonum.explore import html as static_html
from robonum.explore.live import status_html
from robonum.explore.messages import LABELS, Message, combine, kind_of, note, success, warning


@pytest.fixture(autouse=True)
def _outside_kernel(monkeypatch):
    monkeypatch.delenv("ROBONUM_STATIC", raising=False)
    monkeypatch.setattr(exploration_module, "in_kernel", lambda: False)


def payload(html):
    raw = re.search(r'<script type="application/json" class="rn-data">(.*?)</script>', html, re.S)
    return json.loads(raw.group(1))


def explore(draw):
    return Exploration(draw, [Param.numbers("a", [0.0, 1.0, 2.0], default=0.0)], width=300)


def test_a_plain_string_is_a_note_and_kinds_combine_to_the_heaviest():
    assert kind_of("RK4도 끝까지 갔습니다") == "note"
    assert kind_of(success("끝까지 갔습니다")) == "success"
    both = success("RK4는 끝까지 갔습니다", warning("후진 오일러가 발산했습니다"))
    assert kind_of(both) == "warning"
    assert both == "RK4는 끝까지 갔습니다. 후진 오일러가 발산했습니다."
    assert kind_of(note("그림입니다", success("보존됩니다"))) == "success"
    assert kind_of(combine("a", "b")) == "note" and isinstance(combine(), str)
    with pytest.raises(ValueError, match="kind"):
        Message("x", "error")


def test_explorations_with_only_notes_keep_their_old_markup():
    """Pages that never mark a kind store the same HTML as before kinds existed."""

    def draw(a):
        return new_figure(2, 2), ("a가 큽니다" if a > 1 else "")

    html = explore(draw).to_html(encode=False)
    assert "data-kind" not in html and "rn-msg-kind" not in html
    assert '<p class="rn-msg" role="status" aria-live="polite"></p>' in html
    assert f"<style>{static_html._CSS.strip()}</style>" in html
    assert static_html._SHOW_LEGACY in html
    data = payload(html)
    assert "kinds" not in data and all(len(f) == 2 for f in data["frames"].values())


def test_kinds_reach_the_static_view_with_a_word_not_only_a_colour():
    def draw(a):
        fig = new_figure(2, 2)
        if a == 0.0:
            return fig, success("끝까지 갔습니다")
        if a == 1.0:
            return fig, "그림을 보세요"
        raise ValueError("이 값으로는 계산할 수 없습니다")

    html = explore(draw).to_html(encode=False)
    data = payload(html)
    frames = data["frames"]
    assert frames["0"][1:] == ["끝까지 갔습니다.", "success"]
    assert frames["1"][1:] == ["그림을 보세요."]  # a note: the script's default kind
    assert frames["2"][1:] == ["이 값으로는 계산할 수 없습니다.", "warning"]  # a bad parameter
    assert data["kinds"] == LABELS
    assert static_html._SHOW_LEGACY not in html and "data.kinds[kind]" in html
    # the default frame's box is already filled in, label first, for a page without JS
    assert (
        '<p class="rn-msg" data-kind="success" role="status" aria-live="polite">'
        f'<strong class="rn-msg-kind">{LABELS["success"]}</strong>끝까지 갔습니다.</p>'
    ) in html
    for kind in ("note", "success", "warning"):
        assert f"[data-kind={kind}]" in html


def test_numerical_warnings_make_a_message_a_warning():
    def noisy(a):
        warnings.warn("overflow encountered", RuntimeWarning, stacklevel=2)
        return new_figure(2, 2), success("끝까지 갔습니다")

    _, msg = explore(noisy).render()
    assert kind_of(msg) == "warning" and msg.startswith("끝까지 갔습니다. 계산 중 수치 경고 1회")


def test_the_live_widget_says_the_kind_in_words():
    assert status_html("") == ""
    box = status_html(warning("발산했습니다"))
    assert "data-kind='warning'" in box and LABELS["warning"] in box and "#b3261e" in box
    assert LABELS["note"] in status_html("그림을 보세요.")
