"""Exact search: is this position winnable, and if so by which moves (optionally the fewest)?

Representation
--------------
The solver never touches a `Game` while searching. A `Problem` holds the deal (28 pyramid
cards, the 24 other cards in their original order) and the rules; a position is four small ints:

- ``P``: bit i set when pyramid card i is gone (28 bits);
- ``S``: bit j set when the j-th non-pyramid card of the layout is still in the game (24 bits);
- ``k``: the boundary between waste and stock. The cards still in the game, in original order,
  are always "waste, then stock" (a draw moves the boundary right, a recycle moves it back, a
  removal takes a card out), so the waste is the set bits of ``S`` below ``k`` and the stock the
  set bits at ``k`` and above. ``k`` is kept canonical: the position of the stock top, or 24
  when the stock is empty;
- ``p``: the pass number (always 0 under unlimited passes, where it does not matter).

The memo key is the set of cards left, ``P | S << 28``; the memo maps it to the least
(pass, boundary) code ``p << 5 | k`` from which those cards were walked without success (rule 5).
A search that finds a win takes back the entries of its winning walks, so the memo only ever
holds positions proven lost and one solver can answer several questions about one deal.

Why "unwinnable" is a proof
---------------------------
The depth-first search walks every position reachable from the start except where one of the
rules below cuts the tree. When it ends without a win, the set V of walked positions is closed:
every move out of a position of V leads into V, or was cut by a rule. Each rule comes with an
argument that if a cut position were winnable, some position of V would be winnable "strictly
closer to a win", measured lexicographically by (fewest removals needed, then fewest moves, then
cards left). A winnable position of V with the smallest measure would then have a winnable
successor of smaller measure in V: impossible. So no position of V, the start included, is
winnable. The rules (each argued at its definition):

1. Bounds: the counting and matching bounds per pair of ranks (`PyramidFacts._bounds`): a
   position that breaks one is lost (a pyramid card whose every partner left lies on it, too
   few partners left for the cards of a rank ...).
2. Forced Kings: a King that can leave now (pyramid, waste top, face-up stock top when the rules
   let it go from there) leaves now, and nothing else is tried (deletion lemma).
3. Forced single partner: when an exposed pyramid card has exactly one possible partner left
   (a card of the matching value, still in the game, that can ever be in play with it) and that
   partner is in play now, the two pair now and nothing else is tried. Every win removes the
   pyramid card, and only with that partner, so the deletion lemma applies.
4. Pyramid pairs commute with draws and recycles: a pair of two pyramid cards is tried only in a
   position reached by a removal (or the start), not after a draw or a recycle. A win that
   plays such a pair after draws D can play it before D instead: one removal fewer from the
   position after the pair, which is where the search tries it.
5. Dominance across the stock boundary: for the same cards left, a position at an earlier
   (pass, boundary), compared lexicographically, reaches every later one by draws and recycles
   alone. A walk from a removal goes through every later (pass, boundary) of its cards (the
   links where nothing can be removed included, the last-pass burial of rule 6 aside, which
   only drops cards that win alike), until it reaches the code of an earlier walk of the
   same cards; so a position at or after a memoised code is in V already and is not searched
   again, and one entry per set of cards left suffices. Under unlimited passes a walk goes
   round once, back to where it began, which covers every boundary.
6. Burial in the last pass (`Solver._buried`): with no recycle left, a waste card that can
   never leave (its partners, spent one per card from the top down, run out) locks the cards
   under it for good. They are dropped from the position (they can never be used, so the
   positions with and without them win alike); under the whole-deck win the position is lost.
7. Relaxation (`PyramidFacts.relaxed`), checked at the start and after each recycle: if the
   pyramid could not be cleared even with every waste and stock card usable at any time, the
   position is lost.

Draws where nothing can be removed are walked through without being memoised (they have one
move, the next draw), and a link reached again ends the walk: its continuation was searched.

Deletion lemma (used by 2 and 3): deleting a card from the waste-and-stock sequence, or a
pyramid card from the pyramid, never makes another move illegal: the waste top and the stock top
that remain are the same cards, more pyramid cards are exposed, a draw of the deleted card or a
recycle of an emptied waste is simply dropped, and no extra recycle is ever needed. So if a line
L wins from a position where cards X can leave together now and X leaves in L (or never
matters), then "X now, then L without the moves on X" wins too, with no more removals and no
more moves.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import COVERED_BY, LYING_ON, PYRAMID_SIZE, STOCK_SIZE

FULL = (1 << PYRAMID_SIZE) - 1
EMPTY_STOCK = STOCK_SIZE  # the canonical boundary k when the stock is empty
_CHECK_EVERY = 2047  # nodes between two looks at the clock (a power of two minus one)

COVER = tuple(sum(1 << j for j in COVERED_BY[i]) for i in range(PYRAMID_SIZE))
"""COVER[i]: mask of the two cards lying directly on pyramid card i (0 for the bottom row)."""

_COMPARABLE = tuple(
    sum(1 << j for j in LYING_ON[i]) | sum(1 << j for j in range(PYRAMID_SIZE) if i in LYING_ON[j])
    for i in range(PYRAMID_SIZE)
)
"""_COMPARABLE[i]: pyramid cards that lie on card i or that card i lies on. Such a card can
never be in play at the same time as card i, so the two can never pair."""


_RELAXED_BUDGET = 20000  # relaxed positions the up-front check may visit before it gives up


class _OutOfBudget(Exception):
    """The relaxed check used up its budget: no conclusion."""


class SearchTimeout(Exception):
    """Raised inside the search when its time limit is up."""


@dataclass(frozen=True)
class Problem:
    """A deal, its rules and a position, in the solver's terms.

    ``pyramid`` and ``stock`` are card names ("Th") in layout order (``stock`` is the 24 cards
    29-52, the first drawn first); ``values`` follow from the names. ``start`` is (P, S, k, p).
    ``passes`` is None for unlimited passes.
    """

    pyramid: tuple[str, ...]
    stock: tuple[str, ...]
    stock_in_play: bool
    king_from_stock: bool
    passes: int | None
    deck_win: bool
    start: tuple[int, int, int, int]

    @property
    def pyramid_values(self) -> tuple[int, ...]:
        return tuple(card_value(name) for name in self.pyramid)

    @property
    def stock_values(self) -> tuple[int, ...]:
        return tuple(card_value(name) for name in self.stock)


def card_value(name: str) -> int:
    """Value of a card name: "A" 1 ... "K" 13."""
    return "A23456789TJQK".index(name[0]) + 1


def pair_notation(a: str, b: str) -> str:
    """The engine's canonical pair notation: lower (rank, suit) first."""
    order = "A23456789TJQK"

    def key(name: str) -> tuple[int, int]:
        return order.index(name[0]), "cdhs".index(name[1])

    return "+".join(sorted((a, b), key=key))


