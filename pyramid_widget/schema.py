"""The records database's format: the schema, and how a row is read back.

A row is never trusted: `decode` checks every value it reads (types, ranges, dates), and names
the first thing wrong, so that the store can set a damaged row aside and read the rest. Text
that is not UTF-8 is read as `Undecodable` text rather than failing the whole read.
"""

from __future__ import annotations

import datetime as _dt
import math
from typing import NamedTuple

from .deals import check_deal_number
from .records import FinishedGame, Outcome, Result

APPLICATION_ID = 0x50595257  # "PYRW": marks the file as ours (PRAGMA application_id)

SCHEMA_VERSION = 2  # PRAGMA user_version; no release wrote another, so any other is refused
SCHEMA: tuple[str, ...] = (
    """CREATE TABLE schema_version (
        version INTEGER PRIMARY KEY,
        applied_at TEXT NOT NULL
    )""",
    """CREATE TABLE games (
        id TEXT PRIMARY KEY,          -- one attempt at a deal; finishing is keyed on it
        rules TEXT NOT NULL,          -- Rules.name: records are kept per rules
        deal_number INTEGER,          -- NULL for a written layout
        layout TEXT NOT NULL,         -- the 52 cards, for replay
        log TEXT NOT NULL,            -- the moves played, in notation, space separated
        save TEXT NOT NULL,           -- Game.to_json(): position, undo and redo, seen cards
        moves INTEGER NOT NULL,       -- move count at the last save
        score INTEGER NOT NULL,
        elapsed REAL NOT NULL,        -- seconds of play (time away never counts)
        result TEXT CHECK (result IN ('won', 'lost')),  -- NULL while unfinished
        owner TEXT NOT NULL,          -- host:pid:token of the last process that saved it
        started_at TEXT NOT NULL,
        saved_at TEXT NOT NULL,
        finished_at TEXT,
        finish_order INTEGER UNIQUE,  -- order of finishing, for win streaks
        practice INTEGER NOT NULL CHECK (practice IN (0, 1))
            -- counted as played only (records.can_count, the review): no best, no streak
    )""",
    "CREATE INDEX games_unfinished ON games (rules, saved_at) WHERE result IS NULL",
    "CREATE INDEX games_finished ON games (rules, finish_order) WHERE result IS NOT NULL",
)


# ---------------------------------------------------------------------- rows
class Undecodable(str):
    """Text read from the file that is not valid UTF-8 (kept, never trusted)."""


def lenient_text(data: bytes) -> str:
    """SQLite's TEXT as str. Bytes that are not UTF-8 come back as Undecodable text (U+FFFD for
    each bad byte) instead of failing the whole read; `decode` decides what that damages."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return Undecodable(data.decode("utf-8", "replace"))


_SELECT = (
    "SELECT rowid, id, rules, deal_number, {layout}, {log}, {save}, moves, score, elapsed, "
    "result, owner, started_at, saved_at, finished_at, finish_order, practice FROM games"
)
_TYPE_ONLY = "CASE typeof({0}) WHEN 'text' THEN 'unread' ELSE {0} END".format

SELECT_GAMES = _SELECT.format(layout="layout", log="log", save="save")
# The records need no layout, moves or save, only that they are text: their type is read, not
# their kilobytes.
SELECT_OUTCOMES = _SELECT.format(
    layout=_TYPE_ONLY("layout"), log=_TYPE_ONLY("log"), save=_TYPE_ONLY("save")
)


class Row(NamedTuple):
    """One row of `games`, every value checked."""

    rowid: int
    game_id: str
    rules: str
    deal_number: int | None
    layout: str
    log: str
    save: str
    moves: int
    score: int
    elapsed: float
    result: Result | None
    owner: str
    started_at: _dt.datetime
    saved_at: _dt.datetime
    finished_at: _dt.datetime | None
    finish_order: int | None
    practice: bool

    def outcome(self) -> Outcome:
        assert self.result is not None
        return Outcome(self.result, self.elapsed, self.moves, self.score, self.practice)

    def finished_game(self) -> FinishedGame:
        assert self.result is not None and self.finished_at is not None
        return FinishedGame(
            self.game_id,
            self.rules,
            self.deal_number,
            self.layout,
            tuple(self.log.split()),
            self.moves,
            self.result,
            self.elapsed,
            self.score,
            self.started_at,
            self.finished_at,
            self.save,
            self.practice,
        )


def shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _text(value: object, column: str, *, empty: bool = False, utf8: bool = True) -> str:
    if (
        not isinstance(value, str)
        or (utf8 and isinstance(value, Undecodable))
        or not (value or empty)
    ):
        raise ValueError(f"its {column} is {shown(value)}, not text")
    return value


def _whole(value: object, column: str) -> int:
    if not isinstance(value, int) or value < 0:
        raise ValueError(f"its {column} is {shown(value)}, not a whole number from 0 up")
    return value


def _seconds(value: object, column: str) -> float:
    if not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise ValueError(f"its {column} is {shown(value)}, not a number of seconds")
    return float(value)


def timestamp() -> str:
    """Now, as the file keeps a moment (read back by `moment`)."""
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="microseconds")


def moment(value: object, column: str) -> _dt.datetime:
    try:
        moment = _dt.datetime.fromisoformat(_text(value, column))
    except ValueError:
        raise ValueError(f"its {column} is {shown(value)}, not a date and time") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=_dt.timezone.utc)


def decode(raw: tuple) -> Row:
    """A row as read, checked value by value; ValueError names the first thing wrong."""
    (rowid, game_id, rules, number, layout, log, save, moves, score, elapsed, result, owner,
     started, saved, finished, order, practice) = raw  # fmt: skip
    if result not in (None, "won", "lost"):
        raise ValueError(f"its result is {shown(result)}, not 'won', 'lost' or none")
    if number is not None:
        try:
            check_deal_number(number)
        except ValueError:
            raise ValueError(f"its deal_number is {shown(number)}, not a deal") from None
    if practice not in (0, 1):
        raise ValueError(f"its practice is {shown(practice)}, not 0 or 1")
    done = result is not None
    return Row(
        rowid,
        _text(game_id, "id"),
        _text(rules, "rules"),
        number,
        # layout, moves and save are replayed, which checks them: here they must be text,
        # and bytes that are not UTF-8 show as U+FFFD (the records read only their type)
        _text(layout, "layout", utf8=False),
        _text(log, "log", empty=True, utf8=False),
        _text(save, "save", utf8=False),
        _whole(moves, "moves"),
        _whole(score, "score"),
        _seconds(elapsed, "elapsed"),
        result,
        _text(owner, "owner", empty=True),
        moment(started, "started_at"),
        moment(saved, "saved_at"),
        moment(finished, "finished_at") if done else None,
        _whole(order, "finish_order") if done else None,
        # a game with no deal number is practice however it was written (records.can_count)
        bool(practice) or number is None,
    )
