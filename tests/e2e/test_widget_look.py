"""How the board looks and holds still, measured in a real JupyterLab and Notebook 7 in a real
Chromium, in the light and the dark theme: the contrast of every rank, suit and word with what
lies under it, cards in play against covered ones, the boxes of the board and its buttons across
a long hint, a pause and the Game menu, at 700 px and in full screen, and marks that compose.

The figures (the lowest contrast of each kind of text, per theme) are printed: run with -s.
With PYRAMID_SCREENSHOTS=1 these tests also refresh the README's pictures (harness.screenshot).
"""

from __future__ import annotations

import json
import re

import pytest
from harness import (
    focused,
    has_class,
    kernel,
    menu,
    open_board,
    run_all,
    run_code,
    screenshot,
    scroll_to_edge,
    wait_for_focus,
    wait_for_widget,
)
from helpers import LAYOUT, SOLUTION
from measure import (
    THEMES,
    boxes,
    card_look,
    contrasts,
    failures,
    hidden_parts,
    lowest_by_kind,
    marks,
    measure_in_both_themes,
    moved,
    overlaps,
    print_figures,
    set_theme,
)
from playwright.sync_api import Locator, Page, expect

# A stand-in for the solver's hint that answers at once with the move in HINT (a kernel
# variable the test sets) and a sentence as long as a real two-line hint: the marks and the
# layout are what these tests look at, not the solver's choice.
STAND_IN_HINT = """
from types import SimpleNamespace
import pyramid_widget.solver as solver

HINT = {"move": "7h+6d"}
LONG = ("Pair 7\u2665 with 6\u2666 from the stock: it frees 3\u2665 and the A\u2660 beside it. "
        "Very likely to win: 24 of the 24 ways the unseen cards could lie, so play it now "
        "before drawing again.")

def stand_in_hint(game, *, fair=True, time_limit=0.3):
    wanted = set(HINT["move"].split("+"))
    move = next(m for m in game.legal_moves() if set(str(m).split("+")) == wanted)
    return SimpleNamespace(move=str(move), kind=move.kind, verdict="unknown", reason=LONG,
                           chance=None)

solver.hint = stand_in_hint
"""

# A card in notation ("Ts", "5h", "2s+Jc"); the aces are left out, "As" and "Ah" being words.
NOTATION = re.compile(r"(?<![\w#])[2-9TJQK][cdhs](?!\w)|\b[A2-9TJQK][cdhs]\+[A2-9TJQK][cdhs]\b")


def says_no_notation(board: Locator) -> None:
    """Everything the board shows and speaks names cards in symbols, never in notation."""
    spoken = board.locator('[aria-live="polite"]').text_content() or ""
    for text in (board.inner_text(), spoken):
        assert not NOTATION.search(text), NOTATION.search(text)


def check_cards_stand_out(board: Locator) -> dict:
    """Cards in play stand out more than covered ones, on faces lighter by a step a player
    sees; covered cards show their edges; the board's background is the notebook's own (no
    rectangle)."""
    look = card_look(board)
    assert look["board"] == look["under"], look
    assert look["own_background"] in ("rgba(0, 0, 0, 0)", "transparent"), look
    # Faces differ in lightness, not by a shade: at least as much as the light theme's white
    # against 232 grey (1.23:1).
    assert look["faces"] >= 1.2, look
    for colour in ("", "_red"):
        in_play, covered = look[f"in_play{colour}"], look[f"covered{colour}"]
        assert in_play["ink_on_face"] > covered["ink_on_face"], look
        assert in_play["edge_on_board"] > covered["edge_on_board"], look
        # A covered card's edge on the covered card it lies on (WCAG's 3:1 for a shape).
        assert covered["edge_on_face"] >= 3, look
    return look


