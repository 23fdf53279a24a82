"""The store wired to a live PyramidWidget through its public `on_move` hook: the recipe the
widget follows (see pyramid_widget/records.py), checked against the real widget."""

from __future__ import annotations

import pytest

from pyramid_widget import Game
from pyramid_widget.records import Recorder
from pyramid_widget.store import Store

widget_module = pytest.importorskip("pyramid_widget.widget")


@pytest.fixture(autouse=True)
def _no_user_data(tmp_path, monkeypatch):
    """Nothing here may touch the player's real records."""
    monkeypatch.setenv("PYRAMID_WIDGET_DB", str(tmp_path / "default.sqlite3"))


def wired(store: Store, **kwargs) -> tuple[widget_module.PyramidWidget, Recorder]:
    widget = widget_module.PyramidWidget(**kwargs)
    recorder = Recorder(store, widget.game)
    widget.on_move(lambda event: recorder.changed(event.action, widget.game))
    return widget, recorder


def test_a_widget_autosaves_and_a_new_widget_continues_it(tmp_path):
    with Store(tmp_path / "records.sqlite3") as store:
        widget, _ = wired(store, deal=8)
        for _ in range(5):
            widget.play(widget.game.legal_moves()[0])
        widget.undo()

        game = Recorder(store, Game.deal(9)).continue_saved()
        assert game is not None
        again = widget_module.PyramidWidget(game=game)
        assert (again.game.code, again.moves, again.game.redo_moves) == (
            widget.game.code, widget.moves, widget.game.redo_moves
        )  # fmt: skip


def test_widget_restart_and_new_deal_follow_000s_rule(tmp_path):
    with Store(tmp_path / "records.sqlite3") as store:
        widget, _ = wired(store, deal=10)
        widget.restart()  # before any move: nothing
        widget.draw()
        widget.restart()  # a begun deal: lost
        widget.draw()
        widget.undo()  # undo alone: nothing yet
        assert store.records("classic").losses == 1
        widget.new_deal(42)  # a numbered deal replaces the begun one: lost
        widget.new_deal()  # nothing played in deal 42: nothing
        assert store.records("classic").losses == 2
        assert [entry.deal_number for entry in store.history()] == [10, 10]
