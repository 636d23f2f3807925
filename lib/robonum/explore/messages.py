"""What a frame's message *is*: a note, good news, or a warning.

A frame's message used to be one kind of box (red, like an error), so "RK4도
끝까지 갔습니다" looked like a failure.  A :class:`Message` is a ``str`` (every
page that returns a plain string keeps working: a plain string is a note)
that also carries a kind:

* ``note`` -- narration, what the picture shows (the default);
* ``success`` -- the run did what was hoped (a method stayed stable, an
  invariant held);
* ``warning`` -- the frame shows a failure: a blow-up, a lost invariant, a
  parameter that cannot be computed.

Each kind has a word and a sign as well as a colour, so it reads without
colour too (:data:`LABELS`).  Join parts with :func:`note`, :func:`success`,
:func:`warning` (like :func:`robonum.book.sentences`); a part that is itself a
warning keeps the whole message a warning (:func:`combine`).
"""

from __future__ import annotations

from ..book.ko import sentences

KINDS = ("note", "success", "warning")  # in order of weight: combine() keeps the heaviest
DEFAULT = "note"
# What the box says before the text (screen readers read it; colour is not the only cue).
LABELS = {"note": "ℹ 참고", "success": "✓ 확인", "warning": "⚠ 주의"}
# (border, background, text) colours per kind, for the static view and the live widget alike.
COLOURS = {
    "note": ("#5f6b7a", "#f2f4f7", "#2b3440"),
    "success": ("#2e7d32", "#edf7ee", "#1b5e20"),
    "warning": ("#b3261e", "#fdecea", "#8c1d18"),
}
# The same in the book's dark mode (_static/robonum.css paints them over the light inline
# style): dark boxes with light text, each text at least 10:1 on its box.
DARK_COLOURS = {
    "note": ("#9aa7b8", "#1e242c", "#dde3ea"),
    "success": ("#5cb860", "#14261a", "#b6e0b8"),
    "warning": ("#ef6b60", "#2e1715", "#f6c1bb"),
}


class Message(str):
    """A message with a ``kind`` (one of :data:`KINDS`); equal to its text as a ``str``."""

    __slots__ = ("kind",)

    def __new__(cls, text: str = "", kind: str = DEFAULT):
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
        obj = super().__new__(cls, text)
        obj.kind = kind
        return obj

    def __repr__(self):
        return f"Message({str(self)!r}, kind={self.kind!r})"


def kind_of(message) -> str:
    """The kind of a message; a plain ``str`` is a note."""
    return getattr(message, "kind", DEFAULT)


def combine(*parts, kind: str = DEFAULT) -> Message:
    """The parts as one paragraph (:func:`sentences`) of the heaviest kind among ``kind`` and theirs."""
    kinds = [kind] + [kind_of(p) for p in parts]
    heaviest = max(kinds, key=KINDS.index)
    return Message(sentences(*(str(p) for p in parts)), heaviest)


def note(*parts) -> Message:
    """Narration: what the frame shows."""
    return combine(*parts, kind="note")


def success(*parts) -> Message:
    """Good news: the run did what was hoped (a warning among the parts still wins)."""
    return combine(*parts, kind="success")


def warning(*parts) -> Message:
    """The frame shows a failure, a blow-up or a parameter that cannot be computed."""
    return combine(*parts, kind="warning")
