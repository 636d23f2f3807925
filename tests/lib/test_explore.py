"""The exploration mechanism: one definition -> static frames and a live widget."""
import json
import re
import warnings

import numpy as np
import pytest

from robonum.explore import Exploration, Param, new_figure


def draw(a, kind):
    if a > 2.5:
        raise ValueError("unstable: |R(z)| > 1")
    fig = new_figure(3, 2)
    ax = fig.subplots()
    x = np.linspace(0, 1, 20)
    ax.plot(x, np.sin(a * x) if kind == "sin" else np.cos(a * x))
    return fig, ("big a" if a >= 2 else "")


def make(**kw):
    params = [Param.grid("a", 0.0, 3.0, 4), Param.choice("kind", {"sin": "사인", "cos": "코사인"})]
    return Exploration(draw, params, title="시험", **kw)


def test_grid_and_axes_frame_counts():
    assert len(make().keys()) == 4 * 2
    axes = make(mode="axes")
    # defaults plus each other value of each parameter, one at a time
    assert len(axes.keys()) == 1 + (4 - 1) + (2 - 1)
    base = tuple(p.default_index for p in axes.params)
    assert all(sum(i != j for i, j in zip(k, base)) <= 1 for k in axes.keys())


def test_frames_differ_and_messages_come_through():
    ex = make()
    png_a, msg_a = ex.render(a=0.0, kind="sin")
    png_b, msg_b = ex.render(a=2.0, kind="sin")
    assert png_a.startswith(b"\x89PNG") and png_a != png_b
    assert msg_a == "" and msg_b == "big a"


def test_error_in_function_becomes_a_message_frame():
    png, msg = make().render(a=3.0)
    assert png.startswith(b"\x89PNG")
    assert msg == "unstable: |R(z)| > 1"


def test_warnings_are_summarised_not_flooded():
    def noisy(a):
        for _ in range(50):
            warnings.warn("overflow encountered", RuntimeWarning)
        return new_figure(2, 2)
    ex = Exploration(noisy, [Param.grid("a", 0, 1, 2)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning escaping render would fail here
        _, msg = ex.render(a=0.0)
    assert msg == "numerical warning (50x): overflow encountered"


def test_static_html_is_complete_and_deterministic():
    ex = make()
    html = ex.to_html()
    assert html == make().to_html()  # no timestamps or random ids
    data = json.loads(re.search(r'<script type="application/json" class="rn-data">(.*?)</script>',
                                html, re.S).group(1))
    assert sorted(data["frames"]) == sorted(",".join(map(str, k)) for k in ex.keys())
    assert data["frames"]["3,0"][1] == "unstable: |R(z)| > 1"
    assert data["labels"][1] == ["사인", "코사인"]
    sliders = re.findall(r'<input type="range" class="rn-slider" id="([^"]+)" min="0" max="(\d+)"', html)
    assert [int(m) for _, m in sliders] == [3, 1]
    assert all(sid.startswith(ex.uid) for sid, _ in sliders)
    assert "http" not in html.replace("http-equiv", "")  # nothing fetched from anywhere


def test_uid_depends_on_definition():
    other = Exploration(draw, [Param.grid("a", 0.0, 3.0, 5), Param.choice("kind", ["sin", "cos"])])
    assert make().uid != other.uid


def test_live_widget_recomputes():
    box = make().widget()
    first = bytes(box.image.value)           # default a = 2.0
    assert "big a" in box.status.value
    box.controls["a"].value = 0.0
    assert bytes(box.image.value) != first
    assert box.status.value == ""
    box.controls["a"].value = 3.0
    assert "unstable" in box.status.value


def test_mimebundle_outside_kernel_is_static_only():
    bundle = make()._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}


@pytest.mark.parametrize("kwargs, match", [
    (dict(max_frames=5), "max_frames"),
    (dict(mode="diagonal"), "mode"),
    (dict(dpi=5), "dpi"),
])
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
    with pytest.raises(TypeError, match="unknown parameter"):
        make().render(b=1)
    with pytest.raises(TypeError, match="must return a matplotlib Figure"):
        Exploration(lambda a: 1, [Param.grid("a", 0, 1, 2)]).render()


def test_grid_default_snaps_to_a_grid_value():
    p = Param.geomgrid("h", 0.01, 1.0, 5, default=0.09)
    assert p.default == 0.1 and p.default in p.values
