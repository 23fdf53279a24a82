"""The game review names the move that lost a winnable deal, and only that one.

Games are built to contain one decisive mistake: a winnable reference deck (tests/data/decks,
with its recorded solution; numbered deals with the solver's solution where those decks are not
at hand) is played along its solution, then at the first point where the solver finds a losing
alternative, the game takes it and plays on. The review must name exactly that move and offer a
move that keeps the win.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Iterator

import pytest
from helpers import random_game, reference_decks
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramid_widget import Card, Game, build_layout, words
from pyramid_widget.review import MoveReview, Review, review
from pyramid_widget.solver import hint, solve
from pyramid_widget.view import review_view


def numbered(rules: str, status: str) -> Iterator[tuple[str, str, tuple[str, ...]]]:
    """Numbered deals whose start the solver finds `status`, with its winning line."""
    for number in range(1, 200):
        game = Game.deal(number, rules)
        solution = solve(game, time_limit=5)
        if solution.status == status:
            yield game.layout, rules, solution.moves


def play_on(game: Game, limit: int = 120) -> Game:
    """Keep playing the first legal move (pairs before draws) until stuck or `limit` moves."""
    while not game.is_won and game.move_count < limit:
        moves = game.legal_moves()
        if not moves:
            break
        game.play(moves[0])
    return game


def with_one_mistake(layout: str, rules: str, solution: list[str]) -> tuple[Game, int] | None:
    """A game that follows `solution` until the solver finds a move that loses the deal, plays
    that move, then plays on. Returns the game and the number of the losing move (None when
    no move along the solution loses the deal)."""
    for k in range(len(solution)):
        base = Game.from_layout(layout, rules)
        for move in solution[:k]:
            base.play(move)
        for move in base.legal_moves():
            if str(move) == solution[k]:
                continue
            trial = base.copy()
            trial.play(move)
            if solve(trial, time_limit=5).status == "unwinnable":
                return play_on(trial), k + 1
    return None


def winnable_games() -> Iterator[tuple[str, str, tuple[str, ...]]]:
    """Winnable open-stock reference decks with their solutions and a winnable one-pass deck,
    then winnable numbered deals (classic, open-stock) with the solver's solutions."""
    rows = [
        r
        for r in reference_decks("open-stock.jsonl")
        if r["verdict"] == "winnable" and "solution" in r
    ]
    one_pass = [r for r in reference_decks("one-pass.jsonl") if r["verdict"] == "winnable"]
    for row in rows[:1]:
        yield row["layout"], row["rules"], tuple(row["solution"])
    for row in one_pass[:1]:
        game = Game.from_layout(row["layout"], "classic,passes=1")
        yield row["layout"], "classic,passes=1", solve(game).moves
    for row in rows[1:4]:
        yield row["layout"], row["rules"], tuple(row["solution"])
    for pair in zip(
        numbered("classic", "winnable"), numbered("open-stock", "winnable"), strict=False
    ):
        yield from pair


@functools.cache
def winnable(k: int) -> tuple[str, str, tuple[str, ...]]:
    """The k-th game of `winnable_games()` (0-based)."""
    return next(itertools.islice(winnable_games(), k, None))


@functools.cache
def mistaken_games() -> tuple[tuple[Game, int], ...]:
    """Games with one decisive mistake, from the first decks that admit one."""
    found = []
    for layout, rules, solution in winnable_games():
        made = with_one_mistake(layout, rules, list(solution))
        if made is not None:
            found.append(made)
        if len(found) == 4:
            return tuple(found)
    raise AssertionError("too few winnable games admit a losing deviation")


@pytest.mark.parametrize("case", range(4))
def test_review_names_the_one_decisive_mistake_and_a_move_that_keeps_the_win(case: int) -> None:
    game, mistake = mistaken_games()[case]

    result = review(game, hints=False)

    assert result.mistake == mistake
    assert [step.number for step in result if step.decisive] == [mistake]
    assert result.start == "winnable" and result.end == "unwinnable"
    assert all(step.before == "winnable" for step in result.steps[:mistake])
    assert all(step.after == "unwinnable" for step in result.steps[mistake - 1 :])
    # The proposed move keeps the win, and the solver's line from there really wins.
    before = result.game_at(mistake - 1)
    assert result[mistake].keeps_win == result.better != result[mistake].move
    kept = before.copy()
    kept.play(result.better)
    assert solve(kept, time_limit=5).status == "winnable"
    for move in result.line:
        before.play(move)
    assert before.is_won
    assert f"move {mistake}" in result.summary and result.better_text in result.summary
    assert result.better not in result.summary  # a player reads symbols, not notation


def test_a_won_game_names_no_mistake_and_needs_no_solving() -> None:
    layout, rules, solution = winnable(0)
    game = Game.from_layout(layout, rules)
    for move in solution:
        game.play(move)

    result = review(game, hints=False)

    assert result.outcome == "won" and result.end == "won"
    assert result.mistake is None and result.better is None
    assert all(step.before == "winnable" for step in result)
    assert result.steps[-1].after == "won"
    assert result.solved == 0  # the game itself is the proof
    assert result.summary.startswith("Won in")


