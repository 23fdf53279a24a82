"""`evaluate`: a strategy plays many numbered deals, and its scorecard says how well.

The deals go out in chunks to the same places `winnability` uses (`solver.chunked.spread`: a
local process pool, any executor, a dask cluster, or this process where nothing else can run,
as in Pyodide), with the same progress bar and the same clean stop on an interrupt. Each game
is played by a fresh copy of the strategy (`copy.deepcopy`), so one that keeps notes during a
game starts every game afresh, whatever process or order the games run in: the same deals and
strategy give the same figures every run. The solver's verdict on each deal comes from the
verdicts file (`verdicts.VerdictCache`) when it is there; the others are solved with the game
and kept for the next run.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..game import Game
from ..progress import ProgressOption
from ..rules import Rules
from ..solver import solve
from ..solver.chunked import checked, spread
from ..solver.pools import InlineExecutor
from .play import LineFails, play_out
from .scorecard import Played, Scorecard
from .strategy import Shipped, chooser, name_of
from .verdicts import Verdict, VerdictCache

DEFAULT_DEALS = range(1, 1001)


def evaluate(
    strategy: Any,
    rules: Rules | str | None = "classic",
    deals: Iterable[int | str] = DEFAULT_DEALS,
    *,
    executor: Any = None,
    workers: int | None = None,
    chunk: int | None = None,
    progress: ProgressOption = "auto",
    cache: bool | str | Path = True,
    name: str | None = None,
) -> Scorecard:
    """Play every deal (numbered deals, or 52-card layouts) with `strategy` and score it.

    `strategy`: a function of the `PlayerView` answering a move (or its notation), or an
    object with ``choose(view)``; the built-in players are in `lab.players`. A move the rules
    refuse loses that game, with the answer and the reason kept (`Scorecard.refused`); an
    exception in the strategy stops the run as a `StrategyError` naming the deal and the move.

    `executor`, `workers`, `chunk` and `progress` are as for `winnability`: by default a
    process pool of this machine's cores (this process where none can be made, as in Pyodide,
    with the same figures), or any `concurrent.futures` executor or dask `Client`. A strategy
    goes to other processes by value where cloudpickle is installed (dask brings it), so one
    written in a notebook travels too; one that cannot be sent at all is played here when no
    executor was given. `cache`: keep the solver's verdicts in the default file (True), in
    another (a path), or not at all (False). `name`: what to call the strategy in tables.

    >>> from pyramid_widget.lab import greedy
    >>> card = evaluate(greedy, "classic", range(1, 11), progress=None, executor=InlineExecutor())
    >>> card.games, card.wins, card.winnable
    (10, 1, 5)
    """
    rules = Rules.coerce(rules)
    deals = checked(deals)
    chooser(strategy)  # refuse what is no strategy before any work
    player = name or name_of(strategy)
    shipped = Shipped(strategy)
    if executor is None and not shipped.travels():
        executor = InlineExecutor()
    kept = _open(cache)
    try:
        known = kept.get(rules.name, deals) if kept is not None else {}
        done = spread(
            play_chunk,
            deals,
            lambda part: (
                shipped,
                rules.name,
                player,
                part,
                {d: known[d] for d in part if d in known},
            ),
            executor=executor,
            workers=workers,
            chunk=chunk,
            progress=progress,
            label=f"{player} on {rules.name}",
        )
        games = [game for _, (played, _) in done.outcomes for game in played]
        if kept is not None:
            kept.put(
                rules.name, {d: v for _, (_, solved) in done.outcomes for d, v in solved.items()}
            )
    finally:
        if kept is not None:
            kept.close()
    return Scorecard(
        player,
        rules.name,
        tuple(games),
        done.seconds,
        interrupted=not done.finished,
        not_tried=done.not_tried,
    )


def _open(cache: bool | str | Path) -> VerdictCache | None:
    if cache is False:
        return None
    if cache is True:
        return VerdictCache()
    if isinstance(cache, (str, Path)):
        return VerdictCache(cache)
    raise TypeError(f"cache is True, False or a path to a verdicts file, not {cache!r}")


def play_chunk(
    shipped: Shipped,
    rules: str,
    player: str,
    deals: list[int | str],
    known: Mapping[int | str, Verdict],
) -> tuple[list[Played], dict[int | str, Verdict]]:
    """Play some deals (a top-level function of plain arguments, for any executor): the games,
    and the verdicts solved here (those not in `known`), for the caller to keep."""
    parsed = Rules.parse(rules)
    played: list[Played] = []
    solved: dict[int | str, Verdict] = {}
    for deal in deals:
        verdict = known.get(deal)
        if verdict is None:
            verdict = solved[deal] = _solve(_start(deal, parsed))
        game = _start(deal, parsed)
        strategy = copy.deepcopy(shipped.strategy)
        line = verdict[1] if verdict[0] == "winnable" else None
        try:
            ended = play_out(strategy, game, player=player, deal=deal, line=line)
        except LineFails:  # a kept verdict that does not hold: solve it again
            verdict = solved[deal] = _solve(_start(deal, parsed))
            game = _start(deal, parsed)
            ended = play_out(strategy, game, player=player, deal=deal, line=verdict[1] or None)
        keep = ended.ending == "refused" or (verdict[0] == "winnable" and ended.ending != "won")
        played.append(
            Played(
                deal,
                verdict[0],
                ended.ending,
                game.cleared,
                game.move_count,
                tuple(game.log) if keep else (),
                ended.answer,
                ended.reason,
                ended.seconds,
            )
        )
    return played, solved


def _start(deal: int | str, rules: Rules) -> Game:
    return Game.deal(deal, rules) if isinstance(deal, int) else Game.from_layout(deal, rules)


def _solve(game: Game) -> Verdict:
    """The solver's verdict on a deal's start, exact (no time limit: every deal is decided)."""
    solution = solve(game, time_limit=None)
    if solution.status == "winnable":
        return "winnable", tuple(solution.moves)
    return "unwinnable", ()
