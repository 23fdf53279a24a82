"""The cyclic garbage collector paused while a search runs.

A long search makes hundreds of thousands of small containers (the sets of rule 8's runs, the
tuples of per-pyramid facts) that live until it ends. CPython's collector walks every tracked
object of the process again each time enough new ones pile up: the search's own, and those of
everything else the process holds (a notebook's kernel holds a great many). None of the search's
containers form a cycle, so that work frees nothing: plain reference counting frees all a
search drops. So `solve`, `hint` and `deal_winnable` pause the collector for the whole life
of their solvers, which are gone before it is back on (pausing only the search left one
collection walking all of a solver's memos at its end). On the hundred slowest one-pass
deals of the first ten thousand, the collector cost 12 % of the time in a bare process and
31 % beside ten thousand other games (5.33 s against 4.67 s; 6.97 s against 4.80 s); on
strict's sixty slowest beside as many games, 4.67 s against 3.32 s.

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
