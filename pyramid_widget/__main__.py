"""The command line: `python -m pyramid_widget solve ...` and `python -m pyramid_widget stats ...`.

    solve --layout "<52 cards>" | --deal N  [--rules NAME] [--optimal] [--time-limit S] [--json]
    stats --deals A-B [--rules NAME] [--jobs N | --scheduler ADDRESS] [--time-limit S]
          [--progress | --no-progress] [--json]

`stats` solves on a local process pool (`--jobs` processes, all cores by default) or on a dask
cluster (`--scheduler tcp://host:8786`, with `pyramid-widget[distributed]` installed here and
pyramid-widget on the workers). Its progress (deals done, rate, time left) goes to stderr: a
bar redrawn in place when stderr is a terminal; `--progress` also writes it where stderr is
not a terminal (a line every 10 s), `--no-progress` never. Ctrl+C stops the run: the deals
decided so far are printed as usual, marked interrupted (with `--json`, "not_tried" names the
deals left as ranges, "2901-3000", as --deals takes them), and the exit status is 130.

Bad input (an unknown rules name, a malformed layout, a bad range, a deal number out of
range, a time limit that is not a positive number, a scheduler that cannot be reached, dask
not installed for `--scheduler`) gets a one-line message on stderr and exit status 2; an
undecided solve exits 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from .cli import INTERRUPTED, BadInput, Parser, from_one_up, run
from .deals import MAX_DEAL, read_deal_number
from .game import Game
from .rules import Rules
from .words import quoted


def _rules(text: str) -> Rules:
    try:
        return Rules.parse(text)
    except ValueError as error:
        raise BadInput(str(error)) from None


def _deal(text: str) -> int:
    try:
        return read_deal_number(text.strip())
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _deal_range(text: str) -> range:
    first, sep, last = text.partition("-")
    try:
        a, b = _deal(first), _deal(last if sep else first)
    except argparse.ArgumentTypeError:
        a = b = 0
    if not 1 <= a <= b:
        raise BadInput(
            f"--deals takes a range like 1-1000, A-B with 1 <= A <= B <= {MAX_DEAL}, "
            f"not {quoted(text)}"
        )
    return range(a, b + 1)


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {quoted(text)}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {quoted(text)}")
    return value


def _parser() -> Parser:
    parser = Parser(prog="python -m pyramid_widget", description="Pyramid Solitaire tools.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    solve = commands.add_parser("solve", help="decide a deal and print a winning line")
    deal = solve.add_mutually_exclusive_group(required=True)
    deal.add_argument("--layout", help="52 cards: the pyramid rows (1-28), then the stock")
    deal.add_argument("--deal", type=_deal, help="a numbered deal")
    solve.add_argument("--rules", default="classic", help="a preset or e.g. classic,passes=1")
    solve.add_argument("--optimal", action="store_true", help="find a shortest win")
    solve.add_argument("--time-limit", type=_positive, default=None, help="seconds (no limit)")
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    stats = commands.add_parser("stats", help="winnability over a range of numbered deals")
    stats.add_argument("--deals", required=True, help="a range of deal numbers, e.g. 1-1000")
    stats.add_argument("--rules", default="classic", help="a preset or e.g. classic,passes=1")
    where = stats.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=from_one_up, help="worker processes (all cores)")
    where.add_argument("--scheduler", help="a dask scheduler's address, e.g. tcp://host:8786")
    stats.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress on stderr (default: a bar when stderr is a terminal)",
    )
    stats.add_argument("--time-limit", type=_positive, default=5.0, help="seconds per deal")
    stats.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def _solve(args: argparse.Namespace) -> int:
    from .solver import solve

    rules = _rules(args.rules)
    try:
        game = (
            Game.from_layout(args.layout, rules)
            if args.layout is not None
            else Game.deal(args.deal, rules)
        )
    except ValueError as error:
        raise BadInput(str(error)) from None
    solution = solve(game, time_limit=args.time_limit, optimal=args.optimal)
    if args.json:
        print(
            json.dumps(
                {
                    "rules": rules.name,
                    "layout": game.layout,
                    "status": solution.status,
                    "moves": list(solution.moves),
                    "move_count": len(solution.moves),
                    "optimal": solution.optimal,
                    "nodes": solution.nodes,
                    "seconds": round(solution.seconds, 6),
                }
            )
        )
    else:
        print(
            f"{solution.status} ({rules.name}) in {solution.seconds:.3f} s, {solution.nodes} nodes"
        )
        if solution.moves:
            shortest = "shortest win" if solution.optimal else "a win"
            print(f"{shortest} in {len(solution.moves)} moves:")
            print(" ".join(solution.moves))
    return 1 if solution.status == "unknown" else 0


def _stats(args: argparse.Namespace) -> int:
    from .solver import winnability
    from .solver.chunked import DealsLeft

    rules = _rules(args.rules)
    deals = _deal_range(args.deals)
    progress = "auto" if args.progress is None else args.progress
    if args.scheduler is None:
        result = winnability(
            deals, rules, time_limit=args.time_limit, workers=args.jobs, progress=progress
        )
    else:
        with _dask_client(args.scheduler) as client:
            result = winnability(
                deals, rules, time_limit=args.time_limit, executor=client, progress=progress
            )
    if args.json:
        # The deals not tried as ranges ("2901-3000"), as --deals takes them: a run of a
        # billion deals stopped early stays a line.
        not_tried = DealsLeft(result.not_tried).spans()
        print(json.dumps({**result.to_dict(), "not_tried": not_tried}))
    else:
        print(result)
    return INTERRUPTED if result.interrupted else 0


def _dask_client(address: str) -> Any:
    """A dask Client connected to ``address``. How long it tries is dask's own setting
    (``distributed.comm.timeouts.connect``, 30 s unless configured)."""
    try:
        from distributed import Client
    except ImportError:
        raise BadInput(
            "--scheduler needs dask: pip install 'pyramid-widget[distributed]'"
        ) from None
    try:
        return Client(address)
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        reason = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise BadInput(f"cannot reach the dask scheduler at {address}: {reason}") from None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    return run(_parser(), _command, argv)


def _command(args: argparse.Namespace) -> int:
    return _solve(args) if args.command == "solve" else _stats(args)


if __name__ == "__main__":
    sys.exit(main())
