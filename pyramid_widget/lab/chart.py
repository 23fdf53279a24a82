"""The chart of a comparison, drawn with matplotlib (the ``[plots]`` extra): this module is
imported only when a chart is asked for, so the lab runs without matplotlib.

Two panels share the players: the win rate, and the efficiency (wins among the winnable
deals), each bar with its 95 % interval, and the solver's bound as a dashed line on each (the
share of the deals that could be won at all; 100 % of the possible for the efficiency).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import TYPE_CHECKING

from matplotlib.figure import Figure

if TYPE_CHECKING:
    from .comparison import Comparison
    from .scorecard import Scorecard

BAR = "#4c78a8"
BOUND = "#c62828"


class Chart(Figure):
    """A matplotlib `Figure` that a notebook shows as a picture without pyplot."""

    def _repr_png_(self) -> bytes:
        picture = io.BytesIO()
        self.savefig(picture, format="png", dpi=96)
        return picture.getvalue()


def draw(comparison: Comparison) -> Chart:
    names = [card.player for card in comparison.cards][::-1]
    figure = Chart(figsize=(9, 0.5 * len(names) + 1.6), layout="constrained")
    left, right = figure.subplots(1, 2, sharey=True)
    _panel(
        left, names, comparison, "win rate", lambda c: (c.win_rate, c.interval), comparison.bound
    )
    _panel(
        right,
        names,
        comparison,
        "efficiency (wins among the winnable deals)",
        lambda c: (c.efficiency, c.efficiency_interval),
        1.0,
    )
    figure.suptitle(f"{comparison.games} deals of {comparison.rules}")
    return figure


Measure = Callable[["Scorecard"], tuple[float | None, tuple[float, float] | None]]


def _panel(axes, names: list[str], comparison: Comparison, title: str, measure: Measure, bound):
    rates, below, above = [], [], []
    for card in comparison.cards[::-1]:
        rate, interval = measure(card)
        rate = rate or 0.0
        low, high = interval or (rate, rate)
        rates.append(100 * rate)
        below.append(100 * (rate - low))
        above.append(100 * (high - rate))
    axes.barh(names, rates, xerr=[below, above], capsize=3, color=BAR)
    if bound is not None:
        axes.axvline(100 * bound, color=BOUND, linestyle="--", label="solver's bound")
        axes.legend(loc="lower right", fontsize="small")
    axes.set_xlim(0, 100)
    axes.set_xlabel("%")
    axes.set_title(title, fontsize="medium")
