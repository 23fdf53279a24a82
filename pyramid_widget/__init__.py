"""Pyramid Solitaire as a Jupyter widget, with a pure engine and an exact solver.

The engine and solver names import with the standard library alone; `PyramidWidget` (which
needs anywidget) and the records store are loaded on first use.
"""

from __future__ import annotations

from typing import Any

from .engine import (
    DECK,
    PRESETS,
    Card,
    Game,
    IllegalMove,
    Move,
    Rules,
    build_layout,
    daily_deal_number,
    deal_for_date,
    format_layout,
    parse_layout,
)

# Not lazy: the submodule has the function's name, and a lazy import would leave the *module*
# bound to `pyramid_widget.review`. It needs only the engine to import (the solver loads on use).
from .review import Review, review

__version__ = "0.1.0"

_LAZY = {
    "PyramidWidget": "pyramid_widget.widget",
    "solve": "pyramid_widget.solver",
    "hint": "pyramid_widget.solver",
    "deal_winnable": "pyramid_widget.solver",
    "winnability": "pyramid_widget.solver",
    "Solution": "pyramid_widget.solver",
    "Hint": "pyramid_widget.solver",
    "Store": "pyramid_widget.store",
    "NullStore": "pyramid_widget.store",
    "open_store": "pyramid_widget.store",
    "Recorder": "pyramid_widget.records",
    "Records": "pyramid_widget.records",
}


#: Submodules a notebook reaches as `pyramid_widget.puzzles`, loaded on first use too.
_SUBMODULES = ("lab", "puzzles", "svg")


def __getattr__(name: str) -> Any:
    """Load the widget and the solver on first use, so `import pyramid_widget` stays light."""
    from importlib import import_module

    if name in _SUBMODULES:
        return import_module(f"pyramid_widget.{name}")
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'pyramid_widget' has no attribute {name!r}")
    return getattr(import_module(module), name)


__all__ = [
    "DECK",
    "PRESETS",
    "Card",
    "Game",
    "IllegalMove",
    "Move",
    "Rules",
    "Review",
    "__version__",
    "build_layout",
    "daily_deal_number",
    "deal_for_date",
    "format_layout",
    "parse_layout",
    "review",
    *_LAZY,
    *_SUBMODULES,
]