def next_stock(S: int, k: int) -> int:
    """The canonical boundary after the card at ``k`` left the stock: the next card still in
    the game after position k, or EMPTY_STOCK."""
    rest = S >> (k + 1)
    if not rest:
        return EMPTY_STOCK
    return k + (rest & -rest).bit_length()


def first_stock(S: int, k: int) -> int:
    """The canonical boundary for a raw boundary ``k``: the first card in the game at or after
    position k, or EMPTY_STOCK."""
    rest = S >> k
    if not rest:
        return EMPTY_STOCK
    return k + (rest & -rest).bit_length() - 1


@functools.cache
def _exposed(P: int) -> tuple[int, ...]:
    """The pyramid cards in play when the cards of mask P are gone (the same for every deal)."""
    return tuple(i for i in range(PYRAMID_SIZE) if not P >> i & 1 and P & COVER[i] == COVER[i])


@functools.cache
def _max_matching(left: tuple[int, ...], right: tuple[int, ...]) -> int:
    """Largest set of disjoint pairs (l, r) of pyramid cards that can ever be in play together
    (neither lies on the other). Tiny graphs (at most 4 x 4): simple augmenting paths."""
    match: dict[int, int] = {}

    def augment(a: int, tried: set[int]) -> bool:
        for b in right:
            if b in tried or _COMPARABLE[a] >> b & 1:
                continue
            tried.add(b)
            if b not in match or augment(match[b], tried):
                match[b] = a
                return True
        return False

    return sum(1 for a in left if augment(a, set()))


