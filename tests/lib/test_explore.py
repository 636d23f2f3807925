"""The exploration mechanism: one definition -> static frames and a live widget."""

import importlib.util
import io
import json
import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from robonum.explore import Exploration, Param, new_figure
from robonum.explore import exploration as exploration_module
from robonum.explore.numfmt import human
from robonum.explore.render import _advance, wrap_lines

ROOT = Path(__file__).resolve().parents[2]
SANITIZE = re.findall(
    r"^regex: (.*)$\n^replace: (.*)$",
    (ROOT / "tests" / "nbval_sanitize.cfg").read_text(),
    flags=re.M,
)
CALLS = []


def draw(a, kind):
    CALLS.append((a, kind))
    if a > 2.5:
        raise ValueError("unstable: |R(z)| > 1")
    fig = new_figure(3, 2)
    ax = fig.subplots()
    x = np.linspace(0, 1, 20)
    ax.plot(x, np.sin(a * x) if kind == "sin" else np.cos(a * x), label="curve")
    ax.legend(fontsize=7)
    return fig, ("big a" if a >= 2 else "")


def make(**kw):
    params = [Param.grid("a", 0.0, 3.0, 4), Param.choice("kind", {"sin": "사인", "cos": "코사인"})]
    return Exploration(draw, params, title="시험", **kw)


def static_data(html):
    return json.loads(
        re.search(
            r'<script type="application/json" class="rn-data">(.*?)</script>', html, re.S
        ).group(1)
    )


def sanitize(html):
    for regex, replace in SANITIZE:
        html = re.sub(regex, replace, html)
    return html


@pytest.fixture(autouse=True)
def _interactive_env(monkeypatch):
    """Each test starts outside a kernel with ROBONUM_STATIC unset (make may export it)."""
    monkeypatch.delenv("ROBONUM_STATIC", raising=False)
    monkeypatch.setattr(exploration_module, "in_kernel", lambda: False)
    CALLS.clear()


def test_grid_and_axes_frame_counts():
    assert len(make().keys()) == 4 * 2
    axes = make(mode="axes")
    # defaults plus each other value of each parameter, one at a time
    assert len(axes.keys()) == 1 + (4 - 1) + (2 - 1)
    base = tuple(p.default_index for p in axes.params)
    assert all(sum(i != j for i, j in zip(k, base)) <= 1 for k in axes.keys())


def test_frames_are_webp_at_twice_the_css_size_and_messages_come_through():
    ex = make()
    img_a, msg_a = ex.render(a=0.0, kind="sin")
    img_b, msg_b = ex.render(a=2.0, kind="sin")
    assert img_a[:4] == b"RIFF" and img_a[8:12] == b"WEBP" and img_a != img_b
    assert Image.open(io.BytesIO(img_a)).size == (2 * 560, 2 * 336)
    assert ex.css_size == (560, 336)
    assert msg_a == "" and msg_b == "big a."


def test_png_stays_available():
    img, _ = make(image_format="png", width=300, density=1).render(a=0.0)
    assert img.startswith(b"\x89PNG") and Image.open(io.BytesIO(img)).size == (300, 180)


def test_transparent_figures_get_a_white_ground():
    def clear(a):
        return new_figure(2, 2, facecolor="none")

    img, _ = Exploration(clear, [Param.grid("a", 0, 1, 2)], width=300).render()
    assert Image.open(io.BytesIO(img)).convert("RGB").getpixel((0, 0)) == (255, 255, 255)


def test_small_text_is_enlarged_to_min_font():
    seen = []

    def tiny(a):
        fig = new_figure(3, 2)
        ax = fig.subplots()
        ax.plot([0, 1], [0, a], label="x")
        seen.append((fig, ax.legend(fontsize=6)))
        ax.tick_params(labelsize=6)
        return fig

    Exploration(tiny, [Param.grid("a", 0, 1, 2)], width=300).render()
    fig, legend = seen[0]
    assert legend.get_texts()[0].get_fontsize() == 10
    assert min(t.get_fontsize() for t in fig.axes[0].get_xticklabels()) == 10
    assert tuple(fig.get_size_inches()) == (5.0, 3.0)  # every frame at the exploration's size


