"""Saved games and records in the records database: save, give up, take up, and read back.

`Store` keeps the games in the SQLite file that `StoreFile` opens safely (`store_file.py`),
`NullStore` keeps nothing (saving off), and `open_store` turns a widget's `store=` argument
into one of them. A row that does not read back is left out, never a reason to stop.
"""

from __future__ import annotations

import math
import os
import socket
import sqlite3
import threading
import warnings
from collections.abc import Iterable, Iterator
from contextlib import suppress
from enum import Enum
from pathlib import Path
from typing import Any

from .game import Game
from .locks import hold_owner_lock, owner_alive, owner_token
from .records import (
    AnyStore,
    FinishedGame,
    Outcome,
    Records,
    Result,
    SavedGame,
    can_count,
    summarize,
)
from .rules import Rules
from .schema import SELECT_GAMES, SELECT_OUTCOMES, Row, decode, moment, shown, timestamp
from .store_file import BUSY_TIMEOUT, ENV_VAR, StoreError, StoreFile, default_path

__all__ = [
    "DEFAULT",
    "ENV_VAR",
    "AnyStore",
    "FinishedGame",
    "NullStore",
    "Result",
    "SavedGame",
    "Store",
    "StoreError",
    "default_path",
    "open_store",
]

_LARGEST_ORDER = 1 << 62  # finish orders from damaged rows beyond this are ignored


class _Default(Enum):
    DEFAULT = "default"


DEFAULT = _Default.DEFAULT
"""`store=DEFAULT`: the database at `default_path()`."""


def _owner() -> str:
    """This process, as recorded with its saves: host, pid (for people reading the file) and
    the token of its owner lock (what decides)."""
    return f"{socket.gethostname()}:{os.getpid()}:{owner_token()}"


# Damaged rows already warned about in this process: (database path, rowid, id, what is wrong).
# Not the file's inode: a deleted file's inode is soon another file's.
_warned_rows: set[tuple[str, int, str, str]] = set()


