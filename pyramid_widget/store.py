"""The records database: saved games and finished games in one SQLite file (stdlib `sqlite3`).

Where: `PYRAMID_WIDGET_DB` if set, else `<Jupyter data dir>/pyramid-widget/pyramid.sqlite3`
(`jupyter_core.paths.jupyter_data_dir()` when installed, else ~/.local/share/jupyter).
`open_store(store)` turns a widget's `store=` argument into a store: the default, a path, a
`Store`, or None for `NullStore` (nothing saved).

Safety, and why:
- WAL journal, a busy timeout and short `BEGIN IMMEDIATE` transactions: two kernels can play
  and save at once; readers never wait, writers take turns, and nothing is lost.
- Opening sets the file up under an exclusive lock on `<name>.lock` (see `locks.py`): what the
  file is (ours? a newer schema? damaged?) is read in one transaction, then WAL is switched on
  (waiting out other processes' locks), then a new file's tables are made in one write
  transaction that checks again what the file is. So processes opening a new file at the
  same instant all succeed, and a half-made file is never misjudged (without `fcntl`, the
  transactions alone keep that promise).
- One row per game attempt, keyed by a random id; every save is one transaction, so a process
  killed mid-write leaves the previous save intact (synchronous=NORMAL in WAL survives a killed
  process; only a power cut could lose the last moves, never the file).
- A finished row never changes again: finishing twice (a win seen twice) is a no-op.
- A file that is not a sound SQLite database is moved aside (`<name>.damaged-<time>`, never
  over an existing file) with a warning and a fresh one is started. This happens under the
  exclusive lock, after looking again, so when several processes find the same damaged file
  one moves it and the others open the fresh one. Every read and write holds the lock shared
  and first checks that the path still names the file its connection has open (else it opens
  the new one): a save that returns True is in the file the next open reads.
- A file from another schema (a newer one, or one no release wrote), or another
  application's database, is refused with StoreError and never written to.
- A damaged row (a value of the wrong type, a NULL where a value belongs, a save that no longer
  loads) is left out of Continue, the records and the history, with one warning per row per
  process, and kept in the file as it is for inspection; the rest of the file works.
- Saves are replayed, never trusted (`Game.from_json`).
- Ownership: a game belongs to the process that last saved it while that process lives (its
  owner lock, see `locks.py`); it is then never offered, given up or taken elsewhere. Owners
  are `host:pid:token`; a reused pid does not matter, the token's lock does.
- Beside the file: `<name>.lock` (the lock above) and `<name>.owners/` (owner locks); both
  may be deleted while no process has the database open.
- A database that cannot be written (a read-only file or folder) is opened read-only:
  `read_only` is True, the records, history and saved games are shown, `save()` and
  `give_up()` return False, and one warning says that saving is off. `Store(path,
  read_only=True)` asks for that directly. When even the WAL's shared-memory file cannot be
  made, the file is read as immutable: saves another process left in its WAL (not yet
  checkpointed) are not seen then.
"""

from __future__ import annotations

import datetime as _dt
import math
import os
import re
import socket
import sqlite3
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from enum import Enum
from pathlib import Path
from typing import Any

from .game import Game
from .locks import FileLock, hold_owner_lock, owner_alive, owner_token
from .records import AnyStore, FinishedGame, Outcome, Records, Result, SavedGame, summarize
from .rules import Rules
from .schema import (
    APPLICATION_ID,
    SCHEMA,
    SCHEMA_VERSION,
    SELECT_GAMES,
    SELECT_OUTCOMES,
    Row,
    decode,
    lenient_text,
    moment,
    shown,
)

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

ENV_VAR = "PYRAMID_WIDGET_DB"
BUSY_TIMEOUT_MS = 10_000
_CORRUPT_CODES = (11, 26)  # SQLITE_CORRUPT, SQLITE_NOTADB
_BUSY_CODES = (5, 6)  # SQLITE_BUSY, SQLITE_LOCKED
_UNWRITABLE_CODES = (8, 14)  # SQLITE_READONLY, SQLITE_CANTOPEN
# quick_check also reports rows that break a NOT NULL or CHECK constraint: a damaged row, which
# the reads set aside, not a damaged file.
_ROW_PROBLEM = re.compile(r"(NULL value in |CHECK constraint failed in )\w")
_LARGEST_ORDER = 1 << 62  # finish orders from damaged rows beyond this are ignored


class StoreError(Exception):
    """The records database cannot be used (a newer schema, another application's file, an
    unopenable path). Nothing was written to it."""


class _Default(Enum):
    DEFAULT = "default"


DEFAULT = _Default.DEFAULT
"""`store=DEFAULT`: the database at `default_path()`."""


