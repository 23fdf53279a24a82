"""The strategy lab: how long `evaluate` takes, and the built-in players' table.

    python benchmarks/bench_lab.py [--quick] [--deals N] [--rules A;B] [--fair-deals F]
                                   [--workers W] [--no-table]

First `evaluate` of greedy on classic deals 1..N (default 10,000; ``--quick``: 500) in this
one process (one core), twice: with no verdict kept yet (a fresh verdicts file, so every deal
is solved too) and again with the verdicts kept, which is what a second strategy on the same
deals pays. Each run prints its wall time and its CPU time (``time.process_time``: other load
on a shared machine counts little in it), and how much of it was the strategy's own play.

Then, unless ``--no-table``, the built-in players on deals 1..N of each rule setting (default
classic, one-recycle and strict) on W worker processes (all cores by default): win rate and
efficiency with their 95 % intervals, cards cleared, moves and time per game; the fair hint,
strong and slow, on deals 1..F only (default 1,000). Last, the same as a Markdown table for
the README. The time of a fixed workload (`bench_solver.machine_speed`) is printed at the start
and the end, to tell the machine's drift from the code's change.

Goal (one core, pure CPython): greedy on classic deals 1-10,000 in under 60 s once the
verdicts are kept.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from bench_solver import conditions

from pyramid_widget.lab import PLAYERS, Comparison, Scorecard, compare, evaluate, greedy
from pyramid_widget.lab.scorecard import share
from pyramid_widget.solver.pools import InlineExecutor

TABLE_RULES = "classic;one-recycle;strict"


def timed(deals: range, cache: Path, label: str) -> Scorecard:
    """Greedy on classic `deals` in this process; prints the wall and CPU seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    card = evaluate(greedy, "classic", deals, executor=InlineExecutor(), progress=None, cache=cache)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    play = (card.seconds_per_game or 0) * card.games
    print(
        f"greedy, classic #1-{len(deals)}, {label}: {wall:.1f} s wall, {cpu:.1f} s CPU "
        f"({1000 * cpu / len(deals):.2f} ms a deal; the games themselves {play:.1f} s wall): "
        f"{card.wins} wins, {card.winnable} winnable"
    )
    return card


def table(rules: str, deals: int, fair_deals: int, workers: int | None, cache: Path) -> Comparison:
    """The built-in players on `rules`, the fair hint on fewer deals; prints the comparison."""
    players = {name: player for name, player in PLAYERS.items() if name != "fair_hint"}
    started = time.perf_counter()
    found = compare(
        players, rules, range(1, deals + 1), workers=workers, progress=None, cache=cache
    )
    cards = list(found.cards)
    if fair_deals:
        fair = evaluate(
            PLAYERS["fair_hint"],
            rules,
            range(1, fair_deals + 1),
            workers=workers,
            progress=None,
            cache=cache,
            name=f"fair_hint (#1-{fair_deals})",
        )
        cards.insert(-1, fair)  # before the all-seeing bound
    found = Comparison(found.rules, tuple(cards))
    print(f"\n{rules}, deals 1-{deals} ({time.perf_counter() - started:.0f} s):")
    print(found)
    return found


def markdown(tables: list[Comparison]) -> str:
    """The players' table as the README shows it: win rate and efficiency per rule setting."""
    head = "| player | " + " | ".join(f"`{t.rules}`: win rate / efficiency" for t in tables)
    lines = [head + " |", "| --- |" + " --- |" * len(tables)]
    for row, first in enumerate(tables[0].cards):
        cells = []
        for found in tables:
            card = found.cards[row]
            win = share(card.win_rate, card.interval)
            cells.append(f"{win} / {share(card.efficiency, None)}")
        lines.append(f"| {first.player} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="deals 1-500, the fair hint 1-100")
    parser.add_argument("--deals", type=int, default=None, help="numbered deals 1..N")
    parser.add_argument("--rules", default=TABLE_RULES, help="A;B: the table's rule names")
    parser.add_argument("--fair-deals", type=int, default=None, help="the fair hint's deals")
    parser.add_argument("--workers", type=int, default=None, help="processes for the table")
    parser.add_argument("--no-table", action="store_true", help="the timing only")
    args = parser.parse_args()
    deals = args.deals or (500 if args.quick else 10_000)
    fair_deals = args.fair_deals if args.fair_deals is not None else (100 if args.quick else 1000)
    conditions("start")
    with tempfile.TemporaryDirectory(prefix="bench-lab-") as folder:
        cache = Path(folder) / "verdicts.sqlite3"
        cold = timed(range(1, deals + 1), cache, "no verdict kept yet")
        warm = timed(range(1, deals + 1), cache, "the verdicts kept")
        assert warm == cold, "the figures differ between the two runs"
        if not args.no_table:
            rules = [name for name in args.rules.split(";") if name]
            tables = [
                table(name, deals, min(fair_deals, deals), args.workers, cache) for name in rules
            ]
            print()
            print(markdown(tables))
    print()
    conditions("end")


if __name__ == "__main__":
    main()
