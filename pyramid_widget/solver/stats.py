"""Winnable deals only, and winnability statistics over many deals on any executor."""

from __future__ import annotations

import math
import operator
import random
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..deals import MAX_DEAL, check_deal_number, parse_layout
from ..game import Game
from ..progress import ProgressOption, progress_display
from ..rules import Rules
from ..words import quoted
from .budget import nodes_for, seconds_limit
from .gc_pause import collector_paused
from .pools import Pool, pool_for
from .problem import Problem
from .search import SearchTimeout, Solver
from .solution import problem_from_game, solve


class WinnableDeal(tuple):
    """`deal_winnable`'s answer: unpacks as ``game, proven = deal_winnable(...)``; also
    ``.game``, ``.proven`` and ``.tries`` (deals tried)."""

    def __new__(cls, game: Game, proven: bool, tries: int = 1) -> WinnableDeal:
        deal = super().__new__(cls, (game, proven))
        deal.tries = tries
        return deal

    @property
    def game(self) -> Game:
        return self[0]

    @property
    def proven(self) -> bool:
        return self[1]

    def __repr__(self) -> str:
        return f"WinnableDeal(game={self.game!r}, proven={self.proven}, tries={self.tries})"


def deal_winnable(
    rules: Rules | str | None = None,
    *,
    seed: int | None = None,
    per_deal: float = 0.25,
    total: float = 4.0,
) -> WinnableDeal:
    """A numbered deal proven winnable, for "winnable deals only".

    Tries random numbered deals (from ``seed``; None for a fresh random seed), giving each
    ``per_deal`` seconds of search and all of them ``total`` seconds, and returns the first
    proven winnable with ``proven=True``. If none is proven in the budget, returns the last deal
    tried with ``proven=False``: it is never claimed winnable unless the solver found a win.
    The seconds are counted as search nodes (`budget.nodes_for`), so one seed always gives
    the same deal, on any machine.
    """
    per_deal = seconds_limit("per_deal", per_deal, unlimited=False)
    total = seconds_limit("total", total, unlimited=False)
    if not per_deal or not total:
        raise ValueError("per_deal and total must be more than 0 seconds")
    rules = Rules.coerce(rules)
    rng = random.Random(seed)
    per_deal_nodes = nodes_for(per_deal)
    left = nodes_for(total)
    tries = 0
    while True:
        tries += 1
        game = Game.deal(rng.randrange(1, MAX_DEAL + 1), rules)
        problem = problem_from_game(game)
        with collector_paused():  # the solver is gone before the collector is back (`gc_pause`)
            won, nodes = _try(problem, min(per_deal_nodes, left))
        left -= max(nodes, 1)
        if won:
            return WinnableDeal(game, True, tries)
        if left <= 0:
            return WinnableDeal(game, False, tries)


def _try(problem: Problem, node_limit: int) -> tuple[bool, int]:
    """Whether a win was found within ``node_limit`` nodes, and the nodes it took."""
    solver = Solver(problem)
    try:
        line = solver.solve(problem.start, node_limit=node_limit)
    except SearchTimeout:
        line = None
    return line is not None, solver.nodes


