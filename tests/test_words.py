"""The board speaks the player's language: every sentence a player reads names cards in symbols
(10♠, 5♥ + 8♣), never in notation (Ts, 5h+8c), and uses one verdict vocabulary; the fields code
reads keep their notation."""

from __future__ import annotations

import itertools
import json
import re

import pytest
from helpers import CARD_TOKEN, LAYOUT, SOLUTION, random_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramid_widget import Card, Game, Move, hint, review
from pyramid_widget import words as vocabulary
from pyramid_widget.rules import PRESETS, Rules
from pyramid_widget.session import GameSession
from pyramid_widget.view import catalog, rules_view
from pyramid_widget.words import VERDICT_WORDS

RULES = [*PRESETS, "classic,passes=1", "classic,passes=unlimited"]


def notation_in(text: str) -> list[str]:
    return CARD_TOKEN.findall(text)


def test_cards_and_moves_have_a_players_form_beside_their_notation():
    assert Card.parse("Ts").symbol == "10♠" and str(Card.parse("Ts")) == "Ts"
    assert Move.parse("3d+Ts").text == "3♦ + 10♠" and str(Move.parse("3d+Ts")) == "3d+Ts"
    assert Move.parse("Kh").text == "K♥" and Move.parse("draw").text == "draw"


def test_a_wrong_pair_names_its_cards_and_what_they_make():
    game = Game.deal(42)  # 2♣ 8♥ 8♣ 4♦ 7♥ K♠ 10♠ in play
    refused = 0
    for a, b in itertools.combinations([c for c in game.exposed if not c.is_king], 2):
        if not a.pairs_with(b):
            total = a.value + b.value
            x, y = Move.pair(a, b).cards  # in the order the move names them
            assert (
                game.refusal(Move.pair(a, b)) == f"{x.symbol} and {y.symbol} make {total}, not 13"
            )
            refused += 1
    assert refused >= 10
    assert game.refusal("2c+8h") == "2♣ and 8♥ make 10, not 13"


def test_no_refusal_speaks_in_notation():
    refusals = [value for name, value in vars(vocabulary).items() if name.isupper() and
                isinstance(value, str)]  # fmt: skip
    assert len(refusals) >= 15
    for words in refusals:
        assert not notation_in(words), words


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    rules=st.sampled_from(RULES),
    deal=st.integers(1, 10_000),
    steps=st.integers(0, 40),
    seed=st.integers(0, 999),
    fair=st.booleans(),
)
def test_a_hint_says_what_to_do_in_symbols_and_keeps_its_notation(rules, deal, steps, seed, fair):
    game = random_game(rules, deal, steps, seed)
    advice = hint(game, fair=fair, time_limit=0.05)
    assert not notation_in(advice.reason), advice.reason
    assert advice.reason[:1].isupper() and advice.reason.endswith((".", ".)"))
    assert advice.verdict in VERDICT_WORDS
    if advice.move is not None:
        move = Move.parse(advice.move)
        assert str(move) == advice.move  # code reads notation
        if move.kind in ("pair", "king"):
            assert all(card.symbol in advice.reason for card in move.cards), advice.reason
    if advice.chance == 0.0 and advice.verdict == "unknown":
        assert advice.reason.endswith(vocabulary.BEST_TRY)
    assert len(advice.reason.split()) <= 15, advice.reason  # the move and one reason, short


def test_a_review_speaks_in_symbols_and_its_rows_keep_notation():
    game = Game.from_layout(LAYOUT, "open-stock")
    for move in SOLUTION[:15]:
        game.play(move)
    while game.stock_count:
        game.draw()
    result = review(game, hints=True, hint_time=0.05)
    readable = re.sub(r"<[^>]+>", " ", result._repr_html_())  # what the page shows, not its tags
    for text in (result.summary, str(result), readable):
        assert not notation_in(text), text
    for row, step in zip(result.to_rows(), result.steps, strict=True):
        assert Move.parse(row["move"]) == Move.parse(step.move)
        assert step.move_text == Move.parse(step.move).text
    for line, step in zip(str(result).splitlines()[2:], result.steps, strict=True):
        assert VERDICT_WORDS[step.before] in line and VERDICT_WORDS[step.after] in line


def test_everything_the_board_says_in_sentences_names_cards_in_symbols():
    session = GameSession("open-stock", layout=LAYOUT, store=None, threads=False)
    for move in SOLUTION:
        session.play(move)
    session.reviews.request()
    state = session.state
    sentences = [
        state["review"]["summary"],
        *(row["move_text"] for row in state["review"]["rows"]),
        *(section["text"] for section in state["rules"]["explained"]),
        *(control["why"] or "" for control in state["controls"].values()),
        *state["records"]["notes"],
    ]
    for sentence in sentences:
        assert not notation_in(sentence), sentence
    # Code-facing fields keep notation.
    assert all(Move.parse(row["move"]) for row in state["review"]["rows"])
    assert state["controls"]["hint"] == {"enabled": False, "why": "The game is already won."}


@pytest.mark.parametrize("rules", RULES)
def test_the_rules_panel_is_made_from_the_rules(rules):
    explained = rules_view(Rules.parse(rules), session_options()).get("explained")
    text = " ".join(section["text"] for section in explained)
    parsed = Rules.parse(rules)
    assert ("face up" in text) is parsed.stock_in_play
    assert ("whole deck" in text) is (parsed.win == "deck")
    assert ("points" in text) is parsed.scoring
    passes = {1: "once", None: "as often as you like"}.get(parsed.passes, f"{parsed.passes} passes")
    assert passes in text


def session_options():
    return GameSession(store=None, threads=False).options


def test_the_verdict_words_reach_the_front_end_from_one_table():
    assert catalog()["verdicts"] == VERDICT_WORDS
    assert json.dumps(catalog(), ensure_ascii=False).count("cannot be won from here") == 1
