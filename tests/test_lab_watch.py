"""Watching a strategy on the board: each chosen move is marked before it is played, pause,
step, take over and stop work from code and from the board's messages, a move of the player's
takes over, and watching writes no records."""

from __future__ import annotations

import itertools
import json
import time

import pytest
from helpers import CARD_TOKEN, wait_for

from pyramid_widget import Card, IllegalMove, Move, solve
from pyramid_widget.game import Game
from pyramid_widget.intents import Desk
from pyramid_widget.lab import PlayerView, all_seeing, greedy
from pyramid_widget.session import GameSession


@pytest.fixture
def session(tmp_path) -> GameSession:
    """A board on classic deal 42 whose game in play has two moves: at stake if left."""
    board = GameSession("classic", deal=42, store=tmp_path / "records.sqlite3", threads=False)
    board.draw()
    board.draw()
    yield board
    board.close()


def watch_view(session: GameSession) -> dict:
    return session.state["watch"]


class Board:
    """The board's buttons: each press an intent through the session's desk."""

    def __init__(self, session: GameSession) -> None:
        self.desk, self.seq = Desk(session), itertools.count(1)

    def send(self, action: str) -> dict:
        message = {"type": "intent", "seq": next(self.seq), "view": "v", "action": action}
        return self.desk.handle(message)


def test_the_chosen_move_is_marked_then_played_on_a_step(session):
    in_play = session.game
    session.watching.start(greedy)
    watched = session.game
    assert watched is not in_play and watched.log == in_play.log  # from the board's position
    shown = watch_view(session)
    expected = greedy(PlayerView.of(watched))
    assert shown["phase"] == "playing" and shown["move"] == str(expected)
    assert shown["said"] == f"greedy plays {expected.text}." and shown["player"] == "greedy"
    session.watching.step()
    assert watched.log[-1] == str(expected) and watch_view(session)["played"] == 1
    assert watch_view(session)["phase"] == "paused"  # a step holds the next move
    assert watch_view(session)["move"] == str(greedy(PlayerView.of(watched)))
    assert in_play.log == ["draw", "draw"]  # the game in play was not touched


def test_the_board_pauses_steps_takes_over_and_stops(session):
    client = Board(session)
    session.watching.start(greedy)
    assert client.send("watch_pause")["ok"] and watch_view(session)["phase"] == "paused"
    assert client.send("watch_step")["ok"] and watch_view(session)["played"] == 1
    assert client.send("watch_resume")["ok"] and watch_view(session)["phase"] == "playing"
    assert client.send("watch_take_over")["ok"]
    assert watch_view(session)["phase"] == "yours" and watch_view(session)["move"] is None
    refused = client.send("watch_step")
    assert not refused["ok"] and "took over" in refused["reason"].lower()
    played = session.game.log
    assert client.send("draw")["ok"] and session.game.log == [*played, "draw"]
    assert client.send("watch_stop")["ok"]
    assert session.state["watch"] is None and session.game.log == ["draw", "draw"]
    again = client.send("watch_pause")
    assert (
        not again["ok"]
        and again["reason"] == "no strategy is playing on the board: watch one first"
    )


def test_a_move_of_the_players_takes_over_at_once(session):
    session.watching.start(greedy)
    session.play(Move.parse("draw"))
    assert watch_view(session)["phase"] == "yours" and session.game.log[-1] == "draw"
    with pytest.raises(IllegalMove):
        session.watching.resume()
    session.undo()  # the game is the player's: undo works as on any board
    assert session.game.log == ["draw", "draw"]


def test_watching_never_writes_records(session):
    at_stake = session.at_stake("game")
    before = session.store.records("classic").to_dict()
    number = next(n for n in range(1, 50) if solve(Game.deal(n)).status == "winnable")
    session.watching.start(all_seeing, deal=number)
    while watch_view(session)["phase"] != "over":
        session.watching.step()
    assert session.game.is_won and watch_view(session)["said"].startswith("all-seeing cleared")
    assert session.state["notice"]["kind"] == "won"
    session.watching.take_over()
    session.undo()
    session.watching.stop()
    assert session.store.records("classic").to_dict() == before
    assert session.store.history("classic") == []
    assert session.at_stake("game") == at_stake and session.game.log == ["draw", "draw"]


def test_a_refused_answer_and_a_strategys_error_end_the_watch_with_the_reason(session):
    session.watching.start(lambda view: "Kc+Qh", speed=5)
    shown = watch_view(session)
    assert (
        shown["phase"] == "over"
        and "which the rules refuse (a King is removed alone)" in (shown["said"])
    )
    session.watching.start(lambda view: 1 / 0)
    assert (
        watch_view(session)["said"]
        == "lambda stopped with an error: ZeroDivisionError: division by zero"
    )
    with pytest.raises(ValueError, match="speed"):
        session.watching.start(greedy, speed=0)
    with pytest.raises(TypeError, match="a strategy is a function"):
        session.watching.start("greedy")


def test_what_the_board_is_told_of_a_watch_names_no_unseen_card(session):
    seen_states = []
    session.listen(lambda state, moves: seen_states.append(json.dumps(state["watch"])))
    session.watching.start(greedy)
    for _ in range(40):
        if watch_view(session)["phase"] == "over":
            break
        session.watching.step()
        named = {Card.parse(token) for text in seen_states for token in CARD_TOKEN.findall(text)}
        assert named <= session.game.seen
        seen_states.clear()


def test_a_threaded_board_plays_on_its_own_beat_until_paused(tmp_path):
    board = GameSession("classic", deal=7, store=None, threads=True)
    try:
        board.watching.start(greedy, speed=20)
        wait_for(lambda: board.state["watch"]["played"] >= 3, timeout=30)
        board.watching.pause()
        wait_for(lambda: board.state["watch"]["move"] is not None, timeout=30)
        played = board.state["watch"]["played"]
        time.sleep(0.3)  # six beats at this speed: none plays while paused
        assert board.state["watch"]["played"] == played
        board.watching.take_over()
        board.draw()
        assert board.state["watch"]["phase"] == "yours"
    finally:
        board.close()
