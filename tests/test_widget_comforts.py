"""The widget's comforts without a browser: clock and pause, hints on a worker thread, deals by
number, date or code, the rules for the next deal, options, and winnable deals."""

from __future__ import annotations

import copy
import json
import random
import threading
from dataclasses import dataclass

import pytest
from helpers import LAYOUT, SOLUTION, FakeTime, Front, cards_named, wait_for

import pyramid_widget.solver as solver
from pyramid_widget import Game, IllegalMove, deal_for_date
from pyramid_widget.view import CHECKING, PAUSED
from pyramid_widget.widget import PyramidWidget


@pytest.fixture
def ticking(monkeypatch: pytest.MonkeyPatch) -> tuple[PyramidWidget, FakeTime]:
    fake = FakeTime()
    monkeypatch.setattr(PyramidWidget, "_now", staticmethod(fake))
    widget = PyramidWidget(rules="open-stock", layout=LAYOUT)
    return widget, fake


# ------------------------------------------------------------------ clock and pause
def test_the_clock_starts_with_the_first_move_and_undo_never_rewinds_it(ticking):
    widget, fake = ticking
    fake.now += 50  # looking at the deal is free
    assert widget.elapsed == 0
    widget.play("Kc")
    fake.now += 10
    widget.undo()
    fake.now += 5
    assert widget.elapsed == 15
    assert widget.state["clock"] == {"elapsed": 10.0, "running": True, "paused": False}


def test_pause_stops_the_clock_and_blocks_moves_until_resume(ticking):
    widget, fake = ticking
    front = Front(widget)
    widget.play("Kc")
    fake.now += 3
    assert front.intent("pause")["ok"]
    fake.now += 100
    assert widget.elapsed == 3 and widget.state["clock"]["paused"] is True
    before = copy.deepcopy(widget.state)
    for action, fields in [("tap", {"target": "Kh"}), ("draw", {}), ("undo", {}), ("hint", {})]:
        assert front.intent(action, **fields)["reason"] == PAUSED
    with pytest.raises(IllegalMove, match="paused"):
        widget.play("Kh")
    assert widget.state == before
    assert front.intent("unpause")["ok"]
    fake.now += 2
    assert widget.elapsed == 5 and front.intent("tap", target="Kh")["ok"]


def test_a_hidden_view_pauses_and_showing_it_resumes_only_that_pause(ticking):
    widget, _ = ticking
    front = Front(widget)
    widget.play("Kc")
    front.intent("pause", auto=True)
    assert widget.paused
    front.intent("unpause", auto=True)
    assert not widget.paused
    front.intent("pause")  # the player's own pause
    front.intent("pause", auto=True)
    front.intent("unpause", auto=True)  # coming back to the tab does not end it
    assert widget.paused


def test_a_win_stops_the_clock_and_a_new_deal_or_restart_resets_it(ticking):
    widget, fake = ticking
    for move in SOLUTION:
        widget.play(move)
        fake.now += 1
    assert widget.game.is_won and widget.elapsed == 48  # from the first move to the last
    fake.now += 30
    assert widget.state["clock"] == {"elapsed": 48.0, "running": False, "paused": False}
    widget.restart()
    assert widget.elapsed == 0 and not widget.state["clock"]["running"]
    widget.pause()
    widget.new_deal(3)
    assert not widget.paused and widget.elapsed == 0


# ------------------------------------------------------------------ hints
@dataclass(frozen=True)
class FakeHint:
    move: str | None
    kind: str
    verdict: str
    reason: str
    chance: float | None = None


