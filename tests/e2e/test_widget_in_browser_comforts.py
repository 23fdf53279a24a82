"""The widget's comforts in a real JupyterLab (and one Notebook 7) and a real Chromium: hints,
notices, pause, auto-pair, dragging, deals and rules from the Game menu. (How it looks, the
dark theme included: test_widget_look.py.)"""

from __future__ import annotations

import json
import re

from harness import (
    cell_count,
    has_class,
    kernel,
    kernel_once,
    menu,
    open_board,
    run_all,
    run_code,
    wait_for_widget,
)
from helpers import LAYOUT, SOLUTION
from measure import boxes, moved
from playwright.sync_api import Page, expect

# A stand-in for the solver's hint that thinks for 3 s, holding the GIL as a real search does.
SLOW_HINT = """
import time
from types import SimpleNamespace
import pyramid_widget.solver as solver

def slow_hint(game, *, fair=True, time_limit=0.3):
    end = time.monotonic() + 3
    while time.monotonic() < end:
        sum(range(1000))
    move = game.legal_moves()[0]
    return SimpleNamespace(move=str(move), kind=move.kind, verdict="unknown",
                           reason=f"{move} is a good start", chance=None)

solver.hint = slow_hint
"""


def test_a_slow_hint_leaves_the_board_responsive_and_a_stale_hint_is_dropped(lab_notebook):
    page = open_board(lab_notebook, "widget_hint.ipynb", setup=SLOW_HINT)
    board = page.locator(".pw-root")
    hint_line = board.locator(".pw-hint-line")

    board.locator('button[data-action="hint"]').click()
    expect(hint_line).to_have_text("Checking for a solution\u2026")
    board.locator('[data-card="Kc"]').click()  # answered while the solver thinks
    expect(board.locator('[data-card="Kc"]')).to_have_count(0)
    assert kernel(page, "w.moves") == "['Kc']"
    expect(hint_line).to_have_text("")  # the position changed: that hint is dropped
    page.wait_for_timeout(3500)  # the solver finished meanwhile; nothing may show up
    expect(hint_line).to_have_text("")
    expect(board.locator(".pw-hinted")).to_have_count(0)

    board.locator(".pw-status").click()
    page.keyboard.press("h")
    expect(hint_line).to_have_text("Kh is a good start", timeout=10_000)
    expect(board.locator('[data-card="Kh"]')).to_have_class(has_class("pw-hinted"))
    page.keyboard.press("Escape")
    expect(hint_line).to_have_text("")
    expect(board.locator(".pw-hinted")).to_have_count(0)


def test_a_hint_highlights_its_move_and_a_proven_loss_offers_the_exits(lab_notebook):
    # The real solver. One pass on this layout is unwinnable (one-pass.jsonl index 0).
    page = open_board(lab_notebook, "widget_real_hint.ipynb", rules="classic,passes=1")
    board = page.locator(".pw-root")
    hint_line = board.locator(".pw-hint-line")
    board.locator('button[data-action="hint"]').click()
    expect(hint_line).not_to_have_text(re.compile(r"^$|Checking"))
    move = kernel(page, "w.state['hint']['move']")
    for card in move.split("+"):
        expect(board.locator(f'[data-card="{card}"]')).to_have_class(has_class("pw-hinted"))
    assert kernel(page, "w.state['hint']['reason']") == hint_line.inner_text()
    assert len(hint_line.inner_text().split()) <= 15  # the move and one short reason
    expect(board.locator(".pw-panel")).to_be_hidden()  # a fair hint never claims a loss here
    # Its figures wait in the detail under it, closed until the player opens it; the board
    # keeps its place.
    detail = board.locator(".pw-hint-detail")
    figures = detail.locator("p")
    expect(detail.locator("summary")).to_have_text("Why?")
    expect(figures).to_be_hidden()
    start = boxes(board)
    detail.locator("summary").click()
    expect(figures).to_be_visible()
    expect(figures).to_have_text(kernel(page, "w.state['hint']['detail']"))
    expect(figures).to_contain_text("unseen")
    assert moved(start, boxes(board)) == []

    menu(board).locator('input[data-option="fair_hints"]').uncheck()  # 001's all-seeing hint
    assert kernel(page, "w.fair_hints") == "False"
    board.locator('summary[data-action="menu"]').click()  # close the menu
    board.locator(".pw-status").click()
    page.keyboard.press("h")
    panel = board.locator(".pw-panel")
    expect(panel).to_contain_text("Cannot be won from here")  # the catalog's words
    expect(hint_line).to_have_class(has_class("pw-lost"))
    for action in ("undo", "restart", "new"):
        expect(panel.locator(f'button[data-action="{action}"]')).to_be_visible()
    page.keyboard.press("Escape")  # closes the hint, and with it the notice
    expect(panel).to_be_hidden()
    expect(hint_line).to_have_text("")


