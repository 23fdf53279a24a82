"""Slow work behind a board (a hint, a review, the search for a winnable deal), and the one
place where a result that arrives too late is dropped.

A job runs on a worker thread where threads exist, in the caller's own turn where none can
start (Pyodide, some sandboxes), or always inline when asked (`threads=False`, handy in
tests). Every change of position makes every job in flight stale at once (one generation
counter), and `Jobs.deliver` drops a stale result: a hint for a position no longer on the
board, a review of a game that moved on, a winnable deal the player no longer waits for.
"""

from __future__ import annotations

import sys
import threading
import traceback
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class Jobs:
    """The one runner of a board's slow work.

    `lock` is the board's: a result is shown under it. `threads`: True runs each job on a
    worker thread, False in the caller's turn, None (the default) tries a thread and, where
    none can start, runs this and every later job inline.
    """

    def __init__(self, lock: threading.RLock, threads: bool | None = None) -> None:
        self._lock = lock
        self._threads = threads
        self.generation = 0

    @property
    def threaded(self) -> bool | None:
        return self._threads

    def invalidate(self) -> None:
        """The board changed: every job in flight is now stale."""
        self.generation += 1

    def deliver(self, ticket: int | None, show: Callable[[], None]) -> bool:
        """Show a result under the lock if it is still current (its `ticket` is this
        generation, or None for a lasting result); drop it otherwise.
        Returns whether it was shown."""
        with self._lock:
            if ticket is not None and ticket != self.generation:
                return False
            show()
            return True

    def run(
        self,
        name: str,
        work: Callable[[], T],
        show: Callable[[T], None],
        fail: Callable[[Exception], None],
        *,
        lasting: bool = False,
    ) -> None:
        """Do `work` off the caller's turn if threads allow, then `show` its result (or `fail`
        with the error, printed too) if nothing changed meanwhile. A `lasting` result stays
        true whatever is played (it is about the deal, or a line of moves, not the position),
        so moves do not drop it: its `show` checks that it is still wanted."""
        ticket = None if lasting else self.generation

        def job() -> None:
            try:
                result = work()
            except Exception as error:  # shown on the board, never raised into the comm
                traceback.print_exc(file=sys.stderr)
                failure = error
                self.deliver(ticket, lambda: fail(failure))
                return
            self.deliver(ticket, lambda: show(result))

        if self._threads is not False:
            try:
                threading.Thread(target=job, name=f"pyramid-{name}", daemon=True).start()
                return
            except RuntimeError:  # "can't start new thread": Pyodide, a thread-less sandbox
                if self._threads:
                    raise
                self._threads = False
        job()
