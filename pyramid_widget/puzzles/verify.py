"""The solver's check of a puzzle: its answers keep the win, every alternative loses it, the
choices are exactly the legal moves, and (with ``fairness``) no order of the unseen cards
changes any of that.

The mining command runs it on every puzzle it writes, and the tests on the shipped set.
"""

from __future__ import annotations

from ..game import Game
from ..solver import solve
from .mining import arrangements
from .players import after
from .puzzle import Puzzle, puzzle_id

STATUS = {True: "winnable", False: "unwinnable"}


def problems(puzzle: Puzzle, *, fairness: bool = True, time_limit: float = 60.0) -> list[str]:
    """What is wrong with ``puzzle``, in sentences (an empty list when nothing is)."""
    game = puzzle.game()
    found = []
    if puzzle_id(game) != puzzle.id:
        found.append("its id is not its position's")
    found += _verdicts(game, puzzle, time_limit, "")
    if fairness:
        for other in arrangements(game):
            found += _verdicts(other, puzzle, time_limit, " with the unseen cards reordered")
            if found:
                break
    return [f"puzzle {puzzle.id}: {problem}" for problem in found]


def _verdicts(game: Game, puzzle: Puzzle, time_limit: float, where: str) -> list[str]:
    listed = {choice.move: choice for choice in puzzle.answers + puzzle.alternatives}
    legal = {str(move) for move in game.legal_moves()}
    if legal != set(listed):
        return [f"its choices {sorted(listed)} are not the legal moves {sorted(legal)}{where}"]
    found = []
    for notation, choice in listed.items():
        status = solve(after(game, notation), time_limit=time_limit).status
        if status != STATUS[choice.keeps_win]:
            found.append(f"after {notation} the solver says {status}{where}")
    return found
