"""Puzzles mined from real deals: positions where exactly one removal (or two) keeps the win.

As on chess's puzzle sites, each position comes from a real line of play (the solver's win of
a numbered deal, or a plausible player's game of it), and one move keeps the win where a
tempting one throws it away. Each puzzle is fair (its answer holds whatever order the unseen
cards lie in), has a stable id, the themes it teaches (`THEMES`) and a measured difficulty
(`rating`).

- `load(rules, theme, difficulty)`: the shipped set (at least 200 per preset), as a
  `PuzzleSet` with a stable order, `next` and `previous`; `counts(preset)`: how many each
  theme and difficulty holds.
- `Puzzle.game()`: a game at the position; `Puzzle.check(move)`: right or wrong, and why.
- `mine(deals, rules, executor=...)`: more puzzles on demand, on any executor.
- ``python -m pyramid_widget.puzzles mine`` remakes the shipped set (and prints how fast);
  ``python -m pyramid_widget.puzzles verify`` checks every shipped puzzle with the solver.

>>> from pyramid_widget import puzzles
>>> puzzle = puzzles.load("classic", difficulty="hard")[0]
>>> wrong = puzzle.check(puzzle.alternatives[0].move)
>>> wrong.right, wrong.keeps_win
(False, False)
"""

from __future__ import annotations

from .collection import SHIPPED, PuzzleSet, counts, load, read_puzzles, write_puzzles
from .mining import DealMined, DealTask, MineOptions, mine, mine_deal
from .puzzle import Choice, Puzzle, Verdict, puzzle_id
from .rating import DIFFICULTIES, Measures
from .themes import THEMES, Theme

__all__ = [
    "DIFFICULTIES",
    "SHIPPED",
    "THEMES",
    "Choice",
    "DealMined",
    "DealTask",
    "Measures",
    "MineOptions",
    "Puzzle",
    "PuzzleSet",
    "Theme",
    "Verdict",
    "counts",
    "load",
    "mine",
    "mine_deal",
    "puzzle_id",
    "read_puzzles",
    "write_puzzles",
]
