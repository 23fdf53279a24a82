"""Shortest wins: A* over the solver's positions, every pair, King, draw and recycle one move.

The heuristic (`_Estimator`) counts removals still needed: each King in the pyramid takes a
move of its own, and for ranks r and 13 - r a move removes at most one pyramid card of each, so
the larger of the two counts is a lower bound (under the whole-deck win, the cards in waste and
stock count too, and with the stock face down each card still in the stock needs a draw); then
it adds the moves needed to reach the cards the pyramid must still take from waste and stock.
It never overestimates. A position's estimate is never taken below its parent's (pathmax: the
parent's is a lower bound for every line through it), so the queue is taken in order of
estimate and the first win taken off it is a shortest one.

The successor rules are the exact search's (see `search`), each of which keeps a shortest win:
a pyramid King leaves at once, and so does a pyramid card with its one partner left when that
partner is in play (the deletion lemma's line is no longer; a King on the waste or the stock is
forced only under the whole-deck win, as a shortest pyramid win may never spend a move on it);
pyramid pairs are tried only after a removal (the same pair played before the draws gives a
line of the same length); the draws between two links where something can be removed are one
edge costing one per draw; the counting bounds and the last-pass burial only drop positions or
cards that can never help, and so do the positions the exact search proved lost (its memo,
rule 5: a position at or after a memoised pass and boundary of the same cards).

Positions are ints (``P | S << 28 | k << 52 | fresh << 57 | pass << 58``) and moves small
codes, turned into notations only for the line found.
"""

from __future__ import annotations

import time

