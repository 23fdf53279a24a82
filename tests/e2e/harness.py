"""Drive a real Jupyter server and a real Chromium for the end-to-end tests.

conftest.py holds the pytest fixtures; this module holds the plain functions the tests call, so
a test reads as what a notebook user does: open a notebook, run it, click, read the kernel back.
Import it from an e2e test with ``from harness import run_code, wait_for_widget``.

Everything here talks to JupyterLab through ``window.jupyterapp`` (the servers are started with
``expose_app_in_browser``), which works the same in JupyterLab 4 and Notebook 7.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote

from helpers import LAYOUT
from playwright.sync_api import Locator, Page, expect

ServerKind = Literal["lab", "notebook"]

SERVER_START_TIMEOUT_S = 90.0
KERNEL_READY_TIMEOUT_MS = 120_000
RUN_TIMEOUT_MS = 60_000
WIDGET_TIMEOUT_MS = 30_000
LISTING_TIMEOUT_S = 30.0  # a kernel start that keeps the kernel list unreadable longer is a fault

#: Debian's binary first: /usr/bin/chromium is a shell wrapper that prints a harmless warning.
SYSTEM_CHROMIUMS = ("/usr/lib/chromium/chromium", "/usr/bin/chromium")

#: Flags that keep Chromium from phoning home: this machine has no network but the registries,
#: and refused connections would only slow every page down.
CHROMIUM_ARGS = (
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-features=AutofillServerCommunication",  # form pages asked Google's servers
    "--disable-gpu",
)

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


class CellError(AssertionError):
    """A cell run by the harness raised in the kernel; the message carries the traceback."""


def find_chromium() -> str | None:
    """The Chromium to launch: $PYRAMID_CHROMIUM, else Debian's, else None (Playwright's own)."""
    explicit = os.environ.get("PYRAMID_CHROMIUM")
    if explicit:
        if not os.access(explicit, os.X_OK):
            raise RuntimeError(f"PYRAMID_CHROMIUM={explicit} is not an executable file")
        return explicit
    for candidate in SYSTEM_CHROMIUMS:
        if os.access(candidate, os.X_OK):
            return candidate
    return None


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _die_with_parent() -> None:
    """In the child before exec: get SIGTERM if pytest itself is killed, so no server lingers."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


