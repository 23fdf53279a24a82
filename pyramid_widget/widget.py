"""PyramidWidget: a playable Pyramid in a notebook, driven by clicks, keys or Python calls.

The Python model owns the `Game`. Views render the `state` trait (built by `view.build_state`,
which keeps unseen cards out of it) and send intents back as custom messages; `intents.handle`
checks each one, the engine applies or refuses it, and every intent gets one ack. Python calls
(`w.play("5h+8c")`) go through the same methods, so every view follows whoever plays.

Slow work (a hint, a search for a winnable deal) runs on a worker thread so the kernel keeps
answering clicks; its result is published only if the position it was computed for is still
on the board. One lock serialises every change of the game and every publication.
"""

from __future__ import annotations

import sys
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from . import intents
from .game import DRAW, RECYCLE, Game, IllegalMove, Move, deal_for_date
from .rules import Rules
from .view import CHECKING, Extras, MoveEvent, ViewOptions, build_state, hint_view

PAUSED = "the game is paused: resume to play"

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


class Clock:
    """Time played on one deal: it starts with the first move, stops at a win, stands still
    while paused, and undo never rewinds it. `now` is injectable for tests."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self._now = now
        self.reset()

    def reset(self) -> None:
        self._banked = 0.0
        self._since: float | None = None
        self.started = False
        self.paused = False
        self.auto_paused = False

    @property
    def elapsed(self) -> float:
        running = self._now() - self._since if self._since is not None else 0.0
        return self._banked + running

    @property
    def running(self) -> bool:
        return self._since is not None

    def follow(self, game: Game) -> None:
        """Run or stop as the game now requires (after every change of position)."""
        if game.move_count > 0:
            self.started = True
        should_run = self.started and not self.paused and not game.is_won
        if should_run and self._since is None:
            self._since = self._now()
        elif not should_run and self._since is not None:
            self._banked = self.elapsed
            self._since = None

    def pause(self, game: Game, *, auto: bool = False) -> None:
        if not self.paused:
            self.paused, self.auto_paused = True, auto
        self.follow(game)

    def resume(self, game: Game) -> None:
        self.paused = self.auto_paused = False
        self.follow(game)


class PyramidWidget(anywidget.AnyWidget):
    """Pyramid Solitaire in a notebook.

    >>> w = PyramidWidget(rules="open-stock", deal=42)   # doctest: +SKIP
    >>> w                                                # shows the board
    >>> w.play("5h+8c"); w.draw(); w.undo()              # the board follows

    `rules` is a preset name ("classic", "scored", "open-stock", "one-recycle", "strict", or
    e.g. "classic,passes=1") or a `Rules`; the deal is a `deal` number, a 52-card `layout`
    text, an existing `game`, or a random numbered deal. (`w.layout` stays ipywidgets' layout
    object; the cards' layout is `w.game.layout`.)
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

    def __init__(
        self,
        rules: Rules | str = "classic",
        deal: int | None = None,
        layout: str | None = None,
        *,
        game: Game | None = None,
        **kwargs: Any,
    ) -> None:
        self._game = _make_game(rules, deal, layout, game)
        self._lock = threading.RLock()
        self._version = 0
        self._position_version = 0
        self._event = MoveEvent("start")
        self._callbacks: list[Callable[[MoveEvent], Any]] = []
        self._clock = Clock()
        self._hint: dict[str, Any] | None = None
        self._finding_deal = False
        self._proven: bool | None = None
        kwargs.setdefault("next_rules", self._game.rules.name)
        super().__init__(**kwargs)
        self._clock.follow(self._game)
        self._publish(self._event, position=True)
        self.observe(self._options_changed, names=[*OPTION_NAMES, "next_rules"])
        self.on_msg(self._on_msg)

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
        """Seconds played on this deal (paused time and time before the first move excluded)."""
        return self._clock.elapsed

    @property
    def paused(self) -> bool:
        return self._clock.paused

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
        """Back to the start of this deal (the history goes; seen cards stay seen)."""
        with self._lock:
            self._game.restart()
            self._clock.reset()
            self._changed(MoveEvent("restart"))

    def refresh(self) -> None:
        """Send the game's position again, after it was changed without the widget."""
        with self._lock:
            self._changed(MoveEvent("refresh"))

    def pause(self, *, auto: bool = False) -> None:
        """Stop the clock and block moves until `resume()` (`auto`: the view was hidden)."""
        with self._lock:
            self._clock.pause(self._game, auto=auto)
            self._publish(self._event, position=False)

    def resume(self, *, auto: bool = False) -> None:
        """Start the clock again. An `auto` resume (the view is visible again) only ends a
        pause that hiding the view made, never one the player chose."""
        with self._lock:
            if auto and not self._clock.auto_paused:
                return
            self._clock.resume(self._game)
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

    def set_option(self, name: str, value: bool) -> None:
        if name not in OPTION_NAMES:
            raise ValueError(f"unknown option {name!r}; options: {', '.join(OPTION_NAMES)}")
        setattr(self, name, value)

    # ------------------------------------------------------------------ internals
    def _check_not_paused(self) -> None:
        if self._clock.paused:
            raise IllegalMove(PAUSED)

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
        self._clock.reset()
        self._changed(MoveEvent("new"))

    def _changed(self, event: MoveEvent) -> None:
        self._hint = None
        self._clock.follow(self._game)
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
        clock = self._clock
        extras = Extras(
            elapsed=clock.elapsed,
            running=clock.running,
            paused=clock.paused,
            hint=self._hint,
            next_rules=self.next_rules,
            finding_deal=self._finding_deal,
            proven=self._proven,
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
