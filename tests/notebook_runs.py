"""The notebooks, run headless in a fresh kernel once per test session: the notebook tests and
the sentence lint read the same outputs. (Test modules import from here, never from one
another.)

The kernel is the `python3` kernel of the interpreter running the tests, with the checkout first
on its path; the widget cells run without a browser (the kernel only sends the views' state).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
NAMES = [
    "play.ipynb",
    "teaching_pairing_strategy.ipynb",
    "inspect_state.ipynb",
    "winnability.ipynb",
    "puzzles.ipynb",
    "strategy_lab.ipynb",
]

FEWER = {"strategy_lab.ipynb": ("DEALS = range(1, 1001)", "DEALS = range(1, 41)")}
"""Notebooks the suite runs on fewer deals: the source line as written and as run."""


def execute(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Run `nb` in place, with this checkout first on the kernel's path."""
    path = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), path) if p)
    try:
        client = NotebookClient(
            nb,
            timeout=240,
            kernel_name="python3",
            resources={"metadata": {"path": str(NOTEBOOKS)}},
        )
        client.execute()
    finally:
        if path is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = path
    return nb


@functools.cache
def run(name: str) -> nbformat.NotebookNode:
    """A notebook run once per test session (the tests only read what it showed)."""
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    if name in FEWER:
        written, run_as = FEWER[name]
        cell = next(cell for cell in nb.cells if written in cell.source)
        cell.source = cell.source.replace(written, run_as)
    return execute(nb)
