"""A whole deal won by clicks, timing each click to the updated board (printed, not asserted).

Run with `-s` to see the figures: the time from the click that asks for a move (the second
click of a pair) to the first frame after the board was redrawn, measured inside the page.
"""

from __future__ import annotations

import statistics

from harness import open_board, run_code
from helpers import SOLUTION
from playwright.sync_api import expect

# Records, for every redraw, the time since the last click or key press inside the widget,
# taken at the next animation frame (when the new board is about to be painted).
PROBE = """(root) => {
    const probe = { last: null, samples: [] };
    const mark = (event) => { probe.last = event.timeStamp; };
    root.addEventListener('click', mark, true);
    root.addEventListener('keydown', mark, true);
    new MutationObserver(() => {
        const start = probe.last;
        requestAnimationFrame(() => probe.samples.push(performance.now() - start));
    }).observe(root, { attributes: true, attributeFilter: ['data-version'] });
    window.__pwProbe = probe;
}"""


def test_a_deal_won_by_clicks_and_the_click_to_board_time(lab_notebook):
    page = open_board(lab_notebook, "widget_latency.ipynb", rules="open-stock")
    board = page.locator(".pw-root")
    stock = board.locator('[data-pile="stock"]')
    board.evaluate(PROBE)

    def on_stock(card: str) -> bool:
        return stock.locator(f'[data-card="{card}"]').count() > 0

    def target(card: str):
        return stock if on_stock(card) else board.locator(f'[data-card="{card}"]')

    def played(count: int) -> None:
        page.wait_for_function(f"() => window.__pwProbe.samples.length >= {count}")

    for number, move in enumerate(SOLUTION, start=1):
        if move == "draw" and stock.locator("[data-card^='K']").count():
            stock.focus()
            page.keyboard.press("d")  # a click on a King on the stock top would remove it
        elif move in ("draw", "recycle") or "+" not in move:
            (stock if move in ("draw", "recycle") else target(move)).click()
        else:
            first, second = sorted(move.split("+"), key=on_stock)  # the stock top goes last
            target(first).click()
            target(second).click()
        played(number)

    expect(board.locator(".pw-status")).to_contain_text("Cleared 28 of 28")
    expect(board.locator(".pw-message")).to_have_text("Pyramid cleared in 49 moves!")
    board.locator('button[data-action="undo"]').click()
    played(len(SOLUTION) + 1)
    expect(board.locator(".pw-status")).to_contain_text("Cleared 27 of 28")
    assert run_code(page, "print(len(w.moves), w.game.can_redo)") == "48 True"

    samples = page.evaluate("() => window.__pwProbe.samples")
    assert len(samples) == 50
    print(
        f"\nclick to updated board over {len(samples)} moves: "
        f"median {statistics.median(samples):.1f} ms, max {max(samples):.1f} ms"
    )
