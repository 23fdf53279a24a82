"""Winnable deals only, and winnability statistics over many deals on any executor."""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..deals import MAX_DEAL
from ..game import Game
from ..progress import ProgressOption
from ..rules import Rules
from .budget import nodes_for, seconds_limit
from .chunked import checked, spread
from .gc_pause import collector_paused
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
    margin = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - margin)
    high = 1.0 if successes == trials else min(1.0, centre + margin)
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
    deals = checked(deals)
    done = spread(
        solve_chunk,
        deals,
        lambda part: (part, rules.name, time_limit),
        executor=executor,
        workers=workers,
        chunk=chunk,
        progress=progress,
        label=rules.name,
    )
    counted = [outcome for _, outcome in done.outcomes]
    undecided = [deal for _, _, left in counted for deal in left]
    return Winnability(
        rules.name,
        sum(winnable for winnable, _, _ in counted),
        sum(unwinnable for _, unwinnable, _ in counted),
        len(undecided),
        done.seconds,
        tuple(undecided),
        not done.finished,
        done.not_tried,
    )
