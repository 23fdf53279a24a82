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

The rules only see values (a pair sums to 13, a King leaves alone), so two positions with the
same pyramid cards gone, the same values in waste and stock in the same order (whatever their
suits), the same waste size and the same pass are one game, and the search takes positions up
to that: the memo key is ``P | V << 28``, with V the values of S in order
(`Solver.values_in_order`), and the memo maps it to the least (pass, waste size) code
``p << 5 | w`` from which those cards were walked without success (rule 5). On the slowest
one-recycle deals that takes the positions to search to a half or less: a line that pairs one
of two like cards lying next to each other in the stock and a line that pairs the other meet
again (the first pass of deal 7265 walks 65,613 sets of cards left, but 17,736 sequences of
values; that of 9113, 45,030 and 24,642).
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
   round once, back to where it began, which covers every boundary. Positions are taken up
   to the suits of waste and stock (see the memo key above): V holds classes of positions,
   the same game each, with the same moves and the same distance to a win, and the boundary
   is read as the waste size, which orders the boundaries of the same cards alike.
6. Burial in the last pass (`Solver._buried`): with no recycle left, a waste card that can
   never leave (its partners, spent one per card from the top down, run out) locks the cards
   under it for good. They are dropped from the position (they can never be used, so the
   positions with and without them win alike); under the whole-deck win the position is lost.
7. Relaxation (`PyramidFacts.relaxed`), checked at the start and after each recycle: if the
   pyramid could not be cleared even with every waste and stock card usable at any time, the
   position is lost. (Its own search plays a card at once where that cannot hurt: see
   `PyramidFacts.relaxed`.)
8. The last pass as a stack (`_LastPass`): with no recycle left, what can happen while a waste
   card is on top, until it leaves, depends on the pyramid, the stock and that card alone,
   not on the waste under it. When the search of a last pass runs long, those runs are
   worked out once each and chained down the waste, which decides a position exactly (the
   positions it finds lost are cut; a waste top with no partner left never leaves, so its run
   can only clear the pyramid, as from an empty waste); the search then only goes into
   positions so shown winnable, to write down the line.
9. The last cards of the pyramid (`Solver.apex_reachable`), checked where a last pass starts:
   the apex leaves last, with a waste card (or the stock top) as partner; what that partner
   covers on the waste is out of play for good, and the cards drawn after it must all have
   left before, so the rest of the pyramid must be cleared first with what comes before the
   partner, then with what comes after it (`PyramidFacts.two_phase`, which first asks whether
   a card bound to the first phase lies under one bound to the second, `_phases_clash`); with
   the stock face down, with every card drawn after it, which are the first cards after it in
   the stock (`PyramidFacts.drained`). If the relaxed game cannot do that for any partner,
   the position is lost (one relaxed game with all of waste and stock but one partner settles
   most of them first). The same holds for the last of the two cards on the apex, when those
   two cannot pair with each other.
10. The last pass in segments (`Solver.segments_ahead`), with the stock face down and a pyramid
   win, in the pass before the last: a card whose value has no partner left in the pyramid
   never leaves, so once drawn it keeps every card under it out of play (until the recycle,
   then for good), and so does the apex's partner until the apex leaves. The pyramid must be
   cleared by the relaxed game in phases: the cards in play in this pass, then the last
   pass's cards segment by segment between such cards (`PyramidFacts.ahead` and
   `PyramidFacts.phases`). Asked where the walk draws such a card, once a search runs long,
   and only in two-pass games (see `Solver.__init__`).

Rules 1, 7, 8, 9 and 10 only cut positions that are lost; rules 2 to 6 keep, for every
winnable position cut, a winnable one of V closer to a win, as argued at each.

