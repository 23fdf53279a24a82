"""Puzzle mode on the board: a wrong move refused and explained, the right one accepted, play
on to the win with a move that throws it away refused, a score, next and previous, filters,
and the game that was on the board back as it was. Nothing sent names an answer or an unseen
card."""

from __future__ import annotations

import itertools
import json

import pytest
from helpers import FakeTime, cards_named
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramid_widget import IllegalMove, Move, puzzles, solve, words
from pyramid_widget.intents import Desk
from pyramid_widget.puzzle_mode import PuzzleRun
from pyramid_widget.puzzles import PuzzleSet
from pyramid_widget.puzzles.mining import arrangements
from pyramid_widget.rules import PRESETS
from pyramid_widget.session import GameSession
from pyramid_widget.view import NO_HINTS_IN_PUZZLES, catalog
from pyramid_widget.words import NO_PUZZLE


def board(**kwargs) -> GameSession:
    return GameSession("classic", deal=42, store=None, threads=False, **kwargs)


SEQ = itertools.count(1)


def intent(session: GameSession, action: str, **fields) -> dict:
    message = {"type": "intent", "seq": next(SEQ), "view": "v",
               "version": session.version, "action": action, **fields}  # fmt: skip
    return Desk(session).handle(message)


def test_a_wrong_move_is_refused_and_explained_and_the_right_line_is_accepted_to_the_win():
    session = board()
    puzzle = session.puzzles.open(difficulty="easy")
    assert session.state["puzzle"]["phase"] == "find" and session.game.code == puzzle.code
    before = session.game.code
    wrong = puzzle.alternatives[0]
    with pytest.raises(IllegalMove) as refused:
        session.play(wrong.move)
    assert refused.value.reason == f"Not {wrong.text}: {wrong.why}"
    assert session.game.code == before  # nothing changed on the board
    assert session.state["puzzle"]["said"] == refused.value.reason
    session.play(puzzle.answers[0].move)
    assert session.state["puzzle"]["phase"] == "play"
    for move in solve(session.game).moves:
        session.play(move)
    shown = session.state["puzzle"]
    assert session.game.is_won and shown["phase"] == "solved"
    assert shown["score"] == {"tried": 1, "solved": 1, "first_try": 0}


def test_in_the_play_on_a_move_that_throws_the_win_away_is_refused():
    session = board()
    for puzzle in puzzles.load("classic"):
        session.puzzles.open(puzzle.id)
        session.play(puzzle.answers[0].move)
        game = session.game
        losing = next(
            (move for move in game.legal_moves()
             if not (after := game.copy()).play(move) or solve(after).status == "unwinnable"),
            None,
        )  # fmt: skip
        if losing is not None:
            break
    else:
        pytest.fail("no play-on position with a losing move among the shipped puzzles")
    with pytest.raises(IllegalMove, match="throws the win away"):
        session.play(losing)
    assert session.state["puzzle"]["phase"] == "play"


def test_the_board_steps_through_a_filtered_set_and_gives_back_its_game():
    session = board()
    session.play("Ks")
    game, moves = session.game, list(session.moves)
    first = session.puzzles.open(theme="trapped", difficulty="medium")
    chosen = puzzles.load("classic", theme="trapped", difficulty="medium")
    assert first == chosen[0] and session.state["puzzle"]["count"] == len(chosen)
    assert session.puzzles.step(1) == chosen[1] and session.puzzles.step(-1) == chosen[0]
    assert session.puzzles.step(-1) == chosen[-1]  # round the end
    session.puzzles.close()
    assert session.game is game and session.moves == moves and session.state["puzzle"] is None
    with pytest.raises(IllegalMove, match=NO_PUZZLE):
        session.puzzles.step(1)


def test_puzzles_are_not_recorded_and_the_game_left_waits(tmp_path):
    session = GameSession("classic", deal=42, store=tmp_path / "db.sqlite3", threads=False)
    session.play("Ks")
    saved = session.store.saved_game("classic").game.log
    puzzle = session.puzzles.open()
    session.play(puzzle.answers[0].move)
    session.puzzles.close()
    assert session.records().games == 0 and session.store.saved_game("classic").game.log == saved


