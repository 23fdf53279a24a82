"""Suite-wide fixtures."""

from __future__ import annotations

import signal

import pytest


def pytest_configure(config):
    """Give the suite Python's own Ctrl+C, whatever it inherited.

    A process started in the background of a shell without job control (``cmd &`` in a
    script, as some CI runners and cron do) inherits SIGINT ignored, and Python then installs
    no KeyboardInterrupt handler: ``_thread.interrupt_main()`` does nothing and a child's
    Ctrl+C is ignored too (ignored signals survive ``exec``). The tests of interrupted runs
    (the stop button, Ctrl+C in a terminal) would then wait for every deal instead. With the
    handler installed here, children start with SIGINT at its default, as under a terminal.
    """
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def private_records_database(tmp_path_factory, monkeypatch):
    """Never let a test save into the player's real Jupyter data folder."""
    monkeypatch.setenv("PYRAMID_WIDGET_DB", str(tmp_path_factory.mktemp("db") / "pyramid.sqlite3"))
