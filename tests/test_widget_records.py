"""The widget with its records database and the game review, without a browser: what a player
who closes the notebook, comes back, looks at the records or reviews a game gets, and what
never reaches the browser (the saved game's cards, unseen stock cards in a review)."""

from __future__ import annotations

import copy
import importlib
import json
import random
import threading
from pathlib import Path

import pytest
from helpers import DEAL, DEAL_SOLUTION, LAYOUT, SOLUTION, FakeTime, Front, cards_named, wait_for

from pyramid_widget import Game, IllegalMove, Move, Review
from pyramid_widget.session import GameSession
from pyramid_widget.store import NullStore, Store, default_path
from pyramid_widget.view import REVIEWING
from pyramid_widget.widget import PyramidWidget
from pyramid_widget.words import (
    GIVES_UP,
    LOST_FROM_START,
    LOST_HINT,
    NO_REVIEW,
    NOTHING_TO_CONTINUE,
    NOTHING_TO_REVIEW,
    PRACTICE,
    REVIEW_LOCKED,
)

review_mode = importlib.import_module("pyramid_widget.review_mode")

PLAYED = [str(Move.parse(move)) for move in SOLUTION]  # as the log writes them
DEAL_PLAYED = [str(Move.parse(move)) for move in DEAL_SOLUTION]

# Move 16 of this game (2s+Jc) loses a winnable open-stock deal (2s+Jh keeps it); then the
# first legal move is played until no move is left (46 moves in all).
MISTAKE, BETTER = 16, "2s+Jh"


def stuck_after_a_mistake() -> Game:
    game = Game.from_layout(LAYOUT, "open-stock")
    for move in [*SOLUTION[: MISTAKE - 1], "2s+Jc"]:
        game.play(move)
    while game.outcome is None:
        game.play(game.legal_moves()[0])
    return game


