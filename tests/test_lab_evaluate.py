"""evaluate() and compare(): the same figures on every run and every executor (a real dask
LocalCluster among them), the all-seeing bound, refused moves and strategies' bugs reported as
promised, and the solver's verdicts kept in a file that a damaged row or a second writer
cannot mislead."""

from __future__ import annotations

import multiprocessing
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import dask
import pytest
from distributed import Client, LocalCluster

from pyramid_widget import Game, Move, solve
from pyramid_widget.lab import (
    PlayerView,
    StrategyError,
    all_seeing,
    compare,
    evaluate,
    evaluation,
    greedy,
    random_player,
)
from pyramid_widget.lab.verdicts import VerdictCache, checksum
from pyramid_widget.solver.pools import InlineExecutor

DEALS = range(1, 31)
HERE = InlineExecutor()


def local_workers() -> list:
    """The processes of a local pool still alive (the cluster's own workers are not)."""
    return [p for p in multiprocessing.active_children() if not p.name.startswith("Dask")]


class MoveCounter:
    """A strategy that keeps notes during a game: greedy, but it recycles no sooner than its
    own count of draws says (a fresh copy plays every game, so the notes never leak)."""

    name = "counter"

    def __init__(self) -> None:
        self.draws = 0

    def choose(self, view: PlayerView) -> Move:
        move = greedy(view)
        self.draws += move.kind == "draw"
        return move


@pytest.fixture(scope="module")
def greedy_here() -> object:
    return evaluate(greedy, "classic", DEALS, executor=HERE, progress=None)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory) -> Iterator[LocalCluster]:
    folder = tmp_path_factory.mktemp("dask")
    with (
        dask.config.set({"temporary-directory": str(folder)}),
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            scheduler_kwargs={"dashboard_address": ":0"},
            local_directory=str(folder),
        ) as cluster,
    ):
        yield cluster


def test_the_figures_are_the_same_on_every_run_and_every_executor(greedy_here, cluster):
    again = evaluate(greedy, "classic", DEALS, executor=HERE, progress=None)  # verdicts kept
    pool = evaluate(greedy, "classic", DEALS, workers=2, progress=None, cache=False)
    with Client(cluster, set_as_default=False) as client:
        on_dask = evaluate(greedy, "classic", DEALS, executor=client, progress=None)
    for card in (again, pool, on_dask):
        assert card == greedy_here
        assert card.figures() | {"ms_per_game": None} == greedy_here.figures() | {
            "ms_per_game": None
        }
    assert greedy_here.games == 30 and 0 < greedy_here.wins < greedy_here.winnable < 30
    assert not local_workers()


def test_a_lambda_and_a_strategy_that_keeps_notes_play_alike_anywhere(greedy_here):
    lam = evaluate(lambda view: greedy(view), "classic", DEALS, workers=2, progress=None)
    assert lam.games_played == greedy_here.games_played and lam.player == "lambda"
    here = evaluate(MoveCounter(), "classic", DEALS, executor=HERE, progress=None)
    split = evaluate(MoveCounter(), "classic", DEALS, workers=2, chunk=4, progress=None)
    assert here == split and here.games_played == greedy_here.games_played


def test_the_all_seeing_player_wins_every_winnable_deal():
    for rules in ("classic", "one-recycle"):
        card = evaluate(all_seeing, rules, range(1, 41), executor=HERE, progress=None)
        assert card.efficiency == 1.0 and card.wins == card.winnable
        assert card.winnable == sum(
            solve(Game.deal(n, rules)).status == "winnable" for n in range(1, 41)
        )
        assert not card.lost_winnable


def test_a_refused_move_loses_that_game_and_is_reported():
    def clumsy(view: PlayerView) -> Move | str:
        if view.move_count == 2:
            return f"{view.dealt[0]}"  # the apex, alone: covered, or no King
        return greedy(view)

    card = evaluate(clumsy, "classic", range(1, 11), executor=HERE, progress=None)
    assert card.wins == 0 and len(card.refused) == 10 and card.games == 10
    first = card.refused[0]
    assert first.answer == str(Game.deal(1).pyramid[0]) and first.moves == 2
    start = Game.deal(1)
    start.replay(first.log)
    assert first.reason == start.refusal(first.answer)
    assert "lost by a refused move" in card._repr_html_() and "refused move" in str(card)


