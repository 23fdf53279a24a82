"""Progress of a long run, shown as people expect: deals done, rate and time left.

`progress_display(progress, total, label)` turns `winnability`'s ``progress=`` argument into
something to tell: a bar redrawn in place on a terminal's stderr, one line every few seconds
on a stderr that is not a terminal (a log file), a widget bar (ipywidgets) in a notebook
kernel, or a function of the caller's. ipywidgets is imported only when a kernel is running and
the bar is wanted, so the solver and the command line never need Jupyter.
"""

from __future__ import annotations

import math
import os
import shutil
import sys
import time
from collections.abc import Callable
from typing import Any, Literal, Protocol, TextIO

from .words import quoted

ProgressCallback = Callable[[int, int, float | None, float | None], Any]
"""Called as ``callback(done, total, rate, eta)``: deals done (decided or not), deals in the
run, deals per second so far (None before the first is done), seconds left (None while the
rate is unknown)."""

ProgressOption = bool | None | Literal["auto"] | ProgressCallback

LINE_EVERY_S = 10.0
"""How often a stderr that is not a terminal gets a line: often enough for a log, not chatty."""

BAR_WIDTH = 24
"""Characters in a terminal's bar."""

REDRAW_EVERY_S = 0.1
"""How often a bar is redrawn at most (a terminal line, a widget's comm message)."""


class Display(Protocol):
    def update(self, done: int, total: int, rate: float | None, eta: float | None) -> None: ...

    def close(self, done: int, total: int, seconds: float, interrupted: bool) -> None: ...


def progress_display(progress: ProgressOption, total: int, label: str) -> Display | None:
    """What ``progress=`` asks for: None or False for nothing; "auto" for a bar where someone
    is watching (a notebook kernel, or a stderr that is a terminal), else nothing; True for a
    bar wherever the run is (on a stderr that is not a terminal, a line every
    `LINE_EVERY_S` seconds); a function for its own display (see `ProgressCallback`).

    >>> seen = []
    >>> display = progress_display(lambda *now: seen.append(now), 10, "classic")
    >>> display.update(5, 10, 2.5, 2.0)
    >>> seen
    [(5, 10, 2.5, 2.0)]
    """
    if progress is None or progress is False:
        return None
    if progress is True or progress == "auto":
        if in_kernel():
            try:
                return NotebookBar(total, label)
            except ImportError:  # no ipywidgets: the kernel's stderr stream understands \r
                return TextBar(sys.stderr, label, redraw=True)
        if _is_terminal(sys.stderr):
            return TextBar(sys.stderr, label, redraw=True)
        return TextBar(sys.stderr, label, redraw=False) if progress is True else None
    if callable(progress):
        return _Callback(progress)
    raise ValueError(f'progress is None, False, True, "auto" or a function, not {quoted(progress)}')


