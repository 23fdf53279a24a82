"""Trust: bad input is refused with a clear reason and changes nothing; forged codes, saves and
moves are refused; a message delivered twice is applied once; and nothing sent to a front end
names an unseen card or a deal the player did not choose."""

from __future__ import annotations

import contextlib
import functools
import io
import json
import random
import string
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest
from helpers import LAYOUT, SOLUTION, cards_named, random_game
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from pyramid_widget import DECK, Card, Game, IllegalMove, Move, deal_winnable, hint, intents, solve
from pyramid_widget import review as review_game
from pyramid_widget.__main__ import main
from pyramid_widget.intents import Desk, Inbox
from pyramid_widget.position import Position
from pyramid_widget.rules import PRESETS
from pyramid_widget.session import GameSession
from pyramid_widget.solver import winnability
from pyramid_widget.words import ANSWERED

RULES = [*PRESETS, "classic,passes=1", "classic,passes=unlimited", "scored,win=deck"]
FUZZ = settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))


games = st.builds(
    functools.partial(random_game, undo=0.15),
    st.sampled_from(RULES),
    st.integers(1, 5000),
    st.integers(0, 80),
    st.integers(0, 10_000),
)
junk = st.one_of(
    st.text(max_size=12),
    st.integers(-(2**70), 2**70).map(str),
    st.sampled_from(["", "0", "-1", "ffffffffff", "1e3", "nan", " 7", "0x10", "٣"]),
)


# ------------------------------------------------------------------ position codes
@FUZZ
@given(game=games, field=st.integers(1, 9), text=junk)
def test_a_tampered_code_is_refused_or_names_a_reachable_position(game, field, text):
    parts = game.code.split(":")
    parts[field] = text
    code = ":".join(parts)
    try:
        again = Game.from_code(code)
    except ValueError as error:
        assert str(error)  # a reason, never an empty message
        event("refused")
        return
    event("accepted")
    # Accepted: it is a sound game whose own code round-trips and whose moves play.
    assert Game.from_code(again.code).code == again.code
    for move in again.legal_moves()[:3]:
        again.copy().play(move)


def forged(game: Game, **changes: object) -> str:
    """`game`'s code with some position fields changed (as a forger would)."""
    parts = game.code.split(":")
    fields = {"removed": 3, "rest": 4, "waste": 5, "pass": 6, "moves": 7, "score": 8, "seen": 9}
    for name, value in changes.items():
        parts[fields[name]] = str(value)
    return ":".join(parts)


def near_win(rules: str = "open-stock,scoring=true") -> Game:
    game = Game.from_layout(LAYOUT, rules)
    for move in SOLUTION[:-1]:
        game.play(move)
    return game


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"score": 10**15}, "a score of 1000000000000000 is not what removing these cards earns"),
        ({"score": 5}, "is not what removing these cards earns"),
        ({"moves": 1}, "1 moves cannot remove"),
        ({"pass": 1}, "a stock card left before it was turned up"),
        ({"seen": "000000"}, "a card that was turned up is not marked seen"),
    ],
)
def test_forged_codes_are_refused_with_the_reason(changes, reason):
    with pytest.raises(ValueError, match=reason):
        Game.from_code(forged(near_win(), **changes))


def test_the_cards_seen_must_be_what_draws_could_have_shown():
    game = Game.deal(3, "classic")
    for _ in range(5):
        game.draw()
    assert Game.from_code(game.code).seen == game.seen
    with pytest.raises(ValueError, match="seen in order, not with gaps"):
        Game.from_code(forged(game, seen=f"{0b1011111:06x}"))  # a card skipped
    with pytest.raises(ValueError, match="not marked seen"):
        Game.from_code(forged(game, seen=f"{0b111:06x}"))  # a card under the waste top


def test_a_score_under_rules_that_do_not_score_is_refused():
    with pytest.raises(ValueError, match="do not score"):
        Game.from_code(forged(Game.deal(3), score=10))