Draws where nothing can be removed are walked through without a look (they have one move, the
next draw); a walk that reaches the code memoised by an earlier walk of the same cards stops
there (rule 5).
"""

from __future__ import annotations

import functools
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..cards import COVERED_BY, LYING_ON, PYRAMID_SIZE, RANKS, STOCK_SIZE

FULL = (1 << PYRAMID_SIZE) - 1
EMPTY_STOCK = STOCK_SIZE  # the canonical boundary k when the stock is empty
_NO_CARDS: tuple[tuple[int, ...], ...] = ((),) * 14  # exposed cards by value: none
_NO_COUNTS = (0,) * 14  # pyramid cards left by value: none
_PLAIN_NODES = 2000  # nodes a search of the last pass may take before rule 8 takes over
_CHECK_EVERY = 2047  # nodes between two looks at the clock (a power of two minus one)

COVER = tuple(sum(1 << j for j in COVERED_BY[i]) for i in range(PYRAMID_SIZE))
"""COVER[i]: mask of the two cards lying directly on pyramid card i (0 for the bottom row)."""

_COMPARABLE = tuple(
    sum(1 << j for j in LYING_ON[i]) | sum(1 << j for j in range(PYRAMID_SIZE) if i in LYING_ON[j])
    for i in range(PYRAMID_SIZE)
)
"""_COMPARABLE[i]: pyramid cards that lie on card i or that card i lies on. Such a card can
never be in play at the same time as card i, so the two can never pair."""

_UNDER = tuple(
    sum(1 << j for j in range(PYRAMID_SIZE) if i in LYING_ON[j]) for i in range(PYRAMID_SIZE)
)
"""_UNDER[i]: pyramid cards that card i lies on (transitively): each leaves after card i."""


# A bag's balance per pair of ranks r and 13 - r (r = 1..6, 4 bits at 4r): 8 plus its cards
# of value 13 - r less its cards of value r (`PyramidFacts.drained`). _LEVEL is the empty bag's;
# _TILT[v] what a card of value v adds (nothing for a King).
_LEVEL = sum(8 << 4 * r for r in range(1, 7))
_TILT = (0, *[-(1 << 4 * v) if v <= 6 else 1 << 4 * (13 - v) for v in range(1, 13)], 0)

_BAGS_BY_TABLE = 16  # `Solver.bag`'s asks before it builds its tables
_BAG = (1 << 42) - 1  # one bag (3 bits per value, Kings included) of a packed run of bags
_SEGMENT_NODES = 2000  # nodes a search takes before rule 10 is asked (most end sooner)
_NEVER = 1 << 62  # a node count no search reaches
_RELAXED_BUDGET = 20000  # relaxed positions the up-front check may visit before it gives up


class _OutOfBudget(Exception):
    """The relaxed check used up its budget: no conclusion."""


class _Switch(Exception):
    """The search of a last pass ran long: rule 8 takes over."""


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
        return tuple([_VALUES[name[0]] for name in self.pyramid])

    @property
    def stock_values(self) -> tuple[int, ...]:
        return tuple([_VALUES[name[0]] for name in self.stock])


_VALUES = {rank: value for value, rank in enumerate(RANKS, 1)}


def card_value(name: str) -> int:
    """Value of a card name: "A" 1 ... "K" 13.

    >>> card_value("Ah"), card_value("Td"), card_value("Ks")
    (1, 10, 13)
    """
    return _VALUES[name[0]]


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
def _exposed(P: int) -> tuple[tuple[int, ...], int]:
    """The pyramid cards in play when the cards of mask P are gone (the same for every deal),
    and their mask: every new pyramid state's facts need both."""
    cards = tuple(i for i in range(PYRAMID_SIZE) if not P >> i & 1 and P & COVER[i] == COVER[i])
    return cards, sum(1 << i for i in cards)


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
    every deal, so cached for all: a new pyramid finds most of its parts there (some
    twenty-six thousand entries after a thousand deals each of strict and one-recycle, where
    each pyramid's own cache started empty)."""
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
                if not mates & ~_COMPARABLE[low.bit_length() - 1]:
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
        if b in tried or _COMPARABLE[a] >> b & 1:
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
    cannot be cleared so.

    A lonely card must leave with a bag card. So one whose partner value ``first`` lacks leaves
    in the second phase, and so does every card it lies on (each of those leaves after it); one
    whose partner value ``then`` lacks leaves in the first. A card bound to the first phase
    that lies under one bound to the second would have to leave both before the phases' turn
    and after it: no line clears the pyramid so. (On strict's deals near the median, which
    rule 9 settles at the start, this cut a third of the two-phase positions; asked in
    `drained` too, with its longest run, it cut little and cost more than it saved.)
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
            under |= _UNDER[low.bit_length() - 1]
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
            by_value[13 - v] & ~_COMPARABLE[i] if v != 13 else 0 for i, v in enumerate(self.pv)
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
        self._two_phase: dict[int, bool] = {}
        self._drained: dict[int, bool] = {}
        self._phases: dict[int, bool] = {}
        self._ahead: dict[int, bool] = {}
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
        """(King bit, King index, pyramid pairs as (bits, i, j), exposed cards by value,
        pyramid cards left per pair of ranks as (r, count of r, count of 13 - r), removals lower
        bound, bounds as (value, low, high), exposed cards bound to leave a certain way as
        (index, bag unit of the partner value, the one exposed pyramid partner left or 0, that
        unit times the pyramid cards of its value left), lonely cards as `_rank_pair_bounds`
        gives them)."""
        facts = self._facts.get(P)
        if facts is not None:
            return facts
        exposed, shown = _exposed(P)
        left = FULL & ~P
        by_value: list[tuple[int, ...]] = [()] * 14
        pairs = []
        cards = self._cards
        # The exposed cards with at most one pyramid partner left, that one exposed too (see
        # `relaxed` and `two_phase`).
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
        """Counting and matching bounds, as (value, low, high): the number of cards of that
        value still in waste and stock must lie in [low, high], or the position is lost.

        For ranks r and s = 13 - r, let a and b be the pyramid cards of each rank still there
        (of mask ``left``), and M the largest matching of r-cards with s-cards that can ever be
        in play together (neither lies on the other). Every pyramid card must leave with a
        partner of the other rank, used once: at most M of the a cards find it in the pyramid,
        so at least a - M s-cards must still be in waste and stock; likewise b - M r-cards.
        This includes the rule "a pyramid card whose every remaining partner lies on it can
        never go". Under the whole-deck win with the stock face down, two non-pyramid cards can
        never pair (only the waste top is in play), so each of them needs its own pyramid
        partner: at most b r-cards and at most a s-cards may be left in waste and stock.

        Also returns a lower bound on the removals still needed to clear the pyramid: one per
        King, and a + b - M per pair of ranks (a move takes at most two pyramid cards, and only
        a matched pair can be two pyramid cards), and (r, a, b) for each pair of ranks with a
        card left. Each pair of ranks depends only on its own cards left, so its part is
        worked out by them, two pairs of ranks at a time, each group's cached by its cards left
        (most moves leave two groups of the three alone; three lookups rather than six).
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
        (index, the bag card's 3-bit unit), or None.

        When the bag holds a partner for every pyramid card of both ranks r and 13 - r
        (``bag[13 - r] >= pyramid[r]`` and ``bag[r] >= pyramid[13 - r]``), an exposed card of
        either rank can leave with a bag card now: in any winning line, where it left with a
        bag card that use only comes earlier, and where it paired with a pyramid card y, y
        takes a bag card instead; neither rank's bag cards can run out, as each of its
        pyramid cards takes at most one. Earlier removals only expose more, and the line never
        leaves more cards in the bag than before.
        """
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
        value v at bit 3v) could all be used at any time, each once? A winning line of the real
        game is a winning line of this easier game (drop its draws, recycles and stock-with-
        stock pairs), so False proves the real position lost (rule 7). Memoised per (P, bag).

        Where every win can be changed into one that starts with a certain removal, that
        removal is the only one tried (the deletion lemma; removing a card earlier only exposes
        others earlier, and a bag card is usable at any time):

        - an exposed King, alone;
        - an exposed card with no pyramid partner left, with a bag card: every win takes one
          of that value for it (the bounds see that the bag holds one);
        - an exposed card x whose one pyramid partner left, y, is exposed too, with y. A win
          that pairs x with a bag card c instead either takes a bag card d for y (the pair
          leaves c and d unused) or pairs y with another pyramid card z (z takes c instead).
          Leaving bag cards unused is no loss, except with the whole deck to clear and the
          stock face down (`capped`), where every bag card must leave with a pyramid card:
          there the pair is forced only when the bag holds no partner for x;
        - the cards of `_free`.
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
            king_bit, _, pairs, by_value, sizes, _, specs, bound, _ = facts
            result = False
            for v, low, high in specs:
                n = bag >> 3 * v & 7
                if n < low or n > high:
                    break
            else:
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

    def two_phase(self, P: int, first: int, then: int) -> bool:
        """The relaxed game in two phases (rule 9): could the pyramid P be cleared using first
        only the cards of bag ``first`` (and pyramid pairs), then only those of bag ``then``?
        Memoised per (P, first, then).

        The bounds are checked with both bags together (a line of the real game uses at most
        those); the first phase's moves, and the removals forced there, are `_first_phase`'s
        (leaving a bag card unused is no loss unless `capped`). Asked first, as it is cheap and
        settles many: the order of the lonely cards (`_phases_clash`).
        """
        memo = self._two_phase
        key = P | first << 28 | then << 70
        known = memo.get(key)
        if known is not None:
            return known
        self._due -= 1
        if not self._due:
            self._tick()
        if P == FULL:
            memo[key] = True
            return True
        facts = self._facts.get(P) or self.facts(P)
        if facts[8] and _phases_clash(facts[8], first, then):
            memo[key] = False
            return False
        specs = facts[6]
        for v, low, high in specs:  # (`relaxed`'s first look, where most of them fail)
            n = then >> 3 * v & 7
            if n < low or n > high:
                break
        else:
            if self.relaxed(P, then):
                memo[key] = True
                return True
        both = first + then
        result = False
        for v, low, high in specs:
            n = both >> 3 * v & 7
            if n < low or n > high:
                break
        else:
            result = self._first_phase(P, first, then, then, facts, self.two_phase, not self.capped)
        memo[key] = result
        return result

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
        """The first phase's moves from P, for `two_phase` and `drained` (``wins``) once their
        bounds hold: the removal forced there if any, else each pyramid pair, then each exposed
        card with a first-phase card; True as soon as one wins. ``later`` is the second
        phase's bag (for `drained`, its longest run), ``then`` what ``wins`` is passed on.

        Forced, besides an exposed King: an exposed card with no pyramid partner left, with a
        first-phase card, when ``later`` holds no partner for it (every win takes a
        first-phase card for it, so in the first phase, and taking it first only exposes
        others earlier), or, where ``lenient``, when ``first`` holds one for every pyramid card
        of its value left (a win that serves it from ``later`` instead still has enough
        first-phase cards for the others, and leaves that card unused); and an exposed card
        whose one pyramid partner left is exposed too, with that partner, when neither bag
        holds a partner for it (every win pairs the two). With a partner in a bag, either
        choice may be the only win: the card may have to take a first-phase card while its
        partner leaves with another pyramid card in the second.
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
        """Rule 10's last pass: could the pyramid P be cleared using first only the cards of
        bag ``first`` (and pyramid pairs), then only those of the next bag of ``rest`` (bags
        packed 42 bits each, the next lowest, none empty), and so on? The relaxed game in
        phases, each card used at most once; memoised. The bags may not share a card (their
        counts are summed for the bounds).

        The moves of a phase are `_first_phase`'s (the removals forced there are forced in
        every phase: a card whose partners only this phase holds takes one now, and two cards
        that only each other can take pair now); moving on to the next phase first, as a
        line that wins by leaving this one at once is the quickest to find. Asked first, as
        in `two_phase`: the order of the lonely cards (`_phases_clash`, with this phase's bag
        against all the later ones together).
        """
        if not rest:
            return self.relaxed(P, first)
        memo = self._phases
        key = P | first << 28 | rest << 70
        known = memo.get(key)
        if known is not None:
            return known
        self._due -= 1
        if not self._due:
            self._tick()
        if P == FULL:
            memo[key] = True
            return True
        later = _together(rest)
        facts = self._facts.get(P) or self.facts(P)
        result = False
        if not (facts[8] and _phases_clash(facts[8], first, later)):
            both = first + later
            for v, low, _ in facts[6]:
                if both >> 3 * v & 7 < low:
                    break
            else:
                result = self.phases(P, rest & _BAG, rest >> 42) or self._first_phase(
                    P, first, rest, later, facts, self.phases, True
                )
        memo[key] = result
        return result

    def ahead(self, P: int, first: int, then: int) -> bool:
        """Rule 10 in the pass before the last: could the pyramid P be cleared using first
        only the cards of bag ``first``, then those of bag ``then & _BAG`` (this pass: a
        second phase, or none), then the last pass's bags ``then >> 42`` (`phases`)? A card
        may lie in a bag of each pass (the two passes' counts are added apart, as their sum
        could overflow a field). Memoised."""
        memo = self._ahead
        key = P | first << 28 | then << 70
        known = memo.get(key)
        if known is not None:
            return known
        self._due -= 1
        if not self._due:
            self._tick()
        if P == FULL:
            memo[key] = True
            return True
        second = then & _BAG
        rest = then >> 42
        later = _together(rest)
        now = first + second
        facts = self._facts.get(P) or self.facts(P)
        result = False
        for v, low, _ in facts[6]:
            if (now >> 3 * v & 7) + (later >> 3 * v & 7) < low:
                break
        else:
            if second:
                result = self.ahead(P, second, rest << 42)
            else:
                result = self.phases(P, rest & _BAG, rest >> 42)
            result = result or self._first_phase(
                P, first, then, second | later, facts, self.ahead, True
            )
        memo[key] = result
        return result

    def spent_game(self) -> PyramidFacts:
        """The relaxed game of this pyramid in which every bag card must leave with a pyramid
        card (that of the whole deck to clear with the stock face down), made when first
        needed; `drained`'s second phase."""
        every = self._every_card
        if every is None:
            every = self._every_card = PyramidFacts(self.pv, deck_win=True, stock_in_play=False)
            every.on_tick = self._on_tick
        return every

    def drained(self, P: int, first: int, then: int) -> bool:
        """Rule 9's two phases with the stock face down, where the second must be used up:
        could the pyramid P be cleared using first only cards of bag ``first`` (and pyramid
        pairs), then, for some n, exactly the first n cards of ``then`` (their values in
        drawing order, `Solver.values_in_order`), every one of them with a pyramid card but
        the Kings, which leave alone? Memoised per (P, first, then).

        Why every one of them (`Solver._leaves_last`): the cards drawn after the apex's
        partner lie on it, so each has left before the apex leaves; with the stock face down a
        waste card leaves only with a pyramid card (or alone, as a King), and the draws are in
        order, so the cards used so are the first n drawn after the partner. Rule 9's
        `two_phase` lets the second phase leave any of them unused, which a real line cannot.

        The second phase is the relaxed game in which every bag card must leave with a
        pyramid card (`spent_game`), tried with the longest first n first (the one that wins
        most often); n stops short of a card whose value has no partner left for it, as no
        longer one can use them all. It is asked only where the n cards balance the pyramid:
        when it is cleared with them all, each pyramid card of rank r leaves with a pyramid
        card of rank 13 - r or with one of the n cards, and each of those takes a pyramid
        card, so for each pair of ranks the pyramid's r-cards less the bag's (13 - r)-cards
        (the pairs inside the pyramid) equal its (13 - r)-cards less the bag's r-cards.

        The first phase is `_first_phase`, its "the second bag holds no partner" read for
        every n at once (the longest holds none); not ``lenient``, as a card served from the
        second bag instead of the first would leave a second-phase card unused.
        """
        memo = self._drained
        key = P | first << 28 | then << 70
        known = memo.get(key)
        if known is not None:
            return known
        self._due -= 1
        if not self._due:
            self._tick()
        if P == FULL:
            memo[key] = True
            return True
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
        result = False
        for bag in reversed(bags):
            if spent(P, bag):
                result = True
                break
        if not result:
            facts = self._facts.get(P) or self.facts(P)
            both = first + used
            for v, low, _ in facts[6]:  # (the lows only: a shorter n may keep under a high)
                if both >> 3 * v & 7 < low:
                    break
            else:
                result = self._first_phase(P, first, then, used, facts, self.drained, False)
        memo[key] = result
        return result