def test_every_rank_and_word_reads_in_both_themes(lab_notebook, capsys):
    """Contrast of every text on the board, the panels and the notices, in both themes."""
    page = open_board(
        lab_notebook, "widget_look_contrast.ipynb", setup="from pyramid_widget import Game"
    )
    board = page.locator(".pw-root")
    figures: dict = {}

    # A refusal in the message line, the Records and Rules panels open, the Game menu open.
    board.locator('[data-card="Kc"]').click()
    board.locator('[data-card="Th"]').click()  # covered: refused
    expect(board.locator(".pw-message")).to_have_class(has_class("pw-error"))
    board.locator('button[data-action="records"]').click()
    menu(board).locator('button[data-action="rules-panel"]').click()
    expect(board.locator(".pw-rules")).to_be_visible()
    says_no_notation(board)
    measure_in_both_themes(page, [board, menu(board)], "refusal, records, rules, menu", figures)
    board.locator('summary[data-action="menu"]').click()  # close the menu
    screenshot(board.locator(".pw-rules"), "rules.png")

    board.locator('.pw-records button[data-action="records"]').click()  # Close
    board.locator('.pw-rules button[data-action="rules-panel"]').click()  # Close
    expect(board.locator(".pw-records")).to_be_hidden()
    expect(board.locator(".pw-rules")).to_be_hidden()
    # A card selected, its partner on the stock: cards in play against covered ones.
    run_code(page, "w.play('Kh')")
    seven = board.locator('[data-card="7h"]')
    seven.click()
    expect(board.locator('[data-pile="stock"]')).to_have_class(has_class("pw-partner"))
    looks = {}
    try:
        for theme, picture in zip(THEMES, ("board.png", "board-dark.png"), strict=True):
            set_theme(page, theme)
            looks[theme] = check_cards_stand_out(board)
            screenshot(board, picture)
    finally:
        set_theme(page, "JupyterLab Light")
    # A real hint and a card selected, two cards on the waste.
    seven.click()  # deselect
    run_code(page, "for move in ('draw', 'draw', 'Kd'): w.play(move)")
    seven.click()
    board.locator('button[data-action="hint"]').click()
    expect(board.locator(".pw-hint-line")).not_to_have_text("")
    expect(board.locator(".pw-hint-line")).not_to_have_text("Checking for a solution\u2026")
    says_no_notation(board)
    measure_in_both_themes(page, [board], "hint, selection", figures)
    screenshot(board, "hint.png")

    # Out of moves on a deal lost from the start: the notice over the table, then the review.
    run_code(
        page,
        f"w.new_deal(code=Game.from_layout({LAYOUT!r}, 'classic,passes=1').deal_code)\n"
        "while w.game.outcome is None: w.play(w.game.legal_moves()[0])",
    )
    panel = board.locator(".pw-panel")
    expect(panel).to_contain_text("This deal could not be won from the start.")
    says_no_notation(board)
    measure_in_both_themes(page, [board], "lost-deal notice", figures)
    panel.locator('button[data-action="review"]').click()
    expect(board.locator(".pw-review tbody tr").first).to_be_visible(timeout=60_000)
    expect(board.locator(".pw-review .pw-verdict.pw-unwinnable").first).to_be_visible()
    says_no_notation(board)
    measure_in_both_themes(page, [board], "review", figures)
    screenshot(board.locator(".pw-review"), "review.png")

    with capsys.disabled():
        print_figures("JupyterLab", figures)
        for theme, look in looks.items():
            print(f"  cards, {theme}: {json.dumps(look)}")
    for theme in THEMES:
        kinds = set(figures[theme])
        for kind in ("rank, red, covered", "rank, black, in play", "rank, red, stock top"):
            assert kind in kinds, f"{kind} was never measured in {theme}: {sorted(kinds)}"
        assert {"message", "hint", "status", "button", "notice", "review"} <= kinds
        assert {"placeholder", "disabled control"} <= kinds


def hint_with(page: Page, board: Locator, move: str | None) -> None:
    """Ask for the stand-in hint, which will name `move` (None: as set before), and wait for
    it. Setting the move runs a cell, which may scroll or widen the notebook."""
    if move is not None:
        run_code(page, f"HINT['move'] = {move!r}")
    board.locator('button[data-action="hint"]').click()
    expect(board.locator(".pw-hint-line")).to_contain_text("Very likely to win")


