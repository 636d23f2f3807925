"""The static view: pre-rendered frames switched by native form controls.

It needs no kernel, no network and no library: the frames are inline
``data:`` URIs; a number is an ``<input type=range>`` with its value in an
``<output>`` (and ``aria-valuetext``), a choice is a ``<fieldset>`` of radio
buttons (a ``<select>`` beyond :data:`MAX_RADIOS` options), so the keyboard
works as on any form; ~30 lines of inline JavaScript swap the frame.
Everything is derived from the exploration's definition, so the markup is
identical on every build (no timestamps, no random ids).
"""

from __future__ import annotations

import base64
import html
import json

from .messages import COLOURS, DEFAULT, LABELS, kind_of

MAX_RADIOS = 5  # more options than this become a drop-down list

_CSS = """
.rn-explore{max-width:100%;margin:1em 0;overflow-wrap:anywhere}
.rn-explore .rn-controls{display:flex;flex-direction:column;gap:.45em;margin:.3em 0 .7em}
.rn-explore .rn-control{display:flex;flex-wrap:wrap;align-items:center;gap:.2em .7em;min-width:0;max-width:100%;margin:0;padding:0;border:0}
.rn-explore .rn-control>legend,.rn-explore .rn-control>label:first-child{float:left;width:auto;margin:0;padding:0;font-size:inherit;line-height:inherit;font-weight:600;white-space:nowrap}
.rn-explore .rn-number{flex-wrap:nowrap}
.rn-explore input[type=range]{flex:1 1 auto;min-width:6em;max-width:24em;margin:0}
.rn-explore output{flex:none;min-width:3.5em;font-weight:600;font-variant-numeric:tabular-nums}
.rn-explore .rn-choice label{white-space:nowrap;cursor:pointer}
.rn-explore select{max-width:100%}
.rn-explore img.rn-frame{display:block;max-width:100%;height:auto}
.rn-explore .rn-msg{margin:.5em 0;padding:.5em .8em;border-left:.3em solid #b3261e;border-radius:.2em;background:#fdecea;color:#8c1d18;white-space:normal;word-break:break-word;overflow-wrap:anywhere}
.rn-explore .rn-msg:empty{margin:0;padding:0;border:0}
"""

# Added only when some frame is not a plain note, so that a page whose messages are all
# notes keeps the markup it always had (its stored outputs do not change).  The kind is a
# word and a sign in the box as well as a colour.
_KIND_CSS = "".join(
    f".rn-explore .rn-msg[data-kind={kind}]{{border-left-color:{border};background:{bg};color:{fg}}}"
    for kind, (border, bg, fg) in COLOURS.items()
) + (
    ".rn-explore .rn-msg-kind{font-weight:700;margin-right:.4em;white-space:nowrap}"
    ".rn-explore .rn-msg[data-kind]:empty{border:0}"
)

_SCRIPT = """
(function () {
  var root = document.getElementById(%(uid)s);
  if (!root || root.getAttribute("data-ready")) return;
  root.setAttribute("data-ready", "1");
  var data = JSON.parse(root.querySelector("script.rn-data").textContent);
  var ctrls = Array.prototype.slice.call(root.querySelectorAll("[data-rn-param]"));
  var img = root.querySelector("img.rn-frame"), msg = root.querySelector(".rn-msg");
  function get(c) {  /* index of the value a control shows */
    if (c.tagName !== "FIELDSET") return +c.value;
    var on = c.querySelector("input:checked");
    return on ? +on.value : 0;
  }
  function set(c, j) {
    if (c.tagName === "FIELDSET") c.querySelector("input[value='" + j + "']").checked = true;
    else c.value = j;
  }
  function key() { return ctrls.map(get).join(","); }
  function show(changed) {
    if (!(key() in data.frames)) {  /* one-at-a-time mode: the others back to default */
      ctrls.forEach(function (c, i) { if (c !== changed) set(c, data.defaults[i]); });
    }
    var texts = ctrls.map(function (c, i) { return data.labels[i][get(c)]; });
    ctrls.forEach(function (c, i) {
      if (c.type !== "range") return;
      c.setAttribute("aria-valuetext", texts[i]);
      root.querySelector("output[for='" + c.id + "']").textContent = texts[i];
    });
    var k = key(), frame = data.frames[k];
    img.src = frame[0];
    img.setAttribute("data-key", k);
    img.alt = data.alt + " (" + texts.map(function (t, i) { return data.names[i] + " = " + t; }).join(", ") + ")";
    msg.textContent = frame[1];
  }
  ctrls.forEach(function (c) {
    c.addEventListener("input", function () { show(c); });
    c.addEventListener("change", function () { show(c); });
  });
  show(null);
})();
"""

