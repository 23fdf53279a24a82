"""Moves: what a player can do, as a hashable value with a notation that round-trips.

`Move.parse("8c+5h")` reads notation (for code; `Move.text` is how a player reads a move), and
`IllegalMove` carries the reason, in the player's words, why the rules refuse one. Whether a
move is legal is the game's question (`game.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from . import words
from .cards import Card

MoveKind = Literal["pair", "king", "draw", "recycle"]


class IllegalMove(ValueError):
    """A move the rules refuse; `.reason` says why in the player's words. Nothing changed."""

    def __init__(self, reason: str, move: object = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.move = move


_CARDS_PER_KIND = {"pair": 2, "king": 1, "draw": 0, "recycle": 0}


@dataclass(frozen=True, slots=True)
class Move:
    """A move: a pair ("5h+8c"), a King ("Kh"), "draw" or "recycle". Hashable."""

    kind: MoveKind
    cards: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        """A hand-built Move is checked like a parsed one: its kind, how many cards it names
        and that they are cards; a pair's cards are kept in canonical order."""
        count = _CARDS_PER_KIND.get(self.kind) if isinstance(self.kind, str) else None
        cards = self.cards
        if (
            count is None
            or not isinstance(cards, tuple | list)
            or not all(isinstance(c, Card) for c in cards)
            or len(cards) != count
        ):
            raise IllegalMove(words.malformed_move(self.kind, cards, count))
        object.__setattr__(self, "cards", tuple(sorted(cards)))

    @classmethod
    def pair(cls, a: Card, b: Card) -> Move:
        return cls("pair", tuple(sorted((a, b))))

    @classmethod
    def king(cls, card: Card) -> Move:
        return cls("king", (card,))

    @classmethod
    def parse(cls, text: str | Move) -> Move:
        """Read a notation; either order of a pair is accepted. Raises IllegalMove if unreadable.

        >>> Move.parse("8c+5h"), Move.parse("Kd").kind
        (Move.parse('5h+8c'), 'king')
        """
        if isinstance(text, Move):
            return text
        if not isinstance(text, str):
            raise IllegalMove(words.not_a("move", text))
        word = text.strip()
        if word.lower() in ("draw", "recycle"):
            return DRAW if word.lower() == "draw" else RECYCLE
        parts = word.split("+")
        try:
            cards = [Card.parse(part) for part in parts]
        except ValueError:
            raise IllegalMove(words.not_a("move", text)) from None
        if len(cards) == 2:
            return cls.pair(*cards)
        if len(cards) == 1:
            return cls.king(cards[0])
        raise IllegalMove(words.not_a("move", text))

    def __str__(self) -> str:
        if self.kind in ("draw", "recycle"):
            return self.kind
        return "+".join(str(card) for card in self.cards)

    @property
    def text(self) -> str:
        """The move as a player reads it: "3♦ + 10♠", "K♠", "draw", "recycle" (notation,
        `str(move)`, is for code).

        >>> Move.parse("3d+Ts").text
        '3♦ + 10♠'
        """
        if self.kind in ("draw", "recycle"):
            return self.kind
        return " + ".join(card.symbol for card in self.cards)

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


DRAW = Move("draw")
RECYCLE = Move("recycle")
