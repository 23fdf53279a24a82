"""Winnable deals only, and winnability statistics over many deals on any executor."""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field

from ..deals import MAX_DEAL, check_deal_number, parse_layout
from ..game import Game
from ..rules import Rules
from .budget import nodes_for
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
    if per_deal <= 0 or total <= 0:
        raise ValueError("per_deal and total must be positive numbers of seconds")
    rules = Rules.coerce(rules)
    rng = random.Random(seed)
    per_deal_nodes = nodes_for(per_deal)
    left = nodes_for(total)
    tries = 0
    while True:
        tries += 1
        game = Game.deal(rng.randrange(1, MAX_DEAL + 1), rules)
        problem = problem_from_game(game)
        solver = Solver(problem)
        try:
            line = solver.solve(problem.start, node_limit=min(per_deal_nodes, left))
        except SearchTimeout:
            line = None
        left -= max(solver.nodes, 1)
        if line is not None:
            return WinnableDeal(game, True, tries)
        if left <= 0:
            return WinnableDeal(game, False, tries)


@dataclass(frozen=True)
class Winnability:
    """Counts over a set of deals under one set of rules.

    rate: winnable / decided deals (None if none was decided); low, high: its 95 % Wilson
    interval. undecided: the deals (numbers or layouts) the time limit left undecided.
    """

    rules: str
    winnable: int
    unwinnable: int
    unknown: int
    seconds: float
    undecided: tuple[int | str, ...] = field(default=())

    @property
    def deals(self) -> int:
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
        }

    def __str__(self) -> str:
        if self.rate is None:
            return f"{self.rules}: {self.deals} deals, none decided"
        low, high = self.interval or (0.0, 0.0)
        return (
            f"{self.rules}: {self.winnable} of {self.decided} decided deals winnable "
            f"({100 * self.rate:.1f} %, 95 % interval {100 * low:.1f}-{100 * high:.1f} %), "
            f"{self.unknown} undecided, {self.seconds:.1f} s"
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
    deals: list[int | str], rules: str, time_limit: float
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


def winnability(
    deals: Iterable[int | str],
    rules: Rules | str | None = None,
    *,
    time_limit: float = 5.0,
    executor: Executor | None = None,
    chunk: int = 25,
) -> Winnability:
    """Solve every deal (numbered deals or 52-card layouts) and count the verdicts.

    Runs on ``executor`` (any `concurrent.futures.Executor`, e.g. a dask cluster's), or a local
    process pool with one worker per core. Deals go out in chunks of ``chunk``, with a bounded
    number in flight, so a million deals need little memory. ``time_limit`` is per deal.
    """
    if time_limit is None or time_limit <= 0:
        raise ValueError("time_limit must be a positive number of seconds")
    rules = Rules.coerce(rules)
    started = time.perf_counter()
    chunks = _chunks(_checked(deals), max(1, chunk))
    own = executor is None
    pool = ProcessPoolExecutor(max_workers=os.cpu_count() or 1) if own else executor
    workers = getattr(pool, "_max_workers", None) or os.cpu_count() or 1
    winnable = unwinnable = 0
    undecided: list[int | str] = []
    pending: set[Future] = set()
    try:
        for part in chunks:
            pending.add(pool.submit(solve_chunk, part, rules.name, time_limit))
            if len(pending) >= 4 * workers:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    w, u, left = future.result()
                    winnable, unwinnable = winnable + w, unwinnable + u
                    undecided.extend(left)
        for future in pending:
            w, u, left = future.result()
            winnable, unwinnable = winnable + w, unwinnable + u
            undecided.extend(left)
    finally:
        if own:
            pool.shutdown(cancel_futures=True)
    return Winnability(
        rules.name,
        winnable,
        unwinnable,
        len(undecided),
        time.perf_counter() - started,
        tuple(undecided),
    )


def _checked(deals: Iterable[int | str]) -> Iterator[int | str]:
    for deal in deals:
        if isinstance(deal, bool) or not isinstance(deal, (int, str)):
            raise ValueError(f"a deal is a deal number or a 52-card layout, not {deal!r}")
        if isinstance(deal, str):
            parse_layout(deal)  # a bad layout fails here, in the caller, with its reason
        else:
            check_deal_number(deal)
        yield deal


def _chunks(items: Iterator[int | str], size: int) -> Iterator[list[int | str]]:
    part: list[int | str] = []
    for item in items:
        part.append(item)
        if len(part) == size:
            yield part
            part = []
    if part:
        yield part
