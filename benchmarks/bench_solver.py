"""Solver speed: CPU time per deal for every preset, shortest wins, and fair-hint latency.

    python benchmarks/bench_solver.py [--quick] [--deals N] [--presets A;B] [--references N]
                                      [--optimal N] [--hints N] [--limit S] [--save FILE]

Per rule setting, over numbered deals 1..N (default 10,000; ``--quick``: 500, for a daily run):
the share decided, the winnable share with its 95 % Wilson interval, the median, 90th and 99th
percentile and maximum CPU time per deal (``time.process_time``, so other load on a shared
machine counts little), search nodes per CPU second, the peak memory of one solve (tracemalloc
on the slowest deals, solved again untimed: tracing slows the search) and the slowest deals;
the same for the reference decks (tests/data/decks; the first N of each file with
``--references N``). Then ``optimal=True`` over the open-stock reference decks, and fair hints
on positions met in seeded random play. At the start and the end, the time of a fixed workload
(`machine_speed`), to tell the machine's drift from the code's change.

Goals (issue 15, one core, pure CPython): every deal decided, median <= 2 ms, p99 <= 100 ms,
max <= 1 s per preset; shortest wins median <= 0.25 s, each one found; a fair hint p99 <= 100 ms;
one solve's peak memory <= 50 MiB.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
import tracemalloc
from pathlib import Path

from pyramid_widget import PRESETS, Game, Rules, hint, solve
from pyramid_widget.solver import wilson

DECKS = Path(__file__).resolve().parents[1] / "tests" / "data" / "decks"  # copy of shared/decks
RULE_SETTINGS = [*PRESETS, "classic,passes=1", "classic,passes=unlimited"]
MEMORY_DEALS = 3  # the slowest deals of each run whose peak memory is measured
MACHINE_RUNS = 9  # runs of `machine_speed`'s workload


def quantile(values: list[float], q: float) -> float:
    """The q-quantile by the nearest-rank rule (max for q = 1)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def peak_memory(game: Game, **kwargs) -> float:
    """MiB allocated at the peak while solving ``game`` (tracemalloc, untimed)."""
    tracemalloc.start()
    try:
        solve(game, **kwargs)
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def machine_speed() -> tuple[float, float]:
    """CPU seconds of a fixed pure-Python workload (integer and bit arithmetic, dict lookups,
    small tuples: the search's kind of work, none of the package's code): the least and the
    median of MACHINE_RUNS runs.

    A shared machine's speed drifts from one day to the next and within minutes, as it
    switches between a fast and a slow state. Printed at the start and at the end of a run,
    this says which one the run met, and so how much of a difference between two runs may be
    the machine's.
    """
    times = []
    for _ in range(MACHINE_RUNS):
        started = time.process_time()
        memo: dict[int, tuple[int, int]] = {}
        x = 1
        for i in range(100_000):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            if memo.get(x >> 12) is None:
                memo[x >> 12] = (i, x.bit_count())
        times.append(time.process_time() - started)
    return min(times), statistics.median(times)


