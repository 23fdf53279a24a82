"""Every notebook runs headless, top to bottom, in a fresh kernel, and says something sensible
(`notebook_runs` runs each once per test session)."""

from __future__ import annotations

import ast
import base64
import re

import nbformat
import pytest
from bs4 import BeautifulSoup
from notebook_runs import NAMES, NOTEBOOKS, execute, run

from pyramid_widget import puzzles

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def text_of(cell: nbformat.NotebookNode) -> str:
    """All text a code cell showed: streams, plain results and HTML."""
    parts = []
    for output in cell.get("outputs", []):
        parts.append(output.get("text", ""))
        data = output.get("data", {})
        parts.append(data.get("text/plain", ""))
        parts.append(data.get("text/html", ""))
    return "\n".join(parts)


def cell_with(nb: nbformat.NotebookNode, source: str) -> nbformat.NotebookNode:
    """The first code cell whose source contains `source`."""
    return next(c for c in nb.cells if c.cell_type == "code" and source in c.source)


def shows_widget(cell: nbformat.NotebookNode) -> bool:
    return any(WIDGET_VIEW in output.get("data", {}) for output in cell.get("outputs", []))


@pytest.mark.parametrize("name", NAMES)
def test_notebooks_are_committed_without_outputs(name: str) -> None:
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, cell.source[:60]


@pytest.mark.slow
def test_play_notebook_shows_boards_and_plays_from_a_cell() -> None:
    nb = run("play.ipynb")

    assert shows_widget(nb.cells[1])
    presets = text_of(cell_with(nb, "from pyramid_widget import PRESETS"))
    for name in ("classic", "scored", "open-stock", "one-recycle", "strict"):
        assert name in presets
    assert "share this deal: classic#42" in text_of(cell_with(nb, "share this deal"))
    played = text_of(cell_with(nb, "display(w)"))
    assert "<Game classic #42" in played and "1 move>" in played


NOTATION = re.compile(r"\b(?:[A2-9TJQK]|10)[cdhs]\b")
"""A card in notation ("5h", "Ts"): code's way of writing it, not a student's."""


def answer_cells(nb: nbformat.NotebookNode) -> list[str]:
    return [c.source for c in nb.cells if c.cell_type == "code" and c.source.startswith("answer")]


#: The notebooks the README serves with Voila, which shows their markdown and outputs, not
#: their code.
VOILA_NOTEBOOKS = ["play.ipynb"]


@pytest.mark.slow
@pytest.mark.parametrize("name", VOILA_NOTEBOOKS)
def test_a_notebook_served_by_voila_says_nothing_about_cells(name: str) -> None:
    """Words about cells ("run the next cell") would speak of what Voila never shows: they go
    in a code cell's comment, which Voila hides with the code."""
    nb = run(name)
    shown = [c.source for c in nb.cells if c.cell_type == "markdown"]
    shown += [text_of(c) for c in nb.cells if c.cell_type == "code"]
    for text in shown:
        assert not re.search(r"\b(cells?|run)\b", text, re.IGNORECASE), text


@pytest.mark.slow
def test_teaching_notebook_checks_every_default_answer_right_and_finds_the_mistake() -> None:
    nb = run("teaching_pairing_strategy.ipynb")

    answers = answer_cells(nb)  # the students' answers, typed in card symbols, accepted
    assert len(answers) == 7 and sum("♥" in a or "♣" in a for a in answers) >= 4
    assert not any(NOTATION.search(answer) for answer in answers), answers
    checks = [text_of(c) for c in nb.cells if c.cell_type == "code" and "right:" in c.source]
    assert len(checks) == 7
    for output in checks:
        assert output.lstrip().startswith("right:"), output
        assert "not quite" not in output
    report = text_of(cell_with(nb, "played = ("))
    assert "the win slipped away here" in report
    summary = text_of(cell_with(nb, "print(report.summary)"))
    assert "until move 17 (4♥ + 9♥)" in summary and "4♥ + 9♣ would have kept the win" in summary


