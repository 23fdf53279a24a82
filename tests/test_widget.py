"""PyramidWidget without a browser: the messages a front end sends, the acks it gets back,
and the Python API a notebook cell uses. Every view draws `state`, so checking `state` and the
acks is checking what every view shows."""

from __future__ import annotations

import copy
import json
import random
import re

import pytest
from helpers import LAYOUT, Front, cards_named, wait_for

from pyramid_widget import Card, Game, IllegalMove, Rules, build_layout
from pyramid_widget.view import MoveEvent
from pyramid_widget.widget import PyramidWidget
from pyramid_widget.words import STOCK_RAN_OUT, STOCK_TURNED_OVER, pile_changed


@pytest.fixture
def widget() -> PyramidWidget:
    return PyramidWidget(rules="open-stock", layout=LAYOUT)


@pytest.fixture
def front(widget: PyramidWidget) -> Front:
    return Front(widget, "v1")


def status(widget: PyramidWidget, index: int) -> str:
    return widget.state["pyramid"][index]["status"]


# ------------------------------------------------------------------ moves from a view
def test_a_king_goes_with_one_tap(widget, front):
    ack = front.intent("tap", target="Kc")
    assert ack == {
        "type": "ack",
        "seq": 1,
        "view": "v1",
        "ok": True,
        "reason": None,
        "said": None,
        "move": "Kc",
    }
    assert widget.moves == ["Kc"] and status(widget, 21) == "removed"
    assert widget.state["status"]["moves"] == 1 and widget.state["status"]["can_undo"]


def test_a_pair_goes_and_the_log_and_every_view_follow(widget, front):
    front.intent("tap", target="Kc")
    front.intent("tap", target="Kh")
    ack = front.intent("pair", cards=["6d", "7h"])  # stock top with a pyramid card
    assert ack["ok"] and ack["move"] == "6d+7h"  # canonical: the lower card first
    assert widget.moves == ["Kc", "Kh", "6d+7h"]
    assert status(widget, 27) == "removed" and widget.state["stock"]["top"] == "Ah"
    assert widget.state["event"] == {"action": "play", "move": "6d+7h"}


def test_a_refused_pair_says_why_and_changes_nothing(widget, front):
    before = copy.deepcopy(widget.state)
    ack = front.intent("pair", cards=["Jh", "3c"])
    assert not ack["ok"] and ack["reason"] == "3♣ and J♥ make 14, not 13"
    assert ack["said"] == "3♣ and J♥ make 14, not 13."
    assert ack["move"] is None
    assert widget.state == before and widget.moves == []


@pytest.mark.parametrize(
    ("action", "fields", "reason"),
    [
        ("tap", {"target": "Th"}, "that card is still covered"),
        ("tap", {"target": "Jh", "selected": "3c"}, "3♣ and J♥ make 14, not 13"),
        ("tap", {"target": "waste", "face": "empty"}, "the waste is empty"),
        ("tap", {"target": "Qd"}, "that card is not in play"),  # unseen, deep in the stock
        ("pair", {"cards": ["Th", "3h"]}, "that card is still covered"),
        ("pair", {"cards": ["Kc", "Ah"]}, "a King is removed alone"),
        ("recycle", {}, "recycling unlocks once the stock is empty"),
        ("undo", {}, "nothing to undo"),
        ("redo", {}, "nothing to redo"),
    ],
)
def test_the_engine_refusal_is_passed_on_word_for_word(widget, front, action, fields, reason):
    before = copy.deepcopy(widget.state)
    ack = front.intent(action, **fields)
    assert (ack["ok"], ack["reason"]) == (False, reason)
    assert widget.state == before


def test_a_lone_tap_on_a_card_in_play_selects_it_and_python_says_so(widget, front):
    assert "Jh" in widget.state["selectable"] and "Kc" not in widget.state["selectable"]
    ack = front.intent("tap", target="Jh")
    assert (ack["ok"], ack["move"], ack["select"]) == (True, None, "Jh")
    assert widget.moves == []