# ------------------------------------------------------------------ saves
@FUZZ
@given(
    game=games,
    key=st.sampled_from(
        ["start", "moves", "redo", "seen", "position", "rules", "deal_number", "version", "format"]
    ),
    value=st.one_of(
        junk, st.lists(junk, max_size=3), st.none(), st.integers(), st.dictionaries(junk, junk)
    ),
)
def test_a_tampered_save_is_refused_or_loads_as_a_sound_game(game, key, value):
    data = json.loads(game.to_json())
    data[key] = value
    try:
        again = Game.from_json(json.dumps(data))
    except ValueError as error:
        assert str(error)
        event("refused")
        return
    event("accepted")
    assert Game.from_json(again.to_json()).to_json() == again.to_json()


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[" * 100_000, "nested too deeply"),
        ('{"a": ' * 50_000, "nested too deeply|damaged"),
        ("", "damaged or truncated"),
        (b"\xff\xfe", "not text|damaged"),
        (None, "JSON text"),
        (42, "JSON text"),
    ],
)
def test_damaged_saves_are_a_value_error_with_a_reason(text, reason):
    with pytest.raises(ValueError, match=reason):
        Game.from_json(text)


def test_a_save_that_names_a_numbered_deal_starts_at_that_deals_start():
    game = Game.deal(42, "classic")
    game.play("Ks")
    game.draw()
    data = json.loads(game.to_json())
    data["start"] = game.code  # a position four moves in, still calling itself deal 42
    data["moves"], data["redo"] = [], []
    with pytest.raises(ValueError, match="starts at its deal's start"):
        Game.from_json(json.dumps(data))
    assert Game.from_json(game.to_json()).deal_code == "classic#42"


# ------------------------------------------------------------------ moves and layouts
cards = st.sampled_from(DECK)
odd = st.one_of(st.none(), st.integers(), st.text(max_size=3), st.just("5h"), cards)


@FUZZ
@given(
    game=games,
    kind=st.one_of(st.sampled_from(["pair", "king", "draw", "recycle"]), st.text(max_size=6)),
    parts=st.lists(st.one_of(cards, odd), max_size=3),
)
def test_a_hand_built_move_is_checked_before_it_is_applied(game, kind, parts):
    before = (game.to_json(), game.code)
    try:
        move = Move(kind, tuple(parts))
    except IllegalMove as error:
        assert error.reason.startswith("not a move")
        event("refused: not a move")
        return
    try:
        game.play(move)
    except IllegalMove:
        assert (game.to_json(), game.code) == before
        event("refused by the rules")
        return
    event("played")
    assert move in Game.from_json(before[0]).legal_moves()  # it was legal after all
    assert Game.from_json(game.to_json()).code == game.code  # and the game still saves


def test_a_king_move_cannot_carry_an_unseen_card_along():
    game = Game.deal(42)
    king, unseen = Card.parse("Ks"), game.stock[-1]
    for bad in [("king", (king, unseen)), ("king", ()), ("pair", (king,)), ("draw", (king,))]:
        with pytest.raises(IllegalMove, match="not a move"):
            Move(*bad)
    assert Move("pair", (Card.parse("8c"), Card.parse("5h"))) == Move.parse("5h+8c")


@FUZZ
@given(
    text=st.one_of(
        st.text(max_size=200),
        st.lists(st.sampled_from(DECK), max_size=60).map(lambda cs: " ".join(map(str, cs))),
    )
)
def test_layouts_are_refused_with_a_reason(text):
    try:
        game = Game.from_layout(text)
    except ValueError as error:
        assert str(error)
        event("refused")
        return
    event("accepted")
    assert len(set(game.cards)) == 52


@pytest.mark.parametrize(
    "deck", [range(52), "Ac 2c", [None] * 52, [DECK[0]] * 52, DECK[:51], (c for c in DECK[:3])]
)
def test_a_deal_must_be_52_distinct_cards(deck):
    with pytest.raises(ValueError):
        Game(deck)


def test_a_hand_built_position_is_checked():
    start = Game.deal(1).start
    for bad in [
        replace(start, removed=1),  # the apex gone first
        replace(start, pass_number=0),
        replace(start, waste_count=30),
        replace(start, rest=start.rest[::-1]),
        replace(start, rest=(*start.rest[:-1], DECK[0])),
        replace(start, move_count=True),
    ]:
        with pytest.raises(ValueError, match="impossible position"):
            Game(Game.deal(1).cards, start=bad)
    assert Game(Game.deal(1).cards, start=Position(0, start.rest, 0, 1)).code


# ------------------------------------------------------------------ messages from a browser
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
ACTIONS = sorted(intents.ACTIONS)
FIELDS = [
    "target",
    "face",
    "selected",
    "cards",
    "number",
    "daily",
    "code",
    "name",
    "value",
    "auto",
    "moves",
    "version",
    "seq",
    "view",
    "type",
    "action",
]