_SHOW_LEGACY = "msg.textContent = frame[1];"
# The kind-aware line: a frame is [image, text, kind]; an empty text leaves the box empty.
_SHOW_KIND = (
    "var kind = frame[2] || %(default)s; msg.setAttribute('data-kind', kind);"
    " msg.innerHTML = ''; if (frame[1]) { var b = document.createElement('strong');"
    " b.className = 'rn-msg-kind'; b.textContent = data.kinds[kind];"
    " msg.appendChild(b); msg.appendChild(document.createTextNode(frame[1])); }"
)


def data_uri(data: bytes, mime: str | None = None) -> str:
    """``data:`` URI of an image; the type is read from the bytes when not given."""
    if mime is None:
        mime = "image/webp" if data[8:12] == b"WEBP" else "image/png"
    return f"data:{mime};base64," + base64.b64encode(data).decode("ascii")


def _number(sid: str, p) -> str:
    text = html.escape(p.labels[p.default_index])
    return (
        f'<div class="rn-control rn-number"><label for="{sid}">{html.escape(p.label)}</label>'
        f'<input type="range" class="rn-slider" id="{sid}" data-rn-param="{p.name}" min="0" '
        f'max="{len(p.values) - 1}" step="1" value="{p.default_index}" aria-valuetext="{text}">'
        f'<output for="{sid}">{text}</output></div>'
    )


def _radios(sid: str, p) -> str:
    options = "".join(
        f'<label><input type="radio" class="rn-radio" name="{sid}" id="{sid}-{j}" value="{j}"'
        + (" checked" if j == p.default_index else "")
        + f"> {html.escape(text)}</label>"
        for j, text in enumerate(p.labels)
    )
    return (
        f'<fieldset class="rn-control rn-choice" id="{sid}" data-rn-param="{p.name}">'
        f"<legend>{html.escape(p.label)}</legend>{options}</fieldset>"
    )


def _select(sid: str, p) -> str:
    options = "".join(
        f'<option value="{j}"'
        + (" selected" if j == p.default_index else "")
        + f">{html.escape(text)}</option>"
        for j, text in enumerate(p.labels)
    )
    return (
        f'<div class="rn-control rn-choice"><label for="{sid}">{html.escape(p.label)}</label>'
        f'<select class="rn-select" id="{sid}" data-rn-param="{p.name}">{options}</select></div>'
    )


def control(uid: str, i: int, p) -> str:
    sid = f"{uid}-p{i}"
    if p.kind == "number":
        return _number(sid, p)
    return _radios(sid, p) if len(p.values) <= MAX_RADIOS else _select(sid, p)


def _alt(ex, key) -> str:
    """Alt text naming the frame's values (the script keeps it in step)."""
    shown = ", ".join(f"{p.label} = {p.labels[j]}" for p, j in zip(ex.params, key))
    return f"{ex.title or 'exploration'} ({shown})"


def _img(ex, uri: str, key) -> str:
    width, height = ex.css_size
    return (
        f'<img class="rn-frame" alt="{html.escape(_alt(ex, key))}" src="{uri}" '
        f'width="{width}" height="{height}" data-key="{",".join(map(str, key))}">'
    )


def _title(ex) -> str:
    return f'<p class="rn-title"><strong>{html.escape(ex.title)}</strong></p>' if ex.title else ""


