"""Random playouts on the engine: prints moves per second (legal_moves + play), per preset.

Run: python benchmarks/bench_engine.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import time

from pyramid_widget import PRESETS, Game


def playouts(rules: str, games: int, seed: int = 1) -> tuple[int, float]:
    rng = random.Random(seed)
    moves = 0
    start = time.perf_counter()
    for number in range(1, games + 1):
        game = Game.deal(number, rules)
        while True:
            legal = game.legal_moves()
            if not legal:
                break
            game.play(rng.choice(legal))
            moves += 1
            if moves % 50 == 0:  # exercise undo too, as a player would
                game.undo()
                moves += 1
    return moves, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    print(f"{'preset':<12} {'games':>6} {'moves':>8} {'seconds':>8} {'moves/s':>9}")
    for name in PRESETS:
        moves, seconds = playouts(name, args.games)
        print(f"{name:<12} {args.games:>6} {moves:>8} {seconds:>8.2f} {moves / seconds:>9.0f}")


if __name__ == "__main__":
    main()
