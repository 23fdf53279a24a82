"""What the Pyodide test asks of pyramid-widget, written once and run in two Pythons.

`facts()` deals, plays, saves, solves, hints, reviews, keeps records in a SQLite file and plays
a widget through the messages a board sends, and returns what it saw as plain JSON data.
tests/test_pyodide.py runs it inside Pyodide (under Node, on the freshly built wheel) and in
the test's own CPython, and compares the two: every answer asked for here is reproducible (the
searches finish far inside their limits, fair hints count search nodes rather than seconds,
winnable deals come from a seed), so Pyodide must give exactly the same game as CPython.

`session()` drives a `GameSession` the way a board does, through `intents.Desk`, with the
default job runner: a worker thread where one can start, the caller's own turn where none can
(Pyodide). The hint, the review and the winnable deal must each come back with an answer.

`environment()` says what the Python it runs in can do (threads, process pools), so the test
can check that the Pyodide run really had neither, and whether `winnability` had to solve in
its own process for want of a process pool.

Standard library and pyramid_widget only: the same file must import in both places.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

from pyramid_widget import Game, IllegalMove, deal_winnable, hint, review, solve, winnability
from pyramid_widget.store import Store

#: The deal most facts are about (classic rules): winnable, and solved far inside any time limit.
DEAL = 2


def environment() -> dict[str, Any]:
    """What this Python can do; in Pyodide neither a thread nor a process pool starts."""
    import concurrent.futures
    import threading

    def attempt(action) -> str:
        try:
            action()
        except Exception as error:
            return f"{type(error).__name__}: {error}"
        return "ok"

    def thread() -> None:
        worker = threading.Thread(target=lambda: None)
        worker.start()
        worker.join()

    def pool() -> None:
        with concurrent.futures.ProcessPoolExecutor(max_workers=1) as executor:
            executor.submit(abs, -1).result(timeout=60)

    from pyramid_widget.solver.pools import local_pool

    statistics = local_pool(2)  # what `winnability` solves on when given no executor
    statistics.close(interrupted=False)
    return {
        "platform": sys.platform,
        "python": list(sys.version_info[:3]),
        "thread": attempt(thread),
        "process_pool": attempt(pool),
        "winnability_in_process": statistics.in_process,
    }


def _play_first_moves(game: Game, count: int) -> None:
    """The first legal move, `count` times: a pair or King when there is one, else the stock."""
    for _ in range(count):
        moves = game.legal_moves()
        if not moves:
            return
        game.play(moves[0])


def engine() -> dict[str, Any]:
    game = Game.deal(DEAL, "classic")
    start_code = game.code
    _play_first_moves(game, 12)
    played = list(game.log)
    game.undo()
    game.undo()
    game.redo()
    try:
        game.play("Kh+Qs")
        refusal = None
    except IllegalMove as error:
        refusal = str(error)
    copy = Game.from_code(game.code)
    saved = Game.from_json(game.to_json())
    return {
        "start_code": start_code,
        "deal_code": game.deal_code,
        "played": played,
        "log_after_undo_redo": list(game.log),
        "code": game.code,
        "code_round_trip": copy.code == game.code and copy.pyramid == game.pyramid,
        "save_round_trip": saved.to_json() == game.to_json() and saved.log == game.log,
        "refusal": refusal,
        "cleared": game.cleared,
        "stock": game.stock_count,
        "repr": repr(game),
    }


def solver() -> dict[str, Any]:
    verdicts = {}
    for number in (1, 2, 3, 5, 7):
        solution = solve(Game.deal(number, "classic"), time_limit=None)
        verdicts[number] = [solution.status, list(solution.moves or ())]
    start = Game.deal(DEAL, "classic")
    exact = hint(start, fair=False, time_limit=30.0)
    fair = hint(start, fair=True, time_limit=0.3)
    found = deal_winnable("classic", seed=7)
    counted = winnability([1, 2, 3], "classic", time_limit=None, progress=None)
    return {
        "solve": verdicts,
        "hint_exact": [exact.move, exact.kind, exact.verdict, exact.reason],
        "hint_fair": [fair.move, fair.kind, fair.verdict, fair.reason, fair.chance],
        "deal_winnable": [found.game.deal_number, found.proven, found.tries],
        "winnability": [counted.winnable, counted.unwinnable, counted.unknown, counted.deals],
    }


def reviews() -> dict[str, Any]:
    game = Game.deal(DEAL, "classic")
    _play_first_moves(game, 10)
    judged = review(game, time_limit=30.0, hint_time=0.3)
    return {"summary": judged.summary, "rows": judged.to_rows()}


def records() -> dict[str, Any]:
    """A won game and an unfinished one in a SQLite file, read back after reopening it."""
    won = Game.deal(DEAL, "classic")
    for move in solve(won, time_limit=None).moves:
        won.play(move)
    going = Game.deal(5, "classic")
    _play_first_moves(going, 6)
    with tempfile.TemporaryDirectory(prefix="pyramid-records-") as folder:
        path = os.path.join(folder, "records.sqlite3")
        with Store(path) as store:
            store.save("won-1", won, 61.5, result="won")
            store.save("going-1", going, 12.0)
        reader = sqlite3.connect(path)  # the journal mode is kept in the file
        journal = reader.execute("PRAGMA journal_mode").fetchone()[0]
        reader.close()
        with Store(path) as store:
            resumed = store.saved_game("classic")
            history = store.history("classic")
            kept = store.records("classic").to_dict()
    return {
        "journal": journal,
        "won": won.is_won,
        "records": kept,
        "history": [[g.deal_number, g.result, g.moves] for g in history],
        "resumed": resumed is not None and resumed.game.log == going.log,
    }


def widget() -> dict[str, Any]:
    """A board (saving nothing) played from code and through a view's messages."""
    from pyramid_widget import PyramidWidget

    board = PyramidWidget(rules="classic", deal=DEAL, store=None)
    acks: list[dict] = []
    board.send = lambda content, buffers=None: acks.append(content)
    seq = 0

    def intent(action: str, **fields: Any) -> dict:
        nonlocal seq
        seq += 1
        message = {"type": "intent", "seq": seq, "view": "v1", "action": action}
        message.update(version=board.state["version"], **fields)
        board._on_msg(board, message, [])
        return acks[-1]

    first = board.game.legal_moves()[0]
    board.play(first)
    board.draw()
    board.undo()
    by_code = list(board.moves)
    drawn = intent("draw")
    stock_after_draw = board.state["stock"]["count"]
    legal = board.game.legal_moves()
    pair = next((m for m in legal if m.kind == "pair"), None)
    paired = intent("pair", cards=[str(c) for c in pair.cards]) if pair else None
    refused = intent("pair", cards=["Ks", "Kh"])
    return {
        "by_code": by_code,
        "draw_ack": drawn,
        "stock_after_draw": stock_after_draw,
        "pair_ack": paired,
        "refused_ack": refused,
        "moves": list(board.moves),
        "status": board.state["status"],
    }