def test_a_tap_on_the_stock_is_decided_in_python(widget, front):
    assert widget.state["stock"]["top"] == "6d"
    ack = front.intent("tap", target="stock", selected="7h", face="6d")  # pairs with the top
    assert ack["move"] == "6d+7h"
    face = widget.game.pile_face("stock")
    assert front.intent("tap", target="stock", face=face)["move"] == "draw"  # nothing selected


def test_draw_recycle_undo_and_redo_by_message():
    widget = PyramidWidget(rules="classic,passes=2", layout=LAYOUT)
    front = Front(widget)
    for _ in range(24):
        assert front.intent("draw")["move"] == "draw"
    assert front.intent("draw")["reason"] == "no cards left to turn"
    assert front.intent("recycle")["ok"]
    assert widget.state["status"]["pass"] == 2 and widget.state["stock"]["count"] == 24
    assert front.intent("undo")["move"] == "recycle"
    assert widget.state["status"]["pass"] == 1 and widget.state["waste"]["count"] == 24
    assert front.intent("redo")["move"] == "recycle"
    assert widget.moves == ["draw"] * 24 + ["recycle"]


def test_new_deal_and_restart_by_message(widget, front):
    front.intent("tap", target="Kc")
    assert front.intent("restart", give_up=True)["ok"]
    assert widget.moves == [] and widget.game.layout == Game.from_layout(LAYOUT).layout
    assert widget.state["event"]["action"] == "restart"
    assert front.intent("new", number=7)["ok"]
    assert widget.game.deal_number == 7 and widget.game.rules == Rules.preset("open-stock")
    assert widget.state["deal"] == {"code": "open-stock#7", "number": 7, "proven": None}
    assert front.intent("new")["ok"]
    assert widget.game.deal_number is not None


def test_auto_pair_takes_the_first_partner_from_the_top_then_the_waste():
    bottom = {21: "5h", 22: "Ac", 23: "2c", 24: "8c", 25: "3c", 26: "4c", 27: "8s"}
    widget = PyramidWidget(layout=build_layout(bottom, stock=["8d"]), auto_pair=True)
    front = Front(widget)
    assert widget.state["options"]["auto_pair"] is True
    front.intent("draw")
    assert front.intent("tap", target="5h")["move"] == "5h+8c"  # the pyramid's first 8
    front.intent("undo")
    assert front.intent("tap", target="8d")["move"] == "5h+8d"  # the waste top's partner
    front.intent("undo")
    ack = front.intent("tap", target="Ac")
    assert ack["reason"] == "nothing in play makes 13 with that card"
    assert front.intent("tap", target="Th")["reason"] == "that card is not in play"
    assert widget.moves == ["draw"]


# ------------------------------------------------------------------ stale and malformed
def test_six_quick_taps_on_the_stock_draw_six_cards():
    """Six taps sent before any new state arrived: each saw a stock to draw from, so each
    draws, as every card game draws once per click."""
    widget = PyramidWidget("classic", deal=7, store=None)
    front = Front(widget)
    seen = widget.state["version"]
    acks = [front.intent("tap", version=seen, target="stock", face="back") for _ in range(6)]
    assert [ack["move"] for ack in acks] == ["draw"] * 6 and widget.moves == ["draw"] * 6


def test_a_stock_tap_whose_meaning_changed_is_refused_with_the_reason(widget, front):
    old = widget.state["version"]
    widget.play("6d+7h")  # a notebook cell plays meanwhile: the stock's top is another card
    before = copy.deepcopy(widget.state)
    ack = front.intent("tap", version=old, target="stock", selected="Jh", face="6d")
    assert (ack["ok"], ack["reason"]) == (False, pile_changed("stock"))
    assert widget.state == before and widget.moves == ["6d+7h"]


def test_a_draw_on_a_stock_that_ran_out_meanwhile_is_not_taken_for_a_recycle():
    widget = PyramidWidget("classic", deal=7, store=None)
    front = Front(widget)
    while widget.game.stock_count:
        widget.draw()
    wait_for(lambda: not widget.session.board.judging)  # every card seen: the deal is judged
    before = copy.deepcopy(widget.state)
    ack = front.intent("tap", target="stock", face="back")  # sent before the last draw showed
    assert (ack["ok"], ack["reason"]) == (False, STOCK_RAN_OUT)
    assert widget.state == before
    assert front.intent("tap", target="stock", face="empty")["move"] == "recycle"
    ack = front.intent("tap", target="stock", face="empty")  # a second tap on the empty stock
    assert (ack["ok"], ack["reason"]) == (False, STOCK_TURNED_OVER)