def test_a_refused_continue_leaves_the_puzzle_on_the_board_and_the_records_alone(tmp_path):
    session = GameSession("classic", deal=42, store=tmp_path / "db.sqlite3", threads=False)
    session.draw()
    puzzle = session.puzzles.open()
    state = session.state
    answer = intent(session, "continue")  # nothing saved of another game to continue
    assert not answer["ok"] and session.puzzles.puzzle == puzzle and session.state == state
    session.restart()  # the puzzle's restart: the deal waiting behind it is not given up
    assert session.puzzles.puzzle == puzzle and session.records().losses == 0


def test_a_puzzle_gives_no_hint_and_a_new_deal_ends_puzzle_mode():
    session = board()
    session.puzzles.open()
    assert intent(session, "hint")["reason"] == NO_HINTS_IN_PUZZLES
    assert session.state["controls"]["hint"]["enabled"] is False
    session.new_deal(7)
    assert session.state["puzzle"] is None and session.game.deal_number == 7


def test_puzzle_intents_open_step_and_close():
    session = board()
    assert intent(session, "puzzle", theme="trapped")["ok"]
    opened = session.puzzles.puzzle
    assert intent(session, "puzzle", step=1)["ok"] and session.puzzles.puzzle != opened
    assert intent(session, "puzzle", id=opened.id)["ok"] and session.puzzles.puzzle == opened
    for bad, reason in [
        ({"step": 2}, "'step' must be 1"),
        ({"theme": "nope"}, "unknown theme"),
        ({"id": "000000000000"}, "no shipped puzzle has the id"),
        ({"id": opened.id, "theme": "trapped"}, "takes no theme"),
        ({"step": 1, "rules": "strict"}, "takes no id, theme, difficulty or rules"),
        ({"rules": "classic,passes=1"}, words.NO_PUZZLES),
        ({"rules": "nope"}, "unknown rules"),
    ]:
        answer = intent(session, "puzzle", **bad)
        assert not answer["ok"] and reason in answer["reason"], answer
    assert intent(session, "puzzle_close")["ok"] and session.puzzles.puzzle is None


# ------------------------------------------------------------------ the Puzzles menu
def test_the_puzzles_menu_offers_only_choices_that_hold_puzzles_with_their_counts():
    menus = catalog()["puzzles"]["menus"]
    assert set(menus) == set(PRESETS)
    for preset, menu in menus.items():
        offered = {(theme["id"], level["id"]) for theme in menu for level in theme["difficulties"]}
        for theme in [None, *puzzles.THEMES]:
            for level in [None, *puzzles.DIFFICULTIES]:
                held = len(puzzles.load(preset, theme=theme, difficulty=level))
                assert ((theme or "", level or "") in offered) == (held > 0), (preset, theme, level)
        for theme in menu:
            title = puzzles.THEMES[theme["id"]].title if theme["id"] else words.ANY_THEME
            held = len(puzzles.load(preset, theme=theme["id"] or None))
            assert theme["label"] == f"{title} ({held})"
            for level in theme["difficulties"]:
                chosen = puzzles.load(preset, theme["id"] or None, level["id"] or None)
                assert level["label"].endswith(f" ({len(chosen)})")
    classic = {theme["id"]: theme for theme in menus["classic"]}
    assert classic[""]["label"] == f"Any theme ({len(puzzles.load('classic'))})"
    assert [level["id"] for level in classic["keep-waste"]["difficulties"]] == ["", "medium"]


def test_every_choice_the_menu_offers_opens_its_first_puzzle():
    session = board()
    for theme in catalog()["puzzles"]["menus"]["strict"]:
        for level in theme["difficulties"]:
            fields = {key: value for key, value in (("theme", theme["id"]),
                      ("difficulty", level["id"])) if value}  # fmt: skip
            assert intent(session, "puzzle", rules="strict", **fields)["ok"]
            chosen = puzzles.load("strict", theme["id"] or None, level["id"] or None)
            assert session.puzzles.puzzle == chosen[0]
            assert session.state["puzzle"]["count"] == len(chosen)


def test_the_menus_counts_agree_with_the_puzzles_load_checks():
    for preset in puzzles.SHIPPED:
        shipped = puzzles.load(preset)
        expected = {(None, None): len(shipped)}
        for puzzle in shipped:
            for theme in (None, *puzzle.themes):
                for level in (None, puzzle.difficulty):
                    expected[theme, level] = expected.get((theme, level), 0) + 1
        expected[None, None] = len(shipped)
        assert dict(puzzles.counts(preset)) == expected
    assert not puzzles.counts("classic,passes=1")