@dataclass
class JupyterServer:
    """A Jupyter server this test session started, in its own process group."""

    kind: ServerKind
    process: subprocess.Popen[bytes]
    port: int
    token: str
    root_dir: Path
    log_path: Path

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def notebook_url(self, name: str) -> str:
        """The page that shows notebook `name` (a path under root_dir)."""
        if self.kind == "lab":
            # `reset` drops the saved workspace, so tabs of earlier tests never reopen.
            return f"{self.base_url}/lab/tree/{quote(name)}?reset&token={self.token}"
        return f"{self.base_url}/notebooks/{quote(name)}?token={self.token}"

    def log_tail(self, lines: int = 60) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no server log)"
        return "\n".join(text.splitlines()[-lines:])

    def api(self, method: str, path: str) -> object:
        """Call the server's REST API; returns the decoded JSON body (None when empty)."""
        request = urllib.request.Request(
            f"{self.base_url}{path}",
            method=method,
            headers={"Authorization": f"token {self.token}"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read()
        return json.loads(body) if body else None

    def shutdown_kernels(self) -> None:
        """Close every session and kernel, so the next test starts on a fresh kernel."""
        for session in self._listing("/api/sessions"):
            with contextlib.suppress(urllib.error.URLError):
                self.api("DELETE", f"/api/sessions/{session['id']}")
        for kernel in self._listing("/api/kernels"):
            with contextlib.suppress(urllib.error.URLError):
                self.api("DELETE", f"/api/kernels/{kernel['id']}")

    def _listing(self, path: str) -> list[dict[str, Any]]:
        """The server's list of sessions or kernels. While a kernel is starting, jupyter_server
        cannot describe it yet (its ``last_activity`` is still None) and answers the whole list
        with a 500; a test that opened a notebook a moment ago (its page starts a kernel) meets
        that now and then, so the list is asked for again until the start is over."""
        deadline = time.monotonic() + LISTING_TIMEOUT_S
        while True:
            try:
                listed = self.api("GET", path)
            except urllib.error.HTTPError as error:
                if error.code != 500 or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
                continue
            assert isinstance(listed, list), f"GET {path} answered {listed!r}"
            return listed

    def stop(self, grace_s: float = 15.0) -> None:
        """SIGTERM the whole group (the server shuts its kernels down), SIGKILL what is left."""
        kernels = _descendants(self.process.pid)
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(grace_s)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(grace_s)
        # Kernels run in sessions of their own, so the group signal does not reach them.
        _reap(kernels, grace_s)


def _descendants(pid: int) -> list[Any]:
    try:
        import psutil  # ipykernel depends on it, so it is there wherever the tests run
    except ImportError:
        return []
    try:
        return list(psutil.Process(pid).children(recursive=True))
    except psutil.Error:
        return []


def _reap(processes: list[Any], grace_s: float) -> None:
    """Terminate the given psutil processes that still run, then kill the stubborn ones."""
    if not processes:
        return
    import psutil

    alive = [p for p in processes if p.is_running()]
    for process in alive:
        with contextlib.suppress(psutil.Error):
            process.terminate()
    _, alive = psutil.wait_procs(alive, timeout=grace_s)
    for process in alive:
        with contextlib.suppress(psutil.Error):
            process.kill()
    psutil.wait_procs(alive, timeout=grace_s)


def start_server(kind: ServerKind, workdir: Path, code_root: Path) -> JupyterServer:
    """Start JupyterLab ("lab") or Notebook 7 ("notebook") on a free port; wait until it answers.

    Every JUPYTER_* folder points into `workdir`, so the user's own setup never leaks in and the
    tests never write into it. `code_root` goes first on the kernels' PYTHONPATH: they import
    the checkout under test, whatever is (or is not) installed in the environment.
    """
    dirs = {
        name: workdir / name
        for name in ("root", "config", "data", "runtime", "settings", "workspaces", "ipython")
    }
    for path in dirs.values():
        path.mkdir(parents=True, exist_ok=True)
    notification = dirs["settings"] / "@jupyterlab" / "apputils-extension"
    notification.mkdir(parents=True, exist_ok=True)
    # Without this a news pop-up can cover the page.
    (notification / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )

    env = dict(os.environ)
    env.update(
        JUPYTER_CONFIG_DIR=str(dirs["config"]),
        JUPYTER_DATA_DIR=str(dirs["data"]),
        JUPYTER_RUNTIME_DIR=str(dirs["runtime"]),
        JUPYTERLAB_SETTINGS_DIR=str(dirs["settings"]),
        JUPYTERLAB_WORKSPACES_DIR=str(dirs["workspaces"]),
        IPYTHONDIR=str(dirs["ipython"]),
        PYRAMID_WIDGET_DB=str(workdir / "records.sqlite3"),  # kernels save games here
        PYTHONPATH=os.pathsep.join(filter(None, [str(code_root), env.get("PYTHONPATH")])),
        PATH=os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")]),
    )
    env.pop("JUPYTER_TOKEN", None)

    port = free_port()
    token = secrets.token_hex(24)
    app = "LabApp" if kind == "lab" else "JupyterNotebookApp"
    command = [
        sys.executable,
        "-m",
        "jupyterlab" if kind == "lab" else "notebook",
        "--no-browser",
        "--allow-root",
        f"--port={port}",
        "--ServerApp.port_retries=0",
        "--ServerApp.ip=127.0.0.1",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={dirs['root']}",
        "--ServerApp.terminals_enabled=False",
        f"--{app}.expose_app_in_browser=True",
    ]
    log_path = workdir / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=dirs["root"],
            start_new_session=True,
            preexec_fn=_die_with_parent if sys.platform == "linux" else None,
        )
    server = JupyterServer(kind, process, port, token, dirs["root"], log_path)
    try:
        _wait_until_up(server)
    except BaseException:
        server.stop()
        raise
    return server


def _wait_until_up(server: JupyterServer) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    while True:
        if server.process.poll() is not None:
            raise RuntimeError(
                f"the {server.kind} server exited with {server.process.returncode}:\n"
                + server.log_tail()
            )
        try:
            server.api("GET", "/api/status")
            return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(
                f"the {server.kind} server did not answer within {SERVER_START_TIMEOUT_S:.0f} s:\n"
                + server.log_tail()
            )
        time.sleep(0.2)


def write_notebook(root: Path, name: str, cells: list[str]) -> Path:
    """Write a notebook of code cells to root/name (replacing any earlier one)."""
    if not name.endswith(".ipynb") or ".." in Path(name).parts or Path(name).is_absolute():
        raise ValueError(f"notebook name must be a relative path ending in .ipynb, not {name!r}")
    notebook = {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": None,
                "id": f"cell-{number}",
                "metadata": {},
                "outputs": [],
                "source": source,
            }
            for number, source in enumerate(cells)
        ],
        "metadata": {
            "kernelspec": {
                "display_name": "Python 3 (ipykernel)",
                "language": "python",
                "name": "python3",
            },
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(notebook, indent=1))
    return path


