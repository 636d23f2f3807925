"""The book's stylesheet paints each message kind in messages' colours, readable in both modes.

The static view's inline style carries :data:`COLOURS` (light); the book's
``_static/robonum.css`` repeats the light note (for pages whose messages are all
notes and carry no kind) and paints all three kinds dark in dark mode.  A colour
changed in one place and not the other would show a kind the page did not mean,
so both are read here, and every text/box pair is held to WCAG AA (4.5:1).
"""

import re
from pathlib import Path

import pytest

from robonum.explore.messages import COLOURS, DARK_COLOURS, KINDS

CSS = (Path(__file__).resolve().parents[2] / "_static" / "robonum.css").read_text(encoding="utf-8")
AA = 4.5  # WCAG 2 AA for body text


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def css_rule(selector_part: str) -> dict:
    """The declarations of the rule whose selector list contains ``selector_part``."""
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", CSS):
        if selector_part in selectors:
            return dict(re.findall(r"([\w-]+)\s*:\s*([^;]+?)\s*;", body))
    raise AssertionError(f"no rule for {selector_part!r} in robonum.css")


@pytest.mark.parametrize("kind", KINDS)
def test_dark_mode_paints_each_kind_in_its_colours(kind):
    rule = css_rule(f"html[data-theme=dark] .bd-article .rn-explore .rn-msg[data-kind={kind}]")
    border, background, text = DARK_COLOURS[kind]
    assert (rule["border-left-color"], rule["background"], rule["color"]) == (
        border,
        background,
        text,
    )


def test_a_message_without_kind_is_the_note_in_both_modes():
    light = css_rule(".bd-article .rn-explore .rn-msg:not([data-kind])")
    assert (light["border-left-color"], light["background"], light["color"]) == COLOURS["note"]
    dark = css_rule("html[data-theme=dark] .bd-article .rn-explore .rn-msg:not([data-kind])")
    assert (dark["border-left-color"], dark["background"], dark["color"]) == DARK_COLOURS["note"]


@pytest.mark.parametrize("palette", [COLOURS, DARK_COLOURS], ids=["light", "dark"])
def test_every_kind_is_readable_and_the_kinds_differ(palette):
    for kind, (_, background, text) in palette.items():
        assert contrast(text, background) >= AA, f"{kind}: {contrast(text, background):.2f}:1"
    assert len({colours[1] for colours in palette.values()}) == len(KINDS)  # three looks
