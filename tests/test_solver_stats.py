"""Winnable deals only, and winnability statistics on any executor."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from pyramid_widget import Game, Rules, deal_winnable, solve, winnability
from pyramid_widget.solver import wilson


def test_a_winnable_deal_is_proven_and_replays():
    found = deal_winnable("classic", seed=7)
    game, proven = found
    assert proven and found.game is game and found.proven and found.tries >= 1
    assert game.deal_number is not None and game.move_count == 0
    solution = solve(game)
    assert solution.status == "winnable"


def test_the_same_seed_gives_the_same_deal():
    first = deal_winnable("open-stock", seed=42)
    again = deal_winnable("open-stock", seed=42)
    assert first.game.layout == again.game.layout and first.proven == again.proven
    assert deal_winnable("open-stock", seed=43).game.layout != first.game.layout


def test_an_unproven_deal_is_never_claimed_winnable():
    # One node of search cannot prove anything: the deal comes back unproven.
    game, proven = deal_winnable("strict", seed=1, per_deal=1e-9, total=1e-9)
    assert not proven
    assert isinstance(game, Game)


def test_bad_budgets_are_refused():
    with pytest.raises(ValueError):
        deal_winnable("classic", per_deal=0)


def test_winnability_matches_one_solve_per_deal_on_any_executor():
    rules = Rules.preset("classic", passes=1)
    expected = [solve(Game.deal(n, rules)).status for n in range(1, 13)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        result = winnability(range(1, 13), rules, executor=pool, chunk=3)
    assert result.winnable == expected.count("winnable")
    assert result.unwinnable == expected.count("unwinnable")
    assert result.unknown == 0 and result.deals == 12
    low, high = result.interval
    assert low <= result.rate <= high


def test_winnability_takes_layouts_and_reports_undecided_deals():
    layouts = [Game.deal(n).layout for n in (1, 2, 3)]
    with ThreadPoolExecutor(max_workers=1) as pool:
        result = winnability(layouts, "classic", executor=pool)
    assert result.decided == 3 and result.to_dict()["deals"] == 3
    with ThreadPoolExecutor(max_workers=1) as pool:
        rushed = winnability([49], "classic", executor=pool, time_limit=0.001)
    assert rushed.unknown == 1 and rushed.undecided == (49,) and rushed.rate is None


@pytest.mark.parametrize("bad", [[0], ["Ac 2c"], [1.5], [True]])
def test_bad_deals_are_refused_before_any_work(bad):
    with pytest.raises(ValueError):
        winnability(bad, "classic", executor=ThreadPoolExecutor(max_workers=1))


def test_the_wilson_interval():
    assert wilson(0, 0) is None
    low, high = wilson(0, 10)
    assert low == 0.0 and 0.27 < high < 0.28
    low, high = wilson(50, 100)
    assert 0.40 < low < 0.41 and 0.59 < high < 0.60