# The notebook panel in view; the same expression in JupyterLab and Notebook 7.
_PANEL = "window.jupyterapp && window.jupyterapp.shell && window.jupyterapp.shell.currentWidget"

_KERNEL_READY_JS = f"""(path) => {{
    const panel = {_PANEL};
    if (!panel || !panel.sessionContext || !panel.context) return false;
    if (panel.context.path !== path || !panel.context.isReady) return false;
    const session = panel.sessionContext;
    const kernel = session.session && session.session.kernel;
    return session.isReady && !!kernel && kernel.connectionStatus === 'connected'
        && kernel.status === 'idle';
}}"""

_DIAGNOSIS_JS = f"""() => {{
    const panel = {_PANEL};
    const session = panel && panel.sessionContext;
    const kernel = session && session.session && session.session.kernel;
    const dialog = document.querySelector('.jp-Dialog');
    return JSON.stringify({{
        app: !!window.jupyterapp,
        path: panel && panel.context ? panel.context.path : null,
        sessionReady: session ? session.isReady : null,
        connection: kernel ? kernel.connectionStatus : null,
        kernel: kernel ? kernel.status : null,
        dialog: dialog ? dialog.innerText : null,
    }});
}}"""


def diagnose(page: Page) -> str:
    """What the page shows of the notebook and its kernel: for failure messages."""
    try:
        return page.evaluate(_DIAGNOSIS_JS)
    except Exception as error:  # the page may be gone; the message must still be built
        return f"(page not readable: {error})"


def open_notebook(page: Page, server: JupyterServer, name: str, cells: list[str]) -> Page:
    """Write a notebook of `cells`, open it in `page` and wait until its kernel is really ready.

    "Ready" means what a user waits for before running anything: the session is ready and the
    kernel connected and idle. The toolbar reads "idle" before a kernel exists, and code sent
    then is silently lost.
    """
    write_notebook(server.root_dir, name, cells)
    page.goto(server.notebook_url(name), wait_until="domcontentloaded")
    wait_kernel_ready(page, name)
    return page


def wait_kernel_ready(page: Page, name: str, timeout_ms: int = KERNEL_READY_TIMEOUT_MS) -> None:
    try:
        page.wait_for_function(_KERNEL_READY_JS, arg=name, timeout=timeout_ms, polling=100)
    except Exception as error:
        raise AssertionError(f"kernel of {name} not ready: {diagnose(page)}") from error


def _outputs_text(outputs: list[dict[str, object]]) -> str:
    """The text a reader sees in an output area; a kernel error raises CellError."""
    parts: list[str] = []
    for output in outputs:
        kind = output.get("output_type")
        if kind == "stream":
            parts.append(str(output.get("text", "")))
        elif kind in ("execute_result", "display_data"):
            data = output.get("data") or {}
            if isinstance(data, dict) and "text/plain" in data:
                parts.append(str(data["text/plain"]) + "\n")
        elif kind == "error":
            traceback = "\n".join(str(line) for line in output.get("traceback") or [])
            raise CellError(
                f"{output.get('ename')}: {output.get('evalue')}\n{_ANSI.sub('', traceback)}"
            )
    return "".join(parts)


_RUN_ALL_JS = f"""() => {{
    const panel = {_PANEL};
    for (const cell of panel.content.widgets) {{
        if (cell.model.type === 'code') {{
            cell.model.outputs.clear();
            cell.model.executionCount = null;
        }}
    }}
    // Not awaited: the promise settles only when every cell has run.
    void window.jupyterapp.commands.execute('notebook:run-all-cells');
}}"""