class _Waiting:
    """The saves of one records database file that could not be written yet (another process
    held its write lock past the busy timeout, a full disk), oldest first, by game id: only a
    game's latest save waits. Kept per process and per file, not per Store, so that the next
    board of this process, on a Store of its own, writes them before it offers a game."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.rows: dict[str, dict[str, Any]] = {}


_waiting: dict[str, _Waiting] = {}  # by the file's real path

if hasattr(os, "register_at_fork"):  # a forked child is another process: its parent writes them
    os.register_at_fork(after_in_child=_waiting.clear)


# ---------------------------------------------------------------------- the stores
class NullStore:
    """`store=None`: saving turned off. Same calls as `Store`; keeps and returns nothing."""

    path: Path | None = None
    read_only = False

    @property
    def saving(self) -> bool:
        return False

    def save(
        self,
        game_id: str,
        game: Game,
        elapsed: float,
        *,
        result: Result | None = None,
        practice: bool = False,
    ) -> bool:
        return False

    def give_up(self, game_id: str, elapsed: float | None = None) -> bool:
        return False

    def take(self, saved: SavedGame) -> bool:
        return True

    def saved_game(self, rules: Rules | str) -> SavedGame | None:
        return None

    def records(self, rules: Rules | str) -> Records:
        return Records(Rules.coerce(rules).name)

    def all_records(self) -> dict[str, Records]:
        return {}

    def history(
        self, rules: Rules | str | None = None, limit: int | None = None
    ) -> list[FinishedGame]:
        return []

    def close(self) -> None:
        pass

    def __repr__(self) -> str:
        return "NullStore()"


class Store:
    """The games in the SQLite records database at `path` (default: `default_path()`).

    One row per game attempt, keyed by a random id. A game belongs to the process that last
    saved it while that process lives (its owner lock in `<name>.owners/`, which may be
    deleted while no process has the database open): it is then never offered, given up or
    taken up elsewhere. A damaged row (a value of the wrong type, a save that no longer loads)
    is left out of Continue, the records and the history, with one warning per row per
    process, and kept in the file as it is. `read_only=True` opens the file for reading only;
    `busy_timeout` is how many seconds a write waits for other processes' writes (see
    `StoreFile`).
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        read_only: bool = False,
        busy_timeout: float = BUSY_TIMEOUT,
    ) -> None:
        if (
            isinstance(busy_timeout, bool)
            or not isinstance(busy_timeout, (int, float))
            or not 0 < busy_timeout < math.inf
        ):
            raise ValueError(
                f"busy_timeout must be a number of seconds above 0, not {busy_timeout!r}"
            )
        self.path = Path(path).expanduser() if path is not None else default_path()
        self._owners = self.path.with_name(f"{self.path.name}.owners")
        self._file = StoreFile(
            self.path, read_only=bool(read_only), busy_timeout=float(busy_timeout)
        )
        self._real_path = os.path.realpath(self.path)

    def __repr__(self) -> str:
        return f"Store({str(self.path)!r}{', read_only=True' if self.read_only else ''})"

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def _waiting(self) -> _Waiting:
        """This process's saves of the file that wait to be written (see `save`)."""
        return _waiting.setdefault(self._real_path, _Waiting())

    @property
    def read_only(self) -> bool:
        """Nothing is written: asked for, or the file cannot be written."""
        return self._file.read_only

    @property
    def saving(self) -> bool:
        """False when the database is read-only: nothing is written, records are shown."""
        return not self.read_only

    def close(self) -> None:
        """Close the file, after writing the saves that wait (see `save`); those it still
        cannot take keep waiting in this process, for its next Store on the file."""
        if not self.read_only:
            try:
                self._write_waiting()
            except (sqlite3.Error, OSError) as error:
                warnings.warn(
                    f"the records database {self.path} could not take "
                    f"{len(self._waiting.rows)} save(s) ({error}); they are written when this "
                    "process next opens it",
                    RuntimeWarning,
                    stacklevel=2,
                )
        self._file.close()

    # ------------------------------------------------------------------ writing
    def save(
        self,
        game_id: str,
        game: Game,
        elapsed: float,
        *,
        result: Result | None = None,
        practice: bool = False,
    ) -> bool:
        """Save game `game_id` as it is now (insert or update); with `result` it also finishes.

        A finished game never changes again: returns False (and writes nothing) if it already
        was finished, or if the database is read-only; True when saved. It is kept as practice
        (see records.py) when `practice` says so or `can_count` refuses the game, and once
        practice, it stays practice.

        A save the file cannot take (another process held its write lock for longer than the
        busy timeout, a full disk) raises, and waits in this process: it is written before
        anything else this process writes to the file, before its next board offers a game
        (`saved_game`), and on `close`. A waiting win is never given up as a loss.
        """
        if not isinstance(game_id, str) or not game_id:
            raise ValueError(f"game_id must be a non-empty string, not {game_id!r}")
        if result not in (None, "won", "lost"):
            raise ValueError(f"result must be 'won', 'lost' or None, not {result!r}")
        if not isinstance(game, Game):
            raise ValueError(f"game must be a Game, not {game!r}")
        if result == "won" and not game.is_won:
            raise ValueError("only a won game can be saved as won")
        row = {
            "id": game_id,
            "rules": game.rules.name,
            "deal_number": game.deal_number,
            "layout": game.layout,
            "log": " ".join(game.log),
            "save": game.to_json(),
            "moves": game.move_count,
            "score": game.score,
            "elapsed": _checked_seconds(elapsed),
            "result": result,
            "owner": _owner(),
            "now": timestamp(),
            "practice": int(practice or not can_count(game)),
        }
        if self.read_only:
            return False
        with self._waiting.lock:
            earlier = self._waiting.rows.get(game_id)
            finished = earlier is not None and earlier["result"] is not None
            if not finished:  # a waiting finished save is that game's last
                self._waiting.rows.pop(game_id, None)
                self._waiting.rows[game_id] = row
            written = self._write_waiting()
        return written.get(game_id, False) and not finished

    def _write_waiting(self) -> dict[str, bool]:
        """Write the waiting saves, oldest first, each in its own transaction; which were
        written (False: refused, as the game was finished). Raises what the file raised, the
        rest still waiting; a save the file refused for good (a damaged file, not a busy or a
        full one) is dropped, so that it cannot block the saves after it."""
        written: dict[str, bool] = {}
        with self._waiting.lock:
            rows = self._waiting.rows
            while rows:
                game_id, row = next(iter(rows.items()))
                try:
                    written[game_id] = self._write_row(row)
                except sqlite3.Error as error:
                    if not isinstance(error, sqlite3.OperationalError):
                        del rows[game_id]
                    raise
                del rows[game_id]
        return written

    def _write_row(self, row: dict[str, Any]) -> bool:
        hold_owner_lock(self._owners)
        with self._file.transaction() as conn:
            row["finish_order"] = None if row["result"] is None else self._next_finish_order(conn)
            cursor = conn.execute(
                """INSERT INTO games (id, rules, deal_number, layout, log, save, moves, score,
                    elapsed, result, owner, started_at, saved_at, finished_at, finish_order,
                    practice)
                VALUES (:id, :rules, :deal_number, :layout, :log, :save, :moves, :score,
                    :elapsed, :result, :owner, :now, :now,
                    CASE WHEN :result IS NULL THEN NULL ELSE :now END, :finish_order,
                    :practice)
                ON CONFLICT (id) DO UPDATE SET
                    log = excluded.log, save = excluded.save, moves = excluded.moves,
                    score = excluded.score, elapsed = excluded.elapsed,
                    result = excluded.result, owner = excluded.owner,
                    saved_at = excluded.saved_at, finished_at = excluded.finished_at,
                    finish_order = excluded.finish_order,
                    practice = MAX(games.practice, excluded.practice)
                WHERE games.result IS NULL""",
                row,
            )
            return cursor.rowcount > 0

    def give_up(self, game_id: str, elapsed: float | None = None) -> bool:
        """Record the unfinished game `game_id` as lost (it was begun and left), at its last saved
        position; `elapsed` updates its clock. Returns False if there is no such unfinished
        game, if another live process is playing it (never taken from under it), or if the
        database is read-only."""
        seconds = None if elapsed is None else _checked_seconds(elapsed)
        if self.read_only:
            return False
        self._write_waiting()  # a game whose win waits is not given up
        with self._file.transaction() as conn:
            found = conn.execute(
                "SELECT owner FROM games WHERE id = ? AND result IS NULL", (game_id,)
            ).fetchone()
            if found is None or self._held_elsewhere(found[0]):
                return False
            conn.execute(
                """UPDATE games SET result = 'lost', finished_at = :now, saved_at = :now,
                    finish_order = :order, elapsed = coalesce(:elapsed, elapsed)
                WHERE id = :id""",
                {
                    "id": game_id,
                    "now": timestamp(),
                    "order": self._next_finish_order(conn),
                    "elapsed": seconds,
                },
            )
            return True

    def take(self, saved: SavedGame) -> bool:
        """Make this process the owner of the saved game `saved` before continuing it: False
        if it finished, if another live process took it up, or if it was saved again since
        `saved_game` offered it (then `saved_game` offers its latest save). Two processes
        offered the same game: one of them plays it. True on a read-only database (nothing is
        saved)."""
        if self.read_only:
            return True
        self._write_waiting()  # taken up at its latest save
        hold_owner_lock(self._owners)
        with self._file.transaction() as conn:
            found = conn.execute(
                "SELECT owner, saved_at FROM games WHERE id = ? AND result IS NULL",
                (saved.game_id,),
            ).fetchone()
            if found is None or self._held_elsewhere(found[0]):
                return False
            try:
                if moment(found[1], "saved_at") != saved.saved_at:
                    return False
            except ValueError:
                return False
            conn.execute("UPDATE games SET owner = ? WHERE id = ?", (_owner(), saved.game_id))
            return True

    # ------------------------------------------------------------------ reading
    def saved_game(self, rules: Rules | str) -> SavedGame | None:
        """The most recently saved unfinished game of `rules` that can be continued here.

        Games another live process is playing are left to it; a save that no longer loads
        (damaged, tampered) is set aside with a warning. The saves waiting in this process are
        written first; the games of those the file still cannot take are not offered (the
        file holds an older save of them, perhaps before their win).
        """
        name = Rules.coerce(rules).name
        if not self.read_only:
            with suppress(sqlite3.Error, OSError):
                self._write_waiting()
        waiting = set(self._waiting.rows)
        raws = self._read("WHERE rules = ? AND result IS NULL ORDER BY saved_at DESC, rowid DESC",
                          (name,))  # fmt: skip
        for row in self._sound(raws):
            if row.game_id in waiting or self._held_elsewhere(row.owner):
                continue
            try:
                game = Game.from_json(row.save)
                if game.rules.name != name:
                    raise ValueError(f"its rules are {game.rules.name}, not {name}")
            except ValueError as error:
                self._set_aside(row.rowid, row.game_id, f"its save cannot be continued ({error})")
                continue
            return SavedGame(
                row.game_id, game, row.elapsed, row.started_at, row.saved_at, row.practice
            )
        return None

    def records(self, rules: Rules | str) -> Records:
        """The records of one rules preset (zero records if none was played)."""
        name = Rules.coerce(rules).name
        raws = self._read(
            "WHERE rules = ? AND result IS NOT NULL ORDER BY finish_order", (name,), saves=False
        )
        return summarize(name, [row.outcome() for row in self._sound(raws)])

    def all_records(self) -> dict[str, Records]:
        """Records of every rules preset that has a finished game, by rules name (as stored:
        a newer version's preset too)."""
        by_rules: dict[str, list[Outcome]] = {}
        finished = self._read("WHERE result IS NOT NULL ORDER BY finish_order", saves=False)
        for row in self._sound(finished):
            by_rules.setdefault(row.rules, []).append(row.outcome())
        return {name: summarize(name, by_rules[name]) for name in sorted(by_rules)}

    def history(
        self, rules: Rules | str | None = None, limit: int | None = None
    ) -> list[FinishedGame]:
        """Finished games, the latest first (of one rules preset if given)."""
        if limit is not None and (
            not isinstance(limit, int) or isinstance(limit, bool) or limit < 0
        ):
            raise ValueError(f"limit must be a whole number from 0 up, not {limit!r}")
        where, params = "WHERE result IS NOT NULL", ()
        if rules is not None:
            where, params = where + " AND rules = ?", (Rules.coerce(rules).name,)
        finished: list[FinishedGame] = []
        if limit == 0:
            return finished
        with self._file.using() as conn:
            if self._file.empty:
                return finished
            cursor = conn.execute(
                f"{SELECT_GAMES} {where} ORDER BY finish_order DESC, rowid DESC", params
            )
            for row in self._sound(cursor):  # damaged rows do not count towards the limit
                finished.append(row.finished_game())
                if len(finished) == limit:
                    break
        return finished

    # ------------------------------------------------------------------ internals
    def _read(self, where: str, params: tuple = (), *, saves: bool = True) -> list[tuple]:
        with self._file.using() as conn:
            if self._file.empty:
                return []
            select = SELECT_GAMES if saves else SELECT_OUTCOMES
            return conn.execute(f"{select} {where}", params).fetchall()

    def _sound(self, raws: Iterable[tuple]) -> Iterator[Row]:
        """The rows that decode; each damaged one is set aside."""
        for raw in raws:
            try:
                yield decode(raw)
            except ValueError as error:
                self._set_aside(raw[0], raw[1], str(error))

    def _set_aside(self, rowid: int, game_id: object, reason: str) -> None:
        """Leave a damaged row out, warning once per row in this process; it stays in the file."""
        key = (os.path.abspath(self.path), rowid, shown(game_id), reason)
        if key in _warned_rows:
            return
        _warned_rows.add(key)
        warnings.warn(
            f"the records database {self.path} has a damaged game (row {rowid}, id "
            f"{shown(game_id)}): {reason}. It is left out of Continue, the records and the "
            "history, and kept in the file as it is.",
            RuntimeWarning,
            stacklevel=3,
        )

    def _held_elsewhere(self, owner: object) -> bool:
        """Is the game saved by `owner` (`host:pid:token`) still being played by another live
        process? Only the token's lock can tell: a pid may belong to another process now."""
        if not isinstance(owner, str):
            return False
        rest, _, token = owner.rpartition(":")
        host = rest.rpartition(":")[0]
        if host != socket.gethostname() or token == owner_token():
            return False  # another host, or this process
        return owner_alive(self._owners, token)

    @staticmethod
    def _next_finish_order(conn: sqlite3.Connection) -> int:
        """One past the last finish order; orders a damaged row holds are stepped over."""
        (last,) = conn.execute(
            "SELECT coalesce(max(finish_order), 0) FROM games "
            "WHERE typeof(finish_order) = 'integer' AND finish_order BETWEEN 0 AND ?",
            (_LARGEST_ORDER,),
        ).fetchone()
        order = last + 1
        while conn.execute("SELECT 1 FROM games WHERE finish_order = ?", (order,)).fetchone():
            order += 1
        return order


