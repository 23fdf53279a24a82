"""Records and the Recorder session: the loss rule, the clock, Continue, and records that stay
exact over hundreds of random games played through the Python API."""

from __future__ import annotations

import ast
import functools
import os
import random
import sqlite3
import tempfile
from pathlib import Path

import pytest
from helpers import random_game
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import pyramid_widget
from pyramid_widget import DECK, Game, Rules
from pyramid_widget.deals import MAX_DEAL
from pyramid_widget.records import Outcome, Recorder, Records, summarize
from pyramid_widget.session import GameSession
from pyramid_widget.solver import solve
from pyramid_widget.store import NullStore, Store

PACKAGE = Path(pyramid_widget.__file__).parent


class FakeClock:
    """A clock the test moves by hand, standing in for time.monotonic."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def tick(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(autouse=True)
def _no_user_data(tmp_path, monkeypatch):
    """Nothing here may touch the player's real records."""
    monkeypatch.setenv("PYRAMID_WIDGET_DB", str(tmp_path / "default.sqlite3"))


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "records.sqlite3") as opened:
        yield opened


@pytest.fixture
def clock():
    return FakeClock()


@functools.cache
def _winnable_deal(seed: int, rules: str) -> tuple[int, tuple[str, ...]]:
    number = seed + 1
    while not (found := solve(Game.deal(number, rules))).winnable:
        number += 1
    return number, found.moves


def quick_win(seed: int, rules: str = "classic") -> tuple[Game, list[str]]:
    """The first winnable numbered deal from `seed + 1` on, and a winning line the solver
    found: a numbered deal counts for the records (a hand-made deck would be practice)."""
    number, line = _winnable_deal(seed, rules)
    return Game.deal(number, rules), list(line)


