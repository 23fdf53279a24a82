"""What is on a board: a game with its recorder, and how a board's deal is picked.

A `Board` is what puzzle mode sets aside and brings back whole; `pick_deal` is the one place
that turns "a number, today's deal, a code, or a random (perhaps proven winnable) deal" into a
game, and says whether the player chose it (a chosen deal's number may be shown at once).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import solver
from .game import Game, deal_for_date
from .records import Recorder
from .rules import Rules
from .view import records_view
from .words import quoted


@dataclass
class Board:
    """A game on the board and what goes with it: the recorder that saves it, whether it was
    proven winnable when dealt (None: nobody asked), whether the player chose the deal (by
    number, the daily deal, a deal code), so that its number may be shown, and whether the
    deal could be won from its start at all (`lost_from_start`; `judging` while the solver
    is asked)."""

    game: Game
    recorder: Recorder
    proven: bool | None = None
    chosen: bool = False
    lost_from_start: bool | None = None
    judging: bool = False

    def records_mark(self) -> tuple[str, bool, str | None]:
        """What changes exactly when a game is recorded (won, lost, or an offer given up)."""
        recorder = self.recorder
        offer = recorder.offer.game_id if recorder.offer is not None else None
        return recorder.game_id, recorder.finished, offer

    def records_view(self) -> dict[str, Any]:
        """The Records panel of this board's rules."""
        recorder = self.recorder
        return records_view(
            recorder.records(), saving=recorder.store.saving, losses=recorder.latest_losses()
        )


def make_game(rules: Rules | str, deal: int | None, layout: str | None, game: Game | None) -> Game:
    """The starting game from a board's arguments (at most one way to pick the deal)."""
    chosen = [
        name
        for name, value in (("deal", deal), ("layout", layout), ("game", game))
        if value is not None
    ]
    if len(chosen) > 1:
        raise ValueError(f"give at most one of deal, layout and game, not {' and '.join(chosen)}")
    if game is not None:
        if not isinstance(game, Game):
            raise ValueError(f"game must be a Game, not {quoted(game)}")
        return game
    if layout is not None:
        return Game.from_layout(layout, rules)
    if deal is not None:
        if isinstance(deal, bool) or not isinstance(deal, int):
            raise ValueError(f"deal must be a deal number, not {quoted(deal)}")
        return Game.deal(deal, rules)
    return Game.random(rules)


def pick_deal(
    rules: Rules,
    number: int | None = None,
    *,
    daily: bool = False,
    code: str | None = None,
    winnable: bool = False,
) -> tuple[Game, bool | None, bool]:
    """The game, whether it was proven winnable (None: not asked) and whether the player chose
    it: numbered deal `number`, today's `daily` deal, the deal or position in a shared `code`
    (which carries its own rules), else a random deal of `rules`, proven winnable first when
    `winnable`."""
    if sum((number is not None, daily, code is not None)) > 1:
        raise ValueError("give at most one of number, daily and code")
    if code is not None:
        game = Game.from_code(code)
        return game, None, game.deal_number is not None
    if daily:
        return deal_for_date(None, rules), None, True
    if number is not None:
        return make_game(rules, number, None, None), None, True
    if winnable:
        return (*winnable_deal(rules), False)
    return Game.random(rules), None, False


def winnable_deal(rules: Rules) -> tuple[Game, bool]:
    """A random deal of `rules` the solver proved winnable, and whether it did (it gives up
    after a while and deals one it could not prove)."""
    found = solver.deal_winnable(rules)
    return found.game, bool(found.proven)