class PyramidFacts:
    """What depends only on the 28 pyramid cards and the rules, cached per pyramid state P and
    shared by every solver of the same pyramid (a fair hint's completions differ only in the
    stock): exposed cards, pairs, counts, the bounds of `_bounds`, and the relaxed game's
    verdicts (`relaxed`)."""

    def __init__(self, pyramid_values: Sequence[int], *, deck_win: bool, stock_in_play: bool):
        self.pv = tuple(pyramid_values)
        self.deck_win = deck_win
        self.stock_in_play = stock_in_play
        self._partners = tuple(
            sum(
                1 << j
                for j in range(PYRAMID_SIZE)
                if self.pv[i] + self.pv[j] == 13 and not _COMPARABLE[i] >> j & 1
            )
            for i in range(PYRAMID_SIZE)
        )
        self._facts: dict[int, tuple] = {}
        self._relaxed: dict[int, bool] = {}
        self._relaxed_left: int | None = None
        self._ticks = 0
        self.on_tick = None  # called every 512 relaxed positions (the solver's budget check)

    def facts(self, P: int) -> tuple:
        """(King bit, King index, pyramid pairs as (bits, i, j), exposed cards by value,
        counts of cards left by value, removals lower bound, bounds as (value, low, high),
        and per exposed card other than a King: (index, partner value, mask of the pyramid
        cards left that could still pair with it))."""
        facts = self._facts.get(P)
        if facts is not None:
            return facts
        pv = self.pv
        exposed = _exposed(P)
        king = next((i for i in exposed if pv[i] == 13), -1)
        by_value: list[tuple[int, ...]] = [() for _ in range(14)]
        for i in exposed:
            by_value[pv[i]] += (i,)
        pairs = tuple(
            ((1 << i) | (1 << j), i, j)
            for n, i in enumerate(exposed)
            for j in exposed[n + 1 :]
            if pv[i] + pv[j] == 13
        )
        left_by_value: list[list[int]] = [[] for _ in range(14)]
        for i in range(PYRAMID_SIZE):
            if not P >> i & 1:
                left_by_value[pv[i]].append(i)
        counts = [len(cards) for cards in left_by_value]
        specs, removals = self._bounds(left_by_value)
        lonely = tuple((i, 13 - pv[i], self._partners[i] & ~P) for i in exposed if pv[i] != 13)
        facts = (
            (1 << king) if king >= 0 else 0,
            king,
            pairs,
            tuple(by_value),
            tuple(counts),
            removals,
            specs,
            lonely,
        )
        self._facts[P] = facts
        return facts

    def _bounds(
        self, left_by_value: list[list[int]]
    ) -> tuple[tuple[tuple[int, int, int], ...], int]:
        """Counting and matching bounds, as (value, low, high): the number of cards of that
        value still in waste and stock must lie in [low, high], or the position is lost.

        For ranks r and s = 13 - r, let a and b be the pyramid cards of each rank still there,
        and M the largest matching of r-cards with s-cards that can ever be in play together
        (neither lies on the other). Every pyramid card must leave with a partner of the other
        rank, used once: at most M of the a cards find it in the pyramid, so at least a - M
        s-cards must still be in waste and stock; likewise b - M r-cards. This includes the
        rule "a pyramid card whose every remaining partner lies on it can never go". Under the
        whole-deck win with the stock face down, two non-pyramid cards can never pair (only the
        waste top is in play), so each of them needs its own pyramid partner: at most b
        r-cards and at most a s-cards may be left in waste and stock.

        Also returns a lower bound on the removals still needed to clear the pyramid: one per
        King, and a + b - M per pair of ranks (a move takes at most two pyramid cards, and only
        a matched pair can be two pyramid cards).
        """
        bounds = []
        removals = len(left_by_value[13])
        for r in range(1, 7):
            s = 13 - r
            left, right = left_by_value[r], left_by_value[s]
            m = _max_matching(tuple(left), tuple(right)) if left and right else 0
            high_r = high_s = 4
            if self.deck_win and not self.stock_in_play:
                high_r, high_s = len(right), len(left)
            low_s, low_r = len(left) - m, len(right) - m
            removals += len(left) + len(right) - m
            if low_s > 0 or high_s < 4:
                bounds.append((s, low_s, high_s))
            if low_r > 0 or high_r < 4:
                bounds.append((r, low_r, high_r))
        return tuple(bounds), removals

    def relaxed_within(self, P: int, bag: int, budget: int) -> bool:
        """`relaxed`, giving up (and answering True: nothing proven) after ``budget`` new
        relaxed positions."""
        self._relaxed_left = budget
        try:
            return self.relaxed(P, bag)
        except _OutOfBudget:
            return True
        finally:
            self._relaxed_left = None

    def relaxed(self, P: int, bag: int) -> bool:
        """Could the pyramid P be cleared if the waste-and-stock cards (``bag``: 3 bits per
        value v at bit 3v) could all be used at any time, each once? A winning line of the real
        game is a winning line of this easier game (drop its draws, recycles and stock-with-
        stock pairs), so False proves the real position lost (rule 7). Memoised per (P, bag).
        """
        key = P | bag << 28
        known = self._relaxed.get(key)
        if known is not None:
            return known
        self._ticks += 1
        if not self._ticks & 511 and self.on_tick is not None:
            self.on_tick()
        if self._relaxed_left is not None:
            self._relaxed_left -= 1
            if self._relaxed_left < 0:
                raise _OutOfBudget
        if P == FULL:
            # Whole deck: with the stock face down only Kings may be left in the bag.
            result = not self.deck_win or self.stock_in_play or not bag & ~(7 << 39)
        else:
            king_bit, _, pairs, by_value, _, _, specs, _ = self.facts(P)
            result = False
            for v, low, high in specs:
                n = bag >> 3 * v & 7
                if n < low or n > high:
                    break
            else:
                if king_bit:
                    result = self.relaxed(P | king_bit, bag)
                else:
                    result = any(self.relaxed(P | bits, bag) for bits, _, _ in pairs)
                    if not result:
                        for v in range(1, 13):
                            if by_value[v] and bag >> 3 * (13 - v) & 7:
                                less = bag - (1 << 3 * (13 - v))
                                if any(self.relaxed(P | 1 << i, less) for i in by_value[v]):
                                    result = True
                                    break
        self._relaxed[key] = result
        return result


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
        self._pinfo: dict[int, tuple] = {}
        self.deadline: float | None = None
        self.node_limit: int | None = None
        self._where = {name: i for i, name in enumerate(problem.pyramid + problem.stock)}
        self._value_masks = [0] * 14
        for j, v in enumerate(self.sv):
            self._value_masks[v] |= 1 << j

    def after(self, state: tuple[int, int, int, int], move: str) -> tuple[int, int, int, int]:
        """The position after a legal move (a notation), in the solver's terms."""
        P, S, k, p = state
        if move == "draw":
            return P, S, next_stock(S, k), p
        if move == "recycle":
            return P, S, first_stock(S, 0), p if self.problem.passes is None else p + 1
        where = self._where
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
        """Facts about pyramid state P for this stock, cached: (King bit, King index, pyramid
        pairs, exposed cards by value, bounds as (stock mask, low, high, 3 * value), counts of
        pyramid cards left by value, mask of stock cards that could pair with an exposed card
        or are Kings, removals lower bound, exposed cards' pyramid partners (see `facts`))."""
        info = self._pinfo.get(P)
        if info is not None:
            return info
        king_bit, king, pairs, by_value, counts, removals, specs, lonely = self.pyramid.facts(P)
        masks = self._value_masks
        useful = masks[13]
        for v in range(1, 13):
            if by_value[13 - v]:
                useful |= masks[v]
        bounds = tuple((masks[v], low, high, 3 * v) for v, low, high in specs)
        info = (king_bit, king, pairs, by_value, bounds, counts, useful, removals, lonely)
        self._pinfo[P] = info
        return info

    def dead(self, P: int, S: int) -> bool:
        """True when the bounds prove position (P, S) lost whatever the boundary and pass."""
        for mask, low, high, _ in self._info(P)[4]:
            n = (S & mask).bit_count()
            if n < low or n > high:
                return True
        return False

    def bag(self, S: int) -> int:
        """The values of the cards of mask S as a count vector: 3 bits per value v at 3v."""
        masks = self._value_masks
        return sum((S & masks[v]).bit_count() << 3 * v for v in range(1, 14))

    def relaxed_within(self, P: int, bag: int, budget: int) -> bool:
        """The relaxed game's verdict (`PyramidFacts.relaxed`) within ``budget`` positions."""
        return self.pyramid.relaxed_within(P, bag, budget)

    def settle(self, P: int, S: int, k: int, p: int, fresh: bool) -> tuple | None:
        """A position as the search keeps it: in the last pass the buried waste cards are
        dropped (rule 6); None when that proves it lost."""
        if p == self.problem.passes and S & ((1 << k) - 1):
            cut = self._buried(S & ((1 << k) - 1), S >> k << k, self._info(P)[5])
            if cut:
                if self.deck_win or self.dead(P, S & ~cut):
                    return None
                S &= ~cut
        return (P, S, k, p, fresh)

    def _buried(self, waste: int, stock: int, counts: Sequence[int]) -> int:
        """In the last pass, the waste cards (mask ``waste``) that can never be used again.

        A waste card is usable only once every card above it has left, each with its own
        partner: a pyramid card still there (``counts`` per value) or, with the stock top in
        play, a card still in the stock (mask ``stock``); never another waste card. Walking down
        from the top and spending one partner per card, the first card left without a partner
        can never leave, so neither it nor anything under it will ever be in play again (no
        recycle is left). Returns the mask of those cards (0 if none).
        """
        masks = self._value_masks
        open_stock = self.problem.stock_in_play
        cut = -1
        for v in range(1, 13):
            cards = waste & masks[v]
            if not cards:
                continue
            supply = counts[13 - v]
            many = cards.bit_count()
            if many > supply and open_stock:
                supply += (stock & masks[13 - v]).bit_count()
            if many > supply:
                # Values spend separate partners: the (supply + 1)-th card of this value from
                # the top is the first one left without a partner.
                for _ in range(supply):
                    cards ^= 1 << (cards.bit_length() - 1)
                cut = max(cut, cards.bit_length() - 1)
        return (2 << cut) - 1 if cut >= 0 else 0

    # ------------------------------------------------------------------ exact search
    def solve(
        self,
        state: tuple[int, int, int, int],
        deadline: float | None = None,
        node_limit: int | None = None,
        relaxed_budget: int = _RELAXED_BUDGET,
    ) -> list[str] | None:
        """A winning line from ``state`` as notations, or None when none exists.

        Raises SearchTimeout when ``deadline`` (a time.perf_counter() value) passes or the
        solver's node count passes ``node_limit`` first. A node limit makes the answer
        deterministic: the same question always gets the same answer, however fast the machine.
        """
        self.deadline, self.node_limit = deadline, node_limit
        P, S, k, p = state
        if self.problem.passes is None:
            p = 0
        out: list[str] = []
        self.pyramid.on_tick = self.check_budget  # the relaxed searches watch the budget too
        try:
            if not self.relaxed_within(P, self.bag(S), relaxed_budget):
                return None
            if not self._dfs(P, S, k, p, out):
                return None
        except SearchTimeout:
            self._memo.clear()  # it holds the interrupted walks, not proven losses
            raise
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

    def _dfs(self, P: int, S: int, k: int, p: int, out: list[str]) -> bool:
        """Depth-first search from a position reached by a removal (or the start).

        The draws and recycles from here are walked in a loop, not by recursion: each link of
        the walk is one boundary (and pass) of the same cards left. The memo keeps, per set of
        cards left, the least (pass, boundary) code from which the walk was made (rule 5): a
        later walk of the same cards stops on reaching it, and a position at or after it is
        not searched again. Links where nothing can be removed are walked past without a look
        (they have no move but the next draw). On success the moves are appended to ``out`` in
        reverse and the memo entries of the winning walk are taken back, so that the memo only
        ever holds positions proven lost.
        """
        if P == FULL and (not S or not self.deck_win):
            return True
        info = self._pinfo.get(P)
        if info is None:
            info = self._info(P)
        king_bit, king, pairs, by_value, bounds, counts, useful, _, lonely = info
        for mask, low, high, _ in bounds:
            n = (S & mask).bit_count()
            if n < low or n > high:
                return False
        pyramid = self.problem.pyramid
        if king_bit:
            # Rule 2: an exposed pyramid King leaves at once (deletion lemma).
            if self._dfs(P | king_bit, S, k, p, out):
                out.append(pyramid[king])
                return True
            return False
        # Rule 3: an exposed card whose one partner left is in play pairs with it now. Such a
        # partner in the pyramid is played here; one in waste or stock is noted in ``solo`` for
        # the links of the walk where it is on top.
        solo: dict[int, int] = {}
        masks = self._value_masks
        for i, need, mates in lonely:
            others = S & masks[need]
            if mates:
                if not others and not mates & (mates - 1):
                    j = mates.bit_length() - 1
                    if P & COVER[j] == COVER[j]:
                        if self._dfs(P | 1 << i | mates, S, k, p, out):
                            out.append(pair_notation(pyramid[i], pyramid[j]))
                            return True
                        return False
            elif others and not others & (others - 1):
                solo[others] = i
        problem = self.problem
        memo = self._memo
        stock = problem.stock
        sv = self.sv
        open_stock = problem.stock_in_play
        king_from_stock = problem.king_from_stock
        deck_win = self.deck_win
        passes = problem.passes
        last = p == passes
        walk = [0]  # draws per pass since the start of the walk (a recycle between two)
        keys: list[tuple[int, int | None]] = []  # (memo key, its code before this walk)
        key = -1
        end = entry = None
        first = True
        while True:
            if last and S & ((1 << k) - 1):
                # Rule 6: in the last pass, the waste is a stack that only shrinks from the top.
                cut = self._buried(S & ((1 << k) - 1), S >> k << k, counts)
                if cut:
                    if deck_win:
                        return False
                    S &= ~cut
                    for mask, low, high, _ in bounds:
                        n = (S & mask).bit_count()
                        if n < low or n > high:
                            return False
            code = p << 5 | k
            if key != P | S << 28:
                key = P | S << 28
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
            if not self.nodes & _CHECK_EVERY:
                self.check_budget()
            move = None
            if first:
                # Rule 4: pyramid pairs only here, right after a removal.
                first = False
                for bits, i, j in pairs:
                    if self._dfs(P | bits, S, k, p, out):
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
                        if not self._dfs(P | 1 << i, S ^ bit, nk, p, out):
                            return False
                        move = pair_notation(pyramid[i], stock[j])
                        break
            if move is None and w >= 0:
                wv = sv[w]
                if wv == 13:
                    # Rule 2: a King on the waste top leaves at once (deletion lemma).
                    if not self._dfs(P, S ^ (1 << w), k, p, out):
                        return False
                    move = stock[w]
                else:
                    for i in by_value[13 - wv]:
                        if self._dfs(P | 1 << i, S ^ (1 << w), k, p, out):
                            move = pair_notation(pyramid[i], stock[w])
                            break
            if move is None and open_stock and k < EMPTY_STOCK:
                tv = sv[k]
                rest = S ^ (1 << k)
                nk = next_stock(S, k)
                if tv == 13 and king_from_stock:
                    # Rule 2: a King on the face-up stock top leaves at once.
                    if not self._dfs(P, rest, nk, p, out):
                        return False
                    move = stock[k]
                elif w >= 0 and wv + tv == 13 and self._dfs(P, rest ^ (1 << w), nk, p, out):
                    move = pair_notation(stock[w], stock[k])
                else:
                    for i in by_value[13 - tv]:
                        if self._dfs(P | 1 << i, rest, nk, p, out):
                            move = pair_notation(pyramid[i], stock[k])
                            break
            if move is not None:
                out.append(move)
                for n in range(len(walk) - 1, -1, -1):
                    out.extend(["draw"] * walk[n])
                    if n:
                        out.append("recycle")
                for key, end in keys:
                    if end is None:
                        del memo[key]
                    else:
                        memo[key] = end
                return True
            if k == EMPTY_STOCK:
                if not S or (passes is not None and p >= passes):
                    return False
                if not self.pyramid.relaxed(P, self.bag(S)):
                    return False  # rule 7, after a recycle
                k = first_stock(S, 0)
                if passes is None:
                    end = entry  # unlimited passes: round once, back to where the walk began
                else:
                    p += 1
                    last = p == passes
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
                ahead = S >> k << k & useful
                if ahead:
                    j = (ahead & -ahead).bit_length() - 1
                    walk[-1] += (S >> k & ((2 << (j - k)) - 1)).bit_count()
                    k = next_stock(S, j)
                else:
                    walk[-1] += (S >> k).bit_count()
                    k = EMPTY_STOCK
