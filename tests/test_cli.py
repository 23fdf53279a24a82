"""The command line: what it prints, and a one-line error with status 2 for bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pyramid_widget import Game
from pyramid_widget.__main__ import main

LAYOUT = Game.deal(1, "open-stock").layout


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pyramid_widget", *args], capture_output=True, text=True, timeout=120
    )


def test_solve_prints_the_status_and_a_line_that_replays():
    done = run("solve", "--layout", LAYOUT, "--rules", "open-stock", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["status"] == "winnable" and answer["rules"] == "open-stock"
    game = Game.from_layout(LAYOUT, "open-stock")
    for move in answer["moves"]:
        game.play(move)
    assert game.is_won


def test_solve_in_words_with_the_shortest_win(capsys):
    assert main(["solve", "--deal", "1", "--rules", "open-stock", "--optimal"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("winnable (open-stock)") and "shortest win in" in out


def test_solve_accepts_rules_with_overrides(capsys):
    assert main(["solve", "--deal", "3", "--rules", "classic,passes=1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"] == "classic,passes=1"


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "--layout", "Ac 2c 3c", "--rules", "classic"],
        ["solve", "--layout", LAYOUT.replace("Kc", "Kx"), "--rules", "classic"],
        ["solve", "--layout", LAYOUT, "--rules", "no-such-rules"],
        ["solve", "--layout", LAYOUT, "--rules", "classic,passes=zero"],
        ["solve", "--deal", "0"],
        ["stats", "--deals", "9-3"],
        ["stats", "--deals", "a-b"],
        ["stats", "--deals", "1-5", "--jobs", "0"],
        ["stats", "--deals", "1-5", "--rules", "nope"],
        ["solve"],
        [],
    ],
)
def test_bad_input_gets_one_line_on_stderr_and_status_2(args, capsys):
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("error: ") and captured.err.count("\n") == 1


def test_stats_counts_verdicts_over_a_range_of_deals():
    done = run("stats", "--rules", "classic", "--deals", "1-12", "--jobs", "2", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["deals"] == 12 and answer["winnable"] + answer["unwinnable"] == 12
    assert 0 <= answer["low"] <= answer["rate"] <= answer["high"] <= 1


def test_a_single_deal_is_a_range_of_one_and_deal_zero_is_refused():
    done = run("stats", "--deals", "5", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["deals"] == 1
    bad = run("stats", "--deals", "0-3")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
