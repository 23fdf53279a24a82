"""Time limits and node budgets: what a number of seconds means, and how the solver turns a
player's seconds into a reproducible amount of work.

A hint or a "winnable deals only" search must give the same answer on a fast laptop and in a
slow browser tab, so neither watches the clock: each turns its seconds into search nodes at
one fixed rate and stops when they are spent. (`solve` and `review`, which promise a proof or
"unknown", do watch the clock.)
"""

from __future__ import annotations

import math
from typing import Any

from ..words import quoted

NODES_PER_SECOND = 45_000
"""Search nodes per second of a time limit: a modest machine's rate, the one rate used."""

CHECK_EVERY = 2047
"""Search nodes between two looks at the budget (a power of two less one, for
``nodes & CHECK_EVERY``)."""


def nodes_for(seconds: float) -> int:
    """The node budget for `seconds` of thinking (at least one node)."""
    return max(1, int(seconds * NODES_PER_SECOND))


def seconds_limit(name: str, value: Any, *, unlimited: bool) -> float | None:
    """One meaning for a time limit everywhere (`solve`, `hint`, `review`, `deal_winnable`,
    `winnability`): a number of seconds from 0 up. Where the call allows `unlimited`, None and
    infinity both mean no limit (returned as None); elsewhere they are refused. NaN, negative
    numbers and anything that is not a number are refused, naming the argument.

    >>> seconds_limit("time_limit", 2, unlimited=True)
    2.0
    >>> seconds_limit("time_limit", float("inf"), unlimited=True) is None
    True
    """
    if value is None or (isinstance(value, float) and math.isinf(value) and value > 0):
        if unlimited:
            return None
        raise ValueError(f"{name} must be a finite number of seconds, not {quoted(value)}")
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{name} must be a number of seconds, not {quoted(value)}")
    if math.isnan(value) or value < 0:
        raise ValueError(f"{name} must be a number of seconds from 0 up, not {quoted(value)}")
    return float(value)
