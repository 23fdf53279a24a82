"""What a strategy is, how it is asked for a move, and what is said when it fails.

A strategy is any callable ``view -> Move`` (a notation such as ``"5h+8c"`` is read as one),
so a lambda works, or an object with a ``choose(view)`` method. It is given a `PlayerView` and
nothing else. An answer that is not a legal move loses the game, with the reason (the engine's
words) recorded; an exception in the strategy is the strategy's bug, and stops the whole run
as a `StrategyError` naming the deal and the move.
"""

from __future__ import annotations

import pickle
import traceback
from collections.abc import Callable
from typing import Any, Protocol

from ..moves import IllegalMove, Move
from .player_view import PlayerView


class Chooser(Protocol):
    """A strategy as an object: ``choose(view)`` answers the move to play."""

    def choose(self, view: PlayerView) -> Move | str: ...


Strategy = Callable[[PlayerView], Move | str] | Chooser
"""A callable ``view -> Move`` (or notation), or an object with ``choose(view)``."""


class StrategyError(RuntimeError):
    """The strategy raised an exception: the run stops, naming where (``deal``, the deal
    number or layout, and ``move``, the number of the move it was asked for) and what
    (``error``: the exception's type and words; ``details``: its traceback as text)."""

    def __init__(self, message: str, deal: int | str, move: int, error: str, details: str = ""):
        super().__init__(message)
        self.deal, self.move, self.error, self.details = deal, move, error, details

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its fields, so that it crosses from a worker process intact."""
        return (type(self), (str(self), self.deal, self.move, self.error, self.details))


def chooser(strategy: Any) -> Callable[[PlayerView], Any]:
    """The function that asks `strategy` for a move; TypeError if it is neither callable nor
    an object with ``choose``."""
    choose = getattr(strategy, "choose", None)
    if callable(choose):
        return choose
    if callable(strategy):
        return strategy
    raise TypeError(
        f"a strategy is a function of the player's view, or an object with a choose(view) "
        f"method; not {strategy!r}"
    )


def name_of(strategy: Any) -> str:
    """What to call a strategy in a table: its ``name``, a function's name, or its class's.

    >>> name_of(lambda view: "draw"), name_of(print)
    ('lambda', 'print')
    """
    name = getattr(strategy, "name", None) or getattr(strategy, "__name__", None)
    if not isinstance(name, str):
        name = type(strategy).__name__
    return "lambda" if name == "<lambda>" else name


def ask(choose: Callable[[PlayerView], Any], view: PlayerView, *, player: str, deal: int | str):
    """The move `choose` answers for `view`, or the refusal when it cannot be played:
    (move, None), or (None, (what it answered, why it is refused)). Its exception becomes a
    `StrategyError` naming the deal and the move."""
    try:
        answer = choose(view)
    except Exception as error:
        what, move = f"{type(error).__name__}: {error}", view.move_count + 1
        raise StrategyError(
            f"the strategy {player!r} raised {what} on "
            f"{f'deal {deal}' if isinstance(deal, int) else 'a deal given as a layout'}, "
            f"at move {move}",
            deal,
            move,
            what,
            traceback.format_exc(),
        ) from error
    try:
        move = Move.parse(answer)
    except IllegalMove as refused:
        return None, (repr(answer), refused.reason)
    return move, None


class Shipped:
    """A strategy packed to cross to another process: by value with cloudpickle where it is
    installed (dask brings it), so a lambda or a function written in a notebook travels too;
    else by plain pickle. Unpacked it is a `Shipped` again, holding the strategy."""

    def __init__(self, strategy: Any) -> None:
        self.strategy = strategy

    def __reduce__(self) -> tuple[Any, ...]:
        try:
            import cloudpickle
        except ImportError:
            return (Shipped, (self.strategy,))
        return (_unpack, (cloudpickle.dumps(self.strategy),))

    def travels(self) -> bool:
        """Whether the strategy can be packed to go to another process at all."""
        try:
            pickle.dumps(self)
        except Exception:
            return False
        return True


def _unpack(packed: bytes) -> Shipped:
    return Shipped(pickle.loads(packed))
