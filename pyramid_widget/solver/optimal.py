"""Shortest wins: A* over the solver's positions, every pair, King, draw and recycle one move.

The heuristic counts removals still needed: each King in the pyramid takes a move of its own,
and for ranks r and 13 - r a move removes at most one pyramid card of each, so the larger of the
two counts is a lower bound (under the whole-deck win, the cards in waste and stock count too,
and with the stock face down each card still in the stock needs a draw). It never overestimates
and drops by at most one per move, so the first win taken off the queue is a shortest one.

The successor rules are the exact search's (see `search`), each of which keeps a shortest win:
a pyramid King leaves at once, and so does a pyramid card with its one partner left when that
partner is in play (the deletion lemma's line is no longer; a King on the waste or
the stock is forced only under the whole-deck win, as a shortest pyramid win may never spend a
move on it); pyramid pairs are tried only
after a removal (the same pair played before the draws gives a line of the same length); the
draws between two links where something can be removed are one edge costing one per draw; the
counting bounds and the last-pass burial only drop positions or cards that can never help.
"""

from __future__ import annotations

import time

from .search import (
    COVER,
    EMPTY_STOCK,
    FULL,
    SearchTimeout,
    Solver,
    first_stock,
    next_stock,
    pair_notation,
)

_CHECK_EVERY = 1023
_LOST = 10**6  # a heuristic value that no bound admits

State = tuple[int, int, int, int, bool]  # P, S, k, pass, fresh


def _heuristic(solver: Solver, P: int, S: int, k: int) -> int:
    """A lower bound on the moves still needed: the removals bound of `PyramidFacts._bounds`
    (under the whole-deck win: the same count over every card left, plus a draw for each card
    of a face-down stock), plus the moves needed to reach cards the pyramid must still take
    from the stock.

    When a bound says at least n cards of some values must still come from waste and stock and
    the waste holds fewer, the rest come from the stock part; say the one needed lies d cards
    deep. Face down, reaching it takes d + 1 draws. With the stock top in play, each of the d
    cards above it must leave the stock first: by a move that removes no pyramid card (not
    counted in the removals), or paired with a pyramid card. At least L pyramid cards must take
    partners from waste and stock (the bounds' lows); the removals bound assumes exactly L, and
    each further pyramid card paired with a stock card breaks a pyramid pair: half a move more.
    So with e of the d cards paired (e at most the p whose value has a partner left in the
    pyramid), the cost is at least (d - e) + max(0, e + 1 - L) / 2, smallest at e = min(d, p).
    """
    info = solver._info(P)
    counts = info[5]
    if solver.deck_win:
        masks = solver._value_masks
        total = [counts[v] + (S & masks[v]).bit_count() for v in range(14)]
        bound = total[13] + sum(max(total[r], total[13 - r]) for r in range(1, 7))
        if not solver.problem.stock_in_play:
            bound += (S >> k).bit_count()
        return bound
    needs, short, partnered = _needs(solver, P)
    below = S & ((1 << k) - 1)
    ahead = S >> k
    extra = 0
    for mask, low in needs:
        need = low - (below & mask).bit_count()
        if need <= 0:
            continue
        cards = ahead & (mask >> k)
        for _ in range(need - 1):
            cards &= cards - 1
        if not cards:
            return _LOST  # not enough partners left: the position is lost
        before = ahead & ((cards & -cards) - 1)
        d = before.bit_count()
        if solver.problem.stock_in_play:
            e = (before & (partnered >> k)).bit_count()
            cost = d - e + (max(0, e + 1 - short) + 1) // 2
        else:
            cost = d + 1
        extra = max(extra, cost)
    return info[7] + extra


def _needs(solver: Solver, P: int) -> tuple[tuple[tuple[int, int], ...], int, int]:
    """Per pyramid state, cached: the bounds with a positive low as (stock mask, low), their
    total L, and the mask of non-pyramid cards whose value has a partner left in the pyramid."""
    cache = solver.__dict__.setdefault("_needs", {})
    found = cache.get(P)
    if found is None:
        info = solver._info(P)
        needs = tuple((mask, low) for mask, low, _, _ in info[4] if low > 0)
        counts = info[5]
        masks = solver._value_masks
        partnered = 0
        for v in range(1, 13):
            if counts[13 - v]:
                partnered |= masks[v]
        found = cache[P] = (needs, sum(low for _, low in needs), partnered)
    return found


