"""The game session: plain Python behind one board, usable with or without a widget.

A `GameSession` owns the `Game` on the board, the `Recorder` that saves it and keeps the
records, the lock that serialises every change, the state versions, the options and every
piece of slow work (a hint, a review, the search for a winnable deal). It builds the view
state (`view.build_state`) and hands each new state to its listeners: the widget is one
listener, a test or a Pyodide page can be another. It imports nothing from Jupyter.

Slow work runs through one `Jobs` runner: on a worker thread where threads exist, in the
caller's own turn where they cannot start (Pyodide, some sandboxes), or always inline when
asked (`threads=False`, handy in tests). Every change of position makes every job in flight
stale at once (one generation counter), and `Jobs.deliver` is the one place where a stale
result is dropped: a hint for a position no longer on the board, a review of a game that moved
on, a winnable deal the player no longer waits for.
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
from typing import Any, TypeVar

from . import intents, solver
from .cards import Card
from .game import DRAW, RECYCLE, Game, IllegalMove, Move, Pile, deal_for_date
from .puzzle_mode import PuzzleRun, Score
from .puzzles import Puzzle, PuzzleSet
from .puzzles import load as load_puzzles
from .records import Recorder, Records
from .review import DEFAULT_TIME_LIMIT, Review
from .review import review as review_game
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
    hint_view,
    offer_view,
    records_view,
    review_view,
)
from .words import NO_HINTS_IN_PUZZLES, PAUSED

REVIEW_LOCKED = (
    "the review judges with every card known, so it opens once the game is over "
    "or every card has been seen"
)
NOTHING_TO_REVIEW = "no move has been played yet: nothing to review"
NO_REVIEW = "there is no review to step through: ask for one first"
NO_PUZZLE = "no puzzle is on the board: open one first"

#: What `store=` accepts: DEFAULT (the records database), a path, a Store, or None (no saving).
StoreChoice = Store | NullStore | str | os.PathLike[str] | _Default | None

T = TypeVar("T")
Listener = Callable[[dict[str, Any], list[str]], None]

#: Sessions not yet closed, so that two boards in one process never play the same saved game.
_OPEN: weakref.WeakSet[GameSession] = weakref.WeakSet()


class Jobs:
    """The one runner of slow work, and the one place where stale results are dropped.

    `threads`: True runs each job on a worker thread, False in the caller's turn, None (the
    default) tries a thread and, where none can start, runs this and every later job inline.
    """

    def __init__(self, lock: threading.RLock, threads: bool | None = None) -> None:
        self._lock = lock
        self._threads = threads
        self.generation = 0

    @property
    def threaded(self) -> bool | None:
        return self._threads

    def invalidate(self) -> None:
        """The board changed: every job in flight is now stale."""
        self.generation += 1

    def deliver(self, ticket: int, show: Callable[[], None]) -> bool:
        """Show a result under the lock if it is still current (its `ticket` is this
        generation); drop it otherwise. Returns whether it was shown."""
        with self._lock:
            if ticket != self.generation:
                return False
            show()
            return True

    def run(
        self,
        name: str,
        work: Callable[[], T],
        show: Callable[[T], None],
        fail: Callable[[Exception], None],
    ) -> None:
        """Do `work` off the caller's turn if threads allow, then `show` its result (or `fail`
        with the error, printed too) if nothing changed meanwhile."""
        ticket = self.generation

        def job() -> None:
            try:
                result = work()
            except Exception as error:  # shown on the board, never raised into the comm
                traceback.print_exc(file=sys.stderr)
                failure = error
                self.deliver(ticket, lambda: fail(failure))
                return
            self.deliver(ticket, lambda: show(result))

        if self._threads is not False:
            try:
                threading.Thread(target=job, name=f"pyramid-{name}", daemon=True).start()
                return
            except RuntimeError:  # "can't start new thread": Pyodide, a thread-less sandbox
                if self._threads:
                    raise
                self._threads = False
        job()


def _make_game(rules: Rules | str, deal: int | None, layout: str | None, game: Game | None) -> Game:
    """The starting game from the constructor's arguments (at most one way to pick the deal)."""
    chosen = [
        name
        for name, value in (("deal", deal), ("layout", layout), ("game", game))
        if value is not None
    ]
    if len(chosen) > 1:
        raise ValueError(f"give at most one of deal, layout and game, not {' and '.join(chosen)}")
    if game is not None:
        if not isinstance(game, Game):
            raise ValueError(f"game must be a Game, not {game!r}")
        return game
    if layout is not None:
        return Game.from_layout(layout, rules)
    if deal is not None:
        if isinstance(deal, bool) or not isinstance(deal, int):
            raise ValueError(f"deal must be a deal number, not {deal!r}")
        return Game.deal(deal, rules)
    return Game.random(rules)


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
        self._game = _make_game(rules, deal, layout, game)
        opened = open_store(store, fallback=True)
        self._owns_store = opened is not store
        self._clock = clock
        self._recorder = Recorder(opened, self._game, clock=clock)
        self._withhold_offer_played_elsewhere()
        self._lock = threading.RLock()
        self._jobs = Jobs(self._lock, threads)
        self._listeners: list[Listener] = []
        self._inbox = intents.Inbox()
        self._callbacks: list[Callable[[MoveEvent], Any]] = []
        self._options = ViewOptions()
        self.hint_time_limit = 1.0
        self._next_rules = self._game.rules.name
        self._version = self._position_version = 0
        self._event = MoveEvent("start")
        self._paused = self._auto_paused = False
        self._hint: dict[str, Any] | None = None
        self._finding_deal = False
        self._proven: bool | None = None
        self._chosen = deal is not None  # a deal number given is a deal chosen
        # Puzzle mode: the run on the board, the board it stepped away from, the score.
        self._puzzle: PuzzleRun | None = None
        self._board: tuple[Game, Recorder, bool | None, bool] | None = None
        self._puzzle_score = Score()
        # The review on show: the game and the line of moves it judged.
        self._review: dict[str, Any] | None = None
        self._reviewed_game: Game | None = None
        self._reviewed_line: tuple[str, ...] = ()
        self._records = self._read_records()
        self.state: dict[str, Any] = {}
        self.moves: list[str] = []
        _OPEN.add(self)
        self._publish(self._event, position=True)

    def close(self) -> None:
        """End the session, closing the records database if the session opened it."""
        _OPEN.discard(self)
        if self._owns_store:
            self._recorder.store.close()

    # ------------------------------------------------------------------ messages
    def handle(self, content: Any) -> dict | None:
        """Answer one message from a front end (see `intents.handle`), each intent applied at
        most once per view. Nothing raised here reaches the caller: an unexpected error (a
        bug, never a message's fault) is printed and answered as an internal error."""
        with self._lock:
            try:
                return intents.handle(self, content, self._inbox)
            except Exception as error:
                traceback.print_exc(file=sys.stderr)
                return intents.ack(content, False, f"internal error: {error}", None)

    # ------------------------------------------------------------------ listening
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
        return self._game

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
        return self._recorder.elapsed

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def store(self) -> Store | NullStore:
        return self._recorder.store

    @property
    def saving(self) -> bool:
        """Games are saved (False with store=None, or a records database opened read-only)."""
        return self._recorder.store.saving

    @property
    def options(self) -> ViewOptions:
        return self._options

    @property
    def next_rules(self) -> str:
        """The rules name new deals use."""
        return self._next_rules

    def records(self, rules: Rules | str | None = None) -> Records:
        if rules is None:
            return self._recorder.records()
        return self._recorder.store.records(rules)

    def history(
        self, rules: Rules | str | None = None, limit: int | None = None
    ) -> list[FinishedGame]:
        return self._recorder.store.history(rules, limit)

    # ------------------------------------------------------------------ settings
    def set_option(self, name: str, value: Any) -> None:
        """Switch a board option (`view.OPTION_NAMES`); a new state goes out if it changed."""
        if name not in OPTION_NAMES:
            raise ValueError(f"unknown option {name!r}; options: {', '.join(OPTION_NAMES)}")
        if not isinstance(value, bool):
            raise ValueError(f"option {name} must be true or false, not {value!r}")
        with self._lock:
            if getattr(self._options, name) != value:
                self._options = replace(self._options, **{name: value})
                self._publish(self._event, position=False)

    def set_next_rules(self, rules: Rules | str) -> None:
        """The rules the next deals use (the current deal keeps its own)."""
        name = Rules.coerce(rules).name
        with self._lock:
            if name != self._next_rules:
                self._next_rules = name
                self._publish(self._event, position=False)

    # ------------------------------------------------------------------ playing
    def play(self, move: Move | str) -> Move:
        """Play a move; IllegalMove with the engine's reason, changing nothing, if refused.
        In puzzle mode the puzzle may refuse a legal move too, saying why it loses."""
        with self._lock:
            self._check_not_paused()
            parsed = Move.parse(move)
            run = self._puzzle
            if run is not None and self._game.is_legal(parsed):
                refusal = run.refusal(self._game, parsed)
                if refusal is not None:
                    self._publish(self._event, position=False)  # the board says why
                    raise IllegalMove(refusal, parsed)
            played = self._game.play(parsed)
            if run is not None:
                run.played(self._game, played)
            self._changed(MoveEvent("play", str(played)))
        return played

    def tap(self, target: Card | Pile | str, selected: Card | str | None = None) -> Move | Card:
        """A tap on a card or a pile (`Game.tap_move` says what it means): the move it made,
        or the card it selects. IllegalMove with the reason if it can do nothing."""
        with self._lock:
            self._check_not_paused()
            meant = self._game.tap_move(target, selected, auto_pair=self._options.auto_pair)
            return self.play(meant) if isinstance(meant, Move) else meant

    def draw(self) -> Move:
        return self.play(DRAW)

    def recycle(self) -> Move:
        return self.play(RECYCLE)

    def undo(self) -> Move:
        with self._lock:
            self._check_not_paused()
            move = self._game.undo()
            if self._puzzle is not None:
                self._puzzle.undone(self._game)
            self._changed(MoveEvent("undo", str(move)))
        return move

    def redo(self) -> Move:
        with self._lock:
            self._check_not_paused()
            move = self._game.redo()
            self._changed(MoveEvent("redo", str(move)))
        return move

    def restart(self) -> None:
        """Back to the start of this deal (the history goes; seen cards stay seen). Once a
        move was played, the deal counts as lost in the records."""
        with self._lock:
            self._game.restart()
            if self._puzzle is not None:
                self._puzzle.undone(self._game)
            self._changed(MoveEvent("restart"))

    def refresh(self) -> None:
        """Publish the game's position again, after it was changed without the session."""
        with self._lock:
            self._changed(MoveEvent("refresh"))

    def new_deal(
        self,
        number: int | None = None,
        *,
        rules: Rules | str | None = None,
        daily: bool = False,
        code: str | None = None,
    ) -> Game:
        """Start another deal and return it: numbered deal `number`, today's `daily` deal, the
        deal or position in a shared `code`, or else a random deal (proven winnable first when
        the `winnable_only` option is on). The rules are `next_rules`, or `rules`, which then
        become the next deals' rules too; a code carries its own."""
        if sum((number is not None, daily, code is not None)) > 1:
            raise ValueError("give at most one of number, daily and code")
        if rules is not None:
            self.set_next_rules(rules)
        next_rules = Rules.parse(self._next_rules)
        proven = None
        if code is not None:
            game = Game.from_code(code)
        elif daily:
            game = deal_for_date(None, next_rules)
        elif number is not None:
            game = _make_game(next_rules, number, None, None)
        elif self._options.winnable_only:
            game, proven = self._winnable_deal(next_rules)
        else:
            game = Game.random(next_rules)
        picked = number is not None or daily or (game.deal_number is not None and code is not None)
        with self._lock:
            self._start(game, proven, chosen=picked)
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
        with self._lock:
            if self._finding_deal:
                return
            self._finding_deal = True
            self._publish(self._event, position=False)
            rules = Rules.parse(self._next_rules)

        def failed(error: Exception) -> None:
            self._start(Game.random(rules), False, chosen=False)

        self._jobs.run(
            "deal",
            lambda: self._winnable_deal(rules),
            lambda found: self._start(*found, chosen=False),
            failed,
        )

    def continue_saved(self) -> Game | None:
        """Take up the saved game on offer (the last unfinished game of these rules) with its
        position, undo and redo history and clock, and return it; None when nothing is on
        offer. A deal begun here instead counts as lost."""
        with self._lock:
            if self._puzzle is not None:
                self._leave_puzzle()
            offer = self._recorder.offer
            if offer is None or offer.game_id in _played_elsewhere(self):
                return None
            game = self._recorder.continue_game(offer)
            if game is None:
                return None
            self._game = game
            self._proven = None
            self._chosen = False  # how it was picked is not saved: its number waits
            self._changed(MoveEvent("continue"))
            return game

    def pause(self, *, auto: bool = False) -> None:
        """Stop the clock and block moves until `unpause()` (`auto`: the view was hidden)."""
        with self._lock:
            if not self._paused:
                self._paused, self._auto_paused = True, auto
            self._recorder.pause()
            self._publish(self._event, position=False)

    def unpause(self, *, auto: bool = False) -> None:
        """End a pause. An `auto` one (the view is visible again) only ends a pause that
        hiding the view made, never one the player chose."""
        with self._lock:
            if auto and not self._auto_paused:
                return
            self._paused = self._auto_paused = False
            self._recorder.unpause()
            self._publish(self._event, position=False)

    def share(self) -> str:
        """The current deal's code, for `new_deal(code=...)` or `Game.from_code` elsewhere."""
        return self._game.deal_code

    # ------------------------------------------------------------------ the solver
    def hint(self, fair: bool | None = None, time_limit: float | None = None) -> Any:
        """A hint on the position on the board, shown there too if the position is still on
        the board when it is ready; returns the `Hint`."""
        with self._lock:
            game, ticket = self._game.copy(), self._jobs.generation
            fair = self._options.fair_hints if fair is None else fair
            limit = self.hint_time_limit if time_limit is None else time_limit
        result = solver.hint(game, fair=fair, time_limit=limit)
        self._jobs.deliver(ticket, lambda: self._show_hint(hint_view(result)))
        return result

    def solve(self, time_limit: float | None = None) -> Any:
        """The solver's verdict (a `Solution`) on the position on the board, all cards known."""
        with self._lock:
            game = self._game.copy()
        return solver.solve(game, time_limit=time_limit)

    def request_hint(self) -> None:
        """A view's Hint: "checking" on the board, then the hint (as a job). A puzzle gives
        no hints: finding the move is the point."""
        with self._lock:
            self._check_not_paused()
            if self._puzzle is not None:
                raise IllegalMove(NO_HINTS_IN_PUZZLES)
            if self._hint == CHECKING:
                return
            self._show_hint(CHECKING)
            game, fair, limit = self._game.copy(), self._options.fair_hints, self.hint_time_limit

        def failed(error: Exception) -> None:
            self._show_hint({"status": "failed", "reason": f"no hint: {error}"})

        self._jobs.run(
            "hint",
            lambda: solver.hint(game, fair=fair, time_limit=limit),
            lambda result: self._show_hint(hint_view(result)),
            failed,
        )

    def dismiss_hint(self) -> None:
        with self._lock:
            if self._hint is not None:
                self._show_hint(None)

    # ------------------------------------------------------------------ puzzles
    def open_puzzle(
        self,
        which: Puzzle | str | None = None,
        *,
        rules: Rules | str | None = None,
        theme: str | None = None,
        difficulty: str | None = None,
    ) -> Puzzle:
        """Pose a puzzle on the board (see `puzzle_mode`): `which` (a `Puzzle` or an id), or
        the first of the shipped puzzles of `rules` (the board's by default) with that `theme`
        and `difficulty`. The game on the board waits, untouched and unrecorded meanwhile, until
        `close_puzzle()`; puzzles are never recorded."""
        with self._lock:
            if isinstance(which, Puzzle):
                chosen, puzzle = PuzzleSet([which]), which
            else:
                if rules is None:
                    rules = self._game.rules if self._board is None else self._board[0].rules
                chosen = load_puzzles(rules, theme=theme, difficulty=difficulty)
                if which is not None:
                    chosen = chosen if which in chosen else load_puzzles()
                    puzzle = chosen.get(which) if which in chosen else None
                    if puzzle is None:
                        raise ValueError(f"no shipped puzzle has the id {which!r}")
                elif not chosen:
                    raise ValueError("no shipped puzzle has that theme and difficulty")
                else:
                    puzzle = chosen[0]
            self._pose(chosen, puzzle)
            return puzzle

    def step_puzzle(self, step: int) -> Puzzle:
        """The next (`step` 1) or previous (-1) puzzle of the set on the board."""
        with self._lock:
            run = self._puzzle
            if run is None:
                raise IllegalMove(NO_PUZZLE)
            puzzle = run.puzzles.next(run.puzzle) if step > 0 else run.puzzles.previous(run.puzzle)
            self._pose(run.puzzles, puzzle)
            return puzzle

    def close_puzzle(self) -> None:
        """Leave puzzle mode: the game that was on the board comes back as it was."""
        with self._lock:
            if self._puzzle is not None:
                self._leave_puzzle()
                self._changed(MoveEvent("refresh"))

    @property
    def puzzle(self) -> Puzzle | None:
        """The puzzle on the board, if any."""
        return None if self._puzzle is None else self._puzzle.puzzle

    def _pose(self, chosen: PuzzleSet, puzzle: Puzzle) -> None:
        if self._puzzle is None:
            self._board = (self._game, self._recorder, self._proven, self._chosen)
            self._recorder.pause()
            self._puzzle = PuzzleRun(chosen, puzzle, self._puzzle_score)
        else:
            self._puzzle.puzzles = chosen
        self._game = self._puzzle.start(puzzle)
        self._recorder = Recorder(NullStore(), self._game, clock=self._clock)
        self._proven, self._chosen = None, False
        self._changed(MoveEvent("puzzle"))

    def _leave_puzzle(self) -> None:
        assert self._board is not None
        self._game, self._recorder, self._proven, self._chosen = self._board
        self._board = self._puzzle = None
        self._recorder.unpause()

    # ------------------------------------------------------------------ the review
    def review(self, time_limit: float | None = None) -> Review:
        """Review the game (see `pyramid_widget.review`), show the table on the board, and
        return the `Review`. It needs the game to be over (won or out of moves) or every card
        seen, since the solver judges with every card known."""
        with self._lock:
            line = self._start_review()
            ticket = self._jobs.generation
        result = review_game(
            line, time_limit=DEFAULT_TIME_LIMIT if time_limit is None else time_limit
        )
        self._jobs.deliver(ticket, lambda: self._show_review(review_view(result)))
        return result

    def request_review(self) -> None:
        """A view's Review: "reviewing" on the board, then the table (as a job)."""
        with self._lock:
            if self._review == REVIEWING:
                return
            line = self._start_review()
            self._show_review(REVIEWING)

        def failed(error: Exception) -> None:
            self._show_review({"status": "failed", "reason": f"no review: {error}"})

        self._jobs.run(
            "review",
            lambda: review_view(review_game(line)),
            self._show_review,
            failed,
        )

    def step_review(self, moves: int) -> None:
        """Show the reviewed game after its first `moves` moves (0: the deal's start), by undo
        or by replaying its moves, so Redo and the table both step forward again. Not a new
        game and not a restart: the records are untouched and the clock does not run back."""
        with self._lock:
            self._check_not_paused()
            if self._review is None or self._review.get("status") != "done":
                raise IllegalMove(NO_REVIEW)
            line = self._reviewed_line
            if isinstance(moves, bool) or not isinstance(moves, int) or not 0 <= moves <= len(line):
                raise ValueError(f"moves must be a number from 0 to {len(line)}, not {moves!r}")
            game = self._game
            while len(game.history) > moves:
                game.undo()
            game.replay(line[len(game.history) : moves])  # the redo moves, where there are any
            self._changed(MoveEvent("step"))

    def close_review(self) -> None:
        """Close the review; a board stepped back through the reviewed game returns to where
        the game ended (with its panel), not to the move last looked at."""
        with self._lock:
            end = len(self._reviewed_line)
            shown = self._review is not None and self._review.get("status") == "done"
            stepped = self._game is self._reviewed_game and len(self._game.history) != end
            if shown and stepped and not self._paused:
                self.step_review(end)
            self._drop_review()
            self._publish(self._event, position=False)

    # ------------------------------------------------------------------ internals
    def _check_not_paused(self) -> None:
        if self._paused:
            raise IllegalMove(PAUSED)

    def _show_hint(self, shown: dict[str, Any] | None) -> None:
        self._hint = shown
        self._publish(self._event, position=False)

    def _show_review(self, shown: dict[str, Any]) -> None:
        self._review = shown
        self._publish(self._event, position=False)

    def _review_blocker(self) -> str | None:
        """Why the game cannot be reviewed now, or None: the solver judges with every card
        known, so the game must be over or every card seen, and a move must have been made."""
        game = self._game
        over = game.outcome is not None or self._recorder.finished
        if not over and not set(game.cards) <= game.seen:
            return REVIEW_LOCKED
        if not game.can_undo and not game.can_redo:
            return NOTHING_TO_REVIEW
        return None

    def _start_review(self) -> Game:
        """Check that the game may be reviewed and note what is being reviewed; return a copy
        of the whole line played (redo moves included)."""
        blocker = self._review_blocker()
        if blocker is not None:
            raise IllegalMove(blocker)
        line = self._game.copy()
        while line.can_redo:
            line.redo()
        self._reviewed_game, self._reviewed_line = self._game, tuple(line.log)
        return line

    def _review_still_fits(self, event: MoveEvent) -> bool:
        """A finished review stays while the board shows the reviewed game at one of its
        moves (a review still being made was about the board before this change)."""
        if self._review is None or self._review == REVIEWING:
            return False
        if event.action in ("new", "restart", "continue") or self._game is not self._reviewed_game:
            return False
        log = self._game.log
        return list(self._reviewed_line[: len(log)]) == log

    def _drop_review(self) -> None:
        self._review = None
        self._reviewed_game, self._reviewed_line = None, ()

    def _withhold_offer_played_elsewhere(self) -> None:
        """A saved game another open session of this process is playing is not offered here:
        continuing it (or giving it up by playing on) would take it from under that board."""
        offer = self._recorder.offer
        if offer is not None and offer.game_id in _played_elsewhere(self):
            self._recorder.offer = None

    def _records_mark(self) -> tuple[str, bool, str | None]:
        """What changes exactly when a game is recorded (won, lost, or an offer given up)."""
        recorder = self._recorder
        offer = recorder.offer.game_id if recorder.offer is not None else None
        return recorder.game_id, recorder.finished, offer

    def _read_records(self) -> dict[str, Any]:
        recorder = self._recorder
        return records_view(recorder.records(), saving=self.saving, losses=recorder.latest_losses())

    def _winnable_deal(self, rules: Rules) -> tuple[Game, bool]:
        found = solver.deal_winnable(rules)
        return found.game, bool(found.proven)

    def _start(self, game: Game, proven: bool | None, *, chosen: bool) -> None:
        with self._lock:
            if self._puzzle is not None:  # a new deal ends puzzle mode
                self._leave_puzzle()
            self._game = game
            self._proven = proven
            self._chosen = chosen
            self._changed(MoveEvent("new"))

    def _changed(self, event: MoveEvent) -> None:
        """After every change of position: drop what was about the old board, save and keep
        the records, tell the views and the callbacks."""
        self._jobs.invalidate()
        self._hint = None
        self._finding_deal = False
        mark = self._records_mark()
        # A review step is saved like a refresh: a position of the same attempt, not a loss.
        self._recorder.changed("refresh" if event.action == "step" else event.action, self._game)
        if event.action in ("new", "restart", "continue"):
            self._paused = self._auto_paused = False
            self._withhold_offer_played_elsewhere()
        if self._records_mark() != mark:
            self._records = self._read_records()
        if not self._review_still_fits(event):
            self._drop_review()
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
        recorder = self._recorder
        extras = Extras(
            elapsed=recorder.elapsed,
            running=recorder.clock_running,
            paused=self._paused,
            hint=self._hint,
            next_rules=self._next_rules,
            finding_deal=self._finding_deal,
            proven=self._proven,
            deal_chosen=self._chosen,
            puzzle=None if self._puzzle is None else self._puzzle.view(),
            review_refusal=self._review_blocker(),
            offer=offer_view(recorder.offer),
            records=self._records,
            review=self._review,
        )
        self.state = build_state(
            self._game,
            version=self._version,
            position_version=self._position_version,
            options=self._options,
            event=event,
            extras=extras,
        )
        self.moves = self._game.log
        for listener in list(self._listeners):
            listener(self.state, self.moves)


def _played_elsewhere(session: GameSession) -> set[str]:
    """The saved-game ids that other open sessions of this process are playing."""
    return {other._recorder.game_id for other in list(_OPEN) if other is not session}