from .search import (
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
_FRESH = 1 << 57
_RECYCLE = -(1 << 20)  # the move code of a recycle; -n is n draws; a | b << 6 a removal
_ALONE = 63  # the second card of a removal that takes one card (a King)
_MOVE_BIAS = 1 << 20  # move codes + this are >= 0 (the least is _RECYCLE) and below 2**22


class _Estimator:
    """The heuristic of `shortest` (`estimate`), with its caches: the removals bound and the
    kind of needs per pyramid state, and the moves to reach the cards needed per (waste and
    stock, whether a recycle is left, kind of needs), which many pyramid states share."""

    def __init__(self, solver: Solver) -> None:
        self.solver = solver
        self.open_stock = solver.problem.stock_in_play
        self._pyramid: dict[int, tuple[int, int]] = {}  # P -> (removals bound, kind)
        self._kinds: dict[tuple[tuple[tuple[int, int], ...], int, int], int] = {}
        self._kind_list: list[tuple[tuple[tuple[int, int], ...], int, int]] = []
        self._extra: dict[int, int] = {}

    def estimate(self, P: int, S: int, k: int, recycle: bool) -> int:
        """A lower bound on the moves still needed: the removals bound of `PyramidFacts._bounds`
        (under the whole-deck win: the same count over every card left, plus a draw for each card
        of a face-down stock), plus the moves needed to reach cards the pyramid must still take
        from waste and stock. ``recycle`` says whether a recycle is still allowed.

        When a bound says at least n cards of some values must still come from waste and stock,
        the n-th cheapest of them to reach is reached at some point; what reaching one costs:

        - In the stock, d cards deep: face down, d + 1 draws. With the stock top in play, each of
          the d cards above it must leave the stock first: by a move that removes no pyramid card
          (not counted in the removals), or paired with a pyramid card. At least L pyramid cards
          must take partners from waste and stock (the bounds' lows); the removals bound assumes
          exactly L, and each further pyramid card paired with a non-pyramid card breaks a pyramid
          pair: half a move more. So with e of the d cards paired (e at most the p whose value has
          a partner left in the pyramid), the cost is at least (d - e) + max(0, e + 1 - L) / 2,
          smallest at e = min(d, p).
        - In the waste, under d cards: either those d leave first, one move each (a move takes at
          most one waste card), which costs as above; or, when a recycle is still allowed, the
          stock is emptied, the waste turned over and the cards before it leave the new stock:
          the recycle, plus one move for each of those cards (and each card still in the stock)
          that cannot pair with a pyramid card, or for every one of them with the stock face down.
        """
        solver = self.solver
        if solver.deck_win:
            counts = solver._info(P)[5]
            masks = solver._value_masks
            total = [counts[v] + (S & masks[v]).bit_count() for v in range(14)]
            bound = total[13] + sum(max(total[r], total[13 - r]) for r in range(1, 7))
            if not self.open_stock:
                bound += (S >> k).bit_count()
            return bound
        facts = self._pyramid.get(P)
        if facts is None:
            removals, *needs = _needs(solver, P)
            kind = self._kinds.get(tuple(needs))
            if kind is None:
                kind = self._kinds[tuple(needs)] = len(self._kind_list)
                self._kind_list.append(tuple(needs))  # type: ignore[arg-type]
            facts = self._pyramid[P] = (removals, kind)
        removals, kind = facts
        key = S | k << 24 | recycle << 29 | kind << 30
        extra = self._extra.get(key)
        if extra is None:
            extra = self._extra[key] = _reach(self._kind_list[kind], S, k, recycle, self.open_stock)
        return removals + extra


def _reach(
    kind: tuple[tuple[tuple[int, int], ...], int, int],
    S: int,
    k: int,
    recycle: bool,
    open_stock: bool,
) -> int:
    """The moves needed to reach the cards the pyramid must still take from waste and stock
    (see `_Estimator.estimate`); _LOST when too few are left."""
    needs, short, partnered = kind
    below = S & ((1 << k) - 1)
    ahead = S >> k
    lonely = base = -1  # for the recycle route, worked out when first needed
    extra = 0
    top = below.bit_length() - 1
    for mask, low in needs:
        cards = waste = below & mask
        if low == 1:
            # The common case, in short: the cheapest card is the top one of this value in
            # the waste (by the cards on it), its lowest one (by the recycle) or the stock's
            # first. The cards on a waste card cost at most one move each. (`_clearing` is
            # written out here: this path runs most, and the call would cost a tenth.)
            best = _LOST
            if waste:
                j = waste.bit_length() - 1
                if j == top:
                    continue  # on the waste top: free
                over = below >> (j + 1)
                d = over.bit_count()
                if d <= extra:
                    continue
                e = (over & (partnered >> (j + 1))).bit_count()
                more = e + 1 - short
                best = d - e + (more + 1) // 2 if more > 0 else d - e
                if recycle and best > extra:
                    if base < 0:
                        lonely = S & ~partnered if open_stock else S
                        base = 1 + (lonely >> k).bit_count() + (not open_stock)
                    route = base + (lonely & ((waste & -waste) - 1)).bit_count()
                    if route < best:
                        best = route
            if best > extra:
                cards = ahead & (mask >> k)
                if cards:
                    before = ahead & ((cards & -cards) - 1)
                    d = before.bit_count()
                    if open_stock:
                        e = (before & (partnered >> k)).bit_count()
                        more = e + 1 - short
                        cost = d - e + (more + 1) // 2 if more > 0 else d - e
                    else:
                        cost = d + 1
                    if cost < best:
                        best = cost
                elif best == _LOST:
                    return _LOST  # not enough partners left: the position is lost
                if best > extra:
                    extra = best
            continue
        if (S & mask).bit_count() < low:
            return _LOST  # not enough partners left: the position is lost
        costs = []
        while cards and len(costs) < low:  # the cards on them cost less the higher they lie
            j = cards.bit_length() - 1
            cards ^= 1 << j
            costs.append(_clearing(below >> (j + 1), partnered >> (j + 1), short))
        if waste and recycle:
            # The recycle route costs less the deeper a card lies: the lowest ``low`` do.
            if base < 0:
                lonely = S & ~partnered if open_stock else S
                base = 1 + (lonely >> k).bit_count() + (not open_stock)
            for _ in range(low):
                if not waste:
                    break
                costs.append(base + (lonely & ((waste & -waste) - 1)).bit_count())
                waste &= waste - 1
        costs.sort()
        if len(costs) >= low and costs[low - 1] <= extra:
            continue
        cards = ahead & (mask >> k)
        for _ in range(low):  # deeper stock cards cost more: the first ``low`` do
            if not cards:
                break
            card = cards & -cards
            cards ^= card
            before = ahead & (card - 1)
            if open_stock:
                costs.append(_clearing(before, partnered >> k, short))
            else:
                costs.append(before.bit_count() + 1)
        costs.sort()
        if costs[low - 1] > extra:
            extra = costs[low - 1]
    return extra


def _clearing(over: int, partnered: int, short: int) -> int:
    """Moves to take the cards of mask ``over`` out of the way, one move each, those of mask
    ``partnered`` perhaps with pyramid cards (half a move more each past the first ``short``
    - 1; see `_Estimator.estimate`)."""
    d = over.bit_count()
    e = (over & partnered).bit_count()
    more = e + 1 - short
    return d - e + (more + 1) // 2 if more > 0 else d - e


def _needs(solver: Solver, P: int) -> tuple[int, tuple[tuple[int, int], ...], int, int]:
    """Per pyramid state: the removals bound, the bounds with a positive low as (stock mask,
    low), their total L, and the mask of non-pyramid cards whose value has a partner left in
    the pyramid."""
    info = solver._info(P)
    needs = tuple((mask, low) for mask, low, _, _ in info[4] if low > 0)
    counts = info[5]
    masks = solver._value_masks
    partnered = 0
    for v in range(1, 13):
        if counts[13 - v]:
            partnered |= masks[v]
    return info[7], needs, sum(low for _, low in needs), partnered


def successors(solver: Solver, state: int) -> list[tuple[int, int, int]]:
    """(cost, next state, move code) for every move the search considers from ``state``."""
    P = state & FULL
    S = state >> 28 & 0xFFFFFF
    k = state >> 52 & 31
    p = state >> 58
    problem = solver.problem
    deck_win = solver.deck_win
    if P == FULL and (not S or not deck_win):
        return []
    info = solver._pinfo.get(P) or solver._info(P)
    king_bit, king, pairs, by_value, bounds, _, useful, _, forced, _ = info
    if deck_win:  # (otherwise the heuristic checked the bounds when the position was queued)
        for mask, low, high, _ in bounds:
            n = (S & mask).bit_count()
            if n < low or n > high:
                return []
    sv = solver.sv
    pass_bits = p << 58
    last = p == problem.passes

    def settle(P: int, S: int, k: int, fresh: int) -> int:
        """The position as kept (rule 6's buried cards dropped), or -1 when it is lost."""
        if not last:
            return P | S << 28 | k << 52 | fresh | pass_bits
        if S & ((1 << k) - 1):
            cut = solver._buried(S & ((1 << k) - 1), S >> k << k, solver._info(P)[9])
            if cut:
                if deck_win or solver.dead(P, S & ~cut):
                    return -1
                S &= ~cut
        return P | S << 28 | k << 52 | fresh | pass_bits

    if king_bit:
        child = settle(P | king_bit, S, k, _FRESH)
        return [(1, child, king | _ALONE << 6)] if child >= 0 else []
    out: list[tuple[int, int, int]] = []
    w = (S & ((1 << k) - 1)).bit_length() - 1
    open_stock = problem.stock_in_play
    masks = solver._value_masks
    for i, need, mates in forced:  # rule 3: the one partner left is in play
        others = S & masks[need]
        if mates:
            if not others:
                child = settle(P | 1 << i | mates, S, k, _FRESH)
                return [(1, child, i | (mates.bit_length() - 1) << 6)] if child >= 0 else []
        elif others and not others & (others - 1):
            j = others.bit_length() - 1
            if j == w or (open_stock and j == k):
                nk = next_stock(S, k) if j == k else k
                child = settle(P | 1 << i, S ^ others, nk, _FRESH)
                return [(1, child, i | (28 + j) << 6)] if child >= 0 else []
    # A King on the waste or the stock: forced only under the whole-deck win, where every
    # win removes it anyway; under the pyramid win a shortest line may leave it be.
    if w >= 0 and sv[w] == 13:
        out.append((1, settle(P, S ^ (1 << w), k, _FRESH), 28 + w | _ALONE << 6))
    if open_stock and k < EMPTY_STOCK and sv[k] == 13 and problem.king_from_stock:
        out.append((1, settle(P, S ^ (1 << k), next_stock(S, k), _FRESH), 28 + k | _ALONE << 6))
    if out and deck_win:
        return out[:1] if out[0][1] >= 0 else []
    if state & _FRESH:
        for bits, i, j in pairs:
            out.append((1, settle(P | bits, S, k, _FRESH), i | j << 6))
    if w >= 0:
        rest = S ^ (1 << w)
        for i in by_value[13 - sv[w]]:
            out.append((1, settle(P | 1 << i, rest, k, _FRESH), i | (28 + w) << 6))
    if open_stock and k < EMPTY_STOCK:
        rest = S ^ (1 << k)
        nk = next_stock(S, k)
        if w >= 0 and sv[w] + sv[k] == 13:
            out.append((1, settle(P, rest ^ (1 << w), nk, _FRESH), 28 + w | (28 + k) << 6))
        for i in by_value[13 - sv[k]]:
            out.append((1, settle(P | 1 << i, rest, nk, _FRESH), i | (28 + k) << 6))
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
        out.append((draws, settle(P, S, k2, 0), -draws))
    elif (
        S
        and (problem.passes is None or p < problem.passes)
        and solver.pyramid.relaxed(P, solver.bag(S))  # rule 7
    ):
        q = p if problem.passes is None else p + 1
        last = q == problem.passes
        pass_bits = q << 58
        out.append((1, settle(P, S, first_stock(S, 0), 0), _RECYCLE))
    return [edge for edge in out if edge[1] >= 0]


def shortest(
    solver: Solver, start: tuple[int, int, int, int], deadline: float | None, bound: int
) -> list[str]:
    """A shortest winning line from ``start`` (known to be winnable in ``bound`` moves).

    Raises SearchTimeout when ``deadline`` passes first.
    """
    P, S, k, p = start
    if solver.problem.passes is None:
        p = 0
    first = P | S << 28 | k << 52 | _FRESH | p << 58
    if p == solver.problem.passes and S & ((1 << k) - 1):
        cut = solver._buried(S & ((1 << k) - 1), S >> k << k, solver._info(P)[9])
        assert not cut or not solver.deck_win, "shortest() needs a winnable position"
        first &= ~(cut << 28)
    # Per position reached: its cost so far, the move into it and the position before, in one
    # int (`_node`): a long search keeps many.
    g_bits = (bound + 1).bit_length()  # every cost kept is at most the bound
    g_mask = (1 << g_bits) - 1
    nodes: dict[int, int] = {first: _node(0, 0, first, g_bits)}
    estimate = _Estimator(solver).estimate
    lost = solver._memo  # positions the exact search proved lost (rule 5)
    deck_win = solver.deck_win
    # The queue: the positions queued per f, then per cost so far g (g <= f, as no estimate is
    # negative). Each f is taken whole before the next, and within it the greatest g first:
    # any order among equal f keeps the first win taken off a shortest one, and the deepest
    # first walks to a win in the last layer almost straight, where the last-in-first-out order
    # expanded thousands of positions of that layer first (a quarter of all, on some decks).
    queue: list[list[list[int]]] = [[[] for _ in range(bound + 1)] for _ in range(bound + 1)]
    passes = solver.problem.passes
    f = estimate(P, first >> 28 & 0xFFFFFF, k, passes is None or p < passes)
    queue[min(f, bound)][0].append(first)
    expanded = 0
    for f in range(bound + 1):
        layer = queue[f]
        g = f
        while g >= 0:
            bucket = layer[g]
            if not bucket:
                g -= 1
                continue
            state = bucket.pop()
            if nodes[state] & g_mask < g:
                continue  # reached again for less since it was queued
            expanded += 1
            if (
                deadline is not None
                and not expanded & _CHECK_EVERY
                and time.perf_counter() > deadline
            ):
                raise SearchTimeout
            if state & FULL == FULL and (not state >> 28 & 0xFFFFFF or not deck_win):
                return _line(solver, nodes, first, state, g_bits)
            deepest = g
            for cost, child, move in successors(solver, state):
                g2 = g + cost
                known = nodes.get(child)
                if known is not None and g2 >= known & g_mask:
                    continue
                f2 = g2 + estimate(
                    child & FULL,
                    child >> 28 & 0xFFFFFF,
                    child >> 52 & 31,
                    passes is None or child >> 58 < passes,
                )
                if f2 < f:
                    f2 = f  # (pathmax: a position's f is never below its parent's)
                elif f2 > bound:
                    continue
                done = lost.get(child & ((1 << 52) - 1))
                if done is not None and done <= (child >> 58) << 5 | (child >> 52 & 31):
                    continue  # proved lost by the exact search
                nodes[child] = _node(g2, move, state, g_bits)
                queue[f2][g2].append(child)
                if f2 == f and g2 > deepest:
                    deepest = g2
            g = deepest
    raise AssertionError("no win within the bound the exact search found")


def _node(g: int, move: int, parent: int, g_bits: int) -> int:
    """A position's entry in `shortest`: from the high bits down, the position before, the move
    code into it (22 bits) and the cost ``g`` (the low ``g_bits``)."""
    return (parent << 22 | move + _MOVE_BIAS) << g_bits | g


def _line(solver: Solver, nodes: dict[int, int], first: int, state: int, g_bits: int) -> list[str]:
    names = solver.problem.pyramid + solver.problem.stock
    moves: list[str] = []
    while state != first:
        node = nodes[state] >> g_bits
        parent = node >> 22
        move = (node & ((1 << 22) - 1)) - _MOVE_BIAS
        if move == _RECYCLE:
            moves.append("recycle")
        elif move < 0:
            moves.extend(["draw"] * -move)
        elif move >> 6 == _ALONE:
            moves.append(names[move & 63])
        else:
            moves.append(pair_notation(names[move & 63], names[move >> 6]))
        state = parent
    moves.reverse()
    return moves
