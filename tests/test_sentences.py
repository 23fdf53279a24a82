"""Every sentence a player reads reads right: plural agreement, no doubled or nested
punctuation, card symbols and never notation, no figure a player cannot act on, a capital at
the start and a full stop at the end of a sentence, a short hint line. The lint
(`sentence_lint`) reads what the board shows across thousands of positions of every preset,
the review, the records, the puzzles' feedback, the pictures and the notebooks' outputs."""

from __future__ import annotations

import pytest
from notebook_runs import NAMES, run
from sentence_lint import (
    Collected,
    add_catalog,
    add_notebook,
    add_puzzles,
    add_records,
    add_reviews,
    findings,
    play_positions,
)

from pyramid_widget import words
from pyramid_widget.rules import PRESETS

POSITIONS = 2_000
"""Positions of random play read for each preset."""


@pytest.fixture(scope="module")
def board() -> Collected:
    said = Collected()
    add_catalog(said)
    for rules in PRESETS:
        assert play_positions(said, rules, POSITIONS) == POSITIONS
        add_records(said, rules)
        add_reviews(said, rules, games=2)
        add_puzzles(said, rules, checked=5)
    return said


def test_every_sentence_the_board_shows_reads_right(board):
    found = board.findings()
    assert not found, f"{len(found)} findings:\n" + "\n".join(found[:40])


def test_the_lint_read_every_kind_of_sentence_the_board_shows(board):
    """The lint had something to read from every source, and every kind of hint among them."""
    sources = board.sources()
    assert set(sources) >= {
        "refusals", "hint lines", "hint details", "notices", "notices read out", "narration",
        "status line", "pile labels", "card labels", "greyed buttons", "offers", "records",
        "records notes", "review summaries", "review tables", "review panel", "puzzle feedback",
        "pictures", "menus", "rules panel", "board words",
    }  # fmt: skip
    lines = board.texts["hint lines"]
    for outlook in (words.KEEPS_THE_WIN, words.BEST_TRY, "Very likely to win."):
        assert any(line.endswith(outlook) for line in lines), outlook
    assert any(line.startswith("This deal cannot be won from here") for line in lines)
    assert any(" make " in text and text.endswith(", not 13.") for text in board.texts["refusals"])


@pytest.mark.slow
def test_every_sentence_the_notebooks_show_reads_right():
    said = Collected()
    for name in NAMES:
        add_notebook(said, name, run(name))
    assert all(said.counts[f"notebook {name}"] for name in NAMES)
    found = said.findings()
    assert not found, f"{len(found)} findings:\n" + "\n".join(found[:40])


@pytest.mark.parametrize(
    ("text", "kind", "rule"),
    [
        ("Remove K♦. It can be won: 1 moves to the win.", "sentence", "plural: '1 moves'"),
        ("Stock: 1 cards face down; draw", "label", "plural: '1 cards'"),
        ("strict       stock top in play, 1 passes, clear pyramid", "code", "plural"),
        ("Solved 2 of 3 tried, 2 first try", "label", "plural: '2 first try'"),
        ("Pyramid cleared!. Time 3:07", "sentence", "doubled punctuation: '!.'"),
        ("Deal restarted..", "sentence", "doubled punctuation: '..'"),
        ("Draw (the next card (nothing in play pairs now)).", "sentence", "nested parentheses"),
        ("((2 more could not be settled))", "label", "nested parentheses"),
        ("It won (2 more could not be settled.", "sentence", "unbalanced parentheses"),
        ("Undo , or play on.", "sentence", "space before punctuation"),
        ("Pair 3♦  with 10♠.", "sentence", "double space"),
        ("Pair Ts with 3d from the waste.", "sentence", "notation: 'Ts'"),
        ("A fair hint says 5h+8c here.", "prose", "notation: '5h+8c'"),
        ("8 positions solved in 0.5 s", "label", "internal figure: 'positions solved'"),
        ("9♠ + 4♦ (≈0% wins)", "label", "internal figure: '≈'"),
        ("The search visited 5000 nodes.", "detail", "internal figure: 'nodes'"),
        ("nothing to undo.", "sentence", "no capital at the start"),
        ("Took back 5♥ + 8♣", "sentence", "no full stop at the end"),
        ("Pair 9♠ with 4♦: it won in 23 of the 23 ways tried.", "hint", "a figure in the hint"),
        (
            "Remove K♣. Very likely to win: it won in 22 of 22 ways for 24 unseen cards.",
            "hint",
            "long",
        ),
    ],
)
def test_the_lint_catches_each_kind_of_slip(text, kind, rule):
    assert any(found.startswith(rule) for found in findings(text, kind)), findings(text, kind)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Pair 9♠ with 4♦: it frees 6♥. Likely to win.", "hint"),
        ("Turn the waste over for pass 2 of 3. It keeps the win.", "hint"),
        ("Tried on 23 orders of the 12 unseen cards: it won in all 23.", "detail"),
        ("1 more order could not be settled in the time.", "detail"),
        ("Solved 1 of 2 tried, 1 first try", "label"),
        ("Pyramid cleared in 49 moves!", "sentence"),
        ("As the 4♠ lies on the 9♦, they never pair.", "sentence"),
        ("10♠ and 3♦ make 13 (a pair).", "sentence"),
        ("Time 3:07", "label"),
        ("saved and loaded: True | position code: pw1:classic:Ac7d5sJdQh...", "prose"),
        ("<Game classic #42: playing, cleared 1/28, pass 1/3, waste 5c, 1 move>", "code"),
    ],
)
def test_the_lint_passes_what_reads_right(text, kind):
    assert findings(text, kind) == []
