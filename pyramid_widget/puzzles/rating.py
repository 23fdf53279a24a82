"""Difficulty, measured: how often players who do not search go wrong, and how deep the loss lies.

The measures (`Measures`) rest on the solver's verdicts only, which are exact, never on how it
searches (no node count), so a faster solver rates every puzzle the same. No fair-hint player
is measured: on a fair puzzle it never goes wrong (with every card seen it is the exact solver,
and with a few unseen cards it tries every order of them, in each of which the answer, and only
the answer, keeps the win).

The rating (0-100) and its buckets::

    rating = 40 * greedy_wrong + 20 * pile_wrong + 20 * random_wrong + 20 * depth / DEPTH_CAP
    easy: rating < 30     medium: 30 <= rating < 55     hard: rating >= 55

So a puzzle whose natural move (the greedy one) is right is easy unless most removals lose and
the loss lies deep; a puzzle where the greedy move loses is at least medium.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from ..game import Game
from ..words import quoted
from .losses import plain_loss
from .players import REMOVALS, greedy_move

Difficulty = Literal["easy", "medium", "hard"]
DIFFICULTIES: tuple[Difficulty, ...] = ("easy", "medium", "hard")

DEPTH_CAP = 8
STEP_CAP = 400
MEDIUM_FROM = 30
HARD_FROM = 55


@dataclass(frozen=True)
class Measures:
    """What is measured on one puzzle.

    greedy_wrong: the share of the greedy player's choices here that lose (it removes what
        uncovers the most; see `players`).
    pile_wrong: the same for the pile player (waste top or stock top first).
    random_wrong: the share of all legal removals that lose (a player who picks any removal).
    depth: how deep the loss lies. After each losing removal (and a losing recycle) a greedy
        player plays on until the loss is plain (`losses.plain_loss`: a card that can never
        leave, a pyramid short of partners, a dead end, no move); ``depth`` is the most
        removals it still makes on the way, over those moves, capped at `DEPTH_CAP` (a loss
        that never shows plainly within `STEP_CAP` moves counts as the cap).
    """

    greedy_wrong: float
    pile_wrong: float
    random_wrong: float
    depth: int

    def __post_init__(self) -> None:
        for name in ("greedy_wrong", "pile_wrong", "random_wrong"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"{name} must be a share from 0 to 1, not {quoted(value)}")
            if not 0 <= value <= 1:  # NaN fails this too
                raise ValueError(f"{name} must be a share from 0 to 1, not {quoted(value)}")
        depth = self.depth
        if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= DEPTH_CAP:
            raise ValueError(
                f"depth must be a whole number from 0 to {DEPTH_CAP}, not {quoted(depth)}"
            )

    @property
    def rating(self) -> int:
        """The rating from 0 (easiest) to 100 (hardest), by the module's formula.

        >>> Measures(1.0, 0.5, 0.5, 4).rating
        70
        """
        score = (
            40 * self.greedy_wrong
            + 20 * self.pile_wrong
            + 20 * self.random_wrong
            + 20 * self.depth / DEPTH_CAP
        )
        return round(score)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> Measures:
        if not isinstance(data, dict) or set(data) != {f.name for f in fields(cls)}:
            raise ValueError("measures must be an object with " + ", ".join(_names()))
        return cls(**data)


def _names() -> list[str]:
    return [f.name for f in fields(Measures)]


def difficulty(rating: int) -> Difficulty:
    """The bucket of a rating.

    >>> difficulty(10), difficulty(30), difficulty(55)
    ('easy', 'medium', 'hard')
    """
    if rating >= HARD_FROM:
        return "hard"
    return "medium" if rating >= MEDIUM_FROM else "easy"


def loss_depth(game: Game) -> int:
    """Removals a greedy player makes from ``game`` (a lost position) before its loss is plain,
    capped at `DEPTH_CAP`."""
    trial = game.copy()
    made = 0
    for _ in range(STEP_CAP):
        if plain_loss(trial) is not None:
            return made
        move = greedy_move(trial)
        if move is None:  # stuck: plain_loss has said so already
            return made
        trial.play(move)
        if move.kind in REMOVALS:
            made += 1
            if made >= DEPTH_CAP:
                return DEPTH_CAP
    return DEPTH_CAP
