"""One test per rule statement of shared/rules-matrix.md, written from the seeds' own words."""

from __future__ import annotations

import pytest

from pyramid_widget import Card, Game, IllegalMove, Rules, build_layout

BOTTOM = list(range(21, 28))  # pyramid indices of the bottom row (row 7)


def game_with(pyramid=None, stock=None, rules="classic") -> Game:
    return Game.from_layout(build_layout(pyramid, stock), rules)


def refusal(game: Game, move: str) -> str:
    before = game.code, game.log, game.seen
    with pytest.raises(IllegalMove) as error:
        game.play(move)
    assert (game.code, game.log, game.seen) == before, "a refused move changed the game"
    return error.value.reason


# ------------------------------------------------------------------ common to every edition
def test_card_values_ace_one_to_king_thirteen():
    values = [
        Card.parse(t).value
        for t in ["Ac", "2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "Tc", "Jc", "Qc", "Kc"]
    ]
    assert values == list(range(1, 14))


@pytest.mark.parametrize(
    "a,b", [("Ah", "Qs"), ("2c", "Jd"), ("3d", "Th"), ("4s", "9c"), ("5h", "8c"), ("6d", "7s")]
)
def test_the_six_pairs_make_13_and_suits_never_matter(a, b):
    game = game_with({21: a, 22: b})
    game.play(f"{a}+{b}")
    assert game.pyramid[21] is None and game.pyramid[22] is None
    assert game.log == [f"{min(Card.parse(a), Card.parse(b))}+{max(Card.parse(a), Card.parse(b))}"]


def test_two_cards_that_do_not_make_13_are_refused():
    game = game_with({21: "5h", 22: "9c"})
    assert refusal(game, "5h+9c") == "5♥ and 9♣ make 14, not 13"


def test_bottom_row_is_exposed_at_the_start_and_nothing_else():
    game = Game.deal(7)
    assert set(game.exposed) == {game.cards[i] for i in BOTTOM}


def test_covered_cards_are_visible_but_not_playable():
    game = game_with({15: "5h", 21: "8c", 27: "Kd"})
    assert refusal(game, "5h+8c") == "that card is still covered"


def test_a_card_covered_by_one_card_is_still_not_in_play():
    # 5h at (row 6, col 0) is covered by 21 and 22; remove 22's pair only.
    game = game_with({15: "5h", 22: "2c", 23: "Jd", 21: "7s", 24: "8d"})
    game.play("2c+Jd")
    assert game.pyramid[22] is None and game.pyramid[21] is not None
    assert refusal(game, "5h+8d") == "that card is still covered"


def test_a_card_is_exposed_when_both_covering_cards_are_gone():
    game = game_with({15: "5h", 21: "2c", 22: "Jd", 23: "8d"})
    game.play("2c+Jd")
    assert Card.parse("5h") in game.exposed
    game.play("5h+8d")
    assert game.cleared == 4


def test_a_card_never_pairs_with_the_card_still_covering_it():
    # 5h (15) is covered by 8c (21) and Kd (22): even after the King goes, 8c still covers 5h.
    game = game_with({15: "5h", 21: "8c", 22: "Kd"})
    game.play("Kd")
    assert refusal(game, "5h+8c") == "that card is still covered"


def test_only_the_waste_top_is_in_play():
    game = game_with({21: "5h"}, ["8c", "2d"])
    game.draw()
    game.draw()
    assert game.waste_top == Card.parse("2d")
    assert refusal(game, "5h+8c") == "that card is not in play"


def test_two_waste_cards_never_pair():
    game = game_with({}, ["5h", "8c"])
    game.draw()
    game.draw()
    assert refusal(game, "5h+8c") == "that card is not in play"


def test_waste_top_pairs_with_an_exposed_pyramid_card_and_the_card_below_returns():
    game = game_with({21: "5h"}, ["2d", "8c"])
    game.draw()
    game.draw()
    game.play("8c+5h")
    assert game.waste_top == Card.parse("2d")


def test_a_king_goes_alone_from_the_pyramid_with_one_move():
    game = game_with({21: "Kh"})
    game.play("Kh")
    assert game.pyramid[21] is None and game.move_count == 1


def test_a_king_on_the_waste_goes_alone():
    game = game_with({}, ["Kh"])
    game.draw()
    game.play("Kh")
    assert game.waste == () and game.log == ["draw", "Kh"]


def test_a_king_never_combines_with_another_card():
    game = game_with({21: "Kh", 22: "Kd"})
    assert refusal(game, "Kh+Kd") == "a King is removed alone"


def test_a_face_down_stock_card_cannot_be_used_directly():
    game = game_with({21: "5h"}, ["8c"])
    assert game.stock_top is None
    assert refusal(game, "5h+8c") == "that card is not in play"


def test_draw_turns_the_top_stock_card_onto_the_waste():
    game = game_with({}, ["4d", "9s"])
    game.draw()
    assert game.waste == (Card.parse("4d"),) and game.stock[0] == Card.parse("9s")
    assert game.stock_count == 23


def test_draw_is_refused_with_an_empty_stock():
    game = Game.deal(3, Rules(passes=1))
    for _ in range(24):
        game.draw()
    assert refusal(game, "draw") == "no cards left to turn"


def test_recycle_unlocks_once_the_stock_is_empty():
    game = Game.deal(3)
    assert refusal(game, "recycle") == "recycling unlocks once the stock is empty"


def test_recycle_keeps_the_order():
    game = Game.deal(11)
    stock = game.stock
    for _ in range(24):
        game.draw()
    game.recycle()
    assert game.stock == stock and game.waste == ()


def test_recycle_keeps_the_order_of_the_cards_left():
    game = game_with({21: "5h"}, ["2d", "8c", "4s"])
    order = game.stock
    game.draw()
    game.draw()
    game.play("5h+8c")
    for _ in range(22):
        game.draw()
    game.recycle()
    assert game.stock == tuple(card for card in order if card != Card.parse("8c"))


def test_nothing_in_the_waste_to_recycle():
    # Open stock: every stock card pairs with the card drawn before it, leaving no stock or waste.
    stock = [f"{rank}{suit}" for rank in "A23" for suit in "cdhs"]
    partners = {"A": "Q", "2": "J", "3": "T"}
    order = [card for first in stock for card in (first, partners[first[0]] + first[1])]
    game = game_with({}, order, rules="open-stock")
    for first in stock:
        game.draw()
        game.play(f"{first}+{partners[first[0]]}{first[1]}")
    assert game.stock_count == 0 and game.waste == ()
    assert game.recycle_refusal == "nothing in the waste to recycle"
    assert refusal(game, "recycle") == "nothing in the waste to recycle"


def test_two_redeals_give_at_most_three_passes():
    game = Game.deal(5, "classic")
    for _pass in range(2):
        for _ in range(24):
            game.draw()
        game.recycle()
    assert game.pass_number == 3 and game.passes_left == 0
    for _ in range(24):
        game.draw()
    assert refusal(game, "recycle") == "no recycles left"


def test_one_recycle_preset_allows_a_single_recycle():
    game = Game.deal(5, "one-recycle")
    for _ in range(24):
        game.draw()
    game.recycle()
    for _ in range(24):
        game.draw()
    assert refusal(game, "recycle") == "no recycles left"


def test_unlimited_passes_never_run_out():
    game = Game.deal(5, Rules(passes=None))
    for _pass in range(6):
        for _ in range(24):
            game.draw()
        game.recycle()
    assert game.pass_number == 7 and game.passes_left is None


def test_every_pair_king_draw_and_recycle_counts_as_one_move():
    game = game_with({21: "5h", 22: "8c", 23: "Kd"}, rules=Rules(passes=2))
    game.play("5h+8c")
    game.play("Kd")
    for _ in range(24):
        game.draw()
    game.recycle()
    assert game.move_count == 27 == len(game.log)


def test_undo_restores_moves_pass_allowance_and_score():
    game = game_with({21: "5h", 22: "8c"}, rules="scored")
    game.play("5h+8c")
    for _ in range(24):
        game.draw()
    game.recycle()
    before = (game.move_count, game.pass_number, game.passes_left, game.score)
    game.undo()
    assert (game.pass_number, game.passes_left) == (1, 2)
    game.redo()
    assert (game.move_count, game.pass_number, game.passes_left, game.score) == before
    for _ in range(26):
        game.undo()
    assert (game.move_count, game.score, game.cleared) == (0, 0, 0)
    with pytest.raises(IllegalMove, match="nothing to undo"):
        game.undo()


def test_undo_never_makes_a_seen_card_unseen():
    game = game_with({}, ["4d"])
    game.draw()
    game.undo()
    assert Card.parse("4d") in game.seen and game.stock[0] == Card.parse("4d")


# The bottom row (fives and sixes) needs eights and sevens, and all eight lie above it.
FROZEN_PYRAMID = dict(zip(range(21, 28), ["5c", "5d", "5h", "5s", "6c", "6d", "6h"], strict=True))
FROZEN_PYRAMID |= dict(enumerate(["8c", "8d", "8h", "8s", "7c", "7d", "7h", "7s"]))


def test_stuck_is_a_notice_not_a_loss_and_undo_still_works():
    game = game_with(FROZEN_PYRAMID, [None] * 23 + ["2c"], rules=Rules(passes=1))
    for _ in range(24):
        game.draw()
    assert game.is_stuck and game.outcome == "stuck" and game.legal_moves() == []
    game.undo()
    assert not game.is_stuck


# A pyramid that clears with no help from the stock; bottom row 4d 9d 5d 8d 6d 7d Kc.
WINNABLE_PYRAMID = ["Kh", "Ah", "Qh", "2h", "Jh", "Kd", "3h", "Th", "Ks", "4h", "9h", "5h", "8h",
                    "6h", "7h", "Ad", "Qd", "2d", "Jd", "3d", "Td", "4d", "9d", "5d", "8d", "6d",
                    "7d", "Kc"]  # fmt: skip
WINNING_LINE = ["4d+9d", "5d+8d", "6d+7d", "Kc", "Ad+Qd", "2d+Jd", "3d+Td", "5h+8h", "6h+7h",
                "4h+9h", "3h+Th", "Ks", "2h+Jh", "Kd", "Ah+Qh", "Kh"]  # fmt: skip


def test_an_empty_pyramid_wins_immediately_with_cards_left_in_the_stock():
    game = game_with(WINNABLE_PYRAMID)
    for move in WINNING_LINE:
        game.play(move)
    assert game.is_won and game.outcome == "won" and game.stock_count == 24
    assert refusal(game, "draw") == "the game is already won"


# ------------------------------------------------------------------ what differs: settings
def test_open_stock_top_is_face_up_and_pairs_with_a_pyramid_card():
    game = game_with({21: "5h"}, ["8c"], rules="open-stock")
    assert game.stock_top == Card.parse("8c") and Card.parse("8c") in game.seen
    game.play("5h+8c")
    assert game.stock_count == 23


def test_open_stock_top_pairs_with_the_waste_top():
    game = game_with({}, ["5h", "8c"], rules="open-stock")
    game.draw()
    game.play("5h+8c")
    assert game.waste == () and game.stock_count == 22


def test_open_stock_king_on_stock_top_leaves_without_a_draw():
    game = game_with({}, ["Kc"], rules="open-stock")
    game.play("Kc")
    assert game.move_count == 1 and Card.parse("Kc") not in game.stock


def test_king_on_stock_top_must_be_drawn_first_in_002s_way():
    game = game_with({}, ["Kc"], rules=Rules.preset("open-stock", king_from_stock=False))
    assert refusal(game, "Kc") == "draw the King to the waste first"
    game.draw()
    game.play("Kc")
    assert game.log == ["draw", "Kc"]


def test_strict_needs_the_whole_deck_gone():
    rules = Rules.preset("strict")
    assert (rules.stock_in_play, rules.passes, rules.win) == (True, 1, "deck")
    game = game_with(WINNABLE_PYRAMID, rules=rules)
    for move in WINNING_LINE:
        game.play(move)
    assert game.cleared == 28 and not game.is_won and game.outcome is None


def test_scoring_five_a_card_25_a_row_and_the_clearing_bonus():
    game = game_with({21: "5h", 22: "8c", 27: "Kd"}, rules="scored")
    game.play("5h+8c")
    assert game.score == 10
    game.play("Kd")
    assert game.score == 15
    game.undo()
    assert game.score == 10
    full = game_with(WINNABLE_PYRAMID, rules="scored")
    for move in WINNING_LINE:
        full.play(move)
    # 28 cards x 5, seven rows x 25, 100 for the pyramid and 10 for each of 24 cards left.
    assert full.is_won and full.score == 140 + 175 + 100 + 240


def test_no_score_without_scoring():
    game = game_with({21: "5h", 22: "8c"})
    game.play("5h+8c")
    assert game.score == 0


@pytest.mark.parametrize(
    "name,expected",
    [
        ("classic", Rules(False, 3, "pyramid", False)),
        ("scored", Rules(False, 3, "pyramid", True)),
        ("open-stock", Rules(True, 3, "pyramid", False)),
        ("one-recycle", Rules(False, 2, "pyramid", False)),
    ],
)
def test_presets(name, expected):
    assert Rules.preset(name) == expected


def test_scored_preset_accepts_one_pass_or_unlimited():
    assert Rules.preset("scored", passes=1).passes == 1
    assert Rules.preset("scored", passes=None).name == "scored,passes=unlimited"


# ------------------------------------------------------------------ dead end (001)
def test_dead_end_when_no_card_the_stock_can_bring_fits():
    game = game_with(FROZEN_PYRAMID)
    assert game.is_dead_end
    assert not game.is_stuck  # drawing is still allowed: a notice, not a loss
    game.draw()
    assert game.is_dead_end


def test_not_a_dead_end_while_a_stock_card_would_fit():
    game = game_with({21: "5h"}, ["8c"])
    assert not game.is_dead_end
