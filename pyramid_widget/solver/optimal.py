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
_STOCK_AND_BOUNDARY = (1 << 29) - 1  # S | k << 24, of a position code shifted down by 28
# The half move more for each pyramid card paired with a non-pyramid card past the L that the
# removals bound assumes (`_Estimator.estimate`): with e of the cards in the way paired and the
# card reached paired too, max(0, e + 1 - L) / 2 rounded up, at _PAST_L[e - L + _PAST_OFFSET].
_PAST_OFFSET = 64
_PAST_L = tuple(max(0, (m - _PAST_OFFSET + 2) // 2) for m in range(2 * _PAST_OFFSET))


# Per kind of needs: the stock masks of the values needed once, those needed more often with
# how often, their total L, and the mask of non-pyramid cards with a partner in the pyramid.
_Kind = tuple[tuple[int, ...], tuple[tuple[int, int], ...], int, int]


class _Estimator:
    """The heuristic of `shortest` (`estimate`), with its caches: the removals bound and the
    kind of needs per pyramid state, and the moves to reach the cards needed per (waste and
    stock, whether a recycle is left, kind of needs), which many pyramid states share."""

    def __init__(self, solver: Solver) -> None:
        self.solver = solver
        self.open_stock = solver.problem.stock_in_play
        passes = solver.problem.passes
        # A recycle is still allowed below this position code (its pass bits on top).
        self._recycles_below = 1 << 64 if passes is None else passes << 58
        self._pyramid: dict[int, tuple[int, int]] = {}  # P -> (removals bound, kind)
        self._kinds: dict[_Kind, int] = {}
        self._kind_list: list[_Kind] = []
        self._extra: dict[int, int] = {}

    def estimate(self, state: int) -> int:
        """A lower bound on the moves still needed from position ``state`` (as `shortest` keeps
        it): the removals bound of `PyramidFacts._bounds` (under the whole-deck win: the same
        count over every card left, plus a draw for each card of a face-down stock), plus the
        moves needed to reach cards the pyramid must still take from waste and stock.

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
        P = state & FULL
        if solver.deck_win:
            S = state >> 28 & 0xFFFFFF
            counts = solver._info(P)[5]
            masks = solver._value_masks
            total = [counts[v] + (S & masks[v]).bit_count() for v in range(14)]
            bound = total[13] + sum(max(total[r], total[13 - r]) for r in range(1, 7))
            if not self.open_stock:
                bound += (S >> (state >> 52 & 31)).bit_count()
            return bound
        facts = self._pyramid.get(P)
        if facts is None:
            removals, needs = _needs(solver, P)
            kind = self._kinds.get(needs)
            if kind is None:
                kind = self._kinds[needs] = len(self._kind_list)
                self._kind_list.append(needs)
            facts = self._pyramid[P] = (removals, kind)
        removals, kind = facts
        recycle = state < self._recycles_below
        key = state >> 28 & _STOCK_AND_BOUNDARY | recycle << 29 | kind << 30
        extra = self._extra.get(key)
        if extra is None:
            extra = self._extra[key] = _reach(
                self._kind_list[kind],
                state >> 28 & 0xFFFFFF,
                state >> 52 & 31,
                recycle,
                self.open_stock,
            )
        return removals + extra


def _reach(
    kind: _Kind,
    S: int,
    k: int,
    recycle: bool,
    open_stock: bool,
) -> int:
    """The moves needed to reach the cards the pyramid must still take from waste and stock
    (see `_Estimator.estimate`); _LOST when too few are left."""
    singles, multiples, short, partnered = kind
    below = S & ((1 << k) - 1)
    ahead = S >> k
    paired_below = below & partnered  # (the cards that may pair with pyramid cards)
    paired_ahead = ahead & (partnered >> k)
    lonely = base = -1  # for the recycle route, worked out when first needed
    extra = 0
    top = below.bit_length() - 1
    for mask in singles:
        waste = below & mask
        # The common case, in short: the cheapest card is the top one of this value in
        # the waste (by the cards on it), its lowest one (by the recycle) or the stock's
        # first. The cards on a waste card cost at most one move each.
        best = _LOST
        if waste:
            j = waste.bit_length() - 1
            if j == top:
                continue  # on the waste top: free
            over = below >> (j + 1)
            d = over.bit_count()
            if d <= extra:
                continue
            e = (paired_below >> (j + 1)).bit_count()
            best = d - e + _PAST_L[e - short + _PAST_OFFSET]
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
                before = (cards & -cards) - 1
                d = (ahead & before).bit_count()
                if open_stock:
                    e = (paired_ahead & before).bit_count()
                    cost = d - e + _PAST_L[e - short + _PAST_OFFSET]
                else:
                    cost = d + 1
                if cost < best:
                    best = cost
            elif best == _LOST:
                return _LOST  # not enough partners left: the position is lost
            if best > extra:
                extra = best
    for mask, low in multiples:
        cards = waste = below & mask
        if (S & mask).bit_count() < low:
            return _LOST  # not enough partners left: the position is lost
        costs = []
        n = low
        while cards and n:  # the cards on them cost less the higher they lie
            j = cards.bit_length() - 1
            cards ^= 1 << j
            d = (below >> (j + 1)).bit_count()
            e = (paired_below >> (j + 1)).bit_count()
            costs.append(d - e + _PAST_L[e - short + _PAST_OFFSET])
            n -= 1
        if waste and recycle:
            # The recycle route costs less the deeper a card lies: the lowest ``low`` do.
            if base < 0:
                lonely = S & ~partnered if open_stock else S
                base = 1 + (lonely >> k).bit_count() + (not open_stock)
            n = low
            while waste and n:
                costs.append(base + (lonely & ((waste & -waste) - 1)).bit_count())
                waste &= waste - 1
                n -= 1
        if len(costs) >= low:
            costs.sort()
            if costs[low - 1] <= extra:
                continue
        cards = ahead & (mask >> k)
        n = low
        while cards and n:  # deeper stock cards cost more: the first ``low`` do
            card = cards & -cards
            cards ^= card
            d = (ahead & (card - 1)).bit_count()
            if open_stock:
                e = (paired_ahead & (card - 1)).bit_count()
                costs.append(d - e + _PAST_L[e - short + _PAST_OFFSET])
            else:
                costs.append(d + 1)
            n -= 1
        costs.sort()
        if costs[low - 1] > extra:
            extra = costs[low - 1]
    return extra


def _needs(solver: Solver, P: int) -> tuple[int, _Kind]:
    """Per pyramid state: the removals bound and the kind of its needs (`_Kind`): the bounds
    with a positive low."""
    info = solver._info(P)
    needs = [(mask, low) for mask, low, _, _ in info[4] if low > 0]
    counts = info[5]
    masks = solver._value_masks
    partnered = 0
    for v in range(1, 13):
        if counts[13 - v]:
            partnered |= masks[v]
    singles = tuple(mask for mask, low in needs if low == 1)
    multiples = tuple((mask, low) for mask, low in needs if low > 1)
    return info[7], (singles, multiples, sum(low for _, low in needs), partnered)


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
    last = p == problem.passes
    # A removal's child: the same pass, fresh (pyramid pairs allowed); its P, S and k or'ed in.
    removed = p << 58 | _FRESH
    if king_bit:
        out = [(1, P | king_bit | S << 28 | k << 52 | removed, king | _ALONE << 6)]
        return _settled(solver, out) if last else out
    sv = solver.sv
    w = (S & ((1 << k) - 1)).bit_length() - 1
    open_stock = problem.stock_in_play
    masks = solver._value_masks
    for i, need, mates in forced:  # rule 3: the one partner left is in play
        others = S & masks[need]
        if mates:
            if not others:
                child = P | 1 << i | mates | S << 28 | k << 52 | removed
                out = [(1, child, i | (mates.bit_length() - 1) << 6)]
                return _settled(solver, out) if last else out
        elif others and not others & (others - 1):
            j = others.bit_length() - 1
            if j == w or (open_stock and j == k):
                nk = next_stock(S, k) if j == k else k
                out = [(1, P | 1 << i | (S ^ others) << 28 | nk << 52 | removed, i | (28 + j) << 6)]
                return _settled(solver, out) if last else out
    out: list[tuple[int, int, int]] = []
    # A King on the waste or the stock: forced only under the whole-deck win, where every
    # win removes it anyway; under the pyramid win a shortest line may leave it be.
    if w >= 0 and sv[w] == 13:
        out.append((1, P | (S ^ (1 << w)) << 28 | k << 52 | removed, 28 + w | _ALONE << 6))
    if open_stock and k < EMPTY_STOCK and sv[k] == 13 and problem.king_from_stock:
        child = P | (S ^ (1 << k)) << 28 | next_stock(S, k) << 52 | removed
        out.append((1, child, 28 + k | _ALONE << 6))
    if out and deck_win:
        out = out[:1]
        return _settled(solver, out) if last else out
    same = S << 28 | k << 52 | removed
    if state & _FRESH:
        for bits, i, j in pairs:
            out.append((1, P | bits | same, i | j << 6))
    if w >= 0:
        rest = (S ^ (1 << w)) << 28 | k << 52 | removed
        for i in by_value[13 - sv[w]]:
            out.append((1, P | 1 << i | rest, i | (28 + w) << 6))
    if open_stock and k < EMPTY_STOCK:
        nk = next_stock(S, k)
        rest = (S ^ (1 << k)) << 28 | nk << 52 | removed
        if w >= 0 and sv[w] + sv[k] == 13:
            out.append((1, P | (rest ^ 1 << (28 + w)), 28 + w | (28 + k) << 6))
        for i in by_value[13 - sv[k]]:
            out.append((1, P | 1 << i | rest, i | (28 + k) << 6))
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
        out.append((draws, P | S << 28 | k2 << 52 | p << 58, -draws))
    elif (
        S
        and (problem.passes is None or p < problem.passes)
        and solver.pyramid.relaxed(P, solver.bag(S))  # rule 7
    ):
        q = p if problem.passes is None else p + 1
        recycled = [(1, P | S << 28 | first_stock(S, 0) << 52 | q << 58, _RECYCLE)]
        out += _settled(solver, recycled) if q == problem.passes else recycled
    return _settled(solver, out) if last else out


def _settled(solver: Solver, moves: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """``moves`` into the last pass, their positions as kept: rule 6's buried waste cards
    dropped, and those left lost by it dropped."""
    settled = []
    for cost, state, move in moves:
        S = state >> 28 & 0xFFFFFF
        kept = solver.kept(state & FULL, S, state >> 52 & 31)
        if kept >= 0:
            settled.append((cost, state ^ (S ^ kept) << 28, move))
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
    if p == solver.problem.passes:
        S = solver.kept(P, S, k)
        assert S >= 0, "shortest() needs a winnable position"
    first = P | S << 28 | k << 52 | _FRESH | p << 58
    # Per position reached: its cost so far, the move into it and the position before, in one
    # int (`_entries_from`): a long search keeps many.
    g_bits = (bound + 1).bit_length()  # every cost kept is at most the bound
    g_mask = (1 << g_bits) - 1
    nodes: dict[int, int] = {first: _entries_from(first, g_bits)}
    estimate = _Estimator(solver).estimate
    lost = solver._memo  # positions the exact search proved lost (rule 5)
    deck_win = solver.deck_win
    # The queue: the positions queued per f, then per cost so far g (g <= f, as no estimate is
    # negative). Each f is taken whole before the next, and within it the greatest g first:
    # any order among equal f keeps the first win taken off a shortest one, and the deepest
    # first walks to a win in the last layer almost straight, where the last-in-first-out order
    # expanded thousands of positions of that layer first (a quarter of all, on some decks).
    queue: list[list[list[int]]] = [[[] for _ in range(bound + 1)] for _ in range(bound + 1)]
    f = estimate(first)
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
            entries = _entries_from(state, g_bits)
            for cost, child, move in successors(solver, state):
                g2 = g + cost
                known = nodes.get(child)
                if known is not None and g2 >= known & g_mask:
                    continue
                f2 = g2 + estimate(child)
                if f2 < f:
                    f2 = f  # (pathmax: a position's f is never below its parent's)
                elif f2 > bound:
                    continue
                done = lost.get(child & ((1 << 52) - 1))
                if done is not None and done <= (child >> 58) << 5 | (child >> 52 & 31):
                    continue  # proved lost by the exact search
                nodes[child] = entries + (move << g_bits) + g2
                queue[f2][g2].append(child)
                if f2 == f and g2 > deepest:
                    deepest = g2
            g = deepest
    raise AssertionError("no win within the bound the exact search found")


def _entries_from(parent: int, g_bits: int) -> int:
    """The entry in `shortest` of a position reached from ``parent`` is this plus ``move <<
    g_bits`` plus its cost g: from the high bits down, the position before, the move code into
    it (22 bits, biased to be >= 0) and g (the low ``g_bits``)."""
    return (parent << 22 | _MOVE_BIAS) << g_bits


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