def test_the_layout_holds_still(lab_notebook):
    """The board and every button keep their boxes across a long hint and a refusal, a pause
    and a resume, the Game menu opened and closed; at 700 px and in full screen nothing
    overlaps."""
    page = open_board(lab_notebook, "widget_look_layout.ipynb", setup=STAND_IN_HINT)
    board = page.locator(".pw-root")
    output = page.locator(".jp-OutputArea-output").filter(has=board)
    board.locator('[data-card="Kc"]').click()
    run_code(page, "HINT['move'] = '7h+6d'")
    start = boxes(board)
    cell_height = output.bounding_box()["height"]

    hint_with(page, board, None)
    lines = board.locator(".pw-hint-line").evaluate(
        "(n) => Math.round(n.getBoundingClientRect().height"
        " / parseFloat(getComputedStyle(n).lineHeight))"
    )
    assert lines >= 2, "the stand-in hint should take two lines at this width"
    board.locator('[data-card="Th"]').click()  # covered: a refusal under the hint
    expect(board.locator(".pw-message")).to_have_text("That card is still covered.")
    assert moved(start, boxes(board)) == []

    board.locator('button[data-action="pause"]').click()
    expect(board.locator(".pw-panel")).to_contain_text("Paused")
    expect(board.locator('.pw-controls button[data-action="pause"]')).to_have_accessible_name(
        "Resume"
    )
    assert moved(start, boxes(board)) == []
    board.locator('.pw-controls button[data-action="pause"]').click()
    expect(board.locator(".pw-panel")).to_be_hidden()
    assert moved(start, boxes(board)) == []

    body = menu(board)
    expect(body).to_be_visible()
    assert moved(start, boxes(board)) == []
    assert output.bounding_box()["height"] == cell_height  # the notebook did not reflow
    menu_box, root_box = body.bounding_box(), board.bounding_box()
    assert menu_box["y"] >= root_box["y"] - 0.5
    assert menu_box["y"] + menu_box["height"] <= root_box["y"] + start["controls"]["y"] + 0.5
    assert menu_box["x"] >= root_box["x"] - 0.5
    assert menu_box["x"] + menu_box["width"] <= root_box["x"] + root_box["width"] + 0.5
    board.locator('summary[data-action="menu"]').click()
    expect(body).to_be_hidden()
    assert moved(start, boxes(board)) == []
    menu(board)
    board.locator('[data-pile="waste"]').click()  # a click beside the menu closes it
    expect(body).to_be_hidden()

    # 700 px wide: the board, the words and the buttons fit the output, nothing overlaps.
    page.set_viewport_size({"width": 700, "height": 900})
    page.wait_for_function("() => innerWidth === 700")
    check_fits(board)
    assert output.evaluate("(n) => n.scrollWidth <= n.clientWidth")
    # Full screen: the same on the whole screen, the cards grown.
    page.set_viewport_size({"width": 1280, "height": 800})
    board.locator(".pw-status").click()
    page.keyboard.press("f")
    page.wait_for_function("() => document.fullscreenElement?.classList.contains('pw-root')")
    try:
        full = check_fits(board)
        assert full["root"]["height"] <= page.evaluate("innerHeight") + 0.5
        card = board.locator('[data-card="Jh"]').bounding_box()
        assert card["width"] > 76  # grown past the notebook's largest card
    finally:
        page.keyboard.press("f")
        page.wait_for_function("() => document.fullscreenElement === null")


#: The board's parts shown, each with its height: what a failure says moved.
PARTS = """(root) => [...root.children].filter((part) => part.getBoundingClientRect().height > 0)
    .map((part) => `${part.className} ${Math.round(part.getBoundingClientRect().height)} px`)"""


