"""Many deals in chunks on any pool, with progress and a clean stop: the one loop behind
`winnability` (the solver's verdicts) and the strategy lab's `evaluate` (a player's games).

`spread(task, deals, arguments, ...)` sends ``task(*arguments(part))`` for chunks of the deals
to a `pools.Pool` (a local process pool, an executor, a dask cluster, or this very process),
keeps two chunks in flight per worker, shows progress, and returns every finished chunk's
outcome in order. An interrupt (Ctrl+C, a kernel's stop button) cancels what is still out and
returns what finished, with the deals not tried; an error from a chunk cancels the rest and is
raised (of chunks that finish together, the earliest deals' error). What a chunk's outcome
means is the caller's business.
"""

from __future__ import annotations

import math
import operator
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..deals import check_deal_number, parse_layout
from ..progress import ProgressOption, progress_display
from ..words import quoted
from .pools import Pool, pool_for

IN_FLIGHT_PER_WORKER = 2
"""Chunks in flight for each worker: one running and one waiting, so none idles in between."""

CHUNK = 25
"""Deals in a chunk at most: enough to make a submit's cost small next to the work."""


@dataclass(frozen=True)
class Spread:
    """What came back: ``outcomes`` holds (deals, outcome) for every chunk that finished, in
    the order the deals were given; ``finished`` is False after an interrupt, and then
    ``not_tried`` holds the other deals in order (in flight or never sent)."""

    outcomes: tuple[tuple[Sequence[int | str], Any], ...]
    finished: bool
    seconds: float
    not_tried: DealsLeft


def spread(
    task: Callable[..., Any],
    deals: Sequence[int | str],
    arguments: Callable[[list[int | str]], tuple[Any, ...]],
    *,
    executor: Any = None,
    workers: int | None = None,
    chunk: int | None = None,
    progress: ProgressOption = "auto",
    label: str = "",
) -> Spread:
    """Run ``task(*arguments(part))`` for chunks ``part`` of ``deals`` (checked by `checked`)
    where ``executor`` says (see `pools.pool_for`: None is a local process pool of
    ``workers`` processes, or this process where none can be made). ``task`` must be a
    top-level function of plain arguments, so that any executor can run it. Chunks hold at
    most ``chunk`` deals (`CHUNK`, fewer when there are few deals for the workers, one at a
    time in this process); ``progress`` is as `progress.progress_display` reads it, counting
    deals, with ``label`` on the bar."""
    workers, chunk = count("workers", workers), count("chunk", chunk)
    display = progress_display(progress, len(deals), label)
    started = time.perf_counter()
    chunks: list[_Chunk] = []  # every chunk sent, in order
    running: dict[Any, _Chunk] = {}  # those not yet counted, by their handle
    pool: Pool | None = None
    finished = False
    done = 0  # deals counted, for the progress display
    try:
        if deals:
            pool = pool_for(executor, workers, len(deals))
            size = chunk or _chunk_size(len(deals), pool)
            while _sent(chunks) < len(deals) or running:
                while (
                    _sent(chunks) < len(deals)
                    and len(running) < IN_FLIGHT_PER_WORKER * pool.workers()
                ):
                    first = _sent(chunks)
                    part = list(deals[first : first + size])
                    sent = _Chunk(first, first + len(part))
                    sent.handle = pool.submit(task, *arguments(part))
                    chunks.append(sent)
                    running[sent.handle] = sent
                for handle in sorted(pool.wait(running), key=lambda h: running[h].start):
                    done += _count_in(running, handle, pool)
                    if display is not None:
                        display.update(*_progress(done, len(deals), started))
        finished = True
    except KeyboardInterrupt:
        if pool is not None:  # what finished before the interrupt still counts
            for handle in [handle for handle in running if pool.finished(handle)]:
                _count_in(running, handle, pool)
    finally:
        if pool is not None:
            if not finished:
                pool.cancel(running)
            pool.close(interrupted=not finished)
        if display is not None:
            done = sum(c.end - c.start for c in chunks if c.outcome is not None)
            display.close(done, len(deals), time.perf_counter() - started, not finished)
    cancelled = [deal for c in chunks if c.outcome is None for deal in deals[c.start : c.end]]
    return Spread(
        tuple((deals[c.start : c.end], c.outcome) for c in chunks if c.outcome is not None),
        finished,
        time.perf_counter() - started,
        DealsLeft(tuple(cancelled), deals[_sent(chunks) :]),
    )


