"""Two versions of the solver side by side: the same deals, taken in turn, CPU time per deal.

    python benchmarks/side_by_side.py BEFORE AFTER [--rules R] [--deals N]
                                      [--slowest K --from FILE] [--limit S]
    python benchmarks/side_by_side.py BEFORE AFTER --optimal K [--limit S]

BEFORE and AFTER are source trees holding ``pyramid_widget/`` (a checkout of ``main`` made with
``git worktree add``, and this one). The machine's speed drifts within minutes (`bench_solver.py`
prints its drift), so two runs one after the other cannot tell a small change from the machine's.
Here each tree runs in a process of its own, and the two are given each deal in turn, the first of
them alternating from deal to deal, so that drift falls on both alike. The deals are 1..N (400
unless given), or the K slowest of one rule setting in a file that ``bench_solver.py --save`` wrote
(where a tail lives: p99 over 10,000 deals is the 100th slowest). With ``--optimal K``, the first K
open-stock reference decks instead, each asked for a shortest win (``optimal=True``), as
`bench_solver.py` times them.

Per tree: the total CPU time, the median, the 100th slowest (when there are 100 deals or more)
and the slowest, the nodes searched, and on how many deals it was the faster; then every deal
whose verdict differs between the two, with exit status 1 if one does: a change of speed is
only worth measuring where the answers are the same. A shortest win's verdict is its length too
(any shortest line will do, but they are all as long).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import statistics
import subprocess
import sys
import time
from pathlib import Path

RANK = 100  # the k-th slowest deal printed (p99 of 10,000 deals)
# (Its own path, not bench_solver.py's: that script imports pyramid_widget when loaded, and a
# worker must import the package of its own tree only.)
DECKS = Path(__file__).resolve().parents[1] / "tests" / "data" / "decks" / "open-stock.jsonl"


def positive(text: str) -> int:
    """An argument that counts deals: a whole number, 1 or more."""
    number = int(text)
    if number < 1:
        raise argparse.ArgumentTypeError(f"{text} deals: give 1 or more")
    return number


def reference_decks() -> list[dict]:
    """The open-stock reference decks' rows (index, layout, rules, verdict, ...)."""
    return [json.loads(line) for line in DECKS.read_text().splitlines()]


def unit(rules: str | None) -> str:
    """What one of the deals is called: a numbered deal, or (no ``rules``) a reference deck."""
    return "deal" if rules is not None else "deck"


def worker(tree: Path, rules: str | None, limit: float) -> None:
    """Solve the deals read from stdin, one per line, with the tree's solver; a line of JSON
    per deal on stdout. With no ``rules`` each line is an open-stock reference deck instead,
    asked for a shortest win."""
    sys.path.insert(0, str(tree))
    import pyramid_widget
    from pyramid_widget import Game, Rules, solve

    if not Path(pyramid_widget.__file__).resolve().is_relative_to(tree):
        raise SystemExit(f"{tree} has no pyramid_widget/ (found {pyramid_widget.__file__})")
    optimal = rules is None
    if optimal:
        layouts = {row["index"]: (row["layout"], row["rules"]) for row in reference_decks()}

        def new_game(number: int) -> Game:
            return Game.from_layout(*layouts[number])
    else:
        try:
            setting = Rules.parse(rules)
        except ValueError as error:
            raise SystemExit(f"{tree}: {error}") from None

        def new_game(number: int) -> Game:
            return Game.deal(number, setting)

    for line in sys.stdin:
        game = new_game(int(line))
        started = time.process_time()
        solution = solve(game, time_limit=limit, optimal=optimal)
        spent = time.process_time() - started
        record = {"status": solution.status, "nodes": solution.nodes, "seconds": spent}
        if optimal:
            record["moves"] = len(solution.moves)
        print(json.dumps(record), flush=True)