def test_the_win_panel_after_a_deal_played_to_the_end(lab_notebook):
    page = open_board(lab_notebook, "widget_win.ipynb")
    board = page.locator(".pw-root")
    run_code(page, f"for move in {SOLUTION[:-1]!r}: w.play(move)")
    expect(board.locator(".pw-status")).to_contain_text("Cleared 27 of 28")
    board.locator('[data-card="Th"]').click()
    waste_or_stock = board.locator('[data-pile] [data-card="3d"]')
    waste_or_stock.click()

    panel = board.locator(".pw-panel")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("Pyramid cleared!")
    expect(panel).to_contain_text("Moves 49")
    expect(panel).to_contain_text("Cards cleared 28 of 28")
    expect(panel).to_contain_text("Time ")
    deal_code = panel.locator('[data-field="deal-code"]')
    assert deal_code.input_value() == kernel(page, "w.game.deal_code")
    expect(panel.locator('button[data-action="copy"]')).to_be_visible()

    panel.locator('button[data-action="look"]').click()
    expect(panel).to_be_hidden()
    expect(board.locator(".pw-status")).to_contain_text("Cleared 28 of 28")
    board.locator('button[data-action="undo"]').click()
    expect(board.locator(".pw-status")).to_contain_text("Cleared 27 of 28")
    board.locator('button[data-action="redo"]').click()
    expect(panel).to_contain_text("Pyramid cleared!")
    panel.locator('button[data-action="restart"]').click()
    expect(board.locator(".pw-pyramid [data-card]")).to_have_count(28)
    expect(panel).to_be_hidden()


def test_out_of_moves_on_a_deal_lost_from_the_start_says_so_and_offers_a_new_deal(lab_notebook):
    # One pass on this layout is unwinnable (one-pass.jsonl index 0).
    page = open_board(lab_notebook, "widget_stuck.ipynb", rules="classic,passes=1")
    board = page.locator(".pw-root")
    panel = board.locator(".pw-panel")
    run_code(page, "while w.game.outcome is None: w.play(w.game.legal_moves()[0])")
    expect(panel).to_contain_text("This deal could not be won from the start.")
    expect(panel).not_to_contain_text("undo to try another way")
    moves = int(kernel(page, "w.game.move_count"))

    # Look at the board: the recycle control is greyed, and pressed it still says why.
    panel.locator('button[data-action="look"]').click()
    expect(panel).to_be_hidden()
    stock = board.locator('[data-pile="stock"]')
    expect(stock).to_have_class(has_class("pw-blocked"))
    stock.click()
    expect(board.locator(".pw-message")).to_have_text("No recycles left.")

    board.locator('button[data-action="undo"]').click()
    expect(board.locator(".pw-status")).to_contain_text(f"Moves {moves - 1}")
    board.locator('button[data-action="redo"]').click()
    expect(panel).to_contain_text("could not be won from the start")
    panel.locator('button[data-action="new"]').click()  # a layout's game is practice: no question
    expect(board.locator(".pw-ask")).to_be_hidden()
    expect(panel).to_be_hidden()
    assert kernel(page, "w.game.outcome, w.game.move_count") == "None 0"


