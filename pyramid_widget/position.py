"""A position: everything undo restores, and the check that a position could have been reached.

A position is immutable. The non-pyramid cards still in the game, kept in their original order,
are always "waste then stock" (drawing moves the boundary right, a recycle moves it back to 0,
removals take cards out), so a position is: which pyramid cards are gone, which other cards are
left, how many of those lie on the waste, and which pass this is. Recycling keeps the order by
construction.

This module knows no `Game` (it sits below `game.py` and `codes.py`, which both use it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .cards import PYRAMID_SIZE, ROW_INDICES, STOCK_SIZE, Card, is_exposed
from .rules import Rules

# Scoring (the scored preset): 5 a card, 25 a cleared row, and on clearing the pyramid 100 plus
# 10 a card still in the stock and waste. Undo takes the points back with the position.
POINTS_PER_CARD = 5
POINTS_PER_ROW = 25
POINTS_FOR_PYRAMID = 100
POINTS_PER_CARD_LEFT = 10
FULL_PYRAMID = (1 << PYRAMID_SIZE) - 1
MAX_MOVES = 2**53 - 1
"""The most moves a position may count: far more than any game plays (unlimited passes set
no other bound), and a count every front end reads exactly (JavaScript's safe integers)."""


def earned(rules: Rules, before: int, after: int, cards: int, left: int) -> int:
    """The points for removing `cards` cards, which takes the pyramid from mask `before` to
    mask `after` with `left` cards still in the stock and waste: the one rule of scoring (0
    under rules that do not score)."""
    if not rules.scoring:
        return 0
    rows = sum(
        all(after >> i & 1 for i in row) and not all(before >> i & 1 for i in row)
        for row in ROW_INDICES
    )
    points = POINTS_PER_CARD * cards + POINTS_PER_ROW * rows
    if after == FULL_PYRAMID and before != FULL_PYRAMID:
        points += POINTS_FOR_PYRAMID + POINTS_PER_CARD_LEFT * left
    return points


@dataclass(frozen=True, slots=True)
class Position:
    """Everything that undo restores. `rest` holds the non-pyramid cards still in the game."""

    removed: int  # bit i set: pyramid card i is gone
    rest: tuple[Card, ...]  # waste (bottom..top) followed by stock (top..bottom)
    waste_count: int
    pass_number: int
    move_count: int = 0
    score: int = 0

    @property
    def waste(self) -> tuple[Card, ...]:
        return self.rest[: self.waste_count]

    @property
    def stock(self) -> tuple[Card, ...]:
        return self.rest[self.waste_count :]


def deal_start(cards: tuple[Card, ...]) -> Position:
    """The position a deal starts from: the whole pyramid, the whole stock, pass 1."""
    return Position(0, cards[PYRAMID_SIZE:], 0, 1)


def check_reachable(
    cards: tuple[Card, ...], rules: Rules, pos: Position, seen: Iterable[Card]
) -> None:
    """Refuse, with a ValueError saying what is wrong, a position no play could reach (a
    tampered or damaged code, a mistaken lesson, a hand-built `Position`). `cards` must already
    be a whole deck; `seen` holds the cards the player has seen face up.

    What play guarantees, and so what is checked: a pyramid card leaves only once the cards on
    it are gone; cards leave in pairs of 13 or as Kings; waste and stock keep their original
    order; stock cards are turned up in order, so the stock cards seen are always the first few
    of the stock (all of them once a recycle happened, since a recycle needs an empty stock);
    a stock card leaves only after it was turned up; the pass number counts the recycles
    (within the rules' passes); every removal, draw and recycle counts one move (`_check_moves`);
    and the score is what the removals earned.
    """
    _check_types(pos)
    stock_cards = cards[PYRAMID_SIZE:]
    index = {card: k for k, card in enumerate(stock_cards)}
    places = [index.get(card) for card in pos.rest]
    if None in places or places != sorted(set(places)):
        raise ValueError("impossible position: waste and stock must be stock cards in deal order")
    if not 0 <= pos.removed < 1 << PYRAMID_SIZE or len(pos.rest) > STOCK_SIZE:
        raise ValueError("impossible position: mask out of range")
    for i in range(PYRAMID_SIZE):
        if pos.removed >> i & 1 and not is_exposed(pos.removed, i):
            raise ValueError("impossible position: a pyramid card left before the cards on it")
    left = set(pos.rest)
    gone_stock = [card for card in stock_cards if card not in left]
    gone = [c for i, c in enumerate(cards[:PYRAMID_SIZE]) if pos.removed >> i & 1] + gone_stock
    for value in range(1, 7):
        if sum(c.value == value for c in gone) != sum(c.value == 13 - value for c in gone):
            raise ValueError("impossible position: removed cards do not form pairs of 13")
    if not 0 <= pos.waste_count <= len(pos.rest):
        raise ValueError("impossible position: waste larger than the cards left")
    if pos.pass_number < 1 or (rules.passes is not None and pos.pass_number > rules.passes):
        raise ValueError("impossible position: pass number outside the rules' passes")
    _check_seen(rules, pos, index, places, set(seen))
    _check_moves(pos, gone, len(gone_stock))
    _check_score(rules, pos, cards, len(gone), len(gone_stock))


def _check_types(pos: Position) -> None:
    numbers = (pos.removed, pos.waste_count, pos.pass_number, pos.move_count, pos.score)
    if not isinstance(pos, Position) or any(
        isinstance(n, bool) or not isinstance(n, int) for n in numbers
    ):
        raise ValueError("impossible position: not a Position of whole numbers")
    if max(numbers[1:]) > MAX_MOVES:
        raise ValueError(f"impossible position: a count above {MAX_MOVES}, more than any game's")
    if not isinstance(pos.rest, tuple) or not all(isinstance(c, Card) for c in pos.rest):
        raise ValueError("impossible position: waste and stock must be a tuple of cards")


def _check_moves(pos: Position, gone: list[Card], gone_stock: int) -> None:
    """The move count is what play could have counted. The removals are exactly the Kings
    gone and half the other cards gone, the recycles exactly one fewer than the pass number;
    the draws are at least the cards on the waste, and at most a whole stock (24 cards) on
    each earlier pass plus, on this one, the cards on the waste and the stock cards gone (each
    card drawn on this pass is on the waste or gone since). Undo takes a move's count back
    with it, so no other move is counted."""
    kings = sum(card.is_king for card in gone)
    removals, recycles = kings + (len(gone) - kings) // 2, pos.pass_number - 1
    fewest = removals + recycles + pos.waste_count
    most = fewest + STOCK_SIZE * recycles + gone_stock
    if pos.move_count < fewest:
        raise ValueError(
            f"impossible position: {pos.move_count} moves cannot remove {len(gone)} cards, "
            f"recycle {recycles} times and lay {pos.waste_count} on the waste "
            f"(at least {fewest} moves)"
        )
    if pos.move_count > most:
        raise ValueError(
            f"impossible position: removing {len(gone)} cards, recycling {recycles} times and "
            f"drawing what the stock held count at most {most} moves, not {pos.move_count}"
        )


def _check_seen(
    rules: Rules, pos: Position, index: dict[Card, int], places: list, seen: set[Card]
) -> None:
    """The stock cards seen are a first stretch of the stock, covering every card turned up
    so far (all of them after a recycle)."""
    stock_places = places[pos.waste_count :]
    boundary = stock_places[0] if stock_places else STOCK_SIZE
    visible = {index[card] for card in pos.waste[-1:]}
    if rules.stock_in_play and stock_places:
        visible.add(boundary)
    shown = {index[card] for card in seen if card in index} | visible
    if pos.pass_number == 1:
        if any(k >= boundary for k in set(range(STOCK_SIZE)) - set(places)):
            raise ValueError("impossible position: a stock card left before it was turned up")
        needed = set(range(boundary)) | visible
    else:
        needed = set(range(STOCK_SIZE))  # a recycle needs an empty stock: all were turned up
    if not needed <= shown:
        raise ValueError("impossible position: a card that was turned up is not marked seen")
    if shown != set(range(len(shown))):
        raise ValueError("impossible position: stock cards are seen in order, not with gaps")


def _check_score(rules: Rules, pos: Position, cards: tuple, gone: int, gone_stock: int) -> None:
    """Under scoring, the score is what the cards gone `earned`, the pyramid's bonus counted
    with the cards left in stock and waste when it was cleared (between the cards left now and
    those plus the stock cards removed since). Without scoring it is 0."""
    if not rules.scoring:
        if pos.score != 0:
            raise ValueError("impossible position: a score under rules that do not score")
        return
    left = len(pos.rest)
    possible = {earned(rules, 0, pos.removed, gone, n) for n in range(left, left + gone_stock + 1)}
    if pos.score not in possible:
        raise ValueError(
            f"impossible position: a score of {pos.score} is not what removing these cards earns"
        )
