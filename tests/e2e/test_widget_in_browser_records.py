"""Saved games, records and the game review in a real JupyterLab and a real Chromium: a game
left when its kernel goes, continued in the reopened notebook; the Records panel after a win;
the review's table with the decisive mistake marked, stepping the board back to it."""

from __future__ import annotations

import json
import re

from harness import has_class, kernel, run_all, run_code, wait_for_widget
from helpers import DEAL, LAYOUT, SOLUTION
from playwright.sync_api import expect


def open_widget(lab_notebook, name: str, rules: str, *, deal: int | None = None):
    """A notebook showing a widget on numbered deal `deal` (else on LAYOUT, practice for the
    records) under `rules`, run and rendered."""
    board = f"deal={deal!r}" if deal is not None else f"layout={LAYOUT!r}"
    cells = [
        f"from pyramid_widget import Game, PyramidWidget\nw = PyramidWidget({rules!r}, {board})",
        "w",
    ]
    page = lab_notebook(name, cells)
    run_all(page)
    wait_for_widget(page, "[data-card]")
    return page, cells


def test_a_game_left_with_its_kernel_continues_in_the_reopened_notebook(lab_notebook, jupyter_lab):
    page, cells = open_widget(lab_notebook, "widget_continue.ipynb", "open-stock")
    board = page.locator(".pw-root")
    board.locator('[data-card="Kc"]').click()
    board.locator('[data-card="Kh"]').click()
    board.locator('[data-card="7h"]').click()
    board.locator('[data-pile="stock"]').click()  # 7h with the face-up 6d
    board.locator('button[data-action="undo"]').click()
    expect(board.locator(".pw-status")).to_contain_text("Moves 2")
    assert kernel(page, "w.moves, w.game.redo_moves") == "['Kc', 'Kh'] [Move.parse('6d+7h')]"

    # Close everything: the kernel goes, the page goes; then open the notebook again.
    jupyter_lab.shutdown_kernels()
    page = lab_notebook("widget_continue.ipynb", cells)
    run_all(page)
    wait_for_widget(page, "[data-card]")
    board = page.locator(".pw-root")
    offer = board.locator(".pw-offer")
    expect(offer).to_contain_text("Continue your open-stock game (2 moves, 2 of 28 cleared")
    expect(offer).to_contain_text("Playing another deal instead counts it as a loss.")
    expect(board.locator(".pw-pyramid [data-card]")).to_have_count(28)  # not until asked

    offer.locator('button[data-action="continue"]').click()
    expect(offer).to_be_hidden()
    expect(board.locator(".pw-pyramid [data-card]")).to_have_count(26)
    expect(board.locator(".pw-status")).to_contain_text("Moves 2")
    assert kernel(page, "w.moves") == "['Kc', 'Kh']"
    board.locator('button[data-action="redo"]').click()  # the undo history came back too
    expect(board.locator('[data-card="7h"]')).to_have_count(0)
    assert kernel(page, "w.moves") == "['Kc', 'Kh', '6d+7h']"


def test_records_after_a_win_and_a_review_marking_the_mistake(lab_notebook):
    page, _ = open_widget(lab_notebook, "widget_records.ipynb", "scored", deal=DEAL)
    board = page.locator(".pw-root")
    board.locator('button[data-action="records"]').click()
    records = board.locator(".pw-records")
    expect(records).to_contain_text("Records: scored")
    expect(records.locator('[data-record="wins"] dd')).to_have_text("0")
    run_code(page, "import json")
    notes = json.loads(kernel(page, "json.dumps(w.state['records']['notes'])"))
    assert notes, "the panel says what counts"
    expect(records.locator(".pw-note")).to_have_text(notes)

    # A win played by the solver's moves: the open panel follows.
    run_code(
        page, "from pyramid_widget import solve\nfor move in solve(w.game).moves: w.play(move)"
    )
    expect(board.locator(".pw-panel")).to_contain_text("Pyramid cleared!")
    expect(records.locator('[data-record="games"] dd')).to_have_text("1")
    expect(records.locator('[data-record="wins"] dd')).to_have_text("1")
    expect(records.locator('[data-record="win_rate"] dd')).to_have_text("100%")
    expect(records.locator('[data-record="fewest_moves"] dd')).to_have_text(
        kernel(page, "w.game.move_count")
    )
    expect(records.locator('[data-record="best_score"] dd')).to_have_text(
        kernel(page, "w.game.score")
    )

    # A game that goes wrong at move 16 (2s+Jc; 2s+Jh keeps the win), played on until stuck.
    line = [*SOLUTION[:15], "2s+Jc"]
    run_code(
        page,
        f"w.new_deal(code=Game.from_layout({LAYOUT!r}, 'open-stock').deal_code)\n"
        f"for move in {line!r}: w.play(move)\n"
        "while w.game.outcome is None: w.play(w.game.legal_moves()[0])",
    )
    panel = board.locator(".pw-panel")
    expect(panel).to_contain_text("Out of moves")
    end = kernel(page, "w.game.move_count")
    panel.locator('button[data-action="review"]').click()
    expect(panel).to_be_hidden()  # the board shows behind the review
    review = board.locator(".pw-review")
    expect(review).to_contain_text(re.compile("Reviewing|winnable until move 16"))
    decisive = review.locator("tr.pw-decisive")
    expect(decisive).to_have_count(1, timeout=30_000)
    expect(decisive).to_contain_text("2\u2660 + J\u2663")  # card symbols, never notation
    expect(decisive).to_contain_text("2\u2660 + J\u2665 would have kept it")
    expect(review).not_to_contain_text("Jc")
    assert decisive.get_attribute("data-number") == "16"

    # Its row steps the board back to the position before the mistake, redo kept, and that
    # is no restart: no loss is recorded.
    losses = kernel(page, "w.records().losses")
    decisive.locator('button[data-action="step"]').click()
    expect(board.locator(".pw-status")).to_contain_text("Moves 15")
    expect(decisive).to_have_class(has_class("pw-current"))
    assert kernel(page, "len(w.moves), w.game.can_redo") == "15 True"
    assert kernel(page, "w.records().losses") == losses

    # Close: the board goes back to where the game ended, with its notice.
    review.locator('button[data-action="review-close"]').click()
    expect(review).to_be_hidden()
    expect(board.locator(".pw-status")).to_contain_text(f"Moves {end}")
    expect(board.locator(".pw-panel")).to_contain_text("Out of moves")


