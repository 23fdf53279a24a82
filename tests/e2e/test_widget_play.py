"""Playing the widget in a real JupyterLab and a real Chromium, as a player and as a notebook
user: clicks, cells, and what the kernel's game says afterwards (keys: test_widget_keys.py)."""

from __future__ import annotations

from harness import has_class, kernel, open_board, run_code
from playwright.sync_api import expect


def test_the_board_renders_and_plays_by_clicks(lab_notebook):
    page = open_board(lab_notebook, "widget_clicks.ipynb")
    board = page.locator(".pw-root")
    pyramid = board.locator(".pw-pyramid [data-card]")
    expect(pyramid).to_have_count(28)
    expect(board.locator('[data-pile="stock"] [data-card="6d"]')).to_be_visible()
    expect(board.locator(".pw-status")).to_contain_text("Cleared 0 of 28")

    # A King goes with one click.
    board.locator('[data-card="Kc"]').click()
    expect(board.locator('[data-card="Kc"]')).to_have_count(0)
    board.locator('[data-card="Kh"]').click()
    expect(pyramid).to_have_count(26)

    # Select a card: it lifts and its partner (the face-up stock top) is highlighted.
    seven = board.locator('[data-card="7h"]')
    seven.click()
    expect(seven).to_have_class(has_class("pw-selected"))
    expect(board.locator('[data-pile="stock"]')).to_have_class(has_class("pw-partner"))
    # Tapping it again deselects it; select it again and pair it with the stock top.
    seven.click()
    expect(seven).not_to_have_class(has_class("pw-selected"))
    seven.click()
    board.locator('[data-pile="stock"]').click()
    expect(seven).to_have_count(0)
    expect(board.locator('[aria-live="polite"]')).to_have_text("Removed 6\u2666 + 7\u2665.")
    expect(board.locator('[data-pile="stock"] [data-card="Ah"]')).to_be_visible()
    expect(board.locator(".pw-status")).to_contain_text("Cleared 3 of 28")
    assert kernel(page, "w.moves") == "['Kc', 'Kh', '6d+7h']"

    # A King on the face-up stock top goes alone; a selected card pairs with the stock top,
    # and the waste top with the stock top.
    stock = board.locator('[data-pile="stock"]')
    stock.click()  # draw: the Ah goes to the waste, the Kd turns up
    expect(stock.locator('[data-card="Kd"]')).to_be_visible()
    stock.click()
    expect(stock.locator('[data-card="5c"]')).to_be_visible()
    stock.click()
    expect(stock.locator('[data-card="4d"]')).to_be_visible()
    stock.click()
    expect(stock.locator('[data-card="Qd"]')).to_be_visible()
    board.locator('[data-card="As"]').click()
    stock.click()
    expect(board.locator('[data-card="As"]')).to_have_count(0)
    board.locator('[data-pile="waste"] [data-card="4d"]').click()
    stock.click()
    expect(stock.locator('[data-card="3d"]')).to_be_visible()
    expect(board.locator('[data-pile="waste"] [data-card="5c"]')).to_be_visible()
    moves = "['Kc', 'Kh', '6d+7h', 'draw', 'Kd', 'draw', 'draw', 'As+Qd', '4d+9s']"
    assert kernel(page, "w.moves") == moves


def test_a_stock_tap_means_what_the_rules_say(lab_notebook):
    # The Kd turns up on the stock after the first draw. Whether a tap on it plays the King or
    # draws it is a rule (king_from_stock), and Python's to decide.
    for rules, expected in (
        ("open-stock", "Kd Ah"),
        ("open-stock,king_from_stock=false", "draw Kd"),
    ):
        name = f"widget_stock_king_{len(rules)}.ipynb"
        page = open_board(lab_notebook, name, rules=rules)
        board = page.locator(".pw-root")
        stock = board.locator('[data-pile="stock"]')
        run_code(page, "for move in ('Kc', 'Kh', '6d+7h', 'draw'): w.play(move)")
        expect(stock.locator('[data-card="Kd"]')).to_be_visible()
        stock.click()
        expect(stock.locator('[data-card="5c"]')).to_be_visible()
        assert kernel(page, "w.moves[-1], w.game.waste[-1]") == expected