def test_pause_blocks_moves_until_unpaused(lab_notebook):
    page = open_board(lab_notebook, "widget_pause.ipynb")
    board = page.locator(".pw-root")
    board.locator('[data-card="Kc"]').click()
    expect(board.locator(".pw-status")).to_contain_text("Moves 1")

    board.locator('button[data-action="pause"]').click()
    panel = board.locator(".pw-panel")
    expect(panel).to_contain_text("Paused")
    board.locator(".pw-status").click()
    page.keyboard.press("d")
    expect(board.locator(".pw-message")).to_have_text("The game is paused: resume to play.")
    time_text = board.locator(".pw-time").inner_text()
    page.wait_for_timeout(1500)
    expect(board.locator(".pw-time")).to_have_text(time_text)  # the clock stands still
    assert kernel(page, "w.paused, w.moves") == "True ['Kc']"

    panel.locator('button[data-action="unpause"]').click()
    expect(panel).to_be_hidden()
    board.locator('[data-pile="stock"]').click()
    expect(board.locator(".pw-status")).to_contain_text("Moves 2")

    # A hidden tab pauses the clock; coming back resumes it.
    visibility = """(hidden) => {
        Object.defineProperty(document, 'hidden', {value: hidden, configurable: true});
        document.dispatchEvent(new Event('visibilitychange'));
    }"""
    page.evaluate(visibility, True)
    expect(panel).to_contain_text("Paused")
    assert kernel(page, "w.paused") == "True"
    page.evaluate(visibility, False)
    expect(panel).to_be_hidden()
    assert kernel(page, "w.paused") == "False"

    # F: full screen, and back.
    board.locator(".pw-status").click()
    page.keyboard.press("f")
    page.wait_for_function("() => document.fullscreenElement?.classList.contains('pw-root')")
    page.keyboard.press("f")
    page.wait_for_function("() => document.fullscreenElement === null")


def test_auto_pair_and_drag_to_pair(lab_notebook):
    page = open_board(lab_notebook, "widget_auto.ipynb")
    board = page.locator(".pw-root")
    run_code(page, "w.play('Kc'); w.play('Kh')")
    expect(board.locator(".pw-status")).to_contain_text("Moves 2")

    # Drag the 7h onto the face-up stock top, the 6d.
    seven = board.locator('[data-card="7h"]').bounding_box()
    stock = board.locator('[data-pile="stock"]').bounding_box()
    page.mouse.move(seven["x"] + seven["width"] / 2, seven["y"] + 10)
    page.mouse.down()
    page.mouse.move(stock["x"] + stock["width"] / 2, stock["y"] + 20, steps=12)
    page.mouse.up()
    expect(board.locator('[data-card="7h"]')).to_have_count(0)
    assert kernel(page, "w.moves[-1]") == "6d+7h"

    # Auto-pair from the Game menu: one tap takes the first partner.
    menu(board).locator('input[data-option="auto_pair"]').check()
    assert kernel(page, "w.auto_pair") == "True"
    board.locator('summary[data-action="menu"]').click()  # close the menu
    expect(board.locator(".pw-menu-body")).to_be_hidden()
    run_code(page, "w.play('draw'); w.play('Kd'); w.play('draw'); w.play('draw')")
    expect(board.locator('[data-pile="stock"] [data-card="Qd"]')).to_be_visible()
    board.locator('[data-card="As"]').click()
    expect(board.locator('[data-card="As"]')).to_have_count(0)
    assert kernel(page, "w.moves[-1]") == "As+Qd"


