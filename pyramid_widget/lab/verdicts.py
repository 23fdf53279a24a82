"""The solver's verdicts on whole deals, kept on disk, so that measuring a second strategy on the
same deals pays only for its own play.

A verdict is the solver's word on a deal from its start, with every card known: "winnable"
with a winning line, or "unwinnable". It is kept per (package version, rules, deal) in a small
SQLite file beside the records database (`store_file.default_path`; ``PYRAMID_WIDGET_CACHE``
names another file): a new version of the package asks again. The file is only ever a cache:

- every row carries a checksum of what it says, and a row that does not match it, or says
  something no verdict says (an unknown status, a winnable verdict without a line, a line
  with an unwinnable one), is ignored and solved again; the all-seeing player, the one user of
  a line, replays it through the engine, and a line that does not win is solved again;
- writes are single SQLite transactions (WAL journal, a busy timeout), so two processes
  writing at once queue and neither can leave half a row;
- a file that cannot be opened or written (damaged, read-only, locked for too long) leaves
  the run uncached, with one warning saying which file and why.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import sys
import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Literal

from ..store_file import default_path

ENV_VAR = "PYRAMID_WIDGET_CACHE"
BUSY_TIMEOUT_S = 10.0
BATCH = 500  # deals asked in one query (SQLite's limit on parameters is 999 in old builds)

Status = Literal["winnable", "unwinnable"]
Verdict = tuple[Status, tuple[str, ...]]
"""("winnable", the solver's winning line) or ("unwinnable", ())."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS verdicts (
    version TEXT NOT NULL,
    rules TEXT NOT NULL,
    deal TEXT NOT NULL,
    status TEXT NOT NULL,
    line TEXT NOT NULL,
    checksum TEXT NOT NULL,
    PRIMARY KEY (version, rules, deal)
) WITHOUT ROWID
"""


def default_cache_path() -> Path:
    """``PYRAMID_WIDGET_CACHE`` if set, else verdicts.sqlite3 beside the records database."""
    override = os.environ.get(ENV_VAR, "").strip()
    if override:
        return Path(override).expanduser()
    return default_path().with_name("verdicts.sqlite3")


def package_version() -> str:
    """The version the verdicts are kept under (the package's own)."""
    return sys.modules[__name__.partition(".")[0]].__version__


def checksum(version: str, rules: str, deal: str, status: str, line: str) -> str:
    """What a row must carry to be believed: a digest of everything it says."""
    text = "\x1f".join((version, rules, deal, status, line))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _read_line(status: str, line: str) -> tuple[str, ...] | None:
    """The moves of a row's line, or None when the row cannot be a verdict. The moves are
    read as words here: the one player that uses a line replays it through the engine."""
    moves = tuple(line.split())
    if status not in ("winnable", "unwinnable") or (status == "winnable") != bool(moves):
        return None
    return moves


class VerdictCache:
    """The verdicts file, open; where it cannot be opened, read or written, it keeps nothing
    and finds nothing (see the module docstring)."""

    def __init__(self, path: Path | str | None = None, *, version: str | None = None) -> None:
        self.path = Path(path) if path is not None else default_cache_path()
        self.version = version or package_version()
        self._conn: sqlite3.Connection | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
            try:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute(_SCHEMA)
            except BaseException:
                conn.close()
                raise
        except (OSError, sqlite3.Error) as error:
            self._give_up("cannot be opened", error)
        else:
            self._conn = conn

    def _give_up(self, what: str, error: Exception) -> None:
        warnings.warn(
            f"the solver's verdicts file {self.path} {what} ({error}); this run keeps no "
            "verdicts (deleting the file is safe: it is only a cache)",
            RuntimeWarning,
            stacklevel=3,
        )
        if self._conn is not None:
            self._conn.close()
        self._conn = None

    def get(self, rules: str, deals: Iterable[int | str]) -> dict[int | str, Verdict]:
        """The sound verdicts kept for these deals of `rules` (a damaged row is left out)."""
        wanted = {str(deal): deal for deal in deals}
        found: dict[int | str, Verdict] = {}
        if self._conn is None:
            return found
        keys = list(wanted)
        try:
            for start in range(0, len(keys), BATCH):
                part = keys[start : start + BATCH]
                rows = self._conn.execute(
                    "SELECT deal, status, line, checksum FROM verdicts WHERE version = ? "
                    f"AND rules = ? AND deal IN ({', '.join('?' * len(part))})",
                    (self.version, rules, *part),
                )
                for deal, status, line, check in rows:
                    verdict = self._sound(rules, deal, status, line, check)
                    if verdict is not None:
                        found[wanted[deal]] = verdict
        except sqlite3.Error as error:
            self._give_up("cannot be read", error)
            return {}
        return found

    def _sound(self, rules: str, deal: object, status: object, line: object, check: object):
        if not all(isinstance(value, str) for value in (deal, status, line, check)):
            return None
        if check != checksum(self.version, rules, deal, status, line):  # type: ignore[arg-type]
            return None
        moves = _read_line(status, line)  # type: ignore[arg-type]
        return None if moves is None else (status, moves)

    def put(self, rules: str, verdicts: Mapping[int | str, Verdict]) -> None:
        """Keep these verdicts (one transaction: all of them, or none)."""
        if self._conn is None or not verdicts:
            return
        rows = []
        for deal, (status, moves) in verdicts.items():
            line = " ".join(moves)
            key = str(deal)
            rows.append(
                (
                    self.version,
                    rules,
                    key,
                    status,
                    line,
                    checksum(self.version, rules, key, status, line),
                )
            )
        try:
            with _transaction(self._conn):
                self._conn.executemany(
                    "INSERT OR REPLACE INTO verdicts VALUES (?, ?, ?, ?, ?, ?)", rows
                )
        except sqlite3.Error as error:
            self._give_up("cannot be written", error)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> VerdictCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any error: writers queue at the start."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *rest: object) -> None:
        self.conn.execute("ROLLBACK" if kind is not None else "COMMIT")