@pytest.fixture(scope="module")
def fuzz_session() -> GameSession:
    session = GameSession("open-stock", deal=7, store=None, threads=False)
    session.hints.time_limit = 0.01
    return session


@FUZZ
@given(
    action=st.one_of(st.sampled_from(ACTIONS), json_values),
    fields=st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=4),
)
def test_no_message_reaches_the_catch_all_and_a_refused_one_changes_nothing(
    fuzz_session, action, fields
):
    session = fuzz_session
    message = {
        "type": "intent",
        "seq": 10**9 + random.randrange(10**9),
        "view": "fuzz",
        "version": session.version,
        "action": action,
        **fields,
    }
    before = (session.game.to_json(), session.state)
    answer = Desk(session).handle(message)
    assert answer is not None and answer["type"] == "ack"
    assert not (answer["reason"] or "").startswith("internal error"), answer
    event("applied" if answer["ok"] else "refused")
    if not answer["ok"]:
        assert answer["reason"]
        assert (session.game.to_json(), _but_puzzle_feedback(session.state)) == (
            before[0],
            _but_puzzle_feedback(before[1]),
        )
    if session.game.outcome is not None or len(session.moves) > 40:
        session.new_deal(7)  # keep the board playable for the next case
    if session.paused:
        session.unpause()


def _but_puzzle_feedback(state: dict) -> dict:
    """The state but for what a puzzle says of a move it refused (its words and its count of
    wrong tries: the one thing a refused move is meant to change)."""
    if state["puzzle"] is None:
        return state
    puzzle = {**state["puzzle"], "said": None, "said_kind": None, "score": None, "tally": None}
    return {**state, "version": None, "puzzle": puzzle}


def test_an_intent_delivered_three_times_is_applied_once():
    session = GameSession("classic", deal=3, store=None, threads=False)
    draw = {"type": "intent", "seq": 5, "view": "v", "version": 1, "action": "draw"}
    desk = Desk(session)
    answers = [desk.handle(dict(draw)) for _ in range(3)]
    assert answers[0] == answers[1] == answers[2] and answers[0]["ok"]
    assert session.moves == ["draw"]
    other_view = desk.handle({**draw, "view": "w"})  # another view's fifth intent
    assert other_view["ok"] and session.moves == ["draw", "draw"]
    for seq in range(6, 6 + 80):
        desk.handle({**draw, "seq": seq, "action": "dismiss"})
    too_old = desk.handle(dict(draw))  # long forgotten, yet still not applied again
    assert not too_old["ok"] and "answered long ago" in too_old["reason"]
    assert session.moves == ["draw", "draw"]


def test_a_view_is_not_forgotten_while_others_speak():
    """A draw re-sent by a view after 40 other views have spoken is not applied again."""
    session = GameSession("classic", deal=3, store=None, threads=False)
    desk = Desk(session)
    draw = {"type": "intent", "seq": 1, "view": "first", "version": 1, "action": "draw"}
    assert desk.handle(dict(draw))["ok"]
    for n in range(40):
        desk.handle({**draw, "view": f"other{n}", "action": "dismiss"})
    again = desk.handle(dict(draw))
    assert not again["ok"] and again["reason"] == ANSWERED and session.moves == ["draw"]


@pytest.mark.parametrize("seq", [2**53, 2**64, -1])
def test_a_sequence_number_javascript_cannot_count_is_refused_and_locks_nobody_out(seq):
    session = GameSession("classic", deal=3, store=None, threads=False)
    desk = Desk(session)
    draw = {"type": "intent", "view": "v", "version": 1, "action": "draw"}
    assert not desk.handle({**draw, "seq": seq})["ok"] and session.moves == []
    assert desk.handle({**draw, "seq": 2**53 - 1})["ok"] and session.moves == ["draw"]
    assert desk.handle({**draw, "seq": 5, "view": "w"})["ok"]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    views=st.integers(1, 6),
    size=st.sampled_from([10, 10_000, 1_000_000]),
    count=st.integers(1, 80),
)
def test_the_inbox_keeps_at_most_a_megabyte_of_answers(views, size, count):
    session = GameSession("classic", deal=3, store=None, threads=False)
    desk = Desk(session)
    for seq in range(1, count + 1):
        for view in range(views):
            message = {"type": "intent", "seq": seq, "view": f"v{view}", "action": "rules"}
            assert not desk.handle({**message, "name": "x" * size})["ok"]
    assert desk.inbox._bytes <= Inbox.BYTES
    kept = sum(
        len(json.dumps(answer)) for acks in desk.inbox._acks.values() for answer, _ in acks.values()
    )
    assert kept == desk.inbox._bytes


