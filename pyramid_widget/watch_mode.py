"""Watch mode: a strategy plays on the board, move by move, for the player to watch.

Each move is chosen first and marked on the board as a hint is marked, then played a beat
later (`speed`: moves a second), so the eye can follow. The board's Pause, Step, Take over and
Stop buttons, and the same calls from code, control it; a move the player makes on the board
takes over at once, and from then the game is the player's to play on. The strategy is asked
as a job (`jobs.Jobs`), so a slow one never holds the board up, and a choice made for a
position the board has left is dropped.

Watching never writes records: like a puzzle, the game in play is set aside untouched (its
clock stopped) and the watched game is played on a board whose recorder keeps nothing; Stop
brings the game in play back as it was. The beat comes from a timer thread where threads
exist, else from the running event loop (Pyodide's); where there is neither, the game moves
only when stepped.
"""

from __future__ import annotations

import asyncio
import math
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from . import words
from .board import Board
from .game import Game, IllegalMove, Move
from .lab.player_view import PlayerView
from .lab.players import AllSeeing
from .lab.strategy import StrategyError, ask, chooser, name_of
from .records import Recorder
from .solver import solve
from .store import NullStore
from .view import MoveEvent

if TYPE_CHECKING:
    from .session import GameSession

Phase = Literal["playing", "paused", "over", "yours"]

SPEED = 2.0
"""Moves a second by default: time to see each move marked before it is played."""
MAX_SPEED = 20.0


@dataclass
class WatchRun:
    """One strategy's game on the board: who plays, how fast, where it stands (`phase`), the
    move chosen and marked (played at the next beat), what the board says, the board it
    plays on, and the board of the game in play set aside meanwhile (`away`)."""

    player: str
    choose: Callable[[PlayerView], Any]
    speed: float
    board: Board
    away: Board
    phase: Phase = "playing"
    chosen: Move | None = None
    said: str = ""
    played: int = 0
    step_when_chosen: bool = False
    beat: int = field(default=0, repr=False)  # which timer is the live one


