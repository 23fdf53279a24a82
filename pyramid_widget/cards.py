"""Cards, their values and the pyramid's geometry.

Suits never matter in Pyramid; a card's value is its rank (A=1 ... K=13). The pyramid geometry
lives here too, because every other module (rules of a move, solver, view) needs the same one
answer to "which cards cover this one?".
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import total_ordering

from .words import RANK_NAMES, SUIT_NAMES, quoted

RANKS = "A23456789TJQK"
SUITS = "cdhs"
SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
_SUIT_SYMBOLS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s", "♧": "c", "♢": "d", "♡": "h", "♤": "s"}
PAIR_TOTAL = 13


@total_ordering
@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. Ordered by (rank, suit) so that printed pairs are canonical."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if not (isinstance(self.rank, int) and 1 <= self.rank <= 13):
            raise ValueError(f"rank must be 1..13, not {quoted(self.rank)}")
        if self.suit not in SUITS or len(self.suit) != 1:
            raise ValueError(f"suit must be one of c d h s, not {quoted(self.suit)}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read "Th", "10h", "th" or "T♥"; raise ValueError naming the text otherwise.

        >>> Card.parse("10♥") == Card.parse("Th"), Card.parse("Th").value
        (True, 10)
        """
        if not isinstance(text, str):
            raise ValueError(f"unknown card {quoted(text)}")
        raw = text.strip()
        if len(raw) < 2:
            raise ValueError(f"unknown card {quoted(text)}")
        rank_text, suit_text = raw[:-1].upper(), raw[-1]
        suit = _SUIT_SYMBOLS.get(suit_text, suit_text.lower())
        if rank_text == "10":
            rank_text = "T"
        if len(rank_text) != 1 or rank_text not in RANKS or suit not in SUITS:
            raise ValueError(f"unknown card {quoted(text)}")
        return cls(RANKS.index(rank_text) + 1, suit)

    @property
    def value(self) -> int:
        """The card's value for pairing: Ace 1 ... King 13."""
        return self.rank

    @property
    def is_king(self) -> bool:
        return self.rank == 13

    @property
    def symbol(self) -> str:
        """The card as the board draws it, for sentences a player reads: "10♠", "K♦".

        >>> Card.parse("Ts").symbol, Card.parse("Kd").symbol
        ('10♠', 'K♦')
        """
        rank = "10" if self.rank == 10 else RANKS[self.rank - 1]
        return rank + SUIT_SYMBOLS[self.suit]

    @property
    def name(self) -> str:
        """Spoken name, e.g. "Five of Hearts" (screen readers, hint texts)."""
        return f"{RANK_NAMES[self.rank - 1]} of {SUIT_NAMES[self.suit]}"

    def pairs_with(self, other: Card) -> bool:
        """True when the two values total 13 (a King pairs with nothing).

        >>> Card.parse("5h").pairs_with(Card.parse("8c"))
        True
        """
        return self.rank + other.rank == PAIR_TOTAL

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return (self.rank, SUITS.index(self.suit)) < (other.rank, SUITS.index(other.suit))

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))
"""A fresh deck in the order Ac..Kc Ad..Kd Ah..Kh As..Ks (the numbered-deal shuffle starts here)."""

PYRAMID_SIZE = 28
ROWS = 7
STOCK_SIZE = 24


def index(row: int, col: int) -> int:
    """Pyramid index of (row, col), both 0-based; row 0 is the apex."""
    return row * (row + 1) // 2 + col


def row_col(i: int) -> tuple[int, int]:
    """(row, col) of pyramid index i, both 0-based."""
    row = 0
    while index(row + 1, 0) <= i:
        row += 1
    return row, i - index(row, 0)


def _covered_by(i: int) -> tuple[int, ...]:
    row, col = row_col(i)
    if row == ROWS - 1:
        return ()
    return (index(row + 1, col), index(row + 1, col + 1))


COVERED_BY: tuple[tuple[int, ...], ...] = tuple(_covered_by(i) for i in range(PYRAMID_SIZE))
"""COVERED_BY[i]: the two cards lying directly on pyramid card i (none for the bottom row)."""


def _lying_on(i: int) -> frozenset[int]:
    above: set[int] = set()
    todo = list(COVERED_BY[i])
    while todo:
        j = todo.pop()
        if j not in above:
            above.add(j)
            todo.extend(COVERED_BY[j])
    return frozenset(above)


COVER_MASKS: tuple[int, ...] = tuple(sum(1 << j for j in cover) for cover in COVERED_BY)
"""COVER_MASKS[i]: the mask of the two cards lying directly on pyramid card i (0 for the bottom
row): the geometry of `COVERED_BY` as bits, for the engine and the solver alike."""


def is_exposed(removed: int, i: int) -> bool:
    """Is pyramid card i exposed when the cards of mask `removed` are gone? (Both cards on it
    gone; the bottom row always.) The one answer the engine, codes and view all use."""
    cover = COVER_MASKS[i]
    return removed & cover == cover


LYING_ON: tuple[frozenset[int], ...] = tuple(_lying_on(i) for i in range(PYRAMID_SIZE))
"""LYING_ON[i]: every pyramid card that must go before card i is exposed (transitively)."""

ROW_INDICES: tuple[tuple[int, ...], ...] = tuple(
    tuple(index(r, c) for c in range(r + 1)) for r in range(ROWS)
)
