"""What comes from outside stays in bounds: a refusal quotes at most a short prefix of what it
was given, however long the field."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pyramid_widget import Card, Game, Move, Rules, puzzles, svg
from pyramid_widget.deals import check_deal_number
from pyramid_widget.intents import Desk
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
