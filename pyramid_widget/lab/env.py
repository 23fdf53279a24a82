"""`PyramidEnv`: Pyramid Solitaire as a Gymnasium environment (the ``[gym]`` extra).

The observation is the player's view and nothing more (`PlayerView`, which is also in
``info["view"]``), as a fixed-size vector of whole numbers (`OBSERVATION`): the 28 pyramid
places (a card, or 0 once gone), the waste top first, the stock next card first (a card the
player has seen there, `FACE_DOWN` for one not seen yet), the stock's count and the passes
left. The actions are fixed: draw, recycle, the four Kings and the 96 pairs that make 13
(`ACTIONS`); ``info["action_mask"]`` and `action_masks()` mark the legal ones now. A move the
rules refuse ends the episode as a loss, with the reason in ``info["refused"]``, as it loses
the game in `evaluate`. The reward is the pyramid cards a move clears, plus `WIN_REWARD` for
the win. ``reset(seed=...)`` deals a numbered deal chosen from ``deals`` (any by default), or
the one in ``options={"deal": n}``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..cards import DECK, PYRAMID_SIZE, STOCK_SIZE
from ..deals import MAX_DEAL
from ..game import Game
from ..moves import DRAW, RECYCLE, IllegalMove, Move
from ..rules import Rules
from .player_view import PlayerView

FACE_DOWN = len(DECK) + 1
"""How the observation writes a stock card the player has not seen (cards are 1-52, 0 none)."""

MAX_PASSES_SHOWN = 9
"""Passes left above this are shown as this; `UNLIMITED` stands for unlimited passes."""
UNLIMITED = MAX_PASSES_SHOWN + 1

WIN_REWARD = 10.0
"""Added to the last move's reward when it wins."""

CARD_ID = {card: n for n, card in enumerate(DECK, 1)}

ACTIONS: tuple[Move, ...] = (
    DRAW,
    RECYCLE,
    *(Move.king(card) for card in DECK if card.is_king),
    *(
        Move.pair(low, high)
        for low in DECK
        for high in DECK
        if low.value < high.value and low.pairs_with(high)
    ),
)
"""Every move a game can offer, in a fixed order: action n plays ``ACTIONS[n]``."""

ACTION_OF = {move: n for n, move in enumerate(ACTIONS)}

ENV_ID = "pyramid_widget/PyramidSolitaire-v0"
"""The name `gymnasium.make` knows the environment by, once this module is imported."""

OBSERVATION = (
    [len(DECK) + 1] * PYRAMID_SIZE  # pyramid places, apex first: a card id, 0 once gone
    + [len(DECK) + 1] * STOCK_SIZE  # waste, top first: a card id, 0 past the bottom
    + [FACE_DOWN + 1] * STOCK_SIZE  # stock, next first: a card id, FACE_DOWN, 0 past the end
    + [STOCK_SIZE + 1, UNLIMITED + 1]  # the stock's count, the passes left
)
"""The sizes of the observation's entries (its `MultiDiscrete` space)."""


def observe(view: PlayerView) -> np.ndarray:
    """The observation of a view (see the module docstring)."""
    pyramid = [0 if card is None else CARD_ID[card] for card in view.pyramid]
    waste = [CARD_ID[card] for card in reversed(view.waste)]
    stock = [FACE_DOWN if card is None else CARD_ID[card] for card in view.stock.known]
    left = view.passes_left
    passes = UNLIMITED if left is None else min(left, MAX_PASSES_SHOWN)
    return np.array(
        pyramid
        + waste
        + [0] * (STOCK_SIZE - len(waste))
        + stock
        + [0] * (STOCK_SIZE - len(stock))
        + [len(stock), passes],
        dtype=np.int64,
    )


def action_mask(view: PlayerView) -> np.ndarray:
    """1 for each action that is legal now, 0 for the others."""
    mask = np.zeros(len(ACTIONS), dtype=np.int8)
    mask[[ACTION_OF[move] for move in view.legal]] = 1
    return mask


class PyramidEnv(gymnasium.Env):
    """Pyramid Solitaire under `rules`, one numbered deal an episode (see the module docstring).

    `deals`: the deal numbers ``reset`` picks from (with the environment's seeded generator);
    None for any numbered deal. `max_moves`: the episode is truncated after so many moves (a
    strategy can draw for ever under unlimited passes). ``render_mode="ansi"`` renders the
    table as text, the stock face down.

    >>> env = PyramidEnv("classic", deals=[42])
    >>> observation, info = env.reset(seed=0)
    >>> [ACTIONS[n] for n in np.flatnonzero(info["action_mask"])]
    [Move.parse('draw'), Move.parse('Ks')]
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        rules: Rules | str = "classic",
        deals: Sequence[int] | None = None,
        *,
        max_moves: int = 500,
        render_mode: str | None = None,
    ) -> None:
        self.rules = Rules.coerce(rules)
        self.deals = None if deals is None else [int(deal) for deal in deals]
        if self.deals is not None and not self.deals:
            raise ValueError("deals must hold at least one deal number")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.max_moves = max_moves
        self.render_mode = render_mode
        self.observation_space = spaces.MultiDiscrete(OBSERVATION)
        self.action_space = spaces.Discrete(len(ACTIONS))
        self._game: Game | None = None
        self._view: PlayerView | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        deal = (options or {}).get("deal")
        if deal is None:
            if self.deals is None:
                deal = int(self.np_random.integers(1, MAX_DEAL + 1))
            else:
                deal = self.deals[int(self.np_random.integers(len(self.deals)))]
        self._game = Game.deal(deal, self.rules)
        return self._seen({})

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._game is None:
            raise RuntimeError("call reset() before step()")
        game = self._game
        before = game.cleared
        try:
            game.play(ACTIONS[int(action)])
        except IllegalMove as error:
            observation, info = self._seen({"refused": error.reason})
            return observation, 0.0, True, False, info
        won = game.is_won
        reward = float(game.cleared - before) + (WIN_REWARD if won else 0.0)
        observation, info = self._seen({})
        terminated = won or not self._view.legal  # type: ignore[union-attr]
        truncated = not terminated and game.move_count >= self.max_moves
        return observation, reward, terminated, truncated, info

    def _seen(self, info: dict[str, Any]) -> tuple[np.ndarray, dict[str, Any]]:
        assert self._game is not None
        self._view = PlayerView.of(self._game)
        return observe(self._view), {
            **info,
            "view": self._view,
            "action_mask": action_mask(self._view),
        }

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as a boolean array (the name sb3-contrib's maskable agents
        ask for)."""
        if self._view is None:
            raise RuntimeError("call reset() first")
        return action_mask(self._view).astype(bool)

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self._view is None:
            return None
        return str(self._view)


if ENV_ID not in gymnasium.registry:
    gymnasium.register(ENV_ID, entry_point=PyramidEnv)
