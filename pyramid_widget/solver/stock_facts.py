"""What one pyramid state decides in terms of one deal's stock, as the search reads it.

`PyramidFacts` knows the pyramid alone, for every stock; the search wants the same facts as masks
of its own stock places: rule 1's bounds, the cards worth a look, rule 3's candidates and rule
6's values (`Solver._info` caches them per pyramid state).
"""

from __future__ import annotations

from collections.abc import Sequence

from .facts import PyramidFacts

# A plain tuple read by these indices (or unpacked), as a NamedTuple's construction and reads
# cost the search measurably. The pyramid's own facts keep their places (`facts.KING_BIT`,
# `KING`, `PAIRS`, `BY_VALUE` and `REMOVALS`), so that one index reads either.
BOUNDS, COUNTS, USEFUL, FORCED, DEAD, SHORT = 4, 6, 7, 8, 9, 10
# BOUNDS: rule 1's bounds as (stock mask, low, high).
# COUNTS: the pyramid cards left per value.
# USEFUL: the stock cards that could pair with an exposed card, and the Kings.
# FORCED: the exposed cards rule 3 may force, as (index, partner value, the mask of their one
#   exposed pyramid partner, or 0 when none is left).
# DEAD, SHORT: rule 6's values (`Burial`).

Burial = tuple[int, tuple[tuple[int, int, int] | None, ...]]
"""Rule 6's values for one count of pyramid cards left per value: the stock cards of the values
with no partner left anywhere (buried at once), and per value whose cards may outnumber their
partners (its stock mask, its pyramid partners left, the stock mask of its partner value under
an open stock or 0); None for the others."""


def stock_facts(
    pyramid: PyramidFacts,
    P: int,
    masks: Sequence[int],
    burials: dict[tuple[int, ...], Burial],
    open_stock: bool,
) -> tuple:
    """The facts of pyramid state P for the stock whose cards of value v are ``masks[v]``
    (``burials``: rule 6's values already worked out, per pyramid counts)."""
    king_bit, king, pairs, by_value, _, removals, specs, bound, _ = pyramid.facts(P)
    counts = pyramid.counts(P)
    useful = masks[13]
    for v in range(1, 13):
        if by_value[13 - v]:
            useful |= masks[v]
    bounds = tuple([(masks[v], low, high) for v, low, high in specs])
    # Rule 3 looks at each exposed card other than a King, with the pyramid cards left that
    # could still pair with it; one with two such partners or more, or with one still covered,
    # is never forced in this pyramid state (rule 3 needs its one partner in play): the pyramid
    # facts' bound cards.
    pv = pyramid.pv
    forced = tuple([(i, 13 - pv[i], mates) for i, _, mates, _ in bound])
    burial = burials.get(counts)
    if burial is None:
        burial = burials[counts] = _burial(counts, masks, open_stock)
    dead, short = burial
    return (king_bit, king, pairs, by_value, bounds, removals, counts, useful, forced, dead, short)


def _burial(counts: Sequence[int], masks: Sequence[int], open_stock: bool) -> Burial:
    """Rule 6's values: a waste card of a value with no partner left anywhere is buried at once
    (``dead``); the others, by value, only when they outnumber their partners."""
    dead = 0
    short: list[tuple[int, int, int] | None] = [None] * 14
    for v in range(1, 13):
        if masks[v] and counts[13 - v] < 4:
            if counts[13 - v] or open_stock:
                short[v] = (masks[v], counts[13 - v], masks[13 - v] if open_stock else 0)
            else:
                dead |= masks[v]
    return dead, tuple(short)