def test_error_in_function_becomes_a_message_frame():
    img, msg = make().render(a=3.0)
    assert img[8:12] == b"WEBP"
    assert msg == "unstable: |R(z)| > 1."


def test_long_messages_wrap_inside_the_frame():
    text = "불안정: 증폭 인자가 1보다 큽니다 " * 6 + "x" * 200
    lines = wrap_lines(text, 300, 12)
    assert len(lines) > 3
    assert all(_advance(line, 12) <= 300 for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


def test_warnings_are_summarised_not_flooded():
    def noisy(a):
        for _ in range(50):
            warnings.warn("overflow encountered", RuntimeWarning, stacklevel=2)
        return new_figure(2, 2)

    ex = Exploration(noisy, [Param.grid("a", 0, 1, 2)], width=300)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning escaping render would fail here
        _, msg = ex.render(a=0.0)
    assert msg == "계산 중 수치 경고 50회 (첫 경고: overflow encountered)."


def test_static_html_is_complete_and_deterministic():
    ex = make()
    html = ex.to_html()
    assert html == make().to_html()  # no timestamps or random ids
    data = static_data(html)
    assert sorted(data["frames"]) == sorted(",".join(map(str, k)) for k in ex.keys())
    assert data["frames"]["3,0"][1] == "unstable: |R(z)| > 1."
    assert all(f[0].startswith("data:image/webp;base64,UklGR") for f in data["frames"].values())
    assert data["labels"] == [["0", "1", "2", "3"], ["사인", "코사인"]]
    sliders = re.findall(
        r'<input type="range" class="rn-slider" id="([^"]+)"[^>]* min="0" max="(\d+)"', html
    )
    assert [(sid, int(m)) for sid, m in sliders] == [(f"{ex.uid}-p0", 3)]
    assert re.search(r'<output for="%s-p0">2</output>' % ex.uid, html)
    assert '<img class="rn-frame"' in html and 'width="560" height="336"' in html
    assert 'data-view="static"' in html
    assert "http" not in html.replace("http-equiv", "")  # nothing fetched from anywhere


def test_a_choice_is_a_group_of_radio_buttons():
    ex = make()
    html = ex.to_html()
    group = re.search(
        r'<fieldset class="rn-control rn-choice" id="([^"]+)" data-rn-param="kind">'
        r"<legend>kind</legend>(.*?)</fieldset>",
        html,
    )
    assert group and group.group(1) == f"{ex.uid}-p1"
    radios = re.findall(
        r'<input type="radio" class="rn-radio" name="([^"]+)" id="[^"]+" value="(\d)"'
        r"( checked)?> ([^<]+)</label>",
        group.group(2),
    )
    assert [(n, v, c, t) for n, v, c, t in radios] == [
        (f"{ex.uid}-p1", "0", " checked", "사인"),
        (f"{ex.uid}-p1", "1", "", "코사인"),
    ]
    assert 'type="range"' not in group.group(0)


def test_many_options_become_a_select():
    def pick(k):
        return new_figure(2, 2)

    ex = Exploration(
        pick, [Param.choice("k", list("abcdef"), default="c", label="종류")], width=300
    )
    html = ex.to_html()
    assert '<select class="rn-select" id="%s-p0" data-rn-param="k">' % ex.uid in html
    assert html.count("<option") == 6 and '<option value="2" selected>c</option>' in html
    assert 'type="radio"' not in html
    box = ex.widget()
    assert type(box.controls["k"]).__name__ == "Dropdown"


def test_uid_depends_on_definition():
    other = Exploration(draw, [Param.grid("a", 0.0, 3.0, 5), Param.choice("kind", ["sin", "cos"])])
    assert make().uid != other.uid
    relabelled = Exploration(
        draw,
        [
            Param.grid("a", 0.0, 3.0, 4, fmt="{:.1f}".format),
            Param.choice("kind", {"sin": "사인", "cos": "코사인"}),
        ],
        title="시험",
    )
    assert relabelled.uid != make().uid


def test_live_widget_recomputes_and_caches():
    ex = make()
    box = ex.widget()
    assert CALLS == [(2.0, "sin")]  # only the frame on show was drawn
    first = bytes(box.image.value)
    assert "big a" in box.status.value and box.image.width == "560"
    assert type(box.controls["kind"]).__name__ == "ToggleButtons"
    box.controls["a"].value = 0.0
    assert bytes(box.image.value) != first and box.status.value == ""
    box.controls["a"].value = 3.0
    assert "unstable" in box.status.value and "#fdecea" in box.status.value
    box.controls["a"].value = 2.0  # seen before: shown from the cache, not redrawn
    assert bytes(box.image.value) == first
    assert CALLS == [(2.0, "sin"), (0.0, "sin"), (3.0, "sin")]


def test_live_view_reuses_static_frames():
    ex = make()
    ex.to_html()
    CALLS.clear()
    box = ex.widget()
    for a in (0.0, 1.0, 3.0):
        box.controls["a"].value = a
    box.controls["kind"].value = "cos"
    assert CALLS == []


def test_live_status_escapes_html():
    def bad(a):
        raise ValueError("<b>h</b> too large")

    box = Exploration(bad, [Param.grid("a", 0, 1, 2)], width=300).widget()
    assert "&lt;b&gt;h&lt;/b&gt; too large" in box.status.value


def test_mimebundle_outside_kernel_is_static_only():
    bundle = make()._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    assert 'data-view="static"' in bundle["text/html"]


def test_interactive_kernel_gets_the_widget_after_one_frame(monkeypatch):
    monkeypatch.setattr(exploration_module, "in_kernel", lambda: True)
    bundle = make()._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert 'data-view="preview"' in bundle["text/html"] and "rn-data" not in bundle["text/html"]
    assert CALLS == [(2.0, "sin")]


@pytest.mark.parametrize("value", ["1", "full"])
def test_static_env_gives_every_frame_in_a_kernel(monkeypatch, value):
    monkeypatch.setattr(exploration_module, "in_kernel", lambda: True)
    monkeypatch.setenv("ROBONUM_STATIC", value)
    bundle = make()._repr_mimebundle_()
    assert len(static_data(bundle["text/html"])["frames"]) == 8
    assert "application/vnd.jupyter.widget-view+json" in bundle  # JupyterLab still works


def test_messages_mode_runs_every_frame_and_matches_after_sanitizing(monkeypatch):
    full = make().to_html()
    CALLS.clear()
    monkeypatch.setenv("ROBONUM_STATIC", "messages")
    cheap = make()._repr_mimebundle_()["text/html"]
    assert sorted(CALLS) == sorted((a, k) for a in (0.0, 1.0, 2.0, 3.0) for k in ("sin", "cos"))
    assert static_data(cheap)["frames"]["3,0"] == [
        "data:image/webp;base64,",
        "unstable: |R(z)| > 1.",
        "warning",  # a parameter that cannot be computed
    ]
    assert cheap != full and sanitize(cheap) == sanitize(full)
    spec = importlib.util.spec_from_file_location(
        "run_notebooks", ROOT / "tools" / "run_notebooks.py"
    )
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    stored = [{"data": {"text/html": html}} for html in (full, cheap)]
    for output in stored:
        tool.strip_output(output)
    assert stored[0] == stored[1]


def test_bad_static_env_is_refused(monkeypatch):
    monkeypatch.setenv("ROBONUM_STATIC", "yes please")
    with pytest.raises(ValueError, match="ROBONUM_STATIC"):
        make()._repr_mimebundle_()


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(max_frames=5), "max_frames"),
        (dict(mode="diagonal"), "mode"),
        (dict(width=50), "width"),
        (dict(density=4), "density"),
        (dict(image_format="gif"), "image_format"),
        (dict(size=(40, 3)), "size"),
    ],
)
def test_bad_definitions_are_rejected(kwargs, match):
    with pytest.raises(ValueError, match=match):
        make(**kwargs)


