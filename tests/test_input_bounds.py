"""What comes from outside stays in bounds: a refusal quotes at most a short prefix of what it
was given, however long the field; a code's counts are ones play can reach; and a number of
thousands of digits is refused in the player's words."""

from __future__ import annotations

import functools
import itertools
import json

import pytest
from helpers import random_game
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pyramid_widget import Card, Game, Move, Rules, puzzles, svg
from pyramid_widget.deals import check_deal_number
from pyramid_widget.intents import Desk
from pyramid_widget.rules import PRESETS
from pyramid_widget.session import GameSession
from pyramid_widget.words import QUOTE_MOST, quoted

SEQ = itertools.count(1)
SOME = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
SHORT_REASON = 400
"""The longest refusal a test accepts: its own words and a quote of at most `QUOTE_MOST`
characters (the longest lists every action's name)."""

huge_text = st.builds(
    lambda head, fill, times, tail: head + fill * times + tail,
    st.text(max_size=50),
    st.sampled_from(["x", "9", "\x00", "é", "'", "♥", ",", "#", ":", "\t\u2028x"]),
    st.integers(100, 300_000),
    st.text(max_size=5),
)
huge_value = st.one_of(
    huge_text,
    st.integers(10**40, 10**4000),
    st.integers(-(10**4000), -(10**40)),
    st.lists(huge_text, min_size=1, max_size=3),
    st.dictionaries(huge_text, huge_text, min_size=1, max_size=2),
)


# ------------------------------------------------------------------ the quote itself
@SOME
@given(value=huge_value)
def test_a_quote_is_short_whatever_it_quotes(value):
    """Whatever it quotes (text with escapes, a number of thousands of digits, a list)."""
    assert len(quoted(value)) <= QUOTE_MOST + 4


@pytest.mark.parametrize("value", ["Zz", "", "x" * QUOTE_MOST, 7, 10**39, None, ["5h"]])
def test_what_is_short_is_quoted_whole(value):
    assert quoted(value) == repr(value)


# ------------------------------------------------------------------ messages from a browser
@pytest.fixture(scope="module")
def desk() -> Desk:
    return Desk(GameSession("classic", deal=7, store=None, threads=False))


def _messages(field: object) -> list[dict]:
    """Intents that carry `field` where a front end may put anything."""
    shaped = [field] if not isinstance(field, str) else [field, f"classic#{field}", f"{field}#5"]
    return [
        *({"action": "rules", "name": text} for text in shaped),
        {"action": "option", "name": field, "value": True},
        {"action": "puzzle", "id": field},
        {"action": "puzzle", "theme": field},
        {"action": "puzzle", "difficulty": field},
        *({"action": "new", "code": text} for text in shaped),
        {"action": "new", "code": f"pw1:classic:{field}"},
        {"action": "tap", "target": field},
        {"action": "tap", "target": "stock", "face": field},
        {"action": "tap", "target": "5h", "selected": field},
        {"action": "pair", "cards": [field, "5h"]},
        {"action": field},
        {"type": field, "action": "draw"},
    ]


@SOME
@given(field=huge_value)
@example(field="x" * 2**20)
def test_a_refused_intent_quotes_at_most_a_prefix_of_its_fields(desk, field):
    session = desk.session
    for n, message in enumerate(_messages(field)):
        content = {"type": "intent", "seq": 0, "view": f"v{n}", "version": session.version}
        before = session.game.to_json()
        answer = desk.handle({**content, **message, "seq": next(SEQ)})
        assert not answer["ok"], message
        assert len(answer["reason"]) <= SHORT_REASON, answer["reason"][:200]
        assert len(json.dumps(answer)) <= 4 * SHORT_REASON
        assert session.game.to_json() == before and session.puzzles.run is None


# ------------------------------------------------------------------ calls from Python
SESSION = GameSession("classic", deal=1, store=None, threads=False)


def _calls(field: object) -> list:
    """Public calls given `field` where they take text or a number."""
    text = field if isinstance(field, str) else None
    calls = [
        lambda: Rules.coerce(field),
        lambda: Game.from_code(field),
        lambda: Card.parse(field),
        lambda: Move.parse(field),
        lambda: puzzles.load(theme=field),
        lambda: svg.board(Game.deal(1), theme=field),
        lambda: SESSION.set_option(field, True),
        lambda: Rules(passes=field),
        lambda: Rules(win=field),
    ]
    if text is not None:
        calls += [
            lambda: Rules.parse(f"classic,{text}"),
            lambda: Rules.parse(f"classic,scoring={text}"),
            lambda: Game.from_code(f"classic#{text}"),
            lambda: Game.from_layout(text),
            lambda: Game.from_layout(f"{text} {Game.deal(1).layout}"),
            lambda: puzzles.load().get(text),
        ]
    else:
        calls.append(lambda: check_deal_number(field))
    return calls