@pytest.mark.parametrize("where", ["here", "pool"])
def test_an_exception_in_a_strategy_stops_the_run_naming_the_deal_and_move(where):
    def divides(view: PlayerView) -> Move:
        return greedy(view) if view.move_count < 6 else 1 // 0

    executor = HERE if where == "here" else None
    with pytest.raises(StrategyError) as caught:
        evaluate(divides, "classic", range(5, 25), executor=executor, progress=None)
    assert caught.value.move == 7 and "ZeroDivisionError" in str(caught.value)
    assert caught.value.deal in range(5, 25)
    if where == "here":
        assert caught.value.deal == 5
    assert not local_workers()


def test_bad_input_is_refused_before_any_work(monkeypatch):
    monkeypatch.setattr(evaluation, "spread", _no_work)
    with pytest.raises(TypeError, match="a strategy is a function"):
        evaluate("greedy", "classic", DEALS)
    with pytest.raises(ValueError, match="deal"):
        evaluate(greedy, "classic", [1, 0])
    with pytest.raises(ValueError, match="rules"):
        evaluate(greedy, "no-such-rules", DEALS)
    with pytest.raises(TypeError, match="cache"):
        evaluate(greedy, "classic", DEALS, cache=5)
    with pytest.raises(ValueError, match="at least one"):
        compare([], "classic", DEALS)


def _no_work(*args, **kwargs):
    raise AssertionError("work was sent")


def test_a_lost_winnable_deal_comes_with_its_first_slip_ready_for_the_board(greedy_here):
    lost = greedy_here.lost_winnable[0]
    assert lost.played.verdict == "winnable" and not lost.played.won
    game = lost.game()
    assert game.log == list(lost.played.log) and not game.is_won
    review = lost.review()
    assert review.mistake == lost.slip and review.start == "winnable"
    before = lost.before_slip()
    assert len(before.log) == lost.slip - 1 and solve(before).status == "winnable"
    before.redo()
    assert solve(before).status == "unwinnable"  # the slip itself loses the win
    assert lost.code == f"classic#{lost.deal}"
    assert lost.slip_text in greedy_here._repr_html_()
    rows = greedy_here.to_rows()
    assert [row["deal"] for row in rows] == list(DEALS)
    assert sum(row["won"] for row in rows) == greedy_here.wins


def test_progress_counts_the_games_as_winnability_counts_deals():
    seen = []
    evaluate(greedy, "classic", range(1, 6), executor=HERE, progress=lambda *a: seen.append(a))
    assert [done for done, *_ in seen] == [1, 2, 3, 4, 5] and {t for _, t, _, _ in seen} == {5}


def test_an_interrupt_keeps_the_games_played_and_names_the_deals_not_tried():
    def progress(done, total, rate, eta):
        if done == 3:
            raise KeyboardInterrupt  # as Ctrl+C or a kernel's stop button would, mid-run

    card = evaluate(greedy, "classic", range(1, 11), executor=HERE, progress=progress)
    played = [game.deal for game in card.games_played]  # every game finished by then counts
    assert card.interrupted and played == list(range(1, len(played) + 1)) and len(played) >= 3
    assert list(card.not_tried) == list(range(len(played) + 1, 11))
    assert f"interrupted: {10 - len(played)} deals not played" in str(card)


def test_compare_puts_players_side_by_side_with_the_bound(greedy_here):
    table = compare(
        {"greedy": greedy, "random": random_player, "again": greedy},
        "classic",
        DEALS,
        executor=HERE,
        progress=None,
    )
    rows = table.to_rows()
    assert [row["player"] for row in rows] == ["greedy", "random", "again"]
    assert table["greedy"].games_played == greedy_here.games_played
    assert rows[0]["wins"] == greedy_here.wins and rows[0]["winnable"] == greedy_here.winnable
    assert table.bound == greedy_here.winnable / 30
    assert "<table" in table._repr_html_() and "greedy" in str(table)
    figure = table.chart()
    left, right = figure.axes
    assert [bar.get_width() for bar in left.patches][-1] == pytest.approx(100 * rows[0]["win_rate"])
    (bound,) = [line for line in left.lines if line.get_label() == "solver's bound"]
    assert bound.get_xdata()[0] == pytest.approx(100 * table.bound)
    (full,) = [line for line in right.lines if line.get_label() == "solver's bound"]
    assert full.get_xdata()[0] == 100