class DealsLeft(Sequence):
    """Deals in order, kept as the pieces they came in (tuples, ranges): after an interrupt in
    ``range(1, 2**32)`` the deals never sent stay a range and take no memory.

    >>> left = DealsLeft((7, 9), range(12, 16))
    >>> len(left), list(left), left[2], left == (7, 9, 12, 13, 14, 15)
    (6, [7, 9, 12, 13, 14, 15], 12, True)
    >>> left.spans()
    ['7', '9', '12-15']
    """

    def __init__(self, *parts: Sequence[int | str]) -> None:
        flat = [
            piece
            for part in parts
            for piece in (part.parts if isinstance(part, DealsLeft) else (part,))
        ]
        self.parts = tuple(part for part in flat if len(part))
        self.size = sum(len(part) for part in self.parts)

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[int | str]:
        for part in self.parts:
            yield from part

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return tuple(self[i] for i in range(self.size)[index])
        position = operator.index(index)
        if position < 0:
            position += self.size
        if not 0 <= position < self.size:
            raise IndexError("DealsLeft index out of range")
        for part in self.parts:
            if position < len(part):
                return part[position]
            position -= len(part)
        raise AssertionError("unreachable: the sizes add up")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"DealsLeft({', '.join(map(repr, self.parts))})"

    def spans(self) -> list[str]:
        """The deals as the command line writes them: a run of numbered deals as a range
        ("12-15", one span however long a range is), a layout as it is."""
        runs: list[list] = []  # [first, last] of consecutive numbers, or [layout, layout]

        def add(first: int | str, last: int | str) -> None:
            previous = runs[-1][1] if runs else None
            if isinstance(first, int) and isinstance(previous, int) and previous + 1 == first:
                runs[-1][1] = last
            else:
                runs.append([first, last])

        for part in self.parts:
            if isinstance(part, range) and part.step == 1:
                add(part[0], part[-1])
            else:
                for deal in part:
                    add(deal, deal)
        return [str(first) if first == last else f"{first}-{last}" for first, last in runs]


@dataclass
class _Chunk:
    """Deals ``deals[start:end]`` sent as one call. An interrupt may land between any two
    steps of the loop, so each step is one assignment and the outcomes are taken at the end
    from these records alone: a chunk counts once its outcome is set, and is not tried until
    then, whatever else was half done."""

    start: int
    end: int
    handle: Any = None
    outcome: Any = None


def _sent(chunks: list[_Chunk]) -> int:
    """How many deals were sent (chunks go out in order)."""
    return chunks[-1].end if chunks else 0


def _count_in(running: dict[Any, _Chunk], handle: Any, pool: Pool) -> int:
    """Take a finished chunk's outcome and drop its handle (a dask future held on to would
    keep its result on the cluster); returns its number of deals."""
    sent = running[handle]
    sent.outcome = pool.result(handle)
    del running[handle]
    sent.handle = None
    return sent.end - sent.start


def _progress(done: int, total: int, started: float) -> tuple[int, int, float | None, float | None]:
    """(done, total, deals per second, seconds left) for a progress display."""
    elapsed = time.perf_counter() - started
    rate = done / elapsed if done and elapsed > 0 else None
    eta = (total - done) / rate if rate else None
    return done, total, rate, eta


def _chunk_size(total: int, pool: Pool) -> int:
    """`CHUNK` deals, fewer when that would leave workers without a chunk; one at a time in
    this process, where a chunk buys nothing and an interrupt should lose as little as can be."""
    if pool.in_process:
        return 1
    return max(1, min(CHUNK, math.ceil(total / (IN_FLIGHT_PER_WORKER * pool.workers()))))


def count(name: str, value: int | None) -> int | None:
    """A count the caller gave (workers, chunk): None, or a whole number from 1 up."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number, not {quoted(value)}")
    if value < 1:
        raise ValueError(f"{name} must be 1 or more, not {value}")
    return value


def checked(deals: Iterable[int | str]) -> Sequence[int | str]:
    """The deals as a sequence, every one checked (a range by its two ends), so that a bad one
    is refused in the caller, with its reason, before any work is sent."""
    if isinstance(deals, str):
        raise ValueError("deals is a collection of deal numbers or layouts: put a layout in a list")
    if isinstance(deals, range):
        for end in deals[:1], deals[-1:]:
            for deal in end:
                check_deal_number(deal)
        return deals
    checked = tuple(deals)
    for deal in checked:
        if isinstance(deal, bool) or not isinstance(deal, (int, str)):
            raise ValueError(f"a deal is a deal number or a 52-card layout, not {quoted(deal)}")
        if isinstance(deal, str):
            parse_layout(deal)  # a bad layout fails here, in the caller, with its reason
        else:
            check_deal_number(deal)
    return checked
