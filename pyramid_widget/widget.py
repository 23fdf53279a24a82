"""PyramidWidget: a playable Pyramid in a notebook, driven by clicks, keys or Python calls.

The Python model owns the `Game`. Views render the `state` trait (built by `view.build_state`,
which keeps unseen cards out of it) and send intents back as custom messages; `intents.handle`
checks each one, the engine applies or refuses it, and every intent gets one ack. Python calls
(`w.play("5h+8c")`) go through the same methods, so every view follows whoever plays.
"""

from __future__ import annotations

import sys
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from . import intents
from .game import DRAW, RECYCLE, Game, Move
from .rules import Rules
from .view import MoveEvent, ViewOptions, build_state


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
        super().__init__(**kwargs)
        self._publish(self._event, position=True)
        self.observe(self._options_changed, names=["highlight_partners", "auto_pair"])
        self.on_msg(self._on_msg)

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
    def options(self) -> ViewOptions:
        return ViewOptions(highlight_partners=self.highlight_partners, auto_pair=self.auto_pair)

    # ------------------------------------------------------------------ playing
    def play(self, move: Move | str) -> Move:
        """Play a pair ("5h+8c"), a King ("Kh"), "draw" or "recycle"; raises IllegalMove with
        the engine's reason, changing nothing, when the move is refused."""
        with self._lock:
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
            move = self._game.undo()
            self._changed(MoveEvent("undo", str(move)))
        return move

    def redo(self) -> Move:
        with self._lock:
            move = self._game.redo()
            self._changed(MoveEvent("redo", str(move)))
        return move

    def new_deal(self, number: int | None = None, *, rules: Rules | str | None = None) -> Game:
        """Start numbered deal `number` (a random one by default), under `rules` if given,
        else the current rules. Returns the new game."""
        with self._lock:
            rules = rules if rules is not None else self._game.rules
            game = Game.random(rules) if number is None else _make_game(rules, number, None, None)
            self._game = game
            self._changed(MoveEvent("new"))
        return game

    def restart(self) -> None:
        """Back to the start of this deal (the history goes; seen cards stay seen)."""
        with self._lock:
            self._game.restart()
            self._changed(MoveEvent("restart"))

    def refresh(self) -> None:
        """Send the game's position again, after it was changed without the widget."""
        with self._lock:
            self._changed(MoveEvent("refresh"))

    def on_move(self, callback: Callable[[MoveEvent], Any], remove: bool = False) -> None:
        """Call `callback(event)` after every change of position (a move, undo, redo, new
        deal, restart), whoever made it; `str(event)` is the move's notation for a move.
        A callback that raises is reported and does not stop the game."""
        if remove:
            self._callbacks.remove(callback)
        else:
            self._callbacks.append(callback)

    # ------------------------------------------------------------------ internals
    def _changed(self, event: MoveEvent) -> None:
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
        state = build_state(
            self._game,
            version=self._version,
            position_version=self._position_version,
            options=self.options,
            event=event,
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
