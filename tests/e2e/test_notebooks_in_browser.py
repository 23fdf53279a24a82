"""The shipped notebooks as a reader uses them in JupyterLab: opened from notebooks/, Run All,
then played on."""

from __future__ import annotations

import shutil
from pathlib import Path

from harness import JupyterServer, run_all, wait_for_widget, wait_kernel_ready
from playwright.sync_api import Page, expect

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def open_shipped(page: Page, server: JupyterServer, name: str) -> None:
    """Copy notebooks/`name` into the server's folder, open it and wait for its kernel."""
    shutil.copy(NOTEBOOKS / name, server.root_dir / name)
    page.goto(server.notebook_url(name), wait_until="domcontentloaded")
    wait_kernel_ready(page, name)


def test_inspect_state_after_run_all_keeps_its_panel_following_the_board(
    jupyter_lab: JupyterServer, page: Page
):
    """Run All plays three moves and undoes one from cells; the panel beside the board reads
    what the board shows then, and again after a move played on the board."""
    try:
        open_shipped(page, jupyter_lab, "inspect_state.ipynb")
        run_all(page, timeout_ms=120_000)
        wait_for_widget(page, "[data-card]")
        boards = page.locator(".pw-root")
        expect(boards).to_have_count(2)  # the board, and the board beside the panel
        panel = page.locator(".widget-html-content").filter(has_text="fair hint")
        statuses = boards.locator("div.pw-status")
        expect(panel).to_contain_text("undo draw: cleared 3 of 28, stock 24, pass 1, 2 moves")
        for number in range(2):
            expect(statuses.nth(number)).to_contain_text("Moves 2")

        boards.first.locator('[data-pile="stock"]').click()

        for number in range(2):
            expect(statuses.nth(number)).to_contain_text("Moves 3")
        expect(panel).to_contain_text("draw: cleared 3 of 28, stock 23, pass 1, 3 moves")
        expect(panel).not_to_contain_text("undo")
    finally:
        jupyter_lab.shutdown_kernels()
