"""The puzzle command line: remake the shipped set, or check it.

    python -m pyramid_widget.puzzles mine [--rules NAME ...] [--count N] [--out DIR] [--jobs N]
                                          [--no-verify]
    python -m pyramid_widget.puzzles verify [--rules NAME ...] [--dir DIR] [--no-fairness]

``mine`` mines each preset's deals in order from its first deal (`PLAN`) until ``--count``
puzzles are found (200 by default), writes them to ``DIR/<preset>.jsonl`` (the package's own
data folder by default), checks each with the solver (`verify`), and prints how long it took,
puzzles per CPU-minute, and the spread of themes and difficulties. The same command always
gives the same files. ``verify`` runs that check on files already written (every file is read
before any is checked). Exit status 1 if a check finds a problem; bad input (an unknown option
or value, a folder or file that cannot be read or written, a file that is no puzzle file) gets
one line on stderr and status 2, as every command line of the package (`cli`).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..cli import BadInput, Parser, from_one_up, run
from ..deals import MAX_DEAL
from .collection import PuzzleSet, order, read_puzzles, write_puzzles
from .mining import DealMined, MineOptions, mine
from .puzzle import Puzzle
from .verify import problems

DATA = Path(__file__).resolve().parent / "data"


@dataclass(frozen=True)
class Plan:
    """How one preset's shipped set is mined: from which deal, with which options."""

    first: int = 1
    options: MineOptions = field(default_factory=MineOptions)


PLAN: dict[str, Plan] = {
    "classic": Plan(),
    # Scoring changes no move, so scored puzzles are classic puzzles with points: they come
    # from other deals than classic's, so that the two sets hold different positions.
    "scored": Plan(first=100_001),
    "open-stock": Plan(),
    "one-recycle": Plan(),
    # One pass: few deals are winnable and most positions hide many stock cards, so each
    # winnable deal is played by more players, keeps more puzzles, and up to 6 unseen cards
    # are tried in every order (at most 720 orders).
    "strict": Plan(options=MineOptions(player_lines=8, per_deal=10, max_unseen=6)),
}


@dataclass
class _Tally:
    deals: int = 0
    winnable: int = 0
    positions: int = 0
    undecided: int = 0
    cpu: float = 0.0
    last: int = 0

    def add(self, result: DealMined) -> None:
        self.deals += 1
        self.winnable += bool(result.winnable)
        self.positions += result.positions
        self.undecided += result.undecided
        self.cpu += result.cpu_seconds
        self.last = result.deal
        if self.deals % 250 == 0:
            print(f"  ... deal {result.deal}", file=sys.stderr, flush=True)


def _spread(counts: Counter[str]) -> str:
    return ", ".join(f"{key} {n}" for key, n in counts.most_common())


def _check(puzzles: Sequence, *, fairness: bool) -> int:
    started = time.perf_counter()
    found = [problem for puzzle in puzzles for problem in problems(puzzle, fairness=fairness)]
    for problem in found:
        print(f"  PROBLEM {problem}")
    seconds = time.perf_counter() - started
    print(f"  verified {len(puzzles)} puzzles with the solver: {len(found)} problems "
          f"({seconds:.1f} s)")  # fmt: skip
    return len(found)


def _mine(preset: str, count: int, out: Path, executor: Executor | None, verify: bool) -> int:
    plan = PLAN[preset]
    tally = _Tally()
    wall, cpu = time.perf_counter(), time.process_time()
    puzzles = mine(
        range(plan.first, MAX_DEAL),
        preset,
        executor=executor,
        count=count,
        on_deal=tally.add,
        **asdict(plan.options),
    )
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    cpu = max(cpu, tally.cpu)  # with a process pool the work is done in the workers
    shipped = PuzzleSet(order(puzzles))
    path = out / f"{preset}.jsonl"
    try:
        write_puzzles(path, shipped)
    except OSError as error:  # the folder was writable when the mining began
        raise BadInput(f"cannot write {path}: {error.strerror or error}") from None
    rate = len(shipped) / (cpu / 60) if cpu else float("inf")
    print(
        f"{preset}: {len(shipped)} puzzles from deals {plan.first}-{tally.last} "
        f"({tally.winnable} of {tally.deals} winnable, {tally.positions} positions looked at); "
        f"{cpu:.1f} s CPU, {wall:.1f} s wall: {rate:.1f} puzzles per CPU-minute; "
        f"{tally.undecided} solves out of time"
    )
    print(f"  themes: {_spread(shipped.themes())}")
    print(f"  difficulty: {_spread(shipped.difficulties())}")
    return _check(shipped, fairness=True) if verify else 0


def _verify(args: argparse.Namespace) -> int:
    read = {preset: _read(args.dir / f"{preset}.jsonl") for preset in args.rules}
    found = 0
    for preset, puzzles in read.items():
        print(f"{preset}: {len(puzzles)} puzzles")
        found += _check(puzzles, fairness=not args.no_fairness)
    return 1 if found else 0


def _read(path: Path) -> list[Puzzle]:
    try:
        return read_puzzles(path)
    except OSError as error:
        raise BadInput(f"cannot read {path}: {error.strerror or error}") from None


def _mine_all(args: argparse.Namespace) -> int:
    out = _writable(args.out)
    found = 0
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        for preset in args.rules:
            found += _mine(preset, args.count, out, pool, not args.no_verify)
    finally:
        if pool is not None:
            pool.shutdown()
    return 1 if found else 0


def _writable(folder: Path) -> Path:
    """`folder`, made if need be, once a file could be written in it: checked before the
    mining, which takes long, rather than after it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise BadInput(f"cannot write puzzles to {folder}: {error.strerror or error}") from None
    return folder


def _parser() -> Parser:
    parser = Parser(prog="python -m pyramid_widget.puzzles")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    mine_cmd = commands.add_parser("mine", help="remake the shipped puzzles")
    verify_cmd = commands.add_parser("verify", help="check puzzle files with the solver")
    for command in (mine_cmd, verify_cmd):
        command.add_argument("--rules", nargs="+", choices=list(PLAN), default=list(PLAN))
    mine_cmd.add_argument("--count", type=from_one_up, default=200)
    mine_cmd.add_argument("--out", type=Path, default=DATA)
    mine_cmd.add_argument("--jobs", type=from_one_up, default=1)
    mine_cmd.add_argument("--no-verify", action="store_true")
    verify_cmd.add_argument("--dir", type=Path, default=DATA)
    verify_cmd.add_argument("--no-fairness", action="store_true")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the puzzle command line; returns the exit status."""
    return run(_parser(), _command, argv)


def _command(args: argparse.Namespace) -> int:
    return _verify(args) if args.command == "verify" else _mine_all(args)


if __name__ == "__main__":
    sys.exit(main())