def in_kernel() -> bool:
    """Whether this Python is a Jupyter kernel (IPython, already loaded there, says so)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    return getattr(shell, "kernel", None) is not None


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def _columns(stream: TextIO) -> int:
    """The width of the terminal ``stream`` writes to (stdout's, or 80, if it cannot say: a
    new pseudo-terminal says 0)."""
    try:
        columns = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        columns = 0
    return columns or shutil.get_terminal_size().columns


def duration(seconds: float) -> str:
    """Seconds in words a person reads at a glance.

    >>> duration(7.4), duration(200), duration(7300)
    ('7 s', '3 min 20 s', '2 h 01 min')
    """
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def summary(done: int, total: int, rate: float | None, eta: float | None) -> str:
    """One line of progress.

    >>> summary(500, 2000, 41.66, 36.0)
    '500 of 2000 deals (25 %), 41.7 deals/s, about 36 s left'
    """
    share = f" ({math.floor(100 * done / total)} %)" if total else ""
    text = f"{done} of {total} deals{share}"
    if rate is not None:
        text += f", {rate:.1f} deals/s"
    if eta is not None and done < total:
        text += f", about {duration(max(eta, 1))} left"
    return text


def bar_line(label: str, done: int, total: int, rate: float | None, eta: float | None) -> str:
    """A terminal's progress bar, short enough for a narrow one.

    >>> bar_line("classic", 500, 2000, 41.66, 36.0)
    'classic  25 % |██████                  | 500/2000 deals, 41.7/s, 36 s left'
    """
    filled = BAR_WIDTH * done // total if total else BAR_WIDTH
    share = 100 * done // total if total else 100
    text = f"{label} {share:3d} % |{'█' * filled}{' ' * (BAR_WIDTH - filled)}| {done}/{total} deals"
    if rate is not None:
        text += f", {rate:.1f}/s"
    if eta is not None and done < total:
        text += f", {duration(max(eta, 1))} left"
    return text


def final(done: int, total: int, seconds: float, interrupted: bool) -> str:
    """The last word of a run.

    >>> final(2000, 2000, 48.2, False)
    '2000 deals in 48 s (41.5 deals/s)'
    >>> final(120, 2000, 3.0, True)
    'interrupted after 120 of 2000 deals (3 s)'
    """
    if interrupted:
        return f"interrupted after {done} of {total} deals ({duration(seconds)})"
    rate = f" ({done / seconds:.1f} deals/s)" if seconds > 0 else ""
    return f"{done} deals in {duration(seconds)}{rate}"


class TextBar:
    """Progress on a text stream: with ``redraw``, one bar rewritten in place (``\\r``) at most
    every `REDRAW_EVERY_S`, cut to the terminal's width (a wrapped line could not be redrawn);
    without, a line every ``every`` seconds, for a log file."""

    def __init__(
        self, stream: TextIO, label: str, *, redraw: bool, every: float = LINE_EVERY_S
    ) -> None:
        self.stream, self.label, self.redraw = stream, label, redraw
        self.every = REDRAW_EVERY_S if redraw else every
        self.shown_at: float | None = None
        self.width = 0

    def update(self, done: int, total: int, rate: float | None, eta: float | None) -> None:
        now = time.monotonic()
        if self.shown_at is not None and now - self.shown_at < self.every:
            return  # the last word is close()'s
        self.shown_at = now
        if self.redraw:
            self._draw(bar_line(self.label, done, total, rate, eta))
        else:
            self._line(f"{self.label}: {summary(done, total, rate, eta)}")

    def close(self, done: int, total: int, seconds: float, interrupted: bool) -> None:
        text = final(done, total, seconds, interrupted)
        if self.redraw:
            self._draw(f"{self.label}: {text}")
            self.stream.write("\n")
            self.stream.flush()
        else:
            self._line(f"{self.label}: {text}")

    def _draw(self, text: str) -> None:
        text = text[: max(1, _columns(self.stream) - 1)]
        pad = " " * max(0, self.width - len(text))  # wipe what a longer line left behind
        self.width = len(text)
        self.stream.write(f"\r{text}{pad}")
        self.stream.flush()

    def _line(self, text: str) -> None:
        self.stream.write(text + "\n")
        self.stream.flush()


class NotebookBar:
    """A widget bar and a line of words under the cell, as tqdm's notebook bar: green when the
    run is done, orange when it was interrupted. Raises ImportError without ipywidgets."""

    def __init__(self, total: int, label: str) -> None:
        import ipywidgets
        from IPython.display import display

        self.bar = ipywidgets.IntProgress(
            value=0,
            min=0,
            max=max(total, 1),
            description=label,
            bar_style="info",
            style={"description_width": "initial"},  # a rules name in full
        )
        self.words = ipywidgets.Label(summary(0, total, None, None))
        self.shown_at: float | None = None
        display(ipywidgets.HBox([self.bar, self.words]))

    def update(self, done: int, total: int, rate: float | None, eta: float | None) -> None:
        now = time.monotonic()
        if self.shown_at is not None and now - self.shown_at < REDRAW_EVERY_S:
            return  # the last word is close()'s
        self.shown_at = now
        self.bar.value = done
        self.words.value = summary(done, total, rate, eta)

    def close(self, done: int, total: int, seconds: float, interrupted: bool) -> None:
        self.bar.value = done
        self.bar.bar_style = "warning" if interrupted else "success"
        self.words.value = final(done, total, seconds, interrupted)


class _Callback:
    """The caller's function, told every change; it has nothing to close."""

    def __init__(self, function: ProgressCallback) -> None:
        self.function = function

    def update(self, done: int, total: int, rate: float | None, eta: float | None) -> None:
        self.function(done, total, rate, eta)

    def close(self, done: int, total: int, seconds: float, interrupted: bool) -> None:
        return None
