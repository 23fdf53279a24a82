"""PyramidWidget: a playable Pyramid in a notebook, driven by clicks, keys or Python calls.

The Python model owns the `Game`. Views render the `state` trait (built by `view.build_state`,
which keeps unseen cards out of it) and send intents back as custom messages; `intents.handle`
checks each one, the engine applies or refuses it, and every intent gets one ack. Python calls
(`w.play("5h+8c")`) go through the same methods, so every view follows whoever plays.

Slow work (a hint, a review, a search for a winnable deal) runs on a worker thread so the
kernel keeps answering clicks; its result is published only if the position (for a review: the
game) it was computed for is still on the board. One lock serialises every change of the game
and every publication.

Saving: a `Recorder` (records.py) on the records database (store.py) hears every change, saves
the game with its undo and redo history, keeps 000's records and owns the one clock: the time
shown, saved and recorded is the Recorder's, and Pause stops it. The widget adds what a board
needs on top: the Continue offer, the Records panel and the game review.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
import traceback
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from . import intents
from .game import DRAW, RECYCLE, Game, IllegalMove, Move, deal_for_date
from .records import Recorder, Records
from .review import Review
from .rules import Rules
from .store import DEFAULT, FinishedGame, NullStore, Store, _Default, open_store
from .view import (
    CHECKING,
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

PAUSED = "the game is paused: resume to play"
REVIEW_LOCKED = (
    "the review judges with every card known, so it opens once the game is over "
    "or every card has been seen"
)
NOTHING_TO_REVIEW = "no move has been played yet: nothing to review"
NO_REVIEW = "there is no review to step through: ask for one first"

#: What `store=` accepts: DEFAULT (the records database), a path, a Store, or None (no saving).
StoreChoice = Store | NullStore | str | os.PathLike[str] | _Default | None

#: Widgets not yet closed, so that two of them in one kernel never play the same saved game.
_OPEN: weakref.WeakSet[PyramidWidget] = weakref.WeakSet()

#: The traits that are display options; changing one sends a new state, not a new position.
OPTION_NAMES = ("highlight_partners", "auto_pair", "fair_hints", "dead_end_notice", "winnable_only")


def _asset(name: str) -> Path:
    """The front end file `name`: inside an installed wheel it lives in pyramid_widget/static/
    (pyproject's wheel sources), in a source checkout or editable install in the repo's js/."""
    here = Path(__file__).resolve().parent
    for folder in (here / "static", here.parent / "js"):
        path = folder / name
        if path.is_file():
            return path
    raise FileNotFoundError(f"the widget's {name} is in neither {here / 'static'} nor js/")


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


def _games_played_elsewhere(widget: PyramidWidget) -> set[str]:
    """The saved-game ids that other open widgets of this kernel are playing."""
    return {other._recorder.game_id for other in list(_OPEN) if other is not widget}


class PyramidWidget(anywidget.AnyWidget):
    """Pyramid Solitaire in a notebook.

    >>> w = PyramidWidget(rules="open-stock", deal=42)   # doctest: +SKIP
    >>> w                                                # shows the board
    >>> w.play("5h+8c"); w.draw(); w.undo()              # the board follows

    `rules` is a preset name ("classic", "scored", "open-stock", "one-recycle", "strict", or
    e.g. "classic,passes=1") or a `Rules`; the deal is a `deal` number, a 52-card `layout`
    text, an existing `game`, or a random numbered deal. (`w.layout` stays ipywidgets' layout
    object; the cards' layout is `w.game.layout`.)

    `store` is where games and records are saved: the records database by default
    (`PYRAMID_WIDGET_DB`, else the Jupyter data folder), a path, a `Store`, or None to save
    nothing. The board offers to continue the last unfinished game of its rules;
    `PyramidWidget.resume()` does so from code, `w.records()` and `w.history()` read the
    records, and `w.review()` reviews a finished game. (`w.pause()` ends with `w.unpause()`:
    the name `resume` belongs to taking up a saved game.)
    """

    _esm = _asset("widget.js")
    _css = _asset("widget.css")

    state = traitlets.Dict(help="What every view renders; no unseen card in it.").tag(sync=True)
    moves = traitlets.List(traitlets.Unicode(), help="The move log, in notation.").tag(sync=True)

    highlight_partners = traitlets.Bool(True, help="Outline the selection's partners.")
    auto_pair = traitlets.Bool(False, help="A tap pairs a card with its first partner (000).")
    fair_hints = traitlets.Bool(True, help="Hints use only seen cards (003); off: 001's.")
    dead_end_notice = traitlets.Bool(False, help="001's early 'nothing can ever fit' notice.")
    winnable_only = traitlets.Bool(False, help="New deals are proven winnable first (001).")
    hint_time_limit = traitlets.Float(1.0, help="Seconds a hint may think.")
    next_rules = traitlets.Unicode(help="The rules new deals use (a Rules name).")

    #: Where the clock reads the time (a seam for tests); only play time is ever counted.
    _now: Callable[[], float] = staticmethod(time.monotonic)

    def __init__(
        self,
        rules: Rules | str = "classic",
        deal: int | None = None,
        layout: str | None = None,
        *,
        game: Game | None = None,
        store: StoreChoice = DEFAULT,
        **kwargs: Any,
    ) -> None:
        self._game = _make_game(rules, deal, layout, game)
        opened = open_store(store, fallback=True)
        self._owns_store = opened is not store
        self._recorder = Recorder(opened, self._game, clock=self._now)
        self._withhold_offer_played_here()
        self._lock = threading.RLock()
        self._version = 0
        self._position_version = 0
        self._event = MoveEvent("start")
        self._callbacks: list[Callable[[MoveEvent], Any]] = []
        self._paused = self._auto_paused = False
        self._hint: dict[str, Any] | None = None
        self._finding_deal = False
        self._proven: bool | None = None
        # The review on show (or being made): the game and the moves it judged, and a job
        # number that every change which makes it stale bumps, so late results are dropped.
        self._review: dict[str, Any] | None = None
        self._reviewed_game: Game | None = None
        self._reviewed_line: tuple[str, ...] = ()
        self._review_job = 0
        self._records = self._read_records()
        kwargs.setdefault("next_rules", self._game.rules.name)
        super().__init__(**kwargs)
        _OPEN.add(self)
        self._publish(self._event, position=True)
        self.observe(self._options_changed, names=[*OPTION_NAMES, "next_rules"])
        self.on_msg(self._on_msg)

    @classmethod
    def resume(
        cls,
        rules: Rules | str = "classic",
        *,
        store: StoreChoice = DEFAULT,
        **kwargs: Any,
    ) -> PyramidWidget | None:
        """A widget on the last unfinished game of `rules` saved in `store`, with its position,
        undo and redo history and clock, as the board's Continue does; None when there is
        none to continue (nothing saved, or it is open in another widget of this kernel).

        >>> w = PyramidWidget.resume("classic") or PyramidWidget("classic")  # doctest: +SKIP
        """
        widget = cls(rules, store=store, **kwargs)
        if widget.continue_game() is None:
            widget.close()
            return None
        return widget

    def close(self) -> None:
        """Close the widget (its views go) and the records database it opened itself."""
        _OPEN.discard(self)
        super().close()
        if getattr(self, "_owns_store", False):  # ipywidgets' __del__ closes half-made ones too
            with contextlib.suppress(Exception):  # at exit, sqlite3 may already be gone
                self._recorder.store.close()

    @traitlets.validate("next_rules")
    def _valid_rules(self, proposal: dict) -> str:
        value = proposal["value"]
        return value.name if isinstance(value, Rules) else Rules.parse(value).name

    # ------------------------------------------------------------------ reading
    @property
    def game(self) -> Game:
        """The live game. Play through the widget's methods so the views follow; after
        changing the game directly, call `refresh()`."""
        return self._game

    @property
    def version(self) -> int:
        """The version of the state last sent (it grows with every change)."""
        return self._version

    @property
    def position_version(self) -> int:
        """The state version at which the position or the deal last changed."""
        return self._position_version

    @property
    def elapsed(self) -> float:
        """Seconds played on this deal (paused time, time away and time before the first move
        excluded; a continued game goes on from its saved time)."""
        return self._recorder.elapsed

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def store(self) -> Store | NullStore:
        """The records database games are saved in (a NullStore when saving is off)."""
        return self._recorder.store

    @property
    def saving(self) -> bool:
        return not isinstance(self._recorder.store, NullStore)

    def records(self, rules: Rules | str | None = None) -> Records:
        """The records of `rules` (default: this game's): games, wins, losses, win rate,
        streaks, fastest win, fewest moves, best score when scoring."""
        if rules is None:
            return self._recorder.records()
        return self._recorder.store.records(rules)

    def history(
        self, rules: Rules | str | None = None, limit: int | None = None
    ) -> list[FinishedGame]:
        """Finished games, latest first (of one rules preset if given): layout, rules, moves,
        result and time, each ready to replay (`entry.start()`, `entry.moves`) or review."""
        return self._recorder.store.history(rules, limit)

    @property
    def options(self) -> ViewOptions:
        return ViewOptions(**{name: getattr(self, name) for name in OPTION_NAMES})

    # ------------------------------------------------------------------ playing
    def play(self, move: Move | str) -> Move:
        """Play a pair ("5h+8c"), a King ("Kh"), "draw" or "recycle"; raises IllegalMove with
        the engine's reason, changing nothing, when the move is refused."""
        with self._lock:
            self._check_not_paused()
            played = self._game.play(move)
            self._changed(MoveEvent("play", str(played)))
        return played

    def draw(self) -> Move:
        return self.play(DRAW)

    def recycle(self) -> Move:
        return self.play(RECYCLE)

    def undo(self) -> Move:
        """Take back the last move (IllegalMove "nothing to undo" at the start)."""
        with self._lock:
            self._check_not_paused()
            move = self._game.undo()
            self._changed(MoveEvent("undo", str(move)))
        return move

    def redo(self) -> Move:
        with self._lock:
            self._check_not_paused()
            move = self._game.redo()
            self._changed(MoveEvent("redo", str(move)))
        return move

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
        `winnable_only` is on). The rules are `next_rules`, or `rules`, which then become the
        next deals' rules too; a code carries its own.
        """
        if sum((number is not None, daily, code is not None)) > 1:
            raise ValueError("give at most one of number, daily and code")
        if rules is not None:
            self.next_rules = rules.name if isinstance(rules, Rules) else rules  # validated
        chosen = Rules.parse(self.next_rules)
        proven = None
        if code is not None:
            game = Game.from_code(code)
        elif daily:
            game = deal_for_date(None, chosen)
        elif number is not None:
            game = _make_game(chosen, number, None, None)
        elif self.winnable_only:
            game, proven = self._winnable_deal(chosen)
        else:
            game = Game.random(chosen)
        with self._lock:
            self._start(game, proven)
        return game

    def restart(self) -> None:
        """Back to the start of this deal (the history goes; seen cards stay seen). Once a
        move was played, the deal counts as lost in the records, as in 000."""
        with self._lock:
            self._game.restart()
            self._changed(MoveEvent("restart"))

    def continue_game(self) -> Game | None:
        """Take up the saved game the board offers (the last unfinished game of these rules)
        with its position, undo and redo history and clock, and return it; None when nothing
        is on offer. A deal begun here instead counts as lost."""
        with self._lock:
            offer = self._recorder.offer
            if offer is None or offer.game_id in _games_played_elsewhere(self):
                return None
            game = self._recorder.continue_game(offer)
            if game is None:
                return None
            self._game = game
            self._proven = None
            self._finding_deal = False
            self._changed(MoveEvent("continue"))
        return game

    def refresh(self) -> None:
        """Send the game's position again, after it was changed without the widget."""
        with self._lock:
            self._changed(MoveEvent("refresh"))

    def pause(self, *, auto: bool = False) -> None:
        """Stop the clock and block moves until `unpause()` (`auto`: the view was hidden)."""
        with self._lock:
            if not self._paused:
                self._paused, self._auto_paused = True, auto
            self._recorder.pause()
            self._publish(self._event, position=False)

    def unpause(self, *, auto: bool = False) -> None:
        """End a pause (the board's Resume button). An `auto` one (the view is visible again)
        only ends a pause that hiding the view made, never one the player chose."""
        with self._lock:
            if auto and not self._auto_paused:
                return
            self._paused = self._auto_paused = False
            self._recorder.unpause()
            self._publish(self._event, position=False)

    def share(self) -> str:
        """The current deal's code, for `new_deal(code=...)` or `Game.from_code` elsewhere."""
        return self._game.deal_id

    def on_move(self, callback: Callable[[MoveEvent], Any], remove: bool = False) -> None:
        """Call `callback(event)` after every change of position (a move, undo, redo, new
        deal, restart), whoever made it; `str(event)` is the move's notation for a move.
        A callback that raises is reported and does not stop the game."""
        if remove:
            self._callbacks.remove(callback)
        else:
            self._callbacks.append(callback)

    # ------------------------------------------------------------------ the solver
    def hint(self, fair: bool | None = None, time_limit: float | None = None) -> Any:
        """Ask the solver for a hint on the position on the board, show it there, return it.

        `fair` (default: the `fair_hints` option) hints use only the cards the player has seen.
        The search works on a copy, so clicks may go on meanwhile; if the position changed by
        the time it answers, the board does not show the stale hint.
        """
        from .solver import hint as solver_hint

        with self._lock:
            game, token = self._game.copy(), self._position_version
            fair = self.fair_hints if fair is None else fair
            limit = self.hint_time_limit if time_limit is None else time_limit
        result = solver_hint(game, fair=fair, time_limit=limit)
        self._show_hint(result, token)
        return result

    def solve(self, time_limit: float | None = None) -> Any:
        """The solver's verdict (a `Solution`) on the position on the board, all cards known."""
        from .solver import solve

        with self._lock:
            game = self._game.copy()
        return solve(game, time_limit=time_limit)

    def request_hint(self) -> None:
        """A view's Hint: show "checking for a solution" and think on a worker thread."""
        with self._lock:
            self._check_not_paused()
            if self._hint == CHECKING:
                return
            self._hint = CHECKING
            self._publish(self._event, position=False)
            job = (self._game.copy(), self._position_version, self.fair_hints, self.hint_time_limit)
        threading.Thread(
            target=self._hint_worker, args=job, name="pyramid-hint", daemon=True
        ).start()

    def dismiss_hint(self) -> None:
        with self._lock:
            if self._hint is not None:
                self._hint = None
                self._publish(self._event, position=False)

    def request_new_deal(self, **how: Any) -> None:
        """A view's New deal: a winnable-only random deal is searched for on a worker thread
        (the board says "finding a winnable deal" and stays playable); others start at once."""
        if how.get("number") is not None or how.get("daily") or how.get("code") is not None:
            self.new_deal(**how)
            return
        if not self.winnable_only:
            self.new_deal()
            return
        with self._lock:
            if self._finding_deal:
                return
            self._finding_deal = True
            self._publish(self._event, position=False)
            rules = Rules.parse(self.next_rules)
        threading.Thread(
            target=self._deal_worker, args=(rules,), name="pyramid-deal", daemon=True
        ).start()

    # ------------------------------------------------------------------ the review
    def review(self, time_limit: float | None = None) -> Review:
        """Review the game (see `pyramid_widget.review`), show the table on the board, and
        return the `Review` (a table in a notebook cell). The game reviewed is the whole line
        played, moves undone but still redoable included.

        Like the board's Review button, it needs the game to be over (won or out of moves) or
        every card seen, since the solver judges with every card known; `review(w.game)`
        works at any time for a notebook user who knows what they are asking for.
        """
        from .review import DEFAULT_TIME_LIMIT
        from .review import review as review_game

        with self._lock:
            game, job = self._start_review(show_progress=False)
        result = review_game(
            game, time_limit=DEFAULT_TIME_LIMIT if time_limit is None else time_limit
        )
        with self._lock:
            if job == self._review_job:
                self._review = review_view(result)
                self._publish(self._event, position=False)
        return result

    def request_review(self) -> None:
        """A view's Review: "reviewing…" on the board, the solver on a worker thread."""
        with self._lock:
            if self._review == REVIEWING:
                return
            game, job = self._start_review(show_progress=True)
        threading.Thread(
            target=self._review_worker, args=(game, job), name="pyramid-review", daemon=True
        ).start()

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
            while len(game.history) < moves:
                game.play(line[len(game.history)])  # the redo move when there is one
            self._changed(MoveEvent("step"))

    def close_review(self) -> None:
        with self._lock:
            self._drop_review()
            self._publish(self._event, position=False)

    def set_option(self, name: str, value: bool) -> None:
        if name not in OPTION_NAMES:
            raise ValueError(f"unknown option {name!r}; options: {', '.join(OPTION_NAMES)}")
        setattr(self, name, value)

    # ------------------------------------------------------------------ internals
    def _check_not_paused(self) -> None:
        if self._paused:
            raise IllegalMove(PAUSED)

    def _start_review(self, *, show_progress: bool) -> tuple[Game, int]:
        """Check that the game may be reviewed and note what is being reviewed; return a copy
        of the whole line played and the job number its result must still carry."""
        game = self._game
        over = game.outcome is not None or self._recorder.finished
        if not over and not set(game.cards) <= game.seen:
            raise IllegalMove(REVIEW_LOCKED)
        line = game.copy()
        while line.can_redo:
            line.redo()
        if not line.history:
            raise IllegalMove(NOTHING_TO_REVIEW)
        self._review_job += 1
        self._reviewed_game, self._reviewed_line = game, tuple(line.log)
        if show_progress:
            self._review = REVIEWING
            self._publish(self._event, position=False)
        return line, self._review_job

    def _review_worker(self, game: Game, job: int) -> None:
        try:
            from .review import review as review_game

            shown = review_view(review_game(game))
        except Exception as error:  # shown on the board, never raised into the comm
            traceback.print_exc(file=sys.stderr)
            shown = {"status": "failed", "reason": f"no review: {error}"}
        with self._lock:
            if job == self._review_job:  # else the game moved on and the review was dropped
                self._review = shown
                self._publish(self._event, position=False)

    def _review_still_fits(self, event: MoveEvent) -> bool:
        """A review stays while the board shows the reviewed game at one of its moves."""
        if event.action in ("new", "restart", "continue") or self._game is not self._reviewed_game:
            return False
        log = self._game.log
        return list(self._reviewed_line[: len(log)]) == log

    def _drop_review(self) -> None:
        self._review = None
        self._reviewed_game, self._reviewed_line = None, ()
        self._review_job += 1

    def _withhold_offer_played_here(self) -> None:
        """A saved game another open widget of this kernel is playing is not offered here:
        continuing it (or giving it up by playing on) would take it from under that widget."""
        offer = self._recorder.offer
        if offer is not None and offer.game_id in _games_played_elsewhere(self):
            self._recorder.offer = None

    def _records_mark(self) -> tuple[str, bool, str | None]:
        """What changes exactly when a game is recorded (won, lost, or an offer given up)."""
        recorder = self._recorder
        offer = recorder.offer.game_id if recorder.offer is not None else None
        return recorder.game_id, recorder.finished, offer

    def _read_records(self) -> dict[str, Any]:
        return records_view(self._recorder.records(), saving=self.saving)

    def _hint_worker(self, game: Game, token: int, fair: bool, limit: float) -> None:
        failure = ""
        try:
            from .solver import hint as solver_hint

            result: Any = solver_hint(game, fair=fair, time_limit=limit)
        except Exception as error:  # shown on the board, never raised into the comm
            traceback.print_exc(file=sys.stderr)
            result = None
            failure = f"no hint: {error}"
        with self._lock:
            if token != self._position_version:
                return  # the board moved on; the hint was cleared when it did
            if result is None:
                self._hint = {"status": "failed", "reason": failure}
                self._publish(self._event, position=False)
            else:
                self._show_hint(result, token)

    def _show_hint(self, result: Any, token: int) -> None:
        with self._lock:
            if token == self._position_version:
                self._hint = hint_view(result)
                self._publish(self._event, position=False)

    def _winnable_deal(self, rules: Rules) -> tuple[Game, bool]:
        from .solver import deal_winnable

        found = deal_winnable(rules)
        return found.game, bool(found.proven)

    def _deal_worker(self, rules: Rules) -> None:
        try:
            game, proven = self._winnable_deal(rules)
        except Exception:
            traceback.print_exc(file=sys.stderr)
            game, proven = Game.random(rules), False
        with self._lock:
            if not self._finding_deal:
                return  # another deal was chosen meanwhile
            self._start(game, proven)

    def _start(self, game: Game, proven: bool | None) -> None:
        self._game = game
        self._proven = proven
        self._finding_deal = False
        self._changed(MoveEvent("new"))

    def _changed(self, event: MoveEvent) -> None:
        """After every change of position: save and keep the records, then tell the views."""
        self._hint = None
        mark = self._records_mark()
        # A review step is saved like a refresh: a position of the same attempt, not a loss.
        self._recorder.changed("refresh" if event.action == "step" else event.action, self._game)
        if event.action in ("new", "restart", "continue"):
            self._paused = self._auto_paused = False
            self._withhold_offer_played_here()
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
        """Build and send a new state (one comm message for the state and the move log)."""
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
            next_rules=self.next_rules,
            finding_deal=self._finding_deal,
            proven=self._proven,
            offer=offer_view(recorder.offer),
            records=self._records,
            review=self._review,
        )
        state = build_state(
            self._game,
            version=self._version,
            position_version=self._position_version,
            options=self.options,
            event=event,
            extras=extras,
        )
        with self.hold_sync():
            self.moves = self._game.log
            self.state = state

    def _options_changed(self, change: dict) -> None:
        with self._lock:
            self._publish(self._event, position=False)

    def _on_msg(self, widget: Any, content: Any, buffers: Any) -> None:
        """Answer a front end's message; nothing raised here may reach the comm."""
        try:
            with self._lock:
                reply = intents.handle(self, content)
        except Exception as error:
            traceback.print_exc(file=sys.stderr)
            reply = intents.ack(content, False, f"internal error: {error}", None)
        if reply is not None:
            self.send(reply)
