"""A strategy's scorecard over many deals: what `evaluate` returns.

The figures: games, wins and the win rate with its 95 % Wilson interval; the deals the solver
proves winnable and the wins among them, the strategy's efficiency (a win is only possible on
a winnable deal, so efficiency is wins / winnable); pyramid cards cleared and moves on average;
the time per game. Every lost winnable deal is kept with its moves, ready to review (its
first slip is the review's decisive mistake) and to open on the board. The figures compare
equal across runs and executors; the time per game is measured, so it never takes part.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..game import Game
from ..review import Review, review
from ..rules import Rules
from ..solver.stats import wilson
from .play import Ending

SHOWN_LOST = 10
"""Lost winnable deals a scorecard's table shows (with their slips): the rest stay in data."""


@dataclass(frozen=True)
class Played:
    """One game of the run: the deal, the solver's verdict on it ("winnable" or
    "unwinnable"), how it ended, pyramid cards cleared, moves played; and, for a game lost on
    a winnable deal or ended by a refused answer, its moves (``log``), with the refused
    ``answer`` and the engine's ``reason``. ``seconds``: the strategy's time on it."""

    deal: int | str
    verdict: str
    ending: Ending
    cleared: int
    moves: int
    log: tuple[str, ...] = ()
    answer: str | None = None
    reason: str | None = None
    seconds: float = field(default=0.0, compare=False)

    @property
    def won(self) -> bool:
        return self.ending == "won"

    def to_dict(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "verdict": self.verdict,
            "ending": self.ending,
            "won": self.won,
            "cleared": self.cleared,
            "moves": self.moves,
            "answer": self.answer,
            "reason": self.reason,
            "seconds": self.seconds,
        }


@dataclass(eq=False)
class LostDeal:
    """A winnable deal the strategy lost: its moves, and on demand the review of them (`slip`
    is the review's decisive mistake, the first move after which the deal could no longer be
    won) and the game at any point of it, to open on a board:
    ``PyramidWidget(game=lost.before_slip(), store=None)``."""

    played: Played
    rules: str
    _review: Review | None = field(default=None, repr=False)

    @property
    def deal(self) -> int | str:
        return self.played.deal

    @property
    def code(self) -> str:
        """The deal's code ("classic#42"), for `PyramidWidget.new_deal(code=...)`."""
        return self.start().deal_code

    def start(self) -> Game:
        """The deal at its start."""
        rules = Rules.parse(self.rules)
        deal = self.played.deal
        return Game.deal(deal, rules) if isinstance(deal, int) else Game.from_layout(deal, rules)

    def game(self) -> Game:
        """The game as the strategy left it (every move can be undone on a board)."""
        game = self.start()
        game.replay(self.played.log)
        return game

    def __repr__(self) -> str:
        game = self.played
        return f"<LostDeal {self.code}: {game.ending}, {game.moves} moves, {game.cleared} cleared>"

    def review(self, *, hints: bool = False) -> Review:
        """The game's review (`pyramid_widget.review`, every position's verdict exact; with
        `hints`, a fair hint beside every move too, which takes longer). Kept once made."""
        if self._review is None or (hints and not any(s.hint for s in self._review.steps)):
            self._review = review(self.game(), time_limit=None, hints=hints)
        return self._review

    @property
    def slip(self) -> int | None:
        """The number of the first move after which the deal could no longer be won."""
        return self.review().mistake

    @property
    def slip_text(self) -> str:
        """The review's summary: which move lost the win and what would have kept it."""
        return self.review().summary

    def before_slip(self) -> Game:
        """The game just before its slip, the rest of its moves ready to redo."""
        found = self.review()
        return found.game_at(found.mistake - 1 if found.mistake else len(found))


