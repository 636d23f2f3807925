"""The built page's explorations with their frames as files (robonum_sphinx.frames).

The notebook's static view carries every frame inline; the build moves each
one to a content-addressed file and leaves a relative URL in its place.  These
check that on a real exploration's HTML: every frame is written with its own
bytes, the markup around it is unchanged, a second pass changes nothing, and
the skip links point at the explorations of the page.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re

import numpy as np

from robonum.explore import Exploration, Param, new_figure
from robonum_sphinx.frames import externalize, frame_name, skip_links

DATA = re.compile(r'<script type="application/json" class="rn-data">(.*?)</script>', re.S)


def draw(a, kind):
    fig = new_figure(2, 1.5)
    x = np.linspace(0, 1, 8)
    fig.subplots().plot(x, np.sin(a * x) if kind == "s" else np.cos(a * x))
    return fig, "큰 a" if a > 1 else ""


def page(title="시험"):
    params = [Param.grid("a", 0.0, 2.0, 3), Param.choice("kind", {"s": "사인", "c": "코사인"})]
    ex = Exploration(draw, params, title=title)
    return ex, f"<p>앞</p>{ex.to_html()}<p>뒤 data:image/png;base64,AAAA</p>"


def test_every_frame_becomes_a_file_with_its_own_bytes(tmp_path):
    ex, body = page()
    before = json.loads(DATA.search(body).group(1))
    out = externalize(body, tmp_path, "../_images/rn-frames/")
    after = json.loads(DATA.search(out).group(1))
    assert after["frames"].keys() == before["frames"].keys()
    for key, (uri, *rest) in before["frames"].items():
        url, *rest_after = after["frames"][key]
        assert rest_after == rest  # the message stays
        assert url.startswith("../_images/rn-frames/") and url.endswith(".webp")
        written = (tmp_path / url.rsplit("/", 1)[1]).read_bytes()
        assert written == base64.b64decode(uri.split(",", 1)[1])
    assert len(list(tmp_path.iterdir())) == len(set(u for u, *_ in before["frames"].values()))
    default = ",".join(str(p.default_index) for p in ex.params)
    src = re.search(r'<img class="rn-frame"[^>]* src="([^"]+)"', out).group(1)
    assert src == after["frames"][default][0]  # printing shows the default frame
    assert "data:image/webp" not in out
    # Only the exploration's frames move: other text stays byte for byte.
    assert out.startswith("<p>앞</p>") and out.endswith("<p>뒤 data:image/png;base64,AAAA</p>")
    assert DATA.sub("", re.sub(r'src="[^"]+"', "", out)) == DATA.sub(
        "", re.sub(r'src="[^"]+"', "", body)
    )
    assert externalize(out, tmp_path, "../_images/rn-frames/") == out


def test_file_names_are_the_content_hash():
    data = b"\x89PNG\r\n\x1a\n" + bytes(range(40))
    uri = "data:image/png;base64," + base64.b64encode(data).decode()
    name, raw = frame_name(uri)
    assert raw == data and name == hashlib.sha256(data).hexdigest()[:32] + ".png"
    assert frame_name("data:text/plain;base64,QUJD") is None
    assert frame_name("../_images/x.png") is None


def test_one_skip_link_per_exploration_in_page_order():
    first, body1 = page("첫째")
    second, body2 = page("둘째")
    nav = skip_links(body1 + "<p>사이</p>" + body2)
    links = re.findall(r'<a href="#([^"]+)" data-rn-skip="([^"]+)">([^<]+)</a>', nav)
    assert links == [
        (first.uid, first.uid, "탐색 그림으로 건너뛰기: 첫째"),
        (second.uid, second.uid, "탐색 그림으로 건너뛰기: 둘째"),
    ]
    assert first.uid != second.uid
    assert 'aria-label="탐색 그림 바로 가기"' in nav
    assert skip_links("<p>탐색 그림이 없는 쪽</p>") == ""