def _settled(done: Callable[[], bool], seconds: float = 120.0) -> bool:
    """Whether `done()` holds, waiting for a worker thread if there is one (never in Pyodide,
    where the job has already run in the intent's own turn)."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def _as_message(move: str) -> dict[str, Any]:
    """The message a board sends for a move: a pair dragged, a King or the stock tapped."""
    if "+" in move:
        return {"action": "pair", "cards": move.split("+")}
    if move in ("draw", "recycle"):
        return {"action": move}
    return {"action": "tap", "target": move}


def session() -> dict[str, Any]:
    """A board's slow requests through intents: each ends in an answer, none stays pending."""
    from pyramid_widget.intents import Desk
    from pyramid_widget.session import GameSession

    board = GameSession("classic", deal=DEAL, store=None)
    seen: list[dict[str, Any]] = []
    board.listen(lambda state, moves: seen.append(state))
    seq = 0

    def intent(action: str, **fields: Any) -> dict:
        nonlocal seq
        seq += 1
        message = {"type": "intent", "seq": seq, "view": "v1", "version": board.version}
        return Desk(board).handle({**message, "action": action, **fields})

    hint_ack = intent("hint")
    hint_settled = _settled(lambda: board.state["hint"] not in (None, {"status": "checking"}))
    shown_hint = board.state["hint"]
    said_checking = any(state["hint"] == {"status": "checking"} for state in seen)

    for move in solve(board.game, time_limit=None).moves:  # the win, by a board's messages
        intent(**_as_message(move))
    won = board.game.is_won
    seen.clear()
    review_ack = intent("review")
    review_settled = _settled(lambda: board.state["review"] not in (None, {"status": "reviewing"}))
    shown_review = board.state["review"]
    said_reviewing = any(state["review"] == {"status": "reviewing"} for state in seen)

    intent("option", name="winnable_only", value=True)
    deal_ack = intent("new")
    deal_settled = _settled(lambda: not board.state["finding_deal"])
    deal = board.state["deal"]
    board.close()
    return {
        "threaded": board.jobs.threaded,
        "hint_ack": hint_ack,
        "hint_settled": hint_settled,
        "said_checking": said_checking,
        "hint": shown_hint,
        "won": won,
        "review_ack": review_ack,
        "review_settled": review_settled,
        "said_reviewing": said_reviewing,
        "review_status": shown_review.get("status") if shown_review else None,
        "review_rows": [[row["move"], row["before"], row["after"]] for row in shown_review["rows"]]
        if shown_review and "rows" in shown_review
        else None,
        "deal_ack": deal_ack,
        "deal_settled": deal_settled,
        "deal_proven": deal["proven"],
        "moves_after_deal": board.state["status"]["moves"],
    }


def lab() -> dict[str, Any]:
    """A strategy measured with no executor given (in Pyodide, in the caller's own turn), twice
    (the second time on the verdicts kept on disk), and one watched on a board, paused and
    stepped from code."""
    from pyramid_widget.lab import evaluate, greedy
    from pyramid_widget.session import GameSession

    card = evaluate(greedy, "classic", range(1, 9), progress=None)
    again = evaluate(greedy, "classic", range(1, 9), progress=None)
    board = GameSession("classic", deal=DEAL, store=None)
    watch = board.watching.start(greedy, speed=20)
    watch.pause()
    for _ in range(3):
        _settled(lambda: board.state["watch"]["move"] is not None)
        watch.step()
    _settled(lambda: board.state["watch"]["move"] is not None)
    shown = board.state["watch"]
    watch.stop()
    return {
        "figures": {key: value for key, value in card.figures().items() if key != "ms_per_game"},
        "same_again": card == again,
        "slip": card.lost_winnable[0].slip_text,
        "watched": [shown["phase"], shown["played"], shown["move"], shown["said"]],
        "back": board.moves,
    }


def facts() -> dict[str, Any]:
    return {
        "engine": engine(),
        "solver": solver(),
        "review": reviews(),
        "records": records(),
        "widget": widget(),
        "session": session(),
        "lab": lab(),
    }


def report() -> str:
    """Everything as one JSON text: the Node runner writes it to the report file."""
    return json.dumps({"environment": environment(), "facts": facts()})
