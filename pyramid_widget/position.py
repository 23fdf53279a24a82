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

from .cards import PYRAMID_SIZE, STOCK_SIZE, Card, is_exposed
from .rules import Rules


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
    tampered or damaged code, a mistaken lesson). `cards` must already be a whole deck."""
    seen = set(seen)
    if not 0 <= pos.removed < 1 << PYRAMID_SIZE or len(pos.rest) > STOCK_SIZE:
        raise ValueError("impossible position: mask out of range")
    for i in range(PYRAMID_SIZE):
        if pos.removed >> i & 1 and not is_exposed(pos.removed, i):
            raise ValueError("impossible position: a pyramid card left before the cards on it")
    gone_stock = [card for card in cards[PYRAMID_SIZE:] if card not in pos.rest]
    gone = [c for i, c in enumerate(cards[:PYRAMID_SIZE]) if pos.removed >> i & 1] + gone_stock
    for value in range(1, 7):
        if sum(c.value == value for c in gone) != sum(c.value == 13 - value for c in gone):
            raise ValueError("impossible position: removed cards do not form pairs of 13")
    if not 0 <= pos.waste_count <= len(pos.rest):
        raise ValueError("impossible position: waste larger than the cards left")
    if pos.pass_number < 1 or (rules.passes is not None and pos.pass_number > rules.passes):
        raise ValueError("impossible position: pass number outside the rules' passes")
    if pos.move_count < len(gone) // 2 or pos.score < 0 or (pos.score and not rules.scoring):
        raise ValueError("impossible position: move count or score out of range")
    if not set(gone_stock) | set(pos.waste) <= seen:
        raise ValueError("impossible position: a card left or lies on the waste unseen")
