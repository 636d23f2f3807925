"""Explorations: one definition drives live Jupyter controls and a static HTML view.

See :class:`Exploration`; helpers :func:`new_figure` and :class:`Param`.
A frame's message is a note unless marked :func:`success` or :func:`warning`
(:mod:`.messages`), which the page shows in words and colour.
The environment variable ``ROBONUM_STATIC`` (:func:`static_mode`) picks what
a notebook cell shows: ``1`` for the book build, ``messages`` for nbval.
"""

from .exploration import ENV, Exploration, static_mode
from .figcheck import may_leave
from .messages import Message, combine, note, success, warning
from .params import Param
from .render import message_figure, new_figure

__all__ = [
    "Exploration",
    "Param",
    "new_figure",
    "message_figure",
    "static_mode",
    "ENV",
    "Message",
    "combine",
    "note",
    "success",
    "warning",
    "may_leave",
]
