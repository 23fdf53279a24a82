"""Pictures of positions: `board(game)` draws a game as SVG that looks like the widget's board.

As python-chess's `chess.svg`: an SVG string (an `SvgImage`, which a notebook shows as a picture)
for lessons, exports, reviews and wherever the live widget cannot run (an HTML or PDF export, a
code host's notebook view). The shapes follow js/widget.css. A card is drawn face up only if the
player has seen it (`Game.seen`), unless `reveal=True` asks for a teacher's answer sheet. Marks
can be told apart without colour, both themes meet WCAG AA contrast (tests/test_svg.py measures
it), and the same position and options always give the same bytes. The measures, colours and
SVG writers it draws with are in svg_look.py.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import words
from .cards import PYRAMID_SIZE, RANKS, SUIT_SYMBOLS, Card, row_col
from .svg_look import (
    BADGE_R,
    BADGES,
    CARD_H,
    CARD_W,
    CORNER_R,
    DASHES,
    FAN_STEP,
    FONT,
    GAP,
    LIFT,
    LINE,
    LISTING_ROW,
    LISTING_STEP,
    MARGIN,
    RED_SUITS,
    RING_GAP,
    RING_STEP,
    RING_WIDTH,
    ROW_STEP,
    STATUS_CHARS,
    STATUS_FONT,
    THEMES,
    TOP,
    VIEW_W,
    Theme,
    escape,
    group,
    num,
    tag,
    text,
    translate,
)

if TYPE_CHECKING:
    from .game import Game, Move
    from .solver import Hint

MARK_KINDS: tuple[str, ...] = ("selected", "hint", "mistake", "better")
"""The kinds of mark, in the order their rings go out from a card, each in its own line style
and all but the selection with a badge on the card's top edge: "selected" (a solid ring, the
card lifted as the widget lifts it), "hint" (dashed, ★), "mistake" (solid, ✗), "better"
(dotted, ✓). A legend line under the board says what each marks."""

STOCK = "stock"
"""The key that marks the stock pile itself in `marks` (a draw or a recycle marks it too)."""

WASTE_FAN = 3
"""How many waste cards are drawn, top included: the one number the widget's view uses too."""

DEFAULT_WIDTH = 480
"""The picture's width in pixels when no `size` is given (cards about 60 px wide)."""


class SvgImage(str):
    """An SVG document as a `str`, which Jupyter displays as the picture, with its `title` and
    `description` in words (what a screen reader reads)."""

    title: str = ""
    description: str = ""

    def _repr_svg_(self) -> str:
        return str(self)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        """The picture as SVG and as HTML: `as_img()`, whose alt text is the picture's words.
        Where both can show (JupyterLab, Notebook 7, nbconvert's HTML export) the HTML does, so
        no host writes the picture as an `<img>` of its own with no alt text, as nbconvert
        does with SVG."""
        return {"image/svg+xml": str(self), "text/html": self.as_img()}

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """As plain text (a terminal, a notebook's text/plain): the title, not the SVG."""
        printer.text(self.title)

    def as_img(self) -> str:
        """The picture as an `<img>` (which HTML sanitizers let through), its words as alt text."""
        source = "data:image/svg+xml;base64," + base64.b64encode(self.encode()).decode()
        alt = html.escape(f"{self.title}. {self.description}")
        return f'<img alt="{alt}" src="{source}">'


# ------------------------------------------------------------------------------ the picture
@dataclass
class _Spot:
    """Where a marked thing is drawn: a card face up in the picture, or the stock pile."""

    x: float
    y: float
    label: str
    kinds: list[str] = field(default_factory=list)


