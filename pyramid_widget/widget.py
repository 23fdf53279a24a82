"""PyramidWidget: the anywidget model of a board. Traits, assets, the message hook, publishing.

The game lives in a plain-Python `GameSession` (session.py); the widget syncs its `state` to the
views, mirrors the options as traits, hands each view's message to its `intents.Desk`, and
offers the session's calls as its own, so a cell can play (`w.play("5h+8c")`) and views follow.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from . import svg
from .game import Game, Move
from .intents import Desk
from .puzzles import Puzzle
from .records import Records
from .review import Review
from .rules import Rules
from .session import GameSession, StoreChoice
from .store import DEFAULT, FinishedGame, NullStore, Store
from .view import OPTION_FIELDS, OPTION_NAMES, MoveEvent, catalog


def _asset(name: str) -> Path:
    """The front end file `name`: in pyramid_widget/static/ in a wheel, else in the repo's js/."""
    here = Path(__file__).resolve().parent
    for folder in (here / "static", here.parent / "js"):
        path = folder / name
        if path.is_file():
            return path
    raise FileNotFoundError(f"the widget's {name} is in neither {here / 'static'} nor js/")


#: The traits a notebook may set that the session keeps: the options, and two settings.
_SETTINGS = (*OPTION_NAMES, "next_rules", "hint_time_limit")


def _option_trait(name: str) -> traitlets.Bool:
    spec = next(f for f in OPTION_FIELDS if f.name == name)
    return traitlets.Bool(spec.default, help=spec.metadata["help"])


