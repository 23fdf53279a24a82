"""Shortest wins: A* over the solver's positions, every pair, King, draw and recycle one move.

Asked once the exact search has found a win, whose length bounds this search and whose memo of
lost positions it reads; why the first win it takes off its queue is a shortest one:
docs/solver.md, "Shortest wins". Positions are ints (``P | S << 28 | k << 52 | fresh << 57 |
pass << 58``), moves small codes; what is kept per position is its least cost, its move in and
one bit of the position before, and the line is walked back from the win by undoing moves
(`_line`), so that a long search keeps to tens of MiB.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable

from ..cards import STOCK_SIZE
from .facts import BY_VALUE, KING, KING_BIT, PAIRS, REMOVALS
from .problem import EMPTY_STOCK, FULL, first_stock, next_stock, pair_notation
from .search import SearchTimeout, Solver
from .stock_facts import BOUNDS, COUNTS, FORCED, USEFUL

_CHECK_EVERY = 1023
_LOST = 10**6  # a heuristic value that no bound admits
_FRESH = 1 << 57
# Move codes: a | b << 6 a removal of cards a and b (pyramid 0-27, waste and stock 28 + their
# place), _DRAWS | n for n draws, _RECYCLE a recycle; all below 2**_CODE_BITS.
_ALONE = 63  # the second card of a removal that takes one card (a King)
_CODE_BITS = 13
_CODE_MASK = (1 << _CODE_BITS) - 1
_DRAWS = 1 << 12
_RECYCLE = _DRAWS | 63
_STOCK_AND_BOUNDARY = (1 << 29) - 1  # S | k << 24, of a position code shifted down by 28
# The cost of reaching a card past d cards in the way, e of them able to pair with pyramid
# cards, is d - e plus the half move more for each pyramid card paired with a non-pyramid card past
# the L that the removals bound assumes (`_Estimator.estimate`): with the card reached paired
# too, max(0, e + 1 - L) / 2 rounded up. _PAST_L[L][e] is what e adds to d: one table per L
# (at most 48: four cards of each of twelve values), so that each cost is one lookup.
_PAST_L = tuple(
    tuple(max(0, (e - short + 2) // 2) - e for e in range(STOCK_SIZE + 1)) for short in range(49)
)


# Per kind of needs: the stock masks of the values needed once, those needed more often with
# how often, their total L, and the mask of non-pyramid cards with a partner in the pyramid.
_Kind = tuple[tuple[int, ...], tuple[tuple[int, int], ...], int, int]


# The estimate's cache of waste-and-stock states is emptied when it holds this many (then
# worked out again, the same), which bounds the memory of the longest searches.
_EXTRA_MOST = 1 << 17


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

        A waste card is reached by one route or the other, so it costs the cheaper of the two,
        and it counts once: the n cards reached are n distinct cards.
        """
        solver = self.solver
        P = state & FULL
        if solver.deck_win:
            S = state >> 28 & 0xFFFFFF
            counts = solver._info(P)[COUNTS]
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
            if len(self._extra) >= _EXTRA_MOST:
                self._extra.clear()
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
    past = _PAST_L[short]
    below = S & ((1 << k) - 1)
    stock = S ^ below  # (in place, not shifted: a value's mask picks its stock cards as is)
    paired_below = below & partnered  # (the cards that may pair with pyramid cards)
    paired_stock = stock & partnered
    lonely = base = -1  # for the recycle route, worked out when first needed
    extra = 0
    top = below.bit_length() - 1
    for mask in singles:
        waste = below & mask
        # The common case, in short: the cheapest card is the top one of this value in
        # the waste (by the cards on it), its lowest one (by the recycle) or the stock's
        # first. The cards on a waste card cost at most one move each.
        if waste:
            j = waste.bit_length() - 1
            if j == top:
                continue  # on the waste top: free
            d = (below >> (j + 1)).bit_count()
            if d <= extra:
                continue
            best = d + past[(paired_below >> (j + 1)).bit_count()]
            if recycle and best > extra:
                if base < 0:
                    lonely = S & ~partnered if open_stock else S
                    base = 1 + (lonely >> k).bit_count() + (not open_stock)
                route = base + (lonely & ((waste & -waste) - 1)).bit_count()
                if route < best:
                    best = route
            if best <= extra:
                continue
        else:
            best = _LOST
        cards = stock & mask
        if cards:
            before = stock & ((cards & -cards) - 1)
            d = before.bit_count()
            cost = d + past[(before & paired_stock).bit_count()] if open_stock else d + 1
            if cost < best:
                best = cost
        elif best == _LOST:
            return _LOST  # not enough partners left: the position is lost
        if best > extra:
            extra = best
    for mask, low in multiples:
        cards = below & mask
        if (S & mask).bit_count() < low:
            return _LOST  # not enough partners left: the position is lost
        costs = []
        if cards and recycle and base < 0:
            lonely = S & ~partnered if open_stock else S
            base = 1 + (lonely >> k).bit_count() + (not open_stock)
        while cards:  # each waste card (at most four) by the cheaper of its two routes
            j = cards.bit_length() - 1
            card = 1 << j
            cards ^= card
            cost = (below >> (j + 1)).bit_count() + past[(paired_below >> (j + 1)).bit_count()]
            if recycle:
                route = base + (lonely & (card - 1)).bit_count()
                if route < cost:
                    cost = route
            costs.append(cost)
        if len(costs) >= low:
            costs.sort()
            if costs[low - 1] <= extra:
                continue
        cards = stock & mask
        n = low
        while cards and n:  # deeper stock cards cost more: the first ``low`` do
            card = cards & -cards
            cards ^= card
            before = stock & (card - 1)
            d = before.bit_count()
            costs.append(d + past[(before & paired_stock).bit_count()] if open_stock else d + 1)
            n -= 1
        costs.sort()
        if costs[low - 1] > extra:
            extra = costs[low - 1]
    return extra


