"""The garbage collector's pause during searches: shared by searches side by side or nested,
and always put back as it was, whatever way a search ends."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest

from pyramid_widget import Game, hint, solve
from pyramid_widget.solver import deal_winnable
from pyramid_widget.solver.gc_pause import collector_paused
from pyramid_widget.solver.search import Solver
from pyramid_widget.solver.solution import problem_from_game


@pytest.fixture(autouse=True)
def _collector_back_on():
    yield
    gc.enable()


def test_a_search_runs_with_the_collector_off_and_leaves_it_as_it_found_it(monkeypatch):
    seen = []
    real_info = Solver._info

    def watching(self, P):
        seen.append(gc.isenabled())
        return real_info(self, P)

    monkeypatch.setattr("pyramid_widget.solver.search.Solver._info", watching)
    game = Game.deal(6622, "classic,passes=1")
    assert gc.isenabled()
    assert solve(game).status == "unwinnable"
    assert seen and not any(seen)
    assert gc.isenabled()
    gc.disable()
    solve(game)
    hint(game)
    solve(Game.deal(7, "open-stock"), optimal=True)
    assert not gc.isenabled()


def test_winnable_deals_only_searches_with_the_collector_off(monkeypatch):
    seen = []
    real_solve = Solver.solve

    def watching(self, *args, **kwargs):
        seen.append(gc.isenabled())
        return real_solve(self, *args, **kwargs)

    monkeypatch.setattr("pyramid_widget.solver.search.Solver.solve", watching)
    assert deal_winnable("strict", seed=3).tries >= 1
    assert seen and not any(seen)
    assert gc.isenabled()


def test_a_search_cut_short_or_failing_still_puts_the_collector_back():
    slow = Game.deal(5525, "one-recycle")
    assert solve(slow, time_limit=0.01).status == "unknown"
    assert gc.isenabled()
    with pytest.raises(ValueError), collector_paused():
        raise ValueError("a search that fails")
    assert gc.isenabled()


def test_nested_pauses_end_with_the_outermost():
    with collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_searches_side_by_side_share_one_pause():
    """The collector stays off until the last of two overlapping searches ends, and comes
    back on after it."""
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen: dict[str, bool] = {}

    def first() -> None:
        with collector_paused():
            first_in.set()
            second_in.wait(10)
        first_out.set()

    def second() -> None:
        first_in.wait(10)
        with collector_paused():
            second_in.set()
            first_out.wait(10)
            seen["after the first ended"] = gc.isenabled()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    assert seen == {"after the first ended": False}
    assert gc.isenabled()


@pytest.mark.parametrize(
    "deal, rules", [(5525, "one-recycle"), (764, "strict"), (462, "classic"), (9, "open-stock")]
)
def test_a_search_leaves_no_reference_cycle(deal, rules):
    """With the collector paused, a reference cycle made by a search (a recursive inner
    function is one) keeps whatever it reaches until the next collection: all of a solver's
    memos. So a finished solver and its pyramid facts must go by reference counting alone,
    the collector off."""
    problem = problem_from_game(Game.deal(deal, rules))
    gc.collect()
    gc.disable()
    solver = Solver(problem)
    solver.solve(problem.start)
    gone = weakref.ref(solver), weakref.ref(solver.pyramid)
    del solver
    assert [ref() for ref in gone] == [None, None]