class PyramidWidget(anywidget.AnyWidget):
    """Pyramid Solitaire in a notebook.

    >>> w = PyramidWidget(rules="open-stock", deal=42, store=None)
    >>> w.draw(); w.undo(); w.moves                      # the board follows
    Move.parse('draw')
    Move.parse('draw')
    []

    `rules`: a preset name ("classic", "scored", "open-stock", "one-recycle", "strict", or e.g.
    "classic,passes=1") or a `Rules`. The deal: a `deal` number, a 52-card `layout` text, a
    `game`, or a random numbered deal (`w.layout` stays ipywidgets' layout object). `store`:
    where games and records are saved: the records database by default (`PYRAMID_WIDGET_DB`,
    else the Jupyter data folder), a path, a `Store`, or None to save nothing. `w.session` is
    the plain-Python session behind the board.
    """

    _esm = _asset("widget.js")
    _css = _asset("widget.css")

    state = traitlets.Dict(help="What every view renders; no unseen card in it.").tag(sync=True)
    moves = traitlets.List(traitlets.Unicode(), help="The move log, in notation.").tag(sync=True)
    catalog = traitlets.Dict(help="The menus' tables and the protocol's actions.").tag(sync=True)
    drawn = traitlets.Int(0, help="The state version a view last drew.").tag(sync=True)

    highlight_partners = _option_trait("highlight_partners")
    auto_pair = _option_trait("auto_pair")
    fair_hints = _option_trait("fair_hints")
    dead_end_notice = _option_trait("dead_end_notice")
    winnable_only = _option_trait("winnable_only")
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
        self.session = GameSession(rules, deal, layout, game=game, store=store, clock=self._now)
        self._desk = Desk(self.session)
        self._pictures: list[Any] = []  # display handles of the pictures beside the board
        settings = {name: kwargs.pop(name) for name in _SETTINGS if name in kwargs}
        super().__init__(catalog=catalog(), next_rules=self.session.next_rules, **kwargs)
        self.hint_time_limit = self.session.hints.time_limit
        self.session.listen(self._show)
        self._show(self.session.state, self.session.moves)
        self.observe(self._option_set, names=list(_SETTINGS))
        for name, value in settings.items():
            setattr(self, name, value)
        self.on_msg(self._on_msg)

    @classmethod
    def continue_saved(
        cls, rules: Rules | str = "classic", *, store: StoreChoice = DEFAULT, **kwargs: Any
    ) -> PyramidWidget | None:
        """A widget on the last unfinished game of `rules` saved in `store`, as the board's
        Continue does; None when there is none (or another board of this kernel plays it).

        >>> PyramidWidget.continue_saved("classic", store=None) is None   # nothing saved
        True
        """
        widget = cls(rules, store=store, **kwargs)
        if widget.session.continue_saved() is None:
            widget.close()
            return None
        return widget

    def close(self) -> None:
        """Close the widget (its views go) and the records database it opened itself."""
        super().close()
        session = self.__dict__.get("session")  # ipywidgets' __del__ closes half-made ones too
        if session is not None:
            with contextlib.suppress(Exception):  # at exit, sqlite3 may already be gone
                session.close()

    # ------------------------------------------------------------------ display
    def _ipython_display_(self, **kwargs: Any) -> None:
        """The board, and a picture of its position for where it cannot render (the stylesheet
        hides it elsewhere): its own output, as JupyterLab adds a view per widget update."""
        from IPython.display import display

        bundle = self._repr_mimebundle_(**kwargs)  # anywidget's: (data, metadata)
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        display(data, metadata=metadata, raw=True)
        self._pictures.append(display(self._picture(), raw=True, display_id=True))

    def _picture(self) -> dict[str, str]:
        """The position as a picture and in words; neither names the deal (it may be secret)."""
        picture = svg.board(self.session.game, size=480)
        html = f'<div class="pw-picture">{picture.as_img()}</div>'
        return {"text/html": html, "text/plain": picture.title}

    # ------------------------------------------------------------------ publishing
    def _show(self, state: dict[str, Any], moves: list[str]) -> None:
        """A new state: one comm message for it and the move log; the option traits follow."""
        with self.hold_sync():
            self.moves = moves
            self.state = state
        if self._pictures and state["position_version"] == state["version"]:
            picture = self._picture()
            for handle in self._pictures:
                handle.update(picture, raw=True)
        settings = {**state["options"], "next_rules": state["next_rules"]["name"]}
        for name in (*OPTION_NAMES, "next_rules"):
            if getattr(self, name) != settings[name]:
                setattr(self, name, settings[name])

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """A view's changes: `drawn` is the view's; a view that writes a trait Python owns
        changes nothing and is sent the true value at once (every view shows it again)."""
        written = [name for name in sync_data if name in ("state", "moves", "catalog")]
        super().set_state({name: v for name, v in sync_data.items() if name not in written})
        if written:
            self.send_state(written)

    @traitlets.validate("next_rules")
    def _valid_rules(self, proposal: dict) -> str:
        return Rules.coerce(proposal["value"]).name

    def _option_set(self, change: dict) -> None:
        """A notebook set an option trait: the session takes it (and publishes if it changed)."""
        name, value = change["name"], change["new"]
        if name == "next_rules":
            self.session.set_next_rules(value)
        elif name == "hint_time_limit":
            self.session.hints.time_limit = value
        else:
            self.session.set_option(name, value)

    def _on_msg(self, widget: Any, content: Any, buffers: Any) -> None:
        """Hand a front end's message to the intents' desk and send its answer back."""
        if (reply := self._desk.handle(content)) is not None:
            self.send(reply)

    # ------------------------------------------------------------------ the session's calls
    @property
    def game(self) -> Game:
        """The live game: play through the widget so the views follow (else call `refresh()`)."""
        return self.session.game

    @property
    def elapsed(self) -> float:
        """Seconds played on this deal (not paused, hidden, or before the first move)."""
        return self.session.elapsed

    @property
    def paused(self) -> bool:
        return self.session.paused

    @property
    def store(self) -> Store | NullStore:
        """The records database games are saved in (a NullStore when saving is off)."""
        return self.session.store

    def play(self, move: Move | str) -> Move:
        """Play "5h+8c", "Kh", "draw" or "recycle"; IllegalMove with the reason if refused."""
        return self.session.play(move)

    def draw(self) -> Move:
        return self.session.draw()

    def recycle(self) -> Move:
        return self.session.recycle()

    def undo(self) -> Move:
        """Take back the last move (IllegalMove "nothing to undo" at the start)."""
        return self.session.undo()

    def redo(self) -> Move:
        return self.session.redo()

    def restart(self) -> None:
        """Back to the start of this deal; once a move was played, the deal counts as lost."""
        self.session.restart()

    def refresh(self) -> None:
        """Send the game's position again, after it was changed without the widget."""
        self.session.refresh()

    def new_deal(self, number: int | None = None, **how: Any) -> Game:
        """Start another deal (see `GameSession.new_deal`: number, rules, daily, code)."""
        return self.session.new_deal(number, **how)

    def pause(self, *, auto: bool = False) -> None:
        """Stop the clock and block moves until `unpause()`."""
        self.session.pause(auto=auto)

    def unpause(self, *, auto: bool = False) -> None:
        self.session.unpause(auto=auto)

    def share(self) -> str:
        """The current deal's code, for `new_deal(code=...)` or `Game.from_code` elsewhere."""
        return self.session.share()

    def on_move(self, callback: Callable[[MoveEvent], Any], remove: bool = False) -> None:
        """Call `callback(event)` after every change of position, whoever made it."""
        self.session.on_move(callback, remove)

    def hint(self, fair: bool | None = None, time_limit: float | None = None) -> Any:
        """A hint on the position (`fair`: only seen cards; the option by default), shown too."""
        return self.session.hints.ask(fair, time_limit)

    def solve(self, time_limit: float | None = None) -> Any:
        """The solver's verdict (a `Solution`) on the position on the board, all cards known."""
        return self.session.solve(time_limit)

    def review(self, time_limit: float | None = None) -> Review:
        """Review the game (over, or every card seen), show the table on the board, return it."""
        return self.session.reviews.run(time_limit)

    def puzzle(self, which: Puzzle | str | None = None, **how: Any) -> Puzzle:
        """Pose a puzzle from a real deal: `which` (a `Puzzle` or an id), or the first shipped
        one of these `rules`, `theme` and `difficulty` (see `PuzzleMode.open`)."""
        return self.session.puzzles.open(which, **how)

    def show_answer(self) -> str:
        """Show the puzzle's answer (why it keeps the win): it then counts as not solved."""
        return self.session.puzzles.show_answer()

    def next_puzzle(self) -> Puzzle:
        return self.session.puzzles.step(1)

    def previous_puzzle(self) -> Puzzle:
        return self.session.puzzles.step(-1)

    def close_puzzle(self) -> None:
        self.session.puzzles.close()

    def watch(self, strategy: Any, speed: float = 2.0, deal: int | None = None) -> Any:
        """Watch `strategy` play here, move by move (`watch_mode.WatchMode.start`)."""
        return self.session.watching.start(strategy, speed=speed, deal=deal)

    def records(self, rules: Rules | str | None = None) -> Records:
        """The records of `rules` (default: this game's): games, wins, streaks, bests."""
        return self.session.records(rules)

    def history(
        self, rules: Rules | str | None = None, limit: int | None = None
    ) -> list[FinishedGame]:
        """Finished games, latest first (of one rules preset if given), ready to replay."""
        return self.session.history(rules, limit)
