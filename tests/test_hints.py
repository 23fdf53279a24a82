"""Hints: legal, honest, and (when fair) blind to every card the player has not seen."""

from __future__ import annotations

import random
import re

import pytest
from helpers import CARD_SYMBOL, random_game

from pyramid_widget import Card, Game, Move, build_layout, hint, solve
from pyramid_widget.cards import PYRAMID_SIZE
from pyramid_widget.solver.explain import describe, in_short
from pyramid_widget.words import sentence

CARD = re.compile(r"\b([A2-9TJQK][cdhs])\b")


def with_unseen_shuffled(game: Game, seed: int) -> Game:
    """The same game (same moves played, same cards seen) with the unseen stock cards dealt
    into the unseen places in another order."""
    stock = list(game.cards[PYRAMID_SIZE:])
    places = [j for j, card in enumerate(stock) if card not in game.seen]
    cards = [stock[j] for j in places]
    random.Random(seed).shuffle(cards)
    for j, card in zip(places, cards, strict=True):
        stock[j] = card
    twin = Game.from_layout(
        " ".join(str(card) for card in game.cards[:PYRAMID_SIZE] + tuple(stock)), game.rules
    )
    for move in game.log:
        twin.play(move)
    assert twin.seen == game.seen
    return twin


@pytest.mark.parametrize("rules", ["classic", "open-stock", "one-recycle", "strict"])
def test_a_fair_hint_is_the_same_whatever_the_unseen_cards_are(rules):
    for n in range(6):
        game = random_game(rules, n + 1, 3 * n, n)
        if not any(card not in game.seen for card in game.stock):
            continue
        first = hint(game, fair=True)
        for seed in (1, 2):
            twin = with_unseen_shuffled(game, seed)
            assert twin.cards != game.cards or len(game.stock) < 2
            assert hint(twin, fair=True) == first


def test_a_fair_hint_never_says_lost_while_a_card_is_unseen():
    game = Game.deal(3)  # classic deal 3 cannot be won (the all-seeing hint proves it)
    assert hint(game, fair=False).verdict == "unwinnable"
    for _ in range(24):
        fair = hint(game, fair=True)
        assert fair.verdict != "unwinnable"
        game.draw()
    assert all(card in game.seen for card in game.waste + game.stock)
    assert hint(game, fair=True).verdict == "unwinnable"  # every card seen: it may say so now


def test_a_fair_hint_names_only_cards_the_player_has_seen():
    for n in range(12):
        game = random_game("open-stock", n + 1, n, n)
        words = hint(game, fair=True).reason
        for name in CARD.findall(words):
            assert Card.parse(name) in game.seen, (words, name)


@pytest.mark.parametrize("fair", [True, False])
def test_every_hinted_move_is_legal(fair):
    for n in range(10):
        game = random_game("classic" if n % 2 else "open-stock", n + 1, 2 * n, n)
        advice = hint(game, fair=fair, time_limit=0.2)
        if advice.move is None:
            assert advice.kind == "none"
            continue
        assert game.is_legal(advice.move)
        assert Move.parse(advice.move).kind == advice.kind
        assert advice.reason


def test_following_the_all_seeing_hint_wins_a_winnable_deal():
    game = Game.deal(1, "open-stock")
    assert hint(game, fair=False).verdict == "winnable"
    for _ in range(150):
        if game.is_won:
            break
        advice = hint(game, fair=False, time_limit=5)
        assert advice.verdict == "winnable"
        game.play(advice.move)
    assert game.is_won


def test_a_hint_on_a_won_game_has_no_move():
    game = Game.deal(1, "open-stock")
    for move in solve(game).moves:
        game.play(move)
    done = hint(game)
    assert (done.move, done.kind, done.verdict) == (None, "none", "winnable")


def test_the_reason_explains_what_a_pair_uncovers():
    # The bottom row's 5h and 8c lie side by side on the Qd; the Ac is on the waste.
    layout = build_layout({21: "5h", 22: "8c", 15: "Qd"}, ["Ac"])
    game = Game.from_layout(layout, "classic")
    game.draw()
    words = describe(game, Move.parse("8c+5h"))
    assert words == "pair 5♥ with 8♣: it frees Q♦; then Q♦ pairs with A♣"


def test_freed_cards_that_pair_together_or_go_alone_are_told_once():
    # 5h and 8c lie side by side on the 2s and the Js (index 5 is gone): the pair frees both.
    pair = Game.from_position({0: "Qs", 1: "2s", 2: "Js", 3: "5h", 4: "8c"}, stock=["As"])
    assert describe(pair, Move.parse("5h+8c")) == (
        "pair 5♥ with 8♣: it frees 2♠ and J♠; then 2♠ and J♠ pair with each other"
    )
    kings = Game.from_position({0: "Qs", 1: "Kh", 2: "Kd", 3: "5h", 4: "8c"}, stock=["As"])
    assert describe(kings, Move.parse("5h+8c")) == (
        "pair 5♥ with 8♣: it frees K♥ and K♦; then K♥ and K♦ go alone"
    )
    assert in_short(kings, Move.parse("5h+8c")) == "pair 5♥ with 8♣: it frees K♥ and K♦"


def test_a_hint_line_leads_with_the_move_and_the_detail_holds_the_figures():
    """The hint line is the move, one reason and how it stands, with no figure but the cards';
    what lies behind it (the orders of the unseen cards tried, the solver's moves to the win)
    is in the detail."""
    game = Game.deal(1)
    for fair in (True, False):
        advice = hint(game, fair=fair, time_limit=0.5)
        move = Move.parse(advice.move)
        assert advice.reason.startswith(sentence(in_short(game, move)) + " ")
        assert not re.search(r"\d", CARD_SYMBOL.sub("", advice.reason)), advice.reason
        assert len(advice.reason.split()) <= 15 and advice.detail
    assert re.search(r"^Tried on \d+ orders of the 24 unseen cards: ", hint(game).detail)
    seeing = hint(game, fair=False, time_limit=2)
    assert seeing.verdict == "winnable" and seeing.reason.endswith(" It keeps the win.")
    assert re.fullmatch(r"Seeing every card, the solver finds a win in \d+ moves\.", seeing.detail)
    lost = hint(Game.deal(3), fair=False)  # classic deal 3 cannot be won
    assert lost.reason.startswith("This deal cannot be won from here: undo, or play on with ")
    assert lost.detail.endswith("Seeing every card, the solver finds no win from here.")
    assert lost.detail.startswith(sentence(describe(Game.deal(3), Move.parse(lost.move))))


def test_the_reason_says_where_a_waste_card_comes_from():
    layout = build_layout({21: "5h"}, ["8c"])
    game = Game.from_layout(layout, "classic")
    game.draw()
    assert describe(game, Move.parse("5h+8c")).startswith("pair 8♣ from the waste with 5♥")


def test_a_fair_hint_with_few_unseen_cards_may_prove_a_win():
    # Draw all but the last few cards of a winnable deal: every order of the unseen cards is
    # tried, so a "winnable" verdict holds whatever they are.
    game = Game.deal(1, "open-stock")
    for _ in range(21):
        game.draw()
    advice = hint(game, fair=True, time_limit=2)
    if advice.verdict == "winnable":
        assert advice.chance == 1.0
    assert advice.verdict != "unwinnable"


def test_bad_time_limits_are_refused():
    with pytest.raises(ValueError):
        hint(Game.deal(1), time_limit=-1)
