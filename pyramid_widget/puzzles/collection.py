"""Sets of puzzles: the shipped ones (`load`), filters, a stable order, next and previous.

The shipped set is one JSON-lines file per preset in ``data/`` (made by
``python -m pyramid_widget.puzzles mine``). Each line is checked by `Puzzle.from_dict` when the
file is first read; a damaged line stops the load with the file and line named.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from importlib import resources
from pathlib import Path
from typing import overload

from ..deals import splitmix64
from ..rules import PRESETS, Rules
from ..words import quoted
from .puzzle import Puzzle
from .rating import DIFFICULTIES
from .themes import THEMES

SHIPPED = tuple(PRESETS)
"""The presets with a shipped set, in the order `load` gives them."""


class PuzzleSet(Sequence[Puzzle]):
    """Puzzles in a fixed order, each id once: filter them, look one up, step to the next.

    The order is the one given (the shipped set: by preset, then rating, then id), so "next"
    means the same puzzle on every run.
    """

    def __init__(self, puzzles: Iterable[Puzzle] = ()) -> None:
        self._puzzles = tuple(puzzles)
        self._at = {puzzle.id: n for n, puzzle in enumerate(self._puzzles)}
        if len(self._at) != len(self._puzzles):
            raise ValueError("a puzzle set holds each puzzle once")

    @overload
    def __getitem__(self, index: int) -> Puzzle: ...
    @overload
    def __getitem__(self, index: slice) -> PuzzleSet: ...
    def __getitem__(self, index: int | slice) -> Puzzle | PuzzleSet:
        if isinstance(index, slice):
            return PuzzleSet(self._puzzles[index])
        return self._puzzles[index]

    def __len__(self) -> int:
        return len(self._puzzles)

    def __iter__(self) -> Iterator[Puzzle]:
        return iter(self._puzzles)

    def __contains__(self, item: object) -> bool:
        key = item.id if isinstance(item, Puzzle) else item
        return isinstance(key, str) and key in self._at

    def __repr__(self) -> str:
        return f"<PuzzleSet of {len(self)} puzzles>"

    def get(self, puzzle_id: str) -> Puzzle:
        """The puzzle with this id; KeyError naming it if the set has none."""
        try:
            return self._puzzles[self._at[puzzle_id]]
        except (KeyError, TypeError):
            raise KeyError(f"no puzzle {quoted(puzzle_id)} in this set") from None

    def index(self, puzzle: Puzzle | str, *args: int) -> int:  # type: ignore[override]
        """Where a puzzle (or an id) stands in the order."""
        key = puzzle.id if isinstance(puzzle, Puzzle) else puzzle
        self.get(key)
        return self._at[key]

    def next(self, puzzle: Puzzle | str) -> Puzzle:
        """The puzzle after this one (the first after the last)."""
        return self._puzzles[(self.index(puzzle) + 1) % len(self)]

    def previous(self, puzzle: Puzzle | str) -> Puzzle:
        """The puzzle before this one (the last before the first)."""
        return self._puzzles[(self.index(puzzle) - 1) % len(self)]

    def filter(
        self,
        rules: Rules | str | None = None,
        theme: str | Iterable[str] | None = None,
        difficulty: str | Iterable[str] | None = None,
    ) -> PuzzleSet:
        """The puzzles under these rules, with any of these themes, of any of these
        difficulties (None: any), in the same order. Unknown themes or difficulties are refused
        with a ValueError naming the known ones."""
        name = None if rules is None else Rules.coerce(rules).name
        themes = _chosen("theme", theme, tuple(THEMES))
        levels = _chosen("difficulty", difficulty, DIFFICULTIES)
        return PuzzleSet(
            puzzle
            for puzzle in self._puzzles
            if (name is None or puzzle.rules == name)
            and (themes is None or themes & set(puzzle.themes))
            and (levels is None or puzzle.difficulty in levels)
        )

    def pick(self, count: int, *, seed: int = 0) -> PuzzleSet:
        """``count`` puzzles of this set chosen at random but reproducibly (the same seed, the
        same puzzles, on every Python: SplitMix64 shuffles, as numbered deals do), kept in the
        set's order: a worksheet for a class.

        >>> from pyramid_widget import puzzles
        >>> sheet = puzzles.load("classic", theme="trapped").pick(5, seed=1)
        >>> len(sheet), sheet == puzzles.load("classic", theme="trapped").pick(5, seed=1)
        (5, True)
        """
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"count must be a whole number from 0 up, not {quoted(count)}")
        places = list(range(len(self)))
        numbers = splitmix64(seed)
        for i in range(len(places) - 1, 0, -1):
            j = next(numbers) % (i + 1)
            places[i], places[j] = places[j], places[i]
        chosen = set(places[:count])
        return PuzzleSet(p for n, p in enumerate(self._puzzles) if n in chosen)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PuzzleSet):
            return NotImplemented
        return self._puzzles == other._puzzles

    __hash__ = None  # type: ignore[assignment]

    def themes(self) -> Counter[str]:
        """How many puzzles carry each theme."""
        return Counter(theme for puzzle in self._puzzles for theme in puzzle.themes)

    def difficulties(self) -> Counter[str]:
        """How many puzzles each difficulty has."""
        return Counter(puzzle.difficulty for puzzle in self._puzzles)


def _chosen(what: str, value: str | Iterable[str] | None, known: tuple[str, ...]) -> set | None:
    if value is None:
        return None
    if not isinstance(value, str | Iterable):
        raise ValueError(f"{what} must be a name or names, not {quoted(value)}")
    chosen = {value} if isinstance(value, str) else set(value)
    strangers = sorted(str(item) for item in chosen - set(known))
    if strangers or not chosen:
        raise ValueError(
            f"unknown {what} {quoted(', '.join(strangers))}; known: {', '.join(known)}"
        )
    return chosen


def order(puzzles: Iterable[Puzzle]) -> list[Puzzle]:
    """The shipped order of one preset's puzzles: easiest first, then by id."""
    return sorted(puzzles, key=lambda puzzle: (puzzle.rating, puzzle.id))


