"""Review mode: the review on a board, beside puzzle mode.

The board shows a review's table while it shows the reviewed game at one of its moves, and
steps through that game by undo and redo, so the table and the board's own buttons agree. The
solver judges with every card known, so a game is reviewed only once it is over or every card
has been seen. The review is made as a job (`jobs.Jobs`): the board plays on meanwhile, and a
review of a game that moved on is dropped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .game import Game, IllegalMove
from .review import DEFAULT_TIME_LIMIT, Review, review
from .view import REVIEWING, MoveEvent, failed_view, review_view
from .words import NO_REVIEW, NOTHING_TO_REVIEW, REVIEW_LOCKED

if TYPE_CHECKING:
    from .session import GameSession


class ReviewMode:
    """The review on a session's board: what the board shows of it (`shown`: the table,
    REVIEWING while it is made, or a failure), the game it judged and the whole line of moves
    it judged."""

    def __init__(self, session: GameSession) -> None:
        self._session = session
        self.shown: dict[str, Any] | None = None
        self.game: Game | None = None
        self.line: tuple[str, ...] = ()
        self._reviewing: tuple[str, ...] | None = None  # the line of the review job under way

    @property
    def thinking(self) -> bool:
        return self.shown == REVIEWING

    @property
    def done(self) -> bool:
        return self.shown is not None and self.shown.get("status") == "done"

    @staticmethod
    def refusal(game: Game, finished: bool) -> str | None:
        """Why `game` cannot be reviewed now, or None (`finished`: the records count it)."""
        if not game.open_book and not finished:
            return REVIEW_LOCKED
        if not game.can_undo and not game.can_redo:
            return NOTHING_TO_REVIEW
        return None

    def run(self, time_limit: float | None = None) -> Review:
        """Review the game on the board now, show the table there, and return the `Review`."""
        session = self._session
        with session.lock:
            line, ticket = self._start(), session.jobs.generation
        limit = DEFAULT_TIME_LIMIT if time_limit is None else time_limit
        result = review(line, time_limit=limit)
        session.jobs.deliver(ticket, lambda: self._show(review_view(result)))
        return result

    def request(self) -> None:
        """A view's Review: REVIEWING on the board, then the table, as a job. One job at a
        time: a review asked for again while one is under way waits for it (a review is of a
        line of moves, so a finished one serves whoever still wants that line)."""
        with self._session.lock:
            if self.thinking:
                return
            line = self._start()
            self._show(REVIEWING)
            if self._reviewing is None:
                self._launch(line)

    def _launch(self, line: Game) -> None:
        moves = self._reviewing = tuple(line.log)

        def finished(shown: dict[str, Any]) -> None:
            self._reviewing = None
            if not self.thinking:
                return  # closed, or the board moved on: nobody waits for it
            if moves == self.line:
                self._show(shown)
            else:  # another line is wanted now: review that one
                self._launch(self._line_of(self._session.board.game))

        self._session.jobs.run(
            "review",
            lambda: review_view(review(line)),
            finished,
            lambda error: finished(failed_view("review", error)),
            lasting=True,
        )

    def step(self, moves: Any) -> None:
        """Show the reviewed game after its first `moves` moves (0: the deal's start), by undo
        or by replaying its moves, so Redo and the table both step forward again. Not a new
        attempt: the records are untouched and the clock does not run back."""
        session = self._session
        with session.lock:
            session.check_not_paused()
            if not self.done:
                raise IllegalMove(NO_REVIEW)
            line, game = self.line, session.game
            if isinstance(moves, bool) or not isinstance(moves, int) or not 0 <= moves <= len(line):
                raise ValueError(f"moves must be a number from 0 to {len(line)}, not {moves!r}")
            while len(game.history) > moves:
                game.undo()
            game.replay(line[len(game.history) : moves])
            session.changed(MoveEvent("step"))

    def close(self) -> None:
        """Close the review; a board stepped back through the game returns to its end."""
        session = self._session
        with session.lock:
            game = session.game
            stepped = self.done and game is self.game and len(game.history) != len(self.line)
            if stepped and not session.paused:
                self.step(len(self.line))
            self.drop()
            session.publish()

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

    def _start(self) -> Game:
        """Note the game on the board as the one reviewed, from now on practice, and return a
        copy of its whole line (redo moves included); IllegalMove with the reason if it cannot
        be reviewed."""
        board = self._session.board
        refusal = self.refusal(board.game, board.recorder.finished)
        if refusal is not None:
            raise IllegalMove(refusal)
        line = self._line_of(board.game)
        self.game, self.line = board.game, tuple(line.log)
        board.recorder.mark_practice()  # the review saw every card: no win can count now
        return line

    @staticmethod
    def _line_of(game: Game) -> Game:
        """A copy of `game` with its whole line played (redo moves included)."""
        line = game.copy()
        while line.can_redo:
            line.redo()
        return line

    def _show(self, shown: dict[str, Any]) -> None:
        self.shown = shown
        self._session.publish()
