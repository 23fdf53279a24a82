"""The JupyterLite site in a real Chromium: the board plays in a browser with no server at all.

The site is what `./dev lite` builds (`wasm/build.py lite`), built once for the session and
served from 127.0.0.1 by a plain static file server, as a teacher's web space would. The
browser context goes through a proxy that refuses and records every request not to the
loopback address (Chromium sends loopback requests directly), so a piece of the site that
would come from outside shows up as a failure naming it, whatever made the request: the page,
the kernel's web worker or the service worker.
"""

from __future__ import annotations

import contextlib
import re
import socketserver
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from harness import KERNEL_READY_TIMEOUT_MS, diagnose, run_code, wait_kernel_ready
from helpers import load_script
from playwright.sync_api import Browser, BrowserContext, Page, expect

REPO = Path(__file__).resolve().parents[2]
BUILD_SCRIPT = REPO / "wasm" / "build.py"
#: The board may take a while: Pyodide starts in the page's worker and imports IPython.
BOARD_TIMEOUT_MS = 120_000


@pytest.fixture(scope="session")
def lite_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The JupyterLite site, built as `./dev lite` builds it."""
    site = tmp_path_factory.mktemp("lite") / "site"
    started = time.perf_counter()
    built = subprocess.run(
        [sys.executable, str(BUILD_SCRIPT), "lite", str(site)], capture_output=True, text=True
    )
    assert built.returncode == 0, f"wasm/build.py lite failed:\n{built.stderr[-6000:]}"
    size = sum(path.stat().st_size for path in site.rglob("*") if path.is_file())
    print(
        f"\nJupyterLite site: {size / 2**20:.1f} MiB on disk, "
        f"built in {time.perf_counter() - started:.1f} s"
    )
    return site


@pytest.fixture(scope="session")
def lite_url(lite_site: Path) -> Iterator[str]:
    """The site served from 127.0.0.1 by a static file server (no Jupyter server)."""
    server = load_script(BUILD_SCRIPT, "wasm_build").site_server(lite_site, 0, quiet=True)
    thread = threading.Thread(target=server.serve_forever, name="lite-site", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


class _RefusingProxy(socketserver.ThreadingTCPServer):
    """An HTTP proxy that forwards nothing: it notes each request's target and refuses it."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self) -> None:
        self.refused: list[str] = []
        super().__init__(("127.0.0.1", 0), _RefuseHandler)


class _RefuseHandler(socketserver.StreamRequestHandler):
    server: _RefusingProxy

    def handle(self) -> None:
        line = self.rfile.readline(4096).decode("latin-1").strip()
        if line:
            # "CONNECT host:443 HTTP/1.1" or "GET http://host/path HTTP/1.1"
            parts = line.split(" ")
            self.server.refused.append(parts[1] if len(parts) > 1 else line)
        with contextlib.suppress(OSError):
            self.wfile.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")


@pytest.fixture(scope="session")
def refusing_proxy() -> Iterator[_RefusingProxy]:
    proxy = _RefusingProxy()
    thread = threading.Thread(target=proxy.serve_forever, name="refusing-proxy", daemon=True)
    thread.start()
    try:
        yield proxy
    finally:
        proxy.shutdown()
        proxy.server_close()
        thread.join(10)


@pytest.fixture
def context(browser: Browser, refusing_proxy: _RefusingProxy) -> Iterator[BrowserContext]:
    """As conftest's context (the page, its console and failure screenshots come from
    conftest), but every request off this machine goes to the refusing proxy."""
    ctx = browser.new_context(
        viewport={"width": 1280, "height": 900},
        proxy={
            "server": f"http://127.0.0.1:{refusing_proxy.server_address[1]}",
            "bypass": "127.0.0.1",  # the site itself; everything else meets the proxy
        },
    )
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture
def outside(refusing_proxy: _RefusingProxy) -> Callable[[], list[str]]:
    """outside() -> what this test's pages asked for from outside this machine so far."""
    already = len(refusing_proxy.refused)
    return lambda: refusing_proxy.refused[already:]


def open_play_board(page: Page, base: str) -> float:
    """Open the play notebook, run its board cell, wait for the board; returns the seconds
    from opening the page to a board on screen."""
    started = time.perf_counter()
    page.goto(f"{base}/lab/index.html?path=play.ipynb", wait_until="domcontentloaded")
    wait_kernel_ready(page, "play.ipynb", timeout_ms=KERNEL_READY_TIMEOUT_MS)
    page.evaluate(_RUN_FIRST_CODE_CELL_JS)
    board = page.locator(".jp-OutputArea-output .pw-root")
    try:
        expect(board.locator(".pw-pyramid [data-card]")).to_have_count(28, timeout=BOARD_TIMEOUT_MS)
    except AssertionError as error:
        raise AssertionError(f"no board: {diagnose(page)}") from error
    return time.perf_counter() - started


