"""Locks between processes for the records database, on small files beside it (POSIX `flock`).

Two kinds, both released by the operating system when their process ends, however it ends:

- `FileLock`: shared or exclusive, with a deadline. `StoreFile` holds it exclusively while it
  sets up a file or moves a damaged one aside, and shared around every read and write, so no
  process ever uses a file in the middle of being replaced.
- Owner locks (`hold_owner_lock`, `owner_alive`): each process that saves games holds an
  exclusive lock on a file named by a random token, the token is written beside its games, and
  another process asks whether that lock is still held. A process id can be reused by an
  unrelated process; a token and its lock cannot, so a game is never held by a stranger.

Where `fcntl` or its `flock` is missing (Windows, Pyodide in a browser) the locks do nothing:
setting up a file then relies on SQLite's own transactions alone, and no game is held by
another process. Pyodide under Node has an `flock` that succeeds without locking: right there
too, since Pyodide runs one process.
"""

from __future__ import annotations

import atexit
import os
import re
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]
if fcntl is not None and not all(hasattr(fcntl, name) for name in ("flock", "LOCK_EX")):
    fcntl = None  # type: ignore[assignment]  # a browser's Pyodide: an fcntl without flock

_TOKEN_PATTERN = re.compile(r"[0-9a-f]{32}")


def _try_flock(fd: int, operation: int) -> bool:
    """Take the lock without waiting: True if taken, False if another process holds it."""
    try:
        fcntl.flock(fd, operation | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


class FileLock:
    """A shared or exclusive lock on the file at `path` (created when `create`, else used only
    if it exists). Without `fcntl`, or where the file cannot be opened (a read-only folder),
    it is a lock that does nothing: `working` says which."""

    def __init__(self, path: Path, *, create: bool = True) -> None:
        self.path = path
        self._fd: int | None = None
        self._depth = 0
        if fcntl is None:
            return
        try:
            self._fd = os.open(path, os.O_RDWR | os.O_CREAT if create else os.O_RDONLY, 0o644)
        except OSError:
            try:  # an existing lock file we may not write still locks
                self._fd = os.open(path, os.O_RDONLY)
            except OSError:
                self._fd = None

    @property
    def working(self) -> bool:
        return self._fd is not None

    @contextmanager
    def held(self, *, exclusive: bool, timeout: float) -> Iterator[None]:
        """Hold the lock for the block; TimeoutError after `timeout` seconds of waiting.
        Re-entrant in the same mode (the store's thread lock keeps one thread in here)."""
        if self._fd is None or self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        operation = fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH
        deadline = time.monotonic() + timeout
        pause = 1e-3
        while True:
            try:
                if _try_flock(self._fd, operation):
                    break
            except OSError:  # a file system that does not lock (ENOLCK, EOPNOTSUPP): go without
                self.close()
                break
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"{self.path} stayed locked by another process for {timeout:g} s"
                )
            time.sleep(pause)
            pause = min(pause * 2, 0.02)
        self._depth = 1
        try:
            yield
        finally:
            self._depth = 0
            if self._fd is not None:
                fcntl.flock(self._fd, fcntl.LOCK_UN)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


# ---------------------------------------------------------------------- owner locks
_token = uuid.uuid4().hex
_held: dict[Path, int] = {}  # folder -> the open, locked file of this process's token


def owner_token() -> str:
    """This process's token: 32 hex digits, new in every process (a forked child too)."""
    return _token


def _forget_after_fork() -> None:
    """A forked child is another owner: a new token, and the parent's locks are not its own
    (closing the child's copies leaves the parent's locks held)."""
    global _token
    _token = uuid.uuid4().hex
    for fd in _held.values():
        os.close(fd)
    _held.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)


def hold_owner_lock(folder: Path) -> bool:
    """Hold this process's owner lock in `folder` until the process ends (once per folder).

    The file is locked under a temporary name and then renamed into place, so whoever finds
    `<folder>/<token>` finds it locked. False where that cannot be done (no `fcntl`, a folder
    that cannot be written): the games are saved all the same, and then may be offered to
    another process as if this one had ended.
    """
    if fcntl is None:
        return False
    if folder in _held:
        return True
    try:
        folder.mkdir(exist_ok=True)
        temporary = folder / f"{_token}.{os.getpid()}.tmp"
        fd = os.open(temporary, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.replace(temporary, folder / _token)
        except OSError:
            os.close(fd)
            raise
    except OSError:
        return False
    _held[folder] = fd
    return True


def owner_alive(folder: Path, token: object) -> bool:
    """Does a live process hold the owner lock of `token` in `folder`? A lock file left by an
    ended process is removed on the way (its token can never come back)."""
    if fcntl is None or not isinstance(token, str) or not _TOKEN_PATTERN.fullmatch(token):
        return False
    if token == _token:
        return True
    path = folder / token
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False  # no lock file: its process ended and the file was cleaned up
    try:
        if not _try_flock(fd, fcntl.LOCK_SH):
            return True
        fcntl.flock(fd, fcntl.LOCK_UN)
    except OSError:
        return False  # a file system that does not lock: nobody can hold a game on it
    finally:
        os.close(fd)
    with suppress(OSError):  # a read-only folder, or another process cleaned it up first
        path.unlink()
    return False


@atexit.register
def _release_owner_locks() -> None:
    """A process that ends normally removes its lock files (the locks go with the process)."""
    for folder in list(_held):
        with suppress(OSError):
            (folder / _token).unlink()
