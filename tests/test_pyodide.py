"""pyramid-widget inside Pyodide: the npm registry's runtime under Node, on the built wheel.

Pyodide is where a notebook runs with no server at all (JupyterLite) and where neither a thread
nor a process pool can start. The wheel is built from this checkout, put with its pure-Python
dependencies into a Pyodide folder (`wasm/build.py pyodide`, the same folder the JupyterLite
site is made of), and tests/in_pyodide/drive.py runs there under Node with the network closed.
It deals, plays, saves, solves, hints, reviews, keeps records in a SQLite file and plays a
widget through a board's messages; the same driver then runs in this CPython, and the two must
see the same game.

./dev installs Node's Pyodide package (package-lock.json) and exports PYRAMID_PYODIDE, so
under ./dev, and in CI, a missing Node or Pyodide fails these tests; run by hand outside ./dev
without them, they are skipped with the reason.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import load_script

REPO = Path(__file__).resolve().parents[1]
HERE = REPO / "tests" / "in_pyodide"
DRIVER = HERE / "drive.py"
RUNNER = HERE / "run.mjs"
DEFAULT_PYODIDE = REPO / "node_modules" / "pyodide"
NODE_TIMEOUT_S = 600

pytestmark = pytest.mark.slow


def _must_run() -> bool:
    """Under ./dev (which exports PYRAMID_PYODIDE) or in CI the tools are there by design."""
    ci = os.environ.get("CI", "").lower() not in ("", "0", "false", "no")
    return ci or bool(os.environ.get("PYRAMID_PYODIDE"))


def _missing(reason: str) -> None:
    if _must_run():
        pytest.fail(f"{reason} (./dev test installs it; see the ./dev header)")
    pytest.skip(f"{reason}: run ./dev test, which installs Node's Pyodide package")


@pytest.fixture(scope="module")
def node() -> str:
    found = shutil.which("node")
    if found is None:
        _missing("no `node` on PATH for the Pyodide test")
    version = subprocess.run([found, "--version"], capture_output=True, text=True).stdout
    major = int(version.strip().lstrip("v").split(".")[0] or 0)
    if major < 18:
        _missing(f"Pyodide needs Node 18 or newer, this one is {version.strip()}")
    return found


@pytest.fixture(scope="module")
def pyodide_package() -> Path:
    folder = Path(os.environ.get("PYRAMID_PYODIDE") or DEFAULT_PYODIDE)
    if not (folder / "pyodide.mjs").is_file():
        _missing(f"no Pyodide package in {folder}")
    return folder


@pytest.fixture(scope="module")
def run(
    node: str, pyodide_package: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    """The driver's report from Pyodide, with what the runner measured and saw."""
    work = tmp_path_factory.mktemp("pyodide")
    folder = work / "pyodide"
    built = subprocess.run(
        [sys.executable, str(REPO / "wasm" / "build.py"), "pyodide", str(folder)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYRAMID_PYODIDE": str(pyodide_package)},
    )
    assert built.returncode == 0, f"wasm/build.py pyodide failed:\n{built.stderr[-4000:]}"
    report = work / "report.json"
    command = [node, str(RUNNER), str(pyodide_package), str(folder), str(DRIVER), str(report)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=NODE_TIMEOUT_S)
    assert result.returncode == 0, (
        f"the driver failed in Pyodide ({result.returncode}):\n"
        f"{result.stdout[-3000:]}\n{result.stderr[-6000:]}"
    )
    return json.loads(report.read_text())


@pytest.fixture(scope="module")
def cpython_facts() -> dict[str, Any]:
    """The same driver in this CPython, through JSON as the Pyodide report comes."""
    return json.loads(json.dumps(load_script(DRIVER, "pyodide_drive").facts()))


def test_it_is_really_pyodide_with_no_thread_and_no_process_pool(run):
    environment = run["report"]["environment"]
    pinned = json.loads((REPO / "package.json").read_text())["devDependencies"]["pyodide"]
    assert run["pyodide"] == pinned
    assert environment["platform"] == "emscripten"
    assert environment["python"][:2] == [3, 14]
    assert environment["thread"].startswith("RuntimeError"), environment["thread"]
    assert environment["process_pool"] != "ok", environment["process_pool"]
    assert environment["winnability_in_process"] is True  # no pool: it solves in-process


def test_nothing_was_fetched_from_the_network(run):
    """Pyodide and every package came from the folder: no request was even tried."""
    assert run["fetches"] == []


def test_the_engine_plays_codes_and_saves(run, cpython_facts):
    engine = run["report"]["facts"]["engine"]
    assert engine["code_round_trip"] and engine["save_round_trip"]
    assert engine["refusal"] == "a King is removed alone"
    assert engine["log_after_undo_redo"] == engine["played"][:-1]
    assert engine == cpython_facts["engine"]


def test_the_solver_hints_and_deals_as_in_cpython(run, cpython_facts):
    solver = run["report"]["facts"]["solver"]
    statuses = {number: status for number, (status, _) in solver["solve"].items()}
    assert statuses == {
        "1": "winnable",
        "2": "winnable",
        "3": "unwinnable",
        "5": "winnable",
        "7": "unwinnable",
    }
    move, _, verdict, reason = solver["hint_exact"]
    assert verdict == "winnable" and move == solver["solve"]["2"][1][0] and reason
    assert solver["deal_winnable"][1] is True  # proven winnable
    assert solver["winnability"] == [2, 1, 0, 3]  # deals 1 and 2 winnable, 3 not, in-process
    assert solver == cpython_facts["solver"]


def test_a_review_judges_every_move_as_in_cpython(run, cpython_facts):
    judged = run["report"]["facts"]["review"]
    assert len(judged["rows"]) == 10 and judged["summary"]
    assert all(row["before"] == "winnable" for row in judged["rows"])
    assert judged == cpython_facts["review"]


def test_records_live_in_a_sqlite_file(run, cpython_facts):
    kept = run["report"]["facts"]["records"]
    assert kept["journal"] == "wal" and kept["won"] and kept["resumed"]
    assert kept["records"]["wins"] == 1 and kept["records"]["games"] == 1
    assert kept == cpython_facts["records"]


def test_a_widget_plays_through_a_boards_messages(run, cpython_facts):
    board = run["report"]["facts"]["widget"]
    assert board["draw_ack"]["ok"] and board["draw_ack"]["move"] == "draw"
    assert board["stock_after_draw"] == 23  # one card left the stock of 24
    assert board["pair_ack"]["ok"]
    assert not board["refused_ack"]["ok"] and board["refused_ack"]["reason"]
    assert board["moves"] == [*board["by_code"], "draw", board["pair_ack"]["move"]]
    assert board == cpython_facts["widget"]


def test_hint_review_and_winnable_deal_answer_with_no_thread(run, cpython_facts):
    """The board's slow requests run in the intent's own turn in Pyodide: each says it is
    working, then answers; nothing is left "checking", "reviewing" or finding a deal."""
    board = run["report"]["facts"]["session"]
    assert board["threaded"] is False  # the job runner found that no thread can start
    for ack in ("hint_ack", "review_ack", "deal_ack"):
        assert board[ack]["ok"], board[ack]
    assert board["said_checking"] and board["hint_settled"]
    assert board["hint"]["status"] == "done" and board["hint"]["move"], board["hint"]
    assert "internal error" not in json.dumps(board)
    assert board["won"]  # the whole win, played by a board's messages
    assert board["said_reviewing"] and board["review_settled"]
    assert board["review_status"] == "done" and board["review_rows"][-1][2] == "won"
    assert board["deal_settled"] and board["deal_proven"] is True
    assert board["moves_after_deal"] == 0
    # Everything but the runner (threads in CPython) and the random winnable deal's number.
    same = {key: value for key, value in board.items() if key != "threaded"}
    assert same == {
        key: value for key, value in cpython_facts["session"].items() if key != "threaded"
    }


def test_a_strategy_is_measured_and_watched_with_no_thread_as_in_cpython(run, cpython_facts):
    """With no process pool, evaluate plays in the caller's turn: the same figures as a pool
    of CPython processes; a watched strategy steps on a board with no timer thread."""
    lab = run["report"]["facts"]["lab"]
    assert lab["figures"]["games"] == 8 and lab["same_again"] and lab["slip"]
    phase, played, move, said = lab["watched"]
    assert (phase, played) == ("paused", 3) and move and said.startswith("greedy plays")
    assert lab["back"] == []  # the game in play came back untouched
    assert lab == cpython_facts["lab"]
