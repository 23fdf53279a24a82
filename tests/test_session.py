"""The game session without any widget: intents in, states out, slow work inline or on threads,
and every stale result dropped in one place. Nothing here imports ipywidgets or anywidget."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest
from helpers import LAYOUT, SOLUTION, wait_for

from pyramid_widget import Game, Move
from pyramid_widget.intents import Desk
from pyramid_widget.jobs import Jobs
from pyramid_widget.session import GameSession
from pyramid_widget.view import CHECKING, REVIEWING


def intent(session: GameSession, action: str, seq: int = 1, **fields: object) -> dict:
    message = {"type": "intent", "seq": seq, "view": "v", "version": session.version}
    return Desk(session).handle({**message, "action": action, **fields})


def test_the_session_imports_nothing_from_jupyter():
    code = (
        "import sys, pyramid_widget.session, pyramid_widget.intents\n"
        "bad = {'anywidget', 'ipywidgets', 'traitlets', 'IPython'} & set(sys.modules)\n"
        "print(sorted(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_listeners_get_every_state_and_the_move_log():
    session = GameSession("open-stock", layout=LAYOUT, store=None, threads=False)
    seen: list[tuple[int, list[str]]] = []
    session.listen(lambda state, moves: seen.append((state["version"], list(moves))))
    session.play("Kc")
    session.set_option("auto_pair", True)
    assert seen == [(2, ["Kc"]), (3, ["Kc"])]
    assert session.state["options"]["auto_pair"] is True


def test_without_threads_a_hint_a_review_and_a_winnable_deal_answer_in_the_same_turn():
    session = GameSession("open-stock", layout=LAYOUT, store=None, threads=False)
    states: list[dict] = []
    session.listen(lambda state, moves: states.append(state))
    assert intent(session, "hint")["ok"]
    assert states[0]["hint"] == CHECKING  # the board says "checking" first
    assert session.state["hint"]["status"] == "done" and session.state["hint"]["move"]
    for move in SOLUTION:
        session.play(move)
    states.clear()
    assert intent(session, "review")["ok"]
    assert states[0]["review"] == REVIEWING
    assert session.state["review"]["status"] == "done"
    assert session.state["review"]["rows"][-1]["after"] == "won"
    session.set_option("winnable_only", True)
    assert intent(session, "new")["ok"]
    assert session.state["finding_deal"] is False and session.state["deal"]["proven"] is True
    assert threading.active_count() == 1 or not any(
        t.name.startswith("pyramid-") for t in threading.enumerate()
    )


def test_where_no_thread_can_start_the_jobs_run_inline_from_then_on(monkeypatch):
    """Pyodide's `threading.Thread.start` raises RuntimeError("can't start new thread")."""

    def cannot_start(self):
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", cannot_start)
    session = GameSession("open-stock", layout=LAYOUT, store=None)
    assert intent(session, "hint")["ok"]
    assert session.state["hint"]["status"] == "done"
    assert session.jobs.threaded is False


def test_one_generation_counter_drops_every_stale_result():
    lock = threading.RLock()
    jobs = Jobs(lock, threads=False)
    shown: list[str] = []
    ticket = jobs.generation
    jobs.invalidate()
    assert jobs.deliver(ticket, lambda: shown.append("old")) is False
    assert jobs.deliver(jobs.generation, lambda: shown.append("new")) is True
    assert shown == ["new"]


def test_a_hint_for_a_position_no_longer_on_the_board_is_dropped():
    release = threading.Event()
    session = GameSession("open-stock", layout=LAYOUT, store=None, threads=True)
    finished = threading.Event()
    session.listen(lambda state, moves: None)

    def slow_hint():
        assert release.wait(10)
        finished.set()
        return "stale"

    session.jobs.run("hint", slow_hint, lambda result: session.hints.show({"r": result}), print)
    session.play("Kc")  # the board moves on before the answer
    release.set()
    wait_for(finished.is_set)
    wait_for(lambda: not any(t.name == "pyramid-hint" for t in threading.enumerate()))
    assert session.state["hint"] is None


def test_a_failing_job_is_reported_and_nothing_stays_checking(capsys):
    session = GameSession("open-stock", layout=LAYOUT, store=None, threads=False)

    def broken():
        raise RuntimeError("out of cards")

    session.hints.show(CHECKING)
    session.jobs.run(
        "hint",
        broken,
        lambda result: None,
        lambda error: session.hints.show({"status": "failed", "reason": str(error)}),
    )
    assert session.state["hint"] == {"status": "failed", "reason": "out of cards"}
    assert "out of cards" in capsys.readouterr().err


@pytest.mark.parametrize("threads", [True, False, None])
def test_the_session_plays_a_whole_game_through_intents(threads):
    session = GameSession("open-stock", layout=LAYOUT, store=None, threads=threads)
    for seq, move in enumerate(SOLUTION, 1):
        if move == "draw":
            ack = intent(session, "tap", seq, target="stock", face=session.game.pile_face("stock"))
        elif "+" in move:
            a, b = move.split("+")
            ack = intent(session, "tap", seq, target=b, selected=a)
        else:
            target = move if move != "recycle" else "stock"
            face = session.game.pile_face("stock") if target == "stock" else None
            ack = intent(session, "tap", seq, target=target, face=face)
        assert ack["ok"], (move, ack)
    assert session.game.is_won and session.moves == [str(Move.parse(m)) for m in SOLUTION]
    assert Game.from_json(session.game.to_json()).is_won


class JsNull:
    """What Pyodide hands Python for JavaScript's null (pyodide.ffi.jsnull's type)."""


def test_javascripts_null_from_pyodide_reads_as_nothing_selected():
    session = GameSession("classic", deal=42, store=None, threads=False)
    message = {
        "type": "intent",
        "seq": 1,
        "view": "v",
        "version": session.version,
        "action": "tap",
        "target": "stock",
        "selected": JsNull(),
        "face": "back",
    }
    assert Desk(session).handle(message)["move"] == "draw"