def default_path() -> Path:
    """`PYRAMID_WIDGET_DB` if set, else pyramid-widget/pyramid.sqlite3 in the Jupyter data dir."""
    override = os.environ.get(ENV_VAR, "").strip()
    if override:
        return Path(override).expanduser()
    try:
        from jupyter_core.paths import jupyter_data_dir

        base = Path(jupyter_data_dir())
    except ImportError:
        base = Path.home() / ".local" / "share" / "jupyter"
    return base / "pyramid-widget" / "pyramid.sqlite3"


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="microseconds")


def _owner() -> str:
    """This process, as recorded with its saves: host, pid (for people reading the file) and
    the token of its owner lock (what decides)."""
    return f"{socket.gethostname()}:{os.getpid()}:{owner_token()}"


def _code(error: sqlite3.Error) -> int | None:
    code = getattr(error, "sqlite_errorcode", None)  # Python 3.11+
    return None if code is None else code & 0xFF


def _is_corruption(error: sqlite3.Error) -> bool:
    if isinstance(error, _DamagedFile):
        return True
    code = _code(error)
    if code is not None:
        return code in _CORRUPT_CODES
    text = str(error).lower()
    return "malformed" in text or "not a database" in text


def _is_busy(error: sqlite3.Error) -> bool:
    code = _code(error)
    if code is not None:
        return code in _BUSY_CODES
    return "locked" in str(error).lower() or "busy" in str(error).lower()


def _is_unwritable(error: sqlite3.Error) -> bool:
    code = _code(error)
    if code is not None:
        return code in _UNWRITABLE_CODES
    text = str(error).lower()
    return "readonly" in text or "read-only" in text or "unable to open" in text


class _DamagedFile(sqlite3.DatabaseError):
    """quick_check found the file itself damaged (pages, not rows)."""