def test_panels_open_in_view_and_the_status_line_keeps_its_place(lab_notebook, page):
    """At 1400x900: the status line's first item keeps its left edge (and the board its boxes)
    across a random deal played to its end, when the deal's number appears as the stock runs
    out; the Records, the Rules, the Game menu, the end-of-game notice and the review each
    show whole when opened, even with the board scrolled to an edge of the notebook's view;
    the review's current row shows whole in its scroll box; a closed panel gives the focus back
    to what opens it."""
    page.set_viewport_size({"width": 1400, "height": 900})
    # A records file of its own: no game an earlier test left unfinished is offered to
    # continue, an offer that would hide at the first move and move the board.
    fresh = (
        "import os, tempfile\n"
        "os.environ['PYRAMID_WIDGET_DB'] = os.path.join(tempfile.mkdtemp(), 'records.sqlite3')"
    )
    page = open_board(lab_notebook, "widget_look_panels.ipynb", rules="classic", setup=fresh)
    board = page.locator(".pw-root")
    status = board.locator(".pw-status")
    expect(board.locator(".pw-offer")).to_be_hidden()
    first = (
        "(root) => root.querySelector('.pw-stat').getBoundingClientRect().x"
        " - root.getBoundingClientRect().x"
    )

    run_code(page, "w.new_deal()")  # random: its number shows once every card is seen
    expect(status).to_contain_text("Moves 0")
    expect(status).not_to_contain_text("Deal #")
    start, left = boxes(board), board.evaluate(first)
    for code, shows in (
        ("for _ in range(5): w.draw()", "Stock 19"),
        ("for _ in range(19): w.draw()", "Deal #"),
        ("w.recycle()", "Pass 2"),
    ):
        run_code(page, code)
        expect(status).to_contain_text(shows)
        assert board.evaluate(first) == left, f"after {code}: {status.inner_text()}"
        assert moved(start, boxes(board)) == [], board.evaluate(PARTS)
    panel = board.locator(".pw-panel")
    run_code(page, "while w.game.outcome is None: w.play(w.game.legal_moves()[0])")
    expect(panel).to_be_visible()  # out of moves, or (now and then) won
    assert board.evaluate(first) == left, status.inner_text()
    assert moved(start, boxes(board)) == [], status.inner_text()
    # Out of moves offers Undo first; a win, or a deal lost from its start, a new deal.
    first_button = (
        "button undo" if kernel(page, "w.state['notice']['kind']") == "stuck" else "button new"
    )
    panel.locator('button[data-action="look"]').click()

    # Records, opening below the board's buttons, with these at the bottom edge of the view;
    # closed, the focus goes back to the Records button.
    controls = board.locator(".pw-controls")
    scroll_to_edge(controls, "bottom")
    board.locator('.pw-controls button[data-action="records"]').click()
    records = board.locator(".pw-records")
    expect(records).to_contain_text("Records: classic")
    assert hidden_parts(records) == []
    records.locator('button[data-action="records"]').click()
    expect(records).to_be_hidden()
    wait_for_focus(page, "button records")

    # The Game menu, opening above its button, with that button at the top edge of the view;
    # then the Rules panel from it.
    scroll_to_edge(controls, "top")
    body = menu(board)
    expect(body).to_be_visible()
    assert hidden_parts(body) == []
    body.locator('button[data-action="rules-panel"]').click()
    rules = board.locator(".pw-rules")
    expect(rules).to_contain_text("How to play")
    assert hidden_parts(rules) == []
    rules.locator('button[data-action="rules-panel"]').click()
    expect(rules).to_be_hidden()
    wait_for_focus(page, "button menu")

    # The end-of-game notice, with the table above the view: it comes into view with its first
    # button focused.
    board.locator('.pw-controls button[data-action="undo"]').click()
    expect(status).not_to_contain_text("Moves 0")
    scroll_to_edge(controls, "top")
    board.locator('.pw-controls button[data-action="redo"]').click()
    expect(panel).to_be_visible()
    assert hidden_parts(panel.locator(".pw-panel-box")) == []
    wait_for_focus(page, first_button)

    # The review, opening below the board's buttons, with these at the bottom edge of the view;
    # its current row whole in its scroll box when it was half out of it.
    scroll_to_edge(controls, "bottom")
    panel.locator('button[data-action="review"]').click()
    review = board.locator(".pw-review")
    rows = review.locator("tbody tr")
    expect(rows.first).to_be_visible(timeout=60_000)
    assert hidden_parts(review) == []
    scroller = review.locator(".pw-review-scroll")
    below = scroller.evaluate(
        """(box) => {
            const bottom = box.getBoundingClientRect().top + box.clientTop + box.clientHeight;
            const rows = [...box.querySelectorAll('tbody tr')];
            const row = rows.find((r) => r.getBoundingClientRect().bottom > bottom);
            box.scrollTop += row.getBoundingClientRect().top + row.offsetHeight / 2 - bottom;
            return row.dataset.number;
        }"""
    )
    row = review.locator(f'tr[data-number="{below}"]')
    row.locator('button[data-action="step"]').dispatch_event("click")
    expect(row).to_have_class(has_class("pw-current"))
    whole = scroller.evaluate(
        """(box) => {
            const row = box.querySelector('tr.pw-current').getBoundingClientRect();
            const top = box.getBoundingClientRect().top + box.clientTop;
            const head = box.querySelector('thead').getBoundingClientRect().height;
            return row.top >= top + head - 0.5 && row.bottom <= top + box.clientHeight + 0.5;
        }"""
    )
    assert whole, f"row {below} is not whole in the review's scroll box"
    assert not focused(page).startswith("outside")


