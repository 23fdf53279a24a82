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
from dataclasses import dataclass
from typing import Literal

from ..cards import PYRAMID_SIZE
from ..game import Game, Move
from .budget import nodes_for
from .explain import describe, sensible_order
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
    reason: a sentence for the player.
    chance: the estimated share of wins for the suggested move (1.0 / 0.0 when proven), or
        None when there is no estimate. A fair hint's estimate assumes the unseen cards could
        lie in any order and that play after the move sees everything.
    """

    move: str | None
    kind: Kind
    verdict: Verdict
    reason: str
    chance: float | None = None


def hint(game: Game, *, fair: bool = True, time_limit: float = 0.3) -> Hint:
    """A hint for the position on the board.

    ``fair=True``: uses only what the player has seen (see the module docstring).
    ``fair=False``: the solver sees every card and may prove the position lost.
    ``time_limit`` (seconds) bounds the thinking; with no verdict in time the hint is still a
    sensible move, with verdict "unknown". The game is not changed.
    """
    if time_limit is None or time_limit < 0:
        raise ValueError("time_limit must be a number of seconds >= 0")
    if game.is_won:
        return Hint(None, "none", "winnable", "the game is won", 1.0)
    moves = game.legal_moves()
    if not moves:
        return Hint(
            None,
            "none",
            "unwinnable",
            "no move is left: undo, restart the deal or start a new one",
            0.0,
        )
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
        reason = f"{describe(game, move)}. (No verdict in time: this is a sensible move.)"
        return Hint(str(move), move.kind, "unknown", reason, None)
    if line is None:
        move = sensible_order(game, moves)[0]
        reason = (
            "no winning line is left from here: undo to an earlier position, or play on "
            f"({describe(game, move)})"
        )
        return Hint(str(move), move.kind, "unwinnable", reason, 0.0)
    move = Move.parse(line[0])
    moves_left = len(line)
    reason = f"{_capital(describe(game, move))}. A win is still possible ({moves_left} moves)."
    return Hint(str(move), move.kind, "winnable", reason, 1.0)


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
    count = len(hidden)
    cards = "card" if count == 1 else f"{count} cards"
    if not decided:
        move = ordered[0]
        reason = (
            f"{_capital(describe(game, move, fair=True))}. (With {cards} still unseen there "
            "was no time to weigh the odds: this is a sensible move.)"
        )
        return Hint(str(move), move.kind, "unknown", reason, None)
    best = max(ordered, key=lambda move: wins[str(move)])  # ties: the most sensible one
    share = wins[str(best)] / decided
    if exhaustive and decided == len(arrangements) and share == 1.0:
        verdict: Verdict = "winnable"
        odds = f"it wins whatever the order of the {cards} you have not seen"
    else:
        verdict = "unknown"
        how = "every" if exhaustive and decided == len(arrangements) else "sampled"
        odds = (
            f"it wins in {wins[str(best)]} of {decided} {how} orders of the {cards} you have "
            "not seen"
        )
        if decided < tried:
            odds += f" ({tried - decided} more too hard to settle in the time)"

    words = _capital(describe(game, best, fair=True))
    return Hint(str(best), best.kind, verdict, f"{words}; {odds}.", share)


def _winning_moves(
    solver: Solver, start: tuple[int, int, int, int], notations: list[str], budget: int
) -> list[str]:
    """The moves after which this (fully known) completion can still be won. All searches
    share the solver's memo. Raises SearchTimeout past ``budget`` nodes."""
    line = solver.solve(start, node_limit=budget, relaxed_budget=_HINT_RELAXED)
    if line is None:
        return []
    winners = [line[0]]
    for notation in notations:
        if notation in winners:
            continue
        child = solver.after(start, notation)
        if solver.solve(child, node_limit=budget, relaxed_budget=_HINT_RELAXED) is not None:
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


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
