"""What a hint says about a move (the words are `words`'), and a sensible move when the
solver has no verdict.

Everything here looks only at cards the player can see in play (the pyramid, the waste top, a
face-up stock top) and at the move itself, so a fair hint's words never give away an unseen
card.
"""

from __future__ import annotations

from .. import words
from ..cards import Card
from ..game import Game, Move


def _pile(game: Game, card: Card) -> str | None:
    """The pile a card in play lies on, or None for a pyramid card."""
    if card == game.waste_top:
        return "waste"
    if card == game.stock_top:
        return "stock"
    return None


def _partners_after(game: Game, move: Move, card: Card, known: frozenset[Card]) -> list[Card]:
    """Cards in play after the move that pair with ``card``: waste and stock tops first."""
    after = game.copy()
    after.play(move)
    tops = [top for top in (after.waste_top, after.stock_top) if top is not None]
    return [
        other
        for other in tops + [c for c in after.exposed if c not in tops]
        if other != card and other.pairs_with(card) and other in known
    ]


def describe(game: Game, move: Move, *, fair: bool = False) -> str:
    """What the move does, in full: where its cards lie, the pyramid cards it frees and what
    those can do then, in a player's words and card symbols, e.g. "pair 3♦ from the waste
    with 10♠: it frees 7♦ and 4♣; then 7♦ pairs with 6♠". With ``fair``, names only partners
    the player has seen (a stock top turned up by the move itself is not named).

    >>> from pyramid_widget import Game, Move
    >>> describe(Game.from_position({0: "5h"}, waste=["8c"]), Move.parse("5h+8c"))
    'pair 8♣ from the waste with 5♥'
    """
    if move.kind in ("draw", "recycle"):
        return in_short(game, move)
    known = game.seen if fair else frozenset(game.cards)
    cards = sorted(move.cards, key=lambda card: _pile(game, card) is None)  # piles first
    advice = words.removal_advice([words.card_from(card, _pile(game, card)) for card in cards])
    opened = list(game.uncovered_by(move))
    if not opened:
        return advice
    kings = [card for card in opened if card.is_king]
    then = [words.go_alone(kings)] if kings else []
    told: set[Card] = set(kings)
    for card in opened:
        if card in told:
            continue
        partners = _partners_after(game, move, card, known)
        twin = next((other for other in partners if other in opened), None)
        if twin is not None:
            then.append(words.pair_each_other(card, twin))
            told.add(twin)
        elif partners:
            then.append(words.pairs_then(card, partners[0]))
        told.add(card)
    return words.frees(advice, opened, then)


def in_short(game: Game, move: Move) -> str:
    """The move and one reason, for the hint line: "pair 9♠ with 4♦: it frees 6♥" (the board
    shows where the cards lie), "draw the next card: nothing pairs now".

    >>> from pyramid_widget import Game, Move
    >>> game = Game.from_position({0: "Qs", 1: "5h", 2: "8d"}, waste=["8c"], stock=["As", "5c"])
    >>> in_short(game, Move.parse("5h+8c"))
    'pair 8♣ with 5♥'
    >>> in_short(game, Move.parse("5h+8d"))
    'pair 5♥ with 8♦: it frees Q♠'
    """
    if move.kind == "draw":
        pairs_open = any(m.kind in ("pair", "king") for m in game.legal_moves())
        return words.draw_advice(last=game.stock_count == 1, pairs_open=pairs_open)
    if move.kind == "recycle":
        return words.recycle_advice(game.pass_number + 1, game.rules.passes)
    cards = sorted(move.cards, key=lambda card: _pile(game, card) is None)  # as `describe`
    advice = words.removal_advice([card.symbol for card in cards])
    opened = list(game.uncovered_by(move))
    return words.frees(advice, opened) if opened else advice


def named(game: Game, move: Move) -> str:
    """The move inside a sentence, its cards in the order the hint names them: "7♣ + 6♠",
    "K♥", "a draw"."""
    cards = sorted(move.cards, key=lambda card: _pile(game, card) is None)
    return words.move_named(move.kind, " + ".join(card.symbol for card in cards))


def sensible_order(game: Game, moves: list[Move]) -> list[Move]:
    """The legal moves, most sensible first, for when the solver has no verdict: a King, then
    pairs (more pyramid cards and more uncovered cards first, higher rows first), then a draw,
    then a recycle. Depends only on cards in play."""
    pyramid = {card: i for i, card in enumerate(game.pyramid) if card is not None}

    def rank(move: Move) -> tuple:
        if move.kind == "king":
            return (0,)
        if move.kind == "pair":
            from_pyramid = [pyramid[c] for c in move.cards if c in pyramid]
            return (
                1,
                -len(from_pyramid),
                -len(game.uncovered_by(move)),
                min(from_pyramid, default=99),
            )
        return (2,) if move.kind == "draw" else (3,)

    return sorted(moves, key=lambda move: (rank(move), str(move)))
