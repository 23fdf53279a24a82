"""The board in the other front ends anywidget serves: marimo (an app, and the editor) and
Voila. In each: the board renders, a click pair and a draw work, keys pressed on the board never
reach the host, and (marimo) a cell that reads the board re-runs after every move."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import nbformat
from harness import _descendants, _die_with_parent, _reap, focused, free_port
from playwright.sync_api import Locator, Page, expect

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "notebooks" / "play_marimo.py"
BOARD_TIMEOUT_MS = 60_000

# Keys a host listens for: marimo's editor shortcuts, page scrolling, a notebook's "a", "b".
KEYS = ["d", "u", "h", "a", "b", "ArrowRight", "Enter", "Escape"]
KEY_SPY = """() => {
    window.__keysReachingHost = [];
    window.addEventListener("keydown", (event) => window.__keysReachingHost.push(event.key));
}"""


class Server:
    """A front end's server run by the test, in its own process group."""

    def __init__(self, command: list[str], cwd: Path, home: Path) -> None:
        self.port = free_port()
        command = [part.replace("{port}", str(self.port)) for part in command]
        env = dict(os.environ)
        env.update(
            PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")])),
            PYRAMID_WIDGET_DB=str(home / "records.sqlite3"),
            TMPDIR=str(home),  # Voila writes its connection files there
            HOME=str(home),
            JUPYTER_CONFIG_DIR=str(home / "config"),
            JUPYTER_DATA_DIR=str(home / "data"),
            JUPYTER_RUNTIME_DIR=str(home / "runtime"),
            PATH=os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")]),
        )
        self.log = home / "server.log"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                command,
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=_die_with_parent if sys.platform == "linux" else None,
            )
        self._wait_until_up()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def _wait_until_up(self, timeout_s: float = 90) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited:\n{self.log.read_text()[-3000:]}")
            with contextlib.suppress(OSError), urllib.request.urlopen(self.url, timeout=2):
                return
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"the server did not answer:\n{self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        children = _descendants(self.process.pid)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, 15)
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, 9)
            self.process.wait(15)
        _reap(children, 10)


@contextlib.contextmanager
def serving(tmp_path: Path, command: list[str]) -> Iterator[Server]:
    server = Server(command, tmp_path, tmp_path)
    try:
        yield server
    finally:
        server.stop()


def open_board(page: Page, url: str) -> tuple[Locator, float]:
    """Open `url`, wait for the board; return it and the seconds it took to show."""
    started = time.perf_counter()
    page.goto(url)
    page.evaluate(KEY_SPY)
    board = page.locator(".pw-root")
    expect(board.locator(".pw-pyramid [data-card]")).to_have_count(28, timeout=BOARD_TIMEOUT_MS)
    return board, time.perf_counter() - started


def play_a_king_a_draw_and_a_pair(page: Page, board: Locator) -> None:
    """Open-stock deal 42: the K♠ goes alone, a draw, then 10♠ with the 3♦ on the stock."""
    board.locator('.pw-pyramid [data-card="Ks"]').click()
    expect(board.locator('.pw-pyramid [data-card="Ks"]')).to_have_count(0)
    board.locator('[data-pile="stock"]').click()
    expect(board.locator(".pw-status")).to_contain_text("Moves 2")
    board.locator('.pw-pyramid [data-card="Ts"]').click()
    board.locator('[data-pile="stock"]').click()
    expect(board.locator('.pw-pyramid [data-card="Ts"]')).to_have_count(0)
    expect(board.locator(".pw-status")).to_contain_text("Moves 3")


def keys_stay_on_the_board(page: Page, board: Locator) -> None:
    """Keys pressed after the second card of a pair left the board (the focus goes to its
    neighbour, inside the board) and after a click on the status line never reach the page."""
    stock = board.locator('[data-pile="stock"]')
    stock.click()  # two draws: the J♠, which pairs with the 2♣, goes to the waste
    expect(stock.locator('[data-card="Js"]')).to_be_visible()
    stock.click()
    board.locator('[data-pile="waste"] [data-card="Js"]').click()
    two = board.locator('.pw-pyramid [data-card="2c"]')
    two.click()
    expect(two).to_have_count(0)
    for click in (None, board.locator(".pw-status")):
        if click is not None:
            click.click()
        for key in KEYS:
            page.keyboard.press(key)
            assert not focused(page).startswith("outside"), f"{key}: focus {focused(page)}"
        assert page.evaluate("() => window.__keysReachingHost") == []


def marimo_app(tmp_path: Path) -> Path:
    app = tmp_path / APP.name
    shutil.copy(APP, app)
    return app


def test_the_marimo_app_plays_and_its_reading_cell_follows_the_board(page, tmp_path):
    app = marimo_app(tmp_path)
    command = [sys.executable, "-m", "marimo", "run", str(app), "--headless", "--no-token",
               "--port", "{port}"]  # fmt: skip
    with serving(tmp_path, command) as server:
        board, seconds = open_board(page, server.url)
        print(f"\nmarimo run: board on screen {seconds:.1f} s after opening the page")
        expect(page.locator("body")).to_contain_text("0 moves so far")
        play_a_king_a_draw_and_a_pair(page, board)
        # The cell that reads the board re-ran after every move, with no workaround.
        expect(page.locator("body")).to_contain_text(
            "3 moves so far (2 of 28 cleared): K♠, draw, 3♦ + 10♠"
        )
        keys_stay_on_the_board(page, board)


def test_the_marimo_editor_plays_and_keys_never_reach_its_shortcuts(page, tmp_path):
    app = marimo_app(tmp_path)
    # The editor runs nothing on opening unless told to (the "On startup" setting).
    (tmp_path / ".marimo.toml").write_text("[runtime]\nauto_instantiate = true\n")
    command = [sys.executable, "-m", "marimo", "edit", str(app), "--headless", "--no-token",
               "--port", "{port}"]  # fmt: skip
    with serving(tmp_path, command) as server:
        board, seconds = open_board(page, server.url)
        print(f"\nmarimo edit: board on screen {seconds:.1f} s after opening the page")
        play_a_king_a_draw_and_a_pair(page, board)
        expect(page.locator("body")).to_contain_text("3 moves so far (2 of 28 cleared)")
        keys_stay_on_the_board(page, board)


def test_voila_serves_the_board_as_an_app(page, tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(
            "from pyramid_widget import PyramidWidget\n"
            "w = PyramidWidget('open-stock', deal=42, store=None)\nw"
        )
    ]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(nb, tmp_path / "board.ipynb")
    command = [sys.executable, "-m", "voila", "board.ipynb", "--no-browser", "--port={port}",
               "--Voila.ip=127.0.0.1"]  # fmt: skip
    with serving(tmp_path, command) as server:
        board, seconds = open_board(page, server.url)
        print(f"\nVoila: board on screen {seconds:.1f} s after opening the page")
        play_a_king_a_draw_and_a_pair(page, board)
        keys_stay_on_the_board(page, board)
