"""The end of the game as the solver asks it, with its stock: rules 9 and 10.

Rule 9 (the apex and the cards on it leave last, each with a partner that keeps what lies under it
out of play) is asked where a last pass starts; rule 10 (the last pass in segments between the
cards that can never leave) in the pass before it. Both cut only lost positions, with the
pyramid's relaxed games (`PyramidFacts`); docs/solver.md argues them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .problem import FULL
from .stock_facts import COUNTS, DEAD

if TYPE_CHECKING:
    from .search import Solver


def apex_reachable(solver: Solver, P: int, W: int, T: int) -> bool:
    """Rule 9, in the last pass (waste W, stock T): False when the apex, or the last of the
    two cards on it, can be shown never to leave (docs/solver.md, "Rule 9: the last cards
    of the pyramid")."""
    if P & 1:
        return True  # the apex is gone
    pv = solver.pv
    if pv[0] != 13 and not _leaves_last(solver, P, W, T, 0, P | 1):
        return False
    if not P & 2:
        if not P & 4:  # both cards on the apex are there
            if pv[1] == 13 or pv[2] == 13 or pv[1] + pv[2] == 13:
                return True  # one may leave alone, or the two together
            return _leaves_last(solver, P, W, T, 1, P | 3) or _leaves_last(
                solver, P, W, T, 2, P | 5
            )
        return pv[1] == 13 or _leaves_last(solver, P, W, T, 1, P | 3)
    if not P & 4:
        return pv[2] == 13 or _leaves_last(solver, P, W, T, 2, P | 5)
    return True


def _leaves_last(solver: Solver, P: int, W: int, T: int, card: int, rest: int) -> bool:
    """Rule 9 for one pyramid card that leaves when only it (and the cards under it) are
    left: ``rest`` is the pyramid once everything else is gone but those."""
    need = solver._value_masks[13 - solver.pv[card]]
    if not (W | T) & need:
        return False
    if rest == FULL:
        return True
    pyramid = solver.pyramid
    bag = solver.bag
    # Values with no pyramid partner left but these cards (none under an open stock,
    # where two stock cards may pair); the cards before the first of them are those
    # that can be drawn and leave.
    face_down = not solver.problem.stock_in_play
    dead = (solver._pinfo.get(rest) or solver._info(rest))[DEAD] if face_down else 0
    # Whichever partner p it leaves with, the rest is cleared below with cards of waste
    # and stock other than p, each used at most once: all of them lie in the relaxed game
    # with the whole of waste and stock but one card of p's value, which must then clear
    # the rest too, as a relaxed win never suffers from more cards (unless every card must
    # be used, `capped`). One question instead of one per partner, and it settles most.
    # Asked only where no value is dead: else the phases below draw less than the whole
    # stock, and it cuts too little for its cost.
    if (
        not dead
        and not pyramid.capped
        and not pyramid.relaxed(rest, bag(W | T) - (1 << 3 * (13 - solver.pv[card])))
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
            not face_down or pyramid.drained(rest, first, solver.values_in_order(after))
        ):
            return True
    return False


def _segments(solver: Solver, S: int, barriers: int) -> int:
    """The cards of S between the cards of ``barriers``, in drawing order: their bags packed
    42 bits each, the first lowest, empty ones left out (rule 10's last pass)."""
    bag = solver.bag
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


def segments_ahead(solver: Solver, P: int, S: int, k: int) -> bool:
    """Rule 10, in the pass before the last, with the stock face down and a pyramid win:
    False when the position (P, S, k) is lost because the last pass is played in segments
    between the cards that can never leave (docs/solver.md, "Rule 10: the last pass in
    segments").
    """
    info = solver._pinfo.get(P) or solver._info(P)
    dead = info[DEAD]
    pv = solver.pv
    pyramid = solver.pyramid
    bag = solver.bag
    W = S & ((1 << k) - 1)
    if P & 1 or pv[0] == 13:
        barriers = S & dead
        if not barriers:
            return True
        top = (W & barriers).bit_length()
        first = bag(S & ~barriers >> top << top)
        return pyramid.ahead(P, first, _segments(solver, S, barriers) << 42)
    need = S & solver._value_masks[13 - pv[0]]
    if info[COUNTS][pv[0]] == 1:
        dead |= need  # (only the apex is left to take them)
    barriers = S & dead
    while need:
        p = need & -need
        need ^= p
        bars = barriers | p
        top = (W & bars).bit_length()
        after = bars >> p.bit_length() << p.bit_length()
        end = (after & -after) - 1 if after else -1  # the last pass ends at the next barrier
        last = _segments(solver, S & end, bars & end)
        if p >> k:  # p in the stock: this pass before p, then after it
            first = bag(S & ~bars & (p - 1) >> top << top)
            then = bag(S & ~bars & ~((p << 1) - 1)) | last << 42
        else:
            first = bag(S & ~bars >> top << top)
            then = last << 42
        if pyramid.ahead(P | 1, first, then):
            return True
    return False