def test_byte_budget_is_enforced():
    with pytest.raises(ValueError, match="max_bytes"):
        make(max_bytes=10_000).to_html()


def test_bad_params():
    with pytest.raises(ValueError, match="default"):
        Param("h", (0.1, 0.2), 0.3)
    with pytest.raises(ValueError, match="identifier"):
        Param("step size", (0.1, 0.2), 0.1)
    with pytest.raises(ValueError, match="n must be an integer in"):
        Param.grid("h", 0, 1, 1)
    with pytest.raises(ValueError, match="lo must be finite and > 0"):
        Param.geomgrid("h", 0, 1, 3)
    with pytest.raises(ValueError, match="default must be in"):
        Param.grid("h", 0, 1, 3, default=2.0)
    with pytest.raises(ValueError, match="distinct"):
        Param.numbers("h", [1, 1.0, 2], default=2)
    with pytest.raises(ValueError, match="labels must be distinct"):
        Param.numbers("h", [1, 2], default=1, fmt=lambda v: "same")
    with pytest.raises(TypeError, match="unknown parameter"):
        make().render(b=1)
    with pytest.raises(TypeError, match="must return a matplotlib Figure"):
        Exploration(lambda a: 1, [Param.grid("a", 0, 1, 2)]).render()


def test_grid_default_is_inserted_not_snapped():
    p = Param.geomgrid("h", 0.05, 3.0, 9, default=0.5)
    assert p.default == 0.5 and p.labels[p.default_index] == "0.5"
    assert len(p.values) == 10 and list(p.values) == sorted(set(p.values))
    on_grid = Param.grid("x", 0, 1, 5, default=0.25)
    assert on_grid.values == (0.0, 0.25, 0.5, 0.75, 1.0) and on_grid.default == 0.25
    live = Param.geomgrid("h", 0.05, 3.0, 9, default=0.5, n_live=40)
    assert 0.5 in live.live_values and set(live.values) <= set(live.live_values)


