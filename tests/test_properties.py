"""Properties over random legal play in every preset (hypothesis)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramid_widget import DECK, PRESETS, Card, Game, IllegalMove, Move, Rules

RULES = [*PRESETS.values(), Rules(passes=None), Rules(stock_in_play=True, passes=None, win="deck")]


def snapshot(game: Game) -> tuple:
    return (game.position, game.log, game.redo_moves, game.seen, game.outcome, game.legal_moves())


def places(game: Game) -> list[Card]:
    gone = [c for c in game.cards if c not in game.pyramid and c not in game.stock + game.waste]
    return [c for c in game.pyramid if c is not None] + list(game.stock + game.waste) + gone


def random_games():
    @st.composite
    def build(draw):
        rules = draw(st.sampled_from(RULES))
        game = Game.deal(draw(st.integers(1, 2**32 - 1)), rules)
        steps = draw(st.lists(st.integers(0, 10**6), max_size=120))
        return game, steps

    return build()


common = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@common
@given(random_games())
def test_every_card_is_always_in_exactly_one_place(case):
    game, steps = case
    for step in steps:
        legal = game.legal_moves()
        if not legal:
            break
        game.play(legal[step % len(legal)])
        assert sorted(places(game)) == sorted(DECK)
        assert len(game.log) == game.move_count


@common
@given(random_games())
def test_undo_after_any_move_restores_an_identical_state(case):
    game, steps = case
    for step in steps:
        legal = game.legal_moves()
        if not legal:
            break
        before = snapshot(game)
        move = game.play(legal[step % len(legal)])
        seen_after = game.seen
        assert game.undo() == move
        position, log, _redo, _seen, outcome, moves = before
        assert (game.position, game.log, game.outcome, game.legal_moves()) == (
            position, log, outcome, moves
        )  # fmt: skip
        assert game.seen == seen_after  # what was seen stays seen
        game.redo()


@common
@given(random_games())
def test_save_and_code_round_trip(case):
    game, steps = case
    for n, step in enumerate(steps):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(legal[step % len(legal)])
        if n % 7 == 3:
            game.undo()
    back = Game.from_json(game.to_json())
    assert snapshot(back) == snapshot(game) and back.rules == game.rules
    assert back.layout == game.layout and back.deal_number == game.deal_number
    coded = Game.from_code(game.code)
    assert coded.position == game.position and coded.legal_moves() == game.legal_moves()


@common
@given(random_games(), st.data())
def test_an_illegal_move_changes_nothing(case, data):
    game, steps = case
    for step in steps[:40]:
        legal = game.legal_moves()
        if not legal:
            break
        game.play(legal[step % len(legal)])
    a, b = data.draw(st.sampled_from(DECK)), data.draw(st.sampled_from(DECK))
    candidates = [Move.pair(a, b) if a != b else Move.king(a), Move("draw"), Move("recycle")]
    for move in candidates:
        if move in game.legal_moves():
            continue
        before = snapshot(game)
        try:
            game.play(move)
        except IllegalMove as error:
            assert error.reason
        else:
            raise AssertionError(f"{move} was played but not listed as legal")
        assert snapshot(game) == before
