"""Puzzles mined from real deals: every shipped puzzle is what it claims (the solver agrees with
each answer and each alternative, no order of the unseen cards changes that, nothing unseen is
shown or named), mining is reproducible on any executor, and the set can be browsed and checked
as a widget or a notebook will."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import replace

import pytest
from helpers import CARD_TOKEN, cards_named
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramid_widget import Game, IllegalMove, Move, Rules, hint, puzzles, solve
from pyramid_widget.cards import LYING_ON, PYRAMID_SIZE
from pyramid_widget.puzzles import THEMES, Measures, Puzzle, PuzzleSet, mine
from pyramid_widget.puzzles.losses import plain_loss
from pyramid_widget.puzzles.players import after, greedy_choices
from pyramid_widget.puzzles.rating import DEPTH_CAP, DIFFICULTIES, difficulty
from pyramid_widget.puzzles.themes import Evidence, detect
from pyramid_widget.view import build_state

SHIPPED = puzzles.load()
BY_ID = {puzzle.id: puzzle for puzzle in SHIPPED}


def unseen(game: Game) -> list[int]:
    """Layout places of the cards still in the stock that the player has never seen."""
    left, seen = set(game.stock), game.seen
    return [i for i in range(PYRAMID_SIZE, 52) if game.cards[i] in left - seen]


def reordered(game: Game) -> list[Game]:
    """The position with its unseen cards in every other order (every permutation of the
    cards, one per sequence of values: suits never matter)."""
    places = unseen(game)
    hidden = [game.cards[i] for i in places]
    games, orders = [], {tuple(card.value for card in hidden)}
    for order in itertools.permutations(hidden):
        values = tuple(card.value for card in order)
        if values in orders:
            continue
        orders.add(values)
        cards = list(game.cards)
        for i, card in zip(places, order, strict=True):
            cards[i] = card
        swap = dict(zip(hidden, order, strict=True))
        pos = game.position
        start = replace(pos, rest=tuple(swap.get(card, card) for card in pos.rest))
        games.append(Game(cards, game.rules, start=start, seen=game.seen))
    return games


def keeps_win(game: Game, move: str) -> bool:
    status = solve(after(game, move), time_limit=60).status
    assert status != "unknown", f"undecided after {move}"
    return status == "winnable"


# ------------------------------------------------------------------ the shipped set
@pytest.mark.parametrize("preset", puzzles.SHIPPED)
def test_every_preset_ships_at_least_200_puzzles(preset):
    shipped = puzzles.load(preset)
    assert len(shipped) >= 200
    assert {puzzle.rules for puzzle in shipped} == {preset}
    assert len({puzzle.id for puzzle in shipped}) == len(shipped)


def test_the_solver_confirms_every_answer_and_every_alternative_of_every_shipped_puzzle():
    """The whole set, every move: answers keep the win, every other legal move loses it."""
    for puzzle in SHIPPED:
        game = puzzle.game()
        assert not game.is_won and solve(game, time_limit=60).status == "winnable", puzzle.id
        assert {c.move for c in puzzle.answers + puzzle.alternatives} == {
            str(move) for move in game.legal_moves()
        }
        for choice in puzzle.answers:
            assert keeps_win(game, choice.move), (puzzle.id, choice.move)
            assert Move.parse(choice.move).kind in ("pair", "king")
        for choice in puzzle.alternatives:
            assert not keeps_win(game, choice.move), (puzzle.id, choice.move)
        assert any(Move.parse(c.move).kind in ("pair", "king") for c in puzzle.alternatives)


def test_no_order_of_the_unseen_cards_changes_any_answer():
    """Every shipped puzzle with two unseen cards or more (up to six: 720 orders), every order."""
    checked = 0
    for puzzle in (p for p in SHIPPED if p.unseen >= 2):
        game = puzzle.game()
        for other in reordered(game):
            assert [str(m) for m in other.legal_moves()] == [str(m) for m in game.legal_moves()]
            for choice in puzzle.answers + puzzle.alternatives:
                assert keeps_win(other, choice.move) == choice.keeps_win, (puzzle.id, choice)
            checked += 1
    assert checked > 0, "the shipped set has puzzles with unseen cards to check"


# Met on a player's line of strict deal 48: two cards unseen, and 5♠ + 8♠ keeps the win in
# the deal as dealt, but not whatever order those two cards lie in.
UNFAIR = (
    "pw1:strict:7sTc2d8s3c4cAs7c7h6s7d5dAc2h8h5h2sKhQhQs6d6c9s4h4sTsAd3sQc8cJd9c9d4dJhJc3dTdKdKcQd2c"
    "JsAh9h3h8dKs5s5cTh6h:fffffe0:fe0080:5:1:34:0:3fffff"
)


def test_a_position_whose_answer_depends_on_the_unseen_order_is_refused():
    from pyramid_widget.puzzles.mining import _Oracle, is_fair, judge

    game = Game.from_code(UNFAIR)
    assert len(unseen(game)) == 2
    oracle = _Oracle(30.0)
    answers, _ = judge(game, oracle)
    assert [str(move) for move in answers] == ["5s+8s"]
    assert not is_fair(game, answers, oracle, 4)
    others = [{str(m) for m in o.legal_moves() if keeps_win(o, str(m))} for o in reordered(game)]
    assert any(winning != {"5s+8s"} for winning in others)


def test_a_puzzles_code_loads_and_shows_no_unseen_card():
    for puzzle in SHIPPED:
        game = puzzle.game()
        assert game.code == puzzle.code and game.move_count == puzzle.move
        hidden = {game.cards[i] for i in unseen(game)}
        assert len(hidden) == puzzle.unseen
        state = json.dumps(build_state(game, version=1), ensure_ascii=False)
        assert not cards_named(state) & hidden, puzzle.id
        words = [puzzle.task, *(c.why for c in puzzle.answers + puzzle.alternatives)]
        words += [c.text for c in puzzle.answers + puzzle.alternatives]
        named = set().union(*(cards_named(text) for text in words))
        assert named <= game.seen, (puzzle.id, named - game.seen)


def test_what_a_front_end_may_show_before_the_answer_names_no_unseen_card():
    """`Puzzle.about` holds no code, no answer, and no deal number while a card is unseen (a
    deal number names the whole layout)."""
    for puzzle in SHIPPED:
        shown = json.dumps(puzzle.about, ensure_ascii=False)
        assert "pw1:" not in shown and "answers" not in shown
        assert ("deal" in puzzle.about) == (puzzle.unseen == 0)
        game = puzzle.game()
        assert not cards_named(shown) & {game.cards[i] for i in unseen(game)}
        assert puzzle.about["task"] == puzzle.task


def test_puzzles_name_cards_in_symbols_for_players_and_notation_for_code():
    for puzzle in SHIPPED:
        for choice in puzzle.answers + puzzle.alternatives:
            assert choice.text == Move.parse(choice.move).text
            assert not CARD_TOKEN.findall(choice.why), choice.why
            assert not choice.why[0].islower() and choice.why.endswith(".")


# ------------------------------------------------------------------ themes and difficulty
def test_themes_and_difficulty_are_present_and_valid():
    for puzzle in SHIPPED:
        assert puzzle.themes and set(puzzle.themes) <= set(THEMES)
        assert ("look-ahead" in puzzle.themes) == (puzzle.themes == ("look-ahead",))
        assert puzzle.difficulty in DIFFICULTIES and 0 <= puzzle.rating <= 100
        assert puzzle.difficulty == difficulty(puzzle.rating)
        assert 0 <= puzzle.measures.depth <= DEPTH_CAP
    spread = SHIPPED.themes()
    lessons = {"uncover-more", "trapped", "keep-waste", "pass-reserve", "kings"}
    assert lessons <= set(spread), f"every lesson's idea is taught somewhere: {spread}"
    assert set(spread) == set(THEMES), f"every theme a menu could list has puzzles: {spread}"
    for preset in puzzles.SHIPPED:
        assert len(puzzles.load(preset).difficulties()) == 3, f"{preset} has every difficulty"


def test_each_theme_means_what_its_definition_says():
    """Re-derive each theme from the position and the solver, independently of the miner."""
    for puzzle in SHIPPED:
        game = puzzle.game()
        answers = [Move.parse(c.move) for c in puzzle.answers]
        losers = [Move.parse(c.move) for c in puzzle.alternatives]
        themes = set(puzzle.themes)
        assert ("kings" in themes) == any(m.kind == "king" for m in answers)
        assert ("pass-reserve" in themes) == (Move.parse("recycle") in losers)
        shared = [
            (a, b)
            for a in answers
            for b in losers
            if a.kind == b.kind == "pair" and len(set(a.cards) & set(b.cards)) == 1
        ]
        frees_more = any(
            set(game.uncovered_by(a)) - set(game.uncovered_by(b))
            and len(game.uncovered_by(a)) >= len(game.uncovered_by(b))
            for a, b in shared
        )
        assert ("uncover-more" in themes) == frees_more, puzzle.id
        trapped = any(
            "can never leave" in c.why and c.why.startswith("After") for c in puzzle.alternatives
        )
        assert ("trapped" in themes) == trapped, puzzle.id
        if "keep-waste" in themes:
            top = game.waste_top
            assert top is not None and not any(top in m.cards for m in answers)
            assert any(top in m.cards for m in losers)


def test_a_trapped_card_really_has_no_partner_it_can_meet():
    for puzzle in SHIPPED.filter(theme="trapped"):
        game = puzzle.game()
        for choice in puzzle.alternatives:
            loss = plain_loss(after(game, choice.move))
            if loss is None or loss.kind != "trapped" or loss.card is None:
                continue
            later = after(game, choice.move)
            i = later.cards.index(loss.card)
            partners = [c for c in later.waste + later.stock if c.pairs_with(loss.card)]
            assert not partners
            for j, other in enumerate(later.pyramid):
                if other is not None and other.pairs_with(loss.card):
                    assert j in LYING_ON[i] or i in LYING_ON[j]
            assert f"the {loss.card.symbol} can never leave" in choice.why


def test_difficulty_follows_the_measured_players():
    """A puzzle whose greedy move is right and whose losses show at once is easy; one where
    greedy play always goes wrong is at least medium."""
    for puzzle in SHIPPED:
        game = puzzle.game()
        choices = [str(m) for m in greedy_choices(game)]
        losing = {c.move for c in puzzle.alternatives}
        share = sum(move in losing for move in choices) / len(choices)
        assert puzzle.measures.greedy_wrong == share
        if share == 1.0:
            assert puzzle.difficulty != "easy"
    assert Measures(0.0, 0.0, 0.5, 0).rating < Measures(1.0, 1.0, 0.5, 8).rating


def test_a_fair_hint_finds_an_answer_to_every_puzzle_it_is_asked():
    """Why difficulty is not measured by a fair-hint player: on a fair puzzle it never goes
    wrong (it is the exact solver once every card is seen, and tries every order otherwise)."""
    sample = random.Random(7).sample(list(SHIPPED), 40)
    for puzzle in sample:
        tip = hint(puzzle.game(), fair=True, time_limit=2.0)
        assert tip.move in {c.move for c in puzzle.answers}, puzzle.id


def test_plain_losses_only_ever_name_lost_positions():
    """Soundness of every plain reason, over the shipped alternatives."""
    fired = 0
    for puzzle in SHIPPED:
        game = puzzle.game()
        assert plain_loss(game) is None
        for choice in puzzle.answers:
            assert plain_loss(after(game, choice.move)) is None
        for choice in puzzle.alternatives:
            fired += plain_loss(after(game, choice.move)) is not None
    assert fired > 50


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    deal=st.integers(1, 10**6),
    preset=st.sampled_from(list(puzzles.SHIPPED)),
    seed=st.integers(0, 2**32),
)
def test_a_plain_loss_is_always_a_real_loss_in_random_play(deal, preset, seed):
    rng = random.Random(seed)
    game = Game.deal(deal, preset)
    for _ in range(120):
        loss = plain_loss(game)
        if loss is not None:
            assert solve(game, time_limit=30).status == "unwinnable", loss
            return
        moves = game.legal_moves()
        if not moves:
            return
        game.play(rng.choice(moves))


def test_the_lessons_positions_carry_the_lessons_themes():
    """The teaching notebook's positions, judged by the theme tests."""

    def themes(game: Game) -> tuple[str, ...]:
        moves = game.legal_moves()
        wins = {m: keeps_win(game, str(m)) for m in moves}
        answers = tuple(m for m in moves if wins[m] and m.kind in ("pair", "king"))
        losers = tuple(m for m in moves if not wins[m])
        lines = {m: solve(after(game, m)).moves for m in answers}
        losses = {m: plain_loss(after(game, m)) for m in losers}
        return detect(Evidence(game, answers, losers, lines, losses))

    lesson3 = Game.from_position(
        {0: "Ah", 1: "Jc", 2: "9d", 3: "8h", 5: "8d"},
        stock=["4c", "Ts", "5s", "2s", "Qs", "3h"],
        waste=["5c"],
        pass_number=3,
    )
    lesson5 = Game.from_position(
        {0: "3d", 1: "Qd", 2: "9c", 3: "Ad", 4: "Qh", 5: "Jc"},
        stock=["Tc", "2c", "4h"],
        waste=["Ah"],
        pass_number=3,
    )
    lesson6 = Game.from_position(
        {0: "6h", 1: "2h", 2: "3h", 3: "9c"},
        waste=["7c", "7h", "6s", "Ts", "Jh", "4h"],
        rules="one-recycle",
    )
    assert "uncover-more" in themes(lesson3)
    assert "keep-waste" in themes(lesson5)
    assert "pass-reserve" in themes(lesson6)


