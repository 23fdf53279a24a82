"""Suite-wide fixtures."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def private_records_database(tmp_path_factory, monkeypatch):
    """Never let a test save into the player's real Jupyter data folder."""
    monkeypatch.setenv("PYRAMID_WIDGET_DB", str(tmp_path_factory.mktemp("db") / "pyramid.sqlite3"))