def _needs(solver: Solver, P: int) -> tuple[int, _Kind]:
    """Per pyramid state: the removals bound and the kind of its needs (`_Kind`): the bounds
    with a positive low."""
    info = solver._info(P)
    needs = [(mask, low) for mask, low, _ in info[BOUNDS] if low > 0]
    counts = info[COUNTS]
    masks = solver._value_masks
    partnered = 0
    for v in range(1, 13):
        if counts[13 - v]:
            partnered |= masks[v]
    singles = tuple(mask for mask, low in needs if low == 1)
    multiples = tuple((mask, low) for mask, low in needs if low > 1)
    return info[REMOVALS], (singles, multiples, sum(low for _, low in needs), partnered)


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
    king_bit = info[KING_BIT]
    if deck_win:  # (otherwise the heuristic checked the bounds when the position was queued)
        for mask, low, high in info[BOUNDS]:
            n = (S & mask).bit_count()
            if n < low or n > high:
                return []
    last = p == problem.passes
    # A removal's child: the same pass, fresh (pyramid pairs allowed); its P, S and k or'ed in.
    removed = p << 58 | _FRESH
    if king_bit:
        out = [(1, P | king_bit | S << 28 | k << 52 | removed, info[KING] | _ALONE << 6)]
        return _settled(solver, out) if last else out
    sv = solver.sv
    w = (S & ((1 << k) - 1)).bit_length() - 1
    open_stock = problem.stock_in_play
    masks = solver._value_masks
    for i, need, mates in info[FORCED]:  # rule 3: the one partner left is in play
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
    by_value = info[BY_VALUE]
    if state & _FRESH:
        for bits, i, j in info[PAIRS]:
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
        useful = info[USEFUL]
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
        out.append((draws, P | S << 28 | k2 << 52 | p << 58, _DRAWS | draws))
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
            move |= (S ^ kept) << _CODE_BITS  # (the cards buried on the way, for `_line`)
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
    g_bits = (bound + 1).bit_length()  # every cost kept is at most the bound
    g_mask = (1 << g_bits) - 1
    # Per position reached: its least cost found so far, the move into it and the fresh bit
    # of the position before, in one int (see `_line`); in a dict while there are few, then
    # in compact tables (`_Reached`).
    reached: dict[int, int] | _Reached = {first: 0}
    lookup, keep = reached.get, reached.__setitem__
    few = True
    buried: dict[int, int] = {}  # the waste cards `_settled` buried on the way in, if any
    estimate = _Estimator(solver).estimate
    proven_lost = solver.proven_lost  # positions the exact search proved lost (rule 5)
    # (asked only for the pyramids it holds: a shortest win follows a search that found a win
    # soon, so most children's pyramids were never proven lost, and the set answers at once)
    lost_pyramids = solver.lost_pyramids()
    deck_win = solver.deck_win
    # The queue: the positions queued per f, then per cost so far g (g <= f, as no estimate is
    # negative). Each f is taken whole before the next, and within it the greatest g first:
    # any order among equal f keeps the first win taken off a shortest one, and the deepest
    # first walks to a win in the last layer almost straight, where a last-in-first-out order
    # would expand thousands of positions of that layer first.
    queue = [[array("Q") for _ in range(bound + 1)] for _ in range(bound + 1)]
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
            if lookup(state) & g_mask < g:
                continue  # reached again for less since it was queued
            expanded += 1
            if (
                deadline is not None
                and not expanded & _CHECK_EVERY
                and time.perf_counter() > deadline
            ):
                raise SearchTimeout
            if few and len(reached) > _FEW:
                reached = _Reached.of(reached, solver.problem.passes, g_bits)
                lookup, keep, few = reached.get, reached.put, False
            if state & FULL == FULL and (not state >> 28 & 0xFFFFFF or not deck_win):
                return _line(solver, lookup, buried, g_bits, first, state, g)
            deepest = g
            fresh = (state >> 57 & 1) << (g_bits + _CODE_BITS)
            for cost, child, move in successors(solver, state):
                g2 = g + cost
                known = lookup(child)
                if known is not None and g2 >= known & g_mask:
                    continue
                f2 = g2 + estimate(child)
                if f2 < f:
                    f2 = f  # (pathmax: a position's f is never below its parent's)
                elif f2 > bound:
                    continue
                if child & FULL in lost_pyramids and proven_lost(
                    child & FULL, child >> 28 & 0xFFFFFF, child >> 52 & 31, child >> 58
                ):
                    continue  # proved lost by the exact search
                if move >> _CODE_BITS:
                    buried[child] = move >> _CODE_BITS
                    move &= _CODE_MASK
                elif buried:
                    buried.pop(child, None)
                keep(child, fresh | move << g_bits | g2)
                queue[f2][g2].append(child)
                if f2 == f and g2 > deepest:
                    deepest = g2
            g = deepest
    raise AssertionError("no win within the bound the exact search found")


