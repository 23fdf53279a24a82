"""Fixtures for the end-to-end tests: a real Jupyter server and a real Chromium.

One server and one browser serve the whole session (starting them is the slow part); each test
gets a fresh browser context and page, and its kernels are shut down when it ends. Every test in
this folder carries the `e2e` marker, so `pytest -m "not e2e"` skips them.

    from harness import run_all, run_code, wait_for_widget

    def test_board_shows_28_cards(lab_notebook):
        page = lab_notebook("board.ipynb", ["from pyramid_widget import PyramidWidget",
                                            "w = PyramidWidget(deal=1)\\nw"])
        run_all(page)
        wait_for_widget(page, "[data-card]")
        assert run_code(page, "print(len(w.game.pyramid))") == "28"

When a test fails, a screenshot of each of its pages, the browser console and the server log
go to test-artifacts/ at the top of the repository.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from harness import (
    CHROMIUM_ARGS,
    JupyterServer,
    find_chromium,
    open_notebook,
    start_server,
)
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
ARTIFACTS = REPO / "test-artifacts"
CONSOLE = pytest.StashKey[list[str]]()

#: open(name, cells, page=None) -> Page: write the notebook, open it, wait for its kernel.
NotebookOpener = Callable[..., Page]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(item.path).resolve().parents:
            item.add_marker(pytest.mark.e2e)


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


@pytest.fixture(scope="session")
def jupyter_lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[JupyterServer]:
    """A JupyterLab server for the whole session (starting one is slow)."""
    server = start_server("lab", tmp_path_factory.mktemp("jupyterlab"), REPO)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def jupyter_notebook7(tmp_path_factory: pytest.TempPathFactory) -> Iterator[JupyterServer]:
    """A Notebook 7 server, started only when a test asks for it."""
    server = start_server("notebook", tmp_path_factory.mktemp("notebook7"), REPO)
    try:
        yield server
    finally:
        server.stop()


@contextlib.contextmanager
def _environ(**values: str) -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """Headless Chromium: $PYRAMID_CHROMIUM, else Debian's, else Playwright's own build.

    With no browser at all the e2e tests are skipped on a developer's machine but fail in CI,
    where they must run.
    """
    executable = find_chromium()
    home = tmp_path_factory.mktemp("chromium")
    dirs = {name: home / name for name in ("tmp", "cache", "config")}
    for path in dirs.values():
        path.mkdir()
    # Chromium and Playwright's driver put profiles and caches there, not in /tmp or $HOME.
    private = {
        "TMPDIR": str(dirs["tmp"]),
        "XDG_CACHE_HOME": str(dirs["cache"]),
        "XDG_CONFIG_HOME": str(dirs["config"]),
    }
    with _environ(TMPDIR=private["TMPDIR"]):
        playwright = sync_playwright().start()
    try:
        if executable is None and not Path(playwright.chromium.executable_path).exists():
            message = (
                "no Chromium for the end-to-end tests: set PYRAMID_CHROMIUM, or run "
                "`apt-get install chromium`, or `python -m playwright install chromium`"
            )
            if _in_ci():
                pytest.fail(message)
            pytest.skip(message)
        chromium = playwright.chromium.launch(
            executable_path=executable,
            headless=True,
            args=list(CHROMIUM_ARGS),
            env={**os.environ, **private},
            timeout=60_000,
        )
        try:
            yield chromium
        finally:
            chromium.close()
    finally:
        playwright.stop()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A fresh browser profile for one test, at a laptop's window size."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture
def page(context: BrowserContext, request: pytest.FixtureRequest) -> Page:
    """A page whose console messages are kept for the failure report."""
    console: list[str] = []
    request.node.stash[CONSOLE] = console
    new_page = context.new_page()
    new_page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    new_page.on("pageerror", lambda error: console.append(f"pageerror: {error}"))
    return new_page


def _opener(server: JupyterServer, page: Page) -> Iterator[NotebookOpener]:
    def open_(name: str, cells: list[str], page_: Page | None = None) -> Page:
        return open_notebook(page_ or page, server, name, cells)

    yield open_
    # Close the pages first so the front end lets go, then stop this test's kernels.
    for open_page in list(page.context.pages):
        open_page.close()
    server.shutdown_kernels()


@pytest.fixture
def lab_notebook(jupyter_lab: JupyterServer, page: Page) -> Iterator[NotebookOpener]:
    """open(name, cells, page=None) -> Page: a notebook of `cells` in JupyterLab, kernel ready."""
    yield from _opener(jupyter_lab, page)


@pytest.fixture
def nb7_notebook(jupyter_notebook7: JupyterServer, page: Page) -> Iterator[NotebookOpener]:
    """open(name, cells, page=None) -> Page: the same in Notebook 7."""
    yield from _opener(jupyter_notebook7, page)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed:
        _save_artifacts(item)


def _save_artifacts(item: pytest.Item) -> None:
    """Screenshots, console and server log of a failed test, for a reader of CI's log."""
    stem = re.sub(r"[^\w.-]+", "_", item.nodeid)
    ARTIFACTS.mkdir(exist_ok=True)
    funcargs = getattr(item, "funcargs", {})
    page = funcargs.get("page")
    if isinstance(page, Page):
        for number, open_page in enumerate(page.context.pages):
            with contextlib.suppress(Exception):
                open_page.screenshot(path=str(ARTIFACTS / f"{stem}-{number}.png"), full_page=True)
    console = item.stash.get(CONSOLE, [])
    if console:
        (ARTIFACTS / f"{stem}-console.txt").write_text("\n".join(console))
    for name in ("jupyter_lab", "jupyter_notebook7"):
        server = funcargs.get(name)
        if isinstance(server, JupyterServer):
            (ARTIFACTS / f"{stem}-{name}.log").write_text(server.log_tail(400))