def test_taps_on_named_cards_stand_on_a_newer_board(widget, front):
    """Two Kings tapped quickly: the second tap was made on the board before the first."""
    old = widget.state["version"]
    assert front.intent("tap", version=old, target="Kc")["ok"]
    assert front.intent("tap", version=old, target="Kh")["ok"]
    assert front.intent("pair", version=old, cards=["7h", "6d"])["ok"]
    assert widget.moves == ["Kc", "Kh", "6d+7h"]


def test_an_option_change_does_not_make_a_board_stale(widget, front):
    seen_version = widget.state["version"]
    widget.highlight_partners = False  # a new state, same position
    assert widget.state["version"] == seen_version + 1
    assert widget.state["options"]["highlight_partners"] is False
    assert front.intent("pair", version=seen_version, cards=["7h", "6d"])["ok"]


def test_draws_need_no_version_so_a_double_tap_draws_twice(widget, front):
    old = widget.state["version"]
    assert front.intent("draw", version=old)["ok"]
    assert front.intent("draw", version=old)["ok"]
    assert widget.moves == ["draw", "draw"]


def test_a_version_from_the_future_is_refused(widget, front):
    ack = front.intent("tap", version=widget.state["version"] + 5, target="Kc")
    assert not ack["ok"] and "newer" in ack["reason"]


MALFORMED = [
    ("not a dict", "a message must be an object"),
    (["intent"], "a message must be an object"),
    ({"type": "hello", "seq": 1}, "unknown message type"),
    ({"type": "intent", "action": "draw"}, "sequence number"),
    ({"type": "intent", "seq": "1", "action": "draw"}, "sequence number"),
    ({"type": "intent", "seq": True, "action": "draw"}, "sequence number"),
    ({"type": "intent", "seq": -1, "action": "draw"}, "sequence number"),
    ({"type": "intent", "seq": 1, "action": "shuffle"}, "unknown action 'shuffle'"),
    ({"type": "intent", "seq": 1}, "unknown action None"),
    ({"type": "intent", "seq": 1, "action": "tap", "target": "Kc"}, "needs the 'version'"),
    ({"type": "intent", "seq": 1, "action": "tap", "version": 1}, "a card must be written"),
    ({"type": "intent", "seq": 1, "action": "tap", "version": 1, "target": "Zz"}, "unknown card"),
    ({"type": "intent", "seq": 1, "action": "tap", "version": 1, "target": 5}, "a card must be"),
    ({"type": "intent", "seq": 1, "action": "pair", "version": 1, "cards": "Kc"}, "two cards"),
    ({"type": "intent", "seq": 1, "action": "pair", "version": 1, "cards": ["7h"]}, "two cards"),
    (
        {"type": "intent", "seq": 1, "action": "pair", "version": 1, "cards": ["7h", "7h"]},
        "two different cards",
    ),
    ({"type": "intent", "seq": 1, "action": "draw", "version": "3"}, "'version' must be"),
    ({"type": "intent", "seq": 1, "action": "draw", "view": 3}, "'view' must be text"),
    ({"type": "intent", "seq": 1, "action": "new", "number": -4}, "'number' must be"),
    ({"type": "intent", "seq": 1, "action": "new", "number": 2.5}, "'number' must be"),
    ({"type": "intent", "seq": 1, "action": "new", "number": 10**30}, "deal number"),
]


@pytest.mark.parametrize(("message", "reason"), MALFORMED)
def test_malformed_messages_get_a_reason_and_change_nothing(widget, front, message, reason):
    before = (copy.deepcopy(widget.state), widget.game.code)
    ack = front.raw(message)
    assert ack is not None and ack["type"] == "ack" and ack["ok"] is False
    assert reason in ack["reason"]
    assert (widget.state, widget.game.code) == before