_HASH = 0x9E3779B97F4A7C15  # Fibonacci hashing: bits 32 up of the product mix all of a key


_FEW = 1 << 18  # positions `shortest` keeps in a dict before it moves them into `_Reached`


class _Reached:
    """The positions a long `shortest` reached, each with its int (cost, move code, fresh bit
    of the position before), in flat arrays per pyramid state.

    A long search reaches millions of positions, where a dict of ints spends over a hundred
    bytes on each; a slot here takes 8 bytes (the position's bits above
    the pyramid state, and its int), and a table is at most three quarters full. Each pyramid
    state has its own table, so one that doubles copies only its own slots. Slower than a dict
    (every probe is Python), so `shortest` starts with a dict and moves here past _FEW.
    """

    def __init__(self, passes: int | None, g_bits: int) -> None:
        self.tables: dict[int, list] = {}
        self._keys = "I" if ((passes or 0) + 1) << 30 <= 1 << 32 else "Q"
        self._values = "I" if g_bits + _CODE_BITS + 1 <= 32 else "Q"

    @classmethod
    def of(cls, reached: dict[int, int], passes: int | None, g_bits: int) -> _Reached:
        """The positions of ``reached`` (which is emptied on the way)."""
        table = cls(passes, g_bits)
        while reached:
            table.put(*reached.popitem())
        return table

    @staticmethod
    def _slot(keys: array, rest: int) -> int:
        """The slot of ``keys`` that holds ``rest`` or, if it is not there, the empty slot
        where it goes."""
        mask = len(keys) - 1
        i = rest * _HASH >> 32 & mask
        while True:
            key = keys[i]
            if key == rest or not key:
                return i
            i = i + 1 & mask

    def get(self, state: int) -> int | None:
        """The int kept for ``state``; None when it was never reached."""
        entry = self.tables.get(state & FULL)
        if entry is None:
            return None
        i = self._slot(entry[0], state >> 28)
        return entry[1][i] if entry[0][i] else None

    def put(self, state: int, value: int) -> None:
        entry = self.tables.get(state & FULL)
        if entry is None:
            entry = [array(self._keys, [0]) * 8, array(self._values, [0]) * 8, 0]
            self.tables[state & FULL] = entry
        rest = state >> 28
        i = self._slot(entry[0], rest)
        if not entry[0][i]:
            entry[0][i] = rest
            entry[2] += 1
            if entry[2] * 4 > 3 * len(entry[0]):
                self._grow(entry)
                i = self._slot(entry[0], rest)
        entry[1][i] = value

    def _grow(self, entry: list) -> None:
        keys, values = entry[0], entry[1]
        size = 2 * len(keys)
        new_keys = array(keys.typecode, [0]) * size
        new_values = array(values.typecode, [0]) * size
        for key, value in zip(keys, values, strict=True):
            if key:
                i = self._slot(new_keys, key)
                new_keys[i] = key
                new_values[i] = value
        entry[0], entry[1] = new_keys, new_values


