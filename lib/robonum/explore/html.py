"""The static view: pre-rendered PNG frames switched by native ``<input type=range>``.

It needs no kernel, no network and no library: the frames are inline
``data:`` URIs, the controls are plain HTML (keyboard-operable, with
``aria-valuetext``), and ~20 lines of inline JavaScript swap the frame.
Everything is derived from the exploration's definition, so the markup is
identical on every build (no timestamps, no random ids).
"""
from __future__ import annotations

import base64
import html
import json

_SCRIPT = """
(function () {
  var root = document.getElementById(%(uid)s);
  if (!root || root.getAttribute("data-ready")) return;
  root.setAttribute("data-ready", "1");
  var data = JSON.parse(root.querySelector("script.rn-data").textContent);
  var inputs = Array.prototype.slice.call(root.querySelectorAll("input.rn-slider"));
  var img = root.querySelector("img.rn-frame"), msg = root.querySelector(".rn-msg");
  function key() { return inputs.map(function (i) { return i.value; }).join(","); }
  function show(changed) {
    if (!(key() in data.frames)) {  /* one-at-a-time mode: others back to default */
      inputs.forEach(function (inp, i) { if (inp !== changed) inp.value = data.defaults[i]; });
    }
    inputs.forEach(function (inp, i) {
      var text = data.labels[i][+inp.value];
      inp.setAttribute("aria-valuetext", text);
      root.querySelector("output[for='" + inp.id + "']").textContent = text;
    });
    var frame = data.frames[key()];
    img.src = frame[0];
    img.setAttribute("data-key", key());
    msg.textContent = frame[1];
  }
  inputs.forEach(function (inp) { inp.addEventListener("input", function () { show(inp); }); });
  show(null);
})();
"""


def data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _control(uid: str, i: int, p) -> str:
    sid = f"{uid}-p{i}"
    label = html.escape(p.label)
    text = html.escape(p.labels[p.default_index])
    return (f'<div class="rn-control"><label for="{sid}">{label}</label> '
            f'<input type="range" class="rn-slider" id="{sid}" min="0" max="{len(p.values) - 1}" '
            f'step="1" value="{p.default_index}" aria-valuetext="{text}"> '
            f'<output for="{sid}">{text}</output></div>')


def build(exploration, frames: dict) -> str:
    """HTML for ``exploration`` given its rendered ``frames`` (key -> (png, message))."""
    ex, uid = exploration, exploration.uid
    default_key = tuple(p.default_index for p in ex.params)
    payload = {
        "frames": {",".join(map(str, k)): [data_uri(png), msg] for k, (png, msg) in frames.items()},
        "defaults": list(default_key),
        "labels": [list(p.labels) for p in ex.params],
    }
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    png, msg = frames[default_key]
    title = f'<p class="rn-title"><strong>{html.escape(ex.title)}</strong></p>' if ex.title else ""
    hint = ("한 번에 한 매개변수만 바꿀 수 있습니다(나머지는 기본값)." if ex.mode == "axes" else "")
    controls = "".join(_control(uid, i, p) for i, p in enumerate(ex.params))
    return (
        f'<div class="rn-explore" id="{uid}" data-mode="{ex.mode}">{title}'
        f'<div class="rn-controls">{controls}</div>'
        f'<img class="rn-frame" alt="{html.escape(ex.title or "exploration")}" '
        f'src="{data_uri(png)}" style="max-width:100%">'
        f'<p class="rn-msg" role="status" aria-live="polite">{html.escape(msg)}</p>'
        + (f'<p class="rn-hint"><small>{hint}</small></p>' if hint else "")
        + f'<script type="application/json" class="rn-data">{data}</script>'
        f'<script>{_SCRIPT % {"uid": json.dumps(uid)}}</script></div>'
    )
