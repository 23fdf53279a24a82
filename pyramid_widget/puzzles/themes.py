"""Themes: the idea a puzzle teaches, detected from the position and the solver's verdicts.

Each theme has a precise test (`THEMES` gives the words, `detect` applies the tests). In what
follows, an *answer* is a removal that keeps the win and a *losing move* any other legal move
(all of them lose: see `mining`). The first five are the teaching notebook's lessons.

- ``uncover-more`` (pick the partner that uncovers more): an answer and a losing move are both
  pairs that share one card, and the answer frees a pyramid card that the losing move does not,
  freeing at least as many cards in all.
- ``trapped`` (a card trapped under its partners): right after some losing move a pyramid card
  can never leave, because every partner of it still in the game lies on it or under it (or
  none is left); before the move it could (`losses`).
- ``keep-waste`` (keep the waste card for a better partner): a losing move pairs the waste top,
  no answer uses it, and on the solver's winning line after an answer the waste top leaves with
  a different partner.
- ``pass-reserve`` (keep a pass in reserve): recycling is legal here and loses, under rules
  with a limited number of passes.
- ``kings`` (Kings at once): an answer removes a King. (Removing a King in play never costs a
  win, so it is always one of the answers when it is legal; the puzzle is to see it.)
- ``look-ahead`` (look further ahead): none of the tests above holds. The loss shows only
  deeper in the search; no named idea explains it, and the theme says so.

A pyramid short of partners (`losses`) explains a loss but is no theme: one move brings it about
only by pairing a partner with a card from outside the pyramid while the pyramid needs every
partner of that value left, which the mined lines of play do not show.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .. import words
from ..game import RECYCLE, Game, Move
from .losses import PlainLoss


@dataclass(frozen=True)
class Theme:
    """One theme: its id (used in data and filters), its title and what it means, for a
    player."""

    id: str
    title: str
    meaning: str


THEMES: dict[str, Theme] = {
    id: Theme(id, title, meaning) for id, (title, meaning) in words.THEME_WORDS.items()
}
"""Every theme, in the order puzzles list them."""


@dataclass(frozen=True)
class Evidence:
    """What the themes and the explanations are judged from: the position, its answers and
    losing moves, the solver's winning line after each answer, and the plain loss (if any)
    right after each losing move."""

    game: Game
    answers: tuple[Move, ...]
    losers: tuple[Move, ...]
    lines: Mapping[Move, tuple[str, ...]]
    losses: Mapping[Move, PlainLoss | None]


def shared_card(a: Move, b: Move):
    """The one card two different pairs share, or None."""
    if a.kind != "pair" or b.kind != "pair" or a == b:
        return None
    common = set(a.cards) & set(b.cards)
    return next(iter(common)) if len(common) == 1 else None


def uncovers_more(game: Game, answer: Move, loser: Move) -> bool:
    """The ``uncover-more`` test for one answer and one losing move."""
    if shared_card(answer, loser) is None:
        return False
    freed, other = set(game.uncovered_by(answer)), set(game.uncovered_by(loser))
    return bool(freed - other) and len(freed) >= len(other)


def later_partner(line: tuple[str, ...], card) -> str | None:
    """The card (notation) that ``card`` pairs with on a winning line, or None if it never
    pairs on it."""
    name = str(card)
    for notation in line:
        parts = notation.split("+")
        if name in parts and len(parts) == 2:
            return parts[1] if parts[0] == name else parts[0]
    return None


def keeps_waste(evidence: Evidence, loser: Move) -> str | None:
    """The ``keep-waste`` test for one losing move: the better partner's notation, or None."""
    top = evidence.game.waste_top
    if top is None or loser.kind != "pair" or top not in loser.cards:
        return None
    if any(top in answer.cards for answer in evidence.answers):
        return None
    (bait,) = (card for card in loser.cards if card != top)
    for answer in evidence.answers:
        partner = later_partner(evidence.lines.get(answer, ()), top)
        if partner is not None and partner != str(bait):
            return partner
    return None


def detect(evidence: Evidence) -> tuple[str, ...]:
    """The ids of the themes whose tests hold, in `THEMES` order (``look-ahead`` alone when no
    other does)."""
    game, answers, losers = evidence.game, evidence.answers, evidence.losers
    kinds = {loss.kind for loss in evidence.losses.values() if loss is not None}
    found = {
        "uncover-more": any(uncovers_more(game, a, b) for a in answers for b in losers),
        "trapped": "trapped" in kinds,
        "keep-waste": any(keeps_waste(evidence, b) for b in losers),
        "pass-reserve": RECYCLE in losers and game.rules.passes is not None,
        "kings": any(answer.kind == "king" for answer in answers),
    }
    themes = tuple(theme for theme in THEMES if found.get(theme))
    return themes or ("look-ahead",)
