"""Explorations: one definition drives live Jupyter sliders and a static HTML slider.

See :class:`Exploration`; helpers :func:`new_figure` and :class:`Param`.
"""
from .exploration import Exploration
from .params import Param
from .render import message_figure, new_figure

__all__ = ["Exploration", "Param", "new_figure", "message_figure"]