def test_leaving_a_game_that_counts_asks_first_by_mouse_and_by_keyboard(lab_notebook):
    page, _ = open_widget(lab_notebook, "widget_give_up.ipynb", "open-stock", deal=DEAL)
    board = page.locator(".pw-root")
    ask = board.locator(".pw-ask")
    losses = int(kernel(page, "w.records().losses"))  # the file's, from the games before
    board.locator('[data-card="Kc"]').click()
    expect(board.locator(".pw-status")).to_contain_text("Moves 1")

    board.locator('.pw-controls > button[data-action="new"]').click()  # the mouse: keep playing
    expect(ask).to_be_visible()
    expect(ask).to_contain_text("This gives up the game in play: it counts as a loss.")
    expect(ask.locator('button[data-action="keep-playing"]')).to_be_focused()
    ask.locator('button[data-action="keep-playing"]').click()
    expect(ask).to_be_hidden()

    page.keyboard.press("n")  # the keyboard: Esc keeps playing
    expect(ask).to_be_visible()
    page.keyboard.press("Escape")
    expect(ask).to_be_hidden()
    assert kernel(page, "w.moves, w.records().losses") == f"['Kc'] {losses}"

    board.locator('[data-card="Kh"]').focus()  # back on the board after the cell ran
    page.keyboard.press("n")  # the keyboard: give up
    expect(ask.locator('button[data-action="keep-playing"]')).to_be_focused()
    page.keyboard.press("Shift+Tab")
    expect(ask.locator('button[data-action="give-up"]')).to_be_focused()
    page.keyboard.press("Enter")
    expect(ask).to_be_hidden()
    expect(board.locator(".pw-status")).to_contain_text("Moves 0")
    assert kernel(page, "w.records().losses") == str(losses + 1)

    board.locator('[data-pile="stock"]').click()  # the mouse: give up by restarting
    expect(board.locator(".pw-status")).to_contain_text("Moves 1")
    board.locator('.pw-controls > button[data-action="restart"]').click()
    ask.locator('button[data-action="give-up"]').click()
    expect(board.locator(".pw-status")).to_contain_text("Moves 0")
    assert kernel(page, "w.moves, w.records().losses") == f"[] {losses + 2}"
    board.locator(
        '.pw-controls > button[data-action="new"]'
    ).click()  # nothing played: nothing asks
    expect(ask).to_be_hidden()
    assert kernel(page, "w.records().losses") == str(losses + 2)


def test_a_deal_lost_from_the_start_says_so_and_offers_winnable_deals(lab_notebook):
    cells = [
        "import random\nfrom pyramid_widget import PyramidWidget\n"
        "w = PyramidWidget('strict', deal=1)",
        "w",
    ]
    page = lab_notebook("widget_lost_deal.ipynb", cells)
    run_all(page)
    wait_for_widget(page, "[data-card]")
    board = page.locator(".pw-root")
    run_code(  # strict deal 1 cannot be won: play it out to the end
        page,
        "rng = random.Random(1)\nwhile w.game.outcome is None:\n"
        "    w.play(rng.choice(w.game.legal_moves()))",
    )
    panel = board.locator(".pw-panel")
    expect(panel).to_contain_text("This deal could not be won from the start.")
    expect(panel).not_to_contain_text("undo to try another way")
    expect(panel.locator('button[data-action="new"]')).to_be_visible()
    panel.locator('button[data-action="winnable-only"]').click()
    expect(panel.locator('button[data-action="winnable-only"]')).to_have_count(0)
    assert kernel(page, "w.winnable_only") == "True"