@dataclass(frozen=True)
class Winnability:
    """Counts over a set of deals under one set of rules.

    rate: winnable / decided deals (None if none was decided); low, high: its 95 % Wilson
    interval. undecided: the deals (numbers or layouts) the time limit left undecided.
    interrupted: the run was stopped (Ctrl+C, a kernel interrupt) before every deal was solved;
    the counts are then those of the deals decided by that moment, and not_tried holds the
    others in order (in flight or never sent; a `DealsLeft`), which count in none of them.
    """

    rules: str
    winnable: int
    unwinnable: int
    unknown: int
    seconds: float
    undecided: tuple[int | str, ...] = field(default=())
    interrupted: bool = False
    not_tried: Sequence[int | str] = field(default=())

    @property
    def deals(self) -> int:
        """The deals solved (decided or not); `not_tried` ones are not among them."""
        return self.winnable + self.unwinnable + self.unknown

    @property
    def decided(self) -> int:
        return self.winnable + self.unwinnable

    @property
    def rate(self) -> float | None:
        return self.winnable / self.decided if self.decided else None

    @property
    def interval(self) -> tuple[float, float] | None:
        """The 95 % Wilson score interval of the rate."""
        return wilson(self.winnable, self.decided)

    def to_dict(self) -> dict:
        interval = self.interval
        return {
            "rules": self.rules,
            "deals": self.deals,
            "winnable": self.winnable,
            "unwinnable": self.unwinnable,
            "unknown": self.unknown,
            "rate": self.rate,
            "low": interval[0] if interval else None,
            "high": interval[1] if interval else None,
            "seconds": self.seconds,
            "undecided": list(self.undecided),
            "interrupted": self.interrupted,
            "not_tried": list(self.not_tried),
        }

    def __str__(self) -> str:
        stopped = (
            f", interrupted with {len(self.not_tried)} deals not tried" if self.interrupted else ""
        )
        if self.rate is None:
            return f"{self.rules}: {self.deals} deals, none decided{stopped}"
        low, high = self.interval or (0.0, 0.0)
        return (
            f"{self.rules}: {self.winnable} of {self.decided} decided deals winnable "
            f"({100 * self.rate:.1f} %, 95 % interval {100 * low:.1f}-{100 * high:.1f} %), "
            f"{self.unknown} undecided, {self.seconds:.1f} s{stopped}"
        )


def wilson(successes: int, trials: int, z: float = 1.959963984540054) -> tuple[float, float] | None:
    """The Wilson score interval for a proportion (95 % by default)."""
    if trials <= 0:
        return None
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - spread)
    high = 1.0 if successes == trials else min(1.0, centre + spread)
    return low, high


def solve_chunk(
    deals: list[int | str], rules: str, time_limit: float | None
) -> tuple[int, int, list[int | str]]:
    """Solve some deals: (winnable, unwinnable, undecided deals). A top-level function of plain
    arguments, so any executor (a process pool, dask, ...) can run it."""
    parsed = Rules.parse(rules)
    winnable = unwinnable = 0
    undecided: list[int | str] = []
    for deal in deals:
        game = Game.deal(deal, parsed) if isinstance(deal, int) else Game.from_layout(deal, parsed)
        status = solve(game, time_limit=time_limit).status
        if status == "winnable":
            winnable += 1
        elif status == "unwinnable":
            unwinnable += 1
        else:
            undecided.append(deal)
    return winnable, unwinnable, undecided


IN_FLIGHT_PER_WORKER = 2
"""Chunks in flight for each worker: one running and one waiting, so none idles in between."""

CHUNK = 25
"""Deals in a chunk at most: enough to make a submit's cost small next to the solving."""


