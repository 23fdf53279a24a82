"""The sentences a player reads: why an answer keeps the win, and why a losing move loses.

A losing move is explained by the plainest true reason found: a plain loss right after it
(`losses`), else the idea of its theme (the partner that frees more, the waste card another card
needs), else the solver's verdict in words. Only cards the player has seen are named.
"""

from __future__ import annotations

from ..cards import Card
from ..game import Game, Move
from ..words import join_words, sentence
from .themes import Evidence, keeps_waste, shared_card, uncovers_more


def _seen(game: Game, notation: str) -> Card | None:
    card = Card.parse(notation)
    return card if card in game.seen else None


def answer_reason(evidence: Evidence, answer: Move) -> str:
    """Why ``answer`` is right, e.g. "8♦ + 5♣ keeps the win: it frees 9♦."."""
    game = evidence.game
    if answer.kind == "king":
        text = f"{answer.text} keeps the win: a King goes alone, so taking it costs nothing"
    else:
        text = f"{answer.text} keeps the win"
    freed = game.uncovered_by(answer)
    if freed:
        text += ("; it frees " if answer.kind == "king" else ": it frees ") + join_words(
            [card.symbol for card in freed]
        )
    top = game.waste_top
    for loser in evidence.losers:
        partner = keeps_waste(evidence, loser)
        better = _seen(game, partner) if partner else None
        if top is not None and better is not None:
            text += f", and the {top.symbol} stays on the waste for the {better.symbol}"
            break
    if any(loser.kind == "recycle" for loser in evidence.losers):
        text += "; the recycle can wait"
    return sentence(text)


def loser_reason(evidence: Evidence, loser: Move) -> str:
    """Why ``loser`` throws the win away, e.g. "After 5♥ + 8♣ the 9♦ can never leave: both
    Fours left lie on it (4♠ and 4♣)."."""
    game = evidence.game
    loss = evidence.losses.get(loser)
    if loser.kind == "draw":
        head = "after drawing,"
    elif loser.kind == "recycle":
        head = "after recycling,"
    else:
        head = f"after {loser.text}"
    if loss is not None:
        return sentence(f"{head} {loss.sentence}")
    for answer in evidence.answers:
        if uncovers_more(game, answer, loser):
            card = shared_card(answer, loser)
            (partner,) = (other for other in answer.cards if other != card)
            freed = join_words([c.symbol for c in game.uncovered_by(answer)])
            return sentence(
                f"after {loser.text} the deal can no longer be won: the {card.symbol} should go "
                f"with the {partner.symbol}, which frees {freed}"
            )
    partner = keeps_waste(evidence, loser)
    better = _seen(game, partner) if partner else None
    if better is not None and game.waste_top is not None:
        return sentence(
            f"after {loser.text} the deal can no longer be won: keep the "
            f"{game.waste_top.symbol} on the waste for the {better.symbol}"
        )
    if loser.kind == "recycle":
        return sentence(
            "recycling now loses: the waste comes back in the same order, and from the next "
            "pass on no line wins"
        )
    if loser.kind == "draw":
        top = game.waste_top
        covered = f"the {top.symbol} goes under the next card, and " if top else ""
        return sentence(f"drawing now loses: {covered}no line wins after that")
    return sentence(
        f"after {loser.text} the deal can no longer be won, however you play on: the solver "
        "checked every line"
    )
