"""One rule for every way of moving: a tap (a click, a key, a drag), `Game.play` and
`Game.refusal` agree word for word, on every card and pile, in many positions of every preset."""

from __future__ import annotations

import random

import pytest
from helpers import random_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramid_widget import DECK, Card, Game, IllegalMove, Move, Rules, words
from pyramid_widget.game import PILES
from pyramid_widget.intents import Desk
from pyramid_widget.rules import PRESETS
from pyramid_widget.session import GameSession
from pyramid_widget.view import build_state
from pyramid_widget.words import EMPTY_WASTE, NEEDS_PARTNER, NO_PARTNER

RULES = [*PRESETS, "classic,passes=1", "classic,passes=unlimited", "open-stock,win=deck"]


def tap_agrees_with_play(game: Game, target: Card | str, selected: Card | None, auto: bool) -> str:
    """Check one tap against `play` and `refusal`; return what it meant ("move", "select",
    "refused") so that a test can see every kind was met."""
    before = game.code
    try:
        meant = game.tap_move(target, selected, auto_pair=auto)
    except IllegalMove as error:
        assert game.code == before
        if error.move is None:  # a pile with nothing on it: no move to name
            assert error.reason == EMPTY_WASTE and target == "waste" and game.waste_top is None
            return "refused"
        assert game.refusal(error.move) == error.reason
        with pytest.raises(IllegalMove) as played_error:
            game.copy().play(error.move)
        assert played_error.value.reason == error.reason
        return "refused"
    assert game.code == before
    if isinstance(meant, Move):
        assert game.refusal(meant) is None and meant in game.legal_moves()
        return "move"
    # The tap selects: a card in play waiting for a partner, which alone would be refused so.
    assert isinstance(meant, Card) and meant in game.selectable
    assert game.refusal(str(meant)) in (NEEDS_PARTNER, NO_PARTNER)
    assert not auto or selected == meant
    return "select"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(RULES),
    deal=st.integers(1, 2**32 - 1),
    steps=st.integers(0, 60),
    seed=st.integers(0, 2**16),
)
def test_every_tap_agrees_with_play_and_refusal(rules, deal, steps, seed):
    game = random_game(rules, deal, steps, seed, undo=0.1)
    rng = random.Random(seed)
    selections = [None, *game.in_play, rng.choice(DECK)]
    kinds = set()
    for target in [*DECK, *PILES]:
        for selected in selections:
            for auto in (False, True):
                kinds.add(tap_agrees_with_play(game, target, selected, auto))
    assert "refused" in kinds  # covered cards are always among the targets
    # What the view offers for a local selection is exactly what a lone tap selects (a tap
    # may be refused: a King on the stock that must be drawn first selects nothing).
    state = build_state(game, version=1)
    lone = [c for c in game.in_play if isinstance(lone_tap(game, c), Card)]
    assert state["selectable"] == [str(card) for card in lone]


def lone_tap(game: Game, card: Card) -> Move | Card | None:
    """What a tap on `card` with nothing selected means, or None when it is refused."""
    try:
        return game.tap_move(card)
    except IllegalMove:
        return None


def test_the_taps_meet_every_kind_of_meaning():
    """Not only refusals: across positions, taps make moves, select, draw and recycle."""
    seen: set[str] = set()
    for seed in range(40):
        game = random_game(RULES[seed % len(RULES)], 1000 + seed, seed * 2, seed, undo=0.1)
        for target in [*game.in_play, *PILES]:
            for selected in [None, *game.in_play]:
                try:
                    meant = game.tap_move(target, selected)
                except IllegalMove:
                    continue
                seen.add(meant.kind if isinstance(meant, Move) else "select")
    assert {"pair", "king", "draw", "select"} <= seen


def test_a_covered_card_says_it_is_covered_whether_tapped_or_played():
    game = Game.deal(42)
    apex = game.pyramid[0]
    with pytest.raises(IllegalMove) as tapped:
        game.tap_move(apex)
    with pytest.raises(IllegalMove) as played_alone:
        game.play(str(apex))
    assert tapped.value.reason == played_alone.value.reason == "that card is still covered"


