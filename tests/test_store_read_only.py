"""A records database that cannot be written still shows its records, history and saved games,
and says that saving is off: asked for (`Store(path, read_only=True)`), or found so (a
read-only file in a read-only folder).

The suite may run as root (CI does), and chmod does not stop root. Then the checks run in a
forked child that has given up root for the `nobody` user: a real process that the operating
system really refuses to let write.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import stat
import tempfile
import traceback
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers import won_game

from pyramid_widget import Game
from pyramid_widget.records import Recorder
from pyramid_widget.store import NullStore, Store, StoreError, open_store
from pyramid_widget.widget import PyramidWidget
from pyramid_widget.words import SAVING_OFF

NOBODY = 65534


@pytest.fixture(autouse=True)
def _no_user_data(tmp_path, monkeypatch):
    """Nothing here may touch the player's real records."""
    monkeypatch.setenv("PYRAMID_WIDGET_DB", str(tmp_path / "default.sqlite3"))


def fill(path: Path) -> None:
    """A win, a loss, and an unfinished game to continue (saved on another computer: this
    process's games would be held by it, and not offered to the child that drops root)."""
    with Store(path) as store:
        store.save("win", won_game(), 30.0, result="won")
        lost = Game.deal(3)
        lost.draw()
        store.save("loss", lost, 4.0)
        store.give_up("loss")
        open_game = Game.deal(5)
        open_game.draw()
        store.save("open", open_game, 6.0)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE games SET owner = 'another-computer:7:' || lower(hex(randomblob(16)))")
    conn.commit()
    conn.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def what_it_shows(store: Store) -> dict:
    """What a widget on this store shows, and what its saves answer."""
    records = store.records("classic")
    saved = store.saved_game("classic")
    game = Game.deal(9)
    recorder = Recorder(store, game)
    game.draw()
    recorder.moved()  # autosave: nothing written, nothing raised
    recorder.new_game(Game.deal(10))  # gives up the begun game: not recorded either
    return {
        "read_only": store.read_only,
        "saving": store.saving,
        "records": [records.games, records.wins, records.losses, records.fastest_win],
        "history": [entry.game_id for entry in store.history()],
        "continue": saved and saved.game_id,
        "save": store.save("new", won_game(), 1.0, result="won"),
        "give_up": store.give_up("open"),
        "after": store.records("classic").games,
    }


SHOWN = {
    "read_only": True,
    "saving": False,
    "records": [2, 1, 1, 30.0],
    "history": ["loss", "win"],
    "continue": "open",
    "save": False,
    "give_up": False,
    "after": 2,
}