def message_html(msg: str, kinds: bool, attrs: str = "") -> str:
    """The message box; with ``kinds`` it says its kind in words (see :mod:`.messages`)."""
    if not kinds:
        return f'<p class="rn-msg"{attrs}>{html.escape(msg)}</p>'
    kind = kind_of(msg)
    label = f'<strong class="rn-msg-kind">{LABELS[kind]}</strong>' if msg else ""
    return f'<p class="rn-msg" data-kind="{kind}"{attrs}>{label}{html.escape(msg)}</p>'


def uses_kinds(messages) -> bool:
    """Whether any message is more than a note (else the markup stays as it always was)."""
    return any(kind_of(m) != DEFAULT for m in messages)


def figcheck_attr(ex, frames: dict) -> str:
    """``data-rn-figcheck``: each drawn frame's :func:`.figcheck.problems`, by the values shown.

    Written only when every frame was drawn and checked (the full static view):
    the built book then says of every exploration what its frames hide, and
    ``tests/book/test_figures.py`` reads it instead of drawing them all again.
    """
    if any(getattr(frame, "problems", None) is None for frame in frames.values()):
        return ""
    found = [f"{_alt(ex, key)}: {p}" for key, frame in frames.items() for p in frame.problems]
    return f' data-rn-figcheck="{html.escape(json.dumps(found, ensure_ascii=False))}"'


def build(exploration, frames: dict) -> str:
    """HTML for ``exploration`` given its rendered ``frames`` (key -> (image, message))."""
    ex, uid, mime = exploration, exploration.uid, exploration.mime
    default_key = tuple(p.default_index for p in ex.params)
    kinds = uses_kinds(msg for _, msg in frames.values())
    payload = {
        "frames": {
            ",".join(map(str, k)): [data_uri(img, mime), msg]
            + ([kind_of(msg)] if kinds and kind_of(msg) != DEFAULT else [])
            for k, (img, msg) in frames.items()
        },
        "defaults": list(default_key),
        "labels": [list(p.labels) for p in ex.params],
        "names": [p.label for p in ex.params],
        "alt": ex.title or "exploration",
    }
    script = _SCRIPT
    if kinds:
        payload["kinds"] = LABELS
        script = script.replace(_SHOW_LEGACY, _SHOW_KIND % {"default": json.dumps(DEFAULT)})
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    img, msg = frames[default_key]
    hint = "한 번에 한 매개변수만 바꿀 수 있습니다(나머지는 기본값)." if ex.mode == "axes" else ""
    controls = "".join(control(uid, i, p) for i, p in enumerate(ex.params))
    css = _CSS.strip() + (_KIND_CSS.strip() if kinds else "")
    return (
        f'<div class="rn-explore" id="{uid}" data-mode="{ex.mode}" data-view="static"'
        f"{figcheck_attr(ex, frames)}>"
        f"<style>{css}</style>{_title(ex)}"
        f'<div class="rn-controls">{controls}</div>'
        + _img(ex, data_uri(img, mime), default_key)
        + message_html(msg, kinds, ' role="status" aria-live="polite"')
        + (f'<p class="rn-hint"><small>{hint}</small></p>' if hint else "")
        + f'<script type="application/json" class="rn-data">{data}</script>'
        f"<script>{script % {'uid': json.dumps(uid)}}</script></div>"
    )


def preview(exploration, frame: tuple[bytes, str]) -> str:
    """A one-frame stand-in, saved with a notebook run interactively (the widget is the view)."""
    ex = exploration
    key = tuple(p.default_index for p in ex.params)
    note = (
        "미리 보기: 기본값의 그림 한 장만 담았습니다. 값을 바꾸려면 커널에서 실행하세요"
        "(책 빌드는 ROBONUM_STATIC=1로 모든 그림을 미리 그립니다)."
    )
    kinds = uses_kinds([frame[1]])
    css = _CSS.strip() + (_KIND_CSS.strip() if kinds else "")
    return (
        f'<div class="rn-explore" id="{ex.uid}" data-mode="{ex.mode}" data-view="preview">'
        f"<style>{css}</style>{_title(ex)}"
        + _img(ex, data_uri(frame[0], ex.mime), key)
        + message_html(frame[1], kinds, ' role="status"')
        + f'<p class="rn-hint"><small>{note}</small></p></div>'
    )
