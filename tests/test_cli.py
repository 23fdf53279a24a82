"""The command line: what it prints, and a one-line error with status 2 for bad input."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import select
import signal
import socket
import struct
import subprocess
import sys
import termios
import time

import pytest

from pyramid_widget import Game
from pyramid_widget.__main__ import main

LAYOUT = Game.deal(1, "open-stock").layout


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pyramid_widget", *args], capture_output=True, text=True, timeout=120
    )


def test_solve_prints_the_status_and_a_line_that_replays():
    done = run("solve", "--layout", LAYOUT, "--rules", "open-stock", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["status"] == "winnable" and answer["rules"] == "open-stock"
    game = Game.from_layout(LAYOUT, "open-stock")
    for move in answer["moves"]:
        game.play(move)
    assert game.is_won


def test_solve_in_words_with_the_shortest_win(capsys):
    assert main(["solve", "--deal", "1", "--rules", "open-stock", "--optimal"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("winnable (open-stock)") and "shortest win in" in out


def test_solve_accepts_rules_with_overrides(capsys):
    assert main(["solve", "--deal", "3", "--rules", "classic,passes=1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"] == "classic,passes=1"


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "--layout", "Ac 2c 3c", "--rules", "classic"],
        ["solve", "--layout", LAYOUT.replace("Kc", "Kx"), "--rules", "classic"],
        ["solve", "--layout", LAYOUT, "--rules", "no-such-rules"],
        ["solve", "--layout", LAYOUT, "--rules", "classic,passes=zero"],
        ["solve", "--deal", "0"],
        ["stats", "--deals", "9-3"],
        ["stats", "--deals", "a-b"],
        ["stats", "--deals", "1-5", "--jobs", "0"],
        ["stats", "--deals", "1-5", "--rules", "nope"],
        ["solve"],
        [],
    ],
)
def test_bad_input_gets_one_line_on_stderr_and_status_2(args, capsys):
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("error: ") and captured.err.count("\n") == 1


def test_stats_counts_verdicts_over_a_range_of_deals():
    done = run("stats", "--rules", "classic", "--deals", "1-12", "--jobs", "2", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["deals"] == 12 and answer["winnable"] + answer["unwinnable"] == 12
    assert 0 <= answer["low"] <= answer["rate"] <= answer["high"] <= 1


def test_a_single_deal_is_a_range_of_one_and_deal_zero_is_refused():
    done = run("stats", "--deals", "5", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["deals"] == 1
    bad = run("stats", "--deals", "0-3")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


def in_terminal(args: list[str], *, ctrl_c_after: int | None = None, total: int) -> tuple:
    """Run the command line with a real pseudo-terminal as its controlling terminal (stdin
    and stderr), stdout a pipe. With ``ctrl_c_after``, once the progress bar shows that many
    deals done, type Ctrl+C: the terminal itself sends SIGINT to the command and its workers.
    Returns (exit status, stdout, what the terminal showed, whether any process it started
    was still running once it had exited)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))

    def own_terminal() -> None:
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    child = subprocess.Popen(
        [sys.executable, "-m", "pyramid_widget", *args],
        stdin=slave,
        stderr=slave,
        stdout=subprocess.PIPE,
        preexec_fn=own_terminal,
    )
    os.close(slave)
    shown = b""
    typed = False
    deadline = time.monotonic() + 180
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    piece = os.read(master, 4096)
                except OSError:  # the terminal closed: the command is done
                    break
                if not piece:
                    break
                shown += piece
            done = [int(n) for n in re.findall(rb"(\d+)/%d deals" % total, shown)]
            if ctrl_c_after is not None and not typed and done and done[-1] >= ctrl_c_after:
                os.write(master, b"\x03")
                typed = True
            if child.poll() is not None and not ready:
                break
        status = child.wait(timeout=60)
        out = child.stdout.read().decode()
        lingering = not group_is_gone(child.pid)  # a worker outliving the command
    finally:
        if not group_is_gone(child.pid):  # a hung run: end it and everything it started
            os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        child.stdout.close()
        os.close(master)
    return status, out, shown.decode(errors="replace"), lingering


def deals_in(spans: list[str]) -> int:
    """How many deals "12-15", "20", ... name."""
    count = 0
    for span in spans:
        first, _, last = span.partition("-")
        count += int(last or first) - int(first) + 1
    return count


def group_is_gone(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


def test_ctrl_c_prints_what_was_decided_and_exits_130():
    status, out, shown, lingering = in_terminal(
        ["stats", "--deals", "1-3000", "--jobs", "2", "--json"], ctrl_c_after=50, total=3000
    )
    assert status == 130, shown
    answer = json.loads(out)
    assert answer["interrupted"] is True and 50 <= answer["deals"] < 3000
    assert answer["deals"] + deals_in(answer["not_tried"]) == 3000
    assert answer["not_tried"][-1].endswith("-3000")  # those never sent, as one range
    assert answer["winnable"] + answer["unwinnable"] + answer["unknown"] == answer["deals"]
    assert "/s" in shown and "left" in shown  # the bar said the rate and the time left
    assert "interrupted after" in shown and "Traceback" not in shown
    assert not lingering  # the pool's workers ended with the command


def test_the_bar_on_a_terminal_and_none_with_no_progress():
    status, out, shown, _ = in_terminal(["stats", "--deals", "1-60", "--jobs", "2"], total=60)
    assert status == 0 and out.startswith("classic: ")
    assert "\r" in shown and "/60 deals, " in shown and "classic: 60 deals in" in shown
    status, out, shown, _ = in_terminal(["stats", "--deals", "1-60", "--no-progress"], total=60)
    assert status == 0 and out.startswith("classic: ") and shown == ""


def test_progress_where_stderr_is_not_a_terminal():
    quiet = run("stats", "--deals", "1-30")
    assert quiet.returncode == 0 and quiet.stderr == ""  # by default only on a terminal
    told = run("stats", "--deals", "1-30", "--progress")
    assert told.returncode == 0 and "\r" not in told.stderr
    lines = told.stderr.splitlines()
    assert lines[0].startswith("classic: ") and "deals/s" in lines[0]
    assert lines[-1].startswith("classic: 30 deals in")


def test_scheduler_errors_are_one_line_with_status_2():
    nobody = f"tcp://127.0.0.1:{free_port()}"
    refused = subprocess.run(
        [sys.executable, "-m", "pyramid_widget", "stats", "--deals", "1-5", "--scheduler", nobody],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"},
    )
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.startswith("error: cannot reach the dask scheduler at tcp://127.0.0.1:")
    assert refused.stderr.count("\n") == 1
    without_dask = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; sys.modules['distributed'] = None\n"  # as if dask were not installed
            "from pyramid_widget.__main__ import main\n"
            "sys.exit(main(['stats', '--deals', '1-5', '--scheduler', 'tcp://127.0.0.1:8786']))",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert without_dask.returncode == 2 and without_dask.stdout == ""
    assert "pip install 'pyramid-widget[distributed]'" in without_dask.stderr
    assert without_dask.stderr.count("\n") == 1


def test_jobs_are_for_the_local_pool_only(capsys):
    assert main(["stats", "--deals", "1-5", "--jobs", "2", "--scheduler", "tcp://x:1"]) == 2
    assert "not allowed with" in capsys.readouterr().err


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
