"""Puzzle mode in a real JupyterLab and a real Chromium: a puzzle opened from the Game menu's
filters and from a cell, a wrong removal refused and explained with the board unchanged, the
right one accepted, the play-on to the win, the score, Next from the board and from Python,
the Hint greyed with its reason, Close giving the earlier game back, and the puzzle panel
readable in both themes without moving the board.

The figures (the lowest contrast of each kind of text, per theme) are printed: run with -s.
"""

from __future__ import annotations

from harness import kernel, menu, run_all, run_code, screenshot, wait_for_widget
from measure import boxes, measure_in_both_themes, moved, print_figures
from playwright.sync_api import Locator, expect

from pyramid_widget import puzzles

#: A shipped classic puzzle whose most tempting wrong move is a removal (the test clicks it):
#: deal 482 after 60 moves, where only 6♠ + 7♦ keeps the win and 2♠ + J♣ traps the J♠.
PUZZLE = "7e40f9ac2cd5"

#: Every card on the table in pyramid order, with its status, then the piles' cards.
LISTING = """(root) => [
    ...[...root.querySelectorAll('.pw-pyramid .pw-card[data-card]')]
        .sort((a, b) => a.dataset.index - b.dataset.index)
        .map((node) => `${node.dataset.card}:${node.dataset.status}`),
    ...[...root.querySelectorAll('.pw-pile [data-card]')].map((node) => node.dataset.card),
].join(' ')"""

#: The same listing from the state the kernel last sent.
KERNEL_LISTING = (
    "' '.join([f\"{s['card']}:{s['status']}\" for s in w.state['pyramid'] "
    "if s['status'] != 'removed'] + [c for c in (w.state['stock']['top'], "
    "w.state['waste']['top']) if c])"
)


def click_pair(board: Locator, move: str) -> None:
    """Click the two cards of a pair, one after the other, as a player does."""
    for card in move.split("+"):
        board.locator(f'[data-card="{card}"]').click()


