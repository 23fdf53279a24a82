"""The picture a notebook keeps beside the board: hidden while the board is live, shown where the
board cannot render, e.g. the saved notebook reopened in JupyterLab after its kernel is gone."""

from __future__ import annotations

import nbformat
from harness import JupyterServer, run_all, wait_for_widget
from nbclient import NotebookClient
from playwright.sync_api import Page, expect

CELLS = [
    "from pyramid_widget import PyramidWidget\n"
    "w = PyramidWidget('classic', deal=42, store=None)\nw",
    "w.play('Ks'); w.draw()",
]


def test_a_live_board_hides_its_picture(lab_notebook):
    page = lab_notebook("picture_live.ipynb", CELLS)
    run_all(page)
    wait_for_widget(page, "[data-card]")
    picture = page.locator(".pw-picture")
    expect(picture).to_have_count(1)
    expect(picture).to_be_hidden()  # the widget's stylesheet hides it while the board is live


def test_a_saved_board_shows_its_last_position_once_its_kernel_is_gone(
    jupyter_lab: JupyterServer, page: Page
):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    NotebookClient(nb, timeout=120, kernel_name="python3").execute()  # run, saved, kernel gone
    nbformat.write(nb, jupyter_lab.root_dir / "picture_saved.ipynb")
    try:
        page.goto(jupyter_lab.notebook_url("picture_saved.ipynb"), wait_until="domcontentloaded")
        image = page.locator(".pw-picture img")
        expect(image).to_be_visible(timeout=60_000)
        assert "Moves 2" in (image.get_attribute("alt") or "")  # the last position, not the first
        size = image.evaluate("(img) => [img.naturalWidth, img.naturalHeight]")
        assert size[0] > 100 and size[1] > 100  # the SVG really drew
    finally:
        jupyter_lab.shutdown_kernels()


def test_a_game_shown_in_a_cell_is_a_picture_that_says_what_it_shows(lab_notebook):
    """JupyterLab shows a position's HTML, an `<img>` of its SVG with its words as alt text."""
    page = lab_notebook("picture_game.ipynb", ["from pyramid_widget import Game\nGame.deal(42)"])
    run_all(page)
    image = page.locator(".jp-OutputArea-output img")
    expect(image).to_be_visible()
    alt = image.get_attribute("alt") or ""
    assert alt.startswith("Pyramid Solitaire: 28 of 28") and "Moves 0" in alt
    assert image.evaluate("(img) => img.naturalWidth") > 100  # the SVG really drew