def board(
    game: Game,
    *,
    size: float | None = None,
    theme: str | Theme = "light",
    selected: Card | str | None = None,
    hint: Move | str | Hint | None = None,
    mistake: Move | str | None = None,
    better: Move | str | None = None,
    marks: Mapping[Card | str, str | Iterable[str]] | None = None,
    reveal: bool = False,
    legend: bool = True,
) -> SvgImage:
    """The position of `game` as an SVG picture (a `str`; a notebook shows it).

    size: the width in pixels (the height follows); `DEFAULT_WIDTH` when None.
    theme: "light", "dark" (see `THEMES`) or a `Theme` of your own (then contrast is yours).
    selected: a card in the picture to show selected (a `Card` or "5h").
    hint, mistake, better: moves to mark: a `Move`, its notation ("5h+8c", "Kh", "draw",
        "recycle"), or for `hint` a solver `Hint` (its move). A draw or recycle marks the stock.
    marks: more marks, {card: kind or kinds}, kinds from `MARK_KINDS`; the key `STOCK`
        ("stock") marks the stock pile.
    reveal: also show every card of the stock face up, in order (a teacher's answer sheet);
        off by default, when no unseen card is ever shown.
    legend: a line under the board for each kind of mark used, saying what it marks.

    Every marked card must be face up in the picture (a card in play, a covered pyramid card, a
    fanned waste card, the face-up stock top, or with `reveal` a stock card): marking any other
    card raises ValueError, since the mark would tell where an unseen card lies.

    >>> from pyramid_widget import Game
    >>> game = Game.from_position({0: "5h"}, waste=["8c"])
    >>> picture = board(game, selected="5h", hint="5h+8c", theme="light")
    >>> "5♥" in picture and "Five of Hearts, in play, selected, the hint" in picture
    True
    >>> board(game, hint="9s+4d")
    Traceback (most recent call last):
    ...
    ValueError: cannot mark 9♠: it is not face up in this picture
    """
    colours = _theme(theme)
    width = _width(size)
    if not isinstance(reveal, bool) or not isinstance(legend, bool):
        raise ValueError("reveal and legend must be true or false")
    wanted = _wanted_marks(selected, hint, mistake, better, marks)
    lines = wanted if legend else []
    drawing = _Drawing(game, colours, reveal=reveal, legend_lines=len(lines))
    drawing.place_marks(wanted)
    picture = SvgImage(drawing.svg(width, lines))
    picture.title, picture.description = drawing.title(), drawing.description()
    return picture


def _theme(theme: str | Theme) -> Theme:
    if isinstance(theme, Theme):
        return theme
    if isinstance(theme, str) and theme in THEMES:
        return THEMES[theme]
    raise ValueError(
        f"theme must be one of {', '.join(THEMES)} or a Theme, not {words.quoted(theme)}"
    )


def _width(size: float | None) -> float:
    if size is None:
        return DEFAULT_WIDTH
    if (
        isinstance(size, bool)
        or not isinstance(size, (int, float))
        or not (size > 0 and size < float("inf"))
    ):
        raise ValueError(f"size must be a width in pixels above 0, not {words.quoted(size)}")
    return size


# ------------------------------------------------------------------------------ marks
@dataclass(frozen=True)
class _Mark:
    """One kind of mark on some things; `words` is its legend line's text (cards and words)."""

    kind: str
    targets: tuple[Card | str, ...]
    words: tuple[Card | str, ...]


def _card(value: object) -> Card:
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        return Card.parse(value)
    raise ValueError(f"unknown card {words.quoted(value)}")


def _target(value: object) -> Card | str:
    """A card, or `STOCK` for the stock pile."""
    if isinstance(value, str) and value.strip().lower() == STOCK:
        return STOCK
    return _card(value)


def _move_mark(kind: str, move: object) -> _Mark | None:
    """A move given as a Move, its notation or a Hint: the cards (or the stock) it marks."""
    if move is None:
        return None
    if not isinstance(move, str) and hasattr(move, "move") and not hasattr(move, "cards"):
        move = move.move  # a solver Hint: its suggested move (None when it has none)
        if move is None:
            return None
    notation = str(move).strip() if isinstance(move, str) or hasattr(move, "kind") else None
    if notation is None:
        raise ValueError(f"{kind} must be a move or its notation, not {words.quoted(move)}")
    if notation.lower() in ("draw", "recycle"):
        return _Mark(kind, (STOCK,), (notation.lower(),))
    try:
        cards = tuple(Card.parse(part) for part in notation.split("+"))
    except ValueError:
        raise ValueError(f"{kind} is not a move: {words.quoted(notation)}") from None
    if len(cards) > 2 or len(set(cards)) != len(cards):
        raise ValueError(f"{kind} is not a move: {words.quoted(notation)}")
    return _Mark(kind, cards, _joined(cards, " + "))