def read_puzzles(path: Path | str) -> list[Puzzle]:
    """The puzzles of a JSON-lines file; ValueError naming the file (and the line) of a bad
    one, OSError when it cannot be read."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a puzzle file (not UTF-8 text)") from None
    return _parse(lines, str(path))


def write_puzzles(path: Path | str, puzzles: Iterable[Puzzle]) -> None:
    """Write puzzles as JSON lines (UTF-8, one puzzle a line, keys in a fixed order)."""
    text = "".join(json.dumps(p.to_dict(), ensure_ascii=False) + "\n" for p in puzzles)
    Path(path).write_text(text, encoding="utf-8")


def _parse(lines: list[str], where: str) -> list[Puzzle]:
    puzzles = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            puzzles.append(Puzzle.from_dict(json.loads(line)))
        except (ValueError, TypeError, RecursionError) as error:  # a damaged record
            raise ValueError(f"{where}, line {n}: {error}") from None
    return puzzles


@functools.cache
def shipped(preset: str) -> PuzzleSet:
    """The shipped puzzles of one preset, read once per process."""
    if preset not in SHIPPED:
        raise ValueError(f"no shipped puzzles for {quoted(preset)}; presets: {', '.join(SHIPPED)}")
    source = resources.files(__package__).joinpath("data", f"{preset}.jsonl")
    if not source.is_file():
        return PuzzleSet()
    return PuzzleSet(order(_parse(source.read_text(encoding="utf-8").splitlines(), preset)))


@functools.cache
def kinds(preset: str) -> tuple[tuple[tuple[str, ...], str], ...]:
    """The themes and the difficulty of each shipped puzzle of `preset` (none for rules
    without a shipped set), read from the file's records as they are: the Puzzles menu's counts,
    which every board sends, take a read of the file, not the check of every puzzle that `load`
    makes (the suite checks that the two agree)."""
    if preset not in SHIPPED:
        return ()
    source = resources.files(__package__).joinpath("data", f"{preset}.jsonl")
    if not source.is_file():
        return ()
    records = (json.loads(line) for line in source.read_text(encoding="utf-8").splitlines())
    return tuple((tuple(record["themes"]), record["difficulty"]) for record in records)


def counts(preset: str) -> Counter[tuple[str | None, str | None]]:
    """How many shipped puzzles of `preset` each choice of the Puzzles menu holds: keyed by
    (theme, difficulty), None for "any"; a choice with no puzzle is not in it.

    >>> from pyramid_widget import puzzles
    >>> counts = puzzles.counts("classic")
    >>> counts[None, None] == len(puzzles.load("classic"))
    True
    >>> counts["trapped", "easy"] == len(puzzles.load("classic", "trapped", "easy"))
    True
    """
    found: Counter[tuple[str | None, str | None]] = Counter()
    for themes, level in kinds(preset):
        for theme in (None, *themes):
            found[theme, None] += 1
            found[theme, level] += 1
    return found


def load(
    rules: Rules | str | None = None,
    theme: str | Iterable[str] | None = None,
    difficulty: str | Iterable[str] | None = None,
) -> PuzzleSet:
    """The shipped puzzles, filtered (see `PuzzleSet.filter`): by preset in `SHIPPED` order,
    each preset's easiest first. Rules with no shipped set give an empty set.

    >>> from pyramid_widget import puzzles
    >>> easy = puzzles.load("classic", difficulty="easy")
    >>> {puzzle.difficulty for puzzle in easy}
    {'easy'}
    """
    name = None if rules is None else Rules.coerce(rules).name
    presets = SHIPPED if name is None else [p for p in SHIPPED if p == name]
    every = PuzzleSet(puzzle for preset in presets for puzzle in shipped(preset))
    return every.filter(theme=theme, difficulty=difficulty)