@pytest.fixture
def fake_time(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    fake = FakeTime(1000.0)
    monkeypatch.setattr(PyramidWidget, "_now", staticmethod(fake))
    return fake


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "records.sqlite3"


def watch_for_leaks(widget: PyramidWidget) -> list[str]:
    """Check every state sent from now on: no card the player has not seen may be named in
    it. Returns the list of problems found (empty when all is well)."""
    problems: list[str] = []

    def check(change: dict) -> None:
        unseen = cards_named(json.dumps(change["new"])) - widget.game.seen
        if unseen:
            problems.append(f"state {change['new']['version']} names {sorted(map(str, unseen))}")

    widget.observe(check, names="state")
    return problems


# ------------------------------------------------------------------ saving and continuing
def test_a_closed_game_is_offered_and_continues_with_position_undo_history_and_clock(db, fake_time):
    first = PyramidWidget("open-stock", layout=LAYOUT, store=db)
    for move in SOLUTION[:8]:
        first.play(move)
        fake_time.now += 3
    first.undo()
    first.undo()  # two moves to redo
    fake_time.now += 4
    first.play(SOLUTION[6])  # the redo move, played again: one move left to redo
    saved = (first.game.code, first.moves, first.game.redo_moves, first.elapsed)
    assert saved[2] and saved[3] == 28  # from the first move to the last one saved
    cleared = first.game.cleared
    first.close()

    fake_time.now += 3600  # an hour away: it never counts
    second = PyramidWidget("open-stock", store=db)
    offer = {"rules": "open-stock", "moves": 7, "cleared": cleared, "elapsed": 28}
    shown = second.state["offer"]
    assert {key: shown[key] for key in offer} == offer
    assert shown["text"] == (
        f"Continue your open-stock game (7 moves, {cleared} of 28 cleared, 0:28)? "
        "Playing another deal instead counts it as a loss."
    )
    assert cards_named(json.dumps(second.state["offer"])) == set()
    assert Front(second).intent("continue")["ok"]

    assert (second.game.code, second.moves, second.game.redo_moves, second.elapsed) == saved
    assert second.state["offer"] is None and second.state["event"]["action"] == "continue"
    assert second.state["clock"] == {"elapsed": 28, "running": True, "paused": False}
    fake_time.now += 5
    assert second.elapsed == 33
    second.redo()  # the undo history came back with it
    assert second.moves == PLAYED[:8]


def test_continue_saved_from_code_continues_the_saved_game_or_says_there_is_none(db):
    assert PyramidWidget.continue_saved("open-stock", store=db) is None
    first = PyramidWidget("open-stock", layout=LAYOUT, store=db)
    for move in SOLUTION[:5]:
        first.play(move)
    assert PyramidWidget.continue_saved("open-stock", store=db) is None  # `first` is playing it
    assert PyramidWidget("open-stock", store=db).state["offer"] is None
    first.close()

    again = PyramidWidget.continue_saved("open-stock", store=db)
    assert again is not None and again.moves == PLAYED[:5]
    assert again.game.code == first.game.code and again.state["offer"] is None
    assert PyramidWidget.continue_saved("classic", store=db) is None  # saved games are per rules


def test_playing_on_instead_of_continuing_gives_the_saved_game_up_as_in_000(db):
    first = PyramidWidget("open-stock", deal=DEAL, store=db)
    first.play("Kc")
    first.close()
    second = PyramidWidget("open-stock", deal=3, store=db)
    assert second.state["offer"]["moves"] == 1 and second.state["records"]["losses"] == 0
    second.draw()
    assert second.state["offer"] is None and second.state["records"]["losses"] == 1
    assert second.session.continue_saved() is None
    refused = Front(second).intent("continue")
    assert (refused["ok"], refused["reason"]) == (False, NOTHING_TO_CONTINUE)


def test_the_records_database_follows_the_environment_and_store_none_saves_nothing(db):
    off = PyramidWidget("open-stock", layout=LAYOUT, store=None)
    for move in SOLUTION:
        off.play(move)
    off.restart()
    off.play("Kc")
    assert isinstance(off.store, NullStore) and not off.store.saving
    shown = off.state["records"]
    assert {key: shown[key] for key in ("games", "wins", "saving")} == {
        "games": 0,
        "wins": 0,
        "saving": False,
    }
    assert "Saving is off: games on this board are not recorded." in shown["notes"]
    assert off.records().games == 0 and off.history() == []
    assert not default_path().exists()

    on = PyramidWidget("open-stock", layout=LAYOUT)  # the default: PYRAMID_WIDGET_DB
    on.play("Kc")
    assert on.store.saving and on.store.path == default_path()
    on.close()
    with Store(default_path()) as store:
        assert store.saved_game("open-stock").game.log == ["Kc"]


def test_records_in_the_state_and_from_python_after_wins_and_losses(db, fake_time):
    widget = PyramidWidget("open-stock", deal=DEAL, store=db)
    records = widget.state["records"]
    assert (records["games"], records["win_rate"], records["saving"]) == (0, None, True)
    widget.play("Kc")
    widget.restart()  # a begun deal given up: a loss
    assert widget.state["records"]["losses"] == 1
    for move in DEAL_SOLUTION:
        widget.play(move)
        fake_time.now += 2
    assert widget.state["records"] == {
        "rules": "open-stock",
        "games": 2,
        "wins": 1,
        "losses": 1,
        "practice": 0,
        "current_streak": 1,
        "best_streak": 1,
        "fastest_win": 110,
        "fewest_moves": 56,
        "best_score": None,
        "win_rate": 0.5,
        "saving": True,
        "title": "Records: open-stock",
        "items": widget.state["records"]["items"],
        "notes": widget.state["records"]["notes"],
    }
    assert widget.records().to_dict() == {
        k: v
        for k, v in widget.state["records"].items()
        if k not in ("saving", "title", "items", "notes")
    }
    # The panel's records in words: a rate, a time, and no best score under unscored rules.
    shown = {item["label"]: item["value"] for item in widget.state["records"]["items"]}
    assert shown == {
        "Games": "2",
        "Wins": "1",
        "Losses": "1",
        "Win rate": "50%",
        "Current streak": "1",
        "Best streak": "1",
        "Fastest win": "1:50",
        "Fewest moves": "56",
    }
    # The panel says what counts, and which game the loss was.
    notes = widget.state["records"]["notes"]
    assert notes[0].startswith("A game counts once it is won or given up.")
    assert any(note.startswith(f"Latest losses: deal {DEAL}, left after 1 move") for note in notes)
    assert widget.records("classic").games == 0
    widget.new_deal(5)  # nothing played in the won deal after the win: no loss
    assert widget.state["records"]["games"] == 2
    finished = widget.history()
    assert [(entry.result, entry.move_count) for entry in finished] == [("won", 56), ("lost", 1)]
    assert list(finished[0].moves) == DEAL_PLAYED and finished[0].deal_number == DEAL


# ------------------------------------------------------------------ the review
def test_a_review_from_the_board_marks_the_mistake_and_steps_through_the_game(db):
    widget = PyramidWidget("open-stock", layout=LAYOUT, store=db)
    front = Front(widget)
    leaks = watch_for_leaks(widget)
    for move in stuck_after_a_mistake().log:
        widget.play(move)
    assert widget.game.outcome == "stuck"

    assert front.intent("review")["ok"]
    wait_for(lambda: widget.state["review"] not in (REVIEWING, None))
    shown = widget.state["review"]
    assert shown["status"] == "done" and shown["mistake"] == MISTAKE
    assert shown["better"] == BETTER and f"move {MISTAKE}" in shown["summary"]
    rows = shown["rows"]
    assert [row["number"] for row in rows] == list(range(1, 47))
    assert [row["number"] for row in rows if row["decisive"]] == [MISTAKE]
    assert rows[MISTAKE - 1]["keeps_win"] == BETTER and rows[MISTAKE - 1]["move"] == "2s+Jc"
    assert rows[MISTAKE - 1]["before"] == "winnable" and rows[MISTAKE - 1]["after"] == "unwinnable"

    # A row steps the board back to the position before that move; the rest can be redone.
    assert front.intent("review_step", moves=MISTAKE - 1)["ok"]
    assert widget.moves == PLAYED[: MISTAKE - 1] and len(widget.game.redo_moves) == 46 - 15
    assert widget.state["review"] == shown and widget.state["event"]["action"] == "step"
    assert BETTER in widget.state["legal"]
    widget.redo()  # the review stays while the board shows the reviewed game
    assert widget.state["review"] == shown
    assert front.intent("review_step", moves=46)["ok"] and widget.game.outcome == "stuck"
    assert front.intent("review_step", moves=3)["ok"]
    # Stepping is neither a restart nor a new game: no loss, and the step is saved.
    assert widget.records().losses == 0
    with Store(db) as store:
        assert store.saved_game("open-stock").game.log == PLAYED[:3]
    refused = front.intent("review_step", moves=47)
    assert not refused["ok"] and "from 0 to 46" in refused["reason"]

    front.intent("review_step", moves=MISTAKE - 1)
    widget.play(BETTER)  # the road not taken: the review no longer fits the board
    assert widget.state["review"] is None and not widget.game.can_redo
    assert front.intent("review_step", moves=0)["reason"] == NO_REVIEW
    assert leaks == []


def test_review_waits_until_the_game_is_over_or_every_card_was_seen(db):
    won = Game.from_layout(LAYOUT, "open-stock")
    for move in SOLUTION:
        won.play(move)
    from_code = PyramidWidget(game=Game.from_code(won.code), store=None)  # over, but no moves
    assert Front(from_code).intent("review")["reason"] == NOTHING_TO_REVIEW

    widget = PyramidWidget("classic", layout=LAYOUT, store=db)
    front = Front(widget)
    leaks = watch_for_leaks(widget)
    widget.play("Kc")
    for _ in range(10):
        widget.draw()
    before = copy.deepcopy(widget.state)
    refused = front.intent("review")
    assert (refused["ok"], refused["reason"]) == (False, REVIEW_LOCKED)
    with pytest.raises(IllegalMove, match="every card has been seen"):
        widget.review()
    assert widget.state == before  # mid-game, the face-down stock's secrets stay secret

    for _ in range(14):
        widget.draw()  # the whole stock turned once: nothing is hidden any more
    assert set(widget.game.cards) <= widget.game.seen and widget.game.outcome is None
    result = widget.review(time_limit=5)
    assert len(result) == 25 and widget.state["review"]["rows"][0]["move"] == "Kc"
    assert leaks == []


def test_review_from_python_returns_the_review_and_shows_it_and_a_win_stays_won(db, fake_time):
    widget = PyramidWidget("open-stock", deal=DEAL, store=db)
    for move in DEAL_SOLUTION:
        widget.play(move)
        fake_time.now += 1
    widget.undo()  # the review covers the whole game, redo moves included

    result = widget.review()

    assert isinstance(result, Review) and result.outcome == "won"
    assert len(result) == 56 and result.mistake is None
    assert "Won in 56 moves" in result._repr_html_()
    assert widget.state["review"]["summary"] == result.summary
    Front(widget).intent("review_step", moves=10)
    fake_time.now += 100
    assert widget.moves == DEAL_PLAYED[:10] and widget.elapsed == 55  # the clock stays stopped
    assert widget.records().wins == 1 and widget.records().losses == 0


class SlowReview:
    """A stand-in for `review` that waits until released."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.real = review_mode.review

    def __call__(self, game: Game, **kwargs) -> Review:
        assert self.release.wait(10)
        return self.real(game, hints=False)


@pytest.fixture
def slow_review(monkeypatch: pytest.MonkeyPatch) -> SlowReview:
    fake = SlowReview()
    monkeypatch.setattr(review_mode, "review", fake)
    return fake


def test_the_board_plays_on_while_a_review_thinks_and_a_stale_review_is_dropped(slow_review):
    widget = PyramidWidget("open-stock", layout=LAYOUT, store=None)
    front = Front(widget)
    for move in SOLUTION:
        widget.play(move)
    moved = widget.state["position_version"]
    assert front.intent("review")["ok"]
    assert widget.state["review"] == REVIEWING
    assert widget.state["position_version"] == moved  # not a move
    assert front.intent("review")["ok"] and widget.state["review"] == REVIEWING  # once
    slow_review.release.set()
    wait_for(lambda: widget.state["review"] != REVIEWING)
    assert widget.state["review"]["rows"][-1]["after"] == "won"
    assert front.intent("undo")["ok"]  # still the reviewed game: the review stays
    assert widget.state["review"]["rows"][-1]["after"] == "won"

    slow_review.release.clear()
    front.intent("redo")
    front.intent("review")
    assert front.intent("undo")["ok"]  # the board moved while it was being made: dropped
    assert widget.state["review"] is None
    front.intent("redo")
    front.intent("review")
    assert front.intent("new", number=4)["ok"]  # another deal before the review is ready
    assert widget.state["review"] is None
    slow_review.release.set()
    wait_for(lambda: not any(t.name == "pyramid-review" for t in threading.enumerate()))
    assert widget.state["review"] is None and widget.game.deal_number == 4


def test_asking_for_the_review_again_and_again_runs_one_review_at_a_time(slow_review):
    """200 review / review_close pairs while a review is being made start no second one; the
    last one asked for is shown, once it is ready."""
    widget = PyramidWidget("open-stock", layout=LAYOUT, store=None)
    front = Front(widget)
    for move in SOLUTION:
        widget.play(move)
    running = []
    for _ in range(200):
        assert front.intent("review")["ok"] and front.intent("review_close")["ok"]
        running.append(sum(t.name == "pyramid-review" for t in threading.enumerate()))
    assert max(running) == 1
    assert front.intent("review")["ok"]
    slow_review.release.set()
    wait_for(lambda: widget.state["review"] != REVIEWING)
    assert widget.state["review"]["rows"][-1]["after"] == "won"
    wait_for(lambda: not any(t.name == "pyramid-review" for t in threading.enumerate()))


def test_a_failing_review_is_reported_on_the_board(monkeypatch, capsys):
    def broken(game, **kwargs):
        raise RuntimeError("solver exploded")

    monkeypatch.setattr(review_mode, "review", broken)
    widget = PyramidWidget("open-stock", layout=LAYOUT, store=None)
    for move in SOLUTION:
        widget.play(move)
    Front(widget).intent("review")
    wait_for(lambda: widget.state["review"] != REVIEWING)
    assert widget.state["review"] == {"status": "failed", "reason": "No review: solver exploded."}
    assert "RuntimeError" in capsys.readouterr().err
    assert Front(widget).intent("review_close")["ok"] and widget.state["review"] is None


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ({"action": "review_step"}, "'moves' must be a whole number"),
        ({"action": "review_step", "moves": -1}, "'moves' must be a whole number"),
        ({"action": "review_step", "moves": "3"}, "'moves' must be a whole number"),
    ],
)
def test_malformed_review_steps_change_nothing(message, reason):
    widget = PyramidWidget("open-stock", layout=LAYOUT, store=None)
    front = Front(widget)
    before = copy.deepcopy(widget.state)
    ack = front.raw({"type": "intent", "seq": 1, **message})
    assert ack["ok"] is False and reason in ack["reason"]
    assert widget.state == before


def test_boards_replaced_before_their_first_move_count_nothing(db):
    """Re-running a notebook's cells makes new boards; one left before its first move is no
    game at all, and a game left after a move is one loss, said so in the notes."""
    started = PyramidWidget("open-stock", deal=DEAL, store=db)
    started.play("Kc")
    started.close()
    for _ in range(3):  # three boards shown and replaced, nothing played on them
        PyramidWidget("open-stock", deal=DEAL, store=db).close()
    board = PyramidWidget("open-stock", deal=DEAL, store=db)
    assert board.records().games == 0  # the saved game is still on offer, not lost
    board.play("Kh")  # a first move on another deal gives the offered game up
    records = board.state["records"]
    assert (records["games"], records["losses"]) == (1, 1)
    assert any(note.startswith("Each new board offers to continue") for note in records["notes"])


# ------------------------------------------------------------------ giving up asks first
def test_leaving_a_game_that_counts_asks_first_and_gives_it_up_only_when_told(db):
    board = PyramidWidget("open-stock", deal=DEAL, store=db)
    front = Front(board)
    assert board.state["at_stake"] == {"restart": False, "deal": False}  # nothing played yet
    board.play("Kc")
    assert board.state["at_stake"] == {"restart": True, "deal": True}
    for action, fields in [("restart", {}), ("new", {}), ("new", {"number": 7})]:
        before = (board.game.to_json(), copy.deepcopy(board.state))
        refused = front.intent(action, **fields)
        assert (refused["ok"], refused["reason"]) == (False, GIVES_UP)
        assert (board.game.to_json(), board.state) == before
    assert board.records().losses == 0
    assert front.intent("new", number=7, give_up=True)["ok"]
    assert board.game.deal_number == 7 and board.records().losses == 1


def test_nothing_asks_when_nothing_would_be_lost(db):
    won = PyramidWidget("open-stock", layout=LAYOUT, store=db)
    for move in SOLUTION:
        won.play(move)
    assert won.state["at_stake"] == {"restart": False, "deal": False}  # the win is recorded
    assert Front(won).intent("new", number=3)["ok"]
    unsaved = PyramidWidget("open-stock", layout=LAYOUT, store=None)
    unsaved.play("Kc")
    assert unsaved.state["at_stake"] == {"restart": False, "deal": False}  # nothing counts
    assert Front(unsaved).intent("restart")["ok"]


def test_a_cell_leaves_without_asking_and_the_loss_counts(db):
    board = PyramidWidget("open-stock", deal=DEAL, store=db)
    board.play("Kc")
    board.new_deal(5)  # the caller decided
    assert board.records().losses == 1 and board.game.deal_number == 5


def test_in_puzzle_mode_a_new_deal_asks_for_the_game_set_aside_and_a_restart_does_not(db):
    board = PyramidWidget("classic", deal=42, store=db)
    front = Front(board)
    board.draw()
    board.puzzle()
    assert board.state["at_stake"] == {"restart": False, "deal": True}
    assert front.intent("restart")["ok"]  # the puzzle starts over: nothing is lost
    assert front.intent("new")["reason"] == GIVES_UP and board.session.puzzles.run is not None
    assert front.intent("new", give_up=True)["ok"] and board.records().losses == 1


# ------------------------------------------------------------------ honest records
def test_a_deal_lost_from_the_start_says_so_once_over_and_offers_a_new_deal():
    session = GameSession("strict", deal=1, store=None, threads=False)
    assert session.state["notice"] is None
    rng = random.Random(1)
    while session.game.outcome is None:
        session.play(rng.choice(session.game.legal_moves()))
        if not session.game.open_book:  # cards unseen, the game not over: nothing is said
            assert session.state["notice"] is None and session.board.lost_from_start is None
    notice = session.state["notice"]
    assert notice["kind"] == "lost" and notice["title"] == LOST_FROM_START
    session.restart()  # played again: the hint says the deal was lost, not "undo"
    session.hints.request()
    assert session.state["hint"]["reason"] == LOST_HINT


def test_a_hand_made_deck_by_its_code_is_practice_and_only_numbered_deals_count(db, fake_time):
    """A deck made easy, won three times from its code, sets no best and no streak; the
    numbered deal by its shared code does."""
    board = PyramidWidget("open-stock", store=db)
    front = Front(board)
    deck = Game.from_layout(LAYOUT, "open-stock")
    for code in (deck.code, deck.deal_code, deck.code):
        assert front.intent("new", code=code)["ok"]
        for move in SOLUTION:
            board.play(move)
            fake_time.now += 1
        assert board.game.is_won and PRACTICE in board.state["notice"]["lines"]
    front.intent("new", code=deck.code)
    board.play("Kc")
    assert front.intent("new", code=f"open-stock#{DEAL}", give_up=True)["ok"]  # a practice loss
    records = board.state["records"]
    assert (records["games"], records["wins"], records["losses"], records["practice"]) == (
        4, 0, 0, 4
    )  # fmt: skip
    assert (records["fewest_moves"], records["best_streak"], records["win_rate"]) == (None, 0, None)
    assert not any(note.startswith("Latest losses") for note in records["notes"])

    for move in DEAL_SOLUTION:
        board.play(move)
        fake_time.now += 1
    records = board.records()
    assert (records.wins, records.practice, records.fewest_moves, records.best_streak) == (
        1, 4, len(DEAL_SOLUTION), 1
    )  # fmt: skip
    assert PRACTICE not in board.state["notice"]["lines"]


def test_a_win_after_the_review_opened_counts_as_practice_and_the_end_panel_says_so(db):
    board = PyramidWidget("open-stock", deal=DEAL, store=db)
    front = Front(board)
    for move in DEAL_SOLUTION[:-1]:
        board.play(move)
    assert board.game.all_seen  # the review may open: every card has been seen
    board.review()
    assert front.intent("review_step", moves=len(DEAL_SOLUTION) - 3)["ok"]  # rewound from it
    for move in DEAL_SOLUTION[-3:]:
        board.play(move)
    assert board.game.is_won
    records = board.records()
    assert (records.games, records.wins, records.practice, records.win_rate) == (1, 0, 1, None)
    assert (records.current_streak, records.fastest_win) == (0, None)
    assert PRACTICE in board.state["notice"]["lines"]
