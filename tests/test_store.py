"""The records database: where it lives, what it keeps, and how it copes with damaged files,
newer schemas, other applications' files and tampered saves."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import sys
import warnings
from pathlib import Path

import pytest
from helpers import won_game

from pyramid_widget import Game, locks
from pyramid_widget.schema import SCHEMA_VERSION
from pyramid_widget.store import (
    DEFAULT,
    NullStore,
    Store,
    StoreError,
    default_path,
    open_store,
)


@pytest.fixture(autouse=True)
def _no_user_data(tmp_path, monkeypatch):
    """Nothing here may touch the player's real records."""
    monkeypatch.setenv("PYRAMID_WIDGET_DB", str(tmp_path / "default.sqlite3"))


@pytest.fixture
def path(tmp_path) -> Path:
    return tmp_path / "records.sqlite3"


def played(number: int = 8, moves: int = 10, rules: str = "classic") -> Game:
    game = Game.deal(number, rules)
    for _ in range(moves):
        game.play(game.legal_moves()[0])
    return game


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---------------------------------------------------------------------- where
def test_the_environment_variable_names_the_default_database(tmp_path, monkeypatch):
    monkeypatch.setenv("PYRAMID_WIDGET_DB", str(tmp_path / "elsewhere.db"))
    assert default_path() == tmp_path / "elsewhere.db"
    with open_store() as store:
        assert store.path == tmp_path / "elsewhere.db"
    assert (tmp_path / "elsewhere.db").exists()


def test_default_is_in_the_jupyter_data_dir(tmp_path, monkeypatch):
    monkeypatch.delenv("PYRAMID_WIDGET_DB")
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "jupyter"))
    assert default_path() == tmp_path / "jupyter" / "pyramid-widget" / "pyramid.sqlite3"


def test_default_without_jupyter_core_is_under_local_share(tmp_path, monkeypatch):
    monkeypatch.delenv("PYRAMID_WIDGET_DB")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setitem(sys.modules, "jupyter_core.paths", None)  # import fails
    expected = tmp_path / ".local" / "share" / "jupyter" / "pyramid-widget" / "pyramid.sqlite3"
    assert default_path() == expected


def test_open_store_takes_a_path_a_store_none_or_the_default(path):
    assert isinstance(open_store(None), NullStore)
    with Store(path) as store:
        assert open_store(store) is store
    with open_store(str(path)) as store:
        assert store.path == path
    with open_store(DEFAULT) as store:
        assert store.path == default_path()
    with pytest.raises(ValueError, match="store must be a path"):
        open_store(42)


# ---------------------------------------------------------------------- what it keeps
def test_a_save_round_trips_with_history_and_clock(path):
    game = played()
    game.undo()
    with Store(path) as store:
        assert store.save("g1", game, 12.5)
    with Store(path) as store:
        saved = store.saved_game(game.rules)
    assert saved.game_id == "g1" and saved.elapsed == 12.5
    assert (saved.game.code, saved.game.log, saved.game.redo_moves) == (
        game.code, game.log, game.redo_moves
    )  # fmt: skip


def test_saved_game_is_the_latest_unfinished_game(path):
    with Store(path) as store:
        store.save("older", played(3), 1.0)
        store.save("newer", played(4), 2.0)
        store.save("older", played(3, moves=11), 3.0)  # saved again: now the latest
        store.save("done", won_game(), 4.0, result="won")
        assert store.saved_game("classic").game_id == "older"
        assert store.saved_game("open-stock") is None


def test_finishing_is_recorded_once_and_a_finished_game_never_changes(path):
    game = won_game()
    with Store(path) as store:
        assert store.save("g", game, 30.0, result="won")
        assert not store.save("g", game, 99.0, result="won")
        assert not store.save("g", played(), 5.0)  # a late autosave changes nothing
        assert not store.give_up("g")
        records = store.records("classic")
        assert (records.games, records.wins, records.fastest_win) == (1, 1, 30.0)
        [entry] = store.history()
        assert entry.moves == tuple(game.log) and entry.elapsed == 30.0


def test_only_a_won_game_is_saved_as_won(path):
    with Store(path) as store:
        with pytest.raises(ValueError, match="only a won game"):
            store.save("g", played(), 1.0, result="won")
        assert store.saved_game("classic") is None


def test_give_up_records_a_loss_at_the_last_saved_position(path):
    with Store(path) as store:
        store.save("g", played(moves=4), 7.0)
        assert store.give_up("g", 9.0)
        assert not store.give_up("g")  # once
        assert not store.give_up("never-saved")
        [entry] = store.history()
        assert (entry.result, entry.move_count, entry.elapsed) == ("lost", 4, 9.0)


def test_history_replays_from_the_layout_and_from_the_save(path):
    game = won_game()
    layout_game = Game.from_layout(played(5).layout, "scored")
    for _ in range(6):
        layout_game.play(layout_game.legal_moves()[0])
    with Store(path) as store:
        store.save("a", game, 60.0, result="won")
        store.save("b", layout_game, 5.0)
        store.give_up("b")
        history = store.history()
        assert [entry.game_id for entry in history] == ["b", "a"]  # latest first
        assert [entry.game_id for entry in store.history("classic")] == ["a"]
        assert len(store.history(limit=1)) == 1
        with pytest.raises(ValueError, match="limit"):
            store.history(limit=-1)
    for entry, original in zip(history, [layout_game, game], strict=True):
        replay = entry.start()
        for move in entry.moves:
            replay.play(move)
        assert replay.code == original.code == entry.game().code
        assert entry.game().log == original.log
    assert history[1].deal_number == 1 and history[0].deal_number is None