def test_a_deal_lost_from_the_start_names_no_mistake() -> None:
    lost = [
        (r["layout"], r["rules"])
        for r in reference_decks("open-stock.jsonl")
        if r["verdict"] == "unwinnable"
    ]
    layout, rules = lost[0] if lost else next(numbered("classic", "unwinnable"))[:2]
    game = play_on(Game.from_layout(layout, rules))
    assert game.move_count > 5

    result = review(game, hints=False)

    assert result.start == "unwinnable" and result.mistake is None
    assert {step.before for step in result} == {"unwinnable"}
    assert "could not be won from the start" in result.summary


def test_an_unfinished_game_still_winnable_has_lost_nothing() -> None:
    layout, rules, solution = winnable(0)
    game = Game.from_layout(layout, rules)
    for move in solution[:10]:
        game.play(move)

    result = review(game, hints=False)

    assert result.outcome is None and result.end == "winnable" and result.mistake is None
    assert {step.after for step in result} == {"winnable"}
    assert "can still be won" in result.summary


def test_few_positions_are_solved_and_each_at_most_once(monkeypatch) -> None:
    game, _ = mistaken_games()[0]
    import pyramid_widget.solver as solver

    asked: list[str] = []

    def counting_solve(position: Game, **kwargs):
        asked.append(position.code)
        return solve(position, **kwargs)

    monkeypatch.setattr(solver, "solve", counting_solve)
    result = review(game, hints=False)

    assert len(asked) == len(set(asked)) == result.solved
    assert result.solved <= 2 * math.ceil(math.log2(len(result) + 1)) + 2 < len(result)


def test_unknown_verdicts_are_shown_and_no_mistake_is_guessed(monkeypatch) -> None:
    """When a time limit leaves the turn undecided, the review says "unknown" for the positions
    in doubt and names no mistake, rather than pointing at the wrong move."""
    game, mistake = mistaken_games()[0]
    import pyramid_widget.solver as solver
    from pyramid_widget.solver import Solution

    doubtful = {p.code for p in (game_after(game, mistake - 1), game_after(game, mistake))}

    def slow_solve(position: Game, **kwargs):
        if position.code in doubtful:
            return Solution("unknown")
        return solve(position, **kwargs)

    monkeypatch.setattr(solver, "solve", slow_solve)
    result = review(game, hints=False)

    assert result.mistake is None and result.better is None
    assert result[mistake].before == "unknown" and result[mistake].after == "unknown"
    assert result[mistake - 1].before == "winnable"
    assert result[mistake + 1].after == "unwinnable"
    assert f"one of moves {mistake - 1} to {mistake + 1}" in result.summary
    assert ">not known yet<" in result._repr_html_()


def game_after(game: Game, moves: int) -> Game:
    replay = Game(game.cards, game.rules)
    for move in game.history[:moves]:
        replay.play(move)
    return replay


def test_fair_hints_know_only_what_the_replayed_game_had_seen(monkeypatch) -> None:
    """Each fair hint knows the cards turned up by the moves before it, and not a card seen
    only in a branch the player undid."""
    layout = build_layout({21: "5h", 22: "8c"}, stock=["Qs", "Ah"])
    game = Game.from_layout(layout, "classic")
    game.draw()  # Qs seen
    game.draw()  # Ah seen ...
    game.undo()  # ... then taken back: the game as played never showed it
    game.play("5h+8c")
    qs, ah = Card.parse("Qs"), Card.parse("Ah")
    assert {qs, ah} <= game.seen
    import pyramid_widget.solver as solver

    seen_at: list[frozenset] = []

    class Hint:
        move, kind, verdict, reason, chance = "draw", "draw", "unknown", "keep drawing", None

    def recording_hint(position: Game, **kwargs):
        assert kwargs["fair"] is True
        seen_at.append(position.seen)
        return Hint()

    monkeypatch.setattr(solver, "hint", recording_hint)
    result = review(game, time_limit=5)

    assert len(seen_at) == 2
    assert qs not in seen_at[0] and ah not in seen_at[0]
    assert qs in seen_at[1] and ah not in seen_at[1]
    assert result[1].hint == "draw" and result[1].followed_hint
    assert result[2].hint == "draw" and not result[2].followed_hint
    assert result[1].hint_reason == "keep drawing"


def test_each_fair_hint_is_the_one_the_player_could_have_asked_for() -> None:
    layout, rules, solution = winnable(1)
    game = Game.from_layout(layout, rules)
    for move in solution[:8]:
        game.play(move)

    result = review(game, hint_time=0.2)

    replay = Game.from_layout(layout, rules)
    for step in result:
        asked = hint(replay, fair=True, time_limit=0.2)
        assert (step.hint, step.hint_verdict, step.hint_reason) == (
            asked.move,
            asked.verdict,
            asked.reason,
        )
        assert step.hint is not None and replay.is_legal(step.hint)
        replay.play(step.move)
    assert any(step.followed_hint for step in result)
    assert result.steps[0].hint_text in result._repr_html_()


