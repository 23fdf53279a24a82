"""Cards, rules names, layouts, numbered deals, move notation and the Game's outward API."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys

import pytest

from pyramid_widget import (
    DECK,
    PRESETS,
    Card,
    Game,
    IllegalMove,
    Move,
    Rules,
    build_layout,
    daily_deal_number,
    deal_for_date,
    parse_layout,
)


# ------------------------------------------------------------------ cards
@pytest.mark.parametrize("text", ["Th", "10h", "T♥", "th", " Th "])
def test_card_parse_spellings(text):
    card = Card.parse(text)
    assert (card.rank, card.suit, str(card), card.value) == (10, "h", "Th", 10)


@pytest.mark.parametrize("text", ["1x", "", "Zh", "11h", "T", "Thh", None])
def test_card_parse_refuses_unknown(text):
    with pytest.raises(ValueError, match="unknown card"):
        Card.parse(text)


def test_cards_hashable_ordered_and_named():
    assert len(set(DECK)) == 52 and sorted(DECK)[0] == Card.parse("Ac")
    assert Card.parse("5h") < Card.parse("5s") < Card.parse("6c")
    assert Card.parse("5h").name == "Five of Hearts"
    assert {Card.parse("Qd"): 1}[Card(12, "d")] == 1


# ------------------------------------------------------------------ rules
def test_every_preset_name_round_trips():
    for name, rules in PRESETS.items():
        assert rules.name == name and Rules.parse(name) == rules


@pytest.mark.parametrize(
    "rules",
    [
        Rules(passes=1),
        Rules(passes=None, scoring=True),
        Rules(stock_in_play=True, passes=2, win="deck"),
    ],
)
def test_rules_names_round_trip(rules):
    assert Rules.parse(rules.name) == rules
    assert Rules.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize(
    "text,message",
    [
        ("klondike", "unknown rules"),
        ("classic,passes=x", "passes"),
        ("classic,colour=red", "unknown"),
    ],
)
def test_bad_rules_names_are_refused(text, message):
    with pytest.raises(ValueError, match=message):
        Rules.parse(text)


def test_rules_validate_their_fields():
    with pytest.raises(ValueError):
        Rules(passes=0)
    with pytest.raises(ValueError):
        Rules(win="stock")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Rules.preset("classic", passes=-1)


# ------------------------------------------------------------------ layouts and deals
def test_layout_round_trips():
    text = Game.deal(99).layout
    assert Game.from_layout(text).layout == text
    assert Game.from_layout(text.replace("T", "10")).layout == text


@pytest.mark.parametrize(
    "mutate,message",
    [
        (lambda w: w[:-1], "51 cards"),
        (lambda w: [*w[:-1], w[0]], "duplicate"),
        (lambda w: [*w[:-1], "1x"], "unknown card '1x'"),
        (lambda w: [*w, "Kz"], "unknown card 'Kz'"),
    ],
)
def test_bad_layouts_are_refused_naming_the_problem(mutate, message):
    words = Game.deal(4).layout.split()
    with pytest.raises(ValueError, match=message):
        Game.from_layout(" ".join(mutate(words)))


def test_duplicate_is_named():
    words = Game.deal(4).layout.split()
    words[-1] = "5h" if words[0] != "5h" else "6h"
    with pytest.raises(ValueError, match=r"duplicate (5h|6h)"):
        parse_layout(" ".join(words))


# Pinned forever: changing the shuffle would silently change every shared deal number.
PINNED = {
    1: "7d 9c 4d 8h 8d 5s Jd 6d 9s Jc 5d Kd 3c 2d Jh 5h 7h 4h 2c Ad 6s Kc Kh Th Ts Js Td 8s "
    "Qc 4s 6c 7c As 5c Ah Ks 6h Qs Qh Qd 9d 3d 3s Ac 4c 2h 8c Tc 3h 2s 9h 7s",
    2: "Qh 3s 4c 5h 7h 2d Kh Td Ac 6c 7s 3c Qc 7d 6h Jh Tc 9s Jd 8c 4d 5s 2s 4h Ad Qd 6s 8h "
    "3h 9d 6d Js As 5c Jc Ah Kc 2h 7c 4s 9c Th 5d Ts Qs Ks 8s Kd 3d 2c 8d 9h",
    1000: "Jd 4h 4c 3d 2h Ac Kd Ad 5s 8h Td Js 3c Ts Tc Qh 8s 2c 8d 7h Qs Qc 5h Jc Kc 7d 4s "
    "7c 9c Ks 5c 7s Kh Qd 6d 4d As Th 2s Jh 9s 5d 2d 9h 3s Ah 6s 6h 6c 9d 8c 3h",
    4294967295: "6h 2d 8h 3s Tc 5s 4h Qc 3c Jc 8c 5h Js Kd 7s 9h 4d 5d 3d Ad Jd Ks Ac 4s 7c 8d "
    "9c 2c 9d 2h 2s Jh Qs 6c 6d 9s Kh As 4c 6s 7h 8s 5c Qd Ts Th 7d Ah Td Qh Kc 3h",
}


@pytest.mark.parametrize("number", sorted(PINNED))
def test_numbered_deals_are_pinned(number):
    assert Game.deal(number).layout == PINNED[number]


def test_numbered_deal_is_the_same_in_another_interpreter():
    code = "from pyramid_widget import Game; print(Game.deal(123456).layout)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == Game.deal(123456).layout


@pytest.mark.parametrize("number", [0, -1, 2**32, "7", 1.5, True])
def test_unknown_deal_numbers_are_refused(number):
    with pytest.raises(ValueError, match="deal"):
        Game.deal(number)


def test_daily_deal():
    day = dt.date(2026, 11, 30)
    assert daily_deal_number(day) == 20261130
    game = deal_for_date(day, "one-recycle")
    assert game.deal_number == 20261130 and game.layout == Game.deal(20261130).layout
    assert game.rules == PRESETS["one-recycle"]
    assert deal_for_date(dt.date(2026, 12, 1)).layout != game.layout


def test_random_deals_are_numbered_so_they_can_be_shared():
    game = Game.random("open-stock")
    assert Game.from_code(game.deal_code).layout == game.layout


def test_build_layout_puts_chosen_cards_in_place():
    layout = build_layout({0: "Kh", 27: "5d"}, ["Ac", None, "2c"])
    game = Game.from_layout(layout)
    assert game.cards[0] == Card.parse("Kh") and game.cards[27] == Card.parse("5d")
    assert game.stock[0] == Card.parse("Ac") and game.stock[2] == Card.parse("2c")
    with pytest.raises(ValueError, match="duplicate"):
        build_layout({0: "Kh", 1: "Kh"})


# ------------------------------------------------------------------ moves
@pytest.mark.parametrize(
    "text,canonical",
    [
        ("5h+8c", "5h+8c"),
        ("8c+5h", "5h+8c"),
        ("10h+3d", "3d+Th"),
        ("Kh", "Kh"),
        ("draw", "draw"),
        ("RECYCLE", "recycle"),
    ],
)
def test_move_notation_round_trips(text, canonical):
    move = Move.parse(text)
    assert str(move) == canonical and Move.parse(str(move)) == move
    assert hash(move) == hash(Move.parse(canonical))


@pytest.mark.parametrize("text", ["", "5h+", "5h+8c+3d", "jump", 7])
def test_unreadable_moves_are_illegal_moves(text):
    game = Game.deal(1)
    with pytest.raises(IllegalMove, match="not a move"):
        game.play(text)
    assert game.move_count == 0


def test_illegal_move_is_a_value_error_with_a_reason():
    game = Game.deal(1)
    with pytest.raises(ValueError) as error:
        game.play("7d+6h")
    assert error.value.reason in ("that card is still covered", "that card is not in play")


def test_legal_moves_lists_pairs_and_kings_first_then_draw():
    game = Game.deal(1)
    assert [str(m) for m in game.legal_moves()] == ["Kc", "Kh", "draw"]
    assert game.is_legal("Kc") and not game.is_legal("7d")
    assert game.refusal("7d") == "that card is still covered"  # where it lies comes first
    assert game.refusal("8s") == "nothing in play makes 13 with that card"
    lesson = Game.from_position({0: "5h"}, waste=["8c"])  # its partner is in play
    assert lesson.refusal("5h") == "that card needs a partner that makes 13"


def test_log_history_and_move_count_agree():
    game = Game.deal(1)
    for move in ["Kc", "draw", "Kh", "draw"]:
        game.play(move)
    assert game.log == ["Kc", "draw", "Kh", "draw"] == [str(m) for m in game.history]
    assert game.move_count == 4


def test_redo_replays_undone_moves_and_a_new_move_clears_it():
    game = Game.deal(1)
    game.play("Kc")
    game.draw()
    game.undo()
    game.undo()
    assert game.redo_moves == [Move.parse("Kc"), Move.parse("draw")]
    assert str(game.redo()) == "Kc"
    game.play("Kh")
    assert not game.can_redo
    with pytest.raises(IllegalMove, match="nothing to redo"):
        game.redo()


def test_playing_the_next_redo_move_keeps_the_rest_of_the_redo_list():
    game = Game.deal(1)
    game.play("Kc")
    game.play("Kh")
    game.undo()
    game.undo()
    game.play("Kc")
    assert game.redo_moves == [Move.parse("Kh")]


def test_restart_goes_back_to_the_deal():
    game = Game.deal(1)
    game.play("Kc")
    game.draw()
    game.restart()
    assert game.move_count == 0 and game.log == [] and game.position == Game.deal(1).position


def test_copy_is_independent():
    game = Game.deal(1)
    twin = game.copy()
    twin.play("Kc")
    assert game.move_count == 0 and twin.move_count == 1


def test_repr_and_board_are_useful_and_hide_a_face_down_stock():
    game = Game.deal(1, "scored")
    game.play("Kc")
    text = repr(game)
    assert "scored #1" in text and "cleared 1/28" in text and "score 5" in text
    board = str(game)
    assert "[Kh]" in board and "##" in board
    assert str(game.stock[0]) not in board.split("stock")[1]


def test_open_stock_shows_its_top_and_seen_includes_it():
    game = Game.deal(1, "open-stock")
    assert game.stock_top == game.stock[0] and game.stock[0] in game.seen
    assert Game.deal(1).stock_top is None and Game.deal(1).stock[0] not in Game.deal(1).seen


def test_engine_imports_with_the_standard_library_only():
    code = (
        "import sys, pyramid_widget.engine, pyramid_widget\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "('ipywidgets', 'anywidget', 'traitlets', 'IPython', 'ipykernel', 'comm')]\n"
        "print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
