"""Keys on the board in a real JupyterLab and a real Notebook 7: after a click on a card that
stays, on a card that leaves and on the second card of a pair, every key the board knows does
what it means, the notebook's own shortcuts (d d, a, b, x, m, y, r, Shift+Enter, arrows) do
nothing of theirs, the notebook's cells (number, types, sources) stay as they were after every
key, and the focus never leaves the board. A game won from the keyboard hands the focus to the
result dialog's first button, scrolled into view.

Each host prints the table of what every key did (run with -s).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from harness import (
    focused,
    has_class,
    kernel,
    notebook_cells,
    open_board,
    run_code,
    scroll_to_edge,
    wait_for_focus,
)
from helpers import SOLUTION
from measure import hidden_parts
from playwright.sync_api import Locator, Page, expect

#: Notebook shortcuts in command mode that mean nothing on the board.
HOST_KEYS = ("a", "b", "x", "m", "y")

#: Text above the board, so that the notebook can scroll the board down to its bottom edge.
TEXT_ABOVE = "print('\\n'.join(f'line {n}' for n in range(40)))"


@dataclass
class KeyProbe:
    """Presses keys on a board; after each, checks what the board did, that the notebook's
    cells are as they were and that the focus is still in the board, and keeps a row."""

    page: Page
    host: str
    place: str = ""
    cells: list[tuple[str, str]] = field(default_factory=list)
    rows: list[tuple[str, str, str, str, str]] = field(default_factory=list)

    def click(self, place: str, *targets: Locator) -> None:
        """Click `targets` in turn; the keys that follow find the focus where the clicks left
        it. The notebook's cells as they are now are the ones every key must leave alone."""
        self.place = place
        self.cells = notebook_cells(self.page)
        for target in targets:
            target.click()

    def press(self, key: str, meaning: str, check: Callable[[], object]) -> None:
        before = focused(self.page)
        self.page.keyboard.press(key)
        check()
        after = focused(self.page)
        assert notebook_cells(self.page) == self.cells, f"{key} on {before} changed the cells"
        assert not after.startswith("outside"), f"{key} on {before}: the focus went {after}"
        self.rows.append((self.place, before, key, meaning, after))

    def print_table(self) -> None:
        print(
            f"\n{self.host}: where the click was | focus | key -> what the board did | focus after"
        )
        for place, before, key, meaning, after in self.rows:
            print(f"  {place:30} | {before:14} | {key:15} -> {meaning:40} | {after}")