def _wanted_marks(
    selected: object, hint: object, mistake: object, better: object, marks: object
) -> list[_Mark]:
    wanted: list[_Mark] = []
    if selected is not None:
        card = _card(selected)
        wanted.append(_Mark("selected", (card,), (card,)))
    for kind, move in (("hint", hint), ("mistake", mistake), ("better", better)):
        mark = _move_mark(kind, move)
        if mark is not None:
            wanted.append(mark)
    if marks is None:
        return wanted
    if not isinstance(marks, Mapping):
        raise ValueError(f"marks must be a mapping of card to kind, not {words.quoted(marks)}")
    extra: dict[str, list[Card | str]] = {}
    for key, kinds in marks.items():
        target = _target(key)
        if not isinstance(kinds, (str, Iterable)):
            raise ValueError(
                f"the marks of {words.quoted(key)} must be a kind or kinds, "
                f"not {words.quoted(kinds)}"
            )
        for kind in (kinds,) if isinstance(kinds, str) else tuple(kinds):
            if kind not in MARK_KINDS:
                known = ", ".join(MARK_KINDS)
                raise ValueError(f"unknown mark {words.quoted(kind)}; marks are {known}")
            extra.setdefault(kind, []).append(target)
    for kind in MARK_KINDS:
        if kind in extra:
            targets = tuple(sorted(set(extra[kind]), key=_target_order))
            named = _joined(tuple(_target_word(target) for target in targets), ", ")
            wanted.append(_Mark(kind, targets, named))
    return wanted


def _target_order(target: Card | str) -> tuple[int, int, str]:
    if isinstance(target, Card):
        return (0, target.rank, target.suit)
    return (1, 0, target)


def _target_word(target: Card | str) -> Card | str:
    """A target in a legend line: a card (drawn in its suit's colour) or words."""
    return target if isinstance(target, Card) else words.THE_STOCK


def _target_text(target: Card | str) -> str:
    return target.symbol if isinstance(target, Card) else words.THE_STOCK


def _joined(items: tuple[Card | str, ...], joiner: str) -> tuple[Card | str, ...]:
    joined: list[Card | str] = []
    for item in items:
        if joined:
            joined.append(joiner)
        joined.append(item)
    return tuple(joined)


