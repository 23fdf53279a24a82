"""What the command lines share (`python -m pyramid_widget`, `python -m pyramid_widget.puzzles`):
bad input gets one line on stderr and exit status 2, whatever was wrong with it (an unknown
command or option, a bad value, a file or folder that cannot be read or written, data the
library refuses), and Ctrl+C before anything was printed exits 130: never a usage block or a
traceback for a mistake in what was typed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from .words import quoted

BAD_INPUT = 2
INTERRUPTED = 130
"""The exit status of a run stopped by Ctrl+C, as shells report a command ended by SIGINT."""


class BadInput(Exception):
    """A one-line message for stderr; exit status 2."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are `BadInput` (argparse's own print a usage block and
    exit); give it as `parser_class` to `add_subparsers` so that every command's are."""

    def error(self, message: str) -> NoReturn:
        raise BadInput(message)


def run(
    parser: Parser, command: Callable[[argparse.Namespace], int], argv: Sequence[str] | None
) -> int:
    """Parse `argv` and run `command` on what it says; returns the exit status. `BadInput`,
    and the ValueError or TypeError with which the library refuses what it is given, print
    one line ("error: ...") on stderr and return 2."""
    try:
        return command(parser.parse_args(argv))
    except (BadInput, ValueError, TypeError) as error:
        print(f"error: {' '.join(str(error).split())}", file=sys.stderr)
        return BAD_INPUT
    except KeyboardInterrupt:  # stopped before there was anything to print
        print("interrupted", file=sys.stderr)
        return INTERRUPTED


def from_one_up(text: str) -> int:
    """An argument that is a whole number from 1 up (`type=` of an option), written in ASCII
    digits; a number of thousands of digits is refused unread."""
    # 18 digits: more than any count a command takes, and read at once.
    if not (text.isascii() and text.isdigit()) or len(text) > 18 or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a whole number from 1 up: {quoted(text)}")
    return int(text)
