"""How a picture of a position looks, whatever the position: the measures (after
js/widget.css), the colours (`Theme`, `THEMES`), the marks' line styles and badges, and the
writers of SVG elements. `svg.board` draws a position with them.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

# Geometry in SVG user units, after js/widget.css with a card 100 units wide.
CARD_W = 100
CARD_H = 140  # --pw-h: 1.4 widths
GAP = 10  # --pw-gap: 0.1 width
ROW_STEP = 70  # --pw-step: half a card's height
CORNER_R = 9  # border-radius: 0.09 width
FAN_STEP = 30  # the waste fan: 0.3 of a card width, as the widget steps it
LIFT = 11  # a selected card rises 0.08 heights
MARGIN = 28
TOP = 48  # room above the apex for a lifted card, its rings and badges
TABLE_W = 7 * CARD_W + 6 * GAP
VIEW_W = TABLE_W + 2 * MARGIN
LINE = 40  # one line of text under the board
LISTING_STEP = 60  # revealed stock: cards overlap so that each index shows
LISTING_ROW = 12  # revealed stock: cards per row
RING_GAP = 4  # the first ring's distance from the card
RING_STEP = 7  # each further ring's
RING_WIDTH = 4
BADGE_R = 15
STATUS_FONT = 24
STATUS_CHARS = int(TABLE_W / (0.6 * STATUS_FONT))  # a line's characters, at 0.6 em each

FONT = "system-ui, -apple-system, Segoe UI, Roboto, DejaVu Sans, Arial, sans-serif"

RED_SUITS = frozenset("dh")

# Each kind of mark's badge symbol (the selection has none) and ring dashes (None: solid).
BADGES = {"hint": "★", "mistake": "✗", "better": "✓"}
DASHES = {"selected": None, "hint": "14 7", "mistake": None, "better": "3 6"}


@dataclass(frozen=True)
class Theme:
    """The colours of a picture, all opaque "#rrggbb" (so that contrast is what it seems).

    face / edge / ink / red: a card in play (its face, its outline, black and red suits);
    covered_*: the same for a covered card, dimmer; back / back_stripe / back_edge: a card
    back; bubble / bubble_text: the stock's count; pile_edge: an empty pile's dashed outline;
    recycle / blocked: the empty stock's sign when a recycle is open or not; marks: for each
    kind of mark, its ring colour and the colour of the symbol on its badge (None for the
    selection, which has no badge).
    """

    background: str
    text: str
    face: str
    edge: str
    ink: str
    red: str
    covered_face: str
    covered_edge: str
    covered_ink: str
    covered_red: str
    shadow: str
    back: str
    back_stripe: str
    back_edge: str
    bubble: str
    bubble_text: str
    pile_edge: str
    recycle: str
    blocked: str
    marks: Mapping[str, tuple[str, str | None]]


THEMES: dict[str, Theme] = {
    # After the widget under JupyterLab's light theme, with firmer outlines.
    "light": Theme(
        background="#ffffff",
        text="#212121",
        face="#ffffff",
        edge="#616161",
        ink="#000000",
        red="#c62828",
        covered_face="#e8e8e8",
        covered_edge="#808080",
        covered_ink="#424242",
        covered_red="#b02020",
        shadow="#d0d0d0",
        back="#1976d2",
        back_stripe="#64b5f6",
        back_edge="#0d47a1",
        bubble="#bdbdbd",
        bubble_text="#000000",
        pile_edge="#808080",
        recycle="#1565c0",
        blocked="#616161",
        marks={
            "selected": ("#1565c0", None),
            "hint": ("#e65100", "#000000"),
            "mistake": ("#c62828", "#ffffff"),
            "better": ("#2e7d32", "#ffffff"),
        },
    ),
    # After the widget under JupyterLab's dark theme; cards in play are the lighter ones.
    "dark": Theme(
        background="#181818",
        text="#e0e0e0",
        face="#383838",
        edge="#bdbdbd",
        ink="#ffffff",
        red="#ffa09a",
        covered_face="#1a1a1a",
        covered_edge="#8a8a8a",
        covered_ink="#b8b8b8",
        covered_red="#d86b6b",
        shadow="#000000",
        back="#1565c0",
        back_stripe="#42a5f5",
        back_edge="#90caf9",
        bubble="#616161",
        bubble_text="#ffffff",
        pile_edge="#8a8a8a",
        recycle="#64b5f6",
        blocked="#9e9e9e",
        marks={
            "selected": ("#64b5f6", None),
            "hint": ("#ffb74d", "#000000"),
            "mistake": ("#ef5350", "#000000"),
            "better": ("#66bb6a", "#000000"),
        },
    ),
}


# ------------------------------------------------------------------------------ writing SVG
def num(value: float) -> str:
    """A number as SVG text: integers as they are, others with at most two decimals."""
    if isinstance(value, int):
        return str(value)
    written = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if written in ("-0", "") else written


def tag(name: str, attrs: Mapping[str, Any], content: str | None = None) -> str:
    """One element; attribute values may be numbers; `content` is already SVG text."""
    parts = [name]
    for key, value in attrs.items():
        if value is None:
            continue
        written = num(value) if isinstance(value, (int, float)) else str(value)
        parts.append(f'{key}="{html.escape(written)}"')
    opening = " ".join(parts)
    if content is None:
        return f"<{opening}/>"
    return f"<{opening}>{content}</{name}>"


def escape(content: str) -> str:
    """Text content for SVG (XML): &, < and > escaped."""
    return html.escape(content, quote=False)


def text(x: float, y: float, content: str, **attrs: Any) -> str:
    return tag("text", {"x": x, "y": y, **attrs}, escape(content))


def group(attrs: Mapping[str, Any], children: Iterable[str]) -> str:
    return tag("g", attrs, "".join(children))


def translate(x: float, y: float) -> str:
    return f"translate({num(x)} {num(y)})"