# ------------------------------------------------------------------------------ drawing
class _Drawing:
    """The picture of one position, built in drawing order (later elements lie on top)."""

    def __init__(self, game: Game, theme: Theme, *, reveal: bool, legend_lines: int) -> None:
        self.game = game
        self.theme = theme
        self.reveal = reveal
        self.legend_lines = legend_lines
        self.seen = frozenset(game.seen)
        self.spots: dict[Card | str, _Spot] = {}
        self.stock_x = MARGIN
        self.waste_x = MARGIN + CARD_W + GAP

    # ---------------------------------------------------------------- what is where
    def shows(self, card: Card) -> bool:
        """May this card be drawn face up? Only if the player has seen it (or `reveal`)."""
        return self.reveal or card in self.seen

    def pyramid_places(self) -> list[tuple[int, Card, str, float, float]]:
        """(index, card, status, x, y) of each pyramid card still there, in drawing order."""
        pyramid = self.game.pyramid
        exposed = set(self.game.exposed)
        places = []
        for i, card in enumerate(pyramid):
            if card is None:
                continue
            row, col = row_col(i)
            x = MARGIN + (col + (6 - row) / 2) * (CARD_W + GAP)
            y = TOP + row * ROW_STEP
            places.append((i, card, "in_play" if card in exposed else "covered", x, y))
        return places

    def fan(self) -> tuple[Card, ...]:
        return tuple(self.game.waste[-WASTE_FAN:])

    def listing(self) -> tuple[Card, ...]:
        """The stock's cards drawn in the answer-sheet listing (only with `reveal`): all but a
        face-up top, which lies on the stock pile already."""
        if not self.reveal:
            return ()
        top = self.game.stock_top
        return tuple(card for card in self.game.stock if card != top)

    def place_marks(self, wanted: list[_Mark]) -> None:
        """Note where each mark goes; a mark on a card not face up here is refused."""
        self.spots = self._spots()
        for mark in wanted:
            for target in mark.targets:
                spot = self.spots.get(target)
                if spot is None:
                    raise ValueError(
                        f"cannot mark {_target_text(target)}: it is not face up in this picture"
                    )
                if mark.kind not in spot.kinds:
                    spot.kinds.append(mark.kind)
        for spot in self.spots.values():
            spot.kinds.sort(key=MARK_KINDS.index)

    def _spots(self) -> dict[Card | str, _Spot]:
        spots: dict[Card | str, _Spot] = {}
        for _, card, status, x, y in self.pyramid_places():
            spots[card] = _Spot(x, y, words.card_label(card, status))
        fan = self.fan()
        for k, card in enumerate(fan):
            if self.shows(card):
                label = words.card_label(card, "waste_top" if k == len(fan) - 1 else "waste")
                spots[card] = _Spot(self.waste_x + k * FAN_STEP, TOP, label)
        top = self.game.stock_top
        if top is not None and self.shows(top):
            # A mark on the stock pile is a mark on its face-up top: one place, one set of rings.
            label = words.card_label(top, "stock_top")
            spots[top] = spots[STOCK] = _Spot(self.stock_x, TOP, label)
        else:
            spots[STOCK] = _Spot(self.stock_x, TOP, self.stock_words())
        for k, card in enumerate(self.listing()):
            x, y = self.listing_place(k)
            spots[card] = _Spot(x, y, words.card_label(card, "revealed"))
        return spots

    def stock_words(self) -> str:
        top = self.game.stock_top
        shown = top if top is not None and self.shows(top) else None
        return words.stock_words(self.game.stock_count, shown, self.game.recycle_refusal)

    # ---------------------------------------------------------------- layout under the board
    def status_y(self) -> float:
        """The baseline of the first status line, under the lowest card: rows already cleared
        leave no empty band (a lesson on the top rows is a short picture)."""
        rows = [row_col(i)[0] for i, *_ in self.pyramid_places()]
        bottom = max(rows, default=0) * ROW_STEP + CARD_H + BADGE_R
        return TOP + bottom + LINE

    def legend_y(self) -> float:
        """The baseline of the line before the legend's first (the last status line)."""
        return self.status_y() + LINE * (len(self.status_lines()) - 1)

    def listing_top(self) -> float:
        """The baseline of the revealed stock's heading (its cards follow)."""
        return self.legend_y() + LINE * (self.legend_lines + 1)

    def listing_place(self, k: int) -> tuple[float, float]:
        row, col = divmod(k, LISTING_ROW)
        y = self.listing_top() + 16 + row * (CARD_H + GAP)
        return MARGIN + col * LISTING_STEP, y

    def height(self) -> float:
        bottom = self.legend_y() + LINE * self.legend_lines
        cards = len(self.listing())
        if cards:
            rows = -(-cards // LISTING_ROW)
            bottom = self.listing_top() + 16 + rows * (CARD_H + GAP)
        return bottom + 16

    # ---------------------------------------------------------------- the document
    def svg(self, width: float, legend: list[_Mark]) -> str:
        view_h = self.height()
        theme = self.theme
        title = self.title()
        body = [
            tag("title", {}, escape(title)),
            tag("desc", {}, escape(self.description())),
            tag("rect", {"width": VIEW_W, "height": view_h, "fill": theme.background}),
            self.draw_pyramid(),
            self.draw_waste(),
            self.draw_stock(),
            self.draw_marks(),
            # The stock's count lies above everything, marks on the waste included.
            self.bubble(self.stock_x + CARD_W + 12, TOP + CARD_H + 12, str(self.game.stock_count)),
            self.draw_status(),
            self.draw_legend(legend),
            self.draw_listing(),
        ]
        attrs = {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": width,
            "height": width * view_h / VIEW_W,
            "viewBox": f"0 0 {num(VIEW_W)} {num(view_h)}",
            "role": "img",
            "aria-label": title,
            "font-family": FONT,
            "class": "pw-board",
        }
        return tag("svg", attrs, "".join(body))

    def title(self) -> str:
        game = self.game
        left = PYRAMID_SIZE - sum(card is None for card in game.pyramid)
        return words.picture_title(left, self.pass_words())

    def pass_words(self) -> str:
        return words.pass_words(self.game.pass_number, self.game.rules.passes)

    def description(self) -> str:
        places = self.pyramid_places()
        in_play = [card.symbol for _, card, status, _, _ in places if status == "in_play"]
        covered = sum(status == "covered" for _, _, status, _, _ in places)
        fan = [card.symbol for card in self.fan() if self.shows(card)]
        waste = words.waste_words(len(self.game.waste), fan[-1] if fan else None)
        return words.picture_description(
            in_play, covered, self.stock_words(), waste, self.status_parts()
        )

    def status_parts(self) -> list[str]:
        game = self.game
        return words.status_parts(
            game.cleared,
            self.pass_words(),
            game.stock_count,
            len(game.waste),
            game.move_count,
            game.score if game.rules.scoring else None,
            game.outcome or "",
        )

    def status_lines(self) -> list[str]:
        """The status, wrapped to the table's width (a generous estimate of the text's width:
        the picture cannot measure its font, so it wraps early rather than overflow)."""
        lines: list[str] = []
        for part in self.status_parts():
            if lines and len(lines[-1]) + 3 + len(part) <= STATUS_CHARS:
                lines[-1] += " · " + part
            else:
                lines.append(part)
        return lines

    # ---------------------------------------------------------------- cards
    def face(self, card: Card, status: str, x: float, y: float, *, stacked: bool = False) -> str:
        """A card face up. status: "in_play", "covered", "waste" (under the waste top) or
        "stock" (the revealed listing); `stacked` puts the rank over the suit, so that the index
        shows where the next card lies over all but a strip of this one."""
        theme = self.theme
        covered = status == "covered"
        red = card.suit in RED_SUITS
        if covered:
            fill, edge, ink = (
                theme.covered_face,
                theme.covered_edge,
                theme.covered_red if red else theme.covered_ink,
            )
        else:
            fill, edge, ink = theme.face, theme.edge, theme.red if red else theme.ink
        spot = self.spots.get(card)
        label = spot.label if spot is not None else card.name
        kinds = spot.kinds if spot is not None else []
        if kinds:
            label += ", " + ", ".join(words.MARK_WORDS[kind] for kind in kinds)
        lift = -LIFT if "selected" in kinds else 0
        rank = "10" if card.rank == 10 else RANKS[card.rank - 1]
        symbol = SUIT_SYMBOLS[card.suit]
        parts = [tag("title", {}, escape(label))]
        if not covered:
            parts.append(self.card_rect(0, 3, theme.shadow, theme.shadow))
        parts.append(self.card_rect(0, 0, fill, edge))
        weight = {"font-weight": 600, "fill": ink}
        if stacked:
            parts.append(text(4, 26, rank, **{"font-size": 22, **weight}))
            parts.append(text(4, 50, symbol, **{"font-size": 22, **weight}))
        else:
            corner = {"font-size": 30, "letter-spacing": -0.9, **weight}
            parts.append(text(8, 30, rank + symbol, **corner))
        if not covered:
            pip = {"font-size": 55, "text-anchor": "middle", "fill": ink}
            parts.append(text(CARD_W / 2, 108, symbol, **pip))
        attrs = {
            "class": "pw-card",
            "data-card": str(card),
            "data-status": status,
            "role": "img",
            "aria-label": label,
            "transform": translate(x, y + lift),
        }
        return group(attrs, parts)

    def card_rect(self, x: float, y: float, fill: str, edge: str, **attrs: Any) -> str:
        return tag(
            "rect",
            {
                "x": x,
                "y": y,
                "width": CARD_W,
                "height": CARD_H,
                "rx": CORNER_R,
                "fill": fill,
                "stroke": edge,
                "stroke-width": 2,
                **attrs,
            },
        )

    def back(self, x: float, y: float) -> str:
        """A card back: the widget's diagonal stripes, drawn as lines inside the card."""
        theme = self.theme
        inset = 6
        lines = []
        for k in range(-CARD_H, CARD_W, 14):
            # The line y = x - k, clipped to the inset rectangle.
            lo = max(inset, inset + k)
            hi = min(CARD_W - inset, CARD_H - inset + k)
            if hi - lo > 1:
                lines.append(f"M{num(lo)} {num(lo - k)}L{num(hi)} {num(hi - k)}")
        stripes = tag(
            "path",
            {"d": "".join(lines), "stroke": theme.back_stripe, "stroke-width": 6, "fill": "none"},
        )
        parts = [self.card_rect(0, 0, theme.back, theme.back_edge), stripes]
        return group(
            {"class": "pw-card pw-back", "data-status": "face_down", "transform": translate(x, y)},
            parts,
        )

    def draw_pyramid(self) -> str:
        cards = [self.face(card, status, x, y) for _, card, status, x, y in self.pyramid_places()]
        return group({"class": "pw-pyramid", "role": "group", "aria-label": words.PYRAMID}, cards)

    def draw_stock(self) -> str:
        theme = self.theme
        game = self.game
        count = game.stock_count
        top = game.stock_top
        x, y = self.stock_x, TOP
        if count == 0:
            blocked = self.game.recycle_refusal is not None
            sign = "✕" if blocked else "↻"
            parts = [
                self.card_rect(
                    x, y, "none", theme.pile_edge, **{"stroke-dasharray": "8 6", "stroke-width": 3}
                ),
                text(
                    x + CARD_W / 2,
                    y + 88,
                    sign,
                    **{
                        "font-size": 50,
                        "text-anchor": "middle",
                        "fill": theme.blocked if blocked else theme.recycle,
                    },
                ),
            ]
        elif top is not None and self.shows(top):
            parts = [self.face(top, "in_play", x, y)]
        else:
            parts = [self.back(x, y)]
        label = self.stock_words()
        kinds = self.spots[STOCK].kinds
        if kinds and (top is None or not self.shows(top)):
            label += ", " + ", ".join(words.MARK_WORDS[kind] for kind in kinds)
        return group(
            {"class": "pw-pile pw-stock", "role": "img", "aria-label": label},
            [tag("title", {}, escape(label)), *parts],
        )

    def bubble(self, right: float, bottom: float, count: str) -> str:
        theme = self.theme
        width = max(36, 13 * len(count) + 18)
        box = tag(
            "rect",
            {
                "x": right - width,
                "y": bottom - 30,
                "width": width,
                "height": 30,
                "rx": 15,
                "fill": theme.bubble,
            },
        )
        number = text(
            right - width / 2,
            bottom - 8,
            count,
            **{"font-size": 20, "text-anchor": "middle", "fill": theme.bubble_text},
        )
        return group({"class": "pw-count", "aria-hidden": "true"}, [box, number])

    def draw_waste(self) -> str:
        theme = self.theme
        fan = self.fan()
        x = self.waste_x
        parts = []
        if not fan:
            parts.append(
                self.card_rect(
                    x,
                    TOP,
                    "none",
                    theme.pile_edge,
                    **{"stroke-dasharray": "8 6", "stroke-width": 3},
                )
            )
        for k, card in enumerate(fan):
            top = k == len(fan) - 1
            place_x = x + k * FAN_STEP
            if self.shows(card):
                status = "in_play" if top else "waste"
                parts.append(self.face(card, status, place_x, TOP, stacked=not top))
            else:  # never happens in a real game: every waste card was turned face up
                parts.append(self.back(place_x, TOP))
        label = words.waste_words(len(self.game.waste))
        return group({"class": "pw-pile pw-waste", "role": "group", "aria-label": label}, parts)

    def draw_listing(self) -> str:
        cards = self.listing()
        if not cards:
            return ""
        top = self.listing_top()
        parts = [
            text(
                MARGIN,
                top,
                words.REVEALED_HEADING,
                **{"font-size": 22, "fill": self.theme.text},
            )
        ]
        for k, card in enumerate(cards):
            x, y = self.listing_place(k)
            parts.append(self.face(card, "stock", x, y, stacked=True))
        return group(
            {"class": "pw-listing", "role": "group", "aria-label": words.STOCK_REVEALED}, parts
        )

    # ---------------------------------------------------------------- marks and words
    def draw_marks(self) -> str:
        parts = []
        drawn: list[_Spot] = []
        for target in sorted(self.spots, key=_target_order):
            spot = self.spots[target]
            if not spot.kinds or any(spot is other for other in drawn):
                continue
            drawn.append(spot)
            # A selected card is drawn lifted (see `face`); the stock pile never is.
            lifted = isinstance(target, Card) and "selected" in spot.kinds
            name = str(target) if isinstance(target, Card) else STOCK
            parts.append(self.mark_rings(name, spot.kinds, spot.x, spot.y - LIFT * lifted))
        return group({"class": "pw-marks", "aria-hidden": "true"}, parts)

    def mark_rings(self, name: str, kinds: list[str], x: float, y: float) -> str:
        """The rings and badges of one marked card (`name`, its notation) or of the stock."""
        parts = []
        for k, kind in enumerate(kinds):
            parts.append(self.ring(kind, RING_GAP + k * RING_STEP))
        badges = [kind for kind in kinds if kind in BADGES]
        for k, kind in enumerate(badges):
            parts.append(self.badge(kind, CARD_W - 8 - k * (2 * BADGE_R + 3), 2 - BADGE_R))
        attrs = {"class": "pw-mark", "data-for": name, "data-marks": " ".join(kinds)}
        return group({**attrs, "transform": translate(x, y)}, parts)

    def ring(self, kind: str, offset: float, width: float = CARD_W, height: float = CARD_H) -> str:
        colour, _ = self.theme.marks[kind]
        return tag(
            "rect",
            {
                "class": f"pw-ring pw-{kind}",
                "x": -offset,
                "y": -offset,
                "width": width + 2 * offset,
                "height": height + 2 * offset,
                "rx": CORNER_R + offset,
                "fill": "none",
                "stroke": colour,
                "stroke-width": RING_WIDTH,
                "stroke-dasharray": DASHES[kind],
                "stroke-linecap": "round" if kind == "better" else None,
            },
        )

    def badge(self, kind: str, cx: float, cy: float) -> str:
        colour, ink = self.theme.marks[kind]
        disc = tag(
            "circle",
            {"cx": cx, "cy": cy, "r": BADGE_R, "fill": colour, "stroke": self.theme.background},
        )
        symbol = text(
            cx,
            cy + 7,
            BADGES[kind],
            **{"font-size": 20, "font-weight": 700, "text-anchor": "middle", "fill": ink},
        )
        return group({"class": f"pw-badge pw-{kind}"}, [disc, symbol])

    def draw_status(self) -> str:
        attrs = {"font-size": STATUS_FONT, "text-anchor": "middle", "fill": self.theme.text}
        lines = [
            text(VIEW_W / 2, self.status_y() + LINE * k, line, **attrs)
            for k, line in enumerate(self.status_lines())
        ]
        return group({"class": "pw-status"}, lines)

    def draw_legend(self, legend: list[_Mark]) -> str:
        if not legend:
            return ""
        lines = []
        for k, mark in enumerate(legend):
            y = self.legend_y() + LINE * (k + 1)
            swatch = [
                tag(
                    "rect",
                    {
                        "x": 0,
                        "y": 0,
                        "width": 36,
                        "height": 24,
                        "rx": 5,
                        "fill": self.theme.face,
                        "stroke": self.theme.edge,
                        "stroke-width": 2,
                    },
                ),
                self.ring(mark.kind, 3, 36, 24),
            ]
            sample = group({"transform": translate(MARGIN + 6, y - 24)}, swatch)
            badge = ""
            if mark.kind in BADGES:
                badge = group(
                    {"transform": translate(MARGIN + 70, y - 8)}, [self.badge(mark.kind, 0, 0)]
                )
            spans = [escape(f"{words.LEGEND_WORDS[mark.kind]}: ")]
            for word in mark.words:
                if isinstance(word, Card):
                    ink = self.theme.red if word.suit in RED_SUITS else self.theme.text
                    spans.append(tag("tspan", {"fill": ink}, escape(word.symbol)))
                else:
                    spans.append(escape(word))
            line = tag(
                "text",
                {"x": MARGIN + 96, "y": y, "font-size": 24, "fill": self.theme.text},
                "".join(spans),
            )
            lines.append(group({"class": f"pw-legend pw-{mark.kind}"}, [sample, badge, line]))
        return group({"class": "pw-legend-lines"}, lines)


__all__ = ["DEFAULT_WIDTH", "MARK_KINDS", "STOCK", "THEMES", "SvgImage", "Theme", "board"]