def test_a_malformed_message_echoes_its_seq_and_view_when_it_has_them(widget, front):
    ack = front.raw({"type": "intent", "seq": 9, "view": "v7", "action": "fly"})
    assert (ack["seq"], ack["view"]) == (9, "v7")
    assert front.raw({"type": "intent", "seq": "x", "action": "fly"})["seq"] is None


def test_anywidget_commands_are_left_to_anywidget(widget, front):
    assert front.raw({"kind": "anywidget-command", "name": "x", "id": "1", "msg": {}}) is None


def test_an_unexpected_error_is_answered_and_never_escapes(widget, front, monkeypatch, capsys):
    def broken() -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(widget.session, "draw", broken)
    ack = front.intent("draw")
    assert not ack["ok"] and ack["reason"] == "internal error: disk on fire"
    assert "RuntimeError" in capsys.readouterr().err


def test_acks_go_to_the_view_that_asked(widget):
    first, second = Front(widget, "left"), Front(widget, "right")
    widget.send = lambda content, buffers=None: (
        first.sent.append(content),
        second.sent.append(content),
    )
    assert first.intent("tap", target="Kc")["view"] == "left"
    assert second.intent("tap", target="Kh")["view"] == "right"


# ------------------------------------------------------------------ hidden information
def test_nothing_sent_to_the_browser_names_an_unseen_card():
    """Many random taps, pairs, draws, recycles, undos and redos, as a front end would send
    them (legal or not): neither the state nor any ack ever names a card not yet seen."""
    rng = random.Random(4)
    widget = PyramidWidget(rules="classic", layout=LAYOUT)
    front = Front(widget)
    deck = [str(card) for card in Game.from_layout(LAYOUT).cards]
    unseen_moments = 0
    for _ in range(600):
        kind = rng.choice(["legal"] * 4 + ["tap", "pair", "undo", "undo", "redo", "recycle"])
        if kind == "legal":
            move = rng.choice(widget.state["legal"] or ["draw"])
            if "+" in move:
                front.intent("pair", cards=move.split("+"))
            elif move in ("draw", "recycle"):
                front.intent(move)
            else:
                front.intent("tap", target=move)
        elif kind == "tap":
            front.intent("tap", target=rng.choice(deck))
        elif kind == "pair":
            front.intent("pair", cards=rng.sample(deck, 2))
        else:
            front.intent(kind)
        sent_text = json.dumps(widget.state) + json.dumps(front.sent[-1])
        assert cards_named(sent_text) <= widget.game.seen
        unseen_moments += bool(set(widget.game.stock) - widget.game.seen)
    assert unseen_moments > 50
    assert len(widget.moves) > 10


def test_widget_state_trait_names_no_unseen_card_after_python_calls():
    widget = PyramidWidget(rules="one-recycle", layout=LAYOUT)
    for _ in range(10):
        widget.draw()
    widget.undo()
    widget.undo()
    widget.redo()
    text = json.dumps(widget.state) + json.dumps(widget.moves)
    assert cards_named(text) <= widget.game.seen
    assert re.search(r"\bQd\b", text) is None  # 11th from the stock top: never turned


# ------------------------------------------------------------------ the Python API
def test_python_calls_play_and_raise_the_engines_reason(widget):
    assert str(widget.play("Kc")) == "Kc"
    before = copy.deepcopy(widget.state)
    with pytest.raises(IllegalMove, match="3♣ and J♥ make 14, not 13"):
        widget.play("Jh+3c")
    assert widget.state == before
    widget.draw()
    assert widget.moves == ["Kc", "draw"] and widget.state["waste"]["top"] == "6d"
    assert str(widget.undo()) == "draw" and widget.moves == ["Kc"]
    assert str(widget.redo()) == "draw"
    widget.restart()
    assert widget.moves == [] and widget.state["status"]["cleared"] == 0
    with pytest.raises(IllegalMove, match="nothing to undo"):
        widget.undo()