@SOME
@given(field=huge_value)
@example(field="9" * 2**20)
def test_a_refusal_from_python_quotes_at_most_a_prefix_of_what_it_was_given(field):
    for call in _calls(field):
        try:
            call()  # a field that happens to be good is taken
        except (ValueError, KeyError) as refused:  # KeyError: a puzzle id a set does not hold
            assert len(str(refused)) <= SHORT_REASON, str(refused)[:200]


# ------------------------------------------------------------------ counts a code carries
RULES = [*PRESETS, "classic,passes=1", "classic,passes=unlimited", "open-stock,passes=unlimited"]
games = st.builds(
    functools.partial(random_game, undo=0.1),
    st.sampled_from(RULES),
    st.integers(1, 5000),
    st.integers(0, 300),
    st.integers(0, 10_000),
)


def with_field(code: str, field: int, text: str) -> str:
    parts = code.split(":")
    parts[field] = text
    return ":".join(parts)


MOVES, PASS = 7, 6  # the move count's and the pass number's fields in a position code


@SOME
@given(game=games)
def test_every_position_play_reaches_has_a_code_that_is_taken(game):
    """However long the play, with recycles and undo: the counts it reaches are believed."""
    again = Game.from_code(game.code)
    assert (again.position, again.seen) == (game.position, game.seen)


@SOME
@given(game=games, extra=st.integers(0, 10**16 - 1), digits=st.integers(17, 5000))
def test_a_move_count_play_cannot_reach_is_refused_and_changes_nothing(game, extra, digits):
    """No play makes more moves than 28 + 24 removals, 24 draws a pass and a recycle between
    passes; a code that says more is refused, in words, and the board keeps its game."""
    most = 28 + 24 + 24 * game.pass_number + game.pass_number - 1
    too_many = min(most + 1 + extra, 10**16 - 1)
    session = GameSession(game.rules, deal=3, store=None, threads=False)
    before = session.game.to_json()
    for count in (str(too_many), "9" * digits, str(10**30)):
        forged = with_field(game.code, MOVES, count)
        with pytest.raises(
            ValueError, match=r"impossible position: .* at most \d+ moves|count above|digits"
        ):
            Game.from_code(forged)
        assert not Desk(session).handle(
            {"type": "intent", "seq": next(SEQ), "action": "new", "code": forged}
        )["ok"]
        assert session.game.to_json() == before


def test_the_bound_is_the_count_of_a_line_of_draws_and_recycles():
    """Drawing the whole stock on every pass takes exactly as many moves as the bound allows:
    one move more is refused."""
    game = Game.deal(1, "classic,passes=unlimited")
    for _ in range(2):
        for _ in range(24):
            game.draw()
        game.recycle()
    for _ in range(5):
        game.draw()
    assert Game.from_code(game.code).move_count == 55
    with pytest.raises(ValueError, match="at most 55 moves, not 56"):
        Game.from_code(with_field(game.code, MOVES, "56"))


# ------------------------------------------------------------------ numbers too long to read
@pytest.mark.parametrize(
    "read",
    [
        lambda digits: Rules.parse(f"classic,passes={digits}"),
        lambda digits: Game.from_code(f"classic,passes={digits}#7"),
        lambda digits: Game.from_code(with_field(Game.deal(1).code, 1, f"classic,passes={digits}")),
        lambda digits: Game.from_code(with_field(Game.deal(1).code, PASS, digits)),
        lambda digits: Game.from_code(f"classic#{digits}"),
        lambda digits: Game.from_json(
            Game.deal(1).to_json().replace('"deal_number": 1', f'"deal_number": {digits}')
        ),
        lambda digits: Rules(passes=10 ** len(digits) - 1),  # as many digits, read from no text
        lambda digits: Game.deal(10 ** len(digits) - 1),
    ],
)
def test_a_count_of_thousands_of_digits_is_refused_in_the_players_words(read):
    for digits in ("9" * 5000, "1" + "0" * 4300, "7" * 200):
        with pytest.raises(ValueError) as refused:
            read(digits)
        assert "sys.set_int_max_str_digits" not in str(refused.value)
        assert len(str(refused.value)) <= SHORT_REASON


@pytest.mark.parametrize("passes", ["0", "1000", "²", "٣", "+3", "3_0", " ", "-1", "1e3"])
def test_a_pass_count_is_a_number_from_1_to_999(passes):
    with pytest.raises(ValueError, match="passes must be a number from 1 to 999 or 'unlimited'"):
        Rules.parse(f"classic,passes={passes}")
    assert Rules.parse("classic,passes=999").passes == 999
    assert Rules.parse("classic,passes=001").name == "classic,passes=1"