@pytest.mark.slow
def test_teaching_notebook_says_why_a_wrong_answer_is_wrong() -> None:
    """The checks can fail: with every answer wrong, every check says "not quite"."""
    wrong = iter(
        [
            'answer = ["5♥ + 8♣", "K♦", "2♣ + J♣"]',
            'answer = "yes"',
            'answer = "5♣+8♥"',
            'answer = "7♣"',
            'answer = "no"',
            'answer = "a♥ q♥"',
            'answer = "recycle"',
        ]
    )
    nb = nbformat.read(NOTEBOOKS / "teaching_pairing_strategy.ipynb", as_version=4)
    review_at = next(i for i, c in enumerate(nb.cells) if c.source.startswith("played = ("))
    del nb.cells[review_at:]  # the lessons only
    for cell in nb.cells:
        if cell.cell_type == "code" and re.fullmatch(r"answer = .*", cell.source.strip()):
            cell.source = next(wrong)
    assert next(wrong, None) is None

    execute(nb)

    checks = [text_of(c) for c in nb.cells if c.cell_type == "code" and "right:" in c.source]
    assert len(checks) == 7
    for output in checks:
        assert output.lstrip().startswith("not quite"), output
    assert "missed A♥ + Q♠" in checks[0] and "2♣ + J♣ is not possible here" in checks[0]


@pytest.mark.slow
def test_inspect_notebook_follows_moves_and_reads_hints_and_verdicts() -> None:
    nb = run("inspect_state.ipynb")

    assert shows_widget(cell_with(nb, "import ipywidgets"))
    events = ast.literal_eval(text_of(cell_with(nb, "for _ in range(3)")).strip())
    assert events[0] == "watching" and len(events) == 4  # the callback saw the three moves
    state = ast.literal_eval(text_of(cell_with(nb, "sorted(w.state)")).strip())
    assert {"pyramid", "stock", "waste"} <= set(state)
    hints = text_of(cell_with(nb, "fair = w.hint("))
    assert "fair:" in hints and "all-seeing:" in hints
    verdict = text_of(cell_with(nb, "verdict = w.solve("))
    assert re.search(r"^(winnable|unwinnable|unknown) in", verdict.strip())
    assert "saved and loaded: True" in text_of(cell_with(nb, "from pyramid_widget import Game"))
    assert "<table" in text_of(cell_with(nb, "review(w"))


@pytest.mark.slow
def test_winnability_notebook_draws_its_table_and_chart() -> None:
    nb = run("winnability.ipynb")

    table = text_of(cell_with(nb, "table = HTML("))
    for name in ("classic", "scored", "open-stock", "one-recycle", "strict"):
        assert name in table
    assert table.count("%") >= 2 * 12  # a rate and its interval for each of the 12 settings
    assert "<svg" in text_of(cell_with(nb, "chart(results)"))


@pytest.mark.slow
def test_the_teaching_notebook_exported_to_html_shows_every_position_as_a_picture() -> None:
    nb = run("teaching_pairing_strategy.ipynb")
    shown = [
        cell.source
        for cell in nb.cells
        for output in cell.get("outputs", [])
        if "image/svg+xml" in output.get("data", {})
    ]
    assert len(shown) >= 10  # six lessons, a hint, the marked mistakes, the reviewed game
    page = export(nb)
    pictures = pictures_in(page)
    assert len(pictures) >= len(shown) + 1  # the review's own picture beside its table
    assert "stock [##]" not in page and ".. " * 3 not in page  # no text board left
    assert not re.search(r"\b(?:[A2-9TJQK][cdhs])\b(?![^<]*>)", _words(page))


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    ["teaching_pairing_strategy.ipynb", "puzzles.ipynb", "inspect_state.ipynb", "play.ipynb"],
)
def test_every_picture_of_an_exported_notebook_says_what_it_shows(name: str) -> None:
    """A screen reader reads each picture of the HTML export by its position's own words: an
    `<img>` by its alt text (the SVG's title and description), an inline SVG by its label."""
    pictures = pictures_in(export(run(name)))
    assert pictures
    for said, words in pictures:
        assert said == words and words.startswith("Pyramid Solitaire: ")


def export(nb: nbformat.NotebookNode) -> str:
    """The notebook as nbconvert's HTML export (`jupyter nbconvert --to html`) writes it."""
    from nbconvert import HTMLExporter

    page, _ = HTMLExporter().from_notebook_node(nb)
    missing = page.count(NO_ALT_TEXT)
    assert missing == 0, f"{missing} pictures with no alt text of their own"
    return page


#: The alt text nbconvert gives an `<img>` that has none, such as its own `<img>` of an SVG.
NO_ALT_TEXT = "No description has been provided for this image"


