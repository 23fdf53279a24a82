"""`compare`: several strategies on the same deals, as a table and a chart.

The table is plain data (`to_rows`, a notebook's HTML table, text); the chart (`chart.py`) is
drawn with matplotlib, the ``[plots]`` extra, imported only when a chart is asked for.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..progress import ProgressOption
from ..rules import Rules
from ..solver.chunked import checked
from .evaluation import DEFAULT_DEALS, evaluate
from .scorecard import Scorecard, share
from .strategy import name_of

COLUMNS = (
    ("player", "player"),
    ("win rate", "win_rate"),
    ("efficiency", "efficiency"),
    ("cleared", "cleared"),
    ("moves", "moves"),
    ("ms a game", "ms_per_game"),
)


@dataclass(frozen=True)
class Comparison:
    """The scorecards of several strategies on the same deals of the same rules, in the order
    given; `bound` is the share of those deals the solver proves winnable."""

    rules: str
    cards: tuple[Scorecard, ...]

    @property
    def games(self) -> int:
        return self.cards[0].games if self.cards else 0

    @property
    def bound(self) -> float | None:
        return self.cards[0].bound if self.cards else None

    def __getitem__(self, player: str) -> Scorecard:
        """The scorecard of the player of that name."""
        for card in self.cards:
            if card.player == player:
                return card
        raise KeyError(f"no player named {player!r}; players: {[c.player for c in self.cards]}")

    def to_rows(self) -> list[dict[str, Any]]:
        """One plain dict per player (`Scorecard.figures`), e.g. for `pandas.DataFrame`."""
        return [card.figures() for card in self.cards]

    def __str__(self) -> str:
        rows = [[name for name, _ in COLUMNS], *(self._cells(card) for card in self.cards)]
        widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
        lines = [
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
            for row in rows
        ]
        bound = share(self.bound, None)
        lines.append(f"{self.games} deals of {self.rules}; {bound} of them can be won at all")
        return "\n".join(line.rstrip() for line in lines)

    def _cells(self, card: Scorecard) -> list[str]:
        figures = card.figures()
        return [
            card.player,
            share(card.win_rate, card.interval),
            share(card.efficiency, card.efficiency_interval),
            "-" if card.cleared is None else f"{card.cleared:.1f}",
            "-" if card.moves is None else f"{card.moves:.1f}",
            "-" if figures["ms_per_game"] is None else f"{figures['ms_per_game']:.1f}",
        ]

    def _repr_html_(self) -> str:
        head = "".join(f"<th style='text-align:left'>{html.escape(n)}</th>" for n, _ in COLUMNS)
        body = "".join(
            "<tr>"
            + "".join(f"<td>{html.escape(cell)}</td>" for cell in self._cells(card))
            + "</tr>"
            for card in self.cards
        )
        bound = html.escape(share(self.bound, None))
        note = f"{self.games} deals of {html.escape(self.rules)}; {bound} of them can be won at all"
        return (
            f"<div class='pyramid-comparison'><table><thead><tr>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table><p><small>{note}</small></p></div>"
        )

    def chart(self) -> Any:
        """A matplotlib figure (a notebook shows it as a picture): win rates and efficiencies
        with their 95 % intervals, the solver's bound as a dashed line on each. Needs
        matplotlib, the ``[plots]`` extra."""
        try:
            from .chart import draw
        except ImportError:
            raise ImportError(
                "the chart needs matplotlib: pip install 'pyramid-widget[plots]'"
            ) from None
        return draw(self)

    def __repr__(self) -> str:
        return f"<Comparison of {len(self.cards)} players on {self.games} deals of {self.rules}>"


def compare(
    strategies: Sequence[Any] | Mapping[str, Any],
    rules: Rules | str | None = "classic",
    deals: Iterable[int | str] = DEFAULT_DEALS,
    *,
    executor: Any = None,
    workers: int | None = None,
    progress: ProgressOption = "auto",
    cache: bool | str | Path = True,
) -> Comparison:
    """`evaluate` each strategy on the same deals (a list, or a mapping of names to
    strategies) and put the scorecards side by side; the solver's verdicts are asked once and
    kept (see `evaluate`'s ``cache``), so every strategy after the first pays only for its
    own play.

    >>> from pyramid_widget.lab import greedy, random_player
    >>> from pyramid_widget.solver.pools import InlineExecutor
    >>> table = compare([greedy, random_player], "classic", range(1, 11), progress=None,
    ...                 executor=InlineExecutor())
    >>> [row["wins"] for row in table.to_rows()], table.bound
    ([1, 0], 0.5)
    """
    named = _named(strategies)
    deals = checked(deals)
    rules = Rules.coerce(rules)
    cards = tuple(
        evaluate(
            strategy,
            rules,
            deals,
            executor=executor,
            workers=workers,
            progress=progress,
            cache=cache,
            name=name,
        )
        for name, strategy in named
    )
    return Comparison(rules.name, cards)


def _named(strategies: Sequence[Any] | Mapping[str, Any]) -> list[tuple[str, Any]]:
    """Each strategy with a name of its own (a second "lambda" becomes "lambda 2")."""
    pairs = (
        list(strategies.items())
        if isinstance(strategies, Mapping)
        else [(name_of(strategy), strategy) for strategy in strategies]
    )
    if not pairs:
        raise ValueError("compare needs at least one strategy")
    named, taken = [], set()
    for name, strategy in pairs:
        unique, n = name, 1
        while unique in taken:
            n += 1
            unique = f"{name} {n}"
        taken.add(unique)
        named.append((unique, strategy))
    return named
