"""The game session: plain Python behind one board, usable with or without a widget.

A `GameSession` coordinates one board: the `Board` on show (a game and the `Recorder` that
saves it), the lock that serialises every change, the state versions, the options, play,
deals and the pause. The other modes are objects it holds: `hints` (`hint_mode.HintMode`),
`reviews` (`review_mode.ReviewMode`), `puzzles` (`puzzle_mode.PuzzleMode`) and `watching`
(`watch_mode.WatchMode`, a strategy playing on the board); slow work runs
as `jobs`. After every change it builds the view state (`view.build_state`) and hands it to its
listeners: the widget is one, a test or a Pyodide page can be another. It imports nothing from
Jupyter.
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
from typing import Any, Literal

from . import solver
from .board import Board, make_game, pick_deal, winnable_deal
from .cards import Card
from .game import DRAW, PILES, RECYCLE, Game, IllegalMove, Move, Pile
from .hint_mode import HintMode
from .jobs import Jobs
from .puzzle_mode import PuzzleMode
from .records import Recorder, Records, SavedGame
from .review_mode import ReviewMode
from .rules import Rules
from .store import DEFAULT, FinishedGame, NullStore, Store, _Default, open_store
from .view import (
    OPTION_NAMES,
    Extras,
    MoveEvent,
    ViewOptions,
    build_state,
    offer_view,
)
from .watch_mode import WatchMode
from .words import PAUSED, quoted

#: What `store=` accepts: DEFAULT (the records database), a path, a Store, or None (no saving).
StoreChoice = Store | NullStore | str | os.PathLike[str] | _Default | None

Listener = Callable[[dict[str, Any], list[str]], None]

#: What an action leaves: the game on show (a restart) or the game in play (another deal).
Leaving = Literal["board", "game"]

#: Sessions not yet closed, so that two boards in one process never play the same saved game.
_OPEN: weakref.WeakSet[GameSession] = weakref.WeakSet()


class GameSession:
    """One board's game, records, options and slow work, without any widget.

    >>> session = GameSession("open-stock", deal=42, store=None, threads=False)
    >>> session.play("draw")
    Move.parse('draw')
    >>> session.state["status"]["moves"], session.moves
    (1, ['draw'])

    `rules`, `deal`, `layout`, `game` and `store` are as for `PyramidWidget`; its methods of the
    same names document these. `threads`: see `Jobs`. `clock` is where play time is read.
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
        self.clock = clock
        self.board = Board(game, Recorder(opened, game, clock=clock), chosen=deal is not None)
        self._withhold_offer_played_elsewhere()
        self.lock = threading.RLock()
        self.jobs = Jobs(self.lock, threads)
        self._listeners: list[Listener] = []
        self._callbacks: list[Callable[[MoveEvent], Any]] = []
        self._options = ViewOptions()
        self._next_rules = game.rules.name
        self._version = self._position_version = 0
        self._event = MoveEvent("start")
        self._paused = self._auto_paused = self._finding_deal = False
        self.hints = HintMode(self)
        self.puzzles = PuzzleMode(self)
        self.reviews = ReviewMode(self)
        self.watching = WatchMode(self)
        self._records = self.board.records_view()
        self.state: dict[str, Any] = {}
        self.moves: list[str] = []
        _OPEN.add(self)
        self._publish(self._event, position=True)

    def close(self) -> None:
        """End the session, closing the records database if the session opened it."""
        _OPEN.discard(self)
        if self._owns_store:
            self.board_in_play.recorder.store.close()

    def listen(self, listener: Listener) -> None:
        """Call `listener(state, moves)` with every new state (the widget syncs its traits)."""
        self._listeners.append(listener)

    def on_move(self, callback: Callable[[MoveEvent], Any], remove: bool = False) -> None:
        """Call `callback(event)` after every change of position, whoever made it; one that
        raises is reported and does not stop the game."""
        if remove:
            self._callbacks.remove(callback)
        else:
            self._callbacks.append(callback)

    # ------------------------------------------------------------------ reading
    @property
    def game(self) -> Game:
        return self.board.game

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
        return self.board.recorder.elapsed

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def store(self) -> Store | NullStore:
        return self.board.recorder.store

    @property
    def options(self) -> ViewOptions:
        return self._options

    @property
    def next_rules(self) -> str:
        return self._next_rules

    def records(self, rules: Rules | str | None = None) -> Records:
        return self.board.recorder.records() if rules is None else self.store.records(rules)

    def history(
        self, rules: Rules | str | None = None, limit: int | None = None
    ) -> list[FinishedGame]:
        return self.store.history(rules, limit)

    # ------------------------------------------------------------------ settings
    def set_option(self, name: str, value: Any) -> None:
        """Switch a board option (`view.OPTION_NAMES`); a new state goes out if it changed."""
        if name not in OPTION_NAMES:
            raise ValueError(f"unknown option {quoted(name)}; options: {', '.join(OPTION_NAMES)}")
        if not isinstance(value, bool):
            raise ValueError(f"option {name} must be true or false, not {quoted(value)}")
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
        """Play a move, or raise IllegalMove with the reason and change nothing; in puzzle mode
        the puzzle may refuse a legal move too, saying why it loses."""
        with self.lock:
            self.check_not_paused()
            self.watching.yield_to_player()
            parsed, game, run = Move.parse(move), self.game, self.puzzles.run
            if run is not None and game.is_legal(parsed):
                refusal = run.refusal(game, parsed)
                if refusal is not None:
                    self._publish(self._event, position=False)  # the board says why
                    raise IllegalMove(refusal, parsed)
            played = game.play(parsed)
            if run is not None:
                run.played(game, played)
            self.changed(MoveEvent("play", str(played)))
        return played

    def tap(
        self,
        target: Card | Pile | str,
        selected: Card | str | None = None,
        *,
        face: str | None = None,
    ) -> Move | Card:
        """A tap on a card or a pile (`Game.tap_move` says what it means): the move it made,
        or the card it selects; IllegalMove with the reason if it can do nothing. `face`: what
        the player saw on the pile tapped (`Game.pile_face`); the tap is refused if it now
        means something else (`Game.pile_tap_refusal`)."""
        with self.lock:
            self.check_not_paused()
            game = self.game
            if face is not None and target in PILES:
                refusal = game.pile_tap_refusal(target, face, selected)
                if refusal is not None:
                    raise IllegalMove(refusal)
            meant = game.tap_move(target, selected, auto_pair=self._options.auto_pair)
            return self.play(meant) if isinstance(meant, Move) else meant

    def draw(self) -> Move:
        return self.play(DRAW)

    def recycle(self) -> Move:
        return self.play(RECYCLE)

    def undo(self) -> Move:
        with self.lock:
            self.check_not_paused()
            self.watching.yield_to_player()
            move = self.game.undo()
            if self.puzzles.run is not None:
                self.puzzles.run.undone(self.game)
            self.changed(MoveEvent("undo", str(move)))
        return move

    def redo(self) -> Move:
        with self.lock:
            self.check_not_paused()
            self.watching.yield_to_player()
            move = self.game.redo()
            self.changed(MoveEvent("redo", str(move)))
        return move

    def restart(self) -> None:
        """Back to the start of this deal; once a move was played, it counts as lost."""
        with self.lock:
            self.game.restart()
            if self.puzzles.run is not None:
                self.puzzles.run.undone(self.game)
            self.changed(MoveEvent("restart"))

    def refresh(self) -> None:
        """Publish the game's position again, after it was changed without the session."""
        with self.lock:
            self.changed(MoveEvent("refresh"))

    def share(self) -> str:
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
        """Start another deal (see `board.pick_deal`) and return it; `rules` become the next
        deals' rules too."""
        if rules is not None:
            self.set_next_rules(rules)
        winnable = self._options.winnable_only
        next_rules = Rules.parse(self._next_rules)
        game, proven, chosen = pick_deal(
            next_rules, number, daily=daily, code=code, winnable=winnable
        )
        self._start(game, proven, chosen=chosen)
        return game

    def request_new_deal(
        self, *, number: int | None = None, daily: bool = False, code: str | None = None
    ) -> None:
        """A view's New deal: a winnable-only random deal is searched for as a job (the board
        stays playable; a move meanwhile cancels it); every other deal starts at once."""
        if number is not None or daily or code is not None or not self._options.winnable_only:
            self.new_deal(number, daily=daily, code=code)
            return
        with self.lock:
            if self._finding_deal:
                return
            self._finding_deal = True
            self._publish(self._event, position=False)
            rules = Rules.parse(self._next_rules)
        self.jobs.run(
            "deal",
            lambda: winnable_deal(rules),
            lambda found: self._start(*found, chosen=False),
            lambda error: self._start(Game.random(rules), False, chosen=False),
        )

    @property
    def offer(self) -> SavedGame | None:
        """The saved game on offer to continue (none while another board of this process
        plays it)."""
        offer = self.board_in_play.recorder.offer
        return None if offer is None or offer.game_id in _played_elsewhere(self) else offer

    def continue_saved(self) -> Game | None:
        """Take up the saved game on offer and return it; None, changing nothing, when nothing
        is on offer. A deal begun here instead counts as lost."""
        with self.lock:
            recorder, offer = self.board_in_play.recorder, self.offer
            if offer is None:
                return None
            game = recorder.continue_saved(offer)
            if game is None:
                return None
            self.puzzles.leave()
            self.watching.leave()
            self.board = Board(game, recorder)  # how it was picked is not saved
            self.changed(MoveEvent("continue"))
            return game

    def _start(self, game: Game, proven: bool | None, *, chosen: bool) -> None:
        with self.lock:
            self.puzzles.leave()
            self.watching.leave()
            self.board = Board(game, self.board.recorder, proven, chosen)
            self.changed(MoveEvent("new"))

    # ------------------------------------------------------------------ pause
    def pause(self, *, auto: bool = False) -> None:
        """Stop the clock and block moves until `unpause()` (`auto`: the view was hidden)."""
        with self.lock:
            if not self._paused:
                self._paused, self._auto_paused = True, auto
            self.board.recorder.pause()
            self._publish(self._event, position=False)

    def unpause(self, *, auto: bool = False) -> None:
        """End a pause; an `auto` one (the view shown again) ends only a pause that hiding the
        view made, never one the player chose."""
        with self.lock:
            if auto and not self._auto_paused:
                return
            self._paused = self._auto_paused = False
            self.board.recorder.unpause()
            self._publish(self._event, position=False)

    def solve(self, time_limit: float | None = None) -> Any:
        with self.lock:
            game = self.game.copy()
        return solver.solve(game, time_limit=time_limit)

    def at_stake(self, leaving: Leaving) -> bool:
        """Leaving the game on show ("board") or in play ("game") would record it as lost."""
        board = self.board if leaving == "board" else self.board_in_play
        return board.recorder.at_stake

    # ------------------------------------------------------------------ for the modes
    def check_not_paused(self) -> None:
        if self._paused:
            raise IllegalMove(PAUSED)

    def publish(self) -> None:
        """Publish a change that leaves the position as it is (a hint, a review, a setting)."""
        self._publish(self._event, position=False)

    @property
    def board_in_play(self) -> Board:
        """The board of the game in play: the one a watched game or a puzzle set aside, or
        the one on show."""
        run = self.watching.run or self.puzzles.run
        return run.away if run is not None else self.board

    def _withhold_offer_played_elsewhere(self) -> None:
        """A saved game another board of this process is playing is not offered here:
        continuing it (or giving it up by playing on) would take it from under that board."""
        recorder = self.board.recorder
        if recorder.offer is not None and recorder.offer.game_id in _played_elsewhere(self):
            recorder.offer = None

    def changed(self, event: MoveEvent) -> None:
        """After every change of position: drop what was about the old board, save and keep
        the records, tell the views and the callbacks."""
        self.jobs.invalidate()
        self.hints.shown = None
        self._finding_deal = False
        board = self.board
        mark = board.records_mark()
        # A review step is saved like a refresh: a position of the same attempt, not a loss.
        board.recorder.changed("refresh" if event.action == "step" else event.action, board.game)
        if event.action in ("new", "restart", "continue"):
            self._paused = self._auto_paused = False
            self._withhold_offer_played_elsewhere()
        if board.records_mark() != mark:
            self._records = board.records_view()
        if not self.reviews.fits(board.game, event):
            self.reviews.drop()
        self.hints.judge_the_deal()
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
        board, recorder = self.board, self.board.recorder
        extras = Extras(
            elapsed=recorder.elapsed,
            running=recorder.clock_running,
            paused=self._paused,
            hint=self.hints.shown,
            next_rules=self._next_rules,
            finding_deal=self._finding_deal,
            proven=board.proven,
            at_stake={"restart": self.at_stake("board"), "deal": self.at_stake("game")},
            practice=recorder.practice and recorder.store.saving,
            lost_from_start=board.lost_from_start if board.game.open_book else None,
            deal_chosen=board.chosen,
            puzzle=None if self.puzzles.run is None else self.puzzles.run.view(),
            review_refusal=ReviewMode.refusal(board.game, recorder.finished),
            offer=offer_view(recorder.offer),
            records=self._records,
            review=self.reviews.shown,
            watch=self.watching.view(),
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
    """The saved-game ids the other open boards of this process are playing."""
    return {other.board_in_play.recorder.game_id for other in list(_OPEN) if other is not session}