def pictures_in(page: str) -> list[tuple[str, str]]:
    """Every picture in an exported page: the words a screen reader reads for it, and the words
    its SVG holds for that: an `<img>`'s alt text and the SVG's title and description (the
    SVG inside an `<img>` is never read), an inline `<svg role="img">`'s label and its title
    (its description is read from inside it)."""
    soup = BeautifulSoup(page, "html.parser")
    pictures = []
    for img in soup.find_all("img"):
        kind, _, data = img["src"].partition(",")
        assert kind == "data:image/svg+xml;base64", img["src"][:60]
        drawn = BeautifulSoup(base64.b64decode(data).decode(), "html.parser").svg
        words = f"{drawn.title.get_text()}. {drawn.desc.get_text()}"
        pictures.append((img.get("alt", ""), words))
    for drawn in soup.find_all("svg"):
        said = drawn.get("aria-label", "") if drawn.get("role") == "img" else ""
        assert drawn.desc.get_text()
        pictures.append((said, drawn.title.get_text()))
    return pictures


def _words(page: str) -> str:
    """What a reader of the exported page reads: the text outside tags, code cells left out."""
    page = re.sub(r'<div class="jp-InputArea.*?</div>\s*</div>\s*</div>', "", page, flags=re.S)
    page = re.sub(r"<style.*?</style>|<script.*?</script>", "", page, flags=re.S)
    return re.sub(r"<[^>]+>", " ", page)


@pytest.mark.slow
def test_a_saved_board_keeps_a_picture_of_its_last_position() -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(
            "from pyramid_widget import PyramidWidget\nw = PyramidWidget('classic', store=None)\nw"
        ),
        nbformat.v4.new_code_cell("w.draw(); w.draw(); w.game.deal_number"),
    ]
    execute(nb)
    outputs = nb.cells[0].outputs
    assert WIDGET_VIEW in outputs[0]["data"]  # the live board
    html = outputs[1]["data"]["text/html"]  # and, beside it, the picture
    assert html.startswith('<div class="pw-picture"><img alt="Pyramid Solitaire: 28 of 28')
    picture = base64.b64decode(html.split("base64,")[1].split('"')[0]).decode()
    assert "Moves 2" in picture  # updated after the moves made in the next cell
    number = nb.cells[1].outputs[0]["data"]["text/plain"]
    assert number not in html  # a random deal stays anonymous while cards are unseen


@pytest.mark.slow
def test_the_puzzles_notebook_shows_checks_and_plays_a_worksheet() -> None:
    nb = run("puzzles.ipynb")
    sheet = cell_with(nb, "sheet = chosen.pick(")
    pictures = [o for o in sheet.outputs if "image/svg+xml" in o.get("data", {})]
    assert len(pictures) == 3 and "Find the one removal that keeps the win." in text_of(sheet)
    answers = cell_with(nb, "answers = [").source  # typed in card symbols, and accepted
    assert "♠" in answers and not NOTATION.search(answers)
    checked = text_of(cell_with(nb, "verdict = puzzle.check(answer)"))
    assert checked.count(": right.") == 3 and "not quite" not in checked
    assert shows_widget(cell_with(nb, "w.puzzle(sheet[0])"))
    played = text_of(cell_with(nb, "w.play(answers[0])"))
    assert "Right! " in played and "Solved 1 of 1 tried, 1 first try" in played
    themes = text_of(cell_with(nb, "puzzles.counts("))
    assert all(theme.title in themes for theme in puzzles.THEMES.values())
    answers = cell_with(nb, "puzzle.picture(answer=True)")
    assert text_of(answers).count("keeps the win") == 3 and "can never leave" in text_of(answers)


@pytest.mark.slow
def test_the_strategy_lab_measures_charts_reviews_and_watches_a_strategy() -> None:
    nb = run("strategy_lab.ipynb")  # on fewer deals (`notebook_runs.FEWER`)

    assert "is face down: a player has not seen it" in text_of(cell_with(nb, "view.stock[0]"))
    card = text_of(cell_with(nb, "card = evaluate(mine"))
    assert "efficiency" in card and "where its win slipped away" in card
    table = text_of(cell_with(nb, "table = compare("))
    assert all(f"<td>{name}</td>" in table for name in ("mine", "greedy", "random"))
    chart = cell_with(nb, "table.chart()")
    assert any("image/png" in output.get("data", {}) for output in chart.outputs)
    review = text_of(cell_with(nb, "lost.review()"))
    assert "winnable deals lost; the first is deal" in review and "could be won until" in review
    assert shows_widget(cell_with(nb, "lost.before_slip()"))
    assert shows_widget(cell_with(nb, "w = PyramidWidget(RULES, deal=lost.deal"))
    assert re.search(r"mine against greedy: [+-]\d+\.\d points", text_of(cell_with(nb, "margin")))
