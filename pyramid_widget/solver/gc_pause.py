"""The cyclic garbage collector paused while a search runs.

A long search makes hundreds of thousands of small containers that live until it ends, none of
them in a cycle: reference counting frees them all, and each collection would only walk them
(and everything else the process holds) again. So `solve`, `hint` and `deal_winnable` pause
the collector for the whole life of their solvers, which are gone before it is back on (pausing
only the search would leave one collection walking all of a solver's memos at its end).

The collector is one switch for the whole process, and searches run side by side (a session's
background thread beside the notebook's own) or inside one another (a hint asks several). So
one pause is shared: the collector is switched off when the first search begins and back on
when the last one ends, and only if it was on before the first began.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_holders = 0  # searches running now
_was_enabled = False  # the collector's state when the first of them began


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the body with the cyclic garbage collector off (see the module's docstring).

    >>> import gc
    >>> with collector_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    global _holders, _was_enabled
    with _lock:
        if _holders == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0 and _was_enabled:
                gc.enable()
