"""Words for a hint, and a sensible move when the solver has no verdict.

Everything here looks only at cards the player can see in play (the pyramid, the waste top, a
face-up stock top) and at the move itself, so a fair hint's words never give away an unseen
card.
"""

from __future__ import annotations

from ..cards import Card
from ..game import Game, Move
from ..words import join_words


def where(game: Game, card: Card) -> str:
    """Where a card in play lies, for a sentence: "from the waste", "from the stock", or ""
    for a pyramid card (the board shows where those are)."""
    if card == game.waste_top:
        return " from the waste"
    if card == game.stock_top:
        return " from the stock"
    return ""


def uncovered(game: Game, move: Move) -> list[Card]:
    """Pyramid cards that this move exposes (they were covered before it)."""
    after = game.copy()
    after.play(move)
    before = set(game.exposed)
    return [card for card in after.exposed if card not in before]


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
    """What the move does and what it frees, in a player's words and card symbols, e.g.
    "pair 3♦ from the waste with 10♠: it frees 7♦, which then pairs with 6♠". With ``fair``,
    names only cards the player has seen (a stock top turned up by the move itself is not
    named).

    >>> from pyramid_widget import Game, Move
    >>> describe(Game.from_position({0: "5h"}, waste=["8c"]), Move.parse("5h+8c"))
    'pair 8♣ from the waste with 5♥'
    """
    known = game.seen if fair else frozenset(game.cards)
    if move.kind == "draw":
        left = game.stock_count
        card = "the last card" if left == 1 else "the next card"
        if not any(m.kind in ("pair", "king") for m in game.legal_moves()):
            return f"draw {card} from the stock (nothing in play pairs now)"
        return f"draw {card} from the stock rather than pair now"
    if move.kind == "recycle":
        passes = game.rules.passes
        total = "" if passes is None else f" of {passes}"
        return f"the stock is empty: turn the waste over for pass {game.pass_number + 1}{total}"
    if move.kind == "king":
        (king,) = move.cards
        head = f"remove {king.symbol}{where(game, king)}"
    else:
        a, b = sorted(move.cards, key=lambda card: where(game, card) == "")
        head = f"pair {a.symbol}{where(game, a)} with {b.symbol}{where(game, b)}"
    opened = uncovered(game, move)
    if not opened:
        return head
    parts = []
    for card in opened:
        partners = _partners_after(game, move, card, known)
        if card.is_king:
            parts.append(f"{card.symbol}, which can then go alone")
        elif partners:
            parts.append(f"{card.symbol}, which then pairs with {partners[0].symbol}")
        else:
            parts.append(card.symbol)
    return f"{head}: it frees {join_words(parts)}"


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
                -len(uncovered(game, move)),
                min(from_pyramid, default=99),
            )
        return (2,) if move.kind == "draw" else (3,)

    return sorted(moves, key=lambda move: (rank(move), str(move)))