def test_a_refused_pair_says_why_and_changes_nothing(lab_notebook):
    page = open_board(lab_notebook, "widget_refused.ipynb")
    board = page.locator(".pw-root")
    message = board.locator(".pw-message")

    board.locator('[data-card="Jh"]').click()
    board.locator('[data-card="3c"]').click()
    expect(message).to_have_text("3\u2663 and J\u2665 make 14, not 13.")
    expect(board.locator(".pw-pyramid [data-card]")).to_have_count(28)
    expect(board.locator(".pw-selected")).to_have_count(0)

    board.locator('[data-card="Th"]').click()  # the apex, covered by the whole pyramid
    expect(message).to_have_text("That card is still covered.")
    expect(board.locator('[aria-live="polite"]')).to_have_text("That card is still covered.")
    assert kernel(page, "w.moves, w.game.move_count") == "[] 0"


def test_draw_recycle_and_undo_on_a_face_down_stock(lab_notebook):
    page = open_board(lab_notebook, "widget_stock.ipynb", rules="classic")
    board = page.locator(".pw-root")
    stock = board.locator('[data-pile="stock"]')
    status = board.locator(".pw-status")
    expect(stock.locator("[data-card]")).to_have_count(0)  # face down: no card named

    stock.click()
    expect(board.locator('[data-pile="waste"] [data-card="6d"]')).to_be_visible()
    expect(status).to_contain_text("Stock 23")
    run_code(page, "for _ in range(23): w.draw()")
    expect(status).to_contain_text("Stock 0")
    expect(board.locator('[data-pile="waste"] [data-card="Ts"]')).to_be_visible()

    stock.click()  # empty stock: recycle
    expect(status).to_contain_text("Pass 2 of 3")
    expect(status).to_contain_text("Stock 24")
    expect(board.locator('[data-pile="waste"] [data-card]')).to_have_count(0)
    assert kernel(page, "w.moves[-1], w.game.pass_number") == "recycle 2"

    board.locator('button[data-action="undo"]').click()
    expect(status).to_contain_text("Pass 1 of 3")
    expect(board.locator('[data-pile="waste"] [data-card="Ts"]')).to_be_visible()
    board.locator('button[data-action="redo"]').click()
    expect(status).to_contain_text("Pass 2 of 3")
    assert kernel(page, "len(w.moves), w.game.can_redo") == "25 False"

    # Six clicks on the stock in one go, none waiting for the board: six draws.
    stock.evaluate("(node) => { for (let i = 0; i < 6; i++) node.click(); }")
    expect(status).to_contain_text("Stock 18")
    assert kernel(page, "w.moves[-6:], len(w.moves)") == f"{['draw'] * 6} 31"


def test_cells_and_clicks_drive_every_view_alike(lab_notebook):
    page = open_board(lab_notebook, "widget_views.ipynb", views=2)
    first, second = page.locator(".pw-root").nth(0), page.locator(".pw-root").nth(1)

    run_code(page, "w.play('Kc')")
    for view in (first, second):
        expect(view.locator('[data-card="Kc"]')).to_have_count(0)
        expect(view.locator(".pw-status")).to_contain_text("Moves 1")

    first.locator('[data-card="7h"]').click()  # a selection belongs to its view
    expect(second.locator(".pw-selected")).to_have_count(0)
    first.locator('[data-pile="stock"]').click()
    for view in (first, second):
        expect(view.locator('[data-card="7h"]')).to_have_count(0)
        expect(view.locator('[data-pile="stock"] [data-card="Ah"]')).to_be_visible()

    second.locator('button[data-action="undo"]').click()
    expect(first.locator('[data-card="7h"]')).to_be_visible()
    run_code(page, "w.new_deal(7)")
    for view in (first, second):
        expect(view.locator(".pw-pyramid [data-card]")).to_have_count(28)
    listing = (
        "(root) => [...root.querySelectorAll('[data-card]')]"
        ".map((node) => `${node.dataset.card}:${node.dataset.status}`).join(' ')"
    )
    assert first.evaluate(listing) == second.evaluate(listing)
    assert kernel(page, "w.game.deal_number") == "7"