def test_why_a_wrong_move_loses_never_names_an_answer():
    """What a wrong try is told (`Choice.why` of each alternative) says why it loses, never
    what wins: no answer's move, nor (but in the wrong move itself) all of an answer's cards."""
    for puzzle in SHIPPED:
        for wrong in puzzle.alternatives:
            rest = wrong.why.replace(wrong.text, "")
            for answer in puzzle.answers:
                named = [c.symbol for c in Move.parse(answer.move).cards if c.symbol in rest]
                assert answer.text not in rest and len(named) < len(answer.move.split("+")), (
                    puzzle.id,
                    wrong.why,
                )


# ------------------------------------------------------------------ checking a move
def test_check_says_right_wrong_and_why_in_card_symbols():
    puzzle = SHIPPED.filter(theme="trapped")[0]
    answer = puzzle.check(puzzle.answers[0].move)
    assert answer.right and answer.keeps_win and answer.legal
    assert answer.sentence == puzzle.answers[0].why
    for choice in puzzle.alternatives:
        verdict = puzzle.check(Move.parse(choice.move))
        assert not verdict.right and not verdict.keeps_win and verdict.legal
        assert verdict.sentence == choice.why and verdict.text == choice.text
    symbols = puzzle.answers[0].text  # "4♣ + 9♦" reads as well as "4c+9d"
    assert puzzle.check(symbols).right


