"""One definition, two views: live ipywidgets in Jupyter, pre-rendered frames in HTML.

>>> ex = Exploration(draw, [Param.geomgrid("h", 0.01, 1, 7), Param.choice("method", ["euler", "rk4"])])
>>> ex            # in a notebook: live sliders with a kernel, static slider in the built book

``draw(**values)`` returns a matplotlib Figure (or ``(Figure, message)``).
In ``"grid"`` mode every combination of values is pre-rendered; in
``"axes"`` mode only the combinations that differ from the defaults in one
parameter are (one slider at a time), which keeps many-parameter pages small.
"""
from __future__ import annotations

import hashlib
import itertools

from .. import _validate as check
from . import html as static_html
from .params import Param
from .render import render_frame


class Exploration:
    """Parameters plus a pure drawing function.

    Parameters
    ----------
    func : callable ``func(**values) -> Figure | (Figure, str)``
    params : list of :class:`Param`
    title : str, shown above the controls (Korean is fine)
    mode : ``"grid"`` (every combination) or ``"axes"`` (one parameter at a time)
    max_frames : int, refuse definitions that would pre-render more frames
    dpi, size : resolution and size (inches) of each frame
    max_bytes : refuse a static view larger than this (page weight budget)
    """

    def __init__(self, func, params, *, title: str = "", mode: str = "grid",
                 max_frames: int = 60, dpi: int = 72, size=(6.4, 3.6),
                 max_bytes: int = 1_500_000):
        check.callable_("func", func)
        params = list(params)
        if not params or not all(isinstance(p, Param) for p in params):
            raise TypeError("params must be a non-empty list of Param")
        names = [p.name for p in params]
        if len(set(names)) != len(names):
            raise ValueError(f"params must have distinct names, got {names}")
        check.one_of("mode", mode, ("grid", "axes"))
        self.func, self.params, self.title, self.mode = func, params, str(title), mode
        self.max_frames = check.integer("max_frames", max_frames, 1, 500)
        self.dpi = check.integer("dpi", dpi, 30, 200)
        self.size = (check.positive("size[0]", size[0]), check.positive("size[1]", size[1]))
        self.max_bytes = check.integer("max_bytes", max_bytes, 10_000)
        n = len(self.keys())
        if n > self.max_frames:
            raise ValueError(f"{n} frames exceed max_frames={self.max_frames}: use fewer values, "
                             f"mode='axes', or raise max_frames")

    # -- frames ------------------------------------------------------------
    @property
    def defaults(self) -> dict:
        return {p.name: p.default for p in self.params}

    def keys(self) -> list[tuple[int, ...]]:
        """Index tuples of the frames the static view pre-renders."""
        ranges = [range(len(p.values)) for p in self.params]
        if self.mode == "grid":
            return list(itertools.product(*ranges))
        base = tuple(p.default_index for p in self.params)
        keys = [base]
        for i, r in enumerate(ranges):
            keys += [base[:i] + (j,) + base[i + 1:] for j in r if j != base[i]]
        return keys

    def values_at(self, key) -> dict:
        return {p.name: p.values[j] for p, j in zip(self.params, key)}

    def render(self, **values) -> tuple[bytes, str]:
        """``(png, message)`` for one set of values (missing ones take defaults)."""
        unknown = set(values) - set(self.defaults)
        if unknown:
            raise TypeError(f"unknown parameter(s) {sorted(unknown)}; expected {list(self.defaults)}")
        return render_frame(self.func, {**self.defaults, **values}, self.dpi, self.size)

    def frames(self) -> dict:
        """Every pre-rendered frame: index tuple -> (png, message)."""
        return {key: self.render(**self.values_at(key)) for key in self.keys()}

    @property
    def uid(self) -> str:
        """Stable id from the definition (no randomness, so saved notebooks don't churn)."""
        spec = repr((self.title, self.mode, [(p.name, p.values) for p in self.params]))
        return "rn-explore-" + hashlib.sha1(spec.encode()).hexdigest()[:10]

    # -- views -------------------------------------------------------------
    def to_html(self) -> str:
        """The static, kernel-free view: frames + native range inputs + a little JS."""
        html = static_html.build(self, self.frames())
        if len(html) > self.max_bytes:
            raise ValueError(f"static view is {len(html)} bytes > max_bytes={self.max_bytes}: "
                             "lower dpi/size or the number of values")
        return html

    def widget(self):
        """The live view (ipywidgets): recomputes on every move."""
        from .live import build_widget
        return build_widget(self)

    def __repr__(self):
        ps = ", ".join(f"{p.name}[{len(p.values)}]" for p in self.params)
        return f"Exploration({self.title!r}: {ps}; {len(self.keys())} frames, mode={self.mode})"

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = {"text/plain": repr(self), "text/html": self.to_html()}
        if _in_kernel():
            bundle.update(self.widget()._repr_mimebundle_())
            bundle["text/plain"] = repr(self)
        return bundle


def _in_kernel() -> bool:
    """True inside a Jupyter kernel (where widgets can talk to a frontend)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    ip = get_ipython()
    return ip is not None and getattr(ip, "kernel", None) is not None