def _identity(path: Path) -> tuple[int, int] | None:
    """Which file `path` names now (device and inode); None when there is none."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _wait_out_busy(action: Callable[[], Any], deadline: float) -> Any:
    """Run `action`, again while another process's lock makes it busy, until `deadline`
    (switching the journal mode does not go through SQLite's own busy wait)."""
    while True:
        try:
            return action()
        except sqlite3.OperationalError as error:
            if not _is_busy(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.005)


def _end(conn: sqlite3.Connection) -> None:
    """Roll back whatever transaction is open (nothing when a failed statement ended it)."""
    if conn.in_transaction:
        with suppress(sqlite3.Error):
            conn.rollback()


# Damaged rows already warned about in this process: (database path, rowid, id, what is wrong).
# Not the file's inode: a deleted file's inode is soon another file's.
_warned_rows: set[tuple[str, int, str, str]] = set()


# ---------------------------------------------------------------------- the stores
class NullStore:
    """`store=None`: saving turned off. Same calls as `Store`; keeps and returns nothing."""

    path: Path | None = None
    read_only = False

    @property
    def saving(self) -> bool:
        return False

    def save(
        self, game_id: str, game: Game, elapsed: float, *, result: Result | None = None
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
    """The SQLite records database at `path` (default: `default_path()`).

    Safe to share between threads (one lock) and between processes (SQLite's locking and the
    locks of `locks.py`). `read_only=True` opens it for reading only; a database that cannot
    be written is opened so anyway, with a warning (`read_only` then says so).
    """

    def __init__(
        self, path: str | os.PathLike[str] | None = None, *, read_only: bool = False
    ) -> None:
        self.path = Path(path).expanduser() if path is not None else default_path()
        self.read_only = bool(read_only)
        self._owners = self.path.with_name(f"{self.path.name}.owners")
        self._lock = threading.RLock()
        self._empty = False  # a new file opened read-only has no table yet
        self._identity: tuple[int, int] | None = None
        if not self.read_only:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                if not self.path.parent.is_dir():
                    raise StoreError(f"cannot create the folder for {self.path}: {error}") from None
        self._file_lock = FileLock(
            self.path.with_name(f"{self.path.name}.lock"), create=not self.read_only
        )
        try:
            self._conn = self._open()
        except BaseException:
            self._file_lock.close()
            raise

    def __repr__(self) -> str:
        return f"Store({str(self.path)!r}{', read_only=True' if self.read_only else ''})"

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def saving(self) -> bool:
        """False when the database is read-only: nothing is written, records are shown."""
        return not self.read_only

    def close(self) -> None:
        with self._lock:
            self._conn.close()
            self._file_lock.close()

    # ------------------------------------------------------------------ writing
    def save(
        self, game_id: str, game: Game, elapsed: float, *, result: Result | None = None
    ) -> bool:
        """Save game `game_id` as it is now (insert or update); with `result` it also finishes.

        A finished game never changes again: returns False (and writes nothing) if it already
        was finished, or if the database is read-only; True when saved. A game that did not
        begin at its deal's start is kept as practice (see records.py).
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
            "now": _now(),
            "practice": int(not game.from_deal_start),
        }
        if self.read_only:
            return False
        hold_owner_lock(self._owners)
        with self._transaction() as conn:
            row["finish_order"] = None if result is None else self._next_finish_order(conn)
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
                    finish_order = excluded.finish_order
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
        with self._transaction() as conn:
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
                    "now": _now(),
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
        hold_owner_lock(self._owners)
        with self._transaction() as conn:
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
        (damaged, tampered) is set aside with a warning.
        """
        name = Rules.coerce(rules).name
        raws = self._read("WHERE rules = ? AND result IS NULL ORDER BY saved_at DESC, rowid DESC",
                          (name,))  # fmt: skip
        for row in self._sound(raws):
            if self._held_elsewhere(row.owner):
                continue
            try:
                game = Game.from_json(row.save)
                if game.rules.name != name:
                    raise ValueError(f"its rules are {game.rules.name}, not {name}")
            except ValueError as error:
                self._set_aside(row.rowid, row.game_id, f"its save cannot be continued ({error})")
                continue
            return SavedGame(row.game_id, game, row.elapsed, row.started_at, row.saved_at)
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
        with self._using() as conn:
            if self._empty:
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
        with self._using() as conn:
            if self._empty:
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

    @contextmanager
    def _using(self) -> Iterator[sqlite3.Connection]:
        """The connection, holding the file lock shared, on the file the path names now: if
        another process moved the file aside since it was opened, the new file is opened."""
        with self._lock:
            for _ in range(3):
                with self._file_lock.held(exclusive=False, timeout=BUSY_TIMEOUT_MS / 1000):
                    if _identity(self.path) == self._identity:
                        yield self._conn
                        return
                self._reopen()
            raise sqlite3.OperationalError(
                f"the records database {self.path} keeps being replaced by other processes"
            )

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken at once (IMMEDIATE) so two writers queue, not fail."""
        with self._using() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.rollback()
                raise
            conn.commit()

    def _reopen(self) -> None:
        self._conn.close()
        try:
            self._conn = self._open()
        except StoreError as error:
            raise sqlite3.OperationalError(
                f"the records database {self.path} was replaced by another process and cannot "
                f"be opened again: {error}"
            ) from None

    def _open(self) -> sqlite3.Connection:
        """Open the database; one that cannot be written is opened read-only, with a warning."""
        if not self.read_only:
            try:
                return self._open_writable()
            except _Unwritable as error:
                self.read_only = True
                writable_error = error
            try:
                conn = self._open_read_only()
            except StoreError as error:
                raise StoreError(f"{error} (it cannot be written: {writable_error})") from None
            warnings.warn(
                f"the records database {self.path} cannot be written ({writable_error}): its "
                "records and saved games are shown, but saving is off",
                RuntimeWarning,
                stacklevel=3,
            )
            return conn
        return self._open_read_only()

    def _open_writable(self) -> sqlite3.Connection:
        """Open (or create) and set up the file under the exclusive lock; a damaged file is
        moved aside and replaced, once."""
        try:
            with self._file_lock.held(exclusive=True, timeout=BUSY_TIMEOUT_MS / 1000):
                try:
                    conn = self._set_up()
                except sqlite3.DatabaseError as error:
                    if not _is_corruption(error):
                        raise
                    aside = self._move_aside(error)
                    warnings.warn(
                        f"the records database {self.path} was damaged ({error}); it was "
                        f"moved to {aside} and a fresh one was started",
                        RuntimeWarning,
                        stacklevel=4,
                    )
                    conn = self._set_up()
                self._identity = _identity(self.path)
                return conn
        except sqlite3.Error as error:
            if _is_unwritable(error):
                raise _Unwritable(error) from None
            raise StoreError(f"cannot open records database {self.path}: {error}") from None
        except TimeoutError as error:
            raise StoreError(f"cannot open records database {self.path}: {error}") from None

    def _set_up(self) -> sqlite3.Connection:
        """Connect and bring the file up to date: what it is, read in one transaction; WAL;
        then the schema in one write transaction that checks again that the file is ours."""
        if self.path.is_dir():
            raise StoreError(f"the records database {self.path} is a folder")
        if self.path.exists() and not os.access(self.path, os.W_OK):
            # A read-only file in a writable folder opens, reads and even begins a write
            # transaction in WAL mode; it refuses only the first save. The system knows now
            # (permissions, a read-only mount, an immutable file: root included).
            raise _Unwritable("the file is read-only")
        conn = self._connect(str(self.path), uri=False)
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        try:
            conn.execute("BEGIN")
            try:
                self._inspect(conn, check_pages=True)
            finally:
                _end(conn)
            _wait_out_busy(lambda: conn.execute("PRAGMA journal_mode = WAL").fetchall(), deadline)
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("BEGIN IMMEDIATE")
            try:
                if self._inspect(conn, check_pages=False) == 0:
                    self._create(conn)
            except BaseException:
                _end(conn)
                raise
            conn.execute("COMMIT")
        except BaseException:
            conn.close()
            raise
        self._empty = False
        return conn

    def _open_read_only(self) -> sqlite3.Connection:
        """Open for reading only: `mode=ro`, else `immutable=1` when even the WAL's
        shared-memory file cannot be made (a read-only folder)."""
        if not self.path.is_file():
            raise StoreError(f"there is no records database at {self.path} to read")
        base = self.path.resolve().as_uri()
        refused: sqlite3.Error | None = None
        for query in ("mode=ro", "immutable=1"):
            conn = self._connect(f"{base}?{query}", uri=True)
            try:
                conn.execute("BEGIN")
                try:
                    empty = self._inspect(conn, check_pages=True) == 0
                finally:
                    _end(conn)
            except sqlite3.Error as error:
                conn.close()
                if _is_corruption(error):
                    raise StoreError(
                        f"the records database {self.path} is damaged ({error}) and read-only, "
                        "so it cannot be moved aside"
                    ) from None
                if not _is_unwritable(error):
                    raise StoreError(f"cannot read records database {self.path}: {error}") from None
                refused = error
                continue
            except BaseException:
                conn.close()
                raise
            self._empty = empty
            self._identity = _identity(self.path)
            return conn
        raise StoreError(f"cannot read records database {self.path}: {refused}")

    def _connect(self, target: str, *, uri: bool) -> sqlite3.Connection:
        conn = sqlite3.connect(
            target,
            uri=uri,
            timeout=BUSY_TIMEOUT_MS / 1000,  # SQLite's busy timeout: wait for the other writer
            isolation_level=None,  # transactions are explicit (BEGIN IMMEDIATE)
            check_same_thread=False,  # the lock serializes threads
        )
        conn.text_factory = lenient_text
        return conn

    def _inspect(self, conn: sqlite3.Connection, *, check_pages: bool) -> int:
        """The file's schema version (0 for a new file); StoreError for another schema or
        another application's file, _DamagedFile when quick_check finds damaged pages. Run
        inside a transaction, so a file another process is making is seen before or after,
        never half-made."""
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if (version or tables) and app != APPLICATION_ID:
            raise StoreError(
                f"{self.path} is not a pyramid-widget records database (another application's "
                f"SQLite file?); it was left untouched. Set {ENV_VAR} to another path."
            )
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"the records database {self.path} was written by a newer pyramid-widget "
                f"(schema {version}; this version reads up to schema {SCHEMA_VERSION}). It was "
                f"left untouched: upgrade pyramid-widget, or set {ENV_VAR} to another path."
            )
        if 0 < version < SCHEMA_VERSION:
            raise StoreError(
                f"the records database {self.path} has schema {version}, which no release "
                f"wrote and this version does not read. It was left untouched: set {ENV_VAR} "
                "to another path."
            )
        if check_pages:
            problems = [
                row[0]
                for row in conn.execute("PRAGMA quick_check")
                if row[0] != "ok" and not _ROW_PROBLEM.match(str(row[0]))
            ]
            if problems:
                raise _DamagedFile("database disk image is malformed: " + "; ".join(problems[:3]))
        return version

    @staticmethod
    def _create(conn: sqlite3.Connection) -> None:
        """Make the tables of a new file (inside the caller's write transaction; a process
        making the same file at the same time finds it made)."""
        for statement in SCHEMA:
            conn.execute(statement)
        conn.execute(
            "INSERT INTO schema_version (version, applied_at) VALUES (?, ?)",
            (SCHEMA_VERSION, _now()),
        )
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _move_aside(self, damage: sqlite3.Error) -> Path:
        """Rename the damaged file (and its WAL and shared-memory files, which must not be
        applied to the fresh database) to <name>.damaged-<UTC time>[-n], never over a file that
        exists. Called under the exclusive lock, so no other process is between the look and
        the rename."""
        stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        n = 1
        while any(Path(f"{aside}{suffix}").exists() for suffix in ("", "-wal", "-shm")):
            n += 1
            aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}-{n}")
        try:
            for suffix in ("", "-wal", "-shm"):
                source = Path(f"{self.path}{suffix}")
                if source.exists():
                    os.rename(source, f"{aside}{suffix}")
        except OSError as error:
            raise StoreError(
                f"the records database {self.path} is damaged ({damage}) and could not be "
                f"moved aside ({error})"
            ) from None
        return aside


class _Unwritable(Exception):
    """The file or its folder cannot be written: open it read-only instead."""


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
