"""The records database as a file: where it lives, and opening it safely for several processes.

`StoreFile` opens the SQLite file, makes a new one, refuses one that is not ours, moves a
damaged one aside, falls back to reading a file that cannot be written, and hands out its
connection only while the path still names the file it has open. What is kept in the file is
`store.py`'s business; how a row looks is `schema.py`'s.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
import sqlite3
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from .locks import FileLock
from .schema import APPLICATION_ID, SCHEMA, SCHEMA_VERSION, lenient_text, timestamp

ENV_VAR = "PYRAMID_WIDGET_DB"
BUSY_TIMEOUT = 10.0  # seconds a save waits for another process's write before it fails
_CORRUPT_CODES = (11, 26)  # SQLITE_CORRUPT, SQLITE_NOTADB
_BUSY_CODES = (5, 6)  # SQLITE_BUSY, SQLITE_LOCKED
_UNWRITABLE_CODES = (8, 14)  # SQLITE_READONLY, SQLITE_CANTOPEN
# quick_check also reports rows that break a NOT NULL or CHECK constraint: a damaged row, which
# the reads set aside, not a damaged file.
_ROW_PROBLEM = re.compile(r"(NULL value in |CHECK constraint failed in )\w")


class StoreError(Exception):
    """The records database cannot be used (a newer schema, another application's file, an
    unopenable path). Nothing was written to it."""


def default_path() -> Path:
    """`PYRAMID_WIDGET_DB` if set, else pyramid-widget/pyramid.sqlite3 in the Jupyter data dir
    (`jupyter_core.paths.jupyter_data_dir()` when installed, else ~/.local/share/jupyter)."""
    override = os.environ.get(ENV_VAR, "").strip()
    if override:
        return Path(override).expanduser()
    try:
        from jupyter_core.paths import jupyter_data_dir

        base = Path(jupyter_data_dir())
    except ImportError:
        base = Path.home() / ".local" / "share" / "jupyter"
    return base / "pyramid-widget" / "pyramid.sqlite3"


class StoreFile:
    """The SQLite file at `path`, open: `using()` and `transaction()` hand out its connection.

    Safe to share between threads (one lock) and between processes: SQLite's locking, and
    `<name>.lock` beside the file (see `locks.py`; it may be deleted while no process has the
    file open). `read_only=True` opens it for reading only; a file that cannot be written is
    opened so anyway, with a warning (`read_only` then says so). `busy_timeout`: the seconds
    a write (or opening the file) waits for other processes before it fails.
    """

    def __init__(
        self, path: Path, *, read_only: bool = False, busy_timeout: float = BUSY_TIMEOUT
    ) -> None:
        self.path = path
        self.read_only = read_only
        self.busy_timeout = busy_timeout
        self.empty = False  # a new file opened read-only has no table yet
        self._lock = threading.RLock()
        self._identity: tuple[int, int] | None = None
        if not read_only:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                if not path.parent.is_dir():
                    raise StoreError(f"cannot create the folder for {path}: {error}") from None
        self._file_lock = FileLock(path.with_name(f"{path.name}.lock"), create=not read_only)
        try:
            self._conn = self._open()
        except BaseException:
            self._file_lock.close()
            raise

    def close(self) -> None:
        with self._lock:
            self._conn.close()
            self._file_lock.close()

    @contextmanager
    def using(self) -> Iterator[sqlite3.Connection]:
        """The connection, holding the file lock shared, on the file the path names now: if
        another process moved the file aside since it was opened, the new file is opened, so
        a save that returns True is in the file the next open reads."""
        with self._lock:
            for _ in range(3):
                with self._file_lock.held(exclusive=False, timeout=self.busy_timeout):
                    if _identity(self.path) == self._identity:
                        yield self._conn
                        return
                self._reopen()
            raise sqlite3.OperationalError(
                f"the records database {self.path} keeps being replaced by other processes"
            )

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken at once (IMMEDIATE) so that two processes' writers
        queue (within the busy timeout) instead of failing. A process killed in the middle
        leaves the file as it was before the transaction."""
        with self.using() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.rollback()
                raise
            conn.commit()

    # ------------------------------------------------------------------ opening
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
        """Open the file; one that cannot be written (a read-only file or folder) is opened
        read-only, with a warning, so its records and saved games are still shown."""
        if self.read_only:
            return self._open_read_only()
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
            stacklevel=4,  # the caller of Store()
        )
        return conn

    def _open_writable(self) -> sqlite3.Connection:
        """Open (or make) and set up the file under the exclusive lock, so that processes
        opening it at the same instant take turns; a damaged file is moved aside and replaced,
        once. Without working locks, the transactions of `_set_up` alone keep it safe."""
        try:
            with self._file_lock.held(exclusive=True, timeout=self.busy_timeout):
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
                        stacklevel=5,  # the caller of Store()
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
        """Connect and set the file up: what it is, read in one transaction; WAL; then a new
        file's tables, in one write transaction that looks again at what the file is (another
        process may have made it in between)."""
        if self.path.is_dir():
            raise StoreError(f"the records database {self.path} is a folder")
        if self.path.exists() and not os.access(self.path, os.W_OK):
            # A read-only file in a writable folder opens, reads and even begins a write
            # transaction in WAL mode; it refuses only the first save. The system knows now
            # (permissions, a read-only mount, an immutable file: root included).
            raise _Unwritable("the file is read-only")
        conn = _connect(str(self.path), uri=False, timeout=self.busy_timeout)
        deadline = time.monotonic() + self.busy_timeout
        try:
            conn.execute("BEGIN")
            try:
                self._inspect(conn, check_pages=True)
            finally:
                _end(conn)
            # WAL: readers never wait for a writer, so two kernels can play and save at once
            _wait_out_busy(lambda: conn.execute("PRAGMA journal_mode = WAL").fetchall(), deadline)
            # in WAL, NORMAL survives a killed process; only a power cut could lose the last
            # moves, never the file
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("BEGIN IMMEDIATE")
            try:
                if self._inspect(conn, check_pages=False) == 0:
                    _create(conn)
            except BaseException:
                _end(conn)
                raise
            conn.execute("COMMIT")
        except BaseException:
            conn.close()
            raise
        self.empty = False
        return conn

    def _open_read_only(self) -> sqlite3.Connection:
        """Open for reading only: `mode=ro`, else `immutable=1` when even the WAL's
        shared-memory file cannot be made (a read-only folder); saves that another process
        left in its WAL, not yet checkpointed, are not seen then."""
        if not self.path.is_file():
            raise StoreError(f"there is no records database at {self.path} to read")
        base = self.path.resolve().as_uri()
        refused: sqlite3.Error | None = None
        for query in ("mode=ro", "immutable=1"):
            conn: sqlite3.Connection | None = None
            try:
                # connecting opens the file: a file this user may not read fails right here
                conn = _connect(f"{base}?{query}", uri=True, timeout=self.busy_timeout)
                conn.execute("BEGIN")
                try:
                    empty = self._inspect(conn, check_pages=True) == 0
                finally:
                    _end(conn)
            except sqlite3.Error as error:
                if conn is not None:
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
                if conn is not None:
                    conn.close()
                raise
            self.empty = empty
            self._identity = _identity(self.path)
            return conn
        if not os.access(self.path, os.R_OK):
            raise StoreError(f"the records database {self.path} cannot be read by this user")
        raise StoreError(f"cannot read records database {self.path}: {refused}")

    def _inspect(self, conn: sqlite3.Connection, *, check_pages: bool) -> int:
        """The file's schema version (0 for a new file); StoreError for another schema or
        another application's file, which are never written to, _DamagedFile when
        quick_check finds damaged pages. Run inside a transaction, so a file another process
        is making is seen before or after, never half-made."""
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

    def _move_aside(self, damage: sqlite3.Error) -> Path:
        """Rename the damaged file (and its WAL and shared-memory files, which must not be
        applied to the fresh database) to <name>.damaged-<UTC time>[-n], kept for inspection,
        never over a file that exists. Called under the exclusive lock, so no other process
        is between the look and the rename: of several processes that find the file damaged,
        one moves it and the others open the fresh one."""
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


def _connect(target: str, *, uri: bool, timeout: float) -> sqlite3.Connection:
    conn = sqlite3.connect(
        target,
        uri=uri,
        timeout=timeout,  # SQLite's busy timeout: wait for the other writer
        isolation_level=None,  # transactions are explicit (BEGIN IMMEDIATE)
        check_same_thread=False,  # the lock serializes threads
    )
    conn.text_factory = lenient_text
    return conn


def _create(conn: sqlite3.Connection) -> None:
    """Make the tables of a new file (inside the caller's write transaction)."""
    for statement in SCHEMA:
        conn.execute(statement)
    conn.execute(
        "INSERT INTO schema_version (version, applied_at) VALUES (?, ?)",
        (SCHEMA_VERSION, timestamp()),
    )
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


class _DamagedFile(sqlite3.DatabaseError):
    """quick_check found the file itself damaged (pages, not rows)."""


class _Unwritable(Exception):
    """The file or its folder cannot be written: open it read-only instead."""


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