_ALL_RUN_JS = f"""() => {{
    const panel = {_PANEL};
    const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
    const cells = panel.content.widgets.filter((cell) => cell.model.type === 'code');
    for (const cell of cells) {{
        const outputs = cell.model.outputs.toJSON();
        if (outputs.some((output) => output.output_type === 'error')) return {{outputs}};
    }}
    const done = cells.every((cell) => cell.model.executionCount !== null
        && cell.model.executionState !== 'running');
    return done && kernel && kernel.status === 'idle' ? {{outputs: []}} : false;
}}"""


def run_all(page: Page, timeout_ms: int = RUN_TIMEOUT_MS) -> None:
    """Run every cell, as Run > Run All Cells does, and wait until all have finished.

    A cell that raises stops the run, and its error is raised here as CellError.
    """
    page.evaluate(_RUN_ALL_JS)
    try:
        handle = page.wait_for_function(_ALL_RUN_JS, timeout=timeout_ms, polling=100)
    except Exception as error:
        raise AssertionError(f"cells did not finish running: {diagnose(page)}") from error
    _outputs_text(handle.json_value()["outputs"])


_INSERT_AND_RUN_JS = f"""async (code) => {{
    const app = window.jupyterapp;
    const notebook = ({_PANEL}).content;
    notebook.activeCellIndex = notebook.widgets.length - 1;
    notebook.deselectAll();
    notebook.mode = 'command';
    await app.commands.execute('notebook:insert-cell-below');
    const cell = notebook.activeCell;
    cell.model.sharedModel.setSource(code);
    // Not awaited: the output is read from the cell's model once its execution count is set.
    void app.commands.execute('notebook:run-cell');
    return cell.model.id;
}}"""

_CELL_DONE_JS = f"""(id) => {{
    const cell = ({_PANEL}).content.widgets.find((cell) => cell.model.id === id);
    if (!cell) return {{missing: true}};
    if (cell.model.executionCount === null) return false;
    return {{outputs: cell.model.outputs.toJSON()}};
}}"""


def run_code(page: Page, code: str, timeout_ms: int = RUN_TIMEOUT_MS) -> str:
    """Add a cell at the end of the notebook, run `code` in it and return what it printed.

    The text is the cell's output as a reader sees it (streams, then the plain-text form of a
    result), without the final newline; a kernel error raises CellError with the traceback.
    The cell's execution count is set only once the kernel has replied and gone idle, so all
    output has arrived by the time it is read.
    """
    cell_id = page.evaluate(_INSERT_AND_RUN_JS, code)
    try:
        handle = page.wait_for_function(_CELL_DONE_JS, arg=cell_id, timeout=timeout_ms, polling=50)
    except Exception as error:
        raise AssertionError(f"cell {code!r} did not finish: {diagnose(page)}") from error
    result = handle.json_value()
    if result.get("missing"):
        raise AssertionError(f"the cell running {code!r} disappeared from the notebook")
    return _outputs_text(result["outputs"]).rstrip("\n")


#: The README's pictures of the board; tests write them only when asked (see `screenshot`).
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def screenshot(target: Locator, name: str) -> None:
    """Save a picture of `target` as docs/screenshots/`name`, only with PYRAMID_SCREENSHOTS=1.

    The tests that reach a state worth showing call this, so the pictures are always of a
    board the suite has just checked; an ordinary run leaves the tree clean. To refresh them:
    ``PYRAMID_SCREENSHOTS=1 .venv/bin/python -m pytest tests/e2e/test_widget_look.py``.
    """
    if os.environ.get("PYRAMID_SCREENSHOTS") != "1":
        return
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(SCREENSHOTS / name), animations="disabled")


def wait_for_widget(page: Page, selector: str, timeout_ms: int = WIDGET_TIMEOUT_MS) -> Locator:
    """The first element matching `selector` inside a cell's output area, once it is visible."""
    locator = page.locator(".jp-OutputArea-output").locator(selector).first
    locator.wait_for(state="visible", timeout=timeout_ms)
    return locator


