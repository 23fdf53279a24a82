"""Pyramid in marimo: `marimo run notebooks/play_marimo.py` (an app) or `marimo edit ...`.

The board is a `mo.ui.anywidget`; the cell under it reads the board and re-runs after every
move made on it.
"""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo

    from pyramid_widget import Move, PyramidWidget

    return Move, PyramidWidget, mo


@app.cell
def _(PyramidWidget, mo):
    board = mo.ui.anywidget(PyramidWidget("open-stock", deal=42))
    board
    return (board,)


@app.cell
def _(Move, board, mo):
    played = [Move.parse(move).text for move in board.value["moves"]]
    status = board.value["state"]["status"]
    mo.md(
        f"**{len(played)} moves so far** ({status['cleared']} of 28 cleared): "
        + (", ".join(played) or "none yet")
    )
    return


if __name__ == "__main__":
    app.run()
