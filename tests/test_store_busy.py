"""A records database another process keeps busy: a save that could not be written waits and
is written later (at the next save, when the next board starts, on close), and a win is never
given up as a loss.

The other process is real: a second Python holding the file's write lock (BEGIN IMMEDIATE) for
as long as the test says, on the real SQLite file; the store waits a short busy timeout for it.
"""

from __future__ import annotations

import math
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramid_widget import Game
from pyramid_widget.records import Recorder
from pyramid_widget.store import Store

BUSY = 0.1  # seconds a write waits for the other process here (10 s by default)
MEMORY = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
COULD_NOT = "could not use its records database"

HOLDER = r"""
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
for line in sys.stdin:
    conn.execute("BEGIN IMMEDIATE" if line.strip() == "hold" else "COMMIT")
    print("done", flush=True)
"""


class WriteLock:
    """Another process that holds the database's write lock while the test says so."""

    def __init__(self, path: Path) -> None:
        self.held = False
        self._process = subprocess.Popen(
            [sys.executable, "-c", HOLDER, str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def _say(self, word: str) -> None:
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(word + "\n")
        self._process.stdin.flush()
        assert self._process.stdout.readline() == "done\n"

    def hold(self) -> None:
        if not self.held:
            self._say("hold")
            self.held = True

    def release(self) -> None:
        if self.held:
            self._say("release")
            self.held = False

    def close(self) -> None:
        self.release()
        assert self._process.stdin is not None
        self._process.stdin.close()
        assert self._process.wait(timeout=30) == 0


@pytest.fixture(autouse=True)
def _no_user_data(tmp_path, monkeypatch):
    """Nothing here may touch the player's real records."""
    monkeypatch.setenv("PYRAMID_WIDGET_DB", str(tmp_path / "default.sqlite3"))


@pytest.fixture
def path(tmp_path) -> Path:
    db = tmp_path / "records.sqlite3"
    Store(db).close()
    return db


@pytest.fixture
def lock(path) -> Iterator[WriteLock]:
    held = WriteLock(path)
    yield held
    held.close()


def one_move_from_the_win(recorder: Recorder) -> None:
    """Deal 1, saved after every move but its winning one (deal 1 is won by always playing
    the first legal move)."""
    recorder.new_game(Game.deal(1))
    game = recorder.game
    while True:
        move = game.legal_moves()[0]
        trial = game.copy()
        trial.play(move)
        if trial.is_won:
            return
        game.play(move)
        recorder.moved()


def win_while_busy(recorder: Recorder, lock: WriteLock) -> None:
    """The winning move, while another process holds the write lock: its save fails."""
    one_move_from_the_win(recorder)
    lock.hold()
    recorder.game.play(recorder.game.legal_moves()[0])
    with pytest.warns(RuntimeWarning, match=COULD_NOT):
        recorder.moved()
    assert recorder.game.is_won and recorder.finished


def counted(path: Path) -> tuple[int, int, int]:
    """Games, wins and losses in the file (read by a Store that writes nothing)."""
    with Store(path, read_only=True) as store:
        records = store.records("classic")
    return records.games, records.wins, records.losses


def test_a_win_the_file_could_not_take_is_written_when_the_next_board_starts(path, lock):
    recorder = Recorder(Store(path, busy_timeout=BUSY), Game.deal(2))
    win_while_busy(recorder, lock)
    lock.release()
    later = Recorder(Store(path, busy_timeout=BUSY), Game.deal(3))  # the next board
    assert later.offer is None  # the won game is not offered, so never given up
    later.game.draw()
    later.moved()
    assert counted(path) == (1, 1, 0)


def test_a_win_the_file_could_not_take_is_written_with_the_next_move(path, lock):
    store = Store(path, busy_timeout=BUSY)
    recorder = Recorder(store, Game.deal(2))
    win_while_busy(recorder, lock)
    recorder.new_game(Game.deal(4))  # leaving a won game: nothing to give up
    recorder.game.draw()
    with pytest.warns(RuntimeWarning, match=COULD_NOT):
        recorder.moved()  # still busy: the win and this save both wait
    lock.release()
    assert counted(path) == (0, 0, 0)
    recorder.game.draw()
    recorder.moved()
    assert counted(path) == (1, 1, 0)
    assert store.saved_game("classic").game.log == ["draw", "draw"]
    store.close()


def test_a_win_the_file_could_not_take_is_written_on_close(path, lock):
    store = Store(path, busy_timeout=BUSY)
    win_while_busy(Recorder(store, Game.deal(2)), lock)
    lock.release()
    assert counted(path) == (0, 0, 0)
    store.close()
    assert counted(path) == (1, 1, 0)


def test_a_win_still_waiting_at_close_is_written_by_the_next_store_on_the_file(path, lock):
    store = Store(path, busy_timeout=BUSY)
    win_while_busy(Recorder(store, Game.deal(2)), lock)
    with pytest.warns(RuntimeWarning, match=r"could not take 1 save\(s\)"):
        store.close()
    lock.release()
    assert counted(path) == (0, 0, 0)
    later = Recorder(Store(path, busy_timeout=BUSY), Game.deal(3))  # the next board
    assert later.offer is None and counted(path) == (1, 1, 0)
    later.store.close()


def test_a_game_whose_win_waits_is_neither_offered_nor_given_up(path, lock):
    recorder = Recorder(Store(path, busy_timeout=BUSY), Game.deal(2))
    win_while_busy(recorder, lock)
    store = recorder.store
    assert store.saved_game("classic") is None  # the file holds it one move before its win
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        store.give_up(recorder.game_id)  # the win is written first, or nothing is
    lock.release()
    assert store.give_up(recorder.game_id) is False  # won: there is nothing to give up
    assert counted(path) == (1, 1, 0)
    store.close()


@pytest.mark.parametrize("timeout", [0, -1.0, math.nan, math.inf, True, "10", None])
def test_a_busy_timeout_that_is_no_number_of_seconds_is_refused(tmp_path, timeout):
    with pytest.raises(ValueError, match="busy_timeout must be a number of seconds above 0"):
        Store(tmp_path / "records.sqlite3", busy_timeout=timeout)
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------- random streams
ACTIONS = st.sampled_from(["hold", "release", "moves", "win", "leave", "new board", "close"])


@settings(max_examples=25, deadline=None)
@given(st.lists(ACTIONS, min_size=1, max_size=14))
def test_no_win_is_lost_or_turned_into_a_loss_whenever_the_file_is_busy(actions):
    """Any stream of moves, wins, leaving, new boards and closed boards, while another
    process takes and lets go of the write lock: once it lets go and the boards close, every
    game won is recorded won, once, and none as lost."""
    folder = tempfile.mkdtemp(dir=MEMORY)
    path = Path(folder) / "records.sqlite3"
    Store(path).close()
    lock = WriteLock(path)
    stores: list[Store] = []
    won: set[str] = set()

    def board() -> Recorder:
        stores.append(Store(path, busy_timeout=BUSY))
        return Recorder(stores[-1], Game.deal(1))

    def play(recorder: Recorder, moves: int) -> None:
        game = recorder.game
        for _ in range(moves):
            if game.is_won:
                break
            game.play(game.legal_moves()[0])
        recorder.moved()  # a board saves after each move; saving after several is the same
        if game.is_won:
            won.add(recorder.game_id)

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # every failed save warns
            recorder = board()
            for action in actions:
                if action == "hold":
                    lock.hold()
                elif action == "release":
                    lock.release()
                elif action == "moves":
                    play(recorder, 25)
                elif action == "win":
                    play(recorder, 200)
                elif action == "leave":
                    recorder.new_game(Game.deal(1))
                elif not lock.held:  # a board opening on a busy file is another matter
                    if action == "close":
                        stores.pop().close()
                    recorder = board()
            lock.release()
            for store in stores:
                store.close()
    finally:
        lock.close()
    with Store(path, read_only=True) as store:
        history = store.history("classic")
    shutil.rmtree(folder)
    assert {entry.game_id for entry in history if entry.result == "won"} == won
    assert len(history) == len({entry.game_id for entry in history})
