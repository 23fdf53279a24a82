"""One game played by a strategy, from the position given to its end.

The strategy is shown a fresh `PlayerView` before every move and its answer is played through
the engine. The game ends when it is won; when no move is left (stuck); when the strategy
answers a move the rules refuse (the game is lost, and the answer and the engine's reason are
kept); under unlimited passes, when a whole pass from one recycle to the next removed nothing
(stalled: the same pass would come round for ever); and, as a last guard, after `MOVE_LIMIT`
moves. The all-seeing player is handed the solver's winning line instead of views.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..game import Game
from ..moves import IllegalMove, Move
from .player_view import PlayerView
from .players import AllSeeing
from .strategy import ask, chooser

Ending = Literal["won", "stuck", "refused", "stalled", "too long"]

MOVE_LIMIT = 2000
"""Moves after which a game is stopped whatever happens (only unlimited passes get near)."""


@dataclass(frozen=True)
class Ended:
    """How a game ended: its `Ending`, and for a refused answer what the strategy answered
    (``answer``: a move's notation, or the repr of what was no move) and the engine's reason."""

    ending: Ending
    answer: str | None = None
    reason: str | None = None
    seconds: float = field(default=0.0, compare=False)


class LineFails(ValueError):
    """A winning line handed to the all-seeing player does not win (a damaged verdict)."""


def play_out(
    strategy: Any,
    game: Game,
    *,
    player: str,
    deal: int | str,
    line: Sequence[str] | None = None,
) -> Ended:
    """Play `game` (changed in place) with `strategy` to the end; `line`: the solver's winning
    line from here, for the all-seeing player (None where there is none: it then plays as
    its `otherwise` does). A `StrategyError` from the strategy goes to the caller."""
    started = time.perf_counter()
    if isinstance(strategy, AllSeeing):
        if line is not None:
            return _replay(game, line, started)
        strategy = strategy.otherwise
    ended = _loop(chooser(strategy), game, player, deal)
    return Ended(ended.ending, ended.answer, ended.reason, time.perf_counter() - started)


def _loop(choose: Any, game: Game, player: str, deal: int | str) -> Ended:
    unlimited = game.rules.passes is None
    last_pass: tuple[int, int] | None = None
    for _ in range(MOVE_LIMIT):
        if game.is_won:
            return Ended("won")
        view = PlayerView.of(game)
        if not view.legal:
            return Ended("stuck")
        move, refused = ask(choose, view, player=player, deal=deal)
        if refused is not None:
            return Ended("refused", *refused)
        try:
            game.play(move)
        except IllegalMove as error:
            return Ended("refused", str(move), error.reason)
        if unlimited and move.kind == "recycle":
            left = (game.cleared, len(game.position.rest))
            if left == last_pass:
                return Ended("stalled")
            last_pass = left
    return Ended("won" if game.is_won else "too long")


def _replay(game: Game, line: Sequence[str], started: float) -> Ended:
    try:
        game.replay(Move.parse(move) for move in line)
    except IllegalMove as error:
        raise LineFails(f"the winning line is refused: {error.reason}") from None
    if not game.is_won:
        raise LineFails("the winning line does not win")
    return Ended("won", seconds=time.perf_counter() - started)
