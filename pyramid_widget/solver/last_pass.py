"""Rule 8: the last pass decided exactly, with the waste as a stack (a pushdown game).

Taken over from the plain search when its last pass runs long (docs/solver.md, "Rule 8: the last
pass as a stack").
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from .budget import CHECK_EVERY
from .facts import BY_VALUE, KING_BIT, PAIRS
from .problem import FULL
from .stock_facts import BOUNDS, COUNTS

if TYPE_CHECKING:
    from .search import Solver

_NO_CARDS: tuple[tuple[int, ...], ...] = ((),) * 14  # exposed cards by value: none
_NO_COUNTS = (0,) * 14  # pyramid cards left by value: none

_WIN = -1  # an outcome of `LastPass.above`: the pyramid was cleared (pyramid win)


class LastPass:
    """The last pass of one solver's deal as a stack: `above` (P, T, value of c) gives the
    outcomes of the run while card c is the waste top, each (pyramid, stock) at which c can
    leave (``P' | T' << 28``), or `_WIN`; `winnable` chains them down the waste. Runs are
    memoised per (P, T, value of c), verdicts per position; each new one counts as a node of
    the solver, so its budget applies.
    """

    def __init__(self, solver: Solver) -> None:
        # A weak reference: the solver keeps this helper, and a strong one back would make a
        # cycle, so a finished solver and all its memos would wait for the cyclic garbage
        # collector instead of going at once.
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
        if not solver.nodes & CHECK_EVERY:
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
            king_bit, pairs, by_value, counts = (
                info[KING_BIT],
                info[PAIRS],
                info[BY_VALUE],
                info[COUNTS],
            )
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
            for mask, low, high in info[BOUNDS]:  # rule 1
                n = ((W | T) & mask).bit_count()
                if n < low or n > high:
                    self._verdicts[key] = False
                    return False
            king_bit, pairs = info[KING_BIT], info[PAIRS]
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