def test_check_refuses_an_impossible_move_with_the_rules_reason():
    def covered(game: Game):
        cards = [c for c in game.pyramid if c is not None and c not in game.exposed]
        return next((card for card in cards if not card.is_king), None)

    puzzle = next(p for p in SHIPPED if covered(p.game()))
    card = covered(puzzle.game())
    partner = next(c for c in puzzle.game().cards if c.pairs_with(card))
    verdict = puzzle.check(Move.pair(card, partner))
    assert not verdict.legal and not verdict.right
    assert verdict.sentence.endswith(".") and "not possible here" in verdict.sentence
    with pytest.raises(IllegalMove):
        puzzle.check("not a move")


# ------------------------------------------------------------------ sets and loading
def test_load_filters_by_rules_theme_and_difficulty_in_a_stable_order():
    classic = puzzles.load("classic")
    assert [p.rating for p in classic] == sorted(p.rating for p in classic)
    assert list(puzzles.load(Rules.preset("classic"))) == list(classic)
    hard = puzzles.load("classic", difficulty="hard")
    assert hard and all(p.difficulty == "hard" and p.rules == "classic" for p in hard)
    trapped = puzzles.load(theme=["trapped", "kings"])
    assert trapped and all({"trapped", "kings"} & set(p.themes) for p in trapped)
    assert len(puzzles.load()) == sum(len(puzzles.load(p)) for p in puzzles.SHIPPED)
    assert len(puzzles.load("classic,passes=1")) == 0  # rules without a shipped set
    with pytest.raises(ValueError, match="known"):
        puzzles.load(theme="forks")
    with pytest.raises(ValueError, match="known"):
        puzzles.load(difficulty="impossible")
    with pytest.raises(ValueError):
        puzzles.load("klondike")


