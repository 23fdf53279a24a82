"""Solver speed: time per deal for every preset, shortest wins, and fair-hint latency.

    python benchmarks/bench_solver.py [--deals N] [--optimal N] [--hints N] [--limit S]

Prints, per rule setting, over numbered deals 1..N and over the reference layouts in
shared/decks: the share decided within the limit, the median, 90th, 99th percentile and
maximum seconds per deal (CPU time of this process, so other load on the machine counts
less), the search nodes per second, and the peak memory of the slowest deal (tracemalloc).
Then `optimal=True` over the open-stock reference decks, and fair hints over positions met
in random play. Goals (issue 3): every deal decided within 5 s, median under 10 ms, p99 under
250 ms, optimal median under 0.5 s, a fair hint within 0.3 s on 99 % of positions.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
import tracemalloc
from pathlib import Path

from pyramid_widget import Game, Rules, hint, solve

DECKS = Path(__file__).resolve().parents[1] / "tests" / "data" / "decks"  # copy of shared/decks
PRESETS = [
    "classic",
    "scored",
    "open-stock",
    "one-recycle",
    "strict",
    "classic,passes=1",
    "classic,passes=unlimited",
]


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def peak_memory(game: Game) -> float:
    """MiB allocated at the peak while solving ``game`` (tracemalloc; no time limit, as
    tracing slows the search a few times over)."""
    tracemalloc.start()
    solve(game)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def run(label: str, games: list[Game], limit: float) -> None:
    times, nodes, decided, worst = [], 0, 0, None
    for game in games:
        started = time.process_time()
        solution = solve(game, time_limit=limit)
        spent = time.process_time() - started
        times.append(spent)
        nodes += solution.nodes
        decided += solution.status != "unknown"
        if worst is None or spent > worst[0]:
            worst = (spent, game)
    memory = peak_memory(worst[1]) if worst else 0.0
    total = sum(times) or 1e-9
    print(
        f"{label:<44} {100 * decided / len(games):6.1f} % {1000 * statistics.median(times):8.1f}"
        f" {1000 * quantile(times, 0.9):8.1f} {1000 * quantile(times, 0.99):8.1f}"
        f" {1000 * max(times):8.1f} {nodes / total:10.0f} {memory:8.1f}",
        flush=True,
    )


def reference(name: str) -> list[Game]:
    path = DECKS / name
    if not path.exists():
        return []
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [Game.from_layout(row["layout"], Rules.parse(row["rules"])) for row in rows]


def optimal(count: int, limit: float) -> None:
    path = DECKS / "open-stock.jsonl"
    if not path.exists() or count <= 0:
        return
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    times, agree, winnable = [], 0, 0
    for row in rows[:count]:
        game = Game.from_layout(row["layout"], Rules.parse(row["rules"]))
        started = time.process_time()
        solution = solve(game, optimal=True, time_limit=limit)
        times.append(time.process_time() - started)
        if row["verdict"] == "winnable":
            winnable += 1
            agree += len(solution.moves) == row["optimal_moves"]
    print(
        f"\noptimal=True on {len(times)} open-stock reference decks: median "
        f"{statistics.median(times):.3f} s, p90 {quantile(times, 0.9):.3f} s, max "
        f"{max(times):.3f} s; shortest wins equal to the reference: {agree} of {winnable}"
    )


def hints(count: int) -> None:
    if count <= 0:
        return
    rng = random.Random(2026)
    times = []
    for n in range(count):
        rules = PRESETS[n % len(PRESETS)]
        game = Game.deal(rng.randrange(1, 10**6), rules)
        for _ in range(rng.randrange(0, 40)):
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
        started = time.perf_counter()
        hint(game, fair=True, time_limit=0.3)
        times.append(time.perf_counter() - started)
    within = sum(t <= 0.3 for t in times) / len(times)
    print(
        f"\nfair hint (time_limit=0.3) on {count} positions met in random play: median "
        f"{1000 * statistics.median(times):.1f} ms, p99 {1000 * quantile(times, 0.99):.1f} ms, "
        f"max {1000 * max(times):.1f} ms; within 0.3 s: {100 * within:.1f} %"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="numbered deals 1..N per preset")
    parser.add_argument("--optimal", type=int, default=150, help="open-stock decks for optimal")
    parser.add_argument("--hints", type=int, default=200, help="positions for fair hints")
    parser.add_argument("--limit", type=float, default=5.0, help="seconds per deal")
    args = parser.parse_args()
    print(
        f"{'rules / deals':<44} {'decided':>8} {'median':>8} {'p90':>8} {'p99':>8} {'max':>8}"
        f" {'nodes/s':>10} {'peak MiB':>8}   (times in ms)"
    )
    for name in PRESETS:
        rules = Rules.parse(name)
        run(
            f"{name} #1-{args.deals}",
            [Game.deal(n, rules) for n in range(1, args.deals + 1)],
            args.limit,
        )
    for deck in ("open-stock.jsonl", "one-pass.jsonl"):
        games = reference(deck)
        if games:
            run(f"reference {deck} ({games[0].rules.name})", games, args.limit)
    optimal(args.optimal, 60.0)
    hints(args.hints)


if __name__ == "__main__":
    main()
