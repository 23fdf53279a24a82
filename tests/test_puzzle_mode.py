"""Puzzle mode on the board: a wrong move refused and explained (never with the answer), the
right one accepted and counted as solved, as on chess puzzle sites, "Show the answer" counted as
not solved, an optional play-on to the win with a move that throws it away refused, a score
that agrees with what the board says, next and previous, the Puzzles menu offering only what
exists, and the game that was on the board back as it was. Nothing sent names an answer (until
it is played or shown) or an unseen card."""

from __future__ import annotations

import itertools
import json

import pytest
from helpers import FakeTime, cards_named
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramid_widget import IllegalMove, Move, PyramidWidget, puzzles, solve, words
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


def test_a_wrong_move_is_refused_with_why_it_loses_and_the_answer_found_is_solved():
    session = board()
    puzzle = session.puzzles.open(difficulty="easy")
    assert session.state["puzzle"]["phase"] == "find" and session.game.code == puzzle.code
    before = session.game.code
    wrong, right = puzzle.alternatives[0], puzzle.answers[0]
    with pytest.raises(IllegalMove) as refused:
        session.play(wrong.move)
    assert refused.value.reason == words.wrong_try(wrong.why)
    assert right.text not in refused.value.reason  # the answer waits for Show the answer
    assert session.game.code == before  # nothing changed on the board
    shown = session.state["puzzle"]
    assert shown["said"] == refused.value.reason and shown["said_kind"] == "refused"
    assert shown["score"] == {"tried": 1, "solved": 0, "first_try": 0}
    assert shown["tally"] == "Solved 0 of 1 tried, 0 first tries"

    session.play(right.text)  # found: solved at once, as on chess puzzle sites
    shown = session.state["puzzle"]
    assert shown["phase"] == "play" and shown["solved"]
    assert shown["said"] == f"Right! {right.why}" and shown["said_kind"] == "right"
    assert shown["score"] == {"tried": 1, "solved": 1, "first_try": 0}
    assert shown["tally"] == "Solved 1 of 1 tried, 0 first tries"
    assert shown["prompt"] == words.play_on(True) and "if you like" in shown["prompt"]

    for move in solve(session.game).moves:  # the play-on is optional, and counts nothing more
        session.play(move)
    shown = session.state["puzzle"]
    assert session.game.is_won and shown["phase"] == "won"
    assert shown["said"] == "Solved after 1 wrong try." and shown["said_kind"] == "won"
    assert shown["score"] == {"tried": 1, "solved": 1, "first_try": 0}
    notice = session.state["notice"]
    assert notice["title"] == words.PUZZLE_SOLVED_TITLE
    assert notice["lines"] == [shown["said"], shown["tally"]]


def test_after_a_right_move_the_counter_says_what_the_panel_says():
    session = board()
    puzzle = session.puzzles.open(puzzles.load("classic")[0].id)
    session.play(puzzle.answers[0].move)
    shown = session.state["puzzle"]
    assert shown["said"].startswith("Right! ") and shown["prompt"].startswith("Solved.")
    assert shown["tally"] == "Solved 1 of 1 tried, 1 first try"
    session.puzzles.step(1)  # the next puzzle, opened, not yet tried
    assert session.state["puzzle"]["tally"] == "Solved 1 of 1 tried, 1 first try"


def test_a_puzzle_answered_from_a_cell_counts_like_one_answered_on_the_board():
    puzzle = puzzles.load("classic", difficulty="easy")[0]
    answer = Move.parse(puzzle.answers[0].move)
    cell = PyramidWidget("classic", deal=42, store=None)
    cell.puzzle(puzzle.id)
    cell.play(answer.text)  # as a student types it: "6♠ + 7♦"
    clicked = board()
    clicked.puzzles.open(puzzle.id)
    assert intent(clicked, "pair", cards=[str(card) for card in answer.cards])["ok"]
    from_cell, from_board = cell.state["puzzle"], clicked.state["puzzle"]
    assert from_cell == from_board
    assert from_cell["score"] == {"tried": 1, "solved": 1, "first_try": 1}


# ------------------------------------------------------------------ show the answer
def test_show_the_answer_gives_it_away_and_the_puzzle_counts_as_tried_not_solved():
    session = board()
    puzzle = session.puzzles.open(difficulty="easy")
    answer = session.puzzles.show_answer()
    assert answer == " ".join(choice.why for choice in puzzle.answers)
    shown = session.state["puzzle"]
    assert shown["said"] == answer and shown["said_kind"] == "shown" and shown["shown"]
    assert shown["prompt"] == words.SHOWN_PROMPT and shown["phase"] == "find"
    assert shown["score"] == {"tried": 1, "solved": 0, "first_try": 0}
    assert session.game.history == []  # shown, not played

    session.play(puzzle.answers[0].move)  # playing the answer shown finds nothing
    shown = session.state["puzzle"]
    assert shown["phase"] == "play" and not shown["solved"]
    assert shown["said"] == puzzle.answers[0].why and shown["prompt"] == words.play_on(False)
    session.restart()
    session.play(puzzle.answers[0].move)  # nor does playing it again after a restart
    for move in solve(session.game).moves:
        session.play(move)
    shown = session.state["puzzle"]
    assert shown["said"] == words.puzzle_result(0, solved=False, shown=True)
    assert shown["score"] == {"tried": 1, "solved": 0, "first_try": 0}


def test_show_the_answer_after_it_was_found_changes_no_count():
    session = board()
    puzzle = session.puzzles.open(difficulty="easy")
    session.play(puzzle.answers[0].move)
    session.restart()
    assert intent(session, "puzzle_answer")["ok"]  # the board's button
    shown = session.state["puzzle"]
    assert shown["said_kind"] == "shown" and not shown["shown"] and shown["solved"]
    assert shown["score"] == {"tried": 1, "solved": 1, "first_try": 1}


def test_show_the_answer_needs_a_puzzle_and_is_refused_without_one():
    session = board()
    with pytest.raises(IllegalMove, match=NO_PUZZLE):
        session.puzzles.show_answer()
    before = session.state
    answer = intent(session, "puzzle_answer")
    assert not answer["ok"] and answer["reason"] == NO_PUZZLE and session.state == before


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
            run.game.play(puzzle.answers[0].move)  # the play-on
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
        run.game.play(puzzle.answers[0].move)  # the play-on
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
        assert session.state["puzzle"]["phase"] == "won"
    assert session.state["puzzle"]["score"]["solved"] == 1


def test_a_puzzle_is_solved_once_however_often_its_answer_is_undone_and_redone():
    session = board()
    puzzle = session.puzzles.open(difficulty="easy")
    session.play(puzzle.answers[0].move)
    for _ in range(3):
        session.undo()
        assert session.state["puzzle"]["phase"] == "find"
        session.redo()  # the answer again, found again: said so, counted once
        shown = session.state["puzzle"]
        assert shown["phase"] == "play" and shown["said"] == f"Right! {puzzle.answers[0].why}"
    assert session.state["puzzle"]["score"] == {"tried": 1, "solved": 1, "first_try": 1}


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