def test_the_stock_tap_draws_recycles_pairs_and_frees_a_king_as_the_rules_say():
    open_stock = Game.from_position({0: "Ks"}, stock=["Kd", "5c"], waste=["8h"], rules="open-stock")
    assert open_stock.tap_move("stock") == Move.parse("Kd")  # a King on the stock goes alone
    strict = Game.from_position(
        {0: "Ks"}, stock=["Kd", "5c"], waste=["8h"], rules=Rules.preset("strict")
    )
    assert strict.tap_move("stock") == Move.parse("draw")  # drawn first, as the rules say
    with pytest.raises(IllegalMove, match="draw the King to the waste first"):
        strict.tap_move("stock", selected="8h")  # a King pairs with nothing
    classic = Game.from_position({0: "5h"}, stock=["8c"], waste=["Qd", "Ac"])
    assert classic.tap_move("stock", selected="5h") == Move.parse("draw")  # face down: a draw
    classic.play("draw")
    assert classic.tap_move("waste", selected="5h") == Move.parse("5h+8c")
    empty = Game.from_position({0: "5h"}, waste=["8c", "Qd", "Ac"], rules="classic")
    assert empty.tap_move("stock") == Move.parse("recycle")


@settings(max_examples=40, deadline=None)
@given(rules=st.sampled_from(RULES), deal=st.integers(1, 10_000), seed=st.integers(0, 999))
def test_taps_through_the_session_answer_with_the_engines_words(rules, deal, seed):
    session = GameSession(rules, deal=deal, store=None, threads=False)
    rng = random.Random(seed)
    for seq in range(1, 30):
        game = session.game
        target = rng.choice([*PILES, *map(str, game.in_play), str(rng.choice(DECK))])
        selected = rng.choice([None, None, *map(str, game.in_play)])
        message = {
            "type": "intent",
            "seq": seq,
            "view": "v",
            "version": session.version,
            "action": "tap",
            "target": target,
            "selected": selected,
            "face": game.pile_face(target) if target in PILES else None,
        }
        check = game.copy()
        try:
            meant = check.tap_move(target, selected, auto_pair=session.options.auto_pair)
            expected = (True, None)
        except IllegalMove as error:
            meant, expected = None, (False, error.reason)
        ack = Desk(session).handle(message)
        assert (ack["ok"], ack["reason"]) == expected
        if isinstance(meant, Move):
            assert ack["move"] == str(meant) and session.moves[-1] == str(meant)
        elif isinstance(meant, Card):
            assert ack["select"] == str(meant)


FACES = ["back", "empty", *map(str, DECK)]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(RULES),
    deal=st.integers(1, 2**32 - 1),
    steps=st.integers(0, 60),
    seed=st.integers(0, 2**16),
    face=st.sampled_from(FACES),
    pile=st.sampled_from(PILES),
)
def test_a_pile_tap_stands_exactly_while_the_pile_means_what_the_player_saw(
    rules, deal, steps, seed, face, pile
):
    """What the player saw on a pile now always stands; another face stands only where a tap
    on it would act the same (a face-down stock and an unpaired face-up top both draw), and a
    refused tap changes nothing."""
    game = random_game(rules, deal, steps, seed, undo=0.1)
    rng = random.Random(seed)
    selected = rng.choice([None, *game.in_play])
    assert game.pile_tap_refusal(pile, game.pile_face(pile), selected) is None
    now = game.pile_face(pile)
    session = GameSession(game=game, store=None, threads=False)
    before = (game.to_json(), session.state)
    refusal = game.pile_tap_refusal(pile, face, selected)
    message = {"type": "intent", "seq": 1, "view": "v", "version": session.version}
    fields = {"action": "tap", "target": pile, "face": face, "selected": selected and str(selected)}
    ack = Desk(session).handle({**message, **fields})
    if refusal is not None:
        assert (ack["ok"], ack["reason"]) == (False, refusal)
        assert (game.to_json(), session.state) == before
    elif face != now:  # only a draw stands on another face: the stock had cards, none paired
        assert pile == "stock" and selected is None and "empty" not in (face, now)
        assert ack["move"] == "draw" or ack["reason"] in (
            words.KING_DRAW_FIRST,
            game.refusal("draw"),
        )