def test_next_and_previous_walk_the_set_and_wrap_around():
    hard = puzzles.load("open-stock", difficulty="hard")
    first, last = hard[0], hard[-1]
    assert hard.next(first) == hard[1] and hard.previous(hard[1]) == first
    assert hard.next(last) == first and hard.previous(first.id) == last
    walked = [first]
    while len(walked) < len(hard):
        walked.append(hard.next(walked[-1]))
    assert walked == list(hard)
    assert hard.get(first.id) == first and first in hard and first.id in hard
    with pytest.raises(KeyError):
        hard.get("nope")
    with pytest.raises(ValueError):
        PuzzleSet([first, first])


def test_a_worksheet_is_reproducible_and_keeps_the_sets_order():
    trapped = puzzles.load(theme="trapped")
    sheet = trapped.pick(10, seed=3)
    assert len(sheet) == 10 and sheet == trapped.pick(10, seed=3)
    assert [trapped.index(p) for p in sheet] == sorted(trapped.index(p) for p in sheet)
    assert sheet != trapped.pick(10, seed=4)
    assert trapped.pick(10**6) == trapped and len(trapped.pick(0)) == 0
    with pytest.raises(ValueError):
        trapped.pick(-1)


def test_a_puzzles_picture_hides_the_unseen_cards_and_marks_the_answer_when_asked():
    with_unseen = [p for p in SHIPPED if p.unseen][:20]
    for puzzle in with_unseen + list(SHIPPED[:5]):
        game = puzzle.game()
        hidden = {game.cards[i] for i in unseen(game)}
        question = puzzle.picture()
        assert question.startswith("<svg") and "Better" not in question
        assert not cards_named(question) & hidden
        sheet = puzzle.picture(answer=True, theme="dark", size=300)
        assert "Better: " in sheet and "Mistake: " in sheet
        assert set(Move.parse(puzzle.answers[0].move).cards) <= cards_named(sheet)
        assert not cards_named(sheet) & hidden
        shown = puzzle._repr_html_()
        assert puzzle.task in shown and question in shown
    assert with_unseen, "some shipped puzzles have unseen cards"