def test_nothing_sent_names_an_answer_or_an_unseen_card():
    session = board()
    sent: list[tuple[str, str]] = []

    def keep(state: dict, moves: list[str]) -> None:
        # The cards and legal moves are on the board for every position (the answer among
        # them, unmarked); what must not single it out is what the board says of the puzzle.
        about = json.dumps([state["puzzle"], state["hint"]], ensure_ascii=False)
        sent.append((json.dumps(state, ensure_ascii=False), about))

    session.listen(keep)
    hiding = [p for p in puzzles.load() if p.unseen][:5] + list(puzzles.load("strict"))[:5]
    for puzzle in hiding:
        sent.clear()
        session.puzzles.open(puzzle.id)
        unseen = set(session.game.cards) - session.game.seen
        for text, about in sent:
            for answer in puzzle.answers:
                assert answer.move not in about and answer.text not in about
            assert not cards_named(text) & unseen
            if puzzle.unseen:  # once every card is seen, the code gives nothing away
                assert puzzle.code not in text and f'"deal": {puzzle.deal}' not in text
        assert Move.parse(puzzle.answers[0].move)  # answers are kept in Python only


# ------------------------------------------------------------------ fair play-on
HIDING = [puzzle for puzzle in puzzles.load() if puzzle.unseen]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=st.sampled_from(HIDING), which=st.integers(0, 10**6))
def test_play_on_judges_twin_boards_alike(puzzle, which):
    """Two boards that look the same to the player (the unseen cards in another order) get
    the same verdict on every move of the play-on."""
    game = puzzle.game()
    game.play(puzzle.answers[0].move)
    twins = [game, *arrangements(game)]
    twin = twins[which % len(twins)]
    for move in game.legal_moves():
        verdicts = []
        for board_game in (game, twin):
            run = PuzzleRun(PuzzleSet([puzzle]), puzzle, away=None)  # type: ignore[arg-type]
            run.phase = "play"
            verdicts.append(run.refusal(board_game, move) is None)
        assert verdicts[0] == verdicts[1], (puzzle.id, str(move))


def test_the_issues_puzzle_lets_a_draw_by_on_every_twin():
    """After its answer a draw loses on the board as dealt, but wins in another order of the
    three unseen cards: it is no sure loss to the player, so no board refuses it."""
    puzzle = puzzles.load().get("167450eb08dc")
    game = puzzle.game()
    game.play(puzzle.answers[0].move)
    for board_game in (game, *arrangements(game)):
        run = PuzzleRun(PuzzleSet([puzzle]), puzzle, away=None)  # type: ignore[arg-type]
        run.phase = "play"
        assert run.refusal(board_game, Move.parse("draw")) is None


# ------------------------------------------------------------------ solved once
def won_puzzle(session: GameSession) -> list[str]:
    """Open the first easy puzzle and play its winning line; return that line."""
    puzzle = session.puzzles.open(difficulty="easy")
    line = [str(puzzle.answers[0].move)]
    session.play(line[0])
    while not session.game.is_won:
        move = solve(session.game).moves[0]
        session.play(move)
        line.append(str(move))
    return line


def test_a_puzzle_is_solved_once_however_often_its_win_is_taken_back_and_played_again():
    session = board()
    line = won_puzzle(session)
    for _ in range(3):
        session.undo()
        assert session.state["puzzle"]["phase"] == "play"
        session.play(line[-1])
    assert session.state["puzzle"]["score"]["solved"] == 1


def test_after_a_restart_the_answer_is_to_be_found_again():
    session = board()
    won_puzzle(session)
    session.restart()
    assert session.state["puzzle"]["phase"] == "find"
    wrong = session.puzzles.puzzle.alternatives[0]
    with pytest.raises(IllegalMove):
        session.play(wrong.move)
    assert session.state["puzzle"]["score"]["solved"] == 1


# ------------------------------------------------------------------ the clock
def test_a_puzzle_opened_and_closed_while_paused_leaves_the_clock_stopped(tmp_path):
    clock = FakeTime()
    session = GameSession("classic", deal=42, store=tmp_path / "db.sqlite3", threads=False,
                          clock=clock)  # fmt: skip
    session.draw()
    clock.now += 10
    session.pause()
    session.puzzles.open()
    session.puzzles.close()
    clock.now += 3600
    assert session.paused and session.elapsed == 10
    assert not session.state["clock"]["running"]
