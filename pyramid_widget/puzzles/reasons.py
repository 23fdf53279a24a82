"""Why an answer keeps the win, and why a losing move loses (the sentences are `words`').

A losing move is explained by the plainest true reason found: a plain loss right after it
(`losses`), else the idea of its theme (the partner that frees more, the waste card another card
needs), else the solver's verdict in words. Only cards the player has seen are named, and a
losing move's reason never names an answer: it is what a wrong try is told.
"""

from __future__ import annotations

from .. import words
from ..cards import Card
from ..game import Game, Move
from .themes import Evidence, keeps_waste, shared_card, uncovers_more


def _seen(game: Game, notation: str) -> Card | None:
    card = Card.parse(notation)
    return card if card in game.seen else None


def answer_reason(evidence: Evidence, answer: Move) -> str:
    """Why ``answer`` is right, e.g. "8♦ + 5♣ keeps the win: it frees 9♦."."""
    game = evidence.game
    top = game.waste_top
    waste_kept = None
    for loser in evidence.losers:
        partner = keeps_waste(evidence, loser)
        better = _seen(game, partner) if partner else None
        if top is not None and better is not None:
            waste_kept = (top.symbol, better.symbol)
            break
    return words.keeps_the_win(
        answer.text,
        king=answer.kind == "king",
        freed=[card.symbol for card in game.uncovered_by(answer)],
        waste_kept=waste_kept,
        recycle_waits=any(loser.kind == "recycle" for loser in evidence.losers),
    )


def loser_reason(evidence: Evidence, loser: Move) -> str:
    """Why ``loser`` throws the win away, e.g. "After 5♥ + 8♣ the 9♦ can never leave: both
    Fours left lie on it (4♠ and 4♣)."."""
    game = evidence.game
    loss = evidence.losses.get(loser)
    if loss is not None:
        return words.lost_plainly(loser.kind, loser.text, loss.sentence)
    for answer in evidence.answers:
        if uncovers_more(game, answer, loser):
            return words.lost_partner(loser.text, shared_card(answer, loser).symbol)
    partner = keeps_waste(evidence, loser)
    better = _seen(game, partner) if partner else None
    if better is not None and game.waste_top is not None:
        return words.lost_waste_card(loser.text, game.waste_top.symbol, better.symbol)
    if loser.kind == "recycle":
        return words.RECYCLE_LOSES
    if loser.kind == "draw":
        top = game.waste_top
        alone = any(answer.cards == (top,) for answer in evidence.answers)  # a King
        return words.draw_loses(top.symbol if top else None, answer=alone)
    return words.lost_deeper(loser.text)