def test_a_database_opened_read_only_shows_everything_and_writes_nothing(tmp_path):
    path = tmp_path / "records.sqlite3"
    fill(path)
    before = digest(path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # asked for: no warning
        with Store(path, read_only=True) as store:
            assert what_it_shows(store) == SHOWN
            assert repr(store).endswith("read_only=True)")
    assert digest(path) == before  # (SQLite may leave an empty WAL beside it, to read safely)


def test_a_new_empty_file_read_only_shows_nothing(tmp_path):
    path = tmp_path / "records.sqlite3"
    path.touch()
    with Store(path, read_only=True) as store:
        assert store.saved_game("classic") is None and store.history() == []
        assert store.records("classic").games == 0 and store.all_records() == {}
    assert path.read_bytes() == b""


def test_reading_a_database_that_is_not_there_is_refused(tmp_path):
    with pytest.raises(StoreError, match="no records database"):
        Store(tmp_path / "missing.sqlite3", read_only=True)
    assert not (tmp_path / "missing.sqlite3").exists()


# ---------------------------------------------------------------------- found read-only
def as_a_user_who_cannot_write(check: Callable[[], dict]) -> dict:
    """Run `check` in this process, or, as root (whom chmod does not stop), in a forked child
    that gave up root for `nobody`. Returns what `check` returned."""
    if os.geteuid() != 0:
        return check()
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        try:
            os.close(reader)
            try:
                os.setgroups([])
                os.setgid(NOBODY)
                os.setuid(NOBODY)
            except OSError as error:  # e.g. a user namespace without that user
                answer = {"cannot drop root": str(error)}
            else:
                answer = {"ok": check()}
        except BaseException:
            answer = {"error": traceback.format_exc()}
        with os.fdopen(writer, "w") as out:
            json.dump(answer, out)
        os._exit(0)
    os.close(writer)
    with os.fdopen(reader) as answers:
        answer = json.load(answers)
    os.waitpid(pid, 0)
    if "cannot drop root" in answer:
        pytest.skip(f"running as root, and root cannot become another user here: {answer}")
    assert "error" not in answer, answer.get("error")
    return answer["ok"]


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder the `nobody` user can reach (pytest's tmp_path is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="pyramid-read-only-"))
    folder.chmod(0o755)
    yield folder
    for path in [folder, *folder.rglob("*")]:
        if path.is_dir():
            path.chmod(0o755)
    shutil.rmtree(folder)


@pytest.mark.parametrize("folder_mode", [0o555, 0o777], ids=["folder-read-only", "file-only"])
def test_a_database_that_cannot_be_written_opens_read_only_with_one_warning(
    shared_folder, folder_mode
):
    folder = shared_folder / "db"
    folder.mkdir()
    path = folder / "records.sqlite3"
    fill(path)
    for made in folder.iterdir():
        made.chmod(0o444 if made.is_file() else 0o555)
    path.chmod(0o444)
    folder.chmod(folder_mode)
    before = {made.name: digest(made) for made in folder.iterdir() if made.is_file()}

    def check() -> dict:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                open(path, "a").close()
                writable = True
            except PermissionError:
                writable = False
            with Store(path) as store:
                shown = what_it_shows(store)
            widget_store = open_store(path, fallback=True)
            widget_store.close()
        return {
            "writable": writable,
            "uid": os.geteuid(),
            "shown": shown,
            "warnings": [str(w.message) for w in caught],
            "null": isinstance(widget_store, NullStore),
        }

    seen = as_a_user_who_cannot_write(check)
    assert not seen["writable"] and seen["uid"] != 0  # the operating system refuses, for real
    assert seen["shown"] == SHOWN
    assert not seen["null"]  # a widget gets the read-only store, not "saving off"
    assert len(seen["warnings"]) == 2  # one per opened store, none per save
    assert all("cannot be written" in w and "saving is off" in w for w in seen["warnings"])
    assert {name: digest(folder / name) for name in before} == before  # every file as it was
    assert stat.S_IMODE(folder.stat().st_mode) == folder_mode


# ---------------------------------------------------------------------- found unreadable
def play_to_the_win(widget: PyramidWidget) -> None:
    """Deal 1 on `widget`, played to the win by always taking the first legal move."""
    widget.new_deal(1)
    while not widget.game.is_won:
        widget.play(widget.game.legal_moves()[0])


@pytest.mark.parametrize("folder_mode", [0o755, 0o777], ids=["folder-theirs", "folder-shared"])
def test_a_database_this_user_cannot_read_leaves_the_board_playing_without_saving(
    shared_folder, folder_mode
):
    """Another user's records file, mode 600 (mode 000 when the suite is not root: the owner
    then cannot read it either): the board warns once and plays on with saving off."""
    folder = shared_folder / "db"
    folder.mkdir()
    path = folder / "records.sqlite3"
    fill(path)
    path.chmod(0o600 if os.geteuid() == 0 else 0o000)
    folder.chmod(folder_mode)
    before = {made.name: digest(made) for made in folder.iterdir() if made.is_file()}
    play_to_the_win(PyramidWidget(store=None))  # what a board imports, imported as root

    def check() -> dict:
        try:
            open(path, "rb").close()
            readable = True
        except PermissionError:
            readable = False
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            widget = PyramidWidget(store=path)
            play_to_the_win(widget)
            widget.new_deal(2)
            widget.draw()
            widget.new_deal(3)  # giving a game up: nothing to write either
            shown = widget.state["records"]
            store = widget.store
            widget.close()
        return {
            "readable": readable,
            "uid": os.geteuid(),
            "warnings": [str(w.message) for w in caught],
            "null": isinstance(store, NullStore),
            "saving": shown["saving"],
            "games": shown["games"],
            "saving off said": SAVING_OFF in shown["notes"],
        }

    seen = as_a_user_who_cannot_write(check)
    assert not seen["readable"] and seen["uid"] != 0  # the operating system refuses, for real
    assert len(seen["warnings"]) == 1, seen["warnings"]
    assert "cannot be read by this user" in seen["warnings"][0]
    assert "will not be saved" in seen["warnings"][0]
    assert seen["null"] and not seen["saving"] and seen["games"] == 0
    assert seen["saving off said"]
    assert {name: digest(folder / name) for name in before} == before  # every file as it was


def test_a_folder_at_the_path_leaves_the_board_playing_without_saving(tmp_path):
    path = tmp_path / "records.sqlite3"
    path.mkdir()
    with pytest.warns(RuntimeWarning, match="is a folder.*will not be saved"):
        widget = PyramidWidget(store=path)
    play_to_the_win(widget)
    assert not widget.store.saving and widget.state["records"]["games"] == 0
    assert path.is_dir() and not any(path.iterdir())
    widget.close()