class SlowSolver:
    """A stand-in for solver.hint that waits until released, recording what it was asked."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.calls: list[tuple[str, bool]] = []

    def __call__(self, game: Game, *, fair: bool, time_limit: float) -> FakeHint:
        self.calls.append((game.code, fair))
        assert self.release.wait(10)
        move = game.legal_moves()[0]
        return FakeHint(str(move), move.kind, "winnable", f"try {move}", 0.75)


@pytest.fixture
def slow_solver(monkeypatch: pytest.MonkeyPatch) -> SlowSolver:
    fake = SlowSolver()
    monkeypatch.setattr(solver, "hint", fake, raising=False)
    return fake


def test_a_hint_thinks_off_the_main_thread_and_shows_when_it_is_ready(slow_solver):
    widget = PyramidWidget(rules="open-stock", layout=LAYOUT)
    front = Front(widget)
    assert front.intent("hint")["ok"]
    assert widget.state["hint"] == CHECKING
    assert widget.state["position_version"] == 1  # a hint is not a move: no pair goes stale
    slow_solver.release.set()
    wait_for(lambda: widget.state["hint"] != CHECKING)
    assert widget.state["hint"] == {
        "status": "done",
        "move": "Kc",
        "kind": "king",
        "verdict": "winnable",
        "reason": "try Kc",
        "detail": "",
        "chance": 0.75,
        "looks_lost": False,
    }
    assert slow_solver.calls == [(widget.game.code, True)]
    assert front.intent("dismiss")["ok"] and widget.state["hint"] is None


def test_the_board_takes_clicks_while_a_hint_thinks_and_a_stale_hint_is_dropped(slow_solver):
    widget = PyramidWidget(rules="open-stock", layout=LAYOUT)
    front = Front(widget)
    front.intent("hint")
    assert front.intent("tap", target="Kc")["ok"]  # answered while the solver still thinks
    assert widget.state["hint"] is None
    slow_solver.release.set()
    wait_for(lambda: not any(t.name == "pyramid-hint" for t in threading.enumerate()))
    assert widget.state["hint"] is None and widget.moves == ["Kc"]


def test_all_seeing_hints_on_request(slow_solver):
    widget = PyramidWidget(rules="open-stock", layout=LAYOUT)
    front = Front(widget)
    assert front.intent("option", name="fair_hints", value=False)["ok"]
    slow_solver.release.set()
    front.intent("hint")
    wait_for(lambda: widget.state["hint"] != CHECKING)
    assert slow_solver.calls[-1][1] is False


def test_hint_and_solve_from_a_cell_show_on_the_board(slow_solver):
    widget = PyramidWidget(rules="open-stock", layout=LAYOUT)
    slow_solver.release.set()
    result = widget.hint()
    assert result.move == "Kc" and widget.state["hint"]["move"] == "Kc"
    widget.play("Kc")
    assert widget.state["hint"] is None


def test_a_failing_solver_is_reported_on_the_board(monkeypatch, capsys):
    def broken(game, *, fair, time_limit):
        raise RuntimeError("out of memory")

    monkeypatch.setattr(solver, "hint", broken, raising=False)
    widget = PyramidWidget(rules="open-stock", layout=LAYOUT)
    Front(widget).intent("hint")
    wait_for(lambda: widget.state["hint"] != CHECKING)
    assert widget.state["hint"] == {"status": "failed", "reason": "No hint: out of memory."}
    assert "RuntimeError" in capsys.readouterr().err


# ------------------------------------------------------------------ deals and rules
def test_deals_by_date_and_code_and_sharing_the_current_one():
    widget = PyramidWidget(rules="classic", deal=5)
    front = Front(widget)
    assert front.intent("new", daily=True)["ok"]
    assert widget.game.layout == deal_for_date(None, "classic").layout
    shared = front.intent("share")
    assert shared["ok"] and shared["code"] == widget.game.deal_code
    widget.new_deal(9)
    assert front.intent("new", code=shared["code"])["ok"]
    assert widget.game.deal_code == shared["code"]
    played = Game.from_layout(LAYOUT, "open-stock")
    played.play("Kc")
    assert front.intent("new", code=played.code)["ok"]  # a position code: the game goes on
    assert widget.moves == [] and widget.state["status"]["cleared"] == 1
    bad = front.intent("new", code="pyramid-nonsense")
    assert not bad["ok"] and "code" in bad["reason"]
    assert widget.share() == widget.game.deal_code


def test_the_rules_menu_applies_from_the_next_deal():
    widget = PyramidWidget(rules="classic", deal=5)
    front = Front(widget)
    assert front.intent("rules", name="open-stock")["ok"]
    assert widget.game.rules.name == "classic"
    assert widget.state["next_rules"]["name"] == "open-stock"
    assert widget.state["rules"]["name"] == "classic"
    front.intent("new", number=8)
    assert widget.game.rules.name == "open-stock" and widget.game.deal_number == 8
    assert front.intent("rules", name="classic,passes=1")["ok"]
    assert widget.state["next_rules"]["passes"] == 1
    refused = front.intent("rules", name="poker")
    assert not refused["ok"] and "unknown rules" in refused["reason"]
    widget.next_rules = "scored"
    assert widget.new_deal().rules.scoring


def test_options_from_a_view(ticking):
    widget, _ = ticking
    front = Front(widget)
    assert front.intent("option", name="auto_pair", value=True)["ok"]
    assert widget.auto_pair and widget.state["options"]["auto_pair"]
    refused = front.intent("option", name="cheat", value=True)
    assert not refused["ok"] and "unknown option 'cheat'" in refused["reason"]
    assert "true or false" in front.intent("option", name="auto_pair", value="yes")["reason"]


def test_the_dead_end_notice_is_an_option():
    game = Game.from_layout(LAYOUT, "classic,passes=1")
    while game.outcome is None and not game.is_dead_end:
        game.play(game.legal_moves()[0])
    widget = PyramidWidget(game=game)
    assert widget.state["status"]["dead_end"] is False  # off by default: it uses unseen cards
    widget.dead_end_notice = True
    assert widget.state["status"]["dead_end"] is game.is_dead_end


@pytest.fixture
def release(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """The winnable-deal search answers (deal 77, proven) only once this event is set."""
    event = threading.Event()

    def fake_deal_winnable(rules, **kwargs):
        assert event.wait(10)
        return solver.WinnableDeal(Game.deal(77, rules), True, 3)

    monkeypatch.setattr(solver, "deal_winnable", fake_deal_winnable, raising=False)
    return event


def test_winnable_deals_only_are_found_off_the_main_thread(release):
    widget = PyramidWidget(rules="scored", deal=5, winnable_only=True)
    front = Front(widget)
    assert front.intent("new")["ok"]
    assert widget.state["finding_deal"] is True
    release.set()
    wait_for(lambda: not widget.state["finding_deal"])
    assert widget.game.deal_number == 77 and widget.state["deal"]["proven"] is True
    assert widget.game.rules.name == "scored"


def test_a_move_while_a_winnable_deal_is_found_keeps_the_deal_on_the_board(release):
    widget = PyramidWidget(rules="scored", deal=5, winnable_only=True)
    front = Front(widget)
    assert front.intent("new")["ok"] and widget.state["finding_deal"]
    assert front.intent("draw")["ok"]  # the player plays on: the search is called off
    assert widget.state["finding_deal"] is False
    release.set()
    wait_for(lambda: not any(t.name == "pyramid-deal" for t in threading.enumerate()))
    assert widget.game.deal_number == 5 and widget.moves == ["draw"]


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ({"action": "new", "number": 3, "daily": True}, "at most one of"),
        ({"action": "new", "code": ""}, "'code' must be non-empty text"),
        ({"action": "new", "daily": "yes"}, "'daily' must be true or false"),
        ({"action": "pause", "auto": 1}, "'auto' must be true or false"),
        ({"action": "option", "value": True}, "'name' must be non-empty text"),
        ({"action": "option", "name": "auto_pair"}, "'value' must be true or false"),
        ({"action": "rules"}, "'name' must be non-empty text"),
    ],
)
def test_malformed_comfort_messages_change_nothing(message, reason):
    widget = PyramidWidget(rules="classic", deal=5)
    front = Front(widget)
    before = (copy.deepcopy(widget.state), widget.game.code)
    ack = front.raw({"type": "intent", "seq": 1, **message})
    assert ack["ok"] is False and reason in ack["reason"]
    assert (widget.state, widget.game.code) == before


# ------------------------------------------------------------------ with the real solver
def test_a_real_hint_from_a_view_is_a_legal_move_with_words():
    widget = PyramidWidget(rules="open-stock", layout=LAYOUT)
    Front(widget).intent("hint")
    wait_for(lambda: widget.state["hint"] != CHECKING)
    shown = widget.state["hint"]
    assert shown["status"] == "done" and shown["move"] in widget.state["legal"]
    assert shown["reason"] and shown["verdict"] != "unwinnable"


def test_an_all_seeing_hint_proves_a_lost_deal_and_solve_agrees():
    # One pass on this layout is unwinnable (one-pass.jsonl index 0).
    widget = PyramidWidget(rules="classic,passes=1", layout=LAYOUT, fair_hints=False)
    assert widget.hint(time_limit=10).verdict == "unwinnable"
    assert widget.state["hint"]["verdict"] == "unwinnable"
    assert widget.solve().status == "unwinnable"
    fair = widget.hint(fair=True, time_limit=10)  # unseen cards left: never "unwinnable"
    assert fair.verdict != "unwinnable" and widget.state["hint"]["verdict"] != "unwinnable"


def test_fair_hints_on_the_board_name_no_unseen_card():
    rng = random.Random(11)
    widget = PyramidWidget(rules="classic", layout=LAYOUT)
    for _ in range(12):
        for _ in range(rng.randrange(1, 6)):
            if widget.game.outcome is None:
                widget.play(rng.choice(widget.game.legal_moves()))
        widget.hint(time_limit=0.2)
        assert widget.state["hint"]["status"] == "done"
        assert cards_named(json.dumps(widget.state)) <= widget.game.seen
