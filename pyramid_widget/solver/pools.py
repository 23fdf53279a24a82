"""Where `winnability` runs its chunks of deals: a `concurrent.futures` executor, a dask
cluster's `Client`, a local process pool it makes itself, or this very process.

Each place is a `Pool` with one small interface (how many chunks it runs at once, submit, wait
for some, cancel, close), so the counting loop in `stats` is written once. dask is never
imported here: a `Client` is recognised through the `distributed` module the caller already
imported (whoever holds a Client has it loaded), so the core runs without dask installed.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import Any

from ..words import quoted

DEFAULT_WORKERS = os.cpu_count() or 1
"""Chunks an executor of unknown size is taken to run at once (this machine's cores) when the
caller does not say (``workers=``)."""

WAIT_S = 0.25
"""How long one wait for finished chunks lasts at most, so an interrupt is seen promptly even
when it comes as a flag (`_thread.interrupt_main`) rather than a signal."""

RECOUNT_S = 2.0
"""How often a dask cluster's thread count is read again, as workers come and go."""


class Pool:
    """Chunks of work in flight somewhere; `workers()` says how many run at once, and
    `in_process` whether they run in the caller's own thread, one after the other."""

    in_process = False

    def workers(self) -> int:
        raise NotImplementedError

    def submit(self, function: Callable[..., Any], *args: Any) -> Any:
        raise NotImplementedError

    def wait(self, handles: Iterable[Any]) -> list[Any]:
        """Some finished handles (none if nothing finished within `WAIT_S`)."""
        raise NotImplementedError

    def result(self, handle: Any) -> Any:
        return handle.result()

    def finished(self, handle: Any) -> bool:
        """Whether the handle holds a result (not an error, not cancelled)."""
        raise NotImplementedError

    def cancel(self, handles: Iterable[Any]) -> None:
        raise NotImplementedError

    def close(self, *, interrupted: bool) -> None:
        """Release what the pool made for this run (nothing, for the caller's own executor)."""


class FuturesPool(Pool):
    """Any `concurrent.futures.Executor`: a process or thread pool, loky, mpi4py's, ..."""

    def __init__(self, executor: Executor, workers: int | None = None) -> None:
        self.executor = executor
        known = getattr(executor, "_max_workers", None)  # process, thread and loky pools
        self.size = workers or (known if isinstance(known, int) and known > 0 else None)
        self.size = self.size or DEFAULT_WORKERS
        self.in_process = isinstance(executor, InlineExecutor)

    def workers(self) -> int:
        return self.size

    def submit(self, function: Callable[..., Any], *args: Any) -> Future:
        return self.executor.submit(function, *args)

    def wait(self, handles: Iterable[Future]) -> list[Future]:
        done, _ = wait(list(handles), timeout=WAIT_S, return_when=FIRST_COMPLETED)
        return list(done)

    def finished(self, handle: Future) -> bool:
        return handle.done() and not handle.cancelled() and handle.exception() is None

    def cancel(self, handles: Iterable[Future]) -> None:
        for handle in handles:
            handle.cancel()  # a chunk already running finishes in the caller's executor


class InlineExecutor(Executor):
    """An executor that runs each call at once in the calling thread: for a Python where no
    process pool can be made (Pyodide, some sandboxes). An interrupt stops the call it is in."""

    _max_workers = 1

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as error:  # a KeyboardInterrupt goes to the caller, as it should
            future.set_exception(error)
        return future


class LocalPool(FuturesPool):
    """A process pool made for one run: its workers ignore Ctrl+C (the terminal sends it to
    them too), so the run decides what an interrupt means, and they are ended with it."""

    def __init__(self, executor: Executor, workers: int) -> None:
        super().__init__(executor, workers)

    def close(self, *, interrupted: bool) -> None:
        if interrupted:  # a running chunk may take minutes: end the workers rather than wait
            _end_workers(self.executor)
        self.executor.shutdown(wait=True, cancel_futures=True)


def _end_workers(pool: Executor) -> None:
    stop = getattr(pool, "terminate_workers", None)  # Python 3.14
    if stop is not None:
        stop()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()
        process.join()


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _ready() -> bool:
    return True


def local_pool(workers: int) -> FuturesPool:
    """A pool of ``workers`` processes, or this process itself where none can be made or used.

    Pyodide has no `multiprocessing.synchronize` (NotImplementedError from the pool) and no
    threads (RuntimeError on the first submit); sandboxes may refuse semaphores or new
    processes (OSError, PermissionError); a Python built without `_multiprocessing` fails on
    import (ImportError). A first tiny call proves the pool before any deal is sent to it.
    """
    try:
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
    except (ImportError, NotImplementedError, OSError):
        return FuturesPool(InlineExecutor(), 1)
    try:
        pool.submit(_ready).result()
    except (BrokenProcessPool, NotImplementedError, OSError, RuntimeError):
        _end_workers(pool)  # those that started would wait for work for good
        pool.shutdown(wait=False, cancel_futures=True)
        return FuturesPool(InlineExecutor(), 1)
    except BaseException:  # an interrupt while the workers start: end them too
        LocalPool(pool, workers).close(interrupted=True)
        raise
    return LocalPool(pool, workers)


class DaskPool(Pool):
    """A dask cluster through its `distributed.Client`. Every chunk is submitted with
    ``pure=False``: dask would otherwise name two identical calls alike and hand the second
    the first one's results (an "unknown" included), and nothing may be reused across runs."""

    def __init__(self, client: Any, workers: int | None = None, **options: Any) -> None:
        distributed = sys.modules["distributed"]
        self.client = client
        self.options = {**options, "pure": False}
        self.fixed = workers
        self.counted_at = -RECOUNT_S
        self.size = 1
        self.finishing = distributed.as_completed(loop=client.loop)

    def workers(self) -> int:
        """The cluster's threads, read again every `RECOUNT_S` (one call to the scheduler)."""
        if self.fixed:
            return self.fixed
        now = time.monotonic()
        if now - self.counted_at >= RECOUNT_S:
            self.counted_at = now
            self.size = max(1, sum(self.client.nthreads().values()))
        return self.size

    def submit(self, function: Callable[..., Any], *args: Any) -> Any:
        future = self.client.submit(function, *args, **self.options)
        self.finishing.add(future)
        return future

    def wait(self, handles: Iterable[Any]) -> list[Any]:
        deadline = time.monotonic() + WAIT_S
        while not self.finishing.has_ready() and time.monotonic() < deadline:
            time.sleep(0.01)
        return self.finishing.next_batch(block=False)

    def finished(self, handle: Any) -> bool:
        return handle.status == "finished"

    def cancel(self, handles: Iterable[Any]) -> None:
        handles = list(handles)
        if handles:
            self.client.cancel(handles)


def pool_for(executor: Any, workers: int | None, chunks: int) -> Pool:
    """The pool for ``executor``: a dask Client (or its `get_executor()`), any other
    `concurrent.futures.Executor`, or None for a local process pool of ``workers`` processes
    (all cores by default, never more than the ``chunks`` to run)."""
    dask = _dask_pool(executor, workers)
    if dask is not None:
        return dask
    if executor is None:
        return local_pool(max(1, min(workers or DEFAULT_WORKERS, chunks)))
    if isinstance(executor, Executor):
        return FuturesPool(executor, workers)
    raise TypeError(
        f"executor is a concurrent.futures Executor or a dask Client, not {quoted(executor)}"
    )


def _dask_pool(executor: Any, workers: int | None) -> DaskPool | None:
    """A `DaskPool` if ``executor`` is a dask Client or the executor a Client gives
    (`Client.get_executor()`, unwrapped to its Client so that its futures can be waited for
    with dask's own tools and its cluster's size be read), else None."""
    distributed = sys.modules.get("distributed")
    if distributed is None or executor is None:
        return None
    if isinstance(executor, distributed.Client):
        return DaskPool(executor, workers)
    cfexecutor = sys.modules.get("distributed.cfexecutor")
    if cfexecutor is not None and isinstance(executor, cfexecutor.ClientExecutor):
        # The executor keeps its Client and submit options (workers=, resources=, ...) in
        # these attributes; pure=False is forced over them.
        return DaskPool(executor._client, workers, **executor._kwargs)
    return None
