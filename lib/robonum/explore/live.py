"""The live view: ipywidgets controls; a kernel re-renders the frame on every move.

The frame goes into an ``ipywidgets.Image`` (bytes in the widget state)
rather than an ``Output`` widget, so rendering prints nothing into the cell:
headless runs (nbval, nbclient) see no stray stdout.
"""
from __future__ import annotations

import ipywidgets as widgets


def _control(p):
    options = [(p.text(v), v) for v in p.live_values]
    style = {"description_width": "initial"}
    if all(isinstance(v, str) for v in p.values):
        return widgets.ToggleButtons(options=options, value=p.default, description=p.label, style=style)
    return widgets.SelectionSlider(options=options, value=p.default, description=p.label,
                                   continuous_update=False, style=style,
                                   layout=widgets.Layout(width="32em"))


def build_widget(exploration) -> widgets.VBox:
    """A VBox of controls, the frame and a status line, wired to ``exploration.render``."""
    controls = {p.name: _control(p) for p in exploration.params}
    # Show frames at their own pixel size, as the static page does (no blurry upscaling).
    image = widgets.Image(format="png", width=int(exploration.size[0] * exploration.dpi))
    status = widgets.HTML()

    def update(_change=None):
        png, message = exploration.render(**{k: c.value for k, c in controls.items()})
        image.value = png
        status.value = f"<span style='color:#a00000'>{message}</span>" if message else ""

    for c in controls.values():
        c.observe(update, names="value")
    update()
    title = [widgets.HTML(f"<b>{exploration.title}</b>")] if exploration.title else []
    box = widgets.VBox(title + list(controls.values()) + [image, status])
    box.update = update  # handy for tests and for re-drawing after a library change
    box.controls, box.image, box.status = controls, image, status
    return box
