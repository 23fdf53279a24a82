"""The exact search: is this position winnable, and if so by which moves?

A depth-first search over `Problem` positions, memoised per set of cards left up to suits. Where
it may cut the tree without losing a win is argued rule by rule in docs/solver.md; the search's
own rules, 2 to 6, are here, and it asks the others of `facts`, `last_pass` and `endgame`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from ..cards import PYRAMID_SIZE, STOCK_SIZE
from .budget import CHECK_EVERY
from .endgame import apex_reachable, segments_ahead
from .facts import PyramidFacts
from .last_pass import LastPass
from .problem import EMPTY_STOCK, FULL, Problem, first_stock, next_stock, pair_notation
from .stock_facts import BOUNDS, DEAD, SHORT, Burial, stock_facts

_PLAIN_NODES = 2000  # nodes a search of the last pass may take before rule 8 takes over
_SEGMENT_NODES = 2000  # nodes a search takes before rule 10 is asked (most end sooner)
_BAGS_BY_TABLE = 16  # `Solver.bag`'s asks before it builds its tables
_NEVER = 1 << 62  # a node count no search reaches
_RELAXED_BUDGET = 20000  # relaxed positions the up-front check may visit before it gives up


class _Switch(Exception):
    """The search of a last pass ran long: rule 8 takes over."""


class SearchTimeout(Exception):
    """Raised inside the search when its time limit is up."""


class Solver:
    """Search one `Problem`. The memo and caches live as long as the solver, so several
    questions about one deal (the start, then each hinted move) share the work. ``pyramid``
    shares the pyramid-only facts with other solvers of the same pyramid and rules."""

    def __init__(self, problem: Problem, pyramid: PyramidFacts | None = None) -> None:
        self.problem = problem
        self.pv = problem.pyramid_values
        self.sv = problem.stock_values
        self.deck_win = problem.deck_win
        if pyramid is None:
            pyramid = PyramidFacts(
                self.pv, deck_win=problem.deck_win, stock_in_play=problem.stock_in_play
            )
        self.pyramid = pyramid
        self.nodes = 0
        self._memo: dict[int, int] = {}
        self._last: LastPass | None = None  # rule 8, once the search of a last pass runs long
        self._switch_at: int | None = None
        self._apex_at_recycle = True  # rule 9 at each recycle into the last pass (see solve)
        # Rule 10 (the stock face down, a pyramid win, two passes): asked in the first pass
        # once a search has taken _SEGMENT_NODES nodes. (Sound in any pass before the last, but
        # with more passes it costs more than it cuts.)
        self._segmented = not (problem.stock_in_play or problem.deck_win) and problem.passes == 2
        self._segments_from = _NEVER  # the node count from which rule 10 is asked (`solve`)
        self._pinfo: dict[int, tuple] = {}
        self._burials: dict[tuple[int, ...], Burial] = {}  # per pyramid cards left per value
        self.deadline: float | None = None
        self.node_limit: int | None = None
        self._value_masks = [0] * 14
        for j, v in enumerate(self.sv):
            self._value_masks[v] |= 1 << j
        # Rule 6 (`_buried`), per stock place: the values whose partners a card put there on
        # the waste may run short of (its own; with the stock top in play, its partner's too,
        # whose stock supply it takes); none for a King, which leaves alone.
        self._strains = tuple(
            () if v == 13 else (v, 13 - v) if problem.stock_in_play else (v,) for v in self.sv
        )
        self._units = [1 << 3 * v for v in self.sv]  # (a bag's unit of each stock place)
        self._bags: list[list[int]] = []  # see `bag`
        self._bags_due = _BAGS_BY_TABLE
        self._sequences: list[list[tuple[int, int]]] = []  # see `_value_tables`

    def _value_tables(self) -> list[list[tuple[int, int]]]:
        """`values_in_order` by table, a byte of stock places at a time: entry m is the values
        of the cards of byte m in order and the bits they take. Built when first asked (the
        search's first position): a deal that rule 9 settles at the start never asks, and the
        tables are most of the cost of a `Solver`. (A plain attribute, empty until then: a
        cached property costs more at every later read.)"""
        tables = []
        for base in range(0, STOCK_SIZE, 8):
            runs = [(0, 0)] * 256
            for m in range(1, 256):
                high = m.bit_length() - 1
                seq, width = runs[m ^ (1 << high)]
                runs[m] = (seq | self.sv[base + high] << width, width + 4)
            tables.append(runs)
        self._sequences = tables
        return tables

    def after(self, state: tuple[int, int, int, int], move: str) -> tuple[int, int, int, int]:
        """The position after a legal move (a notation), in the solver's terms."""
        P, S, k, p = state
        if move == "draw":
            return P, S, next_stock(S, k), p
        if move == "recycle":
            return P, S, first_stock(S, 0), p if self.problem.passes is None else p + 1
        where = {name: i for i, name in enumerate(self.problem.pyramid + self.problem.stock)}
        nk = k
        for name in move.split("+"):
            i = where[name]
            if i < PYRAMID_SIZE:
                P |= 1 << i
            else:
                j = i - PYRAMID_SIZE
                if j == k:
                    nk = next_stock(S, k)
                S &= ~(1 << j)
        return P, S, nk, p

    # ------------------------------------------------------------------ per-pyramid facts
    def _info(self, P: int) -> tuple:
        """The `stock_facts` of pyramid state P, cached."""
        info = self._pinfo.get(P)
        if info is None:
            info = stock_facts(
                self.pyramid, P, self._value_masks, self._burials, self.problem.stock_in_play
            )
            self._pinfo[P] = info
        return info

    def dead(self, P: int, S: int) -> bool:
        """True when the bounds prove position (P, S) lost whatever the boundary and pass."""
        for mask, low, high in self._info(P)[BOUNDS]:
            n = (S & mask).bit_count()
            if n < low or n > high:
                return True
        return False

    def bag(self, S: int) -> int:
        """The values of the cards of mask S as a count vector: 3 bits per value v at 3v.

        By table, a byte of stock places at a time (entry m sums the cards of byte m), once
        the solver has asked _BAGS_BY_TABLE times: a deal that rule 9 settles at the start asks
        a handful, fewer than the tables would cost to build, and a long search asks hundreds
        of thousands."""
        tables = self._bags
        if tables:
            a, b, c = tables
            return a[S & 255] + b[S >> 8 & 255] + c[S >> 16]
        self._bags_due -= 1
        if not self._bags_due:
            self._bag_tables()
        units = self._units
        total = 0
        while S:
            low = S & -S
            S ^= low
            total += units[low.bit_length() - 1]
        return total

    def _bag_tables(self) -> None:
        """Build `bag`'s three byte tables, each from two nibbles' tables."""
        for base in range(0, STOCK_SIZE, 8):
            low, high = [0] * 16, [0] * 16
            for m in range(1, 16):
                bit = m & -m
                j = base + bit.bit_length() - 1
                low[m] = low[m ^ bit] + (1 << 3 * self.sv[j])
                high[m] = high[m ^ bit] + (1 << 3 * self.sv[j + 4])
            self._bags.append([h + n for h in high for n in low])

    def values_in_order(self, S: int) -> int:
        """The values of the cards of mask S in layout order (the order they are drawn in), 4
        bits each, the first lowest: what a position's waste and stock are to the rules (the
        memo's key, rule 5, and `PyramidFacts.drained`'s second phase)."""
        a, b, c = self._sequences or self._value_tables()
        x, y, z = a[S & 255], b[S >> 8 & 255], c[S >> 16]
        return x[0] | y[0] << x[1] | z[0] << x[1] + y[1]

    def proven_lost(self, P: int, S: int, k: int, p: int) -> bool:
        """True when the memo holds position (P, S, k, p) proven lost (rule 5): a walk of the
        same pyramid and the same values in order failed from this pass and waste size or an
        earlier one. (The shortest-win search reads it so.)"""
        a, b, c = self._sequences or self._value_tables()  # (`values_in_order`, inline: it
        # is asked for every child)
        x, y, z = a[S & 255], b[S >> 8 & 255], c[S >> 16]
        end = self._memo.get(P | (x[0] | y[0] << x[1] | z[0] << x[1] + y[1]) << 28)
        return end is not None and end <= (p << 5 | (S & ((1 << k) - 1)).bit_count())

    def lost_pyramids(self) -> set[int]:
        """The pyramids (P) of the memo's positions: no position of another pyramid is
        `proven_lost`, so a caller asking for many positions may ask this set first."""
        return {key & FULL for key in self._memo}

    def relaxed_within(self, P: int, bag: int, budget: int) -> bool:
        """The relaxed game's verdict (`PyramidFacts.relaxed`) within ``budget`` positions."""
        return self.pyramid.relaxed_within(P, bag, budget)

    def kept(self, P: int, S: int, k: int) -> int:
        """The cards of a last-pass position as the search keeps them (rule 6): ``S`` without
        the waste cards buried for good, or -1 when that proves the position lost."""
        if S & ((1 << k) - 1):
            info = self._info(P)
            cut = self._buried(S & ((1 << k) - 1), S >> k << k, info[DEAD], info[SHORT])
            if cut:
                if self.deck_win or self.dead(P, S & ~cut):
                    return -1
                S &= ~cut
        return S

    def _buried(self, waste: int, stock: int, dead: int, short: Sequence, added: int = -1) -> int:
        """In the last pass, the waste cards (mask ``waste``, the stock ``stock``) that can never
        be used again: the first card from the top left without a partner, and every card under
        it (docs/solver.md, "Rule 6: burial in the last pass"). Returns their mask (0: none).

        ``dead`` and ``short`` are rule 6's values (`stock_facts.Burial`). When only the cards of
        mask ``added`` joined a waste that had nothing buried, only their values (and, with the
        stock top in play, their partners' values, whose stock supply they took) are looked at (-1:
        those of the whole waste).
        """
        cut = (waste & dead).bit_length() - 1
        strains, masks, sv = self._strains, self._value_masks, self.sv
        if added < 0:
            added = waste  # (a value with no card in the waste, nor its partner's, buries none)
        while added:
            j = (added & -added).bit_length() - 1
            added &= ~masks[sv[j]]  # (the other cards of its value strain the same values)
            for v in strains[j]:
                entry = short[v]
                if entry is None:
                    continue
                mask, supply, partner = entry
                cards = waste & mask
                if cards.bit_length() <= cut + 1 or (supply and not cards & (cards - 1)):
                    continue  # none above the cut so far, or one card with a partner left
                many = cards.bit_count()
                if many > supply and partner:
                    supply += (stock & partner).bit_count()
                if many > supply:
                    # Values spend separate partners: the (supply + 1)-th card of this value
                    # from the top is the first one left without a partner.
                    for _ in range(supply):
                        cards ^= 1 << (cards.bit_length() - 1)
                    top = cards.bit_length() - 1
                    if top > cut:
                        cut = top
        return (2 << cut) - 1 if cut >= 0 else 0

    # ------------------------------------------------------------------ exact search
    def solve(
        self,
        state: tuple[int, int, int, int],
        deadline: float | None = None,
        node_limit: int | None = None,
        relaxed_budget: int = _RELAXED_BUDGET,
        apex_at_recycle: bool = True,
    ) -> list[str] | None:
        """A winning line from ``state`` as notations, or None when none exists.

        Raises SearchTimeout when ``deadline`` (a time.perf_counter() value) passes or the
        solver's node count passes ``node_limit`` first. A node limit makes the answer
        deterministic: the same question always gets the same answer, however fast the machine.
        ``relaxed_budget`` bounds the up-front relaxed check (rule 7); ``apex_at_recycle``
        False leaves rule 9 out at the recycles into the last pass (it is still checked at a
        start in the last pass). Both only decide how much is cut, never a verdict: rules 7
        and 9 only cut lost positions, and their work is not counted in nodes, so a search
        with a small node budget (a fair hint's) may do better with less of it.
        """
        self.deadline, self.node_limit = deadline, node_limit
        self._apex_at_recycle = apex_at_recycle
        self._segments_from = (
            self.nodes + _SEGMENT_NODES if self._segmented and apex_at_recycle else _NEVER
        )
        P, S, k, p = state
        if self.problem.passes is None:
            p = 0
        out: list[str] = []
        self.pyramid.on_tick = self.check_budget  # the relaxed searches watch the budget too
        try:
            # Rule 9 before rule 7 where both apply: it cuts most lost positions of a last pass
            # by itself, and its second phases are relaxed games already.
            if p == self.problem.passes and not apex_reachable(
                self, P, S & ((1 << k) - 1), S >> k << k
            ):
                return None  # rule 9
            if not self.relaxed_within(P, self.bag(S), relaxed_budget):
                return None  # rule 7
            if p != self.problem.passes:
                found = self._dfs(P, S, k, p, out)
            else:
                # The last pass: the search stops after _PLAIN_NODES nodes and rule 8 decides
                # the position instead (most positions are settled sooner without it): see
                # docs/solver.md, "Rule 8: the last pass as a stack".
                found = None
                if self._last is None:
                    self._switch_at = self.nodes + _PLAIN_NODES
                    try:
                        found = self._dfs(P, S, k, p, out)
                    except _Switch:
                        out.clear()
                        self._last = LastPass(self)
                    finally:
                        self._switch_at = None
                if found is None:
                    W, T = S & ((1 << k) - 1), S >> k << k
                    found = self._last.winnable(P, W, T) and self._dfs(P, S, k, p, out)
            if not found:
                return None
        finally:
            self.pyramid.on_tick = None
        out.reverse()
        return out

    def check_budget(self) -> None:
        """Raise SearchTimeout when the time or node budget of the current question is spent."""
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise SearchTimeout
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise SearchTimeout
        if self._switch_at is not None and self.nodes > self._switch_at:
            raise _Switch

    def _dfs(self, P: int, S: int, k: int, p: int, out: list[str], dirty: int = -1) -> bool:
        """Depth-first search from a position reached by a removal (or the start): True when it
        wins, its moves appended to ``out`` in reverse.

        The draws and recycles from here are walked in a loop, each link one boundary (and
        pass) of the same cards left, memoised per set of cards left (docs/solver.md, "Rule 5:
        dominance across the stock boundary"); links where nothing can be removed are walked
        past without a look. A win takes back its walk's memo entries, so that the memo only
        ever holds positions proven lost. ``dirty`` (a stock mask of values, -1 for all) says
        which waste values rule 6 must look at again: the parent's waste had nothing buried,
        and the move that led here only took partners of these values away.
        """
        memo = self._memo
        key = P | self.values_in_order(S) << 28
        code = p << 5 | (S & ((1 << k) - 1)).bit_count()
        end = memo.get(key)
        if end is not None and end <= code:
            return False  # rule 5
        if P == FULL and (not S or not self.deck_win):
            return True
        last_pass = self._last
        if (
            last_pass is not None
            and p == self.problem.passes
            and not last_pass.winnable(P, S & ((1 << k) - 1), S >> k << k)
        ):
            memo[key] = code  # rule 8
            return False
        info = self._pinfo.get(P)
        if info is None:
            info = self._info(P)
        # One unpack, in the order `stock_facts` names: at every node, the cheapest read.
        king_bit, king, pairs, by_value, bounds, _, _, useful, forced, dead, short = info
        for mask, low, high in bounds:  # docs/solver.md, "Rule 1: counting and matching bounds"
            n = (S & mask).bit_count()
            if n < low or n > high:
                return False
        problem = self.problem
        pyramid = problem.pyramid
        passes = problem.passes
        if king_bit:
            # docs/solver.md, "Rule 2: forced Kings": an exposed pyramid King leaves at once.
            if self._dfs(P | king_bit, S, k, p, out, dirty):
                out.append(pyramid[king])
                return True
            memo[key] = code if passes is not None else 0
            return False
        # docs/solver.md, "Rule 3: a forced single partner": an exposed card whose one partner
        # left is in play pairs with it now. Such a partner in the pyramid is played here; one
        # in waste or stock is noted in ``solo`` for the links of the walk where it is on top.
        solo: dict[int, int] = {}
        masks = self._value_masks
        for i, need, mates in forced:
            others = S & masks[need]
            if mates:
                if not others:
                    if dirty >= 0:
                        dirty |= masks[need] | masks[13 - need]
                    if self._dfs(P | 1 << i | mates, S, k, p, out, dirty):
                        j = mates.bit_length() - 1
                        out.append(pair_notation(pyramid[i], pyramid[j]))
                        return True
                    memo[key] = code if passes is not None else 0
                    return False
            elif others and not others & (others - 1):
                solo[others] = i
        stock = problem.stock
        sv = self.sv
        sv_pyr = self.pv
        open_stock = problem.stock_in_play
        king_from_stock = problem.king_from_stock
        deck_win = self.deck_win
        last = p == passes
        segmented = self._segmented and p + 1 == passes  # (rule 10 may be asked in this walk)
        walk = [0]  # draws per pass since the start of the walk (a recycle between two)
        keys: list[tuple[int, int | None]] = []  # (memo key, its code before this walk)
        keyed = -1
        start = S  # (the walk's first link has the key and memo entry looked up above)
        entry = None
        first = True
        settled = S & ((1 << k) - 1) & ~dirty if dirty >= 0 else -1  # nothing buried in it
        try:
            while True:
                if last and S & ((1 << k) - 1):
                    # docs/solver.md, "Rule 6: burial in the last pass".
                    waste = S & ((1 << k) - 1)
                    added = waste & ~settled if settled >= 0 else -1
                    cut = self._buried(waste, S >> k << k, dead, short, added) if added else 0
                    settled = waste & ~cut
                    if cut:
                        if deck_win:
                            return False
                        S &= ~cut
                        for mask, low, high in bounds:
                            n = (S & mask).bit_count()
                            if n < low or n > high:
                                return False
                code = p << 5 | (S & ((1 << k) - 1)).bit_count()
                if keyed != S:  # (the walk's first link, or rule 6 buried some)
                    keyed = S
                    if start != S:
                        key = P | self.values_in_order(S) << 28
                        end = memo.get(key)
                        if end is not None and end <= code:
                            return False
                    # Under unlimited passes one walk goes round every boundary: all covered.
                    memo[key] = code if passes is not None else 0
                    keys.append((key, end))
                    entry = code
                elif end is not None and end <= code:
                    return False
                self.nodes += 1
                if not self.nodes & CHECK_EVERY:
                    self.check_budget()
                move = None
                if first:
                    # docs/solver.md, "Rule 4: pyramid pairs only after a removal".
                    first = False
                    for bits, i, j in pairs:
                        v = sv_pyr[i]
                        if self._dfs(P | bits, S, k, p, out, masks[v] | masks[13 - v]):
                            move = pair_notation(pyramid[i], pyramid[j])
                            break
                w = (S & ((1 << k) - 1)).bit_length() - 1
                if move is None and solo:
                    for bit in (1 << w if w >= 0 else 0, 1 << k if open_stock else 0):
                        i = solo.get(bit)
                        if i is not None:
                            # Rule 3 (see above): the one partner left of pyramid card i is on top.
                            j = bit.bit_length() - 1
                            nk = next_stock(S, k) if j == k else k
                            if not self._dfs(
                                P | 1 << i,
                                S ^ bit,
                                nk,
                                p,
                                out,
                                0 if j != k else masks[sv[j]] | masks[13 - sv[j]],
                            ):
                                return False
                            move = pair_notation(pyramid[i], stock[j])
                            break
                if move is None and w >= 0:
                    wv = sv[w]
                    if wv == 13:
                        # Rule 2: a King on the waste top leaves at once.
                        if not self._dfs(P, S ^ (1 << w), k, p, out, 0):
                            return False
                        move = stock[w]
                    else:
                        for i in by_value[13 - wv]:
                            if self._dfs(P | 1 << i, S ^ (1 << w), k, p, out, 0):
                                move = pair_notation(pyramid[i], stock[w])
                                break
                if move is None and open_stock and k < EMPTY_STOCK:
                    tv = sv[k]
                    rest = S ^ (1 << k)
                    nk = next_stock(S, k)
                    if tv == 13 and king_from_stock:
                        # Rule 2: a King on the face-up stock top leaves at once.
                        if not self._dfs(P, rest, nk, p, out, 0):
                            return False
                        move = stock[k]
                    elif w >= 0 and wv + tv == 13 and self._dfs(P, rest ^ (1 << w), nk, p, out, 0):
                        move = pair_notation(stock[w], stock[k])
                    else:
                        touched = masks[tv] | masks[13 - tv]
                        for i in by_value[13 - tv]:
                            if self._dfs(P | 1 << i, rest, nk, p, out, touched):
                                move = pair_notation(pyramid[i], stock[k])
                                break
                if move is not None:
                    _walked(out, move, walk)
                    self._take_back(keys)
                    return True
                if k == EMPTY_STOCK:
                    if not S or (passes is not None and p >= passes):
                        return False
                    # Rule 9 before rule 7 where both apply, as at the start (`solve`): it cuts
                    # most recycles into a last pass by itself.
                    if (
                        p + 1 == passes
                        and self._apex_at_recycle
                        and not apex_reachable(self, P, 0, S)
                    ):
                        return False  # rule 9
                    if not self.pyramid.relaxed(P, self.bag(S)):
                        return False  # rule 7, after a recycle
                    k = first_stock(S, 0)
                    if passes is None:
                        end = entry  # unlimited passes: round once, back to where the walk began
                    else:
                        p += 1
                        last = p == passes
                        segmented = False
                        settled = 0  # the waste is empty again
                    walk.append(0)
                    continue
                # Draw, then walk past the links where nothing can be removed.
                if open_stock:
                    w, k = k, next_stock(S, k)
                    walk[-1] += 1
                    while k < EMPTY_STOCK and not (
                        useful >> w & 1 or useful >> k & 1 or sv[w] + sv[k] == 13
                    ):
                        w, k = k, next_stock(S, k)
                        walk[-1] += 1
                else:
                    coming = S >> k << k & useful
                    if coming:
                        j = (coming & -coming).bit_length() - 1
                        walk[-1] += (S >> k & ((2 << (j - k)) - 1)).bit_count()
                        drawn = S & (1 << j) - (1 << k)
                        k = next_stock(S, j)
                        # Rule 10 only where a dead card is drawn: asked at every walk's first
                        # link too, it cuts more nodes but costs more time than it saves (each
                        # ask is a relaxed search of several nodes).
                        if (
                            segmented
                            and drawn & dead
                            and self.nodes >= self._segments_from
                            and not segments_ahead(self, P, S, k)
                        ):
                            return False  # rule 10: a dead card drawn
                    else:
                        walk[-1] += (S >> k).bit_count()
                        k = EMPTY_STOCK
        except (SearchTimeout, _Switch):
            self._take_back(keys)  # (interrupted: the walk's entries are not proven losses)
            raise

    def _take_back(self, keys: list[tuple[int, int | None]]) -> None:
        """Give back a walk's memo entries (each key with its code before the walk, or None),
        which are no proof of a loss: the walk won, or was interrupted."""
        memo = self._memo
        for key, end in keys:
            if end is None:
                memo.pop(key, None)
            else:
                memo[key] = end


def _walked(out: list[str], move: str, walk: list[int]) -> None:
    """Append a walk's winning line to ``out``, in reverse: the removal ``move``, then the
    draws of each pass of the walk (``walk``), a recycle between two."""
    out.append(move)
    for n in range(len(walk) - 1, -1, -1):
        out.extend(["draw"] * walk[n])
        if n:
            out.append("recycle")
