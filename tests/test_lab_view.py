"""The player's view holds what a player at the table sees and nothing else, and a strategy's
answer is played, refused with the engine's reason, or reported as the strategy's bug."""

from __future__ import annotations

import pickle
import random
from dataclasses import replace

import pytest
from helpers import random_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramid_widget import DECK, PRESETS, Card, Game, IllegalMove, Move, Rules
from pyramid_widget.cards import PYRAMID_SIZE
from pyramid_widget.deals import format_layout
from pyramid_widget.lab import (
    PlayerView,
    StrategyError,
    UnseenCard,
    bottom_up,
    first_found,
    greedy,
    partner_keeper,
    pile_first,
    random_player,
)
from pyramid_widget.lab.play import play_out
from pyramid_widget.solver import hint

RULES = [*PRESETS.values(), Rules(passes=None)]
FAIR_PLAYERS = [greedy, pile_first, first_found, bottom_up, partner_keeper, random_player.choose]
common = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def twins(draw):
    """A game after random moves, and its twin: the same deal but for the cards still unseen,
    which lie in another order, with the same moves played (they only ever name seen cards)."""
    rules = draw(st.sampled_from(RULES))
    rng = random.Random(draw(st.integers(0, 2**32)))
    game = Game.deal(draw(st.integers(1, 2**32 - 1)), rules)
    for _ in range(draw(st.integers(0, 90))):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(rng.choice(moves))
    places = [i for i, card in enumerate(game.cards) if card not in game.seen]
    shuffled = [game.cards[i] for i in places]
    rng.shuffle(shuffled)
    cards = list(game.cards)
    for i, card in zip(places, shuffled, strict=True):
        cards[i] = card
    twin = Game.from_layout(format_layout(cards), rules)
    twin.replay(game.log)
    return game, twin


@common
@given(twins())
def test_two_games_that_differ_only_in_unseen_cards_look_the_same(case):
    game, twin = case
    view = PlayerView.of(game)
    assert PlayerView.of(twin) == view
    assert pickle.loads(pickle.dumps(view)) == view
    for choose in FAIR_PLAYERS:
        if view.legal:
            assert choose(view) == choose(PlayerView.of(twin))
    stand_in = view.game_as_seen()  # a game built from the view alone shows the same view
    assert replace(PlayerView.of(stand_in), history=view.history) == view


@common
@given(twins())
def test_a_face_down_card_is_refused_and_a_seen_one_is_read(case):
    game, _ = case
    view = PlayerView.of(game)
    assert len(view.stock) == game.stock_count
    for i, card in enumerate(game.stock):
        if card in game.seen:
            assert view.stock[i] == card and view.stock[i - len(view.stock)] == card
        else:
            with pytest.raises(UnseenCard, match="face down"):
                view.stock[i]
    assert view.unseen == frozenset(DECK) - game.seen
    assert not view.unseen & set(view.in_play) and view.stock_top in (None, game.stock_top)


@common
@given(st.sampled_from(RULES), st.integers(1, 2**32 - 1), st.integers(0, 150), st.integers())
def test_the_stock_a_view_shows_is_the_cards_seen_there_even_after_undos(rules, deal, steps, seed):
    game = random_game(rules, deal, steps, seed, undo=0.3)
    view = PlayerView.of(game)
    assert view.stock.known == tuple(c if c in game.seen else None for c in game.stock)
    stock = game.cards[PYRAMID_SIZE:]
    assert view.stock_order == tuple(c if c in game.seen else None for c in stock)


def test_a_view_names_no_deal_and_keeps_no_game():
    game = Game.deal(42, "classic")
    view = PlayerView.of(game)
    for name in ("deal_number", "cards", "game", "layout", "code", "position"):
        with pytest.raises(AttributeError, match="only what a player at the table sees"):
            getattr(view, name)
    assert not hasattr(view, "__dict__")  # nothing else can be hung on it
    reachable = {type(value) for value in _everything_in(view)}
    assert Game not in reachable
    with pytest.raises(UnseenCard):
        list(view.stock)  # reading the whole face-down stock is refused too
    with pytest.raises(AttributeError):
        view.pyramid = ()  # and it cannot be changed


