"""The solver: exact search, fair and all-seeing hints, winnable deals, winnability statistics.

`solve(game)` decides a position (and gives a winning line, optionally a shortest one);
`hint(game)` suggests a move with words for the player; `deal_winnable(rules)` deals a game
proven winnable; `winnability(deals, rules)` counts verdicts over many deals on any executor.
The engine is never changed by any of them: they work on copies or on the solver's own
representation (see `problem`).
"""

from .hints import Hint, hint
from .solution import Solution, solve
from .stats import Winnability, WinnableDeal, deal_winnable, wilson, winnability

__all__ = [
    "Hint",
    "Solution",
    "Winnability",
    "WinnableDeal",
    "deal_winnable",
    "hint",
    "solve",
    "wilson",
    "winnability",
]
