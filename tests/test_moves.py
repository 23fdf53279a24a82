"""Typed moves: `Move.parse` reads notation and the card symbols a player reads ("A♠ + Q♥",
"A♠+Q♥", "a♠ q♥", "10♠" or "T♠", "♠A"), wherever a move is typed (`Game.play`, `w.play`,
`Puzzle.check`); anything else gets one clear refusal and changes nothing (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramid_widget import DECK, Card, Game, IllegalMove, Move, PyramidWidget, puzzles
from pyramid_widget.cards import SUIT_SYMBOLS

SOME = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

cards = st.sampled_from(DECK)
moves = st.one_of(
    st.just(Move.parse("draw")),
    st.just(Move.parse("recycle")),
    cards.map(Move.king),
    st.tuples(cards, cards).map(lambda pair: Move.pair(*pair)),
)

WHITE = {"c": "♧", "d": "♢", "h": "♡", "s": "♤"}


@st.composite
def spelled(draw, card: Card) -> str:
    """`card` as a person might type it: its rank (10 or T for ten) and its suit (a letter, a
    symbol, black or white, maybe with an emoji mark), either way round, in any case."""
    rank = "10" if card.rank == 10 and draw(st.booleans()) else str(card)[0]
    suit = draw(st.sampled_from([card.suit, SUIT_SYMBOLS[card.suit], WHITE[card.suit]]))
    if suit == SUIT_SYMBOLS[card.suit] and draw(st.booleans()):
        suit += "\ufe0f"  # ♠️ from an emoji keyboard
    rank = rank.lower() if draw(st.booleans()) else rank
    suit = suit.upper() if draw(st.booleans()) else suit
    gap = draw(st.sampled_from(["", "", " "]))
    return rank + gap + suit if draw(st.booleans()) else suit + gap + rank


@SOME
@given(move=moves)
def test_every_move_reads_back_from_its_symbols_and_its_notation(move):
    assert Move.parse(move.text) == move
    assert Move.parse(str(move)) == move


@SOME
@given(data=st.data(), first=cards, second=cards)
def test_a_pair_reads_however_it_is_spelled(data, first, second):
    apart = data.draw(st.sampled_from([" + ", "+", " ", "  ", ",", ", ", " & ", "\uff0b"]))
    text = data.draw(spelled(first)) + apart + data.draw(spelled(second))
    assert Move.parse(f" {text} ") == Move.pair(first, second), text
    assert Move.parse(data.draw(spelled(first))) == Move.king(first)


@pytest.mark.parametrize(
    "text",
    ["A♠ + Q♥", "A♠+Q♥", "a♠ q♥", "♠A + ♥Q", "Q♥ + A♠", "as+qh", "As Qh", "A ♠ + Q ♥", "A♠️+Q♥️"],
)
def test_the_spellings_a_student_types_name_the_same_pair(text):
    assert Move.parse(text) == Move.parse("As+Qh")


def test_ten_reads_as_10_or_t_and_the_words_in_any_case():
    assert Move.parse("10♠") == Move.parse("T♠") == Move.parse("t♠") == Move.parse("Ts")
    assert Move.parse(" Draw ") == Move.parse("draw") and Move.parse("RECYCLE").kind == "recycle"


@pytest.mark.parametrize(
    "text",
    ["", " ", "A", "A♠ Q", "1♠", "11♠", "♠♠", "AQ", "A♠ + + Q♥", "A♠ + Q♥ + K♦", "drawing",
     "5h+", "A♠ - Q♥", "A♠Q", "X♠", "A♠ and Q♥", "♠", "A" * 41, 7, None, ["As", "Qh"]],
)  # fmt: skip
def test_anything_else_is_refused_saying_how_a_move_is_written(text):
    game = Game.deal(1)
    before = (game.to_json(), game.code)
    with pytest.raises(IllegalMove) as refused:
        game.play(text)
    reason = refused.value.reason
    assert reason.startswith("not a move: ") and "A♠ + Q♥" in reason and "draw" in reason
    assert (game.to_json(), game.code) == before


@SOME
@given(text=st.text(max_size=60))
def test_any_text_is_read_as_one_move_or_refused_and_changes_nothing(text):
    game = Game.deal(1)
    before = (game.to_json(), game.code)
    try:
        move = Move.parse(text)
    except IllegalMove as refused:
        assert refused.reason.startswith("not a move: ") and len(refused.reason) < 200
        with pytest.raises(IllegalMove):
            game.play(text)
        assert (game.to_json(), game.code) == before
        return
    assert Move.parse(move.text) == move  # what it read, it reads again the same way


@SOME
@given(text=st.text(alphabet="AaTtQqKk2910 +♠♥♦♣shdc,&\ufe0f", max_size=14))
def test_text_near_a_move_is_read_as_one_move_or_refused(text):
    """Text made of the very characters moves are written with: either one reading or a
    refusal, never an error of another kind."""
    try:
        move = Move.parse(text)
    except IllegalMove as refused:
        assert refused.reason.startswith("not a move: ")
        return
    assert move.kind in ("pair", "king") and Move.parse(move.text) == move


def test_a_puzzle_and_the_board_take_answers_in_symbols():
    puzzle = puzzles.load("classic", difficulty="easy")[0]
    answer = Move.parse(puzzle.answers[0].move)
    low, high = (card.symbol for card in answer.cards)
    for text in (f"{low} + {high}", f"{high}+{low}", f"{low.lower()} {high.lower()}"):
        assert puzzle.check(text).right, text
    board = PyramidWidget("classic", deal=1, store=None)
    board.puzzle(puzzle.id)
    assert board.play(f"{high.lower()} {low.lower()}") == answer
    assert board.state["puzzle"]["phase"] == "play"
