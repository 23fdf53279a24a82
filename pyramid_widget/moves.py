"""Moves: what a player can do, as a hashable value with a notation that round-trips.

`Move.parse` is the one reader of a typed move: notation ("8c+5h", for code) and the card
symbols a player reads ("5♥ + 8♣", `Move.text`), so a student's answer in a cell, `w.play`,
`Game.play` and `Puzzle.check` all read the same way. `IllegalMove` carries the reason, in the
player's words, why the rules refuse one. Whether a move is legal is the game's question
(`game.py`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

from . import words
from .cards import _SUIT_SYMBOLS, RANKS, SUITS, Card

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
        """Read a typed move: "draw", "recycle", one card (a King) or two (a pair, in either
        order). A card is a rank (A, 2-9, 10 or T, J, Q, K) and a suit (c d h s or ♣ ♦ ♥ ♠,
        either way round), in any case; two cards stand apart by "+", "&", "," or spaces.
        Raises IllegalMove, saying how a move is written, for anything else.

        >>> Move.parse("8c+5h"), Move.parse("a♠ q♥") == Move.parse("♠A+♥Q") == Move.parse("As+Qh")
        (Move.parse('5h+8c'), True)
        """
        if isinstance(text, Move):
            return text
        if not isinstance(text, str):
            raise IllegalMove(words.unreadable_move(text))
        found = _read(text)
        if found is None:
            raise IllegalMove(words.unreadable_move(text))
        if isinstance(found, str):
            return DRAW if found == "draw" else RECYCLE
        return cls.pair(*found) if len(found) == 2 else cls.king(found[0])

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

MAX_MOVE_TEXT = 40
"""The longest text read as a move (two cards with room for spaces); longer is refused unread."""

_SUITS = {letter: letter for letter in SUITS} | _SUIT_SYMBOLS
"""A suit as typed (a letter, or a symbol, black or white) and its letter."""


def _card_pattern(n: int) -> str:
    """Card `n` of a move: a rank and a suit, either way round, maybe a space apart."""
    rank, suit = r"10|[2-9atjqk]", "[" + "".join(_SUITS) + "]"
    return rf"(?:(?P<r{n}>{rank})\s*(?P<s{n}>{suit})|(?P<t{n}>{suit})\s*(?P<q{n}>{rank}))"


_MOVE = re.compile(rf"{_card_pattern(1)}(?:\s*[+&,]?\s*{_card_pattern(2)})?")
"""One card, or two. Rank letters and suit letters differ, so a text has one reading."""


def _read(text: str) -> str | list[Card] | None:
    """ "draw", "recycle", the cards a move names, or None if `text` is no move. Case is
    ignored, compatibility forms are folded (a full-width plus), and the emoji presentation
    mark some keyboards put after a suit symbol (♠️) is dropped."""
    if len(text) > MAX_MOVE_TEXT:
        return None
    folded = unicodedata.normalize("NFKC", text).replace("\ufe0f", "").replace("\ufe0e", "")
    word = folded.strip().lower()
    if word in ("draw", "recycle"):
        return word
    match = _MOVE.fullmatch(word)
    if match is None:
        return None
    cards = []
    for n in (1, 2):
        rank, suit = match[f"r{n}"] or match[f"q{n}"], match[f"s{n}"] or match[f"t{n}"]
        if rank is not None:
            cards.append(Card(RANKS.index("T" if rank == "10" else rank.upper()) + 1, _SUITS[suit]))
    return cards
