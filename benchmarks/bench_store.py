"""How long the records database makes a player wait: the autosave after a move, opening the
database (with its integrity check) as it grows, Continue, and the records panel.

Run: .venv/bin/python benchmarks/bench_store.py [finished games, default 2000]
Prints figures; asserts nothing (timings belong here, not in tests).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from pyramid_widget import Game
from pyramid_widget.records import Recorder
from pyramid_widget.store import Store


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def timed(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def main(finished_games: int = 2000) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-store-"))
    path = folder / "records.sqlite3"
    store = Store(path)

    # autosave: one move and its save, through the Recorder, over a whole won deal
    game = Game.deal(1)  # won by always playing the first legal move
    recorder = Recorder(store, game)
    saves = []
    while not game.is_won:
        game.play(game.legal_moves()[0])
        saves.append(timed(recorder.moved))
    to_json = statistics.median(timed(game.to_json) for _ in range(50))
    print(f"autosave per move over {len(saves)} moves: median {ms(statistics.median(saves))}, "
          f"max {ms(max(saves))} (of which game.to_json {ms(to_json)})")  # fmt: skip

    # a history of finished games
    for n in range(finished_games):
        store.save(f"g{n}", game, 60.0 + n % 90, result="won" if n % 3 else None)
        if n % 3 == 0:
            store.give_up(f"g{n}")
    store.close()
    size = path.stat().st_size
    print(f"database with {finished_games + 1} finished games: {size / 1e6:.1f} MB")

    opened = [timed(lambda: Store(path).close()) for _ in range(5)]
    print(f"open (quick_check, WAL): median {ms(statistics.median(opened))}")

    store = Store(path)
    player = Game.deal(2)
    recorder = Recorder(store, player)
    for _ in range(40):
        player.play(player.legal_moves()[0])
        recorder.moved()
    for name, action in [
        ("saved_game (find and replay a 40-move save)", lambda: store.saved_game("classic")),
        ("records('classic')", lambda: store.records("classic")),
        ("all_records()", store.all_records),
        ("history(limit=20)", lambda: store.history(limit=20)),
        ("history() of all", store.history),
    ]:
        first = timed(action)
        again = statistics.median(timed(action) for _ in range(5))
        print(f"{name}: first {ms(first)}, then median {ms(again)}")
    store.close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
