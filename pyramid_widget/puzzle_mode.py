"""Puzzle mode: a board that poses puzzles mined from real deals and checks the player's moves.

As on chess puzzle sites, a puzzle is solved when its answer is found, at the first try or
not: a wrong move is refused and told why it loses (never what the answer is), and "Show the
answer" gives it away, after which the puzzle counts as not solved. Once the answer is on the
board, playing on to the win is the player's choice ("play"); a move that throws the win away
whatever order the unseen cards lie in is refused there: the judge knows only what the player
has seen, as the puzzles themselves are fair. Where the puzzle stands follows the game on the
board, so a move, an undo, a redo or a restart all say the same thing: the answer played is
found (counted once per puzzle posed), and back at the puzzle's position it is to be found
again.

`PuzzleMode` is the mode on a session: it sets the game in play aside while puzzles are on the
board and brings it back as it was. Nothing here reaches a front end but `PuzzleRun.view()`,
which never names an answer before the player has found it or asked to see it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import solver, words
from .board import Board
from .game import Game, IllegalMove, Move
from .puzzles import Puzzle, PuzzleSet
from .puzzles import load as load_puzzles
from .puzzles.mining import arrangements
from .records import Recorder
from .rules import Rules
from .store import NullStore
from .view import MoveEvent

if TYPE_CHECKING:
    from .session import GameSession

PLAY_ON_CHECK_S = 2.0
"""Seconds the solver may take on one order of the unseen cards when it judges a move of the
play-on (an order it cannot settle lets the move by)."""


@dataclass
class Score:
    """This session's puzzles: tried (moved in, or the answer shown), solved (the answer
    found, not shown), solved with no wrong try."""

    tried: int = 0
    solved: int = 0
    first_try: int = 0


class PuzzleRun:
    """The puzzles of one board: the set stepped through, the one on the board and its game,
    its phase ("find" the answer, "play" on after it, "won"), what was last said, the score,
    and the board set aside meanwhile (`away`), which comes back as it was."""

    def __init__(
        self, puzzles: PuzzleSet, puzzle: Puzzle, score: Score | None = None, *, away: Board
    ) -> None:
        self.puzzles = puzzles
        self.score = score or Score()
        self.away = away
        self.start(puzzle)

    def start(self, puzzle: Puzzle) -> Game:
        """Put `puzzle` on the board: a fresh game at its position, nothing tried yet."""
        self.puzzle = puzzle
        self.game = puzzle.game()
        self.phase = "find"
        self.said: str | None = None
        self.said_kind: str | None = None  # "refused", "right", "shown" or "won"
        self.wrong = 0
        self.tried = self.solved = self.shown = False
        return self.game

    @property
    def prompt(self) -> str:
        if self.phase == "won":
            return words.WON_NEXT
        if self.phase == "play":
            return words.play_on(self.solved)
        return words.SHOWN_PROMPT if self.shown and not self.solved else self.puzzle.task

    def refusal(self, game: Game, move: Move) -> str | None:
        """Why the puzzle refuses `move` (a legal move of `game`, the board's game or a twin of
        it), or None to let it be played. A refusal while the answer is to be found counts as
        a wrong try."""
        self.follow()
        if self.phase == "find":
            verdict = self.puzzle.check(move)
            if verdict.right:
                return None
            self._try()
            self.wrong += 1
            self._say("refused", words.wrong_try(verdict.sentence))
            return self.said
        if game.is_won or not _loses_every_way(game, move):
            return None  # the engine refuses moves on a won game
        self._say("refused", words.throws_the_win_away(move.text))
        return self.said

    def show_answer(self) -> str:
        """Give the answer away (why each answer keeps the win). Unless it was found already,
        the puzzle counts as tried and not solved, however it is played after."""
        self._try()
        self.shown = self.shown or not self.solved
        self._say("shown", " ".join(choice.why for choice in self.puzzle.answers))
        return self.said

    def follow(self) -> None:
        """Bring the phase, the score and what is said in line with the game on the board,
        after any change of it: the answer played is found (and solved, once, unless it was
        shown), the deal won is said with what the puzzle counted as, and back at the
        puzzle's position the answer is to be found again."""
        game = self.game
        phase = "find" if not game.history else "won" if game.is_won else "play"
        if phase == self.phase:
            return
        if self.phase == "find":
            self._found(game.history[0])
        if phase == "won":
            counted = words.puzzle_result(self.wrong, solved=self.solved, shown=self.shown)
            self._say("won", counted)
        elif phase == "find" or self.phase == "won":
            self._say(None, None)
        self.phase = phase

    def played(self, game: Game, move: Move) -> None:
        """After a move the puzzle let through (`game` is the run's own)."""
        self.follow()

    def undone(self, game: Game) -> None:
        """After an undo or a restart (`game` is the run's own)."""
        self.follow()

    def _found(self, first: Move) -> None:
        choice = self.puzzle.choice(first)
        if choice is None or not choice.keeps_win:  # not played through the puzzle's judge
            return
        self._try()
        if not self.solved and not self.shown:
            self.solved = True
            self.score.solved += 1
            self.score.first_try += self.wrong == 0
        self._say("right", words.found(choice.why, shown=self.shown))

    def _say(self, kind: str | None, words: str | None) -> None:
        self.said_kind, self.said = kind, words

    def _try(self) -> None:
        if not self.tried:
            self.tried = True
            self.score.tried += 1

    def view(self) -> dict:
        """What the board shows of the puzzle, in line with its game (`follow`): where it
        stands and the score, never its answer until it is played or shown (`Puzzle.about`
        leaves out what would name an unseen card)."""
        self.follow()
        puzzle, score = self.puzzle, self.score
        return {
            **puzzle.about,
            "number": self.puzzles.index(puzzle) + 1,
            "count": len(self.puzzles),
            "phase": self.phase,
            "prompt": self.prompt,
            "said": self.said,
            "said_kind": self.said_kind,
            "solved": self.solved,
            "shown": self.shown,
            "score": {"tried": score.tried, "solved": score.solved, "first_try": score.first_try},
            "tally": words.puzzle_score(score.tried, score.solved, score.first_try),
        }


