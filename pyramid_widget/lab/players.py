"""Players to measure a strategy against, each a few lines on the player's view.

- `random_player` plays any legal move (a seeded `RandomPlayer`).
- `greedy` removes what uncovers the most pyramid cards, else turns the stock.
- `pile_first` clears the waste top or a face-up stock top when it can ("use the waste before
  you draw"), and is greedy otherwise.
- `first_found` takes the first removal it comes to, reading the pyramid from the top row down
  and left to right, then the waste and the stock top: the habit auto-pair's tap has.
- `bottom_up` takes Kings at once and otherwise the removal lowest in the pyramid ("work from
  the bottom", "read the base before the apex").
- `partner_keeper` is greedy, but never makes a removal after which a card plainly can never
  leave ("watch out for burning partners": never pair a card whose partner another needs).
- `FairHint` plays what the fair hint suggests: strong and slow.
- `all_seeing` plays the exact solver's win on every deal it can be won: the bound no fair
  player passes (it sees every card, so `evaluate` and the board hand it the whole game).

Greedy's choice and the pile habit are `puzzles.players`' own (the puzzles' difficulty is
measured with them), asked of the view instead of a game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import PYRAMID_SIZE, Card
from ..moves import Move
from ..puzzles.losses import plain_loss
from ..puzzles.players import REMOVALS, after, greedy_choices, pile_choices
from ..solver import hint
from .player_view import PlayerView


def waiting(view: PlayerView) -> Move:
    """A move that removes nothing: draw, else recycle (a player is asked only while a move is
    left, so one of them is there whenever no removal is)."""
    return next(move for move in view.legal if move.kind not in REMOVALS)


def _removals(view: PlayerView) -> list[Move]:
    return [move for move in view.legal if move.kind in REMOVALS]


def greedy(view: PlayerView) -> Move:
    """The removal that uncovers the most pyramid cards (the first of equals), else the stock.

    >>> from pyramid_widget import Game
    >>> greedy(PlayerView.of(Game.deal(42)))    # a King uncovers what lies under it
    Move.parse('Ks')
    """
    choices = greedy_choices(view)
    return choices[0] if choices else waiting(view)


def pile_first(view: PlayerView) -> Move:
    """A removal of the waste top or the face-up stock top, else greedy's."""
    choices = pile_choices(view)
    return choices[0] if choices else waiting(view)


def first_found(view: PlayerView) -> Move:
    """The first removal met reading the cards in play in order (pyramid top row down, left to
    right, then the waste top and the stock top), as a tap with auto-pair finds one."""
    removals = _removals(view)
    for card in view.in_play:
        for move in removals:
            if card in move.cards:
                return move
    return waiting(view)


def bottom_up(view: PlayerView) -> Move:
    """A King at once; else the removal whose highest pyramid card lies lowest (cards of the
    waste and stock count as lowest of all), the first of equals; else the stock."""
    removals = _removals(view)
    kings = [move for move in removals if move.kind == "king"]
    if kings:
        return kings[0]
    if not removals:
        return waiting(view)

    def height(move: Move) -> int:
        """The smallest pyramid index among the move's cards (past the last for none)."""
        places = [view.dealt.index(card) for card in move.cards if card in view.dealt]
        return min(places, default=PYRAMID_SIZE)

    return max(removals, key=height)


def partner_keeper(view: PlayerView) -> Move:
    """Greedy among the removals after which no card is plainly lost, else greedy among all.

    Plainly lost is `puzzles.losses.plain_loss`: a pyramid card whose partners left all lie on
    it or under it, more pyramid cards of a value than partners left, or a dead end; spending
    a partner another card needs is how those come about. It asks a game made from the view
    alone (`PlayerView.game_as_seen`), and the checks read the unseen cards only as a set,
    which a player knows."""
    removals = _removals(view)
    if not removals:
        return waiting(view)
    table = view.game_as_seen()
    safe = [move for move in removals if plain_loss(after(table, move)) is None]
    return greedy_choices(_Only(view, safe or removals))[0]


@dataclass(frozen=True)
class _Only:
    """A view whose legal moves are narrowed to `moves`, for greedy's choice among them."""

    view: PlayerView
    moves: Sequence[Move]

    def legal_moves(self) -> list[Move]:
        return list(self.moves)

    def uncovered_by(self, move: Move) -> tuple[Card, ...]:
        return self.view.uncovered_by(move)


class RandomPlayer:
    """Any legal move, uniformly. The choice is seeded with `seed` and what the player sees
    (the deal's pyramid and the moves so far), so a game is played the same way on every run,
    in any process.

    >>> from pyramid_widget import Game
    >>> view = PlayerView.of(Game.deal(42))
    >>> RandomPlayer(seed=1).choose(view) == RandomPlayer(seed=1).choose(view)
    True
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: PlayerView) -> Move:
        seen = " ".join(map(str, (*view.dealt, *view.history)))
        return random.Random(f"{self.seed}|{view.rules.name}|{seen}").choice(view.legal)


random_player = RandomPlayer()


class FairHint:
    """The fair hint's suggestion (`solver.hint(fair=True)`, thinking at most `time_limit`
    seconds counted as search nodes, so it plays alike on any machine). It is asked of
    `PlayerView.game_as_seen`, which knows no more than the player."""

    name = "fair hint"

    def __init__(self, time_limit: float = 0.3) -> None:
        self.time_limit = time_limit

    def choose(self, view: PlayerView) -> Move:
        suggested = hint(view.game_as_seen(), fair=True, time_limit=self.time_limit).move
        return Move.parse(suggested) if suggested is not None else waiting(view)


fair_hint = FairHint()


class AllSeeing:
    """The all-seeing solver as a player: on a deal that can be won it plays the solver's
    winning line, so it wins every winnable deal; on the others it plays as `otherwise` does
    (greedy). It sees every card, so whoever plays it (`evaluate`, the board) hands it the
    solver's line for the whole game, never a view: it is the bound a fair player is measured
    against, not a fair player."""

    name = "all-seeing"
    otherwise = staticmethod(greedy)

    def choose(self, view: PlayerView) -> Move:
        raise TypeError(
            "the all-seeing player sees every card, so a view is not enough: evaluate() and "
            "watch() hand it the whole game"
        )


all_seeing = AllSeeing()

PLAYERS = {
    "random": random_player,
    "greedy": greedy,
    "pile_first": pile_first,
    "first_found": first_found,
    "bottom_up": bottom_up,
    "partner_keeper": partner_keeper,
    "fair_hint": fair_hint,
    "all_seeing": all_seeing,
}
"""The built-in players by name, the fastest first."""
