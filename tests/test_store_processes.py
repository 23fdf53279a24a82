"""The records database across processes: two kernels saving at once lose nothing, and a
kernel killed with SIGKILL mid-game loses at most the move being written."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import pyramid_widget
from pyramid_widget import Game
from pyramid_widget.store import Store

pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGKILL and pid probes are POSIX")

ROOT = Path(pyramid_widget.__file__).resolve().parents[1]

# A kernel stand-in. "kill": play deal 1 (continuing a saved game if one is offered), saving
# after every move, undoing now and then, and printing each save before and after writing it.
# "play": wait for "go", then play GAMES games (wins and losses) and print what it finished.
CHILD = r"""
import json, random, sys, warnings
from pyramid_widget import Game
from pyramid_widget.records import Recorder
from pyramid_widget.store import Store

warnings.simplefilter("always")
mode, db = sys.argv[1], sys.argv[2]
if mode == "kill":
    store = Store(db)
    recorder = Recorder(store, Game.deal(1))
    recorder.continue_saved()
    game, step = recorder.game, 0
    print("id", recorder.game_id, flush=True)
    while not game.is_won:
        step += 1
        if step % 7 == 0:
            game.undo()
        elif step % 7 == 1 and game.can_redo:
            game.redo()
        else:
            game.play(game.legal_moves()[0])
        print("writing", game.to_json(), flush=True)
        recorder.moved()
        print("saved", flush=True)
    sys.exit(3)  # the test kills it long before the win

seed, games = int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(seed)
print("ready", flush=True)
sys.stdin.readline()
store = Store(db)
game = Game.deal(1)
recorder = Recorder(store, game)
finished, number = [], 0
for n in range(games):
    number += 1
    game = Game.deal(number)
    recorder.new_game(game)
    if n % 3 == 0:  # play the first move until it is won or stuck; stuck ones are left (lost)
        while game.legal_moves():
            game.play(game.legal_moves()[0])
            recorder.moved()
    else:
        for _ in range(rng.randint(1, 10)):
            game.play(rng.choice(game.legal_moves()))
            recorder.moved()
    result = "won" if game.is_won else "lost"
    finished.append([recorder.game_id, result, game.move_count])
recorder.new_game(Game.deal(1))
print(json.dumps(finished), flush=True)
"""


def child(*args: object, stdin: int | None = None) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, *map(str, args)],
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


@pytest.fixture(autouse=True)
def _no_user_data(tmp_path, monkeypatch):
    """Nothing here may touch the player's real records (children inherit this)."""
    monkeypatch.setenv("PYRAMID_WIDGET_DB", str(tmp_path / "default.sqlite3"))


def same_game(a: Game, b: Game) -> bool:
    return (a.code, a.log, a.redo_moves, a.seen) == (b.code, b.log, b.redo_moves, b.seen)


def kill_after(db: Path, saves: int) -> tuple[str, list[str], str | None]:
    """Run a "kill" child and SIGKILL it just as it starts writing the save after `saves`
    committed ones; return its game id, the saves it reported committed, and the save it was
    writing when killed (None if that write had finished)."""
    proc = child("kill", db)
    game_id = proc.stdout.readline().split()[1]
    committed: list[str] = []
    writing: str | None = None

    def read(line: str) -> None:
        nonlocal writing
        word, _, rest = line.rstrip("\n").partition(" ")
        if word == "writing":
            writing = rest
        elif word == "saved":
            committed.append(writing)
            writing = None
        else:
            pytest.fail(f"child said {line!r}: {proc.stderr.read()}")

    while not (writing is not None and len(committed) >= saves):
        read(proc.stdout.readline())
        if len(committed) == 3 and writing is None:
            with Store(db) as store:  # while it lives, its game is left to it
                assert store.saved_game("classic") is None
                assert not store.give_up(game_id)
    os.kill(proc.pid, signal.SIGKILL)  # it is now saving that move (or just done)
    proc.wait()  # a killed kernel is reaped by its server; only then is its pid free
    for line in proc.stdout.read().splitlines():
        read(line)
    assert proc.returncode == -signal.SIGKILL
    return game_id, committed, writing


def test_a_killed_kernel_continues_at_its_last_committed_move(tmp_path):
    db = tmp_path / "records.sqlite3"
    game_ids = set()
    for _ in range(2):  # killed twice; the second run continues the first one's game
        game_id, committed, writing = kill_after(db, saves=25)
        game_ids.add(game_id)
        with Store(db) as store:
            saved = store.saved_game("classic")
        assert saved is not None and saved.game_id in game_ids
        candidates = [Game.from_json(committed[-1])]
        if writing is not None:  # killed while writing this one: either outcome is fine
            candidates.append(Game.from_json(writing))
        assert any(same_game(saved.game, c) for c in candidates)
        assert 0 < saved.elapsed < 120
    assert len(game_ids) == 1  # one game, carried on across both crashes
    assert len(saved.game.log) > 25  # the second run moved it on
    with Store(db) as store:
        assert store.records("classic").games == 0  # a crash is not a loss


def test_two_kernels_saving_at_once_lose_no_game_and_no_record(tmp_path):
    db = tmp_path / "records.sqlite3"  # created by the two at once, too
    procs = [child("play", db, seed, 16, stdin=subprocess.PIPE) for seed in (1, 2)]
    for proc in procs:
        assert proc.stdout.readline().strip() == "ready"
    for proc in procs:
        proc.stdin.write("go\n")
        proc.stdin.flush()
    finished = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        assert "Warning" not in err, err  # no save was refused or lost
        finished += json.loads(out.splitlines()[-1])

    with Store(db) as store:
        history = {entry.game_id: (entry.result, entry.move_count) for entry in store.history()}
        records = store.records("classic")
        assert store.saved_game("classic") is None
    assert history == {game_id: (result, moves) for game_id, result, moves in finished}
    wins = [moves for _, result, moves in finished if result == "won"]
    assert (records.games, records.wins, records.losses) == (32, len(wins), 32 - len(wins))
    assert records.fewest_moves == min(wins)