# ------------------------------------------------------------------ time limits
ENTRY_POINTS = {
    "solve": lambda limit: solve(Game.deal(1), time_limit=limit),
    "hint": lambda limit: hint(Game.deal(1), time_limit=limit),
    "review": lambda limit: review_game(Game.deal(1), time_limit=limit, hints=False),
    "deal_winnable": lambda limit: deal_winnable(seed=1, per_deal=limit),
    "winnability": lambda limit: winnability([1], time_limit=limit, executor=_one_thread()),
}


def _one_thread() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=1)


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
@pytest.mark.parametrize("bad", [float("nan"), -1, -0.5, "5", True, [1], float("-inf")])
def test_a_bad_time_limit_is_refused_naming_the_argument(entry, bad):
    with pytest.raises((ValueError, TypeError), match=r"time_limit|per_deal"):
        ENTRY_POINTS[entry](bad)


@pytest.mark.parametrize("entry", ["solve", "review", "winnability"])
def test_no_limit_is_none_or_infinity(entry):
    assert ENTRY_POINTS[entry](float("inf")) is not None
    assert ENTRY_POINTS[entry](None) is not None


@pytest.mark.parametrize("entry", ["hint", "deal_winnable"])
def test_a_hint_and_a_winnable_deal_need_a_finite_limit(entry):
    with pytest.raises(ValueError, match="finite"):
        ENTRY_POINTS[entry](float("inf"))


# ------------------------------------------------------------------ the command line
@settings(max_examples=60, deadline=None)
@given(
    deals=st.one_of(
        st.text(alphabet=string.digits + "-x ", max_size=12), st.integers(2**32, 2**40).map(str)
    ),
    limit=st.sampled_from(["nan", "-1", "0", "inf", "x", "1e999"]),
)
def test_every_bad_argument_exits_2_with_one_line(deals, limit):
    for args in (
        ["stats", "--deals", deals, "--time-limit", limit],
        ["solve", "--deal", deals, "--time-limit", limit],
    ):
        err, out = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            assert main(args) == 2
        assert err.getvalue().startswith("error: ") and err.getvalue().count("\n") == 1
        assert out.getvalue() == ""


def test_a_deal_number_past_the_last_exits_2_from_a_shell():
    done = subprocess.run(
        [sys.executable, "-m", "pyramid_widget", "stats", "--deals", "4294967296"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


# ------------------------------------------------------------------ nothing leaks
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(rules=st.sampled_from(RULES), seed=st.integers(0, 10**6))
def test_nothing_sent_names_an_unseen_card_or_a_deal_not_chosen(rules, seed):
    rng = random.Random(seed)
    session = GameSession(rules, store=None, threads=False)  # a random deal: not chosen
    session.hints.time_limit = 0.02
    sent: list[tuple[str, set[Card], int | None]] = []

    def watch(state: dict, moves: list[str]) -> None:
        game = session.game
        unseen = set(game.cards) - game.seen
        number = None if session.board.chosen or not unseen else game.deal_number
        sent.append((json.dumps(state, ensure_ascii=False), unseen, number))

    session.listen(watch)
    for seq in range(1, 80):
        game = session.game
        action = rng.choice(["tap"] * 6 + ["draw", "undo", "redo", "hint", "review", "new"])
        fields: dict = {}
        if action == "tap":
            fields = {
                "target": rng.choice(
                    [*map(str, game.in_play), "stock", "waste", str(rng.choice(DECK))]
                ),
                "selected": rng.choice([None, *map(str, game.in_play)]),
            }
            if fields["target"] in ("stock", "waste"):
                fields["face"] = game.pile_face(fields["target"])
        answer = Desk(session).handle(
            {
                "type": "intent",
                "seq": seq,
                "view": "v",
                "version": session.version,
                "action": action,
                **fields,
            }
        )
        game = session.game
        unseen = set(game.cards) - game.seen
        number = None if session.board.chosen or not unseen else game.deal_number
        sent.append((json.dumps(answer, ensure_ascii=False), unseen, number))
    for text, unseen, number in sent:
        assert not cards_named(text) & unseen, text
        if number is not None:
            assert str(number) not in text