def check_fits(board: Locator) -> dict:
    """Nothing of the board overlaps: table, status, hint box, button row; the buttons among
    themselves; each card, pile and pile label within the table and off the pyramid's cards;
    everything inside the widget's box."""
    found = boxes(board)
    parts = {name: found[name] for name in ("table", "status", "talk", "controls")}
    assert overlaps(parts) == []
    buttons = {name: box for name, box in found.items() if name.startswith("button")}
    assert overlaps(buttons) == []
    root = found["root"]
    for name, box in found.items():
        assert box["x"] >= root["x"] - 0.5, name
        assert box["x"] + box["width"] <= root["x"] + root["width"] + 0.5, name
        assert box["y"] + box["height"] <= root["y"] + root["height"] + 0.5, name
    table = found["table"]
    pieces = board.evaluate(
        """(root) => {
            const origin = root.getBoundingClientRect();
            const box = (n) => { const r = n.getBoundingClientRect();
                return { x: r.x - origin.x, y: r.y - origin.y, width: r.width,
                         height: r.height }; };
            const out = {};
            root.querySelectorAll('.pw-pyramid .pw-card[data-card]').forEach((n) => {
                out[`card ${n.dataset.card}`] = box(n); });
            root.querySelectorAll('.pw-pile, .pw-pile-label').forEach((n, i) => {
                out[`pile ${i} ${n.textContent}`] = box(n); });
            return out;
        }"""
    )
    for name, box in pieces.items():
        assert box["x"] >= table["x"] - 0.5 and box["y"] >= table["y"] - 0.5, name
        assert box["x"] + box["width"] <= table["x"] + table["width"] + 0.5, name
    cards = {name: box for name, box in pieces.items() if name.startswith("card")}
    for name, box in pieces.items():
        if name.startswith("pile"):
            assert [pair for pair in overlaps({name: box, **cards}) if name in pair] == [], name
    return found


def test_marks_compose_and_messages_do_not_linger(lab_notebook):
    """Selected + hinted, partner + hinted and a hint on the stock each show every cue at
    once; the stock and the waste are labelled and the face-up stock top is told from the
    waste top; a refusal goes with the next action and never sits under a new hint."""
    page = open_board(lab_notebook, "widget_look_marks.ipynb", setup=STAND_IN_HINT)
    board = page.locator(".pw-root")
    stock = board.locator('[data-pile="stock"]')
    message = board.locator(".pw-message")
    run_code(page, "for move in ('Kc', 'Kh', 'draw'): w.play(move)")  # the 6d to the waste
    expect(stock.locator('[data-card="Ah"]')).to_be_visible()

    # The piles: named, and the face-up stock top lies on a card back (the rest of the stock),
    # with the count beside it; the waste top lies on nothing of the kind.
    expect(board.locator('[data-pile="stock"] .pw-pile-label')).to_have_text("Stock")
    expect(board.locator('[data-pile="waste"] .pw-pile-label')).to_have_text("Waste")
    expect(stock.locator(".pw-card.pw-back")).to_be_visible()
    expect(stock.locator(".pw-count")).to_have_text("23")
    expect(board.locator('[data-pile="waste"] .pw-back')).to_have_count(0)
    top = stock.locator("[data-card]").bounding_box()
    back = stock.locator(".pw-back").bounding_box()
    assert back["x"] > top["x"] and back["y"] > top["y"]  # the back shows beside the top

    # A refusal goes with the next action; a new hint clears an old message.
    board.locator('[data-card="Th"]').click()
    expect(message).to_have_text("That card is still covered.")
    board.locator('[data-card="7h"]').click()  # selects: the refusal goes
    expect(message).to_have_text("")
    board.locator('[data-card="7h"]').click()  # deselect
    board.locator('[data-card="Th"]').click()
    expect(message).to_have_text("That card is still covered.")
    hint_with(page, board, "7h+6d")
    expect(message).to_have_text("")

    # Selected + hinted on one card, partner + hinted on another: every cue at once.
    seven = board.locator('[data-card="7h"]')
    six = board.locator('[data-pile="waste"] [data-card="6d"]')
    seven.click()
    expect(seven).to_have_class(has_class("pw-selected"))
    colours = board.evaluate(
        """(root) => Object.fromEntries(['--pw-selected', '--pw-partner', '--pw-hint']
            .map((name) => [name, getComputedStyle(root).getPropertyValue(name).trim()]))"""
    )
    assert len(set(colours.values())) == 3, colours
    selected = marks(seven)
    assert selected["transform"] != "none", selected  # lifted
    assert "pw-hinted" in selected["classes"], selected
    assert selected["ring"] and selected["ring"].startswith("dashed"), selected
    assert selected["badge"] == '"\u2605"', selected
    assert selected["shadow"] != "none", selected
    partner = marks(six)
    assert partner["border"].startswith("dashed"), partner
    assert partner["ring"] and partner["badge"] == '"\u2605"', partner
    assert partner["transform"] == "none", partner  # only the selected card lifts

    # A hint to draw marks the stock pile itself, and no card.
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")
    expect(board.locator(".pw-hinted")).to_have_count(0)
    hint_with(page, board, "draw")
    expect(stock).to_have_class(has_class("pw-hinted"))
    pile = marks(stock)
    assert pile["ring"] and pile["ring"].startswith("dashed") and pile["badge"], pile
    expect(board.locator(".pw-card.pw-hinted")).to_have_count(0)