def test_a_puzzle_survives_json_and_a_damaged_record_is_refused():
    for puzzle in SHIPPED[:50]:
        assert Puzzle.from_dict(json.loads(json.dumps(puzzle.to_dict()))) == puzzle


RECORD = SHIPPED[0].to_dict()


@settings(max_examples=150, deadline=None)
@given(
    field=st.sampled_from(sorted(RECORD)),
    value=st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-5, 10**10),
        st.floats(allow_nan=True),
        st.text(max_size=20),
        st.lists(st.text(max_size=5), max_size=3),
        st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
    ),
)
def test_any_damaged_field_gets_a_clear_error(field, value):
    damaged = {**RECORD, field: value}
    try:
        puzzle = Puzzle.from_dict(damaged)
    except ValueError:
        return
    assert puzzle.to_dict() == {**RECORD, field: value}  # only a harmless equal value passes


@pytest.mark.parametrize(
    "change",
    [
        {"id": "000000000000"},
        {"move": 3},
        {"answers": []},
        {"themes": ["forks"]},
        {"themes": []},
        {"line": "dream"},
        {"rating": 99},
        {"unseen": 7},
        {"code": "classic#5"},
        {"rules": "open-stock"},
    ],
)
def test_a_tampered_record_is_refused_naming_the_problem(change):
    with pytest.raises(ValueError):
        Puzzle.from_dict({**RECORD, **change})