@dataclass(frozen=True)
class Scorecard:
    """What `evaluate` found; see the module docstring. ``games_played`` holds every game in
    the order of the deals; after an interrupt (``interrupted``) the figures are those of the
    games played by then, and ``not_tried`` holds the other deals."""

    player: str
    rules: str
    games_played: tuple[Played, ...]
    seconds: float = field(compare=False)
    interrupted: bool = False
    not_tried: Sequence[int | str] = ()

    @property
    def games(self) -> int:
        return len(self.games_played)

    @property
    def wins(self) -> int:
        return sum(game.won for game in self.games_played)

    @property
    def winnable(self) -> int:
        """The deals the solver proves winnable (the most any player could win)."""
        return sum(game.verdict == "winnable" for game in self.games_played)

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def interval(self) -> tuple[float, float] | None:
        """The 95 % Wilson interval of the win rate."""
        return wilson(self.wins, self.games)

    @property
    def efficiency(self) -> float | None:
        """Wins among the winnable deals: the share of the possible the strategy got."""
        return self.wins / self.winnable if self.winnable else None

    @property
    def efficiency_interval(self) -> tuple[float, float] | None:
        return wilson(self.wins, self.winnable)

    @property
    def bound(self) -> float | None:
        """The share of the deals that could be won at all (the all-seeing player's rate)."""
        return self.winnable / self.games if self.games else None

    @property
    def cleared(self) -> float | None:
        """Pyramid cards cleared, on average."""
        return _mean(game.cleared for game in self.games_played)

    @property
    def moves(self) -> float | None:
        return _mean(game.moves for game in self.games_played)

    @property
    def seconds_per_game(self) -> float | None:
        """The strategy's own time per game, on average (playing, not solving)."""
        return _mean(game.seconds for game in self.games_played)

    @cached_property
    def lost_winnable(self) -> tuple[LostDeal, ...]:
        """The winnable deals it lost, in the order of the deals (each keeps its review once
        made, so the first slips are worked out once)."""
        return tuple(
            LostDeal(game, self.rules)
            for game in self.games_played
            if game.verdict == "winnable" and not game.won
        )

    @property
    def refused(self) -> tuple[Played, ...]:
        """The games lost by an answer the rules refused (each with the answer and why)."""
        return tuple(game for game in self.games_played if game.ending == "refused")

    def figures(self) -> dict[str, Any]:
        """The figures as one plain dict (a row of `compare`'s table)."""
        low, high = self.interval or (None, None)
        eff_low, eff_high = self.efficiency_interval or (None, None)
        per_game = self.seconds_per_game
        return {
            "player": self.player,
            "rules": self.rules,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "low": low,
            "high": high,
            "winnable": self.winnable,
            "efficiency": self.efficiency,
            "efficiency_low": eff_low,
            "efficiency_high": eff_high,
            "cleared": self.cleared,
            "moves": self.moves,
            "ms_per_game": None if per_game is None else 1000 * per_game,
            "refused": len(self.refused),
            "interrupted": self.interrupted,
        }

    def to_rows(self) -> list[dict[str, Any]]:
        """Every game as a plain dict, e.g. for `pandas.DataFrame(card.to_rows())`."""
        return [game.to_dict() for game in self.games_played]

    def __repr__(self) -> str:
        return (
            f"<Scorecard of {self.player} on {self.rules}: {self.wins} wins in {self.games} games>"
        )

    def __str__(self) -> str:
        if not self.games:
            return f"{self.player} on {self.rules}: no game played"
        lines = [
            f"{self.player} on {self.rules}: {self.wins} wins in {self.games} games, "
            f"{share(self.win_rate, self.interval)}",
            f"efficiency {share(self.efficiency, self.efficiency_interval)}: "
            f"{self.wins} of the {self.winnable} winnable deals",
            f"{self.cleared:.1f} pyramid cards cleared and {self.moves:.1f} moves a game, "
            f"{1000 * (self.seconds_per_game or 0):.1f} ms a game",
        ]
        if self.refused:
            first = self.refused[0]
            lines.append(
                f"{len(self.refused)} games lost by a refused move, first on deal "
                f"{first.deal}: {first.answer} ({first.reason})"
            )
        if self.interrupted:
            lines.append(f"interrupted: {len(self.not_tried)} deals not played")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><th style='text-align:left'>{html.escape(name)}</th><td>{value}</td></tr>"
            for name, value in self._html_figures()
        )
        lost = self.lost_winnable
        slips = "".join(
            f"<tr><td>{html.escape(str(game.deal))}</td><td>{game.played.cleared}</td>"
            f"<td>{html.escape(game.slip_text)}</td></tr>"
            for game in lost[:SHOWN_LOST]
        )
        table = f"<table>{rows}</table>"
        if slips:
            more = f" (the first {SHOWN_LOST})" if len(lost) > SHOWN_LOST else ""
            table += (
                f"<p>Winnable deals lost{more}, each with where its win slipped away:</p>"
                "<table><tr><th>deal</th><th>cleared</th><th>the review says</th></tr>"
                f"{slips}</table>"
            )
        return f"<div class='pyramid-scorecard'>{table}</div>"

    def _html_figures(self) -> list[tuple[str, str]]:
        figures = [
            ("player", html.escape(f"{self.player} on {self.rules}")),
            ("games", str(self.games)),
            ("wins", str(self.wins)),
            ("win rate", share(self.win_rate, self.interval)),
            ("winnable deals", f"{self.winnable} ({share(self.bound, None)})"),
            ("efficiency", share(self.efficiency, self.efficiency_interval)),
        ]
        if self.games:
            figures += [
                ("cards cleared", f"{self.cleared:.1f} of 28"),
                ("moves", f"{self.moves:.1f}"),
                ("time per game", f"{1000 * (self.seconds_per_game or 0):.1f} ms"),
            ]
        if self.refused:
            figures.append(("lost by a refused move", str(len(self.refused))))
        if self.interrupted:
            figures.append(("interrupted", f"{len(self.not_tried)} deals not played"))
        return figures


def _mean(values: Any) -> float | None:
    values = list(values)
    return sum(values) / len(values) if values else None


def share(rate: float | None, interval: tuple[float, float] | None) -> str:
    """A rate with its interval, as the README's tables write them: "65.8 % (64.8-66.7)"."""
    if rate is None:
        return "-"
    if interval is None:
        return f"{100 * rate:.1f} %"
    low, high = interval
    return f"{100 * rate:.1f} % ({100 * low:.1f}-{100 * high:.1f})"