def test_numbers_are_exactly_the_ones_the_text_names():
    hs = [3, 0.1, 0.25, 0.5, 1, 1.5, 2, 2.5, 2.7, 2.9]
    p = Param.numbers("h", hs, default=0.5, label="간격 h")
    assert p.values == tuple(sorted(float(h) for h in hs)) and p.kind == "number"
    assert p.labels == ("0.1", "0.25", "0.5", "1", "1.5", "2", "2.5", "2.7", "2.9", "3")
    assert p.default_index == 2
    assert Param.numbers("tol", [1e-6, 1e-3], 1e-3, fmt="{:.0e}".format).labels == (
        "1e-06",
        "1e-03",
    )


@pytest.mark.parametrize(
    "value, text",
    [
        (0.5, "0.5"),
        (0.0025, "2.5e-3"),
        (1e4, "1e4"),
        (0.387298, "0.387"),
        (0.3873, "0.3873"),
        (1.79826, "1.8"),
        (100.0, "100"),
        (-2.0, "-2"),
        (1.5e-12, "1.5e-12"),
        (0.1 + 0.2, "0.3"),
        (0.05, "0.05"),
        (12345.0, "1.23e4"),
        (0, "0"),
        ("rk4", "rk4"),
    ],
)
def test_labels_are_written_as_people_write_numbers(value, text):
    assert human(value) == text


def test_labels_gain_digits_only_when_needed():
    p = Param("x", (1.001, 1.002, 1.5), 1.5)
    assert p.labels == ("1.001", "1.002", "1.5")
    g = Param.geomgrid("h", 0.05, 3.0, 9)
    assert g.labels == ("0.05", "0.0834", "0.139", "0.232", "0.387", "0.646", "1.08", "1.8", "3")