class WatchMode:
    """Watch mode on a session: the run on the board (None when nothing is watched)."""

    def __init__(self, session: GameSession) -> None:
        self._session = session
        self.run: WatchRun | None = None

    @property
    def watching(self) -> bool:
        """A strategy's game is on the board (playing, paused, over or taken over)."""
        run = self.run
        return run is not None and self._session.board is run.board

    # ------------------------------------------------------------------ the calls
    def start(self, strategy: Any, *, speed: float = SPEED, deal: int | None = None) -> WatchMode:
        """Put `strategy` to play on the board: from the position on it, or from the start of
        numbered deal `deal` under the board's rules. Returns this mode, whose `pause`,
        `resume`, `step`, `take_over` and `stop` control the game."""
        speed = _speed(speed)
        choose = None if isinstance(strategy, AllSeeing) else chooser(strategy)
        session = self._session
        with session.lock:
            base = session.board.game  # a watched game, a puzzle or the game in play
            game = base.copy() if deal is None else Game.deal(deal, base.rules)
            choose = choose or _Plan(game)
            session.puzzles.leave()
            self.leave()
            away = session.board
            away.recorder.pause()
            board = Board(game, Recorder(NullStore(), game, clock=session.clock))
            self.run = WatchRun(name_of(strategy), choose, speed, board, away)
            session.board = board
            session.changed(MoveEvent("watch"))
            self._think()
        return self

    def pause(self) -> None:
        """Hold the strategy's next move (it stays marked); `step` plays it."""
        with self._session.lock:
            run = self._live("playing", "paused")
            run.phase = "paused"
            self._session.publish()

    def resume(self) -> None:
        with self._session.lock:
            run = self._live("playing", "paused")
            if run.phase == "paused":
                run.phase = "playing"
                self._session.publish()
                self._beat()

    def step(self) -> None:
        """Play the marked move now (or, while it is still being chosen, as soon as it is)
        and hold the next one: the game stays paused."""
        with self._session.lock:
            run = self._live("playing", "paused")
            run.phase = "paused"
            if run.chosen is not None:
                self._advance(run)
            else:
                run.step_when_chosen = True
                self._session.publish()

    def take_over(self) -> None:
        """The game is the player's from here: the strategy stops, the board stays."""
        with self._session.lock:
            self._live("playing", "paused", "over")
            self.yield_to_player()

    def stop(self) -> None:
        """Stop watching: the game in play comes back as it was."""
        with self._session.lock:
            if self.run is None:
                raise IllegalMove(words.NOT_WATCHING)
            self.leave()
            self._session.changed(MoveEvent("refresh"))

    # ------------------------------------------------------------------ for the session
    def yield_to_player(self) -> None:
        """The player moves on the watched board (or asked to take over): it is theirs now."""
        run = self.run
        if self.watching and run is not None and run.phase != "yours":
            run.phase, run.chosen, run.said = "yours", None, words.WATCH_YOURS
            self._session.jobs.invalidate()  # a choice still being made is for nobody
            self._session.publish()

    def leave(self) -> None:
        """Put the game in play back, unannounced (the caller announces what follows); its
        clock goes on unless the session is paused."""
        run, session = self.run, self._session
        if run is not None:
            self.run = None
            if session.board is run.board:
                session.board = run.away
            if not session.paused:
                run.away.recorder.unpause()

    def view(self) -> dict[str, Any] | None:
        """What the board shows of the watch: the player, the phase, the chosen move (a legal
        move now: it names cards in play only) and what is said."""
        run = self.run
        if run is None or not self.watching:
            return None
        chosen = run.chosen
        return {
            "player": run.player,
            "phase": run.phase,
            "move": None if chosen is None else str(chosen),
            "kind": None if chosen is None else chosen.kind,
            "said": run.said,
            "played": run.played,
            "speed": run.speed,
        }

    # ------------------------------------------------------------------ the game
    def _live(self, *phases: Phase) -> WatchRun:
        run = self.run
        if run is None or not self.watching:
            raise IllegalMove(words.NOT_WATCHING)
        if run.phase not in phases:
            raise IllegalMove(words.WATCH_YOURS if run.phase == "yours" else words.WATCH_OVER)
        return run

    def _think(self) -> None:
        """Ask the strategy for its next move, as a job; the answer is marked on the board."""
        run = self.run
        assert run is not None
        game = run.board.game
        if game.is_won:
            self._over(run, words.watch_said("won", run.player, game.move_count))
            return
        if not game.legal_moves():
            self._over(run, words.watch_said("stuck", run.player))
            return
        view = PlayerView.of(game)
        deal = game.deal_number if game.deal_number is not None else game.deal_code
        run.said = words.watch_said("thinking", run.player)
        self._session.publish()
        self._session.jobs.run(
            "watch",
            lambda: ask(run.choose, view, player=run.player, deal=deal),
            lambda answer: self._chosen(run, *answer),
            lambda error: self._over(run, words.watch_said("failed", run.player, _cause(error))),
        )

    def _chosen(self, run: WatchRun, move: Move | None, refused: tuple[str, str] | None) -> None:
        if run is not self.run or run.phase not in ("playing", "paused"):
            return
        game = run.board.game
        reason = refused[1] if refused else game.refusal(move)  # type: ignore[arg-type]
        if reason is not None:
            answer = refused[0] if refused else (move.text if move else "")
            self._over(run, words.watch_said("refused", run.player, answer, reason))
            return
        assert move is not None
        run.chosen, run.said = move, words.watch_said("chose", run.player, move.text)
        if run.step_when_chosen:
            run.step_when_chosen = False
            self._advance(run)
            return
        self._session.publish()
        if run.phase == "playing":
            self._beat()

    def _advance(self, run: WatchRun) -> None:
        """Play the chosen move (the engine checks it again), then choose the next one."""
        move, run.chosen = run.chosen, None
        assert move is not None
        run.board.game.play(move)
        run.played += 1
        self._session.changed(MoveEvent("play", str(move)))
        self._think()

    def _over(self, run: WatchRun, said: str) -> None:
        if run is self.run and run.phase != "yours":
            run.phase, run.chosen, run.said = "over", None, said
            self._session.publish()

    # ------------------------------------------------------------------ the beat
    def _beat(self) -> None:
        """In 1/speed seconds, play the chosen move if the watch is still playing then."""
        run = self.run
        assert run is not None
        run.beat += 1
        beat = run.beat

        def tick() -> None:
            session = self._session
            with session.lock:
                if run is not self.run or run.beat != beat or run.phase != "playing":
                    return
                if session.paused or not self.watching or run.chosen is None:
                    self._beat()  # a hidden or paused board waits, then goes on
                    return
                self._advance(run)

        _later(1 / run.speed, tick, threads=self._session.jobs.threaded)


def _later(delay: float, tick: Callable[[], None], *, threads: bool | None) -> None:
    """Call `tick` after `delay` seconds: on a timer thread where threads may start, else on
    the running event loop (Pyodide's browser loop), else never (the game waits for steps)."""
    if threads is not False:
        timer = threading.Timer(delay, tick)
        timer.daemon = True
        try:
            timer.start()
            return
        except RuntimeError:  # no threads here (Pyodide)
            pass
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        if sys.platform != "emscripten":
            return
        loop = asyncio.get_event_loop()  # Pyodide's loop runs outside any coroutine
    loop.call_later(delay, tick)


def _speed(speed: Any) -> float:
    if isinstance(speed, bool) or not isinstance(speed, int | float) or math.isnan(speed):
        raise ValueError(f"speed is a number of moves a second, not {speed!r}")
    if not 0 < speed <= MAX_SPEED:
        raise ValueError(f"speed must be more than 0 and at most {MAX_SPEED:g} moves a second")
    return float(speed)


def _cause(error: Exception) -> str:
    """The strategy's own error, as its programmer wrote it."""
    return error.error if isinstance(error, StrategyError) else f"{type(error).__name__}: {error}"


class _Plan:
    """The all-seeing player at the board: the solver's winning line from the position it
    starts from (solved when it is first asked, in the job), else greedy's moves. It is given
    that game, since a view is not enough for it."""

    def __init__(self, game: Game) -> None:
        self.start = game.copy()
        self.line: list[Move] | None = None

    def __call__(self, view: PlayerView) -> Move:
        if self.line is None:
            solution = solve(self.start, time_limit=None)
            self.line = [Move.parse(move) for move in solution.moves]
        done = view.move_count - self.start.move_count
        return self.line[done] if done < len(self.line) else AllSeeing.otherwise(view)