# Select the notebook's first code cell (the board) and run it alone.
_RUN_FIRST_CODE_CELL_JS = """() => {
    const notebook = window.jupyterapp.shell.currentWidget.content;
    const index = notebook.widgets.findIndex((cell) => cell.model.type === 'code');
    notebook.activeCellIndex = index;
    notebook.deselectAll();
    void window.jupyterapp.commands.execute('notebook:run-cell');
}"""


def _stock_count(page: Page) -> int:
    return int(page.locator('.pw-root [data-pile="stock"] .pw-count').inner_text())


def _cleared(page: Page) -> int:
    text = page.locator(".pw-root .pw-status").inner_text()
    match = re.search(r"Cleared (\d+) of 28", text)
    assert match, f"no 'Cleared N of 28' in the status: {text!r}"
    return int(match.group(1))


def _click_a_pair(page: Page) -> list[str]:
    """Find a pair the way a player does: select a card in play, and if a partner lights up,
    tap it. Draws when nothing pairs. Returns the two cards removed."""
    board = page.locator(".pw-root")
    stock = board.locator('[data-pile="stock"]')
    for _ in range(24):
        playable = board.locator('.pw-pyramid [data-card][data-status="in_play"]')
        for code in [playable.nth(i).get_attribute("data-card") for i in range(playable.count())]:
            if code is None or code.startswith("K"):
                continue  # a King goes alone: no pair
            card = board.locator(f'.pw-pyramid [data-card="{code}"]')
            card.click()
            expect(card).to_have_class(re.compile(r"(^|\s)pw-selected(\s|$)"))
            partner = board.locator(".pw-partner").first
            if partner.count():
                other = partner.get_attribute("data-card") or partner.locator(
                    "[data-card]"
                ).first.get_attribute("data-card")
                partner.click()
                expect(board.locator(f'.pw-pyramid [data-card="{code}"]')).to_have_count(0)
                return [code, str(other)]
            card.click()  # deselect and try the next one
            expect(card).not_to_have_class(re.compile(r"(^|\s)pw-selected(\s|$)"))
        if _stock_count(page) == 0:
            break
        before = _stock_count(page)
        stock.click()
        expect(stock.locator(".pw-count")).to_have_text(str(before - 1))
    raise AssertionError("no pair turned up in a whole pass of the stock")


def test_the_play_notebook_plays_in_jupyterlite_with_nothing_from_outside(page, lite_url, outside):
    seconds = open_play_board(page, lite_url)
    print(f"\nJupyterLite: {seconds:.1f} s from opening the page to a playable board")
    board = page.locator(".pw-root")
    expect(board.locator(".pw-pyramid [data-card]")).to_have_count(28)
    assert _cleared(page) == 0

    # A draw: the stock count drops by one.
    stock_before = _stock_count(page)
    board.locator('[data-pile="stock"]').click()
    expect(board.locator('[data-pile="stock"] .pw-count')).to_have_text(str(stock_before - 1))

    # A pair by two clicks: both cards go, and the status counts them.
    cleared = _cleared(page)
    removed = _click_a_pair(page)
    expect(board.locator(".pw-status")).not_to_contain_text(f"Cleared {cleared} of 28")
    assert _cleared(page) > cleared, removed
    assert outside() == [], "the site asked for things from outside this machine"


def test_hint_and_review_answer_in_jupyterlite(page, lite_url, outside):
    """No thread can start in the browser's Python: the session answers in the kernel's turn."""
    open_play_board(page, lite_url)
    board = page.locator(".pw-root")
    hint_line = board.locator(".pw-hint-line")
    board.locator('button[data-action="hint"]').click()
    expect(hint_line).not_to_have_text(re.compile(r"^$|Checking"), timeout=30_000)
    expect(hint_line).not_to_contain_text(re.compile("internal error|No hint"))

    # A lost game played out from a cell, then the board's Review.
    run_code(
        page,
        "from pyramid_widget import PyramidWidget\n"
        "w = PyramidWidget(rules='classic', deal=3, store=None)\n"
        "while w.game.outcome is None: w.play(w.game.legal_moves()[0])\n"
        "display(w)",
        timeout_ms=120_000,
    )
    second = page.locator(".pw-root").nth(1)
    panel = second.locator(".pw-panel")
    expect(panel).to_contain_text("could not be won from the start", timeout=60_000)
    panel.locator('button[data-action="review"]').click()
    review = second.locator(".pw-review")
    expect(review.locator("tr[data-number]").first).to_be_visible(timeout=120_000)
    expect(review).not_to_contain_text(re.compile("internal error|Reviewing"))
    assert outside() == [], "the site asked for things from outside this machine"