def test_deals_and_rules_from_the_game_menu(lab_notebook):
    imports = "from pyramid_widget import Game, daily_deal_number, deal_for_date"
    page = open_board(lab_notebook, "widget_deals.ipynb", rules="classic", setup=imports)
    board = page.locator(".pw-root")

    body = menu(board)
    body.locator('[data-field="number"]').fill("42")
    body.locator('button[data-action="deal-number"]').click()
    expect(board.locator(".pw-status")).to_contain_text("Deal #42")
    assert kernel(page, "w.game.layout == Game.deal(42, 'classic').layout") == "True"

    menu(board).locator('button[data-action="daily"]').click()
    daily = kernel(page, "daily_deal_number()")
    expect(board.locator(".pw-status")).to_contain_text(f"Deal #{daily}")
    today = "w.game.layout == deal_for_date().layout"
    assert kernel(page, today) == "True"

    body = menu(board)
    body.locator('button[data-action="share"]').click()
    expect(body.locator('[data-field="share"]')).to_have_value(f"classic#{daily}")

    body.locator('select[data-setting="preset"]').select_option("open-stock")
    body.locator('select[data-setting="passes"]').select_option("1")
    expect(body.locator('select[data-setting="passes"]')).to_have_value("1")
    chosen = "open-stock,passes=1 classic"
    assert kernel_once(page, "w.next_rules, w.game.rules.name", chosen) == chosen
    board.locator('.pw-controls > button[data-action="new"]').click()
    expect(board.locator(".pw-status")).to_contain_text("Pass 1 of 1")
    expect(board.locator('[data-pile="stock"] [data-card]')).to_have_count(1)  # face up now

    body = menu(board)
    body.locator('[data-field="code"]').fill(f"classic#{daily}")
    body.locator('button[data-action="open-code"]').click()
    expect(board.locator(".pw-status")).to_contain_text("Pass 1 of 3")
    assert kernel(page, today) == "True"


def test_the_game_menu_offers_what_python_lists(lab_notebook):
    page = open_board(lab_notebook, "widget_catalog.ipynb", rules="classic", setup="import json")
    board = page.locator(".pw-root")
    catalog = json.loads(kernel(page, "json.dumps(w.catalog)"))
    body = menu(board)

    presets = body.locator('select[data-setting="preset"] option')
    assert presets.evaluate_all("(nodes) => nodes.map((node) => node.value)") == [
        preset["name"] for preset in catalog["presets"]
    ]
    assert presets.all_inner_texts() == [preset["label"] for preset in catalog["presets"]]
    expect(body.locator('select[data-setting="preset"]')).to_have_value("classic")
    passes = body.locator('select[data-setting="passes"] option')
    assert passes.all_inner_texts() == [choice["label"] for choice in catalog["passes"]]
    expect(body.locator('select[data-setting="passes"]')).to_have_value("3")

    for option in catalog["options"]:
        row = body.locator("label.pw-check").filter(
            has=page.locator(f'input[data-option="{option["name"]}"]')
        )
        expect(row).to_have_text(option["label"])
        expect(row).to_have_attribute("title", option["help"])
    # Each box shows the option in force, and a click sets it in Python.
    options = json.loads(kernel(page, "json.dumps(w.state['options'])"))
    for option in catalog["options"]:
        box = body.locator(f'input[data-option="{option["name"]}"]')
        assert box.is_checked() == options[option["name"]]
    body.locator('input[data-option="highlight_partners"]').uncheck()
    assert kernel(page, "w.state['options']['highlight_partners']") == "False"


def test_notebook7_plays_too(nb7_notebook):
    setup = (
        "from pyramid_widget import PyramidWidget\nw = PyramidWidget('open-stock', layout=LAYOUT)"
    )
    cells = [f"LAYOUT = {LAYOUT!r}\n{setup}", "w"]
    page: Page = nb7_notebook("widget_nb7.ipynb", cells)
    run_all(page)
    wait_for_widget(page, "[data-card]")
    board = page.locator(".pw-root")
    expect(board.locator(".pw-pyramid [data-card]")).to_have_count(28)
    board.locator('[data-card="Kc"]').click()
    board.locator('[data-card="Kh"]').click()
    board.locator('[data-card="7h"]').click()
    board.locator('[data-pile="stock"]').click()
    expect(board.locator(".pw-status")).to_contain_text("Cleared 3 of 28")
    cells_before = cell_count(page)
    board.locator(".pw-status").click()
    page.keyboard.press("d")
    page.keyboard.press("d")
    expect(board.locator(".pw-status")).to_contain_text("Moves 5")
    assert cell_count(page) == cells_before
    assert run_code(page, "print(w.moves)") == "['Kc', 'Kh', '6d+7h', 'draw', 'draw']"
