"""The board in the other front ends anywidget serves: marimo (an app, and the editor) and
Voila. In each: the board renders, a click pair and a draw work, keys pressed on the board never
reach the host, and (marimo) a cell that reads the board re-runs after every move. Voila runs from
its own environment, as a user runs it (`./dev play voila`), and its page logs no error."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from harness import _descendants, _die_with_parent, _reap, focused, free_port
from playwright.sync_api import ConsoleMessage, Locator, Page, Route, expect

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
APP = NOTEBOOKS / "play_marimo.py"
BOARD_TIMEOUT_MS = 60_000
#: Making Voila's environment the first time downloads and installs it (about a minute).
VOILA_TIMEOUT_S = 600

# Keys a host listens for: marimo's editor shortcuts, page scrolling, a notebook's "a", "b".
KEYS = ["d", "u", "h", "a", "b", "ArrowRight", "Enter", "Escape"]
KEY_SPY = """() => {
    window.__keysReachingHost = [];
    window.addEventListener("keydown", (event) => window.__keysReachingHost.push(event.key));
}"""


class Server:
    """A front end's server run by the test, in its own process group."""

    def __init__(self, command: list[str], cwd: Path, home: Path, python: Path) -> None:
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
            PATH=os.pathsep.join([str(python.parent), env.get("PATH", "")]),
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
def serving(tmp_path: Path, command: list[str], cwd: Path | None = None) -> Iterator[Server]:
    """The server of `command` (whose first word is the Python that runs it), run in `cwd`
    (tmp_path when not given), with its home, temporary files and log in tmp_path."""
    server = Server(command, cwd or tmp_path, tmp_path, Path(command[0]))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def voila_python() -> Path:
    """The Python of Voila's own environment, the one `./dev play voila` runs (build/venv-voila:
    the package and its voila extra, no other front end), made or brought up to date now."""
    made = subprocess.run(
        [str(REPO / "dev"), "venv", "voila"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=VOILA_TIMEOUT_S,
    )
    assert made.returncode == 0, made.stderr[-3000:]
    return Path(made.stdout.splitlines()[-1])


#: The one thing Voila's page asks of another host: Font Awesome 5's stylesheets on jsDelivr
#: (icons for ipywidgets' buttons; the board draws none).
FONT_AWESOME = re.compile(
    r"https://cdn\.jsdelivr\.net/npm/@fortawesome/fontawesome-free@(\^|%5E)5/css/"
    r"(all|v4-shims)\.min\.css"
)


class Console:
    """What a page logs (its errors, uncaught ones included, and its warnings) and what it asks
    of hosts other than this machine. The page is kept off the internet, which a test machine
    may not reach: the test answers the Font Awesome stylesheets itself, as jsDelivr does for a
    user, with an empty one (the board uses none of it), and refuses and lists any other
    request that would leave the machine."""

    def __init__(self, page: Page) -> None:
        self.errors: list[str] = []
        self.warnings: list[str] = []
        self.font_awesome: list[str] = []
        self.elsewhere: list[str] = []
        page.on("console", self._logged)
        page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))
        page.route(lambda url: not url.startswith("http://127.0.0.1:"), self._outside)

    def _logged(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(message.text)
        elif message.type == "warning":
            self.warnings.append(message.text)

    def _outside(self, route: Route) -> None:
        url = route.request.url
        if FONT_AWESOME.fullmatch(url):
            self.font_awesome.append(url)
            route.fulfill(status=200, content_type="text/css", body="")
        else:
            self.elsewhere.append(url)
            route.abort()

    def check(self) -> None:
        """No error, Voila's two stylesheets asked of the CDN and nothing else off the machine."""
        print(f"\nVoila's console: {len(self.errors)} errors, {len(self.warnings)} warnings")
        assert self.errors == []
        stylesheets = sorted(FONT_AWESOME.fullmatch(url)[2] for url in self.font_awesome)
        assert stylesheets == ["all", "v4-shims"]
        assert self.elsewhere == []


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


@contextlib.contextmanager
def leaving_the_clone_as_it_was() -> Iterator[None]:
    """The files under notebooks/ are the same ones, unchanged, after the block."""

    def files() -> dict[str, tuple[int, int]]:
        return {
            str(path.relative_to(NOTEBOOKS)): (path.stat().st_mtime_ns, path.stat().st_size)
            for path in NOTEBOOKS.rglob("*")
            if path.is_file() and "__pycache__" not in path.parts
        }

    before = files()
    yield
    assert files() == before


def marimo(mode: str) -> list[str]:
    """`marimo run` or `marimo edit` of notebooks/play_marimo.py, as a user starts it in the
    clone (which marimo leaves as it was: pyproject.toml has it run the cells on opening, so
    it keeps no session cache in notebooks/__marimo__/)."""
    return [sys.executable, "-m", "marimo", mode, str(APP.relative_to(REPO)), "--headless",
            "--no-token", "--port", "{port}"]  # fmt: skip


def test_the_marimo_app_plays_and_its_reading_cell_follows_the_board(page, tmp_path):
    with leaving_the_clone_as_it_was(), serving(tmp_path, marimo("run"), cwd=REPO) as server:
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
    """The editor runs the cells on opening (the project's setting), with no step of the test's
    own, and leaves no __marimo__ folder."""
    with leaving_the_clone_as_it_was(), serving(tmp_path, marimo("edit"), cwd=REPO) as server:
        board, seconds = open_board(page, server.url)
        print(f"\nmarimo edit: board on screen {seconds:.1f} s after opening the page")
        play_a_king_a_draw_and_a_pair(page, board)
        expect(page.locator("body")).to_contain_text("3 moves so far (2 of 28 cleared)")
        keys_stay_on_the_board(page, board)


@pytest.mark.timeout(VOILA_TIMEOUT_S)
def test_voila_serves_the_board_as_an_app(page, tmp_path, voila_python):
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
    console = Console(page)
    with serving(tmp_path, voila(voila_python, "board.ipynb")) as server:
        board, seconds = open_board(page, server.url)
        print(f"\nVoila: board on screen {seconds:.1f} s after opening the page")
        play_a_king_a_draw_and_a_pair(page, board)
        keys_stay_on_the_board(page, board)
        console.check()


@pytest.mark.timeout(VOILA_TIMEOUT_S)
def test_voila_serves_the_play_notebook_with_no_word_about_cells(page, tmp_path, voila_python):
    """notebooks/play.ipynb as `./dev play voila` serves it: every board, the notebook's words
    (none of them about cells, which Voila does not show) and a console with no error."""
    shutil.copy(NOTEBOOKS / "play.ipynb", tmp_path)
    console = Console(page)
    with serving(tmp_path, voila(voila_python, "play.ipynb")) as server:
        page.goto(server.url)
        boards = page.locator(".pw-root")
        expect(boards.locator("div.pw-status")).to_have_count(8, timeout=BOARD_TIMEOUT_MS)
        expect(page.locator("body")).to_contain_text("Play Pyramid")
        words = page.locator("body").inner_text()
        assert "Remove pairs of cards in play that add up to 13" in words
        assert not re.search(r"\b(cells?|run)\b", words, re.IGNORECASE), words
        boards.first.locator('[data-pile="stock"]').click()
        expect(boards.first.locator("div.pw-status")).to_contain_text("Moves 1")
        console.check()


def voila(python: Path, notebook: str) -> list[str]:
    """The command that serves `notebook` with Voila, as an app, on the test's port."""
    return [str(python), "-m", "voila", notebook, "--no-browser", "--port={port}",
            "--Voila.ip=127.0.0.1"]  # fmt: skip