def _loses_every_way(game: Game, move: Move) -> bool:
    """The exact solver proves that `move` loses the game whatever order the cards the player
    has not seen lie in (`mining.arrangements`): a verdict on what the player has seen only,
    as the puzzles themselves are fair. An order it cannot settle in time lets the move by."""
    for order in (game, *arrangements(game)):
        after = order.copy()
        after.play(move)
        if after.is_won or solver.solve(after, time_limit=PLAY_ON_CHECK_S).status != "unwinnable":
            return False
    return True


def choose(
    which: Puzzle | str | None, rules: Rules | str, theme: str | None, difficulty: str | None
) -> tuple[PuzzleSet, Puzzle]:
    """The puzzles a board steps through and the one to pose: `which` (a `Puzzle`, alone, or
    the id of a shipped one, among those of `rules` when it is one of them), or the first
    shipped puzzle of `rules` with that `theme` and `difficulty` (either may be None)."""
    if isinstance(which, Puzzle):
        return PuzzleSet([which]), which
    chosen = load_puzzles(rules, theme=theme, difficulty=difficulty)
    if which is not None:
        chosen = chosen if which in chosen else load_puzzles()
        if which not in chosen:
            raise ValueError(f"no shipped puzzle has the id {words.quoted(which)}")
        return chosen, chosen.get(which)
    if not chosen:
        none = not load_puzzles(rules)
        raise ValueError(
            words.NO_PUZZLES if none else "no shipped puzzle has that theme and difficulty"
        )
    return chosen, chosen[0]


class PuzzleMode:
    """Puzzle mode on a session: the run on the board (None out of puzzle mode) and the
    session's score. While a run is on, the board in play waits in `run.away`, untouched and
    unrecorded; puzzles are never recorded."""

    def __init__(self, session: GameSession) -> None:
        self._session = session
        self.run: PuzzleRun | None = None
        self.score = Score()

    @property
    def puzzle(self) -> Puzzle | None:
        return None if self.run is None else self.run.puzzle

    def open(
        self,
        which: Puzzle | str | None = None,
        *,
        rules: Rules | str | None = None,
        theme: str | None = None,
        difficulty: str | None = None,
    ) -> Puzzle:
        """Pose a puzzle (see `choose`): `which`, or the first of `rules` (by default those of
        the game in play), `theme` and `difficulty`."""
        session = self._session
        with session.lock:
            rules = rules or session.board_in_play.game.rules
            chosen, puzzle = choose(which, rules, theme, difficulty)
            if self.run is None:
                session.board.recorder.pause()
                self.run = PuzzleRun(chosen, puzzle, self.score, away=session.board)
            self._pose(chosen, puzzle)
            return puzzle

    def step(self, step: int) -> Puzzle:
        """The next (`step` 1) or previous (-1) puzzle of the set on the board."""
        with self._session.lock:
            run = self.run
            if run is None:
                raise IllegalMove(words.NO_PUZZLE)
            puzzle = run.puzzles.next(run.puzzle) if step > 0 else run.puzzles.previous(run.puzzle)
            self._pose(run.puzzles, puzzle)
            return puzzle

    def show_answer(self) -> str:
        """Show the puzzle's answer on the board and return it (why each answer keeps the
        win); unless it was found already, the puzzle counts as not solved."""
        with self._session.lock:
            if self.run is None:
                raise IllegalMove(words.NO_PUZZLE)
            shown = self.run.show_answer()
            self._session.publish()
            return shown

    def close(self) -> None:
        """Leave puzzle mode: the game in play comes back as it was."""
        with self._session.lock:
            if self.run is not None:
                self.leave()
                self._session.changed(MoveEvent("refresh"))

    def leave(self) -> None:
        """Put the board set aside back, unannounced (the caller announces what follows); its
        clock goes on unless the session is paused."""
        if self.run is not None:
            session = self._session
            session.board, self.run = self.run.away, None
            if not session.paused:
                session.board.recorder.unpause()

    def _pose(self, chosen: PuzzleSet, puzzle: Puzzle) -> None:
        assert self.run is not None
        self.run.puzzles = chosen
        game = self.run.start(puzzle)
        session = self._session
        session.board = Board(game, Recorder(NullStore(), game, clock=session.clock))
        session.changed(MoveEvent("puzzle"))
