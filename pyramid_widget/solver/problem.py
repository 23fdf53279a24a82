"""A deal and a position in the solver's terms: bit masks of the pyramid, waste and stock.

The search never touches a `Game`: it works on four small ints per position (docs/solver.md,
"Positions"), and on the pyramid's geometry as masks, the same for every deal.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from ..cards import LYING_ON, PYRAMID_SIZE, RANKS, STOCK_SIZE, Card, is_exposed

FULL = (1 << PYRAMID_SIZE) - 1
EMPTY_STOCK = STOCK_SIZE  # the canonical boundary k when the stock is empty

COMPARABLE = tuple(
    sum(1 << j for j in LYING_ON[i]) | sum(1 << j for j in range(PYRAMID_SIZE) if i in LYING_ON[j])
    for i in range(PYRAMID_SIZE)
)
"""COMPARABLE[i]: pyramid cards that lie on card i or that card i lies on. Such a card can
never be in play at the same time as card i, so the two can never pair."""

UNDER = tuple(
    sum(1 << j for j in range(PYRAMID_SIZE) if i in LYING_ON[j]) for i in range(PYRAMID_SIZE)
)
"""UNDER[i]: pyramid cards that card i lies on (transitively): each leaves after card i."""


@dataclass(frozen=True)
class Problem:
    """A deal, its rules and a position, in the solver's terms.

    ``pyramid`` and ``stock`` are card names ("Th") in layout order (``stock`` is the 24 cards
    29-52, the first drawn first); ``values`` follow from the names. ``start`` is (P, S, k, p).
    ``passes`` is None for unlimited passes.
    """

    pyramid: tuple[str, ...]
    stock: tuple[str, ...]
    stock_in_play: bool
    king_from_stock: bool
    passes: int | None
    deck_win: bool
    start: tuple[int, int, int, int]

    @property
    def pyramid_values(self) -> tuple[int, ...]:
        return tuple([_VALUES[name[0]] for name in self.pyramid])

    @property
    def stock_values(self) -> tuple[int, ...]:
        return tuple([_VALUES[name[0]] for name in self.stock])


_VALUES = {rank: value for value, rank in enumerate(RANKS, 1)}


def pair_notation(a: str, b: str) -> str:
    """The engine's notation of a pair of card names: the lower card first, in `Card`'s order.

    >>> pair_notation("8c", "5h"), pair_notation("Qs", "Ad")
    ('5h+8c', 'Ad+Qs')
    """
    return "+".join(sorted((a, b), key=Card.parse))


def next_stock(S: int, k: int) -> int:
    """The canonical boundary after the card at ``k`` left the stock: the next card still in
    the game after position k, or EMPTY_STOCK."""
    rest = S >> (k + 1)
    if not rest:
        return EMPTY_STOCK
    return k + (rest & -rest).bit_length()


def first_stock(S: int, k: int) -> int:
    """The canonical boundary for a raw boundary ``k``: the first card in the game at or after
    position k, or EMPTY_STOCK."""
    rest = S >> k
    if not rest:
        return EMPTY_STOCK
    return k + (rest & -rest).bit_length() - 1


@functools.cache
def exposed_cards(P: int) -> tuple[tuple[int, ...], int]:
    """The pyramid cards in play when the cards of mask P are gone (the same for every deal),
    and their mask: every new pyramid state's facts need both."""
    cards = tuple(i for i in range(PYRAMID_SIZE) if not P >> i & 1 and is_exposed(P, i))
    return cards, sum(1 << i for i in cards)
