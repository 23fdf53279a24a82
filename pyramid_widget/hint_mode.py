"""What the solver says on a board: hints, asked from a cell (and shown on the board too) or by
a view's Hint button, which shows "checking" while the solver thinks (as a job: the board plays
on meanwhile, and a hint for a position no longer on the board is dropped); and, once every
card may be said, whether the deal could be won from its start at all. A puzzle gives no
hints."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import solver
from .game import Game, IllegalMove
from .view import CHECKING, failed_view, hint_view
from .words import NO_HINTS_IN_PUZZLES

if TYPE_CHECKING:
    from .session import GameSession

JUDGE_S = 5.0
"""Seconds the solver may take to say whether a deal could be won from its start."""


class HintMode:
    """The hint on a session's board (`shown`: `view.hint_view` of it, CHECKING, a failure, or
    None) and how long a hint may think."""

    def __init__(self, session: GameSession) -> None:
        self._session = session
        self.shown: dict[str, Any] | None = None
        self.time_limit = 1.0

    def ask(self, fair: bool | None = None, time_limit: float | None = None) -> Any:
        """A hint on the position on the board (`fair`: by default the `fair_hints` option),
        shown there too if the position is still on the board when it is ready."""
        session = self._session
        with session.lock:
            game, ticket = session.game.copy(), session.jobs.generation
            fair = session.options.fair_hints if fair is None else fair
            limit = self.time_limit if time_limit is None else time_limit
        result = solver.hint(game, fair=fair, time_limit=limit)
        session.jobs.deliver(ticket, lambda: self.show(hint_view(result)))
        return result

    def request(self) -> None:
        """A view's Hint: CHECKING on the board, then the hint, as a job."""
        session = self._session
        with session.lock:
            session.check_not_paused()
            if session.puzzles.run is not None:
                raise IllegalMove(NO_HINTS_IN_PUZZLES)
            if self.shown == CHECKING:
                return
            self.show(CHECKING)
            game, fair, limit = session.game.copy(), session.options.fair_hints, self.time_limit
        session.jobs.run(
            "hint",
            lambda: solver.hint(game, fair=fair, time_limit=limit),
            lambda result: self.show(hint_view(result)),
            lambda error: self.show(failed_view("hint", error)),
        )

    def dismiss(self) -> None:
        with self._session.lock:
            if self.shown is not None:
                self.show(None)

    def show(self, shown: dict[str, Any] | None) -> None:
        self.shown = shown
        self._session.publish()

    def judge_the_deal(self) -> None:
        """Once the game on the board is over or every card is seen (`Game.open_book`), ask
        the solver, as a job, whether its deal could be won from the start at all; the answer
        stays with the board (`Board.lost_from_start`), whatever is played meanwhile."""
        session = self._session
        board, game = session.board, session.board.game
        if board.lost_from_start is not None or board.judging or board.proven or game.is_won:
            return
        if session.puzzles.run is not None or not game.open_book:
            return
        board.judging, start = True, Game.from_code(game.deal_code)

        def judged(verdict: str) -> None:
            board.judging = False
            if verdict in ("winnable", "unwinnable"):
                board.lost_from_start = verdict == "unwinnable"
                if board.lost_from_start and board is session.board:
                    session.publish()  # a deal that could be won changes nothing on show

        session.jobs.run(
            "judge",
            lambda: solver.solve(start, time_limit=JUDGE_S).status,
            judged,
            lambda error: judged("unknown"),
            lasting=True,
        )
