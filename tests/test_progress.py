"""Progress of a long `winnability` run: what is shown where, and a notebook's widget bar and stop
button in a real Jupyter kernel."""

from __future__ import annotations

import io
import os
import sys
import time
from pathlib import Path

import nbformat
import pytest
from jupyter_client.manager import start_new_kernel
from nbclient import NotebookClient

from pyramid_widget.progress import (
    LINE_EVERY_S,
    NotebookBar,
    TextBar,
    bar_line,
    duration,
    in_kernel,
    progress_display,
    summary,
)

ROOT = Path(__file__).resolve().parents[1]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_outside_a_kernel_auto_shows_a_bar_only_on_a_terminal(monkeypatch):
    assert not in_kernel()
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert progress_display("auto", 10, "classic") is None
    assert progress_display(None, 10, "classic") is None
    assert progress_display(False, 10, "classic") is None
    lines = progress_display(True, 10, "classic")
    assert isinstance(lines, TextBar) and not lines.redraw and lines.every == LINE_EVERY_S
    monkeypatch.setattr(sys, "stderr", Terminal())
    bar = progress_display("auto", 10, "classic")
    assert isinstance(bar, TextBar) and bar.redraw


@pytest.mark.parametrize("bad", ["yes", 1, 0.5, ["auto"]])
def test_a_bad_progress_is_refused(bad):
    with pytest.raises(ValueError, match="progress is"):
        progress_display(bad, 10, "classic")


def test_a_terminal_bar_is_redrawn_in_place_and_ends_with_a_line():
    stream = Terminal()
    bar = TextBar(stream, "classic", redraw=True)
    bar.update(10, 40, 5.0, 6.0)
    bar.update(20, 40, 5.0, 4.0)  # too soon after the first: not drawn
    bar.close(40, 40, 8.0, False)
    drawn = stream.getvalue()
    assert drawn.count("\r") == 2 and drawn.endswith("\n")
    assert bar_line("classic", 10, 40, 5.0, 6.0) in drawn
    assert drawn.rstrip().endswith("classic: 40 deals in 8 s (5.0 deals/s)")


def test_a_log_gets_a_line_every_few_seconds_and_the_last_word():
    stream = io.StringIO()
    lines = TextBar(stream, "strict", redraw=False, every=0)
    lines.update(5, 20, 2.0, 7.5)
    lines.update(10, 20, 2.0, 5.0)
    lines.close(12, 20, 6.0, True)
    assert stream.getvalue().splitlines() == [
        "strict: 5 of 20 deals (25 %), 2.0 deals/s, about 8 s left",
        "strict: 10 of 20 deals (50 %), 2.0 deals/s, about 5 s left",
        "strict: interrupted after 12 of 20 deals (6 s)",
    ]


def test_the_words_of_progress():
    assert summary(0, 10, None, None) == "0 of 10 deals (0 %)"
    assert summary(10, 10, 3.0, 0.0) == "10 of 10 deals (100 %), 3.0 deals/s"
    assert summary(1, 10, 3.0, 0.2).endswith("about 1 s left")  # never "0 s left"
    assert duration(59.6) == "1 min 00 s" and duration(3600) == "1 h 00 min"


def test_no_notebook_bar_outside_a_kernel_without_ipywidgets(monkeypatch):
    monkeypatch.setitem(sys.modules, "ipywidgets", None)
    with pytest.raises(ImportError):
        NotebookBar(10, "classic")


@pytest.fixture
def kernel_env(monkeypatch):
    """The kernel imports this checkout."""
    path = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in (str(ROOT), path) if p))


def widget_states(nb) -> dict:
    state = nb.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    return {model["model_name"]: model["state"] for model in state.values()}


@pytest.mark.slow
def test_in_a_notebook_a_widget_bar_shows_the_run(kernel_env):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(
            "from pyramid_widget import winnability\n"
            "stats = winnability(range(1, 21), 'classic')\n"
            "print(stats.deals, stats.interrupted)"
        )
    ]
    NotebookClient(nb, timeout=240, kernel_name="python3", store_widget_state=True).execute()
    outputs = nb.cells[0].outputs
    assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs)
    assert "20 False" in "".join(o.get("text", "") for o in outputs)
    states = widget_states(nb)
    bar, words = states["IntProgressModel"], states["LabelModel"]
    assert (bar["value"], bar["max"], bar["bar_style"]) == (20, 20, "success")
    assert bar["description"] == "classic" and words["value"].startswith("20 deals in")


@pytest.mark.slow
def test_a_kernel_interrupt_stops_the_run_and_keeps_what_was_decided(kernel_env):
    """The notebook's stop button: the kernel gets SIGINT while the bar counts; the cell ends
    with the deals decided so far, the bar turns orange, and no worker process is left."""
    manager, client = start_new_kernel(kernel_name="python3")
    try:
        client.execute_interactive("from pyramid_widget import winnability", timeout=120)
        run = client.execute(
            "stats = winnability(range(1, 3001), 'classic')\n"
            "print('decided', stats.interrupted, stats.deals, len(stats.not_tried))"
        )
        shown, bar_model, deadline = 0, None, time.monotonic() + 180
        while shown < 30 and time.monotonic() < deadline:
            message = client.get_iopub_msg(timeout=60)
            content = message["content"]
            if message["msg_type"] == "comm_open":
                if content["data"]["state"].get("_model_name") == "IntProgressModel":
                    bar_model = content["comm_id"]
            elif message["msg_type"] == "comm_msg" and content["comm_id"] == bar_model:
                shown = content["data"].get("state", {}).get("value", shown)
        assert shown >= 30, "the bar never counted 30 deals"
        manager.interrupt_kernel()
        printed, last_style = "", None
        while True:
            message = client.get_iopub_msg(timeout=120)
            content = message["content"]
            if message["parent_header"].get("msg_id") != run:
                continue
            if message["msg_type"] == "stream":
                printed += content["text"]
            elif message["msg_type"] == "comm_msg" and content["comm_id"] == bar_model:
                last_style = content["data"].get("state", {}).get("bar_style", last_style)
            elif message["msg_type"] == "status" and content["execution_state"] == "idle":
                break
        word, interrupted, deals, not_tried = printed.split()
        assert (word, interrupted) == ("decided", "True"), printed
        assert int(deals) >= 30 and int(deals) + int(not_tried) == 3000
        assert last_style == "warning"
        said: list[str] = []
        client.execute_interactive(
            "import multiprocessing; print(len(multiprocessing.active_children()))",
            timeout=60,
            output_hook=lambda message: said.append(message["content"].get("text", "")),
        )
        assert "".join(said).strip() == "0"  # the pool's workers ended with the run
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