# ---------------------------------------------------------------------------- the verdicts file
def _cache(tmp_path: Path) -> Path:
    return tmp_path / "verdicts.sqlite3"


def test_a_second_run_solves_nothing_and_a_damaged_row_is_solved_again(tmp_path, monkeypatch):
    solved = []
    real = evaluation._solve
    monkeypatch.setattr(evaluation, "_solve", lambda game: solved.append(1) or real(game))
    path = _cache(tmp_path)
    first = evaluate(greedy, "classic", range(1, 11), executor=HERE, progress=None, cache=path)
    assert len(solved) == 10
    second = evaluate(greedy, "classic", range(1, 11), executor=HERE, progress=None, cache=path)
    assert len(solved) == 10 and second == first

    with sqlite3.connect(path) as conn:  # one row says the opposite, one loses its line
        conn.execute("UPDATE verdicts SET status = 'unwinnable', line = '' WHERE deal = '1'")
        conn.execute("UPDATE verdicts SET line = 'draw draw' WHERE deal = '2'")
        conn.execute("UPDATE verdicts SET checksum = 'x' WHERE deal = '3'")
    third = evaluate(greedy, "classic", range(1, 11), executor=HERE, progress=None, cache=path)
    assert len(solved) == 13 and third == first
    with VerdictCache(path) as cache:
        assert len(cache.get("classic", range(1, 11))) == 10  # written sound again


def test_a_wrong_line_with_a_right_checksum_is_caught_by_the_all_seeing_player(tmp_path):
    path = _cache(tmp_path)
    first = evaluate(all_seeing, "classic", range(1, 6), executor=HERE, progress=None, cache=path)
    with VerdictCache(path) as cache:
        version = cache.version
    with sqlite3.connect(path) as conn:
        deal, line = conn.execute(
            "SELECT deal, line FROM verdicts WHERE status = 'winnable' LIMIT 1"
        ).fetchone()
        wrong = " ".join(line.split()[:-1])
        conn.execute(
            "UPDATE verdicts SET line = ?, checksum = ? WHERE deal = ?",
            (wrong, checksum(version, "classic", deal, "winnable", wrong), deal),
        )
    again = evaluate(all_seeing, "classic", range(1, 6), executor=HERE, progress=None, cache=path)
    assert again == first and again.efficiency == 1.0
    with VerdictCache(path) as cache:
        assert cache.get("classic", [int(deal)])[int(deal)][1] == tuple(line.split())


def test_another_version_of_the_package_asks_again(tmp_path):
    path = _cache(tmp_path)
    with VerdictCache(path, version="0.0.1") as old:
        old.put("classic", {1: ("unwinnable", ())})
    with VerdictCache(path) as now:
        assert now.get("classic", [1]) == {}
    with VerdictCache(path, version="0.0.1") as old:
        assert old.get("classic", [1]) == {1: ("unwinnable", ())}


def test_a_damaged_file_leaves_the_run_uncached_with_a_warning(tmp_path):
    path = _cache(tmp_path)
    path.write_bytes(b"this is not a database" * 100)
    with pytest.warns(RuntimeWarning, match="verdicts file"):
        card = evaluate(greedy, "classic", range(1, 4), executor=HERE, progress=None, cache=path)
    assert card.games == 3


WRITER = """
import sys
from pyramid_widget.lab.verdicts import VerdictCache
path, first = sys.argv[1], int(sys.argv[2])
for start in range(first, first + 400, 20):
    with VerdictCache(path) as cache:
        cache.put("classic", {n: ("winnable", ("draw", "Kc")) for n in range(start, start + 20)})
"""


def test_two_processes_writing_at_once_leave_every_row_sound(tmp_path):
    path = _cache(tmp_path)
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(first)])
        for first in (1, 401)
    ]
    assert [writer.wait(timeout=120) for writer in writers] == [0, 0]
    with VerdictCache(path) as cache:
        assert len(cache.get("classic", range(1, 801))) == 800
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