def test_a_puzzle_refuses_a_wrong_move_explained_and_is_played_to_the_win(lab_notebook, capsys):
    full = puzzles.load("classic")
    puzzle = full.get(PUZZLE)
    wrong, right = puzzle.alternatives[0], puzzle.answers[0]
    assert "+" in wrong.move and "+" in right.move, "the test clicks two pairs"
    filtered = puzzles.load("classic", theme="trapped", difficulty="medium")

    page = lab_notebook(
        "puzzles_in_browser.ipynb",
        [
            "from pyramid_widget import PyramidWidget, solve\n"
            "w = PyramidWidget(rules='classic', deal=42, store=None)\n"
            "w.play(w.game.legal_moves()[0])",
            "w",
        ],
    )
    run_all(page)
    wait_for_widget(page, "[data-card]")
    board = page.locator(".pw-root")
    panel = board.locator(".pw-puzzle")
    said = panel.locator(".pw-puzzle-said")
    message = board.locator(".pw-message")
    hint = board.locator('.pw-controls button[data-action="hint"]')
    expect(board.locator(".pw-status")).to_contain_text("Moves 1")
    expect(panel).to_be_hidden()
    earlier = board.evaluate(LISTING)
    earlier_moves = kernel(page, "w.moves")

    # The Game menu's filters come from the catalog; the first puzzle of that filter opens.
    body = menu(board)
    theme = body.locator('select[data-field="puzzle-theme"]')
    difficulty = body.locator('select[data-field="puzzle-difficulty"]')
    expect(theme.locator("option")).to_have_count(len(puzzles.THEMES) + 1)  # and "any"
    expect(difficulty.locator("option")).to_have_count(len(puzzles.DIFFICULTIES) + 1)
    theme.select_option("trapped")
    difficulty.select_option("medium")
    body.locator('button[data-action="puzzle-open"]').click()
    expect(body).to_be_hidden()
    expect(panel).to_have_attribute("data-puzzle", filtered[0].id)
    expect(panel.locator(".pw-puzzle-title")).to_have_text(f"Puzzle 1 of {len(filtered)}")
    expect(panel).to_contain_text(puzzles.THEMES["trapped"].title)
    expect(panel).to_contain_text("Difficulty: medium")
    # No hint in a puzzle: the button is greyed, its tooltip says why, a press says it too.
    why = kernel(page, "w.state['controls']['hint']['why']")
    expect(hint).to_have_attribute("aria-disabled", "true")
    expect(hint).to_have_attribute("title", why)
    hint.click(force=True)  # greyed, not disabled: Playwright would wait for it to be enabled
    expect(message).to_have_text(why)

    # A puzzle by id from a cell: the set is the board's rules' shipped set.
    run_code(page, f"w.puzzle({PUZZLE!r})")
    expect(panel).to_have_attribute("data-puzzle", PUZZLE)
    number = full.index(puzzle) + 1
    expect(panel.locator(".pw-puzzle-title")).to_have_text(f"Puzzle {number} of {len(full)}")
    expect(panel.locator(".pw-puzzle-prompt")).to_have_text(puzzle.task)
    expect(said).to_have_text("")
    assert board.evaluate(LISTING) == kernel(page, KERNEL_LISTING)
    posed = board.evaluate(LISTING)
    still = boxes(board)

    # The tempting removal: refused, explained on the message line and in the panel.
    click_pair(board, wrong.move)
    refusal = f"Not {wrong.text}: {wrong.why}"
    expect(message).to_have_text(refusal)
    expect(said).to_have_text(refusal)
    assert board.evaluate(LISTING) == posed  # the board did not change
    assert kernel(page, "w.game.history, w.state['puzzle']['phase']") == "[] find"
    assert moved(still, boxes(board)) == []
    figures: dict = {}
    measure_in_both_themes(page, [board], "puzzle panel with a refusal", figures)
    screenshot(board, "puzzle.png")

    # The saving removal: accepted, the panel says so, the play-on begins.
    click_pair(board, right.move)
    expect(panel).to_have_attribute("data-phase", "play")
    expect(said).to_contain_text("Right")
    expect(said).to_have_text(kernel(page, "w.state['puzzle']['said']"))
    expect(panel.locator(".pw-puzzle-prompt")).to_have_text(
        kernel(page, "w.state['puzzle']['prompt']")
    )
    for card in right.move.split("+"):
        expect(board.locator(f'[data-card="{card}"]')).to_have_count(0)
    assert moved(still, boxes(board)) == []

    # Play on to the win along the solver's line: solved, and the score counts it (the
    # puzzle opened from the menu was never moved in, so it was not tried).
    run_code(page, "for move in solve(w.game).moves: w.play(move)")
    expect(panel).to_have_attribute("data-phase", "solved")
    expect(said).to_contain_text("Solved")
    expect(panel.locator(".pw-puzzle-score")).to_have_text("Solved 1 of 1 tried, 0 first tries")
    expect(board.locator(".pw-panel")).to_contain_text("Puzzle solved!")
    assert kernel(page, "w.game.is_won") == "True"
    solved = boxes(board)

    # Next, from the board: the next puzzle of the set, to be found afresh.
    panel.locator('button[data-action="puzzle-next"]').click()
    expect(panel).to_have_attribute("data-puzzle", full[number].id)
    expect(panel.locator(".pw-puzzle-title")).to_have_text(f"Puzzle {number + 1} of {len(full)}")
    expect(panel).to_have_attribute("data-phase", "find")
    expect(said).to_have_text("")
    expect(board.locator(".pw-panel")).to_be_hidden()
    expect(panel.locator(".pw-puzzle-score")).to_have_text("Solved 1 of 1 tried, 0 first tries")
    assert moved(solved, boxes(board)) == []

    # Next, from Python: the board shows the puzzle the kernel put on it.
    run_code(page, "w.next_puzzle()")
    expect(panel).to_have_attribute("data-puzzle", full[number + 1].id)
    expect(panel.locator(".pw-puzzle-title")).to_have_text(f"Puzzle {number + 2} of {len(full)}")
    expect(board).to_have_attribute("data-version", kernel(page, "w.state['version']"))
    assert board.evaluate(LISTING) == kernel(page, KERNEL_LISTING)

    # Close: the game that was on the board comes back as it was, and the Hint with it.
    panel.locator('button[data-action="puzzle-close"]').click()
    expect(panel).to_be_hidden()
    expect(board.locator(".pw-status")).to_contain_text("Moves 1")
    assert board.evaluate(LISTING) == earlier
    assert kernel(page, "w.moves") == earlier_moves
    expect(hint).to_have_attribute("aria-disabled", "false")

    with capsys.disabled():
        print_figures("JupyterLab, puzzle panel", figures)
    for theme, lowest in figures.items():
        assert "puzzle" in lowest and "message" in lowest, f"{theme}: {sorted(lowest)}"