@pytest.mark.parametrize("host", ["JupyterLab", "Notebook 7"])
def test_keys_do_what_they_mean_on_the_board_and_never_reach_the_notebook(host, request, capsys):
    opener = request.getfixturevalue("lab_notebook" if host == "JupyterLab" else "nb7_notebook")
    page = open_board(opener, f"widget_keys_{host[-1]}.ipynb", setup=TEXT_ABOVE)
    board = page.locator(".pw-root")
    status, message = board.locator(".pw-status"), board.locator(".pw-message")
    hint_line, panel = board.locator(".pw-hint-line"), board.locator(".pw-panel")
    stock = board.locator('[data-pile="stock"]')
    seven = board.locator('[data-card="7h"]')
    code = kernel(page, "w.game.deal_code")
    probe = KeyProbe(page, host)
    drawn = {"version": ""}

    def nothing() -> None:
        """The board did nothing: no new state, no message."""
        page.wait_for_timeout(150)  # time for an intent to Python to come back, if one went
        assert board.get_attribute("data-version") == drawn["version"]
        expect(message).to_have_text("")

    def host_keys() -> None:
        drawn["version"] = board.get_attribute("data-version") or ""
        for key in HOST_KEYS:
            probe.press(key, "nothing", nothing)

    def moves(count: int) -> Callable[[], None]:
        return lambda: expect(status).to_contain_text(f"Moves {count}")

    def focus(what: str) -> Callable[[], None]:
        return lambda: wait_for_focus(page, what)

    def selected(card: str, yes: bool = True) -> Callable[[], None]:
        node = expect(board.locator(f'[data-card="{card}"]'))
        mark = has_class("pw-selected")
        return (lambda: node.to_have_class(mark)) if yes else (lambda: node.not_to_have_class(mark))

    def hinted() -> None:
        """The hint's sentence shows (the search is over)."""
        expect(hint_line).not_to_have_text("")
        expect(hint_line).not_to_have_text("Checking for a solution\u2026")

    def refused() -> None:
        """A move refused: the message line says why, as a refusal."""
        expect(message).to_have_class(has_class("pw-error"))
        expect(message).not_to_have_text("")

    # A card that stays (selected), before the first move: N deals at once (nothing is lost).
    probe.click("a card that stays (7h)", seven)
    probe.press(
        "n", "a new deal", lambda: expect(board.locator(".pw-sr-only")).to_have_text("New deal.")
    )
    run_code(page, f"w.new_deal(code={code!r})")  # the reference layout again
    probe.click("a card that stays (7h)", seven)
    host_keys()
    probe.press("Shift+Enter", "7h deselected", selected("7h", False))
    probe.press("Space", "7h selected", selected("7h"))
    probe.press("h", "a hint; 7h still selected", lambda: (hinted(), selected("7h")()))
    probe.press(
        "Escape",
        "hint dismissed; 7h still selected",
        lambda: (expect(hint_line).to_have_text(""), selected("7h")()),
    )
    probe.press("ArrowLeft", "cursor to 3h", focus("card 3h"))
    probe.press("ArrowRight", "cursor back to 7h", focus("card 7h"))
    probe.press("Escape", "7h deselected", selected("7h", False))
    probe.press("r", "recycle refused, saying why", refused)
    probe.press("d", "draw (moves 1)", moves(1))
    probe.press("d", "draw (moves 2)", moves(2))
    probe.press("u", "undo (moves 1)", moves(1))
    probe.press("Control+z", "undo (moves 0)", moves(0))

    # A card that leaves (a King): the focus goes to its neighbour, and the keys still work.
    probe.click("a card that leaves (Kc)", board.locator('[data-card="Kc"]'))
    moves(1)()
    wait_for_focus(page, "card Jh")
    host_keys()
    probe.press("d", "draw (moves 2)", moves(2))
    probe.press("d", "draw (moves 3)", moves(3))
    probe.press("u", "undo (moves 2)", moves(2))
    probe.press("Control+z", "undo (moves 1)", moves(1))
    probe.press("Control+y", "redo (moves 2)", moves(2))
    probe.press("Control+Shift+z", "redo (moves 3)", moves(3))
    probe.press("Control+z", "undo (moves 2)", moves(2))
    probe.press("Control+z", "undo (moves 1)", moves(1))
    probe.press("r", "recycle refused, saying why", refused)
    probe.press("h", "a hint", hinted)
    probe.press("Escape", "hint dismissed", lambda: expect(hint_line).to_have_text(""))
    probe.press(
        "p",
        "paused; its Resume focused",
        lambda: (expect(panel).to_contain_text("Paused"), wait_for_focus(page, "button unpause")),
    )
    probe.press(
        "p",
        "resumed; focus back on the card",
        lambda: (expect(panel).to_be_hidden(), wait_for_focus(page, "card Jh")),
    )
    probe.press(
        "f",
        "full screen",
        lambda: page.wait_for_function(
            "() => document.fullscreenElement?.classList.contains('pw-root')"
        ),
    )
    probe.press(
        "f",
        "full screen left",
        lambda: page.wait_for_function("() => document.fullscreenElement === null"),
    )
    probe.press("ArrowRight", "cursor to 3c", focus("card 3c"))
    probe.press("ArrowLeft", "cursor back to Jh", focus("card Jh"))
    probe.press("ArrowUp", "cursor up to the stock", focus("pile stock"))
    probe.press("ArrowDown", "cursor down to Jh", focus("card Jh"))
    probe.press(
        "Shift+Enter",
        "the focused card selected",
        lambda: expect(board.locator(".pw-selected")).to_have_count(1),
    )
    probe.press(
        "Escape", "deselected", lambda: expect(board.locator(".pw-selected")).to_have_count(0)
    )

    # The second card of a pair: a draw puts the 6d on the waste; the 6d, then the 7h, which
    # leave together.
    waste_six = board.locator('[data-pile="waste"] [data-card="6d"]')
    probe.click("second card of a pair (6d, 7h)", stock, waste_six, seven)
    moves(3)()
    expect(seven).to_have_count(0)
    wait_for_focus(page, "card 3h")
    probe.press("d", "draw (moves 4)", moves(4))
    probe.press("d", "draw (moves 5)", moves(5))
    host_keys()
    probe.press("r", "recycle refused, saying why", refused)
    probe.press("Shift+Enter", "3h selected", selected("3h"))
    probe.press("ArrowLeft", "cursor to As", focus("card As"))

    # A win from the keyboard, with the board scrolled down to the bottom of the notebook's
    # view: the result dialog comes into view and its first button takes the focus.
    run_code(page, f"w.new_deal(code={code!r})\nfor move in {SOLUTION[:-1]!r}: w.play(move)")
    expect(status).to_contain_text("Cleared 27 of 28")
    probe.click("the apex (Th), selected", board.locator('[data-card="Th"]'))
    probe.press("ArrowLeft", "cursor to the stock (its top the 3d)", focus("pile stock"))
    scroll_to_edge(stock, "bottom")
    probe.press(
        "Enter",
        "the last pair: won; New deal focused",
        lambda: (
            expect(panel).to_contain_text("Pyramid cleared!"),
            wait_for_focus(page, "button new"),
        ),
    )
    assert hidden_parts(panel.locator(".pw-panel-box")) == []
    probe.press(
        "n",
        "a new deal (the game was over)",
        lambda: (expect(status).to_contain_text("Moves 0"), expect(panel).to_be_hidden()),
    )
    with capsys.disabled():
        probe.print_table()