def winnability(
    deals: Iterable[int | str],
    rules: Rules | str | None = None,
    *,
    time_limit: float | None = 5.0,
    executor: Any = None,
    workers: int | None = None,
    chunk: int | None = None,
    progress: ProgressOption = "auto",
) -> Winnability:
    """Solve every deal (numbered deals or 52-card layouts) and count the verdicts.

    ``time_limit`` is per deal. Where the deals are solved:

    - ``executor=None``: a local process pool of ``workers`` processes (all cores by
      default), made for this call; where no process pool can be made or used (Pyodide, some
      sandboxes) the deals are solved one by one in this process, with the same answers.
    - any `concurrent.futures.Executor` (process or thread pool, ...): its ``_max_workers``
      tells how many chunks it runs at once, else ``workers``, else this machine's cores.
    - a dask ``distributed.Client`` (or its ``get_executor()``): the cluster's threads,
      read again as workers come and go, unless ``workers`` is given. Every chunk goes with
      ``pure=False``, so nothing is reused from an earlier call. The workers need
      pyramid-widget installed. dask is never imported by this package itself.

    Deals go out in chunks of at most ``chunk`` (smaller when there are few deals for the
    workers; one deal at a time in this process), two chunks in flight per worker, so a
    million deals keep every worker busy with little in memory. A ``range`` is checked by its
    ends; other deals are all checked before any is solved, so a bad one is refused at once.

    ``progress``: "auto" shows deals done, rate and time left where someone is watching (a
    widget bar in a notebook kernel, a bar on a terminal's stderr); True shows it anywhere (a
    line every few seconds on a stderr that is not a terminal); None or False shows nothing;
    a function is called as ``progress(done, total, rate, eta)`` (see `pyramid_widget.progress`).

    An interrupt (Ctrl+C, a kernel's stop button) ends the run early: outstanding chunks are
    cancelled (a pool made here is ended; a chunk already running on the caller's executor
    finishes there unseen) and the result counts the deals decided so far, with
    ``interrupted=True`` and the rest in ``not_tried``.

    >>> result = winnability([1, 2, 3], "classic", progress=None)
    >>> result.winnable, result.unwinnable, result.unknown, result.interrupted
    (2, 1, 0, False)
    """
    time_limit = seconds_limit("time_limit", time_limit, unlimited=True)
    rules = Rules.coerce(rules)
    deals = _checked(deals)
    workers, chunk = _count("workers", workers), _count("chunk", chunk)
    display = progress_display(progress, len(deals), rules.name)
    started = time.perf_counter()
    chunks: list[_Chunk] = []  # every chunk sent, in order
    running: dict[Any, _Chunk] = {}  # those not yet counted, by their handle
    pool: Pool | None = None
    finished = False
    done = 0  # deals counted, for the progress display
    try:
        if deals:
            pool = pool_for(executor, workers, len(deals))
            size = chunk or _chunk_size(len(deals), pool)
            while _sent(chunks) < len(deals) or running:
                while (
                    _sent(chunks) < len(deals)
                    and len(running) < IN_FLIGHT_PER_WORKER * pool.workers()
                ):
                    first = _sent(chunks)
                    part = list(deals[first : first + size])
                    sent = _Chunk(first, first + len(part))
                    sent.handle = pool.submit(solve_chunk, part, rules.name, time_limit)
                    chunks.append(sent)
                    running[sent.handle] = sent
                for handle in pool.wait(running):
                    done += _count_in(running, handle, pool)
                    if display is not None:
                        display.update(*_progress(done, len(deals), started))
        finished = True
    except KeyboardInterrupt:
        if pool is not None:  # what finished before the interrupt still counts
            for handle in [handle for handle in running if pool.finished(handle)]:
                _count_in(running, handle, pool)
    finally:
        if pool is not None:
            if not finished:
                pool.cancel(running)
            pool.close(interrupted=not finished)
        if display is not None:
            done = sum(c.end - c.start for c in chunks if c.outcome is not None)
            display.close(done, len(deals), time.perf_counter() - started, not finished)
    counted = [c.outcome for c in chunks if c.outcome is not None]
    undecided = [deal for _, _, left in counted for deal in left]
    cancelled = [deal for c in chunks if c.outcome is None for deal in deals[c.start : c.end]]
    return Winnability(
        rules.name,
        sum(winnable for winnable, _, _ in counted),
        sum(unwinnable for _, unwinnable, _ in counted),
        len(undecided),
        time.perf_counter() - started,
        tuple(undecided),
        not finished,
        DealsLeft(tuple(cancelled), deals[_sent(chunks) :]),
    )


