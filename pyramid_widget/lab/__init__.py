"""The strategy lab: write a player in a few lines, measure it against the exact solver on
thousands of deals, and watch it play on the board.

- `PlayerView`: what a player at the table sees (a strategy's only input); `UnseenCard`.
- A strategy is a function ``view -> Move`` or an object with ``choose(view)``; the built-in
  players (`players`) are `random_player`, `greedy`, `pile_first`, `first_found`,
  `bottom_up`, `partner_keeper`, `fair_hint` and the bound, `all_seeing`.
- `evaluate(strategy, rules, deals)` gives a `Scorecard`; `compare([...], rules, deals)` a
  `Comparison` (a table, and a chart with matplotlib, the ``[plots]`` extra).
- `PyramidEnv`: a Gymnasium environment (the ``[gym]`` extra), loaded on first use.
- On a board: ``w.watch(strategy)`` (see `pyramid_widget.watch_mode`).

>>> from pyramid_widget.lab import PlayerView, greedy
>>> from pyramid_widget import Game
>>> greedy(PlayerView.of(Game.deal(7)))
Move.parse('Ac+Qh')
"""

from __future__ import annotations

from typing import Any

from .comparison import Comparison, compare
from .evaluation import evaluate
from .player_view import PlayerView, StockView, UnseenCard
from .players import (
    PLAYERS,
    AllSeeing,
    FairHint,
    RandomPlayer,
    all_seeing,
    bottom_up,
    fair_hint,
    first_found,
    greedy,
    partner_keeper,
    pile_first,
    random_player,
)
from .scorecard import LostDeal, Played, Scorecard
from .strategy import Strategy, StrategyError


def __getattr__(name: str) -> Any:
    """`PyramidEnv` needs gymnasium and numpy (the ``[gym]`` extra): loaded when asked for."""
    if name == "PyramidEnv":
        from .env import PyramidEnv

        return PyramidEnv
    raise AttributeError(f"module 'pyramid_widget.lab' has no attribute {name!r}")


__all__ = [
    "PLAYERS",
    "AllSeeing",
    "Comparison",
    "FairHint",
    "LostDeal",
    "Played",
    "PlayerView",
    "PyramidEnv",
    "RandomPlayer",
    "Scorecard",
    "StockView",
    "Strategy",
    "StrategyError",
    "UnseenCard",
    "all_seeing",
    "bottom_up",
    "compare",
    "evaluate",
    "fair_hint",
    "first_found",
    "greedy",
    "partner_keeper",
    "pile_first",
    "random_player",
]