def test_review_reads_a_finished_game_from_the_records_store(tmp_path) -> None:
    from pyramid_widget.store import Store

    game, mistake = mistaken_games()[0]
    with Store(tmp_path / "records.sqlite3") as store:
        store.save("one", game, 61.0, result="lost")
        (record,) = store.history()

        result = review(record, hints=False)

    assert result.mistake == mistake and len(result) == game.move_count


def test_review_accepts_saves_records_and_widgets() -> None:
    layout, rules, solution = winnable(0)
    game = Game.from_layout(layout, rules)
    for move in solution[:6]:
        game.play(move)
    expected = [(s.move, s.before, s.after) for s in review(game, hints=False)]

    class Record:
        def __init__(self) -> None:
            self.layout, self.rules, self.moves = layout, rules, game.log

    class Holder:
        pass

    holder = Holder()
    holder.game = game
    sources = [
        game.to_json(),
        {"save": game.to_json()},
        {"layout": layout, "rules": rules, "moves": game.log},
        {"layout": layout, "rules": game.rules.to_dict(), "moves": " ".join(game.log)},
        Record(),
        holder,
    ]
    for source in sources:
        result = review(source, hints=False)
        assert [(s.move, s.before, s.after) for s in result] == expected


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (42, "review needs a Game"),
        ("{not json", "not a pyramid-widget save"),
        ({"layout": "Ac 2c", "moves": []}, "52 cards"),
        ({"layout": build_layout(), "rules": "classic", "moves": ["draw", "Qc+Ac"]}, "move 2"),
        ({"layout": build_layout(), "rules": "nonsense", "moves": []}, "unknown rules"),
    ],
)
def test_bad_input_gets_a_clear_error(source, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        review(source, hints=False)


@pytest.mark.parametrize("bad", [-1, "5", True, float("nan")])
def test_bad_time_limits_are_refused(bad) -> None:
    game = Game.from_layout(build_layout(), "classic")
    with pytest.raises((ValueError, TypeError), match="time_limit"):
        review(game, time_limit=bad)


def test_the_review_shows_as_a_table_and_as_plain_rows() -> None:
    game, mistake = mistaken_games()[0]
    result = review(game, hints=False)

    page = result._repr_html_()
    assert page.count("<tr") == len(result) + 1
    assert "the win slipped away here" in page and result.better_text in page
    assert "fair hint" not in page  # no hints were asked for: no empty column
    rows = result.to_rows()
    assert len(rows) == len(result)
    assert rows[mistake - 1]["decisive"] and rows[mistake - 1]["keeps_win"] == result.better
    assert set(rows[0]) >= {"number", "move", "before", "after", "hint", "decisive"}
    assert isinstance(result, Review) and isinstance(result[1], MoveReview)
    assert "the win slipped away" in str(result) and result.better_text in str(result)
    assert repr(result).startswith("<Review of ") and f"move {mistake}" in repr(result)
    with pytest.raises(IndexError):
        result[0]
    with pytest.raises(ValueError):
        result.game_at(len(result) + 1)
    assert result.game_at(0).move_count == 0 and result.game_at(0).can_redo
    # The board's review panel: the same note, and each row's button says what it shows.
    shown = review_view(result)
    decisive = shown["rows"][mistake - 1]
    assert decisive["note"] == words.slipped_away(result.better_text)
    assert [row["note"] for row in shown["rows"]].count(None) == len(result) - 1
    assert (
        decisive["step_label"] == f"Show the board before move {mistake}, {decisive['move_text']}"
    )
    assert shown["columns"] == ["#", "Move", "Before", "After", "Fair hint", "Note"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(["classic", "open-stock", "one-recycle"]),
    deal=st.integers(1, 10_000),
    steps=st.integers(0, 80),
    then=st.integers(1, 6),
    seed=st.integers(0, 2**16),
)
def test_a_game_begun_from_any_position_code_is_reviewed(rules, deal, steps, then, seed):
    """A game begun mid-game, a later pass included (its whole stock seen), replays from its
    start knowing what it knew there, and its review reads it through."""
    start = random_game(rules, deal, steps, seed)
    game = Game.from_code(start.code)
    assert game.start_seen == start.seen  # the code carries what had been seen
    rng = random.Random(seed)
    for _ in range(then):
        if game.legal_moves():
            game.play(rng.choice(game.legal_moves()))
    reviewed = review(game, time_limit=0.2, hints=False)
    assert len(reviewed.steps) == len(game.history)


def test_the_issues_pass_two_game_is_reviewed() -> None:
    played = Game.deal(1)
    for _ in range(24):
        played.draw()
    played.recycle()
    game = Game.from_code(played.code)
    game.draw()
    assert game.start.pass_number == 2 and len(review(game).steps) == 1
