"""The live view: ipywidgets controls; the kernel draws the frame asked for.

Frames come from :meth:`Exploration.render`, which caches them by value:
a value seen before (or pre-rendered for the static view in the same
kernel) is shown at once, and building the widget draws only the default
frame, so the first picture appears after one render, not after all.

The frame goes into an ``ipywidgets.Image`` (bytes in the widget state)
rather than an ``Output`` widget, so rendering prints nothing into the cell:
headless runs (nbval, nbclient) see no stray stdout.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from .html import MAX_RADIOS
from .messages import COLOURS, LABELS, kind_of

_STYLE = {"description_width": "initial"}


def _control(p):
    if p.kind == "choice":
        options = list(zip(p.labels, p.values))
        if len(options) > MAX_RADIOS:
            return widgets.Dropdown(
                options=options, value=p.default, description=p.label, style=_STYLE
            )
        return widgets.ToggleButtons(
            options=options, value=p.default, description=p.label, style=_STYLE
        )
    # continuous_update=False: a drag asks for one frame (on release), not one per pixel.
    return widgets.SelectionSlider(
        options=[(p.text(v), v) for v in p.live_values],
        value=p.default,
        description=p.label,
        continuous_update=False,
        style=_STYLE,
        layout=widgets.Layout(width="min(32em, 100%)"),
    )


def status_html(message: str) -> str:
    """The message as a box that wraps and says its kind (empty when there is no message)."""
    if not message:
        return ""
    kind = kind_of(message)
    border, background, text = COLOURS[kind]
    return (
        f"<div role='status' data-kind='{kind}' style='background:{background};color:{text};"
        f"border-left:4px solid {border};padding:.4em .8em;white-space:normal;"
        f"overflow-wrap:anywhere'><b>{LABELS[kind]}</b> {html.escape(message)}</div>"
    )


def build_widget(exploration) -> widgets.VBox:
    """A VBox of controls, the frame and a status line, wired to ``exploration.render``."""
    ex = exploration
    controls = {p.name: _control(p) for p in ex.params}
    # Shown at the CSS width; the bytes carry `density` times as many pixels (crisp).
    image = widgets.Image(
        format=ex.image_format,
        width=ex.css_size[0],
        layout=widgets.Layout(max_width="100%", height="auto"),
    )
    status = widgets.HTML()

    def update(_change=None):
        data, message = ex.render(**{k: c.value for k, c in controls.items()})
        image.value = data
        status.value = status_html(message)

    for c in controls.values():
        c.observe(update, names="value")
    update()
    title = [widgets.HTML(f"<b>{html.escape(ex.title)}</b>")] if ex.title else []
    box = widgets.VBox(title + list(controls.values()) + [image, status])
    box.update = update  # handy for tests; after a library change: ex.clear_cache(), box.update()
    box.controls, box.image, box.status = controls, image, status
    return box
