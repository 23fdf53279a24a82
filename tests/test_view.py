"""The view state: what every view draws, and the promise that no unseen card is in it."""

from __future__ import annotations

import json
import random

import pytest
from helpers import LAYOUT, SOLUTION, cards_named

from pyramid_widget import Game, IllegalMove, Move, words
from pyramid_widget.view import Extras, MoveEvent, ViewOptions, build_state


def state_of(game: Game, **kwargs) -> dict:
    return build_state(game, version=1, **kwargs)


def test_a_fresh_deal_shows_the_pyramid_with_its_bottom_row_in_play():
    game = Game.from_layout(LAYOUT, "classic")
    state = state_of(game)
    assert [slot["card"] for slot in state["pyramid"]] == LAYOUT.split()[:28]
    statuses = [slot["status"] for slot in state["pyramid"]]
    assert statuses == ["covered"] * 21 + ["in_play"] * 7
    assert state["stock"] == {"count": 24, "top": None, "label": "Stock: 24 cards face down; draw"}
    assert state["waste"] == {
        "count": 0, "top": None, "fan": [], "label": "Waste: empty", "top_label": None
    }  # fmt: skip
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
        "items": ["Cleared 0 of 28", "Pass 1 of 3", "Stock 24", "Moves 0"],
    }
    assert state["pyramid"][0]["label"] == "Ten of Hearts, covered"
    assert state["pyramid"][21]["label"] == "King of Clubs, in play"
    assert state["narration"] is None  # a board just made says nothing
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
    assert slots[21] == {"card": "Kc", "status": "removed", "label": None}
    assert slots[24] == {"card": "Kh", "status": "removed", "label": None}
    assert slots[25] == {"card": "As", "status": "removed", "label": None}
    in_play = {"card": "6s", "status": "in_play", "label": "Six of Spades, in play"}
    assert slots[18] == in_play  # Kh and As lay on it
    assert slots[19]["status"] == "covered"  # the 3h still lies on it


def test_the_open_stock_shows_its_top_and_the_waste_a_short_fan():
    game = Game.from_layout(LAYOUT, "open-stock")
    assert state_of(game)["stock"]["top"] == "6d"
    for _ in range(4):
        game.draw()
    state = state_of(game)
    assert state["waste"] == {
        "count": 4,
        "top": "5c",
        "fan": ["Ah", "Kd", "5c"],
        "label": "Waste: 4 cards",
        "top_label": "Five of Clubs, in play, waste top",
    }
    assert state["stock"] == {
        "count": 20, "top": "4d", "label": "Stock: Four of Diamonds face up, 20 cards"
    }  # fmt: skip
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
            event = MoveEvent("undo", str(game.undo()))
        elif choice == "redo":
            event = MoveEvent("redo", str(game.redo()))
        else:
            event = MoveEvent("play", str(game.play(choice)))
        text = json.dumps(state_of(game, event=event))
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


def test_the_board_says_what_each_change_did_in_card_symbols():
    """What the board says after a change (only spoken), and after a win, when out of moves or
    at a dead end (shown until the position changes), in the player's words."""
    game = Game.from_layout(LAYOUT, "open-stock")

    def said(event: MoveEvent) -> dict | None:
        return state_of(game, event=event)["narration"]

    assert said(MoveEvent("play", str(game.play("Kc")))) == {
        "text": "Removed K♣.",
        "lasting": False,
    }
    game.play("Kh")
    game.play("7h+6d")
    assert said(MoveEvent("play", str(game.play("draw"))))["text"] == "Turned A♥."
    assert said(MoveEvent("undo", str(game.undo())))["text"] == "Took back a draw."
    assert said(MoveEvent("undo", str(game.undo())))["text"] == "Took back 6♦ + 7♥."
    assert said(MoveEvent("redo", str(game.redo())))["text"] == "Removed 6♦ + 7♥."
    events = {"new": "New deal.", "restart": "Deal restarted.", "refresh": None}
    for action, text in events.items():
        assert (said(MoveEvent(action)) or {}).get("text") == text
    assert said(MoveEvent("continue"))["text"] == "Saved game continued at move 3."
    assert said(MoveEvent("step"))["text"] == "The game after move 3."
    for move in SOLUTION[3:]:
        game.play(move)
    won = {"text": f"Pyramid cleared in {len(SOLUTION)} moves!", "lasting": True}
    assert said(MoveEvent("play", SOLUTION[-1])) == won
    assert words.won_in(1) == "Pyramid cleared in 1 move!"


def test_out_of_moves_and_a_dead_end_are_said_and_stay():
    stuck = Game.from_layout(LAYOUT, "classic,passes=1")
    while stuck.outcome is None:
        stuck.play(stuck.legal_moves()[0])
    assert state_of(stuck)["narration"] == {
        "text": "Out of moves: undo, restart or deal again.",
        "lasting": True,
    }
    # The 5♥ lies on the only Eight left: a draw is left, but the pyramid can never change.
    dead = Game.from_position({0: "8c", 1: "5h"}, stock=["Jd"], waste=["2d"])
    assert dead.is_dead_end and dead.legal_moves() == [Move.parse("draw")]
    assert state_of(dead)["narration"] is None  # the early notice is an option
    shown = state_of(dead, options=ViewOptions(dead_end_notice=True))["narration"]
    assert shown == {"text": "Dead end: no card the stock can still bring would ever fit.",
                     "lasting": True}  # fmt: skip


def test_a_notice_is_read_out_as_sentences():
    game = Game.from_position({0: "Kh"})
    game.play("Kh")
    notice = state_of(game, extras=Extras(elapsed=187))["notice"]
    assert notice["title"] == "Pyramid cleared!" and notice["lines"][0] == "Time 3:07"
    moves = game.move_count
    assert notice["spoken"] == f"Pyramid cleared! Time 3:07. Moves {moves}. Cards cleared 28 of 28."


def test_the_status_line_names_the_deal_and_an_unproven_one():
    game = Game.deal(42, "scored")
    extras = Extras(deal_chosen=True, proven=False)
    assert state_of(game, extras=extras)["status"]["items"] == [
        "Cleared 0 of 28", "Pass 1 of 3", "Stock 24", "Moves 0", "Score 0", "Deal #42",
        "Unproven deal",
    ]  # fmt: skip
    unlimited = Game.deal(42, "classic,passes=unlimited")
    assert state_of(unlimited)["status"]["items"][1] == "Pass 1"
