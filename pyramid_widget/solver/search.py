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
8. The last pass as a stack (`LastPass`): with no recycle left, what can happen while a waste
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

import time

from ..cards import PYRAMID_SIZE, STOCK_SIZE
from .budget import CHECK_EVERY
from .facts import PyramidFacts
from .last_pass import LastPass
from .problem import EMPTY_STOCK, FULL, Problem, first_stock, next_stock, pair_notation

_PLAIN_NODES = 2000  # nodes a search of the last pass may take before rule 8 takes over

_BAGS_BY_TABLE = 16  # `Solver.bag`'s asks before it builds its tables

_SEGMENT_NODES = 2000  # nodes a search takes before rule 10 is asked (most end sooner)
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
                if not self.nodes & CHECK_EVERY:
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