# ------------------------------------------------------------------ what the widget's tests share
def has_class(name: str) -> re.Pattern[str]:
    """A class matcher: the element's class list includes `name`."""
    return re.compile(rf"(^|\s){re.escape(name)}(\s|$)")


def open_board(
    lab_notebook: Callable[..., Page],
    name: str,
    rules: str = "open-stock",
    views: int = 1,
    setup: str = "",
) -> Page:
    """A notebook showing PyramidWidget on the reference LAYOUT (`views` times), run and
    rendered; `setup` is code run first (in the same cell as the widget's creation)."""
    setup = (
        f"{setup}\nfrom pyramid_widget import PyramidWidget\n"
        f"w = PyramidWidget(rules={rules!r}, layout={LAYOUT!r})"
    )
    page = lab_notebook(name, [setup] + ["w"] * views)
    run_all(page)
    wait_for_widget(page, "[data-card]")
    expect(page.locator(".pw-root")).to_have_count(views)
    return page


def kernel(page: Page, expression: str) -> str:
    """What `expression` prints in the notebook's kernel."""
    return run_code(page, f"print({expression})")


def kernel_once(page: Page, expression: str, expected: str, timeout_s: float = 10.0) -> str:
    """What `expression` prints once it prints `expected`, or at the deadline: a view sends its
    intents one at a time, so a cell run just after a click may reach the kernel first."""
    deadline = time.monotonic() + timeout_s
    while (said := kernel(page, expression)) != expected and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    return said


def cell_count(page: Page) -> int:
    return page.evaluate("() => window.jupyterapp.shell.currentWidget.content.widgets.length")


def menu(board: Locator) -> Locator:
    """The board's Game menu, opened."""
    details = board.locator("details.pw-menu")
    if details.get_attribute("open") is None:
        board.locator('summary[data-action="menu"]').click()
    return details.locator(".pw-menu-body")


def notebook_cells(page: Page) -> list[tuple[str, str]]:
    """The open notebook's cells, in order: each one's type and source."""
    return [
        tuple(cell)
        for cell in page.evaluate(
            "() => window.jupyterapp.shell.currentWidget.content.widgets"
            ".map((cell) => [cell.model.type, cell.model.sharedModel.getSource()])"
        )
    ]


_FOCUSED_JS = """() => {
    let node = document.activeElement;
    while (node && node.shadowRoot && node.shadowRoot.activeElement) {
        node = node.shadowRoot.activeElement;
    }
    const root = node && node.closest('.pw-root');
    if (!root) return `outside the board (${node ? node.tagName.toLowerCase() : 'nothing'})`;
    if (node.dataset.card) return `card ${node.dataset.card}`;
    if (node.dataset.pile) return `pile ${node.dataset.pile}`;
    if (node.dataset.action) return `button ${node.dataset.action}`;
    return node === root ? 'board' : node.tagName.toLowerCase();
}"""


def focused(page: Page) -> str:
    """What has the focus, in the board's words: "card 7h", "pile stock", "button unpause",
    "board" (the board itself), or "outside the board (body)". It looks into shadow roots
    (marimo draws the board in one)."""
    return page.evaluate(_FOCUSED_JS)


def wait_for_focus(page: Page, what: str) -> None:
    """Wait until `focused(page)` says `what`."""
    try:
        page.wait_for_function(f"() => ({_FOCUSED_JS})() === {json.dumps(what)}", timeout=5000)
    except Exception as error:
        raise AssertionError(f"the focus is on {focused(page)}, not on {what}") from error


def scroll_to_edge(node: Locator, edge: Literal["top", "bottom"]) -> None:
    """Scroll the box that scrolls around `node` (the notebook) so that `node` lies just inside
    that edge of its view: what is beyond the node is then out of view."""
    node.evaluate(
        """(node, edge) => {
            let box = node.parentElement;
            while (!(/auto|scroll/.test(getComputedStyle(box).overflowY)
                     && box.scrollHeight > box.clientHeight)) box = box.parentElement;
            const top = box.getBoundingClientRect().top + box.clientTop;
            const at = node.getBoundingClientRect();
            box.scrollTop += edge === 'top' ? at.top - (top + 4)
                : at.bottom - (top + box.clientHeight - 4);
        }""",
        edge,
    )
