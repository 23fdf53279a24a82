"""Node budgets: how the solver turns a player's seconds into a reproducible amount of work.

A hint or a "winnable deals only" search must give the same answer on a fast laptop and in a
slow browser tab, so neither watches the clock: each turns its seconds into search nodes at
one fixed rate and stops when they are spent. (`solve` and `review`, which promise a proof or
"unknown", do watch the clock.)
"""

from __future__ import annotations

NODES_PER_SECOND = 45_000
"""Search nodes per second of a time limit: a modest machine's rate, the one rate used."""


def nodes_for(seconds: float) -> int:
    """The node budget for `seconds` of thinking (at least one node)."""
    return max(1, int(seconds * NODES_PER_SECOND))