def play_random(game: Game, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            return
        game.play(rng.choice(legal))


def test_quick_win_helper_wins_a_numbered_deal():
    game, line = quick_win(3)
    for move in line:
        game.play(move)
    assert game.is_won and game.move_count == len(line) and game.deal_number is not None


# ---------------------------------------------------------------------- autosave and Continue
def test_every_move_is_saved_and_continues_with_position_undo_redo_and_clock(store, clock):
    game = Game.deal(8, "open-stock")
    recorder = Recorder(store, game, clock=clock)
    for _ in range(12):
        game.play(game.legal_moves()[0])
        recorder.moved()
        clock.tick(2.5)
    game.undo()
    recorder.moved()
    clock.tick(100)  # the notebook is closed here: only saved seconds survive

    later = Recorder(store, Game.deal(9, "open-stock"), clock=clock)
    assert later.offer is not None and later.offer.game_id == recorder.game_id
    continued = later.continue_saved()
    assert continued is not None
    assert (continued.code, continued.log, continued.redo_moves, continued.seen) == (
        game.code, game.log, game.redo_moves, game.seen
    )  # fmt: skip
    assert later.elapsed == pytest.approx(12 * 2.5)  # the first move starts the clock
    clock.tick(4)
    assert later.elapsed == pytest.approx(12 * 2.5 + 4)  # it runs on from the saved time
    assert continued.redo() == game.redo()  # the undone move can be redone after Continue


def test_continue_offers_only_games_of_the_same_rules(store):
    game = Game.deal(3, "scored")
    recorder = Recorder(store, game)
    game.draw()
    recorder.moved()
    assert Recorder(store, Game.deal(4, "classic")).offer is None
    assert Recorder(store, Game.deal(4, "scored")).offer.game.code == game.code


def test_continuing_and_winning_updates_the_same_game(store):
    game, line = quick_win(5)
    first = Recorder(store, game)
    for move in line[:6]:
        game.play(move)
        first.moved()
    second = Recorder(store, Game.deal(1))
    continued = second.continue_saved()
    for move in line[6:]:
        continued.play(move)
        second.moved()
    assert second.game_id == first.game_id
    records = store.records("classic")
    assert (records.games, records.wins, records.losses, records.fewest_moves) == (
        1, 1, 0, len(line)
    )  # fmt: skip


def test_continuing_twice_keeps_the_game_being_played(store):
    game = Game.deal(6)
    first = Recorder(store, game)
    game.draw()
    first.moved()
    player = Recorder(store, Game.deal(7))
    continued = player.continue_saved()
    continued.draw()
    player.moved()
    player.changed("new", continued)  # the widget announcing the continued game: no new deal
    assert player.continue_saved() is continued  # again, from code: nothing lost
    continued.draw()
    player.moved()
    assert store.records("classic").games == 0
    assert store.saved_game("classic").game.log == ["draw"] * 3


# ---------------------------------------------------------------------- the loss rule
def test_a_win_is_recorded_once(store):
    game, line = quick_win(1)
    recorder = Recorder(store, game)
    for move in line:
        game.play(move)
        recorder.moved()
    recorder.moved()  # the same win seen again
    game.undo()
    recorder.moved()
    game.redo()
    recorder.moved()  # won again after undo and redo
    assert not store.save(recorder.game_id, game, 1.0, result="won")
    recorder.new_game(Game.deal(2))  # leaving a won game is no loss
    records = store.records("classic")
    assert (records.games, records.wins, records.current_streak, records.fewest_moves) == (
        1, 1, 1, len(line)
    )  # fmt: skip
    assert len(store.history()) == 1


@pytest.mark.parametrize("leave", ["restart", "new", "numbered"])
def test_leaving_a_begun_unfinished_deal_records_a_loss(store, leave):
    game = Game.deal(10)
    recorder = Recorder(store, game)
    game.draw()
    recorder.moved()
    if leave == "restart":
        game.restart()
        recorder.changed("restart", game)
    else:
        recorder.changed("new", Game.random() if leave == "new" else Game.deal(77))
    records = store.records("classic")
    assert (records.games, records.losses, records.current_streak) == (1, 1, 0)
    assert store.history()[0].moves == ("draw",)
    assert store.saved_game("classic") is None  # a lost game is not offered again


@pytest.mark.parametrize("leave", ["restart", "new"])
def test_leaving_before_the_first_move_records_nothing(store, leave):
    game = Game.deal(10)
    recorder = Recorder(store, game)
    recorder.changed(leave, game if leave == "restart" else Game.deal(11))
    assert store.records("classic").games == 0
    assert store.history() == []


def test_undo_alone_records_nothing_but_leaving_the_begun_deal_does(store):
    game = Game.deal(12)
    recorder = Recorder(store, game)
    for _ in range(3):
        game.draw()
        recorder.moved()
    for _ in range(3):
        game.undo()
        recorder.moved()
    assert store.records("classic").games == 0
    assert store.saved_game("classic").game.redo_moves == game.redo_moves  # saved, still open
    recorder.new_game(Game.deal(13))
    assert store.records("classic").losses == 1


def test_being_stuck_is_a_notice_not_a_loss(store):
    game = Game.deal(2, "strict")
    recorder = Recorder(store, game)
    while game.legal_moves():
        game.play(game.legal_moves()[0])
        recorder.moved()
    assert game.is_stuck
    assert store.records("strict").games == 0
    assert store.saved_game("strict").game.is_stuck  # can still be continued, then undone
    recorder.new_game(Game.deal(3, "strict"))
    assert store.records("strict").losses == 1


def test_an_offer_given_up_is_lost_and_a_taken_one_is_not(store):
    game = Game.deal(20)
    Recorder(store, game)  # never moved: nothing saved, nothing offered
    old = Recorder(store, game)
    game.draw()
    old.moved()

    taken = Recorder(store, Game.deal(21))
    taken.continue_saved()
    assert store.records("classic").games == 0

    fresh = Game.deal(22)
    gave_up = Recorder(store, fresh)
    assert gave_up.offer is not None
    fresh.draw()
    gave_up.moved()  # a new game started instead of Continue: the old one is lost
    assert gave_up.offer is None
    assert store.records("classic").losses == 1
    assert store.saved_game("classic").game_id == gave_up.game_id


def test_switching_rules_offers_that_rules_game_and_gives_up_none(store):
    classic, scored = Game.deal(30), Game.deal(31, "scored")
    for game in (classic, scored):
        recorder = Recorder(store, game)
        game.draw()
        recorder.moved()
    player = Recorder(store, Game.deal(32))
    assert player.offer.game_id != recorder.game_id  # the classic one
    player.new_game(Game.deal(33, "scored"))
    assert player.offer.game_id == recorder.game_id
    player.game.draw()
    player.moved()  # gives up the scored game only
    assert store.records("scored").losses == 1
    assert store.records("classic").games == 0
    assert store.saved_game("classic").game.code == classic.code


# ---------------------------------------------------------------------- the clock
def test_the_clock_counts_play_only(store, clock):
    game, line = quick_win(7)
    recorder = Recorder(store, game, clock=clock)
    clock.tick(50)  # looking at the deal before the first move
    assert recorder.elapsed == 0 and not recorder.clock_running
    game.play(line[0])
    recorder.moved()
    clock.tick(10)
    recorder.pause()
    clock.tick(1000)  # paused, or the tab hidden
    recorder.unpause()
    for move in line[1:]:
        clock.tick(1)
        game.play(move)
        recorder.moved()
    clock.tick(30)  # after the win
    played = 10 + len(line) - 1
    assert recorder.elapsed == pytest.approx(played) and not recorder.clock_running
    assert store.records("classic").fastest_win == pytest.approx(played)


# ---------------------------------------------------------------------- robustness
class FailingStore(NullStore):
    def save(self, *args, **kwargs):
        raise sqlite3.OperationalError("disk I/O error")


def test_a_failing_store_warns_and_play_goes_on():
    game = Game.deal(4)
    recorder = Recorder(FailingStore(), game)
    game.draw()
    with pytest.warns(RuntimeWarning, match="could not use its records database"):
        recorder.moved()
    game.draw()  # still playable
    assert game.move_count == 2


def test_without_a_store_nothing_is_kept():
    game, line = quick_win(2)
    recorder = Recorder(NullStore(), game)
    for move in line:
        game.play(move)
        recorder.moved()
    assert recorder.finished and recorder.records() == Records("classic")
    assert recorder.continue_saved() is None


# ---------------------------------------------------------------------- practice
def one_move_from_the_win(rules: str = "classic") -> Game:
    """A game begun from a position code: only the apex 5♥ is left, the 8♣ on the waste."""
    lesson = Game.from_position({0: "5h"}, waste=["8c"], rules=rules)
    return Game.from_code(lesson.code)


def win_from_the_start(recorder: Recorder, clock: FakeClock, seed: int, rules: str) -> Game:
    """Win a numbered deal from its start, a second per move (one second less than its moves
    from the first move to the last)."""
    game, line = quick_win(seed, rules)
    recorder.new_game(game)
    for move in line:
        game.play(move)
        recorder.moved()
        clock.tick(1)
    return game


@pytest.mark.parametrize("rules", ["classic", "scored"])
def test_a_game_begun_from_a_position_code_counts_as_played_but_sets_no_record(store, rules):
    game = one_move_from_the_win(rules)
    assert not game.from_deal_start
    recorder = Recorder(store, game)
    game.play("5h+8c")
    recorder.moved()
    assert game.is_won
    records = store.records(rules)
    assert (records.games, records.wins, records.losses, records.practice) == (1, 0, 0, 1)
    assert records.win_rate is None  # played, and neither a win nor a loss
    assert (records.fastest_win, records.fewest_moves, records.best_score) == (None, None, None)
    assert (records.current_streak, records.best_streak) == (0, 0)
    [entry] = store.history()
    assert entry.practice and entry.result == "won"


def test_a_practice_game_neither_extends_nor_breaks_a_streak(store, clock):
    recorder = Recorder(store, Game.deal(1), clock=clock)
    first = win_from_the_start(recorder, clock, 1, "scored")
    practice = one_move_from_the_win("scored")
    recorder.new_game(practice)
    practice.play("recycle")  # begun, then given up: a practice loss
    recorder.moved()
    second = win_from_the_start(recorder, clock, 2, "scored")
    lesson = one_move_from_the_win("scored")
    recorder.new_game(lesson)
    lesson.play("5h+8c")  # a practice win: at once, and the 28th move
    recorder.moved()
    records = store.records("scored")
    assert (records.games, records.wins, records.losses, records.practice) == (4, 2, 0, 2)
    assert (records.current_streak, records.best_streak) == (2, 2)
    fewest = min(first.move_count, second.move_count)  # not the lesson's, nor its 0 s
    assert (records.fastest_win, records.fewest_moves) == (fewest - 1, fewest)
    assert records.best_score == max(first.score, second.score)


def test_summarize_leaves_practice_games_out_of_bests_and_streaks():
    rows = [
        Outcome("won", 90.0, 40, 300),
        Outcome("lost", 5.0, 2, 20, practice=True),  # does not break the streak
        Outcome("won", 1.0, 1, 10**6, practice=True),  # sets no best, does not extend it
        Outcome("won", 80.0, 50, 200),  # begun at its deal's start
    ]
    records = summarize("scored", rows)
    assert (records.games, records.wins, records.losses, records.practice) == (4, 2, 0, 2)
    assert records.win_rate == 1.0
    assert (records.current_streak, records.best_streak) == (2, 2)
    assert (records.fastest_win, records.fewest_moves, records.best_score) == (80.0, 40, 300)


# ---------------------------------------------------------------------- only numbered deals count
MEMORY = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
RULES = st.sampled_from(["classic", "scored", "open-stock", "one-recycle", "strict"])
NUMBERS = st.integers(1, MAX_DEAL)


@st.composite
def dealt(draw) -> tuple[str, str, object]:
    """A board on a numbered deal (nobody chose its cards): ("dealt", how, what)."""
    rules, number = draw(RULES), draw(NUMBERS)
    how = draw(st.sampled_from(["deal=", "number", "deal code", "daily", "random", "game="]))
    if how == "deal=":
        return "dealt", how, (rules, number)
    if how == "game=":  # a numbered deal played on in Python, or continued from its save
        game = random_game(rules, number, draw(st.integers(0, 30)), draw(st.integers(0, 99)))
        return "dealt", how, draw(st.sampled_from([game, Game.from_json(game.to_json())]))
    fields = {
        "number": {"number": number, "rules": rules},
        "deal code": {"code": f"{rules}#{number}"},  # a shared id
        "daily": {"daily": True, "rules": rules},
        "random": {"rules": rules},
    }[how]
    return "dealt", "new", fields


@st.composite
def made(draw) -> tuple[str, str, object]:
    """A board on a deck someone wrote, or on a position: ("made", how, what)."""
    rules = draw(RULES)
    kind = draw(st.sampled_from(["deck", "a numbered deal's deck", "position"]))
    if kind == "deck":
        game = Game(draw(st.permutations(DECK)), Rules.parse(rules))
    elif kind == "a numbered deal's deck":
        game = Game.from_layout(Game.deal(draw(NUMBERS)).layout, rules)
    else:  # any position of a numbered deal, its start included, by its code
        steps = draw(st.integers(0, 30))
        played = random_game(rules, draw(NUMBERS), steps, draw(st.integers(0, 99)))
        game = Game.from_code(played.code)
    how = draw(st.sampled_from(["layout=", "game=", "code", "deal code"]))
    if how == "layout=":
        return "made", how, (rules, game.layout)
    if how == "game=":
        return "made", how, game
    return "made", "new", {"code": game.code if how == "code" else game.deal_code}


def board_on(source: tuple[str, str, object], db: Path) -> GameSession:
    _, how, what = source
    if how == "deal=":
        return GameSession(what[0], deal=what[1], store=db, threads=False)
    if how == "layout=":
        return GameSession(what[0], layout=what[1], store=db, threads=False)
    if how == "game=":
        return GameSession(game=what, store=db, threads=False)
    session = GameSession(store=db, threads=False)
    session.new_deal(**what)
    return session


@settings(max_examples=200, deadline=None)
@given(source=st.one_of(dealt(), made()))
def test_only_numbered_deals_count_and_any_deck_or_position_is_practice(source):
    counts = source[0] == "dealt"
    with tempfile.TemporaryDirectory(dir=MEMORY) as folder:
        session = board_on(source, Path(folder) / "records.sqlite3")
        try:
            game = session.game
            assert session.board.recorder.practice is not counts
            legal = game.legal_moves()
            assume(legal)
            session.play(legal[0])
            session.new_deal(7, rules="classic")  # leaves it: given up, unless that move won
            records = session.records(game.rules)
            [entry] = session.history()
        finally:
            session.close()
    assert records.games == 1 and entry.practice is not counts
    assert (records.wins + records.losses, records.practice) == (int(counts), int(not counts))
    if not counts:  # no best, no streak
        assert (records.fewest_moves, records.fastest_win, records.best_streak) == (None, None, 0)


def test_a_deck_or_a_position_saved_straight_to_the_store_is_practice(store):
    deck = Game.from_layout(Game.deal(42).layout)  # deal 42's cards, written out
    start = Game.from_code(Game.deal(42).code)  # deal 42's start, by its position code
    for number, game in enumerate([deck, start, Game.deal(42)]):
        game.draw()
        assert store.save(f"g{number}", game, 1.0, practice=False)
        assert store.give_up(f"g{number}")
    records = store.records("classic")
    assert (records.games, records.losses, records.practice) == (3, 1, 2)
    assert [entry.practice for entry in store.history()] == [False, True, True]


def test_a_practice_game_continued_stays_practice(store):
    game = Game.deal(8)
    first = Recorder(store, game)
    game.draw()
    first.moved()
    first.mark_practice()  # its review was opened
    later = Recorder(store, Game.deal(9))
    continued = later.continue_saved()
    assert later.practice  # and the board says the game is practice
    continued.draw()
    later.moved()
    later.new_game(Game.deal(10))
    records = store.records("classic")
    assert (records.games, records.losses, records.practice) == (1, 0, 1)


def test_rows_of_decks_written_as_counting_are_read_as_practice(store):
    """A row with no deal number is practice, whatever its practice column says (a version
    that counted hand-made decks wrote 0): in the records, the history and when continued."""
    won = Game.from_layout(Game.deal(1).layout)  # deal 1's cards, written out
    while not won.is_won:  # deal 1 is won by always playing the first legal move
        won.play(won.legal_moves()[0])
    deck = Game.from_layout(Game.deal(5).layout)
    deck.draw()
    store.save("won", won, 1.0, result="won")
    store.save("open", deck, 2.0)
    with sqlite3.connect(store.path) as conn:
        conn.execute("UPDATE games SET practice = 0")
    conn.close()
    records = store.records("classic")
    assert (records.games, records.wins, records.practice, records.fewest_moves) == (
        1, 0, 1, None
    )  # fmt: skip
    assert store.history()[0].practice
    recorder = Recorder(store, Game.deal(1))
    recorder.continue_saved()
    assert recorder.game_id == "open" and recorder.practice


# ---------------------------------------------------------------------- layering
def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at any depth (inside functions and TYPE_CHECKING too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            found |= {f"{'.' * node.level}{node.module or ''}"}
            if node.module is None:
                found |= {f"{'.' * node.level}{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


def test_records_sit_below_the_store_and_never_import_it():
    above = {".store", "pyramid_widget.store", ".store_file", "pyramid_widget.store_file"}
    assert not above & imported_modules(PACKAGE / "records.py")
    assert ".records" in imported_modules(PACKAGE / "store.py")


# ---------------------------------------------------------------------- summaries
def test_summarize_streaks_rates_and_bests():
    rows = [Outcome(*row) for row in [
        ("won", 90.0, 40, 300), ("won", 80.0, 50, 200), ("lost", 10.0, 5, 20),
        ("won", 70.0, 45, 400), ("won", 95.0, 30, 100), ("won", 99.0, 60, 150),
    ]]  # fmt: skip
    records = summarize("scored", rows)
    assert (records.games, records.wins, records.losses) == (6, 5, 1)
    assert (records.current_streak, records.best_streak) == (3, 3)
    assert (records.fastest_win, records.fewest_moves, records.best_score) == (70.0, 30, 400)
    assert records.win_rate == pytest.approx(5 / 6)
    assert summarize("classic", rows).best_score is None  # classic does not score
    empty = summarize("classic", [])
    assert empty.win_rate is None and empty.to_dict()["games"] == 0


# ---------------------------------------------------------------------- exact under many games
def expected_records(rules: str, finished: list[tuple[str, float, int, int]]) -> dict:
    """Records counted another way than `summarize`, from the test's own log."""
    results = "".join("W" if result == "won" else "L" for result, *_ in finished)
    runs = results.split("L")
    wins = [(elapsed, moves) for result, elapsed, moves, _ in finished if result == "won"]
    return {
        "games": len(results),
        "wins": results.count("W"),
        "losses": results.count("L"),
        "current_streak": len(runs[-1]),
        "best_streak": max(map(len, runs)),
        "fastest_win": min((e for e, _ in wins), default=None),
        "fewest_moves": min((m for _, m in wins), default=None),
        "best_score": max((s for *_, s in finished), default=None) if rules == "scored" else None,
    }


def test_records_stay_exact_over_hundreds_of_random_games(store, clock):
    rng = random.Random(20240607)
    log: dict[str, list[tuple[str, float, int, int]]] = {"classic": [], "scored": []}
    game = Game.deal(1)
    recorder = Recorder(store, game, clock=clock)
    played = 0
    for n in range(300):
        rules = rng.choice(["classic", "scored"])
        kind = rng.choices(["win", "new", "restart", "untouched", "undo-all"], [3, 3, 2, 1, 1])[0]
        if kind == "win":
            game, line = quick_win(n, rules)
        else:
            game = Game.deal(rng.randrange(1, 10_000), rules)
        recorder.new_game(game)
        start = None
        if kind == "win":
            for move in line:
                if rng.random() < 0.2 and game.stock_count:  # a draw taken back: both saved
                    game.draw()
                    recorder.moved()
                    start = clock.now if start is None else start
                    game.undo()
                    recorder.moved()
                game.play(move)
                recorder.moved()
                start = clock.now if start is None else start
                if game.is_won:
                    log[rules].append(("won", clock.now - start, game.move_count, game.score))
                elif rng.random() < 0.1:
                    game.undo()
                    recorder.moved()
                    game.redo()
                    recorder.moved()
                clock.tick(rng.uniform(0.5, 5))
        elif kind in ("new", "restart", "undo-all"):
            for _ in range(rng.randint(1, 8)):
                game.play(rng.choice(game.legal_moves()))
                recorder.moved()
            if kind == "undo-all":
                while game.can_undo:
                    game.undo()
                    recorder.moved()
            log[rules].append(("lost", 0.0, game.move_count, game.score))
            if kind == "restart":
                game.restart()
                recorder.restarted()
        played += kind != "untouched"
    recorder.new_game(Game.deal(1))  # leave the last one too

    assert played > 200
    for rules, finished in log.items():
        records = store.records(rules).to_dict()
        for key, value in expected_records(rules, finished).items():
            assert records[key] == pytest.approx(value), (rules, key)
    assert len(store.history()) == sum(map(len, log.values()))
    assert store.saved_game("classic") is None and store.saved_game("scored") is None


def test_an_offer_saved_again_since_it_was_made_is_not_taken_up_stale(store):
    game = Game.deal(40)
    first = Recorder(store, game)
    game.draw()
    first.moved()
    later = Recorder(store, Game.deal(41))
    assert later.offer.game.log == ["draw"]
    game.draw()
    first.moved()  # saved again after the offer was made
    assert later.continue_saved() is None  # the stale offer would lose the second draw
    continued = later.continue_saved()  # asked again: the latest save
    assert continued is not None and continued.log == ["draw", "draw"]
