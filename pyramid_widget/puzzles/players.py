"""Players who do not search: the habits that make a puzzle hard, and a plausible player whose
mistakes the miner looks at.

- The greedy player removes what uncovers the most pyramid cards (`greedy_choices`).
- The pile player clears the waste top or the face-up stock top first, when it can
  (`pile_choices`), and is greedy otherwise.
- The plausible player (`PlausiblePlayer`) mixes greedy removals, any removal and draws, from a
  seeded generator: the lines it plays are the "real games" the miner looks along.

Ties are kept: a player torn between equal moves picks any of them, so how often it goes wrong
is a share, not a coin toss.
"""

from __future__ import annotations

from ..deals import splitmix64
from ..game import Game, Move

REMOVALS = ("pair", "king")


def removals(game: Game) -> list[Move]:
    """The legal pairs and Kings, in `Game.legal_moves` order."""
    return [move for move in game.legal_moves() if move.kind in REMOVALS]


def after(game: Game, move: Move | str) -> Game:
    """The game after ``move``, leaving ``game`` as it was."""
    trial = game.copy()
    trial.play(move)
    return trial


def greedy_choices(game: Game) -> list[Move]:
    """The removals that uncover the most pyramid cards (all of them when tied). In the
    teaching notebook's lesson 3 each 8 frees one card, so greedy play is a coin toss:

    >>> game = Game.from_position(
    ...     {0: "Ah", 1: "Jc", 2: "9d", 3: "8h", 5: "8d"},
    ...     stock=["4c", "Ts", "5s", "2s", "Qs", "3h"],
    ...     waste=["5c"],
    ...     pass_number=3,
    ... )
    >>> [str(move) for move in greedy_choices(game)]
    ['5c+8h', '5c+8d']
    """
    moves = removals(game)
    if not moves:
        return []
    freed = {move: len(game.uncovered_by(move)) for move in moves}
    most = max(freed.values())
    return [move for move in moves if freed[move] == most]


def pile_choices(game: Game) -> list[Move]:
    """The removals that take the waste top or the face-up stock top; greedy if there are none."""
    tops = {card for card in (game.waste_top, game.stock_top) if card is not None}
    moves = [move for move in removals(game) if tops & set(move.cards)]
    return moves or greedy_choices(game)


def greedy_move(game: Game) -> Move | None:
    """One greedy move for playing on: the first greedy removal, else a draw, else a recycle."""
    choices = greedy_choices(game)
    if choices:
        return choices[0]
    waits = [move for move in game.legal_moves() if move.kind not in REMOVALS]
    return waits[0] if waits else None


class PlausiblePlayer:
    """A player who makes the mistakes people make, the same ones for the same seed.

    Each turn with a removal open: greedy (a removal that uncovers the most) 60 % of the time,
    any removal 25 %, otherwise it draws (or recycles). SplitMix64 (as numbered deals use)
    makes the choices, so they never change with the Python version.
    """

    GREEDY = 0.60
    ANY = 0.85

    def __init__(self, seed: int) -> None:
        self._numbers = splitmix64(seed)

    def _uniform(self) -> float:
        return next(self._numbers) / 2**64

    def _pick(self, moves: list[Move]) -> Move:
        return moves[next(self._numbers) % len(moves)]

    def choose(self, game: Game) -> Move | None:
        """This player's move in ``game`` (None when no move is left)."""
        moves = game.legal_moves()
        if not moves:
            return None
        waits = [move for move in moves if move.kind not in REMOVALS]
        open_removals = [move for move in moves if move.kind in REMOVALS]
        roll = self._uniform()
        if open_removals and (roll < self.ANY or not waits):
            if roll < self.GREEDY:
                return self._pick(greedy_choices(game))
            return self._pick(open_removals)
        return waits[0]
