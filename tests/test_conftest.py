"""The suite's own set-up (`conftest.py`), where it changes what a test meets."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INTERRUPTED = "tests/test_solver_stats.py::test_an_interrupted_run_returns_what_it_decided"


def test_a_suite_started_with_ctrl_c_ignored_still_interrupts_its_runs():
    """A run of the suite started as ``cmd &`` from a script inherits SIGINT ignored; the
    interrupted-run tests must still interrupt (and not wait for all 3000 deals)."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            f"{INTERRUPTED}[in-process]",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    assert done.returncode == 0, done.stdout[-2000:]
    assert "1 passed" in done.stdout
