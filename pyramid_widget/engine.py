"""The pure engine in one import: `from pyramid_widget.engine import Game`.

Standard library only; nothing here imports Jupyter, so the engine and the solver run anywhere.
"""

from .cards import DECK, Card
from .deals import build_layout, daily_deal_number, format_layout, parse_layout
from .game import DRAW, RECYCLE, Game, IllegalMove, Move, Position, deal_for_date
from .rules import PRESETS, Rules

__all__ = [
    "DECK",
    "DRAW",
    "PRESETS",
    "RECYCLE",
    "Card",
    "Game",
    "IllegalMove",
    "Move",
    "Position",
    "Rules",
    "build_layout",
    "daily_deal_number",
    "deal_for_date",
    "format_layout",
    "parse_layout",
]