def _checked_seconds(elapsed: object) -> float:
    if isinstance(elapsed, bool) or not isinstance(elapsed, (int, float)):
        raise ValueError(f"elapsed must be a number of seconds, not {elapsed!r}")
    if not math.isfinite(elapsed) or elapsed < 0:
        raise ValueError(f"elapsed must be a finite number of seconds from 0 up, not {elapsed!r}")
    return float(elapsed)


def open_store(
    store: Store | NullStore | str | os.PathLike[str] | _Default | None = DEFAULT,
    *,
    fallback: bool = False,
) -> Store | NullStore:
    """The store a `store=` argument names: DEFAULT (`default_path()`), a path, a `Store` or
    `NullStore` as is, or None for NullStore (saving off).

    With `fallback=True` a database that cannot be used (StoreError, e.g. a newer schema)
    gives a warning and a NullStore, so a widget still plays; otherwise StoreError is raised.
    A database that can only be read opens read-only (see `Store`), in both cases.
    """
    if store is None:
        return NullStore()
    if isinstance(store, (Store, NullStore)):
        return store
    if store is not DEFAULT and not isinstance(store, (str, os.PathLike)):
        raise ValueError(f"store must be a path, a Store, None or DEFAULT, not {store!r}")
    try:
        return Store(None if store is DEFAULT else store)
    except StoreError as error:
        if not fallback:
            raise
        warnings.warn(f"{error} Games will not be saved.", RuntimeWarning, stacklevel=2)
        return NullStore()
