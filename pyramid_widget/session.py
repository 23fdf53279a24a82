"""The game session: plain Python behind one board, usable with or without a widget.

A `GameSession` coordinates one board: the `Board` on it (the game and the `Recorder` that
saves it and keeps the records), the lock that serialises every change, the state versions,
the options, and the modes beside play: a pause, hints and the winnable-deal search (as
`jobs.Jobs`), the review (`review_mode.ReviewRun`) and puzzles (`puzzle_mode.PuzzleRun`). It
builds the view state (`view.build_state`) and hands each new state to its listeners: the
widget is one, a test or a Pyodide page can be another. It imports nothing from Jupyter.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import traceback
import weakref
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from . import puzzle_mode, solver
from .board import Board, make_game, pick_deal, winnable_deal
from .cards import Card
from .game import DRAW, RECYCLE, Game, IllegalMove, Move, Pile
from .jobs import Jobs
from .puzzle_mode import PuzzleRun, Score
from .puzzles import Puzzle
from .records import Recorder, Records
from .review import DEFAULT_TIME_LIMIT, Review
from .review import review as review_game
from .review_mode import ReviewRun
from .rules import Rules
from .store import DEFAULT, FinishedGame, NullStore, Store, _Default, open_store
from .view import (
    CHECKING,
    OPTION_NAMES,
    REVIEWING,
    Extras,
    MoveEvent,
    ViewOptions,
    build_state,
    failed_view,
    hint_view,
    offer_view,
    review_view,
)
from .words import NO_HINTS_IN_PUZZLES, NO_PUZZLE, PAUSED

#: What `store=` accepts: DEFAULT (the records database), a path, a Store, or None (no saving).
StoreChoice = Store | NullStore | str | os.PathLike[str] | _Default | None

Listener = Callable[[dict[str, Any], list[str]], None]

#: Sessions not yet closed, so that two boards in one process never play the same saved game.
_OPEN: weakref.WeakSet[GameSession] = weakref.WeakSet()


class GameSession:
    """One board's game, records, options and slow work, without any widget.

    >>> session = GameSession("open-stock", deal=42, store=None, threads=False)
    >>> session.play("draw")
    Move.parse('draw')
    >>> session.state["status"]["moves"], session.moves
    (1, ['draw'])

    `rules`, `deal`, `layout`, `game` and `store` are as for `PyramidWidget`. `threads`: see
    `Jobs`. `clock` is where play time is read (a seam for tests).
    """

    def __init__(
        self,
        rules: Rules | str = "classic",
        deal: int | None = None,
        layout: str | None = None,
        *,
        game: Game | None = None,
        store: StoreChoice = DEFAULT,
        threads: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        game = make_game(rules, deal, layout, game)
        opened = open_store(store, fallback=True)
        self._owns_store = opened is not store
        self._clock = clock
        # A deal number given is a deal chosen.
        self._board = Board(game, Recorder(opened, game, clock=clock), chosen=deal is not None)
        self._away: Board | None = None  # the board a puzzle stepped away from
        self._withhold_offer_played_elsewhere()
        self.lock = threading.RLock()
        self._jobs = Jobs(self.lock, threads)
        self._listeners: list[Listener] = []
        self._callbacks: list[Callable[[MoveEvent], Any]] = []
        self._options = ViewOptions()
        self.hint_time_limit = 1.0
        self._next_rules = game.rules.name
        self._version = self._position_version = 0
        self._event = MoveEvent("start")
        self._paused = self._auto_paused = False
        self._hint: dict[str, Any] | None = None
        self._finding_deal = False
        self._puzzle: PuzzleRun | None = None
        self._puzzle_score = Score()
        self._review = ReviewRun()
        self._records = self._board.records_view()
        self.state: dict[str, Any] = {}
        self.moves: list[str] = []
        _OPEN.add(self)
        self._publish(self._event, position=True)

    def close(self) -> None:
        """End the session, closing the records database if the session opened it."""
        _OPEN.discard(self)
        if self._owns_store:
            (self._away or self._board).recorder.store.close()

    def listen(self, listener: Listener) -> None:
        """Call `listener(state, moves)` with every new state (the widget syncs its traits)."""
        self._listeners.append(listener)

    def on_move(self, callback: Callable[[MoveEvent], Any], remove: bool = False) -> None:
        """Call `callback(event)` after every change of position (a move, undo, redo, new
        deal, restart), whoever made it. A callback that raises is reported and does not stop
        the game."""
        if remove:
            self._callbacks.remove(callback)
        else:
            self._callbacks.append(callback)

    # ------------------------------------------------------------------ reading
    @property
    def game(self) -> Game:
        return self._board.game

    @property
    def version(self) -> int:
        """The version of the state last published (it grows with every change)."""
        return self._version

    @property
    def position_version(self) -> int:
        """The state version at which the position or the deal last changed."""
        return self._position_version

    @property
    def elapsed(self) -> float:
        return self._board.recorder.elapsed

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def store(self) -> Store | NullStore:
        return self._board.recorder.store

    @property
    def saving(self) -> bool:
        """Games are saved (False with store=None, or a records database opened read-only)."""
        return self.store.saving

    @property
    def options(self) -> ViewOptions:
        return self._options

    @property
    def next_rules(self) -> str:
        """The rules name new deals use."""
        return self._next_rules

    def records(self, rules: Rules | str | None = None) -> Records:
        if rules is None:
            return self._board.recorder.records()
        return self.store.records(rules)

    def history(
        self, rules: Rules | str | None = None, limit: int | None = None
    ) -> list[FinishedGame]:
        return self.store.history(rules, limit)

    # ------------------------------------------------------------------ settings
    def set_option(self, name: str, value: Any) -> None:
        """Switch a board option (`view.OPTION_NAMES`); a new state goes out if it changed."""
        if name not in OPTION_NAMES:
            raise ValueError(f"unknown option {name!r}; options: {', '.join(OPTION_NAMES)}")
        if not isinstance(value, bool):
            raise ValueError(f"option {name} must be true or false, not {value!r}")
        with self.lock:
            if getattr(self._options, name) != value:
                self._options = replace(self._options, **{name: value})
                self._publish(self._event, position=False)

    def set_next_rules(self, rules: Rules | str) -> None:
        """The rules the next deals use (the current deal keeps its own)."""
        name = Rules.coerce(rules).name
        with self.lock:
            if name != self._next_rules:
                self._next_rules = name
                self._publish(self._event, position=False)

    # ------------------------------------------------------------------ playing
    def play(self, move: Move | str) -> Move:
        """Play a move; IllegalMove with the engine's reason, changing nothing, if refused.
        In puzzle mode the puzzle may refuse a legal move too, saying why it loses."""
        with self.lock:
            self._check_not_paused()
            parsed, game, run = Move.parse(move), self.game, self._puzzle
            if run is not None and game.is_legal(parsed):
                refusal = run.refusal(game, parsed)
                if refusal is not None:
                    self._publish(self._event, position=False)  # the board says why
                    raise IllegalMove(refusal, parsed)
            played = game.play(parsed)
            if run is not None:
                run.played(game, played)
            self._changed(MoveEvent("play", str(played)))
        return played

    def tap(self, target: Card | Pile | str, selected: Card | str | None = None) -> Move | Card:
        """A tap on a card or a pile (`Game.tap_move` says what it means): the move it made,
        or the card it selects. IllegalMove with the reason if it can do nothing."""
        with self.lock:
            self._check_not_paused()
            meant = self.game.tap_move(target, selected, auto_pair=self._options.auto_pair)
            return self.play(meant) if isinstance(meant, Move) else meant

    def draw(self) -> Move:
        return self.play(DRAW)

    def recycle(self) -> Move:
        return self.play(RECYCLE)

    def undo(self) -> Move:
        with self.lock:
            self._check_not_paused()
            move = self.game.undo()
            if self._puzzle is not None:
                self._puzzle.undone(self.game)
            self._changed(MoveEvent("undo", str(move)))
        return move

    def redo(self) -> Move:
        with self.lock:
            self._check_not_paused()
            move = self.game.redo()
            self._changed(MoveEvent("redo", str(move)))
        return move

    def restart(self) -> None:
        """Back to the start of this deal (the history goes; seen cards stay seen). Once a
        move was played, the deal counts as lost in the records."""
        with self.lock:
            self.game.restart()
            if self._puzzle is not None:
                self._puzzle.undone(self.game)
            self._changed(MoveEvent("restart"))

    def refresh(self) -> None:
        """Publish the game's position again, after it was changed without the session."""
        with self.lock:
            self._changed(MoveEvent("refresh"))

    def share(self) -> str:
        """The current deal's code, for `new_deal(code=...)` or `Game.from_code` elsewhere."""
        return self.game.deal_code

    # ------------------------------------------------------------------ deals
    def new_deal(
        self,
        number: int | None = None,
        *,
        rules: Rules | str | None = None,
        daily: bool = False,
        code: str | None = None,
    ) -> Game:
        """Start another deal and return it (see `board.pick_deal`: a `number`, the `daily`
        deal, a shared `code`, else a random one, proven winnable first under the
        `winnable_only` option). `rules` become the next deals' rules too."""
        if rules is not None:
            self.set_next_rules(rules)
        game, proven, chosen = pick_deal(
            Rules.parse(self._next_rules),
            number,
            daily=daily,
            code=code,
            winnable=self._options.winnable_only,
        )
        self._start(game, proven, chosen=chosen)
        return game

    def request_new_deal(
        self, *, number: int | None = None, daily: bool = False, code: str | None = None
    ) -> None:
        """A view's New deal: a winnable-only random deal is searched for as a job (the board
        says "finding a winnable deal" and stays playable; a move meanwhile cancels it);
        every other deal starts at once."""
        if number is not None or daily or code is not None or not self._options.winnable_only:
            self.new_deal(number, daily=daily, code=code)
            return
        with self.lock:
            if self._finding_deal:
                return
            self._finding_deal = True
            self._publish(self._event, position=False)
            rules = Rules.parse(self._next_rules)
        self._jobs.run(
            "deal",
            lambda: winnable_deal(rules),
            lambda found: self._start(*found, chosen=False),
            lambda error: self._start(Game.random(rules), False, chosen=False),
        )

    def continue_saved(self) -> Game | None:
        """Take up the saved game on offer (the last unfinished game of these rules) with its
        position, undo and redo history and clock, and return it; None, changing nothing,
        when nothing is on offer. A deal begun here instead counts as lost."""
        with self.lock:
            recorder = (self._away or self._board).recorder
            offer = recorder.offer
            if offer is None or offer.game_id in _played_elsewhere(self):
                return None
            game = recorder.continue_saved(offer)
            if game is None:
                return None
            if self._puzzle is not None:
                self._leave_puzzle()
            # How it was picked is not saved, so its number waits.
            self._board = Board(game, recorder)
            self._changed(MoveEvent("continue"))
            return game

    def _start(self, game: Game, proven: bool | None, *, chosen: bool) -> None:
        with self.lock:
            if self._puzzle is not None:  # a new deal ends puzzle mode
                self._leave_puzzle()
            self._board = Board(game, self._board.recorder, proven, chosen)
            self._changed(MoveEvent("new"))

    # ------------------------------------------------------------------ pause
    def pause(self, *, auto: bool = False) -> None:
        """Stop the clock and block moves until `unpause()` (`auto`: the view was hidden)."""
        with self.lock:
            if not self._paused:
                self._paused, self._auto_paused = True, auto
            self._board.recorder.pause()
            self._publish(self._event, position=False)

    def unpause(self, *, auto: bool = False) -> None:
        """End a pause. An `auto` one (the view is visible again) only ends a pause that
        hiding the view made, never one the player chose."""
        with self.lock:
            if auto and not self._auto_paused:
                return
            self._paused = self._auto_paused = False
            self._board.recorder.unpause()
            self._publish(self._event, position=False)

    def _check_not_paused(self) -> None:
        if self._paused:
            raise IllegalMove(PAUSED)

    # ------------------------------------------------------------------ hints and proofs
    def hint(self, fair: bool | None = None, time_limit: float | None = None) -> Any:
        """A hint on the position on the board, shown there too if the position is still on
        the board when it is ready; returns the `Hint`."""
        with self.lock:
            game, ticket = self.game.copy(), self._jobs.generation
            fair = self._options.fair_hints if fair is None else fair
            limit = self.hint_time_limit if time_limit is None else time_limit
        result = solver.hint(game, fair=fair, time_limit=limit)
        self._jobs.deliver(ticket, lambda: self._show_hint(hint_view(result)))
        return result

    def solve(self, time_limit: float | None = None) -> Any:
        """The solver's verdict (a `Solution`) on the position on the board, all cards known."""
        with self.lock:
            game = self.game.copy()
        return solver.solve(game, time_limit=time_limit)

    def request_hint(self) -> None:
        """A view's Hint: "checking" on the board, then the hint (as a job). A puzzle gives
        no hints: finding the move is the point."""
        with self.lock:
            self._check_not_paused()
            if self._puzzle is not None:
                raise IllegalMove(NO_HINTS_IN_PUZZLES)
            if self._hint == CHECKING:
                return
            self._show_hint(CHECKING)
            game, fair, limit = self.game.copy(), self._options.fair_hints, self.hint_time_limit
        self._jobs.run(
            "hint",
            lambda: solver.hint(game, fair=fair, time_limit=limit),
            lambda result: self._show_hint(hint_view(result)),
            lambda error: self._show_hint(failed_view("hint", error)),
        )

    def dismiss_hint(self) -> None:
        with self.lock:
            if self._hint is not None:
                self._show_hint(None)

    def _show_hint(self, shown: dict[str, Any] | None) -> None:
        self._hint = shown
        self._publish(self._event, position=False)

    # ------------------------------------------------------------------ puzzles
    @property
    def puzzle(self) -> Puzzle | None:
        """The puzzle on the board, if any."""
        return None if self._puzzle is None else self._puzzle.puzzle

    def open_puzzle(
        self,
        which: Puzzle | str | None = None,
        *,
        rules: Rules | str | None = None,
        theme: str | None = None,
        difficulty: str | None = None,
    ) -> Puzzle:
        """Pose a puzzle on the board (see `puzzle_mode.choose`), by default of the rules of
        the game on the board. That game waits, untouched and unrecorded, until
        `close_puzzle()`; puzzles are never recorded."""
        with self.lock:
            rules = rules or (self._away or self._board).game.rules
            chosen, puzzle = puzzle_mode.choose(which, rules, theme, difficulty)
            if self._puzzle is None:
                self._away = self._board
                self._away.recorder.pause()
                self._puzzle = PuzzleRun(chosen, puzzle, self._puzzle_score)
            self._pose(chosen, puzzle)
            return puzzle

    def step_puzzle(self, step: int) -> Puzzle:
        """The next (`step` 1) or previous (-1) puzzle of the set on the board."""
        with self.lock:
            run = self._puzzle
            if run is None:
                raise IllegalMove(NO_PUZZLE)
            puzzle = run.puzzles.next(run.puzzle) if step > 0 else run.puzzles.previous(run.puzzle)
            self._pose(run.puzzles, puzzle)
            return puzzle

    def close_puzzle(self) -> None:
        """Leave puzzle mode: the game that was on the board comes back as it was."""
        with self.lock:
            if self._puzzle is not None:
                self._leave_puzzle()
                self._changed(MoveEvent("refresh"))

    def _pose(self, chosen: puzzle_mode.PuzzleSet, puzzle: Puzzle) -> None:
        assert self._puzzle is not None
        self._puzzle.puzzles = chosen
        game = self._puzzle.start(puzzle)
        self._board = Board(game, Recorder(NullStore(), game, clock=self._clock))
        self._changed(MoveEvent("puzzle"))

    def _leave_puzzle(self) -> None:
        assert self._away is not None
        self._board, self._away, self._puzzle = self._away, None, None
        self._board.recorder.unpause()

    # ------------------------------------------------------------------ the review
    def review(self, time_limit: float | None = None) -> Review:
        """Review the game (see `pyramid_widget.review`), show the table on the board, and
        return the `Review`. It needs the game to be over (won or out of moves) or every card
        seen, since the solver judges with every card known."""
        with self.lock:
            line = self._review.start(self.game, self._board.recorder.finished)
            ticket = self._jobs.generation
        limit = DEFAULT_TIME_LIMIT if time_limit is None else time_limit
        result = review_game(line, time_limit=limit)
        self._jobs.deliver(ticket, lambda: self._show_review(review_view(result)))
        return result

    def request_review(self) -> None:
        """A view's Review: "reviewing" on the board, then the table (as a job)."""
        with self.lock:
            if self._review.thinking:
                return
            line = self._review.start(self.game, self._board.recorder.finished)
            self._show_review(REVIEWING)
        self._jobs.run(
            "review",
            lambda: review_view(review_game(line)),
            self._show_review,
            lambda error: self._show_review(failed_view("review", error)),
        )

    def step_review(self, moves: int) -> None:
        """Show the reviewed game after its first `moves` moves (see `ReviewRun.step`). Not a
        new game and not a restart: the records are untouched and the clock does not run back."""
        with self.lock:
            self._check_not_paused()
            self._review.step(self.game, moves)
            self._changed(MoveEvent("step"))

    def close_review(self) -> None:
        """Close the review; a board stepped back through the reviewed game returns to where
        the game ended (with its panel), not to the move last looked at."""
        with self.lock:
            if self._review.stepped_back(self.game) and not self._paused:
                self.step_review(len(self._review.line))
            self._review.drop()
            self._publish(self._event, position=False)

    def _show_review(self, shown: dict[str, Any]) -> None:
        self._review.shown = shown
        self._publish(self._event, position=False)

    # ------------------------------------------------------------------ publishing
    def _withhold_offer_played_elsewhere(self) -> None:
        """A saved game another open session of this process is playing is not offered here:
        continuing it (or giving it up by playing on) would take it from under that board."""
        recorder = self._board.recorder
        if recorder.offer is not None and recorder.offer.game_id in _played_elsewhere(self):
            recorder.offer = None

    def _changed(self, event: MoveEvent) -> None:
        """After every change of position: drop what was about the old board, save and keep
        the records, tell the views and the callbacks."""
        self._jobs.invalidate()
        self._hint = None
        self._finding_deal = False
        mark = self._board.records_mark()
        # A review step is saved like a refresh: a position of the same attempt, not a loss.
        action = "refresh" if event.action == "step" else event.action
        self._board.recorder.changed(action, self.game)
        if event.action in ("new", "restart", "continue"):
            self._paused = self._auto_paused = False
            self._withhold_offer_played_elsewhere()
        if self._board.records_mark() != mark:
            self._records = self._board.records_view()
        if not self._review.fits(self.game, event):
            self._review.drop()
        self._publish(event, position=True)
        for callback in list(self._callbacks):
            try:
                callback(event)
            except Exception:
                traceback.print_exc(file=sys.stderr)

    def _publish(self, event: MoveEvent, *, position: bool) -> None:
        """Build a new state and hand it to every listener."""
        self._version += 1
        if position:
            self._position_version = self._version
        self._event = event
        board, recorder = self._board, self._board.recorder
        extras = Extras(
            elapsed=recorder.elapsed,
            running=recorder.clock_running,
            paused=self._paused,
            hint=self._hint,
            next_rules=self._next_rules,
            finding_deal=self._finding_deal,
            proven=board.proven,
            deal_chosen=board.chosen,
            puzzle=None if self._puzzle is None else self._puzzle.view(),
            review_refusal=ReviewRun.refusal(board.game, recorder.finished),
            offer=offer_view(recorder.offer),
            records=self._records,
            review=self._review.shown,
        )
        self.state = build_state(
            board.game,
            version=self._version,
            position_version=self._position_version,
            options=self._options,
            event=event,
            extras=extras,
        )
        self.moves = board.game.log
        for listener in list(self._listeners):
            listener(self.state, self.moves)


def _played_elsewhere(session: GameSession) -> set[str]:
    """The saved-game ids that other open sessions of this process are playing (a game waiting
    behind a puzzle included)."""
    return {
        board.recorder.game_id
        for other in list(_OPEN)
        if other is not session
        for board in (other._board, other._away)
        if board is not None
    }
