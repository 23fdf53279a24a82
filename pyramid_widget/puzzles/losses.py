"""Losses a player can see without searching, each with the sentence that explains it (`words`).

The solver proves a move loses by covering every line; a player wants a reason. Four checks
find the reasons that need no search, and each is sound (it fires only on a lost position), so
a sentence built from one is always true:

- a card that can never leave: every partner of a pyramid card still in the game lies on it or
  under it (a card never pairs with a card on it, and a card under it is free only once it has
  gone), or no partner is left at all; under the whole-deck win the same for a seen card in the
  stock or waste;
- a pyramid short of partners: more pyramid cards of one value than cards of the matching value
  left anywhere (each pyramid card needs a partner of its own);
- a dead end (`Game.is_dead_end`): nothing open pairs and nothing still to come fits;
- no move at all.

The sentences name only cards the player has seen: pyramid cards, and counts of values (which a
player can work out from the cards already gone).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .. import words
from ..cards import LYING_ON, Card
from ..game import Game

LossKind = Literal["trapped", "shortage", "dead end", "stuck"]


@dataclass(frozen=True)
class PlainLoss:
    """Why a position is lost, plainly. ``sentence`` completes "after <move> ...", e.g. "the
    9♦ can never leave: both Fours left lie on it (4♠ and 4♣)"; ``card`` is the card that can
    never leave (for "trapped")."""

    kind: LossKind
    sentence: str
    card: Card | None = None


def plain_loss(game: Game) -> PlainLoss | None:
    """The first plain reason why ``game`` is lost, or None when none of the checks fires (the
    position may still be lost: only the solver can say).

    >>> lost = Game.from_position({0: "9d", 1: "4s", 2: "Kc"})
    >>> plain_loss(lost).sentence
    'the 9♦ can never leave: the only Four left, 4♠, lies on it'
    """
    if game.is_won:
        return None
    return _trapped(game) or _shortage(game) or _dead_end(game)


def _left(game: Game) -> tuple[dict[int, Card], tuple[Card, ...]]:
    """The pyramid cards still there by index, and the cards of stock and waste."""
    pyramid = {i: card for i, card in enumerate(game.pyramid) if card is not None}
    return pyramid, game.waste + game.stock


def _trapped(game: Game) -> PlainLoss | None:
    pyramid, rest = _left(game)
    for i, card in pyramid.items():
        if card.is_king:
            continue
        partners = [(j, other) for j, other in pyramid.items() if other.pairs_with(card)]
        if any(other.pairs_with(card) for other in rest):
            continue
        if all(j in LYING_ON[i] or i in LYING_ON[j] for j, _ in partners):
            on = [other for j, other in partners if j in LYING_ON[i]]
            under = [other for j, other in partners if i in LYING_ON[j]]
            return PlainLoss("trapped", words.trapped(card, on, under), card)
    if game.rules.win == "deck":
        seen = game.seen
        for card in rest:
            if card.is_king or card not in seen:
                continue
            others = [*pyramid.values(), *(rest if game.rules.stock_in_play else ())]
            if not any(other.pairs_with(card) for other in others):
                return PlainLoss("trapped", words.no_partner_left(card))
    return None


def _shortage(game: Game) -> PlainLoss | None:
    pyramid, rest = _left(game)
    cards = [*pyramid.values(), *rest]
    for value in range(1, 13):
        in_pyramid = sum(card.value == value for card in pyramid.values())
        partners = sum(card.value == 13 - value for card in cards)
        if in_pyramid > partners:
            return PlainLoss("shortage", words.short_of_partners(value, in_pyramid, partners))
    return None


def _dead_end(game: Game) -> PlainLoss | None:
    if not game.legal_moves():
        return PlainLoss("stuck", words.NO_MOVE_LEFT)
    if game.is_dead_end:
        return PlainLoss("dead end", words.DEAD_END)
    return None