_WIN = -1  # an outcome of `_LastPass.above`: the pyramid was cleared (pyramid win)


class _LastPass:
    """Rule 8: the last pass decided exactly, with the waste as a stack (a pushdown game).

    With no recycle left, a card put on the waste stays under every card drawn after it until
    those have all left; nothing under it can be touched meanwhile. So what can happen from
    the moment card c is the waste top until c leaves depends on the pyramid, the stock and
    the value of c alone, never on the waste under c. `above` (P, T, value of c) returns those
    outcomes: each (pyramid, stock) at which c can leave the waste (``P' | T' << 28``), and
    `_WIN` when the pyramid can be cleared meanwhile (pyramid win). `winnable` chains them
    down the waste: a position wins when some outcome of its waste top wins with the rest of
    the waste.
    Every line of the game from a position is one such chain, and every chain is a line, so
    this decides the position exactly; a search of the same game that keeps the whole waste
    in its positions would meet the same run above c again under every other waste below it.
    The sets are memoised per (P, T, value of c) and the verdicts per position. Every new set
    and verdict counts as a node of the solver (its budget applies).
    """

    def __init__(self, solver: Solver) -> None:
        # A weak reference: the solver keeps this helper, and a strong one back would make a
        # cycle, so a finished solver and all its memos would wait for the cyclic garbage
        # collector instead of going at once (tens of thousands of objects per slow
        # one-pass deal, which the collector then walks again and again in a long run).
        self.solver = weakref.proxy(solver)
        self._pinfo = solver._pinfo
        self._masks = solver._value_masks
        self.sv = solver.sv
        self.deck_win = solver.deck_win
        self.open_stock = solver.problem.stock_in_play
        self.kings_leave = self.open_stock and solver.problem.king_from_stock
        self._above: dict[int, set[int]] = {}
        self._verdicts: dict[int, bool] = {}

    def _tick(self) -> None:
        solver = self.solver
        solver.nodes += 1
        if not solver.nodes & _CHECK_EVERY:
            solver.check_budget()

    def above(self, P: int, T: int, cv: int) -> set[int]:
        """The outcomes of the run above a waste top of value ``cv``, from pyramid P and stock
        T (masks). Only the top card's value matters, so runs are memoised by it."""
        key = P | T << 28 | cv << 52
        out = self._above.get(key)
        if out is not None:
            return out
        self._tick()
        out = set()
        if P == FULL:
            if not self.deck_win:
                out.add(_WIN)
                self._above[key] = out
                return out
            king_bit, pairs, by_value, counts = 0, (), _NO_CARDS, _NO_COUNTS
        else:
            info = self._pinfo.get(P) or self.solver._info(P)
            king_bit, pairs, by_value, counts = info[0], info[2], info[3], info[5]
        if king_bit:
            out = self.above(P | king_bit, T, cv)  # rule 2
        elif cv == 13:
            out.add(P | T << 28)  # rule 2: a King on the waste top leaves at once
        else:
            sv = self.sv
            t = (T & -T).bit_length() - 1
            if t >= 0 and sv[t] == 13 and self.kings_leave:
                out = self.above(P, T ^ (1 << t), cv)  # rule 2, from the stock top
            elif not counts[13 - cv] and not (self.open_stock and T & self._masks[13 - cv]):
                # No partner left for the top card in the pyramid or (in play) the stock: it
                # never leaves, so the only outcome can be a pyramid cleared above it, which
                # is winning from the same pyramid and stock with an empty waste.
                if not self.deck_win and self.winnable(P, 0, T):
                    out.add(_WIN)
            else:
                above = self.above
                high = T << 28
                for i in by_value[13 - cv]:
                    out.add(P | 1 << i | high)
                if t >= 0 and self.open_stock and cv + sv[t] == 13:
                    out.add(P | (T ^ (1 << t)) << 28)
                for bits, _, _ in pairs:
                    out |= above(P | bits, T, cv)
                if t >= 0:
                    # Draw t: the run above t, then c is on top again. (Pairing the stock top
                    # with a pyramid card is such a run too: draw it, pair it from the waste.)
                    for o in above(P, T ^ (1 << t), sv[t]):
                        if o == _WIN:
                            out.add(_WIN)
                        else:
                            out |= above(o & FULL, o >> 28, cv)
        self._above[key] = out
        return out

    def winnable(self, P: int, W: int, T: int) -> bool:
        """Can the game be won from pyramid P, waste W and stock T (masks), in the last pass?"""
        if P == FULL and (not self.deck_win or not W | T):
            return True
        key = P | W << 28 | T << 52
        known = self._verdicts.get(key)
        if known is not None:
            return known
        self._tick()
        result = False
        if P != FULL:
            info = self._pinfo.get(P) or self.solver._info(P)
            for mask, low, high, _ in info[4]:  # rule 1
                n = ((W | T) & mask).bit_count()
                if n < low or n > high:
                    self._verdicts[key] = False
                    return False
            king_bit, pairs = info[0], info[2]
        else:
            king_bit, pairs = 0, ()
        winnable = self.winnable
        if W:
            c = W.bit_length() - 1
            below = W ^ (1 << c)
            for o in self.above(P, T, self.sv[c]):
                if o == _WIN or winnable(o & FULL, below, o >> 28):
                    result = True
                    break
        elif king_bit:
            result = winnable(P | king_bit, 0, T)
        else:
            sv = self.sv
            t = (T & -T).bit_length() - 1
            if t >= 0 and sv[t] == 13 and self.kings_leave:
                result = winnable(P, 0, T ^ (1 << t))
            else:
                for bits, _, _ in pairs:
                    if winnable(P | bits, 0, T):
                        result = True
                        break
                if not result and t >= 0:
                    for o in self.above(P, T ^ (1 << t), sv[t]):  # draw t (see `above`)
                        if o == _WIN or winnable(o & FULL, 0, o >> 28):
                            result = True
                            break
        self._verdicts[key] = result
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
        self._last: _LastPass | None = None  # rule 8, once the search of a last pass runs long
        self._switch_at: int | None = None
        self._apex_at_recycle = True  # rule 9 at each recycle into the last pass (see solve)
        # Rule 10 (the stock face down, a pyramid win, two passes): asked in the first pass
        # once a search has taken _SEGMENT_NODES nodes. (Sound in any pass before the last,
        # but in classic's second pass of three it cost more than it cut: deals 1-6000 side
        # by side, p99 52.5 -> 57.7 ms.)
        self._segmented = not (problem.stock_in_play or problem.deck_win) and problem.passes == 2
        self._segments_from = _NEVER  # the node count from which rule 10 is asked (`solve`)
        self._pinfo: dict[int, tuple] = {}
        self._tight: dict[tuple[int, ...], tuple] = {}  # rule 6's values, per pyramid counts
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
        search's first position), as a deal that rule 9 settles at the start never asks (about
        half of strict's deals), and the tables were most of the cost of a `Solver`. (A plain
        attribute, empty until then, rather than a cached property, whose every later read
        costs more.)"""
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
        """Facts about pyramid state P for this stock, cached: (King bit, King index, pyramid
        pairs, exposed cards by value, bounds as (stock mask, low, high, 3 * value), counts of
        pyramid cards left by value, mask of stock cards that could pair with an exposed card
        or are Kings, removals lower bound, the exposed cards that rule 3 may force as (index,
        partner value, mask of their one exposed pyramid partner or 0 when none is left), and
        rule 6's values as (stock mask of the values with no partner left anywhere, and per
        value the others that may run short, None for the rest: (stock mask, pyramid partners
        left, stock mask of the partner value under an open stock or 0)))."""
        info = self._pinfo.get(P)
        if info is not None:
            return info
        king_bit, king, pairs, by_value, _, removals, specs, bound, _ = self.pyramid.facts(P)
        counts = self.pyramid.counts(P)
        masks = self._value_masks
        useful = masks[13]
        for v in range(1, 13):
            if by_value[13 - v]:
                useful |= masks[v]
        bounds = tuple([(masks[v], low, high, 3 * v) for v, low, high in specs])
        # Rule 3 looks at each exposed card other than a King, with the pyramid cards left that
        # could still pair with it; one with two such partners or more, or with one still
        # covered, is never forced in this pyramid state (rule 3 needs its one partner in play):
        # the pyramid facts' bound cards.
        pv = self.pv
        forced = tuple([(i, 13 - pv[i], mates) for i, _, mates, _ in bound])
        # Rule 6's values: a waste card of a value with no partner left anywhere is buried at
        # once (``dead``); the others (by value) only when they outnumber their partners.
        tight = self._tight.get(counts)
        if tight is None:
            open_stock = self.problem.stock_in_play
            dead = 0
            short: list[tuple[int, int, int] | None] = [None] * 14
            for v in range(1, 13):
                if masks[v] and counts[13 - v] < 4:
                    if counts[13 - v] or open_stock:
                        short[v] = (masks[v], counts[13 - v], masks[13 - v] if open_stock else 0)
                    else:
                        dead |= masks[v]
            tight = self._tight[counts] = (dead, tuple(short))
        info = (king_bit, king, pairs, by_value, bounds, counts, useful, removals, forced, tight)
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
        """The values of the cards of mask S as a count vector: 3 bits per value v at 3v.

        By table, a byte of stock places at a time (entry m sums the cards of byte m), once
        the solver has asked _BAGS_BY_TABLE times: a deal that rule 9 settles at the start asks
        a handful, fewer than the tables would cost to build (a fortieth of strict's median
        time), and a long search asks hundreds of thousands."""
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

    def apex_reachable(self, P: int, W: int, T: int) -> bool:
        """Rule 9, in the last pass (waste W, stock T): False when the apex, or the last of the
        two cards on it, can be shown never to leave.

        The apex lies under every other pyramid card, so when it leaves, nothing else is left
        in the pyramid, and its partner p is on the waste top (or, with the stock top in play,
        is the stock top). Every card put on the waste after p, or lying on p there, left
        before that, and no card under p was in play meanwhile: once p is on the waste, what
        lies under it is out of play for good. So the rest of the pyramid was cleared, each
        card used once, with the cards that p had not covered yet: for p in the waste, those
        above it and the stock; for p in the stock, the waste and the stock before p first,
        then the cards drawn after p (two phases, `PyramidFacts.two_phase`; p never drawn is
        the case where the second phase uses none). With the stock face down, a card put on p
        can only leave with a pyramid card still there, so none of the cards drawn after p is
        one whose value has no partner among those: the stock counts up to its first such
        card; and as each card drawn after p has left with a pyramid card, the second phase
        used up the first cards after p, however many were drawn (`PyramidFacts.drained`).
        The relaxed game (rule 7) must clear the rest of the pyramid so; no p passing that
        test: lost. The same holds for the last of the two cards lying on the apex when
        they cannot pair with each other: when it leaves, only it and the apex are left, and
        it cannot pair with the apex under it.
        """
        if P & 1:
            return True  # the apex is gone
        pv = self.pv
        if pv[0] != 13 and not self._leaves_last(P, W, T, 0, P | 1):
            return False
        if not P & 2:
            if not P & 4:  # both cards on the apex are there
                if pv[1] == 13 or pv[2] == 13 or pv[1] + pv[2] == 13:
                    return True  # one may leave alone, or the two together
                return self._leaves_last(P, W, T, 1, P | 3) or self._leaves_last(P, W, T, 2, P | 5)
            return pv[1] == 13 or self._leaves_last(P, W, T, 1, P | 3)
        if not P & 4:
            return pv[2] == 13 or self._leaves_last(P, W, T, 2, P | 5)
        return True

    def _leaves_last(self, P: int, W: int, T: int, card: int, rest: int) -> bool:
        """Rule 9 for one pyramid card that leaves when only it (and the cards under it) are
        left: ``rest`` is the pyramid once everything else is gone but those."""
        need = self._value_masks[13 - self.pv[card]]
        if not (W | T) & need:
            return False
        if rest == FULL:
            return True
        pyramid = self.pyramid
        bag = self.bag
        # Values with no pyramid partner left but these cards (none under an open stock,
        # where two stock cards may pair); the cards before the first of them are those
        # that can be drawn and leave.
        face_down = not self.problem.stock_in_play
        dead = (self._pinfo.get(rest) or self._info(rest))[9][0] if face_down else 0
        # Whichever partner p it leaves with, the rest is cleared below with cards of waste
        # and stock other than p, each used at most once: all of them lie in the relaxed game
        # with the whole of waste and stock but one card of p's value, which must then clear
        # the rest too, as a relaxed win never suffers from more cards (unless every card must
        # be used, `capped`). One question instead of one per partner, and it settles most
        # (an eighth of strict's median time). Asked only where no value is dead: else the
        # phases below draw less than the whole stock, and it cut too little for its cost.
        if (
            not dead
            and not pyramid.capped
            and not pyramid.relaxed(rest, bag(W | T) - (1 << 3 * (13 - self.pv[card])))
        ):
            return False
        partners = W & need
        if partners:
            stop = T & dead
            tail = T & ((stop & -stop) - 1) if stop else T
            while partners:
                p = 1 << (partners.bit_length() - 1)  # from the top of the waste down
                partners ^= p
                above = W & ~((p << 1) - 1)
                if above & dead:
                    break  # a card that cannot leave lies on p, and on every p below it
                if pyramid.relaxed(rest, bag(above | tail)):
                    return True
        partners = T & need
        two_phase = pyramid.two_phase
        while partners:
            p = partners & -partners
            partners ^= p
            first = bag(W | T & (p - 1))
            after = T & ~((p << 1) - 1)
            stop = after & dead
            if stop:
                after &= (stop & -stop) - 1
            # With the stock face down, every card drawn after p leaves with a pyramid card:
            # `drained`, asked only where the looser `two_phase` (most often decided by its
            # memo) lets the partner through.
            if two_phase(rest, first, bag(after)) and (
                not face_down or pyramid.drained(rest, first, self.values_in_order(after))
            ):
                return True
        return False

    def _segments(self, S: int, barriers: int) -> int:
        """The cards of S between the cards of ``barriers``, in drawing order: their bags packed
        42 bits each, the first lowest, empty ones left out (rule 10's last pass)."""
        bag = self.bag
        rest = shift = low = 0  # (``low``: the first place after the last barrier seen)
        while barriers:
            bit = barriers & -barriers
            barriers ^= bit
            cards = S & (bit - 1) >> low << low
            low = bit.bit_length()
            if cards:
                rest |= bag(cards) << shift
                shift += 42
        cards = S >> low << low
        if cards:
            rest |= bag(cards) << shift
        return rest

    def segments_ahead(self, P: int, S: int, k: int) -> bool:
        """Rule 10, in the pass before the last, with the stock face down and a pyramid win:
        False when the position (P, S, k) is lost because the last pass is played in segments.

        A card whose value has no partner left in the pyramid (dead, `_info`'s rule-6 values)
        can never leave: with the stock face down a waste card leaves only with a pyramid card
        (or alone, as a King), and it stays dead, as pyramid cards only leave. Once drawn it
        stays on the waste, and every card under it is out of play: until the recycle in this
        pass, for good in the last. So in the last pass the cards between two dead cards can be
        used only after the first of them is drawn and before the second is: the last pass
        clears the pyramid, if at all, in phases, one per such segment (`PyramidFacts.phases`;
        a dead card at the recycle that is not dead now only splits a segment further, and a
        card used before leaves a bag, so today's segments of S are a relaxation). In this
        pass, the cards in play at some time are the stock's and the waste's above its topmost
        dead card; they may be used before the recycle (`PyramidFacts.ahead`, which counts a
        card in both passes: a relaxation again).

        The apex lies under every other pyramid card, so it leaves last, with a partner p from
        waste or stock. p stays until then, and like a dead card it keeps what lies under it
        out of play: in this pass (the cards before p can be used only before p is drawn, the
        ones after only after it), and in the last, where every card drawn after p must leave
        before the apex, so none of them is dead: the last pass ends with the cards after p up
        to the next dead card. Each p is tried, with the rest of the pyramid to clear (the
        partner's value is dead for the rest when the apex is its last card of its value); none
        fitting proves the position lost.
        """
        info = self._pinfo.get(P) or self._info(P)
        dead = info[9][0]
        pv = self.pv
        pyramid = self.pyramid
        bag = self.bag
        W = S & ((1 << k) - 1)
        if P & 1 or pv[0] == 13:
            barriers = S & dead
            if not barriers:
                return True
            top = (W & barriers).bit_length()
            first = bag(S & ~barriers >> top << top)
            return pyramid.ahead(P, first, self._segments(S, barriers) << 42)
        need = S & self._value_masks[13 - pv[0]]
        if info[5][pv[0]] == 1:
            dead |= need  # (only the apex is left to take them)
        barriers = S & dead
        while need:
            p = need & -need
            need ^= p
            bars = barriers | p
            top = (W & bars).bit_length()
            after = bars >> p.bit_length() << p.bit_length()
            end = (after & -after) - 1 if after else -1  # the last pass ends at the next barrier
            last = self._segments(S & end, bars & end)
            if p >> k:  # p in the stock: this pass before p, then after it
                first = bag(S & ~bars & (p - 1) >> top << top)
                then = bag(S & ~bars & ~((p << 1) - 1)) | last << 42
            else:
                first = bag(S & ~bars >> top << top)
                then = last << 42
            if pyramid.ahead(P | 1, first, then):
                return True
        return False

    def kept(self, P: int, S: int, k: int) -> int:
        """The cards of a last-pass position as the search keeps them (rule 6): ``S`` without
        the waste cards buried for good, or -1 when that proves the position lost."""
        if S & ((1 << k) - 1):
            cut = self._buried(S & ((1 << k) - 1), S >> k << k, self._info(P)[9])
            if cut:
                if self.deck_win or self.dead(P, S & ~cut):
                    return -1
                S &= ~cut
        return S

    def _buried(self, waste: int, stock: int, tight: tuple, added: int = -1) -> int:
        """In the last pass, the waste cards (mask ``waste``) that can never be used again.

        A waste card is usable only once every card above it has left, each with its own
        partner: a pyramid card still there or, with the stock top in play, a card still in the
        stock (mask ``stock``); never another waste card. Walking down from the top and
        spending one partner per card, the first card left without a partner can never leave,
        so neither it nor anything under it will ever be in play again (no recycle is left).
        ``tight`` says which values can run short (see `_info`). When only the cards of mask
        ``added`` joined a waste that had nothing buried, only their values (and, with the
        stock top in play, their partners' values, whose stock supply they took) are looked
        at (-1: those of the whole waste). Returns the mask of the buried cards (0 if none).
        """
        dead, by_value = tight
        cut = (waste & dead).bit_length() - 1
        strains, masks, sv = self._strains, self._value_masks, self.sv
        if added < 0:
            added = waste  # (a value with no card in the waste, nor its partner's, buries none)
        while added:
            j = (added & -added).bit_length() - 1
            added &= ~masks[sv[j]]  # (the other cards of its value strain the same values)
            for v in strains[j]:
                entry = by_value[v]
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
            # Rule 9 before rule 7 where both apply: most lost deals of one pass are cut by rule
            # 9, whose second phases are relaxed games already, and rule 7 ahead of it was an
            # eighth of their time.
            if p == self.problem.passes and not self.apex_reachable(
                P, S & ((1 << k) - 1), S >> k << k
            ):
                return None  # rule 9
            if not self.relaxed_within(P, self.bag(S), relaxed_budget):
                return None
            if p != self.problem.passes:
                found = self._dfs(P, S, k, p, out)
            else:
                # The last pass: the search stops after _PLAIN_NODES nodes and rule 8 decides
                # the position instead (most positions are settled sooner without it).
                found = None
                if self._last is None:
                    self._switch_at = self.nodes + _PLAIN_NODES
                    try:
                        found = self._dfs(P, S, k, p, out)
                    except _Switch:
                        out.clear()
                        self._last = _LastPass(self)
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
        """Depth-first search from a position reached by a removal (or the start).

        The draws and recycles from here are walked in a loop, not by recursion: each link of
        the walk is one boundary (and pass) of the same cards left. The memo keeps, per set of
        cards left up to suits (the module's memo key), the least (pass, waste size) code from
        which the walk was made (rule 5): a
        later walk of the same cards stops on reaching it, and a position at or after it is
        not searched again. Links where nothing can be removed are walked past without a look
        (they have no move but the next draw). On success the moves are appended to ``out`` in
        reverse and the memo entries of the winning walk are taken back, so that the memo only
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
        king_bit, king, pairs, by_value, bounds, _, useful, _, forced, tight = info
        for mask, low, high, _ in bounds:
            n = (S & mask).bit_count()
            if n < low or n > high:
                return False
        problem = self.problem
        pyramid = problem.pyramid
        passes = problem.passes
        if king_bit:
            # Rule 2: an exposed pyramid King leaves at once (deletion lemma).
            if self._dfs(P | king_bit, S, k, p, out, dirty):
                out.append(pyramid[king])
                return True
            memo[key] = code if passes is not None else 0
            return False
        # Rule 3: an exposed card whose one partner left is in play pairs with it now. Such a
        # partner in the pyramid is played here; one in waste or stock is noted in ``solo`` for
        # the links of the walk where it is on top.
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
                    # Rule 6: in the last pass, the waste is a stack that only shrinks from the top.
                    waste = S & ((1 << k) - 1)
                    added = waste & ~settled if settled >= 0 else -1
                    cut = self._buried(waste, S >> k << k, tight, added) if added else 0
                    settled = waste & ~cut
                    if cut:
                        if deck_win:
                            return False
                        S &= ~cut
                        for mask, low, high, _ in bounds:
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
                if not self.nodes & _CHECK_EVERY:
                    self.check_budget()
                move = None
                if first:
                    # Rule 4: pyramid pairs only here, right after a removal.
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
                        # Rule 2: a King on the waste top leaves at once (deletion lemma).
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
                    # Rule 9 before rule 7 where both apply, as at the start (`solve`): it cuts
                    # most recycles into a last pass by itself (88 % on one-recycle's slowest
                    # deals), and rule 7 ahead of it was 2 % of their time.
                    if (
                        p + 1 == passes
                        and self._apex_at_recycle
                        and not self.apex_reachable(P, 0, S)
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
                        # Rule 10 only where a dead card is drawn. Asked also at the first link
                        # of every walk (or of those whose waste holds a dead card), it cut 28 %
                        # (18 %) of the nodes of one-recycle's slow deals, but each ask is a
                        # relaxed search that costs five nodes or more: 1.5 (1.3) times as long.
                        if (
                            segmented
                            and drawn & tight[0]
                            and self.nodes >= self._segments_from
                            and not self.segments_ahead(P, S, k)
                        ):
                            return False  # rule 10: a dead card drawn
                    else:
                        walk[-1] += (S >> k).bit_count()
                        k = EMPTY_STOCK
        except (SearchTimeout, _Switch):
            # Interrupted: the walk's entries are not proven losses; take them back.
            for key, end in keys:
                if end is None:
                    memo.pop(key, None)
                else:
                    memo[key] = end
            raise