def slowest(path: Path, rules: str, count: int) -> list[int]:
    """The ``count`` slowest deals of one rule setting in a file of `bench_solver.py --save`;
    a file that is not one (a damaged row, a missing field) stops the run and says where."""
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as error:
        raise SystemExit(f"{path}: cannot be read ({error})") from None
    mine: list[tuple[float, int]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            label, deal, seconds = row["set"], row["deal"], row["seconds"]
            if not (
                isinstance(label, str)
                and type(deal) is int
                and deal >= 1
                and type(seconds) in (int, float)
                and math.isfinite(seconds)
                and seconds >= 0
            ):
                raise ValueError
        except (ValueError, KeyError, TypeError):
            raise SystemExit(
                f"{path}, line {number}: not a row of bench_solver.py --save"
            ) from None
        if label.split(" #")[0] == rules:
            mine.append((seconds, deal))
    if not mine:
        raise SystemExit(f"{path} has no deals of {rules!r}")
    mine.sort(reverse=True)
    return [deal for _, deal in mine[:count]]


def side_by_side(
    trees: list[Path], deals: list[int], rules: str | None, limit: float
) -> list[list]:
    """Each deal solved by both trees, in turn; per tree, its records in the order of deals.
    With no ``rules`` the deals are open-stock reference decks, asked for shortest wins."""
    what = ["--rules", rules] if rules is not None else ["--optimal", str(len(deals))]
    command = [sys.executable, str(Path(__file__).resolve()), *what, "--limit", str(limit)]
    workers = [
        subprocess.Popen(
            [*command, "--worker", str(tree)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for tree in trees
    ]
    records: list[list] = [[], []]
    try:
        for n, deal in enumerate(deals):
            for side in (0, 1) if n % 2 == 0 else (1, 0):
                process = workers[side]
                assert process.stdin is not None and process.stdout is not None
                try:
                    process.stdin.write(f"{deal}\n")
                    process.stdin.flush()
                    line = process.stdout.readline()
                except BrokenPipeError:
                    line = ""
                if not line:
                    raise SystemExit(f"the solver of {trees[side]} stopped at {unit(rules)} {deal}")
                records[side].append(json.loads(line))
    finally:
        for process in workers:
            with contextlib.suppress(BrokenPipeError):
                process.stdin.close()  # type: ignore[union-attr]
            process.wait()
    return records


def verdict(record: dict) -> str:
    """A record's answer in words: its status, and a shortest win's length."""
    if "moves" in record and record["status"] == "winnable":
        return f"winnable in {record['moves']} moves"
    return record["status"]


def report(trees: list[Path], deals: list[int], records: list[list], name: str) -> int:
    """Print the figures; the number of deals (``name``, `unit`) whose verdicts differ."""
    times = [[record["seconds"] for record in side] for side in records]
    faster = [
        sum(a < b for a, b in zip(times[0], times[1], strict=True)),
        sum(b < a for a, b in zip(times[0], times[1], strict=True)),
    ]
    ranked = len(deals) >= RANK  # (a column of its own only then)
    header = f"{f'{RANK}th slowest':>14}" if ranked else ""
    print(f"{'tree':<40}{'total s':>9}{'median':>9}{header}{'max':>9}{'nodes':>12}  faster on")
    for side, tree in enumerate(trees):
        ordered = sorted(times[side], reverse=True)
        rank = f"{1000 * ordered[RANK - 1]:14.1f}" if ranked else ""
        nodes = sum(record["nodes"] for record in records[side])
        print(
            f"{tree!s:<40}{sum(ordered):9.2f}{1000 * statistics.median(ordered):9.1f}{rank}"
            f"{1000 * ordered[0]:9.1f}{nodes:12d}  {faster[side]} of {len(deals)}"
        )
    differ = [
        (deal, verdict(a), verdict(b))
        for deal, a, b in zip(deals, records[0], records[1], strict=True)
        if verdict(a) != verdict(b)
    ]
    if differ:
        for deal, a, b in differ:
            print(f"{name} {deal}: {a} before, {b} after")
    else:
        print(f"verdicts: the same on all {len(deals)} {name}s")
    return len(differ)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="*", type=Path, help="BEFORE AFTER: source trees")
    parser.add_argument("--rules", help="a rule setting (Rules.parse; one-recycle unless given)")
    parser.add_argument("--deals", type=positive, default=None, help="numbered deals 1..N")
    parser.add_argument("--slowest", type=positive, default=None, help="the K slowest of --from")
    parser.add_argument("--from", dest="saved", type=Path, help="a bench_solver.py --save file")
    parser.add_argument("--optimal", type=positive, default=None, help="open-stock decks, optimal")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per deal at most")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    rules = None if args.optimal is not None else args.rules or "one-recycle"
    if args.worker is not None:
        worker(args.worker.resolve(), rules, args.limit)
        return
    if len(args.trees) != 2:
        parser.error("give two source trees: BEFORE AFTER")
    if (args.slowest is None) != (args.saved is None):
        parser.error("--slowest and --from go together")
    if args.optimal is not None and (args.rules or args.deals or args.slowest):
        parser.error(
            "--optimal takes the reference decks with their own rules: no --rules, "
            "--deals or --slowest"
        )
    trees = [tree.resolve() for tree in args.trees]
    for tree in trees:
        if not (tree / "pyramid_widget" / "__init__.py").is_file():
            parser.error(f"{tree} has no pyramid_widget/ (give a checkout's top folder)")
    if args.optimal is not None:
        deals = [row["index"] for row in reference_decks()[: args.optimal]]
        print(
            f"optimal=True, the first {len(deals)} open-stock reference decks, each solved by "
            "both in turn (CPU ms per deck)"
        )
    else:
        if args.slowest is not None:
            deals = slowest(args.saved, rules, args.slowest)
            what = f"the {len(deals)} slowest of {args.saved}"
        else:
            deals = list(range(1, (args.deals or 400) + 1))
            what = f"deals 1-{len(deals)}"
        print(f"{rules}, {what}, each solved by both in turn (CPU ms per deal)")
    differ = report(trees, deals, side_by_side(trees, deals, rules, args.limit), unit(rules))
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
