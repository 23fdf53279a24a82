"""The view state: what every view draws, and the promise that no unseen card is in it."""

from __future__ import annotations

import json
import random

import pytest
from helpers import LAYOUT, SOLUTION, cards_named

from pyramid_widget import Game, IllegalMove
from pyramid_widget.view import Extras, MoveEvent, ViewOptions, build_state


def state_of(game: Game, **kwargs) -> dict:
    return build_state(game, version=1, **kwargs)


def test_a_fresh_deal_shows_the_pyramid_with_its_bottom_row_in_play():
    game = Game.from_layout(LAYOUT, "classic")
    state = state_of(game)
    assert [slot["card"] for slot in state["pyramid"]] == LAYOUT.split()[:28]
    statuses = [slot["status"] for slot in state["pyramid"]]
    assert statuses == ["covered"] * 21 + ["in_play"] * 7
    assert state["stock"] == {"count": 24, "top": None}
    assert state["waste"] == {"count": 0, "top": None, "fan": []}
    assert state["playable"] == LAYOUT.split()[21:28]
    assert state["legal"] == ["Kc", "Kh", "draw"]
    assert state["status"] == {
        "cleared": 0,
        "moves": 0,
        "pass": 1,
        "passes": 3,
        "passes_left": 2,
        "score": None,
        "can_undo": False,
        "can_redo": False,
        "recycle_refusal": "recycling unlocks once the stock is empty",
        "outcome": None,
        "dead_end": False,
    }
    assert state["clock"] == {"elapsed": 0.0, "running": False, "paused": False}
    assert state["hint"] is None and state["finding_deal"] is False
    assert state["next_rules"] == {k: v for k, v in state["rules"].items() if k != "explained"}
    assert [section["title"] for section in state["rules"]["explained"]] == [
        "Pairs",
        "In play",
        "Passes",
        "The win",
        "Out of moves",
        "Controls",
    ]
    assert state["rules"]["name"] == "classic" and state["rules"]["stock_in_play"] is False
    assert json.loads(json.dumps(state)) == state


def test_removed_cards_are_marked_and_uncovered_cards_come_into_play():
    game = Game.from_layout(LAYOUT, "open-stock")
    for move in SOLUTION[:8]:  # Kc Kh 7h+6d draw Kd draw draw As+Qd
        game.play(move)
    slots = state_of(game)["pyramid"]
    assert slots[21] == {"card": "Kc", "status": "removed"}
    assert slots[24] == {"card": "Kh", "status": "removed"}
    assert slots[25] == {"card": "As", "status": "removed"}
    assert slots[18] == {"card": "6s", "status": "in_play"}  # Kh and As lay on it
    assert slots[19] == {"card": "8s", "status": "covered"}  # the 3h still lies on it


def test_the_open_stock_shows_its_top_and_the_waste_a_short_fan():
    game = Game.from_layout(LAYOUT, "open-stock")
    assert state_of(game)["stock"] == {"count": 24, "top": "6d"}
    for _ in range(4):
        game.draw()
    state = state_of(game)
    assert state["waste"] == {"count": 4, "top": "5c", "fan": ["Ah", "Kd", "5c"]}
    assert state["stock"] == {"count": 20, "top": "4d"}
    assert state["playable"][-2:] == ["5c", "4d"]  # waste top, then stock top
    assert state_of(game, options=ViewOptions(waste_fan=1))["waste"]["fan"] == ["5c"]


@pytest.mark.parametrize("rules", ["classic", "one-recycle", "scored", "classic,passes=1"])
def test_no_unseen_card_ever_reaches_the_view(rules):
    """With a face-down stock the state names only cards the player has seen, however the
    game goes: draws, recycles, removals, undos and redos in a random order."""
    rng = random.Random(f"hidden-{rules}")
    game = Game.from_layout(LAYOUT, rules)
    unseen_checked = 0
    for _ in range(400):
        choices = [str(move) for move in game.legal_moves()]
        choices += ["undo"] * 3 * game.can_undo + ["redo"] * game.can_redo
        if not choices:
            break
        choice = rng.choice(choices)
        if choice == "undo":
            game.undo()
        elif choice == "redo":
            game.redo()
        else:
            game.play(choice)
        text = json.dumps(state_of(game, event=MoveEvent("play", choice)))
        assert cards_named(text) <= game.seen
        unseen_checked += len(set(game.stock) - game.seen)
    # The check had something to catch: unseen cards were in the stock along the way.
    assert unseen_checked > 0


