"""Hints: the all-seeing one and the fair one, with words a learner can follow.

A fair hint knows what the player knows: the pyramid, every card seen face up, and where each
seen card lies in the stock (stock order never changes, so a card seen once stays where it was
seen). The unseen cards are known only as a set, and so are the stock places they fill. While
any are left, the hint solves completions: arrangements of the unseen cards into those places,
drawn from a generator seeded only with what is seen. Two games that differ only in unseen
cards therefore build the very same completions and get the very same hint. Its searches are
bounded by node counts, not the clock, so the answer cannot depend on machine speed either.
It never says "unwinnable" while a card is unseen; once all have been seen, it runs the exact
solver.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import time
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from .. import svg, words
from ..cards import PYRAMID_SIZE
from ..game import Game, Move
from .budget import nodes_for, seconds_limit
from .explain import describe, in_short, named, sensible_order
from .gc_pause import collector_paused
from .search import Problem, PyramidFacts, SearchTimeout, Solver
from .solution import problem_from_game

Kind = Literal["pair", "king", "draw", "recycle", "none"]
Verdict = Literal["winnable", "unwinnable", "unknown"]

SAMPLES = 24  # completions a fair hint solves at most
_SAMPLE_NODES = 1_000  # nodes any one completion may use, at least
_HINT_RELAXED = 600  # relaxed positions the up-front check of each hint search may visit


@dataclass(frozen=True)
class Hint:
    """A suggested move and why.

    move: a legal move's notation ("5h+8c", "Kh", "draw", "recycle"), or None when there is
        none (the game is won or stuck).
    kind: "pair", "king", "draw", "recycle" or "none".
    verdict: "winnable" (a win is proven possible from here), "unwinnable" (proven impossible: the
        player may want to undo) or "unknown".
    reason: the hint line for the player: the move, one short reason and how it stands
        ("Pair 9♠ with 4♦: it frees 6♥. Likely to win.").
    chance: the estimated share of wins for the suggested move (1.0 / 0.0 when proven), or
        None when there is no estimate. A fair hint's estimate assumes the unseen cards could
        lie in any order and that play after the move sees everything.
    detail: what lies behind the reason, for a player who asks (the board's disclosure under
        the hint line): the move in full, and the figures (the orders of the unseen cards
        tried and won, what could not be settled, the solver's moves to the win); "" when
        there is nothing more to say.
    """

    move: str | None
    kind: Kind
    verdict: Verdict
    reason: str
    chance: float | None = None
    detail: str = ""
    _game: Game | None = field(default=None, repr=False, compare=False)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        """A notebook shows the position the hint was asked on, with its move marked."""
        if self._game is None:
            return {}
        return svg.board(self._game, hint=self.move)._repr_mimebundle_()


def hint(game: Game, *, fair: bool = True, time_limit: float = 0.3) -> Hint:
    """A hint for the position on the board.

    ``fair=True``: uses only what the player has seen (see the module docstring).
    ``fair=False``: the solver sees every card and may prove the position lost.
    ``time_limit`` (seconds) bounds the thinking; with no verdict in time the hint is still a
    sensible move, with verdict "unknown". The game is not changed.
    """
    with collector_paused():  # its solvers are gone before the collector is back (`gc_pause`)
        found = _hint(game, fair, time_limit)
    return replace(found, _game=game.copy())


def _hint(game: Game, fair: bool, time_limit: float) -> Hint:
    """The hint itself (see `hint`)."""
    time_limit = seconds_limit("time_limit", time_limit, unlimited=False)
    if game.is_won:
        return Hint(None, "none", "winnable", words.WON_HINT, 1.0)
    moves = game.legal_moves()
    if not moves:
        return Hint(None, "none", "unwinnable", words.STUCK_HINT, 0.0)
    unseen = _unseen_places(game)
    if fair and unseen:
        return _fair_hint(game, moves, unseen, time_limit)
    return _exact_hint(game, moves, time_limit)


def _unseen_places(game: Game) -> list[int]:
    """Stock places (0..23, layout order) of the cards still in the game never seen face up."""
    seen = game.seen
    remaining = set(game.stock)
    return [
        j
        for j, card in enumerate(game.cards[PYRAMID_SIZE:])
        if card in remaining and card not in seen
    ]


def _exact_hint(game: Game, moves: list[Move], time_limit: float) -> Hint:
    problem = problem_from_game(game)
    solver = Solver(problem)
    deadline = time.perf_counter() + time_limit
    try:
        line = solver.solve(problem.start, deadline=deadline)
    except SearchTimeout:
        move = sensible_order(game, moves)[0]
        reason = words.short_hint(in_short(game, move), words.NO_VERDICT)
        detail = _detail(game, move, words.SOLVER_OUT_OF_TIME)
        return Hint(str(move), move.kind, "unknown", reason, None, detail)
    if line is None:
        move = sensible_order(game, moves)[0]
        reason = words.unwinnable_hint(named(game, move))
        detail = _detail(game, move, words.solver_found(None), always=True)
        return Hint(str(move), move.kind, "unwinnable", reason, 0.0, detail)
    move = Move.parse(line[0])
    reason = words.short_hint(in_short(game, move), words.KEEPS_THE_WIN)
    detail = _detail(game, move, words.solver_found(len(line)))
    return Hint(str(move), move.kind, "winnable", reason, 1.0, detail)


def _detail(game: Game, move: Move, *facts: str, fair: bool = False, always: bool = False) -> str:
    """A hint's detail: the move in full when it says more than the hint line (`always`: when
    the hint line does not describe it), then the facts."""
    full = describe(game, move, fair=fair)
    return words.hint_detail(full if always or full != in_short(game, move) else None, *facts)


def _fair_hint(game: Game, moves: list[Move], unseen: list[int], time_limit: float) -> Hint:
    problem = problem_from_game(game)
    hidden = sorted(game.cards[PYRAMID_SIZE + j] for j in unseen)
    names = [str(card) for card in hidden]
    rng = random.Random(_seed(game, unseen))
    if len(hidden) <= 4:
        arrangements = [list(order) for order in itertools.permutations(names)]
        exhaustive = True
    else:
        arrangements = []
        for _ in range(SAMPLES):
            order = names[:]
            rng.shuffle(order)
            arrangements.append(order)
        exhaustive = False
    budget = nodes_for(time_limit)
    notations = [str(move) for move in moves]
    wins = dict.fromkeys(notations, 0)
    decided = tried = 0
    facts = PyramidFacts(
        problem.pyramid_values, deck_win=problem.deck_win, stock_in_play=problem.stock_in_play
    )
    for order in arrangements:
        stock = list(problem.stock)
        for j, name in zip(unseen, order, strict=True):
            stock[j] = name
        solver = Solver(
            Problem(
                problem.pyramid,
                tuple(stock),
                problem.stock_in_play,
                problem.king_from_stock,
                problem.passes,
                problem.deck_win,
                problem.start,
            ),
            facts,
        )
        tried += 1
        cap = min(budget, max(_SAMPLE_NODES, budget // 6))
        try:
            winners = _winning_moves(solver, problem.start, notations, cap)
        except SearchTimeout:
            winners = None  # this arrangement is too hard to settle here: leave it out
        budget -= solver.nodes
        if winners is not None:
            decided += 1
            for notation in winners:
                wins[notation] += 1
        if budget <= 0:
            break
    ordered = sensible_order(game, moves)
    if not decided:
        move = ordered[0]
        reason = words.short_hint(in_short(game, move), words.UNWEIGHED)
        detail = _detail(game, move, words.unweighed(len(hidden)), fair=True)
        return Hint(str(move), move.kind, "unknown", reason, None, detail)
    best = max(ordered, key=lambda move: wins[str(move)])  # ties: the most sensible one
    share = wins[str(best)] / decided
    every = exhaustive and decided == len(arrangements)
    verdict: Verdict = "winnable" if every and share == 1.0 else "unknown"
    won = wins[str(best)]
    outlook = (
        words.KEEPS_THE_WIN if verdict == "winnable"
        else words.BEST_TRY if won == 0
        else words.outlook(won, decided)
    )  # fmt: skip
    odds = words.odds(
        len(hidden), game.stock_count, won, decided, every=every, unsettled=tried - decided
    )
    reason = words.short_hint(in_short(game, best), outlook)
    detail = _detail(game, best, odds, fair=True)
    return Hint(str(best), best.kind, verdict, reason, share, detail)


def _search(solver: Solver, state: tuple[int, int, int, int], budget: int) -> list[str] | None:
    """One of a hint's many small searches, each within a node budget. The work of the
    relaxed check and of the apex rule at each recycle is not counted in nodes, and in such
    small searches it costs more time than the nodes it saves, so the first is given a small
    budget and the second is left out. Neither changes a verdict once decided.
    """
    return solver.solve(
        state, node_limit=budget, relaxed_budget=_HINT_RELAXED, apex_at_recycle=False
    )


def _winning_moves(
    solver: Solver, start: tuple[int, int, int, int], notations: list[str], budget: int
) -> list[str]:
    """The moves after which this (fully known) completion can still be won. All searches
    share the solver's memo. Raises SearchTimeout past ``budget`` nodes."""
    line = _search(solver, start, budget)
    if line is None:
        return []
    winners = [line[0]]
    for notation in notations:
        if notation in winners:
            continue
        child = solver.after(start, notation)
        if _search(solver, child, budget) is not None:
            winners.append(notation)
    return winners


def _seed(game: Game, unseen: list[int]) -> int:
    """A seed from what the player can see: rules, the layout with unseen places blanked, the
    position, and the set of seen cards."""
    stock = [str(card) for card in game.cards[PYRAMID_SIZE:]]
    for j in unseen:
        stock[j] = "??"
    visible = "|".join(
        [
            game.rules.name,
            " ".join(str(card) for card in game.cards[:PYRAMID_SIZE]),
            " ".join(stock),
            " ".join("--" if card is None else str(card) for card in game.pyramid),
            " ".join(str(card) for card in game.waste),
            str(game.stock_count),
            str(game.pass_number),
            " ".join(sorted(str(card) for card in game.seen)),
        ]
    )
    return int.from_bytes(hashlib.sha256(visible.encode()).digest()[:8], "big")
