"""Records and the rules of record keeping: what counts as a game, a win and a loss, and when.

Records are never counters bumped in place: `summarize` derives them every time from the
finished games, in the order they finished, so they cannot drift from the history. `Recorder`
applies the rules while a game is played: autosave, the loss rule and the clock. A store that
fails (disk full, locked for too long) never stops the game: the error becomes a warning and
play goes on (a `Store` writes the save that failed later: see `Store.save`).

This module is below the store: it defines what a store hands back (`SavedGame`,
`FinishedGame`) and what a Recorder needs of one (`AnyStore`); `store.py` imports it, never the
other way round.
"""

from __future__ import annotations

import datetime as _dt
import sqlite3
import time
import uuid
import warnings
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal, NamedTuple, Protocol

from .game import Game
from .rules import Rules

Result = Literal["won", "lost"]


@dataclass(frozen=True)
class Records:
    """One rules preset's records. Times in seconds of play; None where nothing qualifies yet.

    games counts finished games: wins, losses and practice games (won or lost); unfinished
    games are not counted until they are won or given up. Wins, losses, the win rate,
    streaks, fastest win, fewest moves and best score come from the other games only.
    best_score is None when the rules do not score; it is the best score of any counted
    finished game (a lost game keeps the points it made).
    """

    rules: str
    games: int = 0
    wins: int = 0
    losses: int = 0
    practice: int = 0
    current_streak: int = 0
    best_streak: int = 0
    fastest_win: float | None = None
    fewest_moves: int | None = None
    best_score: int | None = None

    @property
    def win_rate(self) -> float | None:
        """Wins per counted game (0..1), None before the first one."""
        counted = self.wins + self.losses
        return self.wins / counted if counted else None

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "win_rate": self.win_rate}


class Outcome(NamedTuple):
    """One finished game as the records see it; `practice` when it counts as played only (see
    `summarize`)."""

    result: Result
    elapsed: float
    moves: int
    score: int
    practice: bool = False


def can_count(game: Game) -> bool:
    """Whether `game` may count as a win or a loss: only a numbered deal, begun at its start.

    That is a deal by its number, the daily deal, a random deal the board dealt, or one of
    them from its shared code ("classic#42"): nobody chose its cards. A game from a layout or
    from a position code (even the code of a numbered deal's start) is practice, whoever made
    it; so is one begun from a mid-game position.
    """
    return game.deal_number is not None and game.from_deal_start


def summarize(rules: str, finished: Iterable[Outcome]) -> Records:
    """Records from the finished games in finishing order.

    A practice game (one that `can_count` refuses, such as a hand-made deck or a lesson
    position, or one whose review was opened while it was played) counts as played, but never
    as a win or a loss, for the win rate, bests or streaks, and it neither extends nor breaks a
    streak: practising a lesson between two real wins should not cost the player their streak,
    and a win the all-seeing review helped to (or a deck made easy) must not build one.
    """
    try:
        scoring = Rules.parse(rules).scoring
    except ValueError:  # a preset this version does not know: show what the games scored
        scoring = None
    wins = losses = practised = streak = best_streak = 0
    fastest: float | None = None
    fewest: int | None = None
    best_score: int | None = None
    for result, elapsed, moves, score, practice in finished:
        if practice:
            practised += 1
            continue  # counted as played, and nothing more
        if result == "won":
            wins += 1
            streak += 1
            best_streak = max(best_streak, streak)
            fastest = elapsed if fastest is None else min(fastest, elapsed)
            fewest = moves if fewest is None else min(fewest, moves)
        else:
            losses += 1
            streak = 0
        if scoring or (scoring is None and score):
            best_score = score if best_score is None else max(best_score, score)
    return Records(
        rules,
        wins + losses + practised,
        wins,
        losses,
        practised,
        streak,
        best_streak,
        fastest,
        fewest,
        best_score,
    )


# ---------------------------------------------------------------------- what a store hands back
@dataclass(frozen=True)
class SavedGame:
    """An unfinished game to continue: the game with its undo and redo history, its clock,
    and whether it is practice (continued, it stays practice)."""

    game_id: str
    game: Game
    elapsed: float
    started_at: _dt.datetime
    saved_at: _dt.datetime
    practice: bool = False


@dataclass(frozen=True)
class FinishedGame:
    """One finished game of the history; `start()` and `moves` replay it move by move,
    `game()` loads its final position with its undo history. `practice` when it counted as
    played only (it set no best and no streak)."""

    game_id: str
    rules: str
    deal_number: int | None
    layout: str
    moves: tuple[str, ...]
    move_count: int
    result: Result
    elapsed: float
    score: int
    started_at: _dt.datetime
    finished_at: _dt.datetime
    save: str
    practice: bool = False

    def start(self) -> Game:
        """The deal at its start, under its rules."""
        if self.deal_number is not None:
            return Game.deal(self.deal_number, self.rules)
        return Game.from_layout(self.layout, self.rules)

    def game(self) -> Game:
        """The game as it ended (undo walks back through it)."""
        return Game.from_json(self.save)