def _everything_in(value, seen=None):
    """Every object reachable from `value` through its fields and containers."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return
    seen.add(id(value))
    yield value
    children = ()
    if isinstance(value, tuple | list | frozenset | set):
        children = value
    elif hasattr(value, "__slots__"):
        children = [getattr(value, name, None) for name in _slots(type(value))]
    for child in children:
        yield from _everything_in(child, seen)


def _slots(kind: type) -> list[str]:
    return [name for cls in kind.__mro__ for name in getattr(cls, "__slots__", ())]


def test_the_view_reads_what_the_game_shows():
    game = Game.deal(7, "open-stock")
    for move in ["draw", "draw", "draw"]:
        game.play(move)
    view = PlayerView.of(game)
    assert view.pyramid == game.pyramid and view.waste == game.waste
    assert view.stock_top == game.stock_top and view.in_play == game.in_play
    assert view.legal_moves() == game.legal_moves() and view.log == game.log
    assert (view.pass_number, view.passes_left, view.cleared) == (1, 2, 0)
    for move in game.legal_moves():
        assert view.uncovered_by(move) == game.uncovered_by(move)


def test_a_fair_hint_asked_of_the_view_is_the_fair_hint_of_the_game():
    game = Game.deal(11, "classic")
    rng = random.Random(3)
    for _ in range(25):
        game.play(rng.choice(game.legal_moves()))
    asked = hint(PlayerView.of(game).game_as_seen(), fair=True)
    direct = hint(game, fair=True)
    assert (asked.move, asked.reason, asked.chance) == (direct.move, direct.reason, direct.chance)


# ---------------------------------------------------------------------------- answers
ANSWERS = st.one_of(
    st.none(),
    st.integers(),
    st.text(max_size=8),
    st.sampled_from(["draw", "recycle", "Kc", "Ac+Qh", "As+As", "Kh+Qs"]),
    st.tuples(st.sampled_from(DECK), st.sampled_from(DECK)).map(lambda p: f"{p[0]}+{p[1]}"),
    st.sampled_from(DECK).map(Move.king),  # a lone card, King or not
)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(RULES), st.integers(1, 10**6), st.lists(ANSWERS, min_size=1, max_size=30))
def test_whatever_a_strategy_answers_is_played_or_refused_with_the_engines_reason(
    rules, deal, answers
):
    asked: list[object] = []

    def scripted(view: PlayerView) -> object:
        asked.append(answers[len(asked)] if len(asked) < len(answers) else "draw")
        return asked[-1]

    game = Game.deal(deal, rules)
    ended = play_out(scripted, game, player="scripted", deal=deal)
    replayed = Game.deal(deal, rules)
    replayed.replay(game.log)  # every move it made was legal, in the order given
    assert replayed.position == game.position
    if ended.ending == "refused":
        assert len(game.log) == len(asked) - 1  # the refused answer changed nothing
        assert ended.reason == game.refusal(asked[-1]) is not None
        assert ended.answer == _written(asked[-1])
    else:
        assert ended.ending in ("won", "stuck", "stalled") and len(game.log) == len(asked)


def _written(answer: object) -> str:
    """How a refused answer is kept: a move in notation, anything else as its repr."""
    try:
        return str(Move.parse(answer))
    except IllegalMove:
        return repr(answer)


def test_a_refused_move_ends_the_game_with_the_answer_and_the_reason():
    game = Game.deal(42, "classic")
    ended = play_out(lambda view: "5h+8c", game, player="careless", deal=42)
    assert (ended.ending, ended.answer) == ("refused", "5h+8c")
    assert ended.reason == Game.deal(42, "classic").refusal("5h+8c")
    assert game.log == []  # nothing was played
    ended = play_out(lambda view: 17, game, player="careless", deal=42)
    assert (ended.ending, ended.answer) == ("refused", "17") and "move" in ended.reason


def test_an_exception_in_a_strategy_names_the_deal_and_the_move():
    def flaky(view: PlayerView) -> Move:
        if view.move_count == 4:
            return view.stock[0]  # a face-down card: the strategy's bug
        return Move.parse("draw")

    with pytest.raises(StrategyError) as caught:
        play_out(flaky, Game.deal(42, "classic"), player="flaky", deal=42)
    error = caught.value
    assert (error.deal, error.move) == (42, 5)
    assert "deal 42" in str(error) and "at move 5" in str(error) and "flaky" in str(error)
    assert error.error.startswith("UnseenCard") and "view.stock[0]" in error.details
    assert isinstance(error.__cause__, UnseenCard)
    again = pickle.loads(pickle.dumps(error))  # it crosses from a worker process whole
    assert (str(again), again.deal, again.move, again.details) == (
        str(error),
        42,
        5,
        error.details,
    )


def test_a_strategy_is_a_function_or_an_object_with_choose():
    class Keeper:
        name = "keeper"

        def choose(self, view):
            return greedy(view)

    game = Game.deal(3, "classic")
    a, b = game.copy(), game.copy()
    play_out(Keeper(), a, player="keeper", deal=3)
    play_out(greedy, b, player="greedy", deal=3)
    assert a.log == b.log
    with pytest.raises(TypeError, match="a strategy is a function"):
        play_out("greedy", game.copy(), player="?", deal=3)


def test_unlimited_passes_end_a_pass_that_removed_nothing():
    game = Game.deal(42, Rules(passes=None))
    ended = play_out(lambda view: Move.parse("draw") if view.stock_count else "recycle",
                     game, player="drawer", deal=42)  # fmt: skip
    assert ended.ending == "stalled" and game.cleared == 0
    assert game.log.count("recycle") == 2  # the second pass removed nothing either


def test_the_pyramid_as_dealt_is_part_of_the_view():
    view = PlayerView.of(Game.deal(42))
    assert len(view.dealt) == PYRAMID_SIZE and all(isinstance(c, Card) for c in view.dealt)
    assert view.stock_order == (None,) * 24  # nothing turned up yet