def successors(solver: Solver, state: State) -> list[tuple[int, State, str]]:
    """(cost, next state, move) for every move the search considers from ``state``; a draw
    edge's move is "draw" repeated cost times (stored once, as "draw*n")."""
    P, S, k, p, fresh = state
    problem = solver.problem
    if P == FULL and (not S or not solver.deck_win):
        return []
    king_bit, king, pairs, by_value, bounds, _, useful, _, lonely, _ = solver._info(P)
    for mask, low, high, _ in bounds:
        n = (S & mask).bit_count()
        if n < low or n > high:
            return []
    pyramid, stock, sv = problem.pyramid, problem.stock, solver.sv
    if king_bit:
        return [(1, (P | king_bit, S, k, p, True), pyramid[king])]
    out: list[tuple[int, State, str]] = []
    w = (S & ((1 << k) - 1)).bit_length() - 1
    open_stock = problem.stock_in_play
    masks = solver._value_masks
    for i, need, mates in lonely:  # rule 3: the one partner left is in play
        others = S & masks[need]
        if mates:
            j = mates.bit_length() - 1
            if not others and not mates & (mates - 1) and P & COVER[j] == COVER[j]:
                child = solver.settle(P | 1 << i | mates, S, k, p, True)
                return [] if child is None else [(1, child, pair_notation(pyramid[i], pyramid[j]))]
        elif others and not others & (others - 1):
            j = others.bit_length() - 1
            if j == w or (open_stock and j == k):
                nk = next_stock(S, k) if j == k else k
                child = solver.settle(P | 1 << i, S ^ others, nk, p, True)
                return [] if child is None else [(1, child, pair_notation(pyramid[i], stock[j]))]
    # A King on the waste or the stock: forced only under the whole-deck win, where every
    # win removes it anyway; under the pyramid win a shortest line may leave it be.
    if w >= 0 and sv[w] == 13:
        out.append((1, (P, S ^ (1 << w), k, p, True), stock[w]))
    if open_stock and k < EMPTY_STOCK and sv[k] == 13 and problem.king_from_stock:
        out.append((1, (P, S ^ (1 << k), next_stock(S, k), p, True), stock[k]))
    if out and solver.deck_win:
        return out[:1]
    if fresh:
        for bits, i, j in pairs:
            out.append((1, (P | bits, S, k, p, True), pair_notation(pyramid[i], pyramid[j])))
    if w >= 0:
        for i in by_value[13 - sv[w]]:
            out.append(
                (1, (P | 1 << i, S ^ (1 << w), k, p, True), pair_notation(pyramid[i], stock[w]))
            )
    if open_stock and k < EMPTY_STOCK:
        rest = S ^ (1 << k)
        nk = next_stock(S, k)
        if w >= 0 and sv[w] + sv[k] == 13:
            out.append((1, (P, rest ^ (1 << w), nk, p, True), pair_notation(stock[w], stock[k])))
        for i in by_value[13 - sv[k]]:
            out.append((1, (P | 1 << i, rest, nk, p, True), pair_notation(pyramid[i], stock[k])))
    if k < EMPTY_STOCK:
        draws = 1
        if open_stock:
            w, k2 = k, next_stock(S, k)
            while k2 < EMPTY_STOCK and not (
                useful >> w & 1 or useful >> k2 & 1 or sv[w] + sv[k2] == 13
            ):
                w, k2 = k2, next_stock(S, k2)
                draws += 1
        else:
            ahead = S >> k << k & useful
            if ahead:
                j = (ahead & -ahead).bit_length() - 1
                draws = (S >> k & ((2 << (j - k)) - 1)).bit_count()
                k2 = next_stock(S, j)
            else:
                draws = (S >> k).bit_count()
                k2 = EMPTY_STOCK
        out.append((draws, solver.settle(P, S, k2, p, False), f"draw*{draws}"))
    elif (
        S
        and (problem.passes is None or p < problem.passes)
        and solver.pyramid.relaxed(P, solver.bag(S))  # rule 7
    ):
        q = p if problem.passes is None else p + 1
        out.append((1, solver.settle(P, S, first_stock(S, 0), q, False), "recycle"))
    settled = []
    for cost, child, move in out:
        if child is not None and child[4]:
            child = solver.settle(*child)
        if child is not None:
            settled.append((cost, child, move))
    return settled


def shortest(
    solver: Solver, start: tuple[int, int, int, int], deadline: float | None, bound: int
) -> list[str]:
    """A shortest winning line from ``start`` (known to be winnable in ``bound`` moves).

    Raises SearchTimeout when ``deadline`` passes first.
    """
    P, S, k, p = start
    if solver.problem.passes is None:
        p = 0
    first = solver.settle(P, S, k, p, True)
    assert first is not None, "shortest() needs a winnable position"
    parents: dict[State, tuple[State | None, str]] = {first: (None, "")}
    best: dict[State, int] = {first: 0}
    buckets: list[list[tuple[int, State]]] = [[] for _ in range(bound + 1)]
    f = _heuristic(solver, P, first[1], k)
    buckets[min(f, bound)].append((0, first))
    expanded = 0
    for f in range(bound + 1):
        bucket = buckets[f]
        while bucket:
            g, state = bucket.pop()
            if best.get(state, g) < g:
                continue
            expanded += 1
            if (
                deadline is not None
                and not expanded & _CHECK_EVERY
                and time.perf_counter() > deadline
            ):
                raise SearchTimeout
            P, S, k, p, _ = state
            if P == FULL and (not S or not solver.deck_win):
                return _line(parents, state)
            for cost, child, move in successors(solver, state):
                g2 = g + cost
                if g2 >= best.get(child, bound + 1):
                    continue
                f2 = g2 + _heuristic(solver, child[0], child[1], child[2])
                if f2 > bound:
                    continue
                best[child] = g2
                parents[child] = (state, move)
                buckets[f2].append((g2, child))
    raise AssertionError("no win within the bound the exact search found")


def _line(parents: dict[State, tuple[State | None, str]], state: State) -> list[str]:
    moves: list[str] = []
    while True:
        parent, move = parents[state]
        if parent is None:
            break
        if move.startswith("draw*"):
            moves.extend(["draw"] * int(move[5:]))
        else:
            moves.append(move)
        state = parent
    moves.reverse()
    return moves