def conditions(when: str) -> None:
    """Print the load average and `machine_speed`, at the "start" or the "end" of a run."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average at the {when}: {load:.2f} on {os.cpu_count()} cores")
    least, median = machine_speed()
    print(
        f"machine: a fixed pure-Python workload in {1000 * least:.1f} ms at best, "
        f"{1000 * median:.1f} ms at the median of {MACHINE_RUNS} (lower: faster)"
    )


def ms(seconds: float) -> str:
    return f"{1000 * seconds:8.1f}"


def run(label: str, games: list[tuple[object, Game]], limit: float, save) -> None:
    """Solve every game, print one line of figures and the slowest deals."""
    rows = []
    for name, game in games:
        started = time.process_time()
        solution = solve(game, time_limit=limit)
        spent = time.process_time() - started
        rows.append((spent, name, solution.status, solution.nodes, game))
        if save is not None:
            record = {"set": label, "deal": name, "status": solution.status}
            record.update(seconds=round(spent, 6), nodes=solution.nodes)
            save.write(json.dumps(record) + "\n")
    times = [row[0] for row in rows]
    decided = sum(row[2] != "unknown" for row in rows)
    won = sum(row[2] == "winnable" for row in rows)
    rate = wilson(won, decided)
    share = f"{100 * won / decided:5.1f} % ({100 * rate[0]:.1f}-{100 * rate[1]:.1f})"
    slowest = sorted(rows, key=lambda row: row[0], reverse=True)[:MEMORY_DEALS]
    memory = max(peak_memory(row[4]) for row in slowest)
    rate_nodes = sum(row[3] for row in rows) / (sum(times) or 1e-9)
    print(
        f"{label:<38} {100 * decided / len(rows):6.2f} % {share:>22}"
        f"{ms(statistics.median(times))}{ms(quantile(times, 0.9))}{ms(quantile(times, 0.99))}"
        f"{ms(max(times))} {rate_nodes:9.0f} {memory:7.1f}",
        flush=True,
    )
    worst = ", ".join(f"{row[1]} ({1000 * row[0]:.0f} ms, {row[2]})" for row in slowest)
    print(f"{'':<40}slowest: {worst}", flush=True)


def reference_decks(name: str) -> list[dict]:
    """The rows of one reference deck file (index, layout, rules, verdict, ...)."""
    path = DECKS / name
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def reference(name: str, count: int | None) -> list[tuple[object, Game]]:
    """The first ``count`` (None: all) decks of a reference file, as (index, game)."""
    return [
        (row["index"], Game.from_layout(row["layout"], Rules.parse(row["rules"])))
        for row in reference_decks(name)[:count]
    ]


def optimal(count: int, limit: float) -> None:
    """Shortest wins on the open-stock reference decks: CPU time and agreement."""
    rows = reference_decks("open-stock.jsonl")
    times, agree, winnable, worst = [], 0, 0, None
    for row in rows[:count]:
        game = Game.from_layout(row["layout"], Rules.parse(row["rules"]))
        started = time.process_time()
        solution = solve(game, optimal=True, time_limit=limit)
        spent = time.process_time() - started
        times.append(spent)
        if row["verdict"] == "winnable":
            winnable += 1
            agree += solution.optimal and len(solution.moves) == row["optimal_moves"]
        if worst is None or spent > worst[0]:
            worst = (spent, row["index"], game)
    memory = peak_memory(worst[2], optimal=True)
    print(
        f"\noptimal=True on {len(times)} open-stock reference decks: median "
        f"{statistics.median(times):.3f} s, p90 {quantile(times, 0.9):.3f} s, p99 "
        f"{quantile(times, 0.99):.3f} s, max {max(times):.3f} s (deck {worst[1]}), peak "
        f"{memory:.1f} MiB; shortest wins found with the reference's length: {agree} of "
        f"{winnable}",
        flush=True,
    )


def hint_positions(count: int, seed: int = 2026) -> list[Game]:
    """``count`` positions met in seeded random play, the presets in turn."""
    rng = random.Random(seed)
    games = []
    for n in range(count):
        game = Game.deal(rng.randrange(1, 10**6), RULE_SETTINGS[n % len(RULE_SETTINGS)])
        for _ in range(rng.randrange(0, 40)):
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
        games.append(game)
    return games


def hints(count: int) -> None:
    """Fair hints (the default time limit) on positions met in random play: CPU time."""
    times = []
    for game in hint_positions(count):
        started = time.process_time()
        hint(game, fair=True)
        times.append(time.process_time() - started)
    print(
        f"\nfair hint on {count} positions met in random play: median "
        f"{1000 * statistics.median(times):.1f} ms, p90 {1000 * quantile(times, 0.9):.1f} ms, "
        f"p99 {1000 * quantile(times, 0.99):.1f} ms, max {1000 * max(times):.1f} ms",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="deals 1-500, fewer decks/hints")
    parser.add_argument("--deals", type=int, default=None, help="numbered deals 1..N per preset")
    parser.add_argument("--presets", default=";".join(RULE_SETTINGS), help="A;B: rule names")
    parser.add_argument("--references", type=int, default=None, help="decks per reference file")
    parser.add_argument("--optimal", type=int, default=None, help="open-stock decks, optimal")
    parser.add_argument("--hints", type=int, default=None, help="positions for fair hints")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per deal at most")
    parser.add_argument("--save", type=Path, default=None, help="write each deal's figures")
    args = parser.parse_args()
    deals = args.deals or (500 if args.quick else 10_000)
    decks = args.optimal if args.optimal is not None else (40 if args.quick else 150)
    positions = args.hints if args.hints is not None else (200 if args.quick else 1000)
    conditions("start")
    print(
        f"{'rules / deals':<38} {'decided':>8} {'winnable (95 % CI)':>22}{'median':>8}{'p90':>8}"
        f"{'p99':>8}{'max':>8} {'nodes/s':>9} {'peakMiB':>7}   (CPU ms)"
    )
    save = args.save.open("w") if args.save else None
    try:
        for name in filter(None, args.presets.split(";")):
            rules = Rules.parse(name)
            games = [(n, Game.deal(n, rules)) for n in range(1, deals + 1)]
            run(f"{name} #1-{deals}", games, args.limit, save)
        for deck in ("open-stock.jsonl", "one-pass.jsonl"):
            games = reference(deck, args.references)
            if games:  # (--references 0: none)
                run(f"ref {deck} ({games[0][1].rules.name})", games, args.limit, save)
    finally:
        if save is not None:
            save.close()
    if decks > 0:
        optimal(decks, 300.0)
    if positions > 0:
        hints(positions)
    print()
    conditions("end")


if __name__ == "__main__":
    main()
