"""Watching a strategy in a real JupyterLab and a real Chromium: a cell puts greedy to play on
the board, the board shows three of its moves, each marked before it is played, the Pause
button holds the next one (marked, unplayed), and a tap on the stock takes the game over; Back
to my game brings the game in play back as it was."""

from __future__ import annotations

import ast
import time

from harness import has_class, kernel, run_all, run_code, screenshot, wait_for_widget
from playwright.sync_api import expect

from pyramid_widget import Game
from pyramid_widget.lab import PlayerView, greedy


def test_a_strategy_plays_three_moves_on_the_board_then_is_paused_and_taken_over(lab_notebook):
    page = lab_notebook(
        "watch_in_browser.ipynb",
        [
            "from pyramid_widget import PyramidWidget\n"
            "from pyramid_widget.lab import greedy\n"
            "w = PyramidWidget(rules='classic', deal=42, store=None)\n"
            "w.draw()",
            "w",
        ],
    )
    run_all(page)
    wait_for_widget(page, "[data-card]")
    board = page.locator(".pw-root")
    panel = board.locator(".pw-watch")
    status = board.locator(".pw-status")
    expect(status).to_contain_text("Moves 1")
    expect(panel).to_be_hidden()

    board.evaluate(RECORD_MARKS)
    run_code(page, "watch = w.watch(greedy, speed=2)")
    expect(panel).to_be_visible()
    expect(panel.locator(".pw-watch-title")).to_have_text("Watching greedy")
    expect(status).to_contain_text("Moves 4", timeout=20_000)  # three of greedy's moves
    board.locator('.pw-watch button[data-action="watch_pause"]').click()
    expect(panel).to_have_attribute("data-phase", "paused")

    played = ast.literal_eval(kernel(page, "w.moves"))
    expected = Game.deal(42, "classic")
    expected.draw()
    for move in played[1:]:
        assert move == str(greedy(PlayerView.of(expected)))
        expected.play(move)
    drawn = page.evaluate("() => window.watchMarks")
    for number, move in enumerate(played[1:4], 1):  # each marked while the board had `number`
        assert [_cards(move)] == [set(marks) for moves, marks in drawn if moves == number][-1:]
    held = kernel(page, "w.state['watch']['move']")
    assert held == str(greedy(PlayerView.of(expected)))  # the next move, marked, not played
    assert _marked(board) == _cards(held)
    screenshot(board, "watch.png")
    time.sleep(1.5)  # three beats at this speed: nothing moves while paused
    assert ast.literal_eval(kernel(page, "w.moves")) == played

    board.locator('[data-pile="stock"]').click()  # the player's move: the game is theirs
    expect(panel).to_have_attribute("data-phase", "yours")
    expect(panel.locator('button[data-action="watch_stop"]')).to_have_text("Back to my game")
    expect(board.locator(".pw-hinted")).to_have_count(0)
    assert ast.literal_eval(kernel(page, "w.moves")) == [*played, "draw"]
    assert kernel(page, "watch.run.phase") == "yours"

    panel.locator('button[data-action="watch_stop"]').click()
    expect(panel).to_be_hidden()
    expect(status).to_contain_text("Moves 1")
    assert ast.literal_eval(kernel(page, "w.moves")) == ["draw"]
    expect(board.locator(".pw-card").first).not_to_have_class(has_class("pw-hinted"))


#: Keep, each time the board draws a new state, the move count it shows and what it marks.
RECORD_MARKS = """(root) => {
    window.watchMarks = [];
    new MutationObserver(() => window.watchMarks.push([
        Number(/Moves (\\d+)/.exec(root.querySelector('.pw-status').textContent)[1]),
        [...root.querySelectorAll('.pw-hinted')].map((node) => node.dataset.card || 'stock'),
    ])).observe(root, {attributes: true, attributeFilter: ['data-version']});
}"""


def _marked(board) -> set[str]:
    """What the board marks: the cards outlined, or "stock" for a draw or a recycle."""
    cards = board.locator(".pw-card.pw-hinted[data-card]").evaluate_all(
        "(nodes) => nodes.map((node) => node.dataset.card)"
    )
    stock = board.locator('[data-pile="stock"].pw-hinted').count()
    return set(cards) | ({"stock"} if stock else set())


def _cards(move: str) -> set[str]:
    return {"stock"} if move in ("draw", "recycle") else set(move.split("+"))