def test_on_move_and_observe_hear_every_change_whoever_makes_it(widget, front):
    events: list[MoveEvent] = []
    logs: list[list[str]] = []
    widget.on_move(events.append)
    widget.observe(lambda change: logs.append(change["new"]), names="moves")
    front.intent("tap", target="Kc")
    widget.play("Kh")
    widget.undo()
    widget.new_deal(3)
    assert [str(event) for event in events] == ["Kc", "Kh", "undo Kh", "new"]
    assert logs == [["Kc"], ["Kc", "Kh"], ["Kc"], []]
    widget.on_move(events.append, remove=True)
    widget.play("draw")
    assert len(events) == 4


def test_a_failing_callback_is_reported_and_the_game_goes_on(widget, capsys):
    def broken(event: MoveEvent) -> None:
        raise KeyError("oops")

    widget.on_move(broken)
    widget.play("Kc")
    assert widget.moves == ["Kc"] and "KeyError" in capsys.readouterr().err


def test_every_change_bumps_the_version_once(widget):
    versions = [widget.state["version"]]
    widget.play("Kc")
    versions.append(widget.state["version"])
    widget.undo()
    versions.append(widget.state["version"])
    assert versions == [1, 2, 3]
    assert widget.state["position_version"] == 3


def test_new_deal_keeps_or_changes_the_rules(widget):
    game = widget.new_deal(11)
    assert widget.game is game and game.deal_number == 11 and game.rules.stock_in_play
    widget.new_deal(12, rules="scored")
    assert widget.state["rules"]["name"] == "scored" and widget.state["status"]["score"] == 0
    assert widget.new_deal().rules.scoring  # the rules given stay for the next deals
    with pytest.raises(ValueError, match="unknown rules"):
        widget.new_deal(rules="bridge")
    assert widget.next_rules == "scored"


def test_refresh_sends_a_position_changed_behind_the_widgets_back(widget):
    widget.game.play("Kc")
    assert widget.state["status"]["moves"] == 0
    widget.refresh()
    assert widget.state["status"]["moves"] == 1 and widget.moves == ["Kc"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"deal": 3, "layout": LAYOUT}, "at most one of deal, layout"),
        ({"deal": "3"}, "deal must be a deal number"),
        ({"rules": "nonsense"}, "unknown rules"),
        ({"layout": "Ah Ah"}, "Ah"),
        ({"game": "a game"}, "game must be a Game"),
    ],
)
def test_constructor_refuses_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        PyramidWidget(**kwargs)


def test_constructor_choices():
    assert PyramidWidget(deal=5).game.deal_number == 5
    assert PyramidWidget(rules=Rules(passes=1)).state["status"]["passes"] == 1
    game = Game.from_layout(LAYOUT, "strict")
    assert PyramidWidget(game=game).game is game
    assert PyramidWidget(layout=LAYOUT).state["pyramid"][0]["card"] == "Th"
    assert Card.parse("Th") in PyramidWidget(layout=LAYOUT).game.seen


def test_the_front_end_ships_with_the_widget():
    assert "export default" in str(PyramidWidget._esm)
    assert ".pw-root" in str(PyramidWidget._css)


@pytest.mark.parametrize(
    "written",
    [{"moves": ["Kc", "Qh+Ad"]}, {"state": {"status": {"moves": 99}}}, {"catalog": {}}],
)
def test_a_view_that_writes_pythons_traits_changes_nothing_and_gets_the_truth_back(written):
    widget = PyramidWidget("open-stock", layout=LAYOUT, store=None)
    widget.play("Kc")
    before = {name: copy.deepcopy(getattr(widget, name)) for name in ("state", "moves", "catalog")}
    sent: list[dict] = []
    widget._send = lambda msg, buffers=None: sent.append(msg)
    widget.set_state(written)  # what the comm does with a view's update
    assert {name: getattr(widget, name) for name in before} == before
    [name] = written
    updates = [msg["state"] for msg in sent if msg.get("method") == "update"]
    assert updates and updates[-1][name] == json.loads(json.dumps(before[name]))


def test_a_view_may_still_say_what_it_drew():
    widget = PyramidWidget("open-stock", layout=LAYOUT, store=None)
    widget.set_state({"drawn": 3, "moves": ["Kc"]})
    assert widget.drawn == 3 and widget.moves == []
