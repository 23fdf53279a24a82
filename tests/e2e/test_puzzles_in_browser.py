"""Puzzle mode in a real JupyterLab and a real Chromium: a puzzle opened from the Game menu's
Puzzles group (only the themes and difficulties that hold puzzles, each with its count) and from
a cell, a wrong removal refused with why it loses (said once, without the answer) and the board
unchanged, the right one accepted and counted as solved at once, the optional play-on to the
win, Show the answer counted as not solved, Next from the board and from Python, an answer
typed in a cell in card symbols, the Hint
greyed with its reason, Close giving the earlier game back, and the puzzle panel readable in
both themes without moving the board.

The figures (the lowest contrast of each kind of text, per theme) are printed: run with -s.
"""

from __future__ import annotations

from harness import kernel, menu, run_all, run_code, screenshot, wait_for_widget
from measure import boxes, measure_in_both_themes, moved, print_figures
from playwright.sync_api import Locator, expect

from pyramid_widget import Move, puzzles, words
from pyramid_widget.view import catalog

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


def symbols_typed(move: str) -> str:
    """A move as a student types it: its cards' symbols in lower case ("a\u2660 q\u2665")."""
    parsed = Move.parse(move)
    return " ".join(card.symbol.lower() for card in parsed.cards) if parsed.cards else move


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

    # The Game menu's Puzzles group offers the classic themes that hold puzzles, each with its
    # count, and under the theme chosen only the difficulties that hold some: keep-waste has
    # medium puzzles only. The first puzzle of the choice opens.
    body = menu(board)
    theme = body.locator('select[data-field="puzzle-theme"]')
    difficulty = body.locator('select[data-field="puzzle-difficulty"]')
    offered = catalog()["puzzles"]["menus"]["classic"]
    expect(theme.locator("option")).to_have_text([entry["label"] for entry in offered])
    expect(theme.locator("option").first).to_have_text(f"Any theme ({len(full)})")
    keep_waste = puzzles.load("classic", theme="keep-waste")
    theme.select_option("keep-waste")
    expect(difficulty.locator("option")).to_have_text(
        [f"Any difficulty ({len(keep_waste)})", f"Medium ({len(keep_waste)})"]
    )
    theme.select_option("trapped")
    expect(difficulty.locator("option")).to_have_text(
        [level["label"] for entry in offered if entry["id"] == "trapped"
         for level in entry["difficulties"]]
    )  # fmt: skip
    difficulty.select_option("medium")
    expect(difficulty).to_have_value("medium")
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

    # The tempting removal: refused, with why it loses said once (in the panel, not again on
    # the message line) and the answer kept back.
    click_pair(board, wrong.move)
    refusal = words.wrong_try(wrong.why)
    expect(said).to_have_text(refusal)
    expect(message).to_have_text("")
    assert right.text not in refusal
    expect(board).not_to_contain_text(right.text)
    expect(panel.locator(".pw-puzzle-score")).to_have_text("Solved 0 of 1 tried, 0 first tries")
    assert board.evaluate(LISTING) == posed  # the board did not change
    assert kernel(page, "w.game.history, w.state['puzzle']['phase']") == "[] find"
    assert moved(still, boxes(board)) == []
    figures: dict = {}
    measure_in_both_themes(page, [board], "puzzle panel with a refusal", figures)
    screenshot(board, "puzzle.png")

    # The saving removal: accepted and solved at once; the counter says what the panel says,
    # and the play-on to the win is optional.
    click_pair(board, right.move)
    expect(panel).to_have_attribute("data-phase", "play")
    expect(said).to_have_text(f"Right! {right.why}")
    expect(panel.locator(".pw-puzzle-score")).to_have_text("Solved 1 of 1 tried, 0 first tries")
    expect(panel.locator(".pw-puzzle-prompt")).to_contain_text("if you like")
    expect(panel.locator('button[data-action="puzzle-answer"]')).to_be_hidden()
    expect(panel.locator(".pw-puzzle-prompt")).to_have_text(
        kernel(page, "w.state['puzzle']['prompt']")
    )
    for card in right.move.split("+"):
        expect(board.locator(f'[data-card="{card}"]')).to_have_count(0)
    assert moved(still, boxes(board)) == []

    # Play on to the win along the solver's line: the score stays (the puzzle opened from the
    # menu was never moved in, so it was not tried), and the win says what the puzzle counted as.
    run_code(page, "for move in solve(w.game).moves: w.play(move)")
    expect(panel).to_have_attribute("data-phase", "won")
    expect(said).to_have_text("Solved after 1 wrong try.")
    expect(panel.locator(".pw-puzzle-score")).to_have_text("Solved 1 of 1 tried, 0 first tries")
    expect(board.locator(".pw-panel")).to_contain_text(words.PUZZLE_SOLVED_TITLE)
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

    # Show the answer: the panel gives it, and the puzzle counts as tried, not solved.
    panel.locator('button[data-action="puzzle-answer"]').click()
    expect(said).to_have_text(" ".join(choice.why for choice in full[number].answers))
    expect(panel.locator(".pw-puzzle-prompt")).to_have_text(words.SHOWN_PROMPT)
    expect(panel.locator(".pw-puzzle-score")).to_have_text("Solved 1 of 2 tried, 0 first tries")

    # Next, from Python: the board shows the puzzle the kernel put on it.
    run_code(page, "w.next_puzzle()")
    expect(panel).to_have_attribute("data-puzzle", full[number + 1].id)
    expect(panel.locator(".pw-puzzle-title")).to_have_text(f"Puzzle {number + 2} of {len(full)}")
    expect(board).to_have_attribute("data-version", kernel(page, "w.state['version']"))
    assert board.evaluate(LISTING) == kernel(page, KERNEL_LISTING)

    # Answered from a cell as a student types it, in the card symbols the board shows (lower
    # case, apart by a space): accepted, and counted as solved at the first try.
    typed = symbols_typed(full[number + 1].answers[0].move)
    run_code(page, f"w.play({typed!r})")
    expect(panel).to_have_attribute("data-phase", "play")
    expect(said).to_contain_text("Right!")
    expect(panel.locator(".pw-puzzle-score")).to_contain_text("Solved 2 of 3 tried")

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
        assert "puzzle" in lowest, f"{theme}: {sorted(lowest)}"  # the refusal is the panel's