class AnyStore(Protocol):
    """What a `Recorder` and the widget use: a `Store`, or a `NullStore` that keeps nothing.

    `saving` is False when nothing is written (saving off, or a read-only database, whose
    records are still shown); `save` and `give_up` then return False.
    """

    path: Path | None

    @property
    def read_only(self) -> bool: ...
    @property
    def saving(self) -> bool: ...
    def save(
        self,
        game_id: str,
        game: Game,
        elapsed: float,
        *,
        result: Result | None = None,
        practice: bool = False,
    ) -> bool: ...
    def give_up(self, game_id: str, elapsed: float | None = None) -> bool: ...
    def take(self, saved: SavedGame) -> bool: ...
    def saved_game(self, rules: Rules | str) -> SavedGame | None: ...
    def records(self, rules: Rules | str) -> Records: ...
    def all_records(self) -> dict[str, Records]: ...
    def history(
        self, rules: Rules | str | None = None, limit: int | None = None
    ) -> list[FinishedGame]: ...
    def close(self) -> None: ...


# ---------------------------------------------------------------------- the session
_ACTIONS_SAVED = ("play", "undo", "redo", "refresh")


class Recorder:
    """Keeps one player's games in a store: autosave, the loss rule, the clock.

    >>> game = Game.deal(1)
    >>> recorder = Recorder(NullStore(), game)  # a Store keeps what a NullStore forgets
    >>> move = game.play(game.legal_moves()[0])
    >>> recorder.moved()  # saved; a win is recorded here, once
    >>> recorder.started, recorder.clock_running
    (True, True)
    >>> recorder.new_game(Game.deal(7))  # the begun deal counts as lost
    >>> recorder.started
    False

    `offer` is the saved unfinished game of the same rules that a "Continue" would bring back
    (None when there is none). Playing a first move in another deal instead gives it up, which
    records it as lost. The other rules:

    - every applied move, undo and redo is saved at once (the save carries undo and redo
      history); a win is recorded once, with the clock stopped at the winning move;
    - restarting, choosing another deal or continuing another saved game, once a move has been
      played in an unfinished deal, records that deal as lost; Undo alone does not (undoing
      back to the deal's start still leaves a deal that was begun), and neither does being
      stuck;
    - the clock counts play only: it starts with the first move (or when a saved game is
      continued), `pause()` stops it, and time between sessions never counts, since only the
      elapsed seconds are kept.
    """

    def __init__(
        self,
        store: AnyStore,
        game: Game,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self._clock = clock
        self.offer: SavedGame | None = self._safely(lambda: store.saved_game(game.rules), None)
        self._begin(game, elapsed=0.0, game_id=None)

    # ------------------------------------------------------------------ reading
    @property
    def game(self) -> Game:
        return self._game

    @property
    def game_id(self) -> str:
        """The current attempt's id in the store (a restart or new deal gets a new one)."""
        return self._game_id

    @property
    def started(self) -> bool:
        """A move has been played in this attempt (it is saved, and leaving it is a loss)."""
        return self._started

    @property
    def finished(self) -> bool:
        return self._finished

    @property
    def practice(self) -> bool:
        """This attempt counts as played only (see `summarize`): `can_count` refuses its game,
        or its review was opened (`mark_practice`), or it was saved as practice."""
        return self._practice

    def mark_practice(self) -> None:
        """From now on this attempt is practice (its review was opened); a finished one stays
        as it was recorded."""
        if not self._practice and not self._finished:
            self._practice = True
            if self._started:
                self._save()

    @property
    def at_stake(self) -> bool:
        """Leaving this attempt now (a restart, another deal) would record it as lost: a
        practice game leaves no loss, so nothing is at stake in it."""
        return self._started and not self._finished and self.store.saving and not self._practice

    @property
    def elapsed(self) -> float:
        """Seconds of play in this attempt so far."""
        if self._running_since is None:
            return self._elapsed
        return self._elapsed + max(0.0, self._clock() - self._running_since)

    @property
    def clock_running(self) -> bool:
        return self._running_since is not None

    def records(self) -> Records:
        """The records of the current rules."""
        return self._safely(
            lambda: self.store.records(self._game.rules), Records(self._game.rules.name)
        )

    def latest_losses(self, count: int = 3) -> list[FinishedGame]:
        """The latest lost games of the current rules, latest first (the Records panel names
        them, so a player sees which games the losses were; practice is no loss)."""
        rules = self._game.rules
        lost = self._safely(
            lambda: [
                game
                for game in self.store.history(rules, 20)
                if game.result == "lost" and not game.practice
            ],
            [],
        )
        return lost[:count]

    # ------------------------------------------------------------------ events
    def changed(self, action: str, game: Game) -> None:
        """The widget's one hook, after each change, with `MoveEvent.action` and the live game:
        "play", "undo", "redo", "refresh" save; "restart" and a different game (a new deal)
        apply the loss rule. Any other action, e.g. after `continue_saved`, changes nothing."""
        if game is not self._game:
            self.new_game(game)
        elif action == "restart":
            self.restarted()
        elif action in _ACTIONS_SAVED:
            self.moved()

    def moved(self) -> None:
        """Save the game after a move, undo or redo was applied; a win is recorded here."""
        if self._finished:
            return
        game = self._game
        if not self._started:
            if not game.log and not game.can_redo:
                return  # nothing played yet: nothing to save
            self._started = True
            self.give_up_offer()
            self.unpause()
        if game.is_won:
            self.pause()
            self._finished = True
        self._save()

    def _save(self) -> None:
        game, elapsed, practice = self._game, self.elapsed, self._practice
        result = "won" if game.is_won else None
        self._safely(
            lambda: self.store.save(self._game_id, game, elapsed, result=result, practice=practice),
            None,
        )

    def new_game(self, game: Game) -> None:
        """Another deal replaces the current one (new deal, numbered deal, other rules).

        Under other rules the offer becomes that rules' saved game: saved games are kept per
        rules, so playing another rules' deal gives none of them up.
        """
        self._leave()
        if game.rules != self._game.rules:
            self.offer = self._safely(lambda: self.store.saved_game(game.rules), None)
        self._begin(game, elapsed=0.0, game_id=None)

    def restarted(self) -> None:
        """The same deal started over (`game.restart()`): a new attempt of the same deal."""
        self._leave()
        self._begin(self._game, elapsed=0.0, game_id=None)

    def continue_saved(self, saved: SavedGame | None = None) -> Game | None:
        """Take up a saved unfinished game: `saved`, else the pending offer, else the latest
        one of the current rules. Returns its Game (the widget shows it) or None if there is
        none. A started deal it replaces counts as lost; the game already being played is
        kept as it is. None too when another process took that game up first (two kernels
        offered the same saved game: one plays it)."""
        if saved is None:
            rules = self._game.rules
            saved = self.offer or self._safely(lambda: self.store.saved_game(rules), None)
        if saved is None:
            return None
        if saved.game_id == self._game_id:
            return self._game
        self.offer = None
        if not self._safely(lambda: self.store.take(saved), True):
            return None  # another process took it up since it was offered
        self._leave()
        self._begin(
            saved.game, elapsed=saved.elapsed, game_id=saved.game_id, practice=saved.practice
        )
        self._started = True
        self.unpause()
        return saved.game

    def give_up_offer(self) -> None:
        """Give up the offered saved game (a new game started instead): recorded as lost."""
        offer, self.offer = self.offer, None
        if offer is not None:
            self._safely(lambda: self.store.give_up(offer.game_id, offer.elapsed), None)

    def pause(self) -> None:
        """Stop the clock (a pause button, a hidden tab)."""
        if self._running_since is not None:
            self._elapsed = self.elapsed
            self._running_since = None

    def unpause(self) -> None:
        """Start the clock again; it only runs in a started, unfinished game."""
        if self._running_since is None and self._started and not self._finished:
            self._running_since = self._clock()

    # ------------------------------------------------------------------ internals
    def _begin(
        self, game: Game, *, elapsed: float, game_id: str | None, practice: bool = False
    ) -> None:
        self._game = game
        self._game_id = game_id or uuid.uuid4().hex
        self._elapsed = elapsed
        self._running_since: float | None = None
        self._started = False
        self._finished = game.is_won
        self._practice = practice or not can_count(game)

    def _leave(self) -> None:
        """The current attempt is being replaced: a started, unfinished one is lost."""
        self.pause()
        if self._started and not self._finished:
            self._finished = True
            elapsed = self._elapsed
            self._safely(lambda: self.store.give_up(self._game_id, elapsed), None)

    def _safely(self, action: Callable[[], Any], default: Any) -> Any:
        """Run a store call; a failing store warns and the game goes on."""
        try:
            return action()
        except (sqlite3.Error, OSError) as error:
            warnings.warn(
                f"pyramid-widget could not use its records database ({error}); "
                "play goes on, but this may not be saved",
                RuntimeWarning,
                stacklevel=3,
            )
            return default
