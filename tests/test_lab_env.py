"""The Gymnasium environment: it passes gymnasium's own checker, its observation shows only
what the player sees, its action mask is the engine's legal moves, and a random agent that
follows the mask plays a thousand episodes to their end."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from helpers import CARD_TOKEN

from pyramid_widget import Card, Game, Rules
from pyramid_widget.deals import format_layout
from pyramid_widget.lab import PlayerView, PyramidEnv
from pyramid_widget.lab.env import ACTIONS, ENV_ID, FACE_DOWN, WIN_REWARD, observe


@pytest.mark.parametrize("rules", ["classic", "strict", "classic,passes=unlimited"])
def test_the_environment_passes_gymnasiums_checker(rules):
    env = gymnasium.make(ENV_ID, rules=rules, render_mode="ansi")
    check_env(env.unwrapped)
    _, info = env.reset(seed=1)
    for _ in range(5):
        _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
    text = env.render()
    assert text == str(info["view"]) and "stock [" in text
    assert {Card.parse(token) for token in CARD_TOKEN.findall(text)} <= info["view"].seen


def test_a_random_agent_that_follows_the_mask_plays_a_thousand_episodes():
    env = PyramidEnv("classic", deals=range(1, 201))
    rng = np.random.default_rng(7)
    env.reset(seed=7)
    ends = {"won": 0, "lost": 0}
    steps = 0
    for _ in range(1000):
        observation, info = env.reset()
        total, terminated, truncated = 0.0, False, False
        while not (terminated or truncated):
            legal = np.flatnonzero(info["action_mask"])
            observation, reward, terminated, truncated, info = env.step(rng.choice(legal))
            total += reward
            steps += 1
        view = info["view"]
        assert "refused" not in info and not truncated  # the mask never offers a refused move
        assert total == view.cleared + (WIN_REWARD if view.is_won else 0)
        assert view.is_won or not view.legal
        ends["won" if view.is_won else "lost"] += 1
    assert env.observation_space.contains(observation)
    assert ends["won"] > 0 and ends["lost"] > 0 and steps > 50_000


def test_the_mask_is_the_legal_moves_and_a_masked_out_action_loses_the_game():
    env = PyramidEnv("open-stock")
    _, info = env.reset(options={"deal": 42})
    game = Game.deal(42, "open-stock")
    assert [ACTIONS[n] for n in np.flatnonzero(info["action_mask"])] == sorted(
        game.legal_moves(), key=ACTIONS.index
    )
    assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
    refused = next(n for n in range(len(ACTIONS)) if not info["action_mask"][n])
    _, reward, terminated, truncated, info = env.step(refused)
    assert (reward, terminated, truncated) == (0.0, True, False)
    assert info["refused"] == game.refusal(ACTIONS[refused])
    assert info["view"] == PlayerView.of(game)  # the refused action changed nothing


def test_the_observation_shows_no_face_down_card():
    """Two deals that differ only in their face-down stock cards look the same."""
    game = Game.deal(5, "classic")
    for _ in range(6):
        game.draw()
    cards = list(game.cards)
    cards[-3:] = reversed(cards[-3:])  # still face down: only their order changed
    twin = Game.from_layout(format_layout(cards), "classic")
    twin.replay(game.log)
    first, second = observe(PlayerView.of(game)), observe(PlayerView.of(twin))
    assert np.array_equal(first, second)
    stock = list(first[28 + 24 :])  # after the pyramid and the waste: next card first
    assert stock[:18] == [FACE_DOWN] * 18 and stock[18:] == [0] * 6 + [18, 2]


def test_the_same_seed_deals_the_same_deals_and_options_pick_one():
    env = PyramidEnv(Rules(), deals=[3, 5, 8])
    firsts = [env.reset(seed=11)[0] for _ in range(2)]
    assert np.array_equal(*firsts)
    shown = env.reset(options={"deal": 8})[1]["view"]
    assert shown == PlayerView.of(Game.deal(8))
    with pytest.raises(ValueError, match="at least one"):
        PyramidEnv(deals=[])