def press(button: Locator) -> None:
    """Press a greyed button from the keyboard (Playwright's click waits for an enabled one;
    a greyed button here stays focusable on purpose, to say why it cannot act)."""
    button.focus()
    button.press("Enter")


def test_controls_that_cannot_act_are_greyed_and_say_why(lab_notebook):
    """After a win: hint and pause are greyed with Python's reason, and pressing one says why
    and asks Python for nothing; mid-game the Game menu's review item is greyed with its
    sentence beside it."""
    page = open_board(lab_notebook, "widget_look_controls.ipynb")
    board = page.locator(".pw-root")
    body = menu(board)
    review_item = body.locator('button[data-action="review"]')
    expect(review_item).to_have_attribute("aria-disabled", "true")
    why = kernel(page, "w.state['controls']['review']['why']")
    expect(body.locator('[data-why="review"]')).to_have_text(why)
    press(review_item)
    expect(board.locator(".pw-message")).to_have_text(why)
    expect(board.locator(".pw-review")).to_be_hidden()
    assert kernel(page, "w.state['review']") == "None"
    board.locator('summary[data-action="menu"]').click()

    run_code(page, f"for move in {SOLUTION!r}: w.play(move)")
    expect(board.locator(".pw-panel")).to_contain_text("Pyramid cleared!")
    board.locator('.pw-panel button[data-action="look"]').click()
    for action in ("hint", "pause"):
        button = board.locator(f'.pw-controls > button[data-action="{action}"]')
        expect(button).to_have_attribute("aria-disabled", "true")
        why = kernel(page, f"w.state['controls'][{action!r}]['why']")
        assert why and why != "None"
        expect(button).to_have_attribute("title", why)
        press(button)
        expect(board.locator(".pw-message")).to_have_text(why)
    assert kernel(page, "w.state['hint'], w.paused") == "None False"
    for action in ("new", "records"):
        expect(
            board.locator(f'.pw-controls > button[data-action="{action}"]')
        ).not_to_have_attribute("aria-disabled", "true")


@pytest.mark.parametrize("theme", THEMES)
def test_notebook7_reads_and_holds_still(nb7_notebook, theme, capsys):
    """Notebook 7: every text readable, cards in play standing out, and the boxes still across
    a hint, a pause and the menu, in each theme."""
    cells = [
        f"{STAND_IN_HINT}\nfrom pyramid_widget import PyramidWidget\n"
        f"w = PyramidWidget('open-stock', layout={LAYOUT!r})",
        "w",
    ]
    page: Page = nb7_notebook(f"widget_look_nb7_{theme[-4:]}.ipynb", cells)
    run_all(page)
    wait_for_widget(page, "[data-card]")
    board = page.locator(".pw-root")
    set_theme(page, theme)
    try:
        board.locator('[data-card="Kc"]').click()
        run_code(page, "HINT['move'] = '7h+6d'")
        start = boxes(board)
        hint_with(page, board, None)
        board.locator('[data-card="7h"]').click()
        rows = contrasts(board)
        check_cards_stand_out(board)
        board.locator('[data-card="Th"]').click()
        expect(board.locator(".pw-message")).to_have_text("That card is still covered.")
        rows += contrasts(board)
        board.locator('button[data-action="pause"]').click()
        expect(board.locator(".pw-panel")).to_contain_text("Paused")
        rows += contrasts(board)
        assert not failures(rows), failures(rows)
        assert moved(start, boxes(board)) == []
        board.locator('.pw-controls button[data-action="pause"]').click()
        expect(menu(board)).to_be_visible()
        assert moved(start, boxes(board)) == []
        with capsys.disabled():
            print_figures("Notebook 7", {theme: lowest_by_kind(rows)})
    finally:
        set_theme(page, "JupyterLab Light")
