"""What the pyramid alone decides: its exposed cards, its counting bounds and its relaxed games.

Shared by every solver of the same pyramid and rules (a fair hint's completions differ only in
the stock); the rules are argued in docs/solver.md (rules 1, 7, 9 and 10).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from ..cards import PYRAMID_SIZE
from .problem import COMPARABLE, FULL, UNDER, exposed_cards

# A bag's balance per pair of ranks r and 13 - r (r = 1..6, 4 bits at 4r): 8 plus its cards
# of value 13 - r less its cards of value r (`PyramidFacts.drained`). _LEVEL is the empty bag's;
# _TILT[v] what a card of value v adds (nothing for a King).
_LEVEL = sum(8 << 4 * r for r in range(1, 7))
_TILT = (0, *[-(1 << 4 * v) if v <= 6 else 1 << 4 * (13 - v) for v in range(1, 13)], 0)

_BAG = (1 << 42) - 1  # one bag (3 bits per value, Kings included) of a packed run of bags


# What one pyramid state decides (`PyramidFacts.facts`): a plain tuple read by these indices
# (or unpacked), as a NamedTuple's construction and reads cost the search measurably.
KING_BIT, KING, PAIRS, BY_VALUE, SIZES, REMOVALS, SPECS, BOUND, LONELY = range(9)
# KING_BIT: the mask of an exposed King, or 0; KING: its index, or -1.
# PAIRS: the exposed pyramid pairs as (mask, i, j); BY_VALUE[v]: the exposed cards of value v.
# SIZES: (r, a, b) per pair of ranks with a card left, a of rank r and b of 13 - r.
# REMOVALS: a lower bound on the removals still needed.
# SPECS: rule 1's bounds on waste and stock, as (value, low, high).
# BOUND: the exposed cards with at most one pyramid partner left, that one exposed too, as
#   (index, the bag unit of the partner value, that partner's mask or 0, the unit times the
#   pyramid cards of the card's value left).
# LONELY: the cards no pyramid card left can pair with (`_rank_pair_bounds`, `_phases_clash`).


class _OutOfBudget(Exception):
    """The relaxed check used up its budget: no conclusion."""


_Phased = Callable[["PyramidFacts", int, int, int], bool]
_PHASED: list[str] = []  # the phased games, in the order of their memos (`PyramidFacts._memos`)


def _phased(game: _Phased) -> _Phased:
    """A relaxed game in phases (rules 9 and 10) as `PyramidFacts` asks it: memoised per
    (P, first, then) in a memo of its own, each new position counted (`_tick`), and an empty
    pyramid won before ``game`` is asked."""
    slot = len(_PHASED)
    _PHASED.append(game.__name__)

    @functools.wraps(game)
    def memoised(self: PyramidFacts, P: int, first: int, then: int) -> bool:
        memo = self._memos[slot]
        key = P | first << 28 | then << 70
        known = memo.get(key)
        if known is not None:
            return known
        self._due -= 1
        if not self._due:
            self._tick()
        known = memo[key] = P == FULL or game(self, P, first, then)
        return known

    return memoised


def _max_matching(left: int, right: int) -> int:
    """Largest set of disjoint pairs (l, r) of pyramid cards (masks ``left`` and ``right``)
    that can ever be in play together (neither lies on the other). Tiny graphs (at most 4 x 4):
    simple augmenting paths."""
    lefts = [i for i in range(PYRAMID_SIZE) if left >> i & 1]
    rights = [j for j in range(PYRAMID_SIZE) if right >> j & 1]
    match: dict[int, int] = {}
    return sum(1 for a in lefts if _augment(a, rights, match, set()))


_RANK_PAIRS: dict[int, tuple] = {}


def _rank_pair_bounds(r: int, ones: int, others: int, capped: bool) -> tuple:
    """`PyramidFacts._bounds` for ranks r and s = 13 - r alone, with the pyramid cards of rank
    r of mask ``ones`` and those of rank s of mask ``others`` left (one at least): (bounds,
    removals needed for them, (r, a, b), lonely cards). Lonely cards are those that no pyramid
    card left can ever pair with, so that each must leave with a card of waste or stock (for
    `_phases_clash`): (3 * the partner value, their mask) per rank that has some. The same for
    every deal, so cached for all: a new pyramid finds most of its parts there."""
    key = ones | others << PYRAMID_SIZE | r << 2 * PYRAMID_SIZE | capped << 2 * PYRAMID_SIZE + 3
    part = _RANK_PAIRS.get(key)
    if part is None:
        s = 13 - r
        a, b = ones.bit_count(), others.bit_count()
        m = _max_matching(ones, others) if a and b else 0
        if capped:
            bounds: tuple = ((s, a - m, a), (r, b - m, b))
        else:
            bounds = ((s, a - m, 4),) * (a > m) + ((r, b - m, 4),) * (b > m)
        lonely: tuple = ()
        for cards, mates, shift in ((ones, others, 3 * s), (others, ones, 3 * r)):
            alone = 0
            while cards:
                low = cards & -cards
                cards ^= low
                if not mates & ~COMPARABLE[low.bit_length() - 1]:
                    alone |= low
            if alone:
                lonely += ((shift, alone),)
        part = _RANK_PAIRS[key] = bounds, a + b - m, (r, a, b), lonely
    return part


def _augment(a: int, rights: list[int], match: dict[int, int], tried: set[int]) -> bool:
    """One augmenting path of `_max_matching` from left card a (``match``: right -> left).
    (A function of its own: a recursive inner function would make a reference cycle per
    matching, which waits for the collector that searches pause.)"""
    for b in rights:
        if b in tried or COMPARABLE[a] >> b & 1:
            continue
        tried.add(b)
        if b not in match or _augment(match[b], rights, match, tried):
            match[b] = a
            return True
    return False


def _together(bags: int) -> int:
    """The cards of a packed run of bags (42 bits each) in one bag, their counts summed (rule
    10's later phases, whose bags share no card)."""
    total = 0
    while bags:
        total += bags & _BAG
        bags >>= 42
    return total


def _phases_clash(lonely: tuple, first: int, then: int) -> bool:
    """Rule 9's two phases (`PyramidFacts.two_phase`), first with the cards of bag ``first``,
    then with those of bag ``then``: True when the order of the lonely cards (``lonely``:
    `_rank_pair_bounds`'s, cards no pyramid card left can pair with) proves that the pyramid
    cannot be cleared so (docs/solver.md, "Rule 9: the last cards of the pyramid"). Not asked in
    `drained`, where it cuts too little for its cost.
    """
    before = after = 0
    for shift, cards in lonely:
        if not first >> shift & 7:
            after |= cards
        elif not then >> shift & 7:
            before |= cards
    if before and after:
        under = 0
        while after:
            low = after & -after
            after ^= low
            under |= UNDER[low.bit_length() - 1]
        return bool(under & before)
    return False


class PyramidFacts:
    """What depends only on the 28 pyramid cards and the rules, cached per pyramid state P and
    shared by every solver of the same pyramid (a fair hint's completions differ only in the
    stock): exposed cards, pairs, counts, the bounds of `_bounds`, and the relaxed game's
    verdicts (`relaxed`)."""

    def __init__(self, pyramid_values: Sequence[int], *, deck_win: bool, stock_in_play: bool):
        self.pv = tuple(pyramid_values)
        self.deck_win = deck_win
        self.stock_in_play = stock_in_play
        self.capped = deck_win and not stock_in_play
        """The whole deck to clear with the stock face down: two non-pyramid cards never pair,
        so each card of waste and stock must leave with a pyramid card (or be a King)."""
        by_value = [0] * 14
        for i, v in enumerate(self.pv):
            by_value[v] |= 1 << i
        self.value_masks = tuple(by_value)
        """value_masks[v]: the pyramid cards of value v."""
        self.partners = tuple(
            by_value[13 - v] & ~COMPARABLE[i] if v != 13 else 0 for i, v in enumerate(self.pv)
        )
        """partners[i]: the pyramid cards that could ever pair with pyramid card i."""
        # pair_masks[i]: the partners of card i that come after it, so that the pairs of the
        # exposed cards come in the order of those cards.
        pair_masks = [mates & ~((2 << i) - 1) for i, mates in enumerate(self.partners)]
        # Per pyramid card, what `facts` reads of it: (value, `pair_masks`, `partners`, the bag
        # unit of its partner value, the pyramid cards of its value), in one place to unpack.
        self._cards = tuple(
            (v, pair_masks[i], self.partners[i], 1 << 3 * (13 - v), by_value[v])
            for i, v in enumerate(self.pv)
        )
        # `_bounds` by three groups of two pairs of ranks (r and 13 - r, r = 1-2, 3-4, 5-6):
        # per group, the mask of their pyramid cards and the cache of its part by the cards of
        # that mask left.
        self._rank_groups: tuple[tuple[int, dict[int, tuple]], ...] = tuple(
            (sum(by_value[v] for v in (r, r + 1, 12 - r, 13 - r)), {}) for r in (1, 3, 5)
        )
        self._facts: dict[int, tuple] = {}
        self._relaxed: dict[int, bool] = {}
        self._memos: list[dict[int, bool]] = [{} for _ in _PHASED]  # (`_phased`)
        self._counts: dict[int, tuple[int, ...]] = {}
        # `drained`'s second phase: the relaxed game with every card used (made when needed);
        # per pyramid state, the balance of its cards per pair of ranks (see _LEVEL).
        self._every_card: PyramidFacts | None = None
        self._balances: dict[int, int] = {}
        # The new relaxed, two-phase and drained positions are counted down in stretches, so
        # that most cost no call: `_tick` at the end of each (`positions`).
        self._mark = 512  # the count at the end of the current stretch
        self._due = 512  # positions left in it
        self._budget_end: int | None = None  # the up-front check's last position
        self._on_tick: Callable[[], None] | None = None

    def facts(self, P: int) -> tuple:
        """The facts of pyramid state P (indexed by KING_BIT ... LONELY), cached."""
        facts = self._facts.get(P)
        if facts is not None:
            return facts
        exposed, shown = exposed_cards(P)
        left = FULL & ~P
        by_value: list[tuple[int, ...]] = [()] * 14
        pairs = []
        cards = self._cards
        bound = []
        for i in exposed:
            v, mates, partners, unit, alike = cards[i]
            by_value[v] += (i,)
            mates &= shown
            while mates:
                low = mates & -mates
                mates ^= low
                pairs.append((1 << i | low, i, low.bit_length() - 1))
            mates = partners & left
            if not mates & (mates - 1) and not mates & ~shown and v != 13:
                bound.append((i, unit, mates, (left & alike).bit_count() * unit))
        kings = by_value[13]
        specs, removals, sizes, lonely = self._bounds(left)
        facts = (
            1 << kings[0] if kings else 0,
            kings[0] if kings else -1,
            tuple(pairs),
            tuple(by_value),
            sizes,
            removals,
            specs,
            tuple(bound),
            lonely,
        )
        self._facts[P] = facts
        return facts

    def counts(self, P: int) -> tuple[int, ...]:
        """The pyramid cards left in state P per value (index v: those of value v), cached."""
        counts = self._counts.get(P)
        if counts is None:
            left = FULL & ~P
            counts = self._counts[P] = tuple(
                [(left & mask).bit_count() for mask in self.value_masks]
            )
        return counts

    def _bounds(
        self, left: int
    ) -> tuple[tuple[tuple[int, int, int], ...], int, tuple[tuple[int, int, int], ...]]:
        """Counting and matching bounds (docs/solver.md, "Rule 1: counting and matching
        bounds") with the pyramid cards of mask ``left``: (bounds as (value, low, high), the
        number of cards of that value in waste and stock must lie in [low, high]; a lower bound
        on the removals still needed; (r, a, b) per pair of ranks with a card left, a cards of
        rank r and b of 13 - r; the lonely cards).

        Two pairs of ranks at a time, each group's part cached by its cards left: most moves
        leave two groups of the three alone.
        """
        (low, lows), (middle, middles), (high, highs) = self._rank_groups
        a = lows.get(left & low) or self._group_bounds(0, left & low)
        b = middles.get(left & middle) or self._group_bounds(1, left & middle)
        c = highs.get(left & high) or self._group_bounds(2, left & high)
        kings = (left & self.value_masks[13]).bit_count()
        return (
            a[0] + b[0] + c[0],
            kings + a[1] + b[1] + c[1],
            a[2] + b[2] + c[2],
            a[3] + b[3] + c[3],
        )

    def _group_bounds(self, group: int, cards: int) -> tuple[tuple, int, tuple, tuple]:
        """`_bounds`'s part for one group of two pairs of ranks, with the pyramid cards
        ``cards`` of theirs left, cached."""
        bounds: tuple = ()
        removals = 0
        sizes: tuple = ()
        lonely: tuple = ()
        masks = self.value_masks
        for r in (2 * group + 1, 2 * group + 2):
            ones, others = cards & masks[r], cards & masks[13 - r]
            if ones or others:
                part = _rank_pair_bounds(r, ones, others, self.capped)
                bounds += part[0]
                removals += part[1]
                sizes += (part[2],)
                lonely += part[3]
        part = self._rank_groups[group][1][cards] = bounds, removals, sizes, lonely
        return part

    @property
    def on_tick(self) -> Callable[[], None] | None:
        """Called every 512 positions (the solver's budget check while it searches), here and
        in `drained`'s second phase."""
        return self._on_tick

    @on_tick.setter
    def on_tick(self, call: Callable[[], None] | None) -> None:
        self._on_tick = call
        if self._every_card is not None:
            self._every_card.on_tick = call

    def relaxed_within(self, P: int, bag: int, budget: int) -> bool:
        """`relaxed`, giving up (and answering True: nothing proven) after ``budget`` new
        relaxed positions."""
        self._budget_end = self.positions + budget
        self._stretch(self.positions)
        try:
            return self.relaxed(P, bag)
        except _OutOfBudget:
            return True
        finally:
            self._budget_end = None
            self._stretch(self.positions)

    @property
    def positions(self) -> int:
        """The new relaxed, two-phase and drained positions met so far."""
        return self._mark - self._due

    @staticmethod
    def _free(
        by_value: Sequence[tuple[int, ...]], sizes: Sequence[tuple[int, int, int]], bag: int
    ) -> tuple[int, int] | None:
        """In the relaxed game, an exposed card that may leave with a bag card at once, as
        (index, the bag card's 3-bit unit), or None: one of ranks r and 13 - r when the bag
        holds a partner for every pyramid card of both (docs/solver.md, "Rule 7: the relaxed
        game", free cards)."""
        for r, a, b in sizes:  # (the pairs of ranks with a pyramid card left)
            s = 13 - r
            if bag >> 3 * s & 7 >= a and bag >> 3 * r & 7 >= b:
                if a and by_value[r]:
                    return by_value[r][0], 1 << 3 * s
                if b and by_value[s]:
                    return by_value[s][0], 1 << 3 * r
        return None

    def _tick(self) -> None:
        """The end of a stretch of new positions: the solver's budget check every 512, and
        the end of the up-front check's own budget (`relaxed_within`)."""
        n = self._mark
        self._stretch(n)
        if not n & 511 and self._on_tick is not None:
            self._on_tick()
        if self._budget_end is not None and n > self._budget_end:
            raise _OutOfBudget

    def _stretch(self, n: int) -> None:
        """Start the stretch after position n: up to the next multiple of 512, or to the
        first position past the up-front check's budget if that comes first."""
        mark = (n | 511) + 1
        end = self._budget_end
        if end is not None and n <= end < mark - 1:
            mark = end + 1
        self._mark, self._due = mark, mark - n

    def relaxed(self, P: int, bag: int) -> bool:
        """Could the pyramid P be cleared if the waste-and-stock cards (``bag``: 3 bits per
        value v at bit 3v) could all be used at any time, each once? False proves the real
        position lost (docs/solver.md, "Rule 7: the relaxed game", which argues the removals
        played at once here: an exposed King, a card bound to one partner, `_free`'s cards).
        Memoised per (P, bag).
        """
        key = P | bag << 28
        known = self._relaxed.get(key)
        if known is not None:
            return known
        self._due -= 1
        if not self._due:
            self._tick()
        if P == FULL:
            # Whole deck: with the stock face down only Kings may be left in the bag.
            result = not self.capped or not bag & ~(7 << 39)
        else:
            facts = self._facts.get(P) or self.facts(P)
            result = False
            for v, low, high in facts[SPECS]:
                n = bag >> 3 * v & 7
                if n < low or n > high:
                    break
            else:
                king_bit, _, pairs, by_value, sizes, _, _, bound, _ = facts
                forced = None
                if king_bit:
                    forced = king_bit, 0
                else:
                    for i, unit, mate, _ in bound:
                        if not mate:
                            forced = 1 << i, unit
                            break
                        if not self.capped or not bag & 7 * unit:
                            forced = 1 << i | mate, 0
                            break
                    else:
                        free = self._free(by_value, sizes, bag)
                        if free is not None:
                            forced = 1 << free[0], free[1]
                relaxed = self.relaxed
                if forced is not None:
                    result = relaxed(P | forced[0], bag - forced[1])
                else:
                    for bits, _, _ in pairs:
                        if relaxed(P | bits, bag):
                            result = True
                            break
                    else:
                        for v in range(1, 13):
                            if by_value[v] and bag >> 3 * (13 - v) & 7:
                                less = bag - (1 << 3 * (13 - v))
                                for i in by_value[v]:
                                    if relaxed(P | 1 << i, less):
                                        result = True
                                        break
                                if result:
                                    break
        self._relaxed[key] = result
        return result

    @_phased
    def two_phase(self, P: int, first: int, then: int) -> bool:
        """The relaxed game in two phases (docs/solver.md, "Rule 9: the last cards of the
        pyramid"): could the pyramid P be cleared using first only the cards of bag ``first``
        (and pyramid pairs), then only those of bag ``then``? Memoised per (P, first, then).

        Asked first, as it is cheap and settles many: the order of the lonely cards
        (`_phases_clash`); then the second phase alone, then the bounds with both bags together
        and the first phase's moves (`_first_phase`).
        """
        facts = self._facts.get(P) or self.facts(P)
        lonely = facts[LONELY]
        if lonely and _phases_clash(lonely, first, then):
            return False
        specs = facts[SPECS]
        for v, low, high in specs:  # (`relaxed`'s first look, where most of them fail)
            n = then >> 3 * v & 7
            if n < low or n > high:
                break
        else:
            if self.relaxed(P, then):
                return True
        both = first + then
        for v, low, high in specs:
            n = both >> 3 * v & 7
            if n < low or n > high:
                return False
        return self._first_phase(P, first, then, then, facts, self.two_phase, not self.capped)

    def _first_phase(
        self,
        P: int,
        first: int,
        then: int,
        later: int,
        facts: tuple,
        wins: Callable[[int, int, int], bool],
        lenient: bool,
    ) -> bool:
        """The first phase's moves from P, for the phased games (``wins``) once their bounds
        hold: the removal forced there if any, else each pyramid pair, then each exposed card
        with a first-phase card; True as soon as one wins. ``later`` is what the later phases
        hold (for `drained`, its longest run), ``then`` what ``wins`` is passed on; ``lenient``
        where leaving a bag card unused is no loss. The forced removals are argued in
        docs/solver.md, "Rule 9: the last cards of the pyramid" (the two phases).
        """
        king_bit, _, pairs, by_value, _, _, _, bound, _ = facts
        forced = None
        if king_bit:
            forced = king_bit, 0
        else:
            both = first | later  # (a field is zero in both: `ahead`'s bags may overlap)
            for i, unit, mate, enough in bound:
                if not mate:
                    if not later & 7 * unit or (lenient and first & 7 * unit >= enough):
                        forced = 1 << i, unit
                        break
                elif not both & 7 * unit:
                    forced = 1 << i | mate, 0
                    break
        if forced is not None:
            return wins(P | forced[0], first - forced[1], then)
        for bits, _, _ in pairs:
            if wins(P | bits, first, then):
                return True
        for v in range(1, 13):
            if by_value[v] and first >> 3 * (13 - v) & 7:
                less = first - (1 << 3 * (13 - v))
                for i in by_value[v]:
                    if wins(P | 1 << i, less, then):
                        return True
        return False

    def phases(self, P: int, first: int, rest: int) -> bool:
        """Rule 10's last pass (docs/solver.md, "Rule 10: the last pass in segments"): could
        the pyramid P be cleared using first only the cards of bag ``first`` (and pyramid
        pairs), then only those of the next bag of ``rest`` (bags packed 42 bits each, the next
        lowest, none empty), and so on? The relaxed game in phases, each card used at most
        once; memoised. The bags may not share a card (their counts are summed for the bounds).
        Moving on to the next phase is tried before the moves of this one (`_first_phase`).
        """
        return self._phases(P, first, rest) if rest else self.relaxed(P, first)

    @_phased
    def _phases(self, P: int, first: int, rest: int) -> bool:
        """`phases` with a later phase (``rest`` not empty)."""
        later = _together(rest)
        facts = self._facts.get(P) or self.facts(P)
        lonely = facts[LONELY]
        if lonely and _phases_clash(lonely, first, later):
            return False
        both = first + later
        for v, low, _ in facts[SPECS]:
            if both >> 3 * v & 7 < low:
                return False
        return self.phases(P, rest & _BAG, rest >> 42) or self._first_phase(
            P, first, rest, later, facts, self.phases, True
        )

    @_phased
    def ahead(self, P: int, first: int, then: int) -> bool:
        """Rule 10 in the pass before the last (docs/solver.md, "Rule 10: the last pass in
        segments"): could the pyramid P be cleared using first only the cards of bag ``first``,
        then those of bag ``then & _BAG`` (this pass: a second phase, or none), then the last
        pass's bags ``then >> 42`` (`phases`)? A card
        may lie in a bag of each pass (the two passes' counts are added apart, as their sum
        could overflow a field). Memoised."""
        second = then & _BAG
        rest = then >> 42
        later = _together(rest)
        now = first + second
        facts = self._facts.get(P) or self.facts(P)
        for v, low, _ in facts[SPECS]:
            if (now >> 3 * v & 7) + (later >> 3 * v & 7) < low:
                return False
        if second:
            wins = self.ahead(P, second, rest << 42)
        else:
            wins = self.phases(P, rest & _BAG, rest >> 42)
        return wins or self._first_phase(P, first, then, second | later, facts, self.ahead, True)

    def spent_game(self) -> PyramidFacts:
        """The relaxed game of this pyramid in which every bag card must leave with a pyramid
        card (that of the whole deck to clear with the stock face down), made when first
        needed; `drained`'s second phase."""
        every = self._every_card
        if every is None:
            every = self._every_card = PyramidFacts(self.pv, deck_win=True, stock_in_play=False)
            every.on_tick = self._on_tick
        return every

    @_phased
    def drained(self, P: int, first: int, then: int) -> bool:
        """Rule 9's two phases with the stock face down, where the second must be used up:
        could the pyramid P be cleared using first only cards of bag ``first`` (and pyramid
        pairs), then, for some n, exactly the first n cards of ``then`` (their values in
        drawing order, `Solver.values_in_order`), every one of them with a pyramid card but
        the Kings, which leave alone? Memoised per (P, first, then). Why every one of them, and
        why only where the n cards balance the pyramid: docs/solver.md, "Rule 9: the last cards
        of the pyramid" (with the stock face down).

        The second phase is `spent_game`, tried with the longest n first (the one that wins
        most often); the first phase is `_first_phase`, its "the second bag holds no partner"
        read for every n at once (the longest holds none).
        """
        counts = self._counts.get(P) or self.counts(P)
        balance = self._balances.get(P)
        if balance is None:
            balance = sum((counts[r] - counts[13 - r] + 8) << 4 * r for r in range(1, 7))
            self._balances[P] = balance
        used = 0  # the first n cards of ``then`` as a bag, for the longest n that can leave
        level = _LEVEL  # their balance per pair of ranks, against the pyramid's ``balance``
        bags = [0] if level == balance else []
        rest = then
        while rest:
            v = rest & 15
            rest >>= 4
            if v == 13:
                continue  # a King leaves alone
            if used >> 3 * v & 7 >= counts[13 - v]:
                break
            used += 1 << 3 * v
            level += _TILT[v]
            if level == balance:
                bags.append(used)
        spent = self.spent_game().relaxed
        for bag in reversed(bags):
            if spent(P, bag):
                return True
        facts = self._facts.get(P) or self.facts(P)
        both = first + used
        for v, low, _ in facts[SPECS]:  # (the lows only: a shorter n may keep under a high)
            if both >> 3 * v & 7 < low:
                return False
        return self._first_phase(P, first, then, used, facts, self.drained, False)
