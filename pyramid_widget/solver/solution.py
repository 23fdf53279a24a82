"""`solve(game)`: the public face of the exact search, on a `Game` from any position."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal

from ..cards import PYRAMID_SIZE
from ..game import Game
from .budget import seconds_limit
from .gc_pause import collector_paused
from .problem import EMPTY_STOCK, Problem
from .search import SearchTimeout, Solver

Status = Literal["winnable", "unwinnable", "unknown"]


@dataclass(frozen=True)
class Solution:
    """What the solver found.

    status: "winnable" (``moves`` replay legally from the position to a win), "unwinnable" (a
        proof: every distinct position was covered) or "unknown" (the time limit stopped it).
    moves: notations ("5h+8c", "Kh", "draw", "recycle"); empty unless winnable.
    nodes: positions the search visited. seconds: wall time spent.
    optimal: True when ``moves`` is known to be a shortest win.
    """

    status: Status
    moves: tuple[str, ...] = ()
    nodes: int = 0
    seconds: float = 0.0
    optimal: bool = field(default=False)

    @property
    def winnable(self) -> bool | None:
        """True, False, or None when undecided."""
        return None if self.status == "unknown" else self.status == "winnable"


def problem_from_game(game: Game) -> Problem:
    """The solver's view of a game's current position (full knowledge of every card)."""
    cards = game.cards
    stock = cards[PYRAMID_SIZE:]
    where = {card: j for j, card in enumerate(stock)}
    removed = sum(1 << i for i, card in enumerate(game.pyramid) if card is None)
    waste, rest = game.waste, game.stock
    positions = [where[card] for card in waste + rest]
    if positions != sorted(positions):
        raise ValueError("waste and stock are not in their original order")
    S = sum(1 << j for j in positions)
    k = where[rest[0]] if rest else EMPTY_STOCK
    rules = game.rules
    return Problem(
        pyramid=tuple(str(card) for card in cards[:PYRAMID_SIZE]),
        stock=tuple(str(card) for card in stock),
        stock_in_play=rules.stock_in_play,
        king_from_stock=rules.king_from_stock,
        passes=rules.passes,
        deck_win=rules.win == "deck",
        start=(removed, S, k, game.pass_number),
    )


def solve(game: Game, *, time_limit: float | None = None, optimal: bool = False) -> Solution:
    """Decide whether ``game`` can still be won from its current position, and how.

    ``time_limit`` (seconds, None for no limit) bounds the whole call; when it runs out the
    status is "unknown", never a guess. With ``optimal=True`` the moves are a shortest win
    (every pair, King, draw and recycle counts one), found after the fast search has shown
    that a win exists. The game is not changed.
    """
    with collector_paused():  # the solver is gone before the collector is back (`gc_pause`)
        return _solve(game, time_limit, optimal)


def _solve(game: Game, time_limit: float | None, optimal: bool) -> Solution:
    time_limit = seconds_limit("time_limit", time_limit, unlimited=True)
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    problem = problem_from_game(game)
    solver = Solver(problem)
    try:
        moves = solver.solve(problem.start, deadline)
        if moves is not None and optimal:
            from .optimal import shortest

            moves = shortest(solver, problem.start, deadline, len(moves))
    except SearchTimeout:
        return Solution("unknown", (), solver.nodes, time.perf_counter() - started)
    seconds = time.perf_counter() - started
    if moves is None:
        return Solution("unwinnable", (), solver.nodes, seconds)
    return Solution("winnable", tuple(moves), solver.nodes, seconds, optimal=optimal)
