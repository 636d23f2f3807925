"""One definition, two views: live ipywidgets in Jupyter, pre-rendered frames in HTML.

>>> ex = Exploration(draw, [Param.geomgrid("h", 0.01, 1, 7), Param.choice("method", ["euler", "rk4"])])
>>> ex            # in a notebook: live controls with a kernel, static controls in the built book

``draw(**values)`` returns a matplotlib Figure (or ``(Figure, message)``).
In ``"grid"`` mode every combination of values is pre-rendered; in
``"axes"`` mode only the combinations that differ from the defaults in one
parameter are (one control at a time), which keeps many-parameter pages small.

What a notebook cell shows is chosen by the environment variable
``ROBONUM_STATIC`` (see :func:`static_mode`): the book build wants every
frame in ``text/html``; an interactive JupyterLab session wants the widget
at once, with frames drawn on demand.
"""

from __future__ import annotations

import hashlib
import itertools
import os
from collections import OrderedDict

from .. import _validate as check
from ..book.exercise_views import in_kernel
from . import html as static_html
from .live import build_widget
from .params import Param
from .render import FORMATS, render_frame

ENV = "ROBONUM_STATIC"
_STATIC_VALUES = {"": None, "0": None, "1": "full", "full": "full", "messages": "messages"}


def static_mode() -> str | None:
    """``ROBONUM_STATIC``: unset/``0`` -> None, ``1``/``full`` -> "full", ``messages``.

    * ``1`` (book build): ``text/html`` carries every frame.
    * ``messages`` (nbval, tools/run_notebooks.py, which strip or sanitize the
      frame bytes): the same HTML with every frame's message computed but no
      image drawn or encoded (empty data URIs).
    * unset in a kernel (JupyterLab): the widget, drawing frames on demand,
      plus a one-frame preview as ``text/html``.
    """
    value = os.environ.get(ENV, "").strip().lower()
    if value not in _STATIC_VALUES:
        raise ValueError(
            f"{ENV} must be one of {sorted(k for k in _STATIC_VALUES if k)} or unset, got {value!r}"
        )
    return _STATIC_VALUES[value]