def test_a_damaged_file_is_refused_naming_its_line(tmp_path):
    path = tmp_path / "classic.jsonl"
    puzzles.write_puzzles(path, SHIPPED[:3])
    assert puzzles.read_puzzles(path) == list(SHIPPED[:3])
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([lines[0], lines[1][:40], lines[2]]), encoding="utf-8")
    with pytest.raises(ValueError, match="line 2"):
        puzzles.read_puzzles(path)


# ------------------------------------------------------------------ mining
def shipped_deals(preset: str, deals: list[int]) -> list[int]:
    """Deals (quick to mine) that gave shipped puzzles of ``preset``."""
    assert {p.deal for p in puzzles.load(preset)} >= set(deals)
    return deals


@pytest.mark.slow
def test_mining_the_same_deals_twice_gives_the_same_puzzles_as_shipped():
    deals = shipped_deals("classic", [2, 5])
    first = mine(deals, "classic")
    second = mine(deals, "classic")
    assert [p.id for p in first] == [p.id for p in second]
    assert first == second
    shipped = [p for p in puzzles.load("classic") if p.deal in deals]
    assert sorted(p.id for p in first) == sorted(p.id for p in shipped)
    assert {p.id: p for p in first} == {p.id: p for p in shipped}


OPEN_STOCK_DEALS = [6, 11]


@pytest.mark.slow
def test_mining_on_thread_and_process_pools_gives_the_same_puzzles():
    deals = shipped_deals("open-stock", OPEN_STOCK_DEALS)
    here = mine(deals, "open-stock")
    with ThreadPoolExecutor(2) as threads:
        assert mine(deals, "open-stock", executor=threads, chunk=1) == here
    with ProcessPoolExecutor(1) as processes:
        assert mine(deals, "open-stock", executor=processes) == here


@pytest.mark.slow
def test_mining_stops_at_a_count_and_reports_each_deal():
    seen = []
    found = mine(range(1, 500), "classic", count=2, on_deal=seen.append)
    assert len(found) >= 2
    assert [result.deal for result in seen] == list(range(1, len(seen) + 1))
    assert sum(len(result.puzzles) for result in seen) == len(found)
    assert len(found) - len(seen[-1].puzzles) < 2  # it stopped at the deal that reached 2
    assert all(result.undecided == 0 for result in seen)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"count": 0},
        {"chunk": 0},
        {"per_deal": 0},
        {"max_unseen": 9},
        {"time_limit": float("nan")},
        {"player_lines": -1},
        {"colour": "red"},
    ],
)
def test_mining_refuses_bad_options(kwargs):
    with pytest.raises((ValueError, TypeError)):
        mine([1], "classic", **kwargs)


def test_mining_refuses_a_deal_that_is_no_deal():
    with pytest.raises(ValueError, match="deal"):
        mine([0], "classic")


@pytest.mark.slow
def test_the_mining_command_writes_a_set_and_prints_its_speed(tmp_path):
    command = [sys.executable, "-m", "pyramid_widget.puzzles"]
    made = subprocess.run(
        [*command, "mine", "--rules", "classic", "--count", "2", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert made.returncode == 0, made.stderr
    assert "puzzles per CPU-minute" in made.stdout and "0 problems" in made.stdout
    written = puzzles.read_puzzles(tmp_path / "classic.jsonl")
    assert len(written) >= 2 and all(p.id in BY_ID for p in written)
    checked = subprocess.run(
        [*command, "verify", "--rules", "classic", "--dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert checked.returncode == 0 and "0 problems" in checked.stdout
    bad = subprocess.run([*command, "mine", "--count", "0"], capture_output=True, text=True)
    assert bad.returncode == 2
