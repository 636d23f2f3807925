"""Explorations: one definition drives live Jupyter controls and a static HTML view.

See :class:`Exploration`; helpers :func:`new_figure` and :class:`Param`.
The environment variable ``ROBONUM_STATIC`` (:func:`static_mode`) picks what
a notebook cell shows: ``1`` for the book build, ``messages`` for nbval.
"""

from .exploration import ENV, Exploration, static_mode
from .params import Param
from .render import message_figure, new_figure

__all__ = ["Exploration", "Param", "new_figure", "message_figure", "static_mode", "ENV"]