class Exploration:
    """Parameters plus a pure drawing function.

    Parameters
    ----------
    func : callable ``func(**values) -> Figure | (Figure, str)``
    params : list of :class:`Param`
    title : str, shown above the controls (Korean is fine)
    mode : ``"grid"`` (every combination) or ``"axes"`` (one parameter at a time)
    max_frames : int, refuse definitions that would pre-render more frames
    size : (width, height) in inches every frame is drawn at.  With ``width``
        CSS pixels this fixes how large a point is on screen: at the default
        5 in / 560 px a 10 pt label is 15.6 px on a desktop and 10 px on a
        390 px phone (where the frame shrinks to the ~358 px column).
    width : CSS pixels the frame is shown at (it shrinks on narrower screens)
    density : image pixels per CSS pixel (2: crisp on high-density screens)
    min_font : points; smaller texts (a legend at 8 pt) are enlarged to this
    image_format : ``"webp"`` (lossless) or ``"png"``
    max_bytes : refuse a static view larger than this (page weight budget)
    cache_size : frames kept in memory for the live view
    """

    def __init__(
        self,
        func,
        params,
        *,
        title: str = "",
        mode: str = "grid",
        max_frames: int = 60,
        size=(5.0, 3.0),
        width: int = 560,
        density: int = 2,
        min_font: float | None = 10.0,
        image_format: str = "webp",
        max_bytes: int = 1_200_000,
        cache_size: int = 512,
    ):
        check.callable_("func", func)
        if not isinstance(params, (list, tuple)):
            raise TypeError(
                f"params must be a non-empty list of Param, got {type(params).__name__}"
            )
        params = list(params)
        if not params or not all(isinstance(p, Param) for p in params):
            raise TypeError("params must be a non-empty list of Param")
        names = [p.name for p in params]
        if len(set(names)) != len(names):
            raise ValueError(f"params must have distinct names, got {names}")
        check.one_of("mode", mode, ("grid", "axes"))
        check.one_of("image_format", image_format, tuple(FORMATS))
        self.func, self.params, self.title, self.mode = func, params, str(title), mode
        self.image_format, self.mime = image_format, FORMATS[image_format]
        self.max_frames = check.integer("max_frames", max_frames, 1, 500)
        if not isinstance(size, (tuple, list)) or len(size) != 2:
            raise ValueError(f"size must be a pair (width, height) in inches, got {size!r}")
        self.size = (
            check.positive("size[0]", size[0], lo=1.0, hi=12.0),
            check.positive("size[1]", size[1], lo=1.0, hi=12.0),
        )
        self.width = check.integer("width", width, 200, 1200)
        self.density = check.integer("density", density, 1, 3)
        self.min_font = None if min_font is None else check.real("min_font", min_font, 6, 24)
        self.max_bytes = check.integer("max_bytes", max_bytes, 10_000)
        self.cache_size = check.integer("cache_size", cache_size, 0)
        self._cache: OrderedDict = OrderedDict()
        n = len(self.keys())
        if n > self.max_frames:
            raise ValueError(
                f"{n} frames exceed max_frames={self.max_frames}: use fewer values, "
                f"mode='axes', or raise max_frames"
            )

    # -- geometry ----------------------------------------------------------
    @property
    def css_size(self) -> tuple[int, int]:
        """(width, height) in CSS pixels, as written on the ``<img>``."""
        return self.width, round(self.width * self.size[1] / self.size[0])

    @property
    def dpi(self) -> float:
        """Image pixels per inch of the figure: ``density`` image pixels per CSS pixel."""
        return self.density * self.width / self.size[0]

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
            keys += [base[:i] + (j,) + base[i + 1 :] for j in r if j != base[i]]
        return keys

    def values_at(self, key) -> dict:
        return {p.name: p.values[j] for p, j in zip(self.params, key)}

    def render(self, **values) -> tuple[bytes, str]:
        """``(image, message)`` for one set of values (missing ones take defaults), cached."""
        unknown = set(values) - set(self.defaults)
        if unknown:
            raise TypeError(
                f"unknown parameter(s) {sorted(unknown)}; expected {list(self.defaults)}"
            )
        full = {**self.defaults, **values}
        cache_key = tuple(full[p.name] for p in self.params)
        if cache_key in self._cache:
            self._cache.move_to_end(cache_key)
            return self._cache[cache_key]
        frame = render_frame(
            self.func, full, self.dpi, self.size, fmt=self.image_format, min_font=self.min_font
        )
        if self.cache_size:
            self._cache[cache_key] = frame
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return frame

    def is_cached(self, **values) -> bool:
        full = {**self.defaults, **values}
        return tuple(full[p.name] for p in self.params) in self._cache

    def clear_cache(self) -> None:
        """Forget rendered frames (e.g. after changing the library the function calls)."""
        self._cache.clear()

    def frames(self, *, encode: bool = True) -> dict:
        """Every pre-rendered frame: index tuple -> (image, message).

        ``encode=False`` runs the function for every frame (messages) but
        draws nothing: images are ``b""`` (what nbval needs, several times faster).
        """
        if encode:
            return {key: self.render(**self.values_at(key)) for key in self.keys()}
        return {
            key: render_frame(
                self.func,
                {**self.defaults, **self.values_at(key)},
                self.dpi,
                self.size,
                encode_image=False,
            )
            for key in self.keys()
        }

    def figure_problems(self) -> dict:
        """Every frame's drawing checked (:func:`.figcheck.problems`): key -> what a reader sees wrong.

        The check runs on the drawing each frame is encoded from (static view:
        size, ``min_font``, dpi), so this costs one :meth:`frames`; frames whose
        function refused their values show only that message and have nothing to
        check.  Only frames with problems are returned.
        """
        return {key: frame.problems for key, frame in self.frames().items() if frame.problems}

    @property
    def uid(self) -> str:
        """Stable id from the definition (no randomness, so saved notebooks don't churn)."""
        spec = repr(
            (self.title, self.mode, [(p.name, p.kind, p.values, p.labels) for p in self.params])
        )
        return "rn-explore-" + hashlib.sha1(spec.encode()).hexdigest()[:10]

    # -- views -------------------------------------------------------------
    def to_html(self, *, encode: bool = True) -> str:
        """The static, kernel-free view: frames + native controls + a little JS.

        ``encode=False``: the same markup with empty images (see :meth:`frames`);
        the byte budget is then not checked (the build checks it).
        """
        html = static_html.build(self, self.frames(encode=encode))
        size = len(html.encode("utf-8"))  # what the page weighs, not the number of characters
        if encode and size > self.max_bytes:
            raise ValueError(
                f"static view is {size} bytes > max_bytes={self.max_bytes}: "
                "lower size/width/density or the number of values"
            )
        return html

    def preview_html(self) -> str:
        """One frame (the defaults) and a note: the cheap ``text/html`` beside a live widget."""
        return static_html.preview(self, self.render())

    def widget(self):
        """The live view (ipywidgets): draws only the frame asked for, caches it."""
        return build_widget(self)

    def __repr__(self):
        ps = ", ".join(f"{p.name}[{len(p.values)}]" for p in self.params)
        return f"Exploration({self.title!r}: {ps}; {len(self.keys())} frames, mode={self.mode})"

    def _repr_mimebundle_(self, include=None, exclude=None):
        mode = static_mode()
        kernel = in_kernel()
        bundle = {}
        if kernel:
            # Also under ROBONUM_STATIC: a JupyterLab that inherited the variable still gets
            # a working widget (it costs one frame); the build and nbval ignore widget views.
            bundle.update(self.widget()._repr_mimebundle_())
        if mode is not None or not kernel:
            bundle["text/html"] = self.to_html(encode=mode != "messages")
        else:
            bundle["text/html"] = self.preview_html()
        bundle["text/plain"] = repr(self)
        return bundle
