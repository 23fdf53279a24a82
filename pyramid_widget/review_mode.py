"""Review mode: the review on a board, beside `puzzle_mode.PuzzleRun`.

The board shows a review's table while it shows the reviewed game at one of its moves, and
steps through that game by undo and redo, so the table and the board's own buttons agree. The
solver judges with every card known, so a game is reviewed only once it is over or every card
has been seen.
"""

from __future__ import annotations

from typing import Any

from .game import Game, IllegalMove
from .view import REVIEWING, MoveEvent
from .words import NO_REVIEW, NOTHING_TO_REVIEW, REVIEW_LOCKED


class ReviewRun:
    """What the board shows of a review (`view.review_view`, REVIEWING while it is made, or a
    failure), the game it judged and the whole line of moves it judged."""

    def __init__(self) -> None:
        self.shown: dict[str, Any] | None = None
        self.game: Game | None = None
        self.line: tuple[str, ...] = ()

    @property
    def thinking(self) -> bool:
        return self.shown == REVIEWING

    @property
    def done(self) -> bool:
        return self.shown is not None and self.shown.get("status") == "done"

    @staticmethod
    def refusal(game: Game, finished: bool) -> str | None:
        """Why `game` cannot be reviewed now, or None (`finished`: the records count it)."""
        over = game.outcome is not None or finished
        if not over and not set(game.cards) <= game.seen:
            return REVIEW_LOCKED
        if not game.can_undo and not game.can_redo:
            return NOTHING_TO_REVIEW
        return None

    def start(self, game: Game, finished: bool) -> Game:
        """Note that `game` is being reviewed and return a copy of its whole line (redo moves
        included) for the reviewer; IllegalMove with the reason if it cannot be."""
        refusal = self.refusal(game, finished)
        if refusal is not None:
            raise IllegalMove(refusal)
        line = game.copy()
        while line.can_redo:
            line.redo()
        self.game, self.line = game, tuple(line.log)
        return line

    def step(self, game: Game, moves: Any) -> None:
        """Show the reviewed game after its first `moves` moves (0: the deal's start), by undo
        or by replaying its moves, so Redo and the table both step forward again."""
        if not self.done:
            raise IllegalMove(NO_REVIEW)
        line = self.line
        if isinstance(moves, bool) or not isinstance(moves, int) or not 0 <= moves <= len(line):
            raise ValueError(f"moves must be a number from 0 to {len(line)}, not {moves!r}")
        while len(game.history) > moves:
            game.undo()
        game.replay(line[len(game.history) : moves])

    def stepped_back(self, game: Game) -> bool:
        """The board shows the reviewed game at another move than where it ended."""
        return self.done and game is self.game and len(game.history) != len(self.line)

    def fits(self, game: Game, event: MoveEvent) -> bool:
        """A finished review stays while the board shows the reviewed game at one of its moves
        (a review still being made was about the board before this change)."""
        if self.shown is None or self.thinking:
            return False
        if event.action in ("new", "restart", "continue") or game is not self.game:
            return False
        return list(self.line[: len(game.log)]) == game.log

    def drop(self) -> None:
        self.shown, self.game, self.line = None, None, ()
