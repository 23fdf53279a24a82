"""JSON saves and position codes: round trips, and refusal of anything damaged or tampered."""

from __future__ import annotations

import json

import pytest

from pyramid_widget import Game, Rules


def played(number=8, rules="open-stock", moves=30) -> Game:
    game = Game.deal(number, rules)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(legal[0])
    game.undo()
    game.undo()
    return game


def same(a: Game, b: Game) -> bool:
    return (a.code, a.log, a.redo_moves, a.seen, a.rules, a.layout, a.deal_number) == (
        b.code, b.log, b.redo_moves, b.seen, b.rules, b.layout, b.deal_number
    )  # fmt: skip


def test_json_round_trip_keeps_history_redo_and_seen():
    game = played()
    back = Game.from_json(game.to_json())
    assert same(game, back)
    assert back.undo() == game.undo()  # undo history survives the save
    assert back.redo() == game.redo()


def test_json_carries_rules_layout_and_a_schema_version():
    data = json.loads(played(rules="scored").to_json())
    assert data["version"] == 1 and data["rules"]["scoring"] is True
    assert data["format"] == "pyramid-widget-save"


@pytest.mark.parametrize(
    "damage,message",
    [
        (lambda t: t[: len(t) // 2], "damaged or truncated"),
        (lambda t: "[]", "not a pyramid-widget save"),
        (lambda t: t.replace('"version": 1', '"version": 2'), "newer pyramid-widget"),
        (lambda t: t.replace('"version": 1', '"version": "1"'), "schema version"),
    ],
)
def test_damaged_saves_are_refused(damage, message):
    with pytest.raises(ValueError, match=message):
        Game.from_json(damage(played().to_json()))


def test_a_tampered_move_list_is_refused():
    data = json.loads(played().to_json())
    data["moves"][3] = "Kd"  # not in play at that point
    with pytest.raises(ValueError, match="damaged: move 4"):
        Game.from_json(json.dumps(data))


def test_a_tampered_position_is_refused():
    data = json.loads(played().to_json())
    data["moves"], data["redo"] = data["moves"][:-1], []  # the position no longer follows
    with pytest.raises(ValueError, match="position is not where its moves lead"):
        Game.from_json(json.dumps(data))


def test_a_tampered_redo_list_is_refused():
    data = json.loads(played().to_json())
    data["redo"] = ["recycle"]
    with pytest.raises(ValueError, match="redo move 1"):
        Game.from_json(json.dumps(data))


def test_a_save_with_the_wrong_deal_number_is_refused():
    data = json.loads(played().to_json())
    data["deal_number"] = 9
    with pytest.raises(ValueError, match="not that deal number"):
        Game.from_json(json.dumps(data))


def test_position_code_round_trips_mid_game():
    game = played(rules=Rules(passes=None, scoring=True), moves=60)
    again = Game.from_code(game.code)
    assert again.code == game.code and again.position == game.position
    assert again.seen == game.seen and again.legal_moves() == game.legal_moves()


def test_deal_code_of_a_numbered_deal():
    game = Game.deal(77, "one-recycle")
    assert game.deal_code == "one-recycle#77"
    assert Game.from_code("one-recycle#77").layout == game.layout
    assert Game.from_layout(game.layout).deal_code.startswith("pw1:classic:")


@pytest.mark.parametrize(
    "code,message",
    [
        ("", "empty"),
        ("classic#x", "unknown deal code"),
        ("classic#0", "deal"),
        ("chess#5", "unknown rules"),
        ("pw1:classic:abc", "10 fields"),
        ("hello", "unknown game code"),
    ],
)
def test_bad_codes_are_refused(code, message):
    with pytest.raises(ValueError, match=message):
        Game.from_code(code)


def tamper(code: str, field: int, value: str) -> str:
    parts = code.split(":")
    parts[field] = value
    return ":".join(parts)


@pytest.mark.parametrize(
    "field,value,message",
    [
        (3, "0000001", "before the cards on it"),  # the apex gone with the pyramid whole
        (4, "fffffe", "pairs of 13"),  # one stock card gone on its own
        (5, "30", "waste larger"),
        (6, "9", "pass number"),
        (8, "50", "score"),
        (2, "Ac" * 52, "duplicate"),
    ],
)
def test_impossible_positions_are_refused(field, value, message):
    code = Game.deal(3).code
    with pytest.raises(ValueError, match=message):
        Game.from_code(tamper(code, field, value))


def test_from_position_builds_a_lesson_position_with_only_the_given_cards():
    game = Game.from_position({0: "5h", 1: "Kd", 2: "6c"}, stock=["7d", "Jd", "2c"], waste=["8c"])
    assert game.cleared == 25 and game.waste_top.name == "Eight of Clubs"
    assert [str(c) for c in game.stock] == ["7d", "Jd", "2c"] and game.stock[0] not in game.seen
    assert [str(m) for m in game.legal_moves()] == ["Kd", "draw"]
    for move in ["Kd", "draw", "6c+7d", "5h+8c"]:
        game.play(move)
    assert game.is_won


def test_from_position_refuses_a_position_no_game_could_reach():
    with pytest.raises(ValueError, match="before the cards on it"):
        Game.from_position({26: "5h", 27: "Kd"})  # card 20 gone while 26 and 27 still lie on it
    with pytest.raises(ValueError, match="pairs of 13"):
        Game.from_position({0: "5h"}, stock=["9c"])  # three 5s but four 8s paired away