def test_a_layout_deal_keeps_its_code_back_until_the_game_is_won():
    """A layout's deal code spells out the whole deck, unseen stock included."""
    game = Game.from_layout(LAYOUT, "open-stock")
    assert state_of(game)["deal"] == {"code": None, "number": None, "proven": None}
    for move in SOLUTION:
        game.play(move)
    state = state_of(game)
    assert state["status"]["outcome"] == "won" and state["status"]["cleared"] == 28
    assert state["deal"]["code"] == game.deal_code
    assert state["legal"] == []


def test_a_numbered_deal_is_named_by_its_number_once_chosen_or_over():
    game = Game.deal(42, "one-recycle")
    chosen = Extras(deal_chosen=True)
    named = {"code": "one-recycle#42", "number": 42, "proven": None}
    assert state_of(game, extras=chosen)["deal"] == named
    # A deal the player did not choose (a random one) stays anonymous while cards are unseen:
    # its number would rebuild the whole stock.
    assert state_of(game)["deal"] == {"code": None, "number": None, "proven": None}
    while game.stock_count:
        game.draw()
    assert state_of(game)["deal"] == named  # every card seen: nothing left to hide


def test_score_is_shown_only_when_the_rules_score():
    scored = Game.from_layout(LAYOUT, "scored")
    scored.play("Kc")
    assert state_of(scored)["status"]["score"] == 5
    plain = Game.from_layout(LAYOUT, "classic")
    plain.play("Kc")
    assert state_of(plain)["status"]["score"] is None


def test_a_stuck_game_says_so_and_still_offers_undo():
    # The same layout is unwinnable with one pass (one-pass.jsonl index 0).
    game = Game.from_layout(LAYOUT, "classic,passes=1")
    while game.outcome is None:
        game.play(game.legal_moves()[0])
    status = state_of(game)["status"]
    assert status["outcome"] == "stuck" and status["can_undo"] is True
    assert status["recycle_refusal"] == "no recycles left"


def test_versions_events_and_options_travel_with_the_state():
    game = Game.from_layout(LAYOUT, "classic")
    state = build_state(
        game,
        version=7,
        position_version=5,
        options=ViewOptions(highlight_partners=False, auto_pair=True),
        event=MoveEvent("undo", "Kc"),
    )
    assert (state["version"], state["position_version"]) == (7, 5)
    assert state["event"] == {"action": "undo", "move": "Kc"}
    assert state["options"] == {
        "highlight_partners": False,
        "auto_pair": True,
        "fair_hints": True,
        "dead_end_notice": False,
        "winnable_only": False,
        "waste_fan": 3,
    }
    assert build_state(game, version=3)["position_version"] == 3
    assert build_state(game, version=3)["event"] == {"action": "start", "move": None}


def test_move_events_read_as_their_move():
    assert str(MoveEvent("play", "5h+8c")) == "5h+8c"
    assert str(MoveEvent("undo", "draw")) == "undo draw"
    assert str(MoveEvent("new")) == "new"


@pytest.mark.parametrize("fan", [0, 4, -1])
def test_a_waste_fan_outside_one_to_three_is_refused(fan):
    with pytest.raises(ValueError, match="waste_fan"):
        ViewOptions(waste_fan=fan)


def test_the_view_does_not_change_the_game():
    game = Game.from_layout(LAYOUT, "classic")
    game.play("Kc")
    before = (game.code, game.log, game.can_redo)
    state_of(game)
    assert (game.code, game.log, game.can_redo) == before
    with pytest.raises(IllegalMove):
        game.play("Th+3d")
