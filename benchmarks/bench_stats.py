"""Winnability statistics: a local process pool against a dask cluster on the same deals.

    python benchmarks/bench_stats.py [--deals N] [--rules NAME] [--workers W] [--limit S]
                                     [--repeat R] [--in-process]

Counts deals 1..N (2000 by default, classic rules, 5 s per deal) with `winnability` on a pool
of W worker processes (2 by default: the pool it makes when given no executor) and on a dask
`LocalCluster` of W single-threaded worker processes, through a `Client`; with --in-process
also one by one in this process. Prints, for each run, the wall time (the local pool's start
included, as a caller meets it; the cluster's start printed apart, as a cluster outlives a
run), the deals per second, the CPU time the solving processes spent per deal (the workers'
own, so a machine busy with other work changes it less than the wall time; dask's workers'
include their own upkeep), whether the verdicts agree with the first run's, and the load
average when it started; then the medians. The runs alternate R times (2 by default,
in turn A B then B A), so load from elsewhere on the machine shows as spread, not as bias.
Without dask installed (`pip install 'pyramid-widget[distributed]'`), only the pool runs.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import tempfile
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from pyramid_widget import winnability
from pyramid_widget.solver.pools import InlineExecutor


def verdicts(result) -> tuple:
    return result.winnable, result.unwinnable, sorted(result.undecided, key=str)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="numbered deals 1..N")
    parser.add_argument("--rules", default="classic", help="a preset or e.g. classic,passes=1")
    parser.add_argument("--workers", type=int, default=2, help="processes, for each side")
    parser.add_argument("--limit", type=float, default=5.0, help="seconds per deal")
    parser.add_argument("--repeat", type=int, default=2, help="rounds of every run")
    parser.add_argument("--in-process", action="store_true", help="also solve in this process")
    args = parser.parse_args()
    deals = range(1, args.deals + 1)
    runs: dict[str, Run] = {
        f"process pool ({args.workers})": Run(
            lambda: winnability(
                deals, args.rules, time_limit=args.limit, workers=args.workers, progress=None
            ),
            children_cpu,  # the pool's workers are ended, and so counted, when a run is done
        )
    }
    if args.in_process:
        runs["in this process"] = Run(
            lambda: winnability(
                deals, args.rules, time_limit=args.limit, executor=InlineExecutor(), progress=None
            ),
            own_cpu,
        )
    print(f"{args.rules}, deals 1-{args.deals}, {args.limit:g} s per deal")
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError:
        print("dask is not installed: the process pool only")
        measure(runs, args.repeat, len(deals))
        return
    with tempfile.TemporaryDirectory(prefix="bench-dask-") as scratch:
        dask.config.set({"temporary-directory": scratch})
        started = time.perf_counter()
        cluster = LocalCluster(
            n_workers=args.workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            scheduler_kwargs={"dashboard_address": ":0"},
            local_directory=scratch,
        )
        client = Client(cluster)
        print(
            f"dask LocalCluster of {args.workers} started in {time.perf_counter() - started:.2f} s"
        )
        try:
            runs[f"dask Client ({args.workers})"] = Run(
                lambda: winnability(
                    deals, args.rules, time_limit=args.limit, executor=client, progress=None
                ),
                lambda: sum(client.run(own_cpu).values()),  # the workers, as they run on
            )
            measure(runs, args.repeat, len(deals))
        finally:
            client.close()
            cluster.close()


class Run(NamedTuple):
    count: Callable[[], Any]
    cpu: Callable[[], float]  # CPU seconds so far of whoever solves


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(runs: dict[str, Run], repeat: int, count: int) -> None:
    first = None
    seconds: dict[str, list[float]] = {label: [] for label in runs}
    cpu: dict[str, list[float]] = {label: [] for label in runs}
    for round_ in range(1, repeat + 1):
        order = list(runs) if round_ % 2 else list(reversed(runs))  # A B, then B A: fairer
        for label in order:
            load = os.getloadavg()[0]
            cpu_before, started = runs[label].cpu(), time.perf_counter()
            result = runs[label].count()
            spent = time.perf_counter() - started
            used = runs[label].cpu() - cpu_before
            seconds[label].append(spent)
            cpu[label].append(used)
            first = first or result
            print(
                f"round {round_}  {label:<20} {spent:7.2f} s  {count / spent:7.1f} deals/s  "
                f"{1000 * used / count:5.1f} ms CPU/deal  "
                f"{result.winnable} winnable, {result.unwinnable} not, {result.unknown} undecided"
                f"  ({agreement(result, first)}; load {load:.1f})"
            )
    for label, spent in seconds.items():
        middle = statistics.median(spent)
        print(
            f"median   {label:<20} {middle:7.2f} s  {count / middle:7.1f} deals/s  "
            f"{1000 * statistics.median(cpu[label]) / count:5.1f} ms CPU/deal"
        )


def agreement(result, first) -> str:
    """Whether two runs' verdicts agree, as far as counts can tell. The time limit is
    wall-clock, so on a loaded machine a hard deal may run out of time in one run and not in
    another: runs agree if one decided every deal the other did, with counts no lower."""
    if verdicts(result) == verdicts(first):
        return "same verdicts"
    for more, less in ((result, first), (first, result)):
        if (
            set(more.undecided) <= set(less.undecided)
            and more.winnable >= less.winnable
            and more.unwinnable >= less.unwinnable
        ):
            extra = len(less.undecided) - len(more.undecided)
            return f"same verdicts where both decided; {extra} more decided in one"
    return "other deals ran out of time in each run"


if __name__ == "__main__":
    main()
