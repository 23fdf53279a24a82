"""The command lines: what they print, and a one-line error with status 2 for bad input."""

from __future__ import annotations

import contextlib
import fcntl
import io
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
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from pyramid_widget import Game
from pyramid_widget.__main__ import main
from pyramid_widget.puzzles import __main__ as puzzles_main
from pyramid_widget.rules import PRESETS

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


# ------------------------------------------------------------------ the puzzle command line
def puzzle_run(args: list[str]) -> tuple[int, str, str]:
    """`python -m pyramid_widget.puzzles` in this process: (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = puzzles_main.main(args)
    return status, out.getvalue(), err.getvalue()


SHIPPED_LINE = (puzzles_main.DATA / "classic.jsonl").read_text(encoding="utf-8").splitlines()[0]
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def one_line_and_2(status: int, out: str, err: str) -> bool:
    return status == 2 and out == "" and err.startswith("error: ") and err.count("\n") == 1


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["bogus"],
        ["verify", "--bogus"],
        ["verify", "--rules"],
        ["verify", "--rules", "nope"],
        ["verify", "--dir"],
        ["mine", "--count", "x"],
        ["mine", "--count", "0"],
        ["mine", "--count", "-3"],
        ["mine", "--count", "9" * 5000],
        ["mine", "--jobs", "0"],
        ["mine", "--jobs", "1.5"],
        ["mine", "--out"],
        ["mine", "--no-verify", "extra"],
        ["verify", "--no-fairness=yes"],
    ],
)
def test_the_puzzle_commands_bad_arguments_get_one_line_and_status_2(args):
    assert one_line_and_2(*puzzle_run(args))


def _folder(tmp_path: Path, content: bytes | str | None) -> Path:
    """A folder whose classic.jsonl holds `content` (None: no such file)."""
    folder = tmp_path / "set"
    folder.mkdir(exist_ok=True)
    if isinstance(content, str):
        (folder / "classic.jsonl").write_text(content, encoding="utf-8")
    elif content is not None:
        (folder / "classic.jsonl").write_bytes(content)
    return folder


NOT_PUZZLE_FILES = {
    "garbage": "hello\n",
    "binary": bytes(range(256)) * 4,
    "nested arrays": "[" * 100_000 + "\n",
    "nested objects": '{"a":' * 5000 + "1" + "}" * 5000 + "\n",
    "not a record": "[1, 2]\n",
    "a long number": "9" * 5000 + "\n",
    "a list for themes": SHIPPED_LINE.replace('"themes": [', '"themes": [[1], '),
}


@pytest.mark.parametrize("content", NOT_PUZZLE_FILES.values(), ids=list(NOT_PUZZLE_FILES))
def test_verify_at_a_file_that_is_no_puzzle_file_gets_one_line_and_status_2(tmp_path, content):
    folder = _folder(tmp_path, content)
    status, out, err = puzzle_run(["verify", "--rules", "classic", "--dir", str(folder)])
    assert one_line_and_2(status, out, err) and "classic.jsonl" in err


def test_verify_at_a_folder_that_is_not_there_or_holds_a_folder_gets_one_line(tmp_path):
    for folder in (tmp_path / "missing", tmp_path):
        (tmp_path / "classic.jsonl").mkdir(exist_ok=True)  # a folder where the file should be
        status, out, err = puzzle_run(["verify", "--rules", "classic", "--dir", str(folder)])
        assert one_line_and_2(status, out, err) and "cannot read" in err


def test_mine_at_a_place_it_cannot_write_stops_before_mining(tmp_path, monkeypatch):
    a_file = tmp_path / "a file"
    a_file.write_text("")
    monkeypatch.setattr(puzzles_main, "mine", pytest.fail)  # no mining may start
    for out in (a_file / "below", a_file, Path("/proc/no-such/place")):
        status, stdout, err = puzzle_run(["mine", "--rules", "classic", "--out", str(out)])
        assert one_line_and_2(status, stdout, err) and "cannot write puzzles to" in err


def test_a_bad_argument_from_a_shell_is_one_line_with_no_traceback(tmp_path):
    for args in (["verify", "--dir", str(tmp_path)], ["mine", "--count", "many"]):
        done = subprocess.run(
            [sys.executable, "-m", "pyramid_widget.puzzles", *args],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert (done.returncode, done.stdout, done.stderr.count("\n")) == (2, "", 1), done.stderr


TOKENS = [
    "mine", "verify", "--rules", "classic", "strict", "nope", "--count", "--jobs", "--out",
    "--dir", "--no-verify", "--no-fairness", "0", "1", "2", "-1", "x", "9" * 30, "--bogus", "",
    "FOLDER", "FILE", "MISSING", "/proc/nowhere",
]  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(words=st.lists(st.one_of(st.sampled_from(TOKENS), st.text(max_size=6)), max_size=8))
def test_every_puzzle_command_line_ends_in_0_1_or_one_line_and_2(tmp_path_factory, words):
    """Random command lines, with the mining and the solver's check stood in for (what they
    do is tested above and in test_puzzles): each ends with a status, never an exception,
    and bad input is one line on stderr with status 2."""
    place = tmp_path_factory.mktemp("place")
    (place / "FOLDER").mkdir()
    (place / "FILE").write_text("")
    for preset in PRESETS:
        (place / "FOLDER" / f"{preset}.jsonl").write_text("")
    args = [str(place / word) if word in ("FOLDER", "FILE", "MISSING") else word for word in words]
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(place)  # a relative --out or --dir stays in here
        patch.setattr(puzzles_main, "DATA", place / "FOLDER")  # never the package's own data
        patch.setattr(puzzles_main, "mine", lambda *args, **kwargs: [])
        patch.setattr(puzzles_main, "_check", lambda puzzles, fairness: 0)
        status, out, err = puzzle_run(args)
    event(f"status {status}")
    assert status in (0, 1, 2)
    if status == 2:
        assert one_line_and_2(status, out, err), (args, err)
    else:
        assert err == "" or "... deal" in err


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    lines=st.lists(
        st.one_of(
            st.binary(max_size=40).map(lambda raw: raw.decode("latin-1")),
            json_values.map(json.dumps),
            st.builds(
                lambda key, value: json.dumps({**json.loads(SHIPPED_LINE), key: value}),
                st.sampled_from(sorted(json.loads(SHIPPED_LINE))),
                json_values,
            ),
            st.just(SHIPPED_LINE),
            st.integers(1, 3000).map(lambda depth: "[" * depth + "]" * depth),
        ),
        max_size=4,
    ),
    binary=st.booleans(),
)
def test_verify_at_any_file_ends_in_0_1_or_one_line_and_2(tmp_path_factory, lines, binary):
    """Random puzzle files: random bytes, JSON of any shape, shipped puzzles with a field
    changed, deep nesting. Each ends with a status, never an exception."""
    text = "\n".join(lines)
    content = text.encode("utf-8", "surrogatepass") + b"\xff" * binary
    folder = _folder(tmp_path_factory.mktemp("verify"), content)
    status, out, err = puzzle_run(
        ["verify", "--rules", "classic", "--dir", str(folder), "--no-fairness"]
    )
    event(f"status {status}")
    assert status in (0, 1, 2)
    if status == 2:
        assert one_line_and_2(status, out, err), err
    else:
        assert err == "" and out.startswith("classic: ")
