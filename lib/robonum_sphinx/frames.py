"""Exploration frames as files, fetched when a reader moves a control.

A notebook stores each exploration's static view (``robonum.explore.html``)
with every frame inline as a ``data:`` URI: the notebook stays one
self-contained file and nbval compares it.  In the built page that made a
chapter 1-1.8 MB, 80 % of it frames a reader who never touches a control
never sees.  When a page is written we move each frame into
``_images/rn-frames/<sha256>.<ext>`` (content-addressed: a frame shared by two
pages or two builds is one file) and put its relative URL where the data URI
was, in the ``<img class="rn-frame">`` (the default frame, which printing
shows) and in the exploration's JSON.  The exploration's own script swaps
``img.src`` to whatever string the JSON holds, so a URL works as a data URI
did -- from a server and from ``file://`` alike (a plain ``<img src>`` load,
no fetch).  ``explore.js`` preloads the frames next to the current values as
soon as the reader reaches an exploration, so a change shows at once.

Also per page with explorations: one skip link per exploration right after
the theme's own skip link (``templates/layout.html``), which focuses the
exploration's first control, and a visible focus ring on every control
(``explore.css``).  And code blocks lose the ``<span>`` wrappers of tokens drawn in
the plain text colour (:func:`plain_code`).  The notebooks' outputs are untouched.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import os
import re
from pathlib import Path

__all__ = ["FRAMES_DIR", "PLAIN_TOKENS", "externalize", "plain_code", "skip_links"]

FRAMES_DIR = "_images/rn-frames"
STATIC = Path(__file__).resolve().parent / "static"
ASSETS = ("robonum-explore.js", "robonum-explore.css")

_URI = re.compile(r"data:image/(png|webp);base64,([A-Za-z0-9+/]+=*)")
_IMG = re.compile(r'(<img class="rn-frame"[^>]*? src=")(data:[^"]+)(")')
_DATA = re.compile(r'(<script type="application/json" class="rn-data">)(.*?)(</script>)', re.S)
_EXPLORE = re.compile(
    r'<div class="rn-explore" id="([^"]+)" data-mode="[^"]*" data-view="static"[^>]*>'
    r'(?:<style>.*?</style>)?(?:<p class="rn-title"><strong>(.*?)</strong></p>)?',
    re.S,
)


# Pygments token classes the book's light and dark code styles draw exactly as the
# code block's own text (names, punctuation, whitespace; tests/lib/test_explore_frames.py
# checks this against the built pygments.css).  Their <span> wrappers are a third of a
# chapter's bytes and change nothing on screen, in a copy or for a screen reader.
PLAIN_TOKENS = ("n", "nn", "nx", "p", "pm", "w")
_PLAIN = re.compile(r'<span class="(?:%s)">([^<]*)</span>' % "|".join(PLAIN_TOKENS))
_CODE = re.compile(r'<div class="highlight"><pre>.*?</pre>', re.S)


def plain_code(body: str) -> str:
    """``body`` with the wrappers of :data:`PLAIN_TOKENS` in code blocks removed (text stays)."""
    return _CODE.sub(lambda m: _PLAIN.sub(r"\1", m.group(0)), body)


def frame_name(uri: str) -> tuple[str, bytes] | None:
    """File name (``<sha256>.<ext>``) and bytes of an image ``data:`` URI, else None."""
    m = _URI.fullmatch(uri)
    if m is None:
        return None
    data = base64.b64decode(m.group(2))
    return f"{hashlib.sha256(data).hexdigest()[:32]}.{m.group(1)}", data


def write_frame(folder: Path, name: str, data: bytes) -> None:
    """Write a frame once; a temporary name and a rename keep a half-written file unseen."""
    target = folder / name
    if target.exists():
        return
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{name}.{os.getpid()}.tmp"
    tmp.write_bytes(data)
    os.replace(tmp, target)


def externalize(body: str, folder: Path, url: str) -> str:
    """``body`` with every exploration frame's data URI replaced by ``url + name``.

    The frames are written into ``folder``.  Only the exploration's frame
    image and its JSON are touched; other markup stays byte for byte.
    """

    def moved(uri: str) -> str:
        found = frame_name(uri)
        if found is None:
            return uri
        write_frame(folder, *found)
        return url + found[0]

    def json_block(m: re.Match) -> str:
        payload = json.loads(m.group(2))
        for frame in payload.get("frames", {}).values():
            frame[0] = moved(frame[0])
        text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
        return m.group(1) + text.replace("</", "<\\/") + m.group(3)

    body = _IMG.sub(lambda m: m.group(1) + moved(m.group(2)) + m.group(3), body)
    return _DATA.sub(json_block, body)


def skip_links(body: str) -> str:
    """A ``<nav>`` of links to each static exploration's first control ('' if none)."""
    items = []
    for n, m in enumerate(_EXPLORE.finditer(body), start=1):
        uid, title = m.group(1), m.group(2) or f"{n}번째"
        items.append(
            f'<li><a href="#{html.escape(uid)}" data-rn-skip="{html.escape(uid)}">'
            f"탐색 그림으로 건너뛰기: {title}</a></li>"
        )
    if not items:
        return ""
    return (
        '<nav class="rn-skip d-print-none" aria-label="탐색 그림 바로 가기">'
        f"<ul>{''.join(items)}</ul></nav>"
    )


def page_context(app, pagename, templatename, context, doctree) -> None:
    """Move the page's frames to files; add the skip links, script and style if it has any."""
    body = context.get("body", "")
    if '<div class="highlight">' in body:
        context["body"] = body = plain_code(body)
    if 'class="rn-explore"' not in body:
        return
    url = context["pathto"](FRAMES_DIR, 1) + "/"
    context["body"] = externalize(body, Path(app.outdir) / FRAMES_DIR, url)
    context["rn_skip_links"] = skip_links(context["body"])
    app.add_css_file(ASSETS[1])
    app.add_js_file(ASSETS[0], loading_method="defer")


def copy_assets(app, exception) -> None:
    """Put the script and the style into ``_static`` (they are not in html_static_path)."""
    if exception is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "_static"
    target.mkdir(parents=True, exist_ok=True)
    for name in ASSETS:
        (target / name).write_bytes((STATIC / name).read_bytes())