class DealsLeft(Sequence):
    """Deals in order, kept as the pieces they came in (tuples, ranges): after an interrupt in
    ``range(1, 2**32)`` the deals never sent stay a range and take no memory.

    >>> left = DealsLeft((7, 9), range(12, 16))
    >>> len(left), list(left), left[2], left == (7, 9, 12, 13, 14, 15)
    (6, [7, 9, 12, 13, 14, 15], 12, True)
    >>> left.spans()
    ['7', '9', '12-15']
    """

    def __init__(self, *parts: Sequence[int | str]) -> None:
        flat = [
            piece
            for part in parts
            for piece in (part.parts if isinstance(part, DealsLeft) else (part,))
        ]
        self.parts = tuple(part for part in flat if len(part))
        self.size = sum(len(part) for part in self.parts)

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[int | str]:
        for part in self.parts:
            yield from part

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return tuple(self[i] for i in range(self.size)[index])
        position = operator.index(index)
        if position < 0:
            position += self.size
        if not 0 <= position < self.size:
            raise IndexError("DealsLeft index out of range")
        for part in self.parts:
            if position < len(part):
                return part[position]
            position -= len(part)
        raise AssertionError("unreachable: the sizes add up")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"DealsLeft({', '.join(map(repr, self.parts))})"

    def spans(self) -> list[str]:
        """The deals as the command line writes them: a run of numbered deals as a range
        ("12-15", one span however long a range is), a layout as it is."""
        runs: list[list] = []  # [first, last] of consecutive numbers, or [layout, layout]

        def add(first: int | str, last: int | str) -> None:
            previous = runs[-1][1] if runs else None
            if isinstance(first, int) and isinstance(previous, int) and previous + 1 == first:
                runs[-1][1] = last
            else:
                runs.append([first, last])

        for part in self.parts:
            if isinstance(part, range) and part.step == 1:
                add(part[0], part[-1])
            else:
                for deal in part:
                    add(deal, deal)
        return [str(first) if first == last else f"{first}-{last}" for first, last in runs]


@dataclass
class _Chunk:
    """Deals ``deals[start:end]`` sent as one call. An interrupt may land between any two
    steps of the loop, so each step is one assignment and the counts are taken at the end
    from these records alone: a chunk counts once its outcome is set, and is not tried until
    then, whatever else was half done."""

    start: int
    end: int
    handle: Any = None
    outcome: tuple[int, int, list[int | str]] | None = None


def _sent(chunks: list[_Chunk]) -> int:
    """How many deals were sent (chunks go out in order)."""
    return chunks[-1].end if chunks else 0


def _count_in(running: dict[Any, _Chunk], handle: Any, pool: Pool) -> int:
    """Take a finished chunk's outcome and drop its handle (a dask future held on to would
    keep its result on the cluster); returns its number of deals."""
    sent = running[handle]
    sent.outcome = pool.result(handle)
    del running[handle]
    sent.handle = None
    return sent.end - sent.start


def _progress(done: int, total: int, started: float) -> tuple[int, int, float | None, float | None]:
    """(done, total, deals per second, seconds left) for a progress display."""
    elapsed = time.perf_counter() - started
    rate = done / elapsed if done and elapsed > 0 else None
    eta = (total - done) / rate if rate else None
    return done, total, rate, eta


def _chunk_size(total: int, pool: Pool) -> int:
    """`CHUNK` deals, fewer when that would leave workers without a chunk; one at a time in
    this process, where a chunk buys nothing and an interrupt should lose as little as can be."""
    if pool.in_process:
        return 1
    return max(1, min(CHUNK, math.ceil(total / (IN_FLIGHT_PER_WORKER * pool.workers()))))


def _count(name: str, value: int | None) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number, not {quoted(value)}")
    if value < 1:
        raise ValueError(f"{name} must be 1 or more, not {value}")
    return value


def _checked(deals: Iterable[int | str]) -> Sequence[int | str]:
    """The deals as a sequence, every one checked (a range by its two ends)."""
    if isinstance(deals, str):
        raise ValueError("deals is a collection of deal numbers or layouts: put a layout in a list")
    if isinstance(deals, range):
        for end in deals[:1], deals[-1:]:
            for deal in end:
                check_deal_number(deal)
        return deals
    checked = tuple(deals)
    for deal in checked:
        if isinstance(deal, bool) or not isinstance(deal, (int, str)):
            raise ValueError(f"a deal is a deal number or a 52-card layout, not {quoted(deal)}")
        if isinstance(deal, str):
            parse_layout(deal)  # a bad layout fails here, in the caller, with its reason
        else:
            check_deal_number(deal)
    return checked