def _parents(solver: Solver, state: int, code: int, fresh: int, buried: int) -> list[int]:
    """The positions a move with kept ``code`` may have come from into ``state`` (with the
    fresh bit ``fresh`` and the waste cards ``buried`` by rule 6 on the way).

    One card taken from the waste or from the stock leaves the same position after it either
    way (the stock's boundary moves past it, or the waste's top was just under the boundary),
    so both are returned where both are legal; `_line` takes the one reached for the cost it
    needs."""
    P = state & FULL
    S = state >> 28 & 0xFFFFFF | buried
    k = state >> 52 & 31
    p = state >> 58
    rest = fresh << 57
    if code >= _DRAWS:
        if code == _RECYCLE:
            q = p if solver.problem.passes is None else p - 1
            return [P | S << 28 | EMPTY_STOCK << 52 | rest | q << 58]
        below = S & ((1 << k) - 1)
        for _ in range(code - _DRAWS - 1):
            below ^= 1 << (below.bit_length() - 1)
        return [P | S << 28 | (below.bit_length() - 1) << 52 | rest | p << 58]
    a, b = code & 63, code >> 6
    cards = [c for c in (a, b) if c != _ALONE]
    for c in cards:
        if c < 28:
            P ^= 1 << c
        else:
            S |= 1 << (c - 28)
    stock = [c - 28 for c in cards if c >= 28]
    before = P | S << 28 | rest | p << 58
    if len(stock) == 2:  # the waste's top and the stock's
        return [before | max(stock) << 52]
    out = [before | k << 52]  # (the waste's top, or a pyramid pair or King)
    problem = solver.problem
    if stock and problem.stock_in_play and (b != _ALONE or problem.king_from_stock):
        out.append(before | stock[0] << 52)  # the stock's top
    return out


def _line(
    solver: Solver,
    lookup: Callable[[int], int | None],
    buried: dict[int, int],
    g_bits: int,
    first: int,
    state: int,
    g: int,
) -> list[str]:
    """The line into ``state`` (reached for cost g), walked back from it: the position before
    each is the one of `_parents` that was reached for exactly the cost of the line less the
    move's. (If a position was reached for its least cost, so was the one before it on the line
    that reached it, so the walk never has to turn back.)"""
    names = solver.problem.pyramid + solver.problem.stock
    g_mask = (1 << g_bits) - 1
    moves: list[int] = []
    while state != first:
        value = lookup(state)
        code = value >> g_bits & _CODE_MASK
        cost = code - _DRAWS if _DRAWS < code < _RECYCLE else 1
        fresh = value >> (g_bits + _CODE_BITS) & 1
        for parent in _parents(solver, state, code, fresh, buried.get(state, 0)):
            known = lookup(parent)
            if known is not None and known & g_mask == g - cost:
                break
        else:
            raise AssertionError("a line's position before was not reached for its cost")
        moves.append(code)
        state, g = parent, g - cost
    moves.reverse()
    return [word for move in moves for word in _notation(names, move)]


def _notation(names: tuple[str, ...], move: int) -> list[str]:
    """A move code's notations (n draws are n of them)."""
    if move == _RECYCLE:
        return ["recycle"]
    if move > _DRAWS:
        return ["draw"] * (move - _DRAWS)
    if move >> 6 == _ALONE:
        return [names[move & 63]]
    return [pair_notation(names[move & 63], names[move >> 6])]