def test_records_of_every_rules_preset(path):
    with Store(path) as store:
        store.save("a", won_game(), 10.0, result="won")
        store.save("b", played(rules="scored"), 3.0)
        store.give_up("b")
        everything = store.all_records()
    assert set(everything) == {"classic", "scored"}
    assert everything["scored"].losses == 1 and everything["scored"].best_score is not None
    assert everything["classic"].best_score is None  # classic does not score


def test_records_of_rules_this_version_does_not_know_are_still_listed(path):
    with Store(path) as store:
        store.save("a", won_game(), 10.0, result="won")
    conn = sqlite3.connect(path)
    conn.execute("UPDATE games SET rules = 'future-preset'")
    conn.commit()
    conn.close()
    with Store(path) as store:
        assert store.all_records()["future-preset"].wins == 1


def test_bad_rules_are_refused(path):
    with Store(path) as store, pytest.raises(ValueError, match="unknown rules"):
        store.records("no-such-rules")


# ---------------------------------------------------------------------- schema
def test_a_new_database_carries_its_schema_version(path):
    Store(path).close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_a_newer_schema_is_refused_and_never_written(path):
    with Store(path) as store:
        store.save("g", played(), 1.0)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    before = digest(path)
    with pytest.raises(StoreError, match=r"newer pyramid-widget.*left untouched"):
        Store(path)
    with pytest.warns(RuntimeWarning, match="newer pyramid-widget"):
        fallback = open_store(path, fallback=True)
    assert isinstance(fallback, NullStore)
    assert digest(path) == before
    assert not list(path.parent.glob("*.damaged-*"))


def test_a_schema_no_release_wrote_is_refused_and_never_written(path):
    with Store(path) as store:
        store.save("g", played(), 1.0)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 1")  # the first schema, never released
    conn.close()
    before = digest(path)
    with pytest.raises(StoreError, match=r"schema 1, which no release wrote.*left untouched"):
        Store(path)
    with pytest.raises(StoreError, match="no release wrote"):
        Store(path, read_only=True)
    assert digest(path) == before


def test_another_applications_database_is_refused_and_left_alone(path):
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.commit()
    conn.close()
    before = digest(path)
    with pytest.raises(StoreError, match="not a pyramid-widget records database"):
        Store(path)
    assert digest(path) == before


# ---------------------------------------------------------------------- damage
@pytest.mark.parametrize("where", ["header", "middle"])
def test_a_damaged_file_is_moved_aside_and_a_fresh_one_works(path, where):
    with Store(path) as store:
        for n in range(1, 8):
            store.save(f"g{n}", played(n, moves=20), float(n))
    data = bytearray(path.read_bytes())
    start = 0 if where == "header" else 2 * 4096
    data[start : start + 3000] = bytes((i * 97 + 13) % 256 for i in range(3000))
    path.write_bytes(bytes(data))

    with pytest.warns(RuntimeWarning, match=r"damaged.*moved to.*fresh one was started"):
        store = Store(path)
    with store:
        [aside] = path.parent.glob("records.sqlite3.damaged-*")
        assert aside.read_bytes() == bytes(data)  # kept for inspection, byte for byte
        assert store.saved_game("classic") is None
        store.save("new", played(), 2.0)
        assert store.saved_game("classic").game_id == "new"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the fresh file opens without complaint
        Store(path).close()


def test_a_tampered_save_is_skipped_with_a_warning(path):
    with Store(path) as store:
        store.save("good", played(3), 1.0)
        store.save("bad", played(4), 2.0)
    conn = sqlite3.connect(path)
    save = json.loads(conn.execute("SELECT save FROM games WHERE id = 'bad'").fetchone()[0])
    save["moves"][2] = "Kd"
    conn.execute("UPDATE games SET save = ? WHERE id = 'bad'", (json.dumps(save),))
    conn.commit()
    conn.close()
    with Store(path) as store:
        with pytest.warns(
            RuntimeWarning, match=r"damaged game \(row 2, id 'bad'\): its save cannot be continued"
        ):
            saved = store.saved_game("classic")
        assert saved.game_id == "good"


def test_saving_off_keeps_nothing():
    store = NullStore()
    assert not store.save("g", won_game(), 1.0, result="won")
    assert store.saved_game("classic") is None and store.history() == []
    assert store.records("classic").games == 0 and store.all_records() == {}


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("", won_game(), 1.0), "game_id must be a non-empty string"),
        ((5, won_game(), 1.0), "game_id must be a non-empty string"),
        (("g", "a game", 1.0), "game must be a Game"),
        (("g", won_game(), float("nan")), "elapsed must be a finite number"),
        (("g", won_game(), float("inf")), "elapsed must be a finite number"),
        (("g", won_game(), -1.0), "elapsed must be a finite number"),
        (("g", won_game(), "12"), "elapsed must be a number of seconds"),
        (("g", won_game(), True), "elapsed must be a number of seconds"),
    ],
)
def test_a_bad_save_is_refused_and_writes_nothing(path, arguments, message):
    with Store(path) as store:
        with pytest.raises(ValueError, match=message):
            store.save(*arguments, result="won")
        store.save("kept", played(), 1.0)
        with pytest.raises(ValueError, match="elapsed"):
            store.give_up("kept", float("nan"))
        assert store.history() == [] and store.saved_game("classic").game_id == "kept"


def test_without_file_locks_a_store_still_works_alone(path, monkeypatch):
    """Where `fcntl` is missing (Windows), the locks do nothing and one process still keeps
    its games (ownership cannot be checked there: another process's games are free)."""
    monkeypatch.setattr(locks, "fcntl", None)
    with Store(path) as store:
        assert store.save("g", played(), 1.0)
        saved = store.saved_game("classic")
        assert store.take(saved) and store.give_up("g")
        assert store.records("classic").losses == 1
    with Store(path) as store:
        assert store.history()[0].game_id == "g"
