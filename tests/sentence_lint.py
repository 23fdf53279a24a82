"""The sentence lint: what every sentence a player reads must get right, and the collection of
those sentences from the board, the review, the records, the puzzles, the pictures and the
notebooks' outputs (tests/test_sentences.py runs it).

Each text is checked by what it is (`KINDS`): a sentence (the hint line, a notice read out, a
refusal as the board shows it, what the board says after a move), a hint's detail (which may
hold the figures behind the hint), a label (a status item, a pile's or a card's label, a
title), a line of a notebook's prose, or a line of code a notebook printed (a repr, a dump).
"""

from __future__ import annotations

import datetime as dt
import html
import random
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from helpers import CARD_SYMBOL

from pyramid_widget import Game, IllegalMove, hint, puzzles, review, svg
from pyramid_widget.intents import ack
from pyramid_widget.records import FinishedGame, Records, SavedGame
from pyramid_widget.rules import PRESETS
from pyramid_widget.view import (
    Extras,
    MoveEvent,
    ViewOptions,
    build_state,
    catalog,
    failed_view,
    hint_view,
    offer_view,
    records_view,
    review_view,
    rules_view,
)

# ---------------------------------------------------------------------------- the rules
_COUNTED = (
    "move|card|pass|order|way|try|position|game|win|loss|point|puzzle|removal|recycle|draw"
    "|second|node|row|streak|deal"
)
_PLURAL = {"pass": "passes", "try": "tries", "loss": "losses"}
_NOUNS = "|".join(_COUNTED.split("|"))
_PLURALS = "|".join(_PLURAL.get(noun, noun + "s") for noun in _COUNTED.split("|"))
_BETWEEN = r"(?:more |first |wrong |unseen |decided )?"
ONE_PLURAL = re.compile(rf"(?<![\d.,:/#-])\b1 {_BETWEEN}(?:{_PLURALS})\b")
MANY_SINGULAR = re.compile(rf"(?<![\d.,:/#-])\b(?:0|[2-9]|\d\d+) {_BETWEEN}(?:{_NOUNS})\b(?!['-])")

DOUBLED = re.compile(r"[!?:;,.]\s*[!?:;,]|[!?:;,]\s*\.|(?<!\.)\.\.(?!\.)")
SPACE_BEFORE = re.compile(r"\s[.,;:!?](?!\d)")
DOUBLE_SPACE = re.compile(r"\S {2,}\S")

NOTATION = re.compile(
    r"(?<![\w#])[A2-9TJQK][cdhs]\+[A2-9TJQK][cdhs](?!\w)"  # a pair: 5h+8c
    r"|(?<![\w#:])(?!A[sh] [a-z])[A2-9TJQK][cdhs](?![\w+])"  # a card: Ts (not "As the")
)
INTERNAL = re.compile(
    r"\bnodes?\b|\bpositions? solved\b|\bsolved in\b|\d(?:\.\d+)?\s?s\b|\bseconds?\b|≈|% wins"
    r"|\btime_limit\b|\bms\b"
)
PASS_NUMBER = re.compile(r"\bpass \d+(?: of \d+)?")
SENTENCE_START = re.compile(r"^[A-Z0-9✓]")
SENTENCE_END = re.compile(r"[.!?…][)\"']?$")
HINT_WORDS = 15

KINDS = {
    "sentence": ("plural", "punctuation", "spacing", "notation", "internal", "form"),
    "hint": ("plural", "punctuation", "spacing", "notation", "internal", "form", "short"),
    "detail": ("plural", "punctuation", "spacing", "notation", "internal", "form"),
    "label": ("plural", "punctuation", "spacing", "notation", "internal"),
    "prose": ("plural", "punctuation", "notation"),
    "code": ("plural",),
}
"""Which checks each kind of text gets: a label need not be a sentence; a notebook's line of
code (a repr, a move log) may use notation, align columns and print timings; only the hint line
must be short and free of figures."""


def _parentheses(text: str) -> list[str]:
    depth, found = 0, []
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth > 1:
            found.append("nested parentheses")
            break
        if depth < 0:
            found.append("unbalanced parentheses")
            break
    if depth > 0:
        found.append("unbalanced parentheses")
    return found


def findings(text: str, kind: str) -> list[str]:
    """What is wrong with `text`, read as a text of `kind` (`KINDS`): the names of the rules it
    breaks, with what broke them."""
    checks = KINDS[kind]
    found = []
    if "plural" in checks:
        found += [f"plural: {m.group()!r}" for m in ONE_PLURAL.finditer(text)]
        found += [f"plural: {m.group()!r}" for m in MANY_SINGULAR.finditer(text)]
    if "punctuation" in checks:
        found += [f"doubled punctuation: {m.group()!r}" for m in DOUBLED.finditer(text)]
        found += [f"space before punctuation: {m.group()!r}" for m in SPACE_BEFORE.finditer(text)]
        found += _parentheses(text)
    if "spacing" in checks:
        found += [f"double space: {m.group()!r}" for m in DOUBLE_SPACE.finditer(text)]
    if "notation" in checks:
        found += [f"notation: {m.group()!r}" for m in NOTATION.finditer(text)]
    if "internal" in checks:
        found += [f"internal figure: {m.group()!r}" for m in INTERNAL.finditer(text)]
    if "form" in checks:
        if not SENTENCE_START.search(text):
            found.append("no capital at the start")
        if not SENTENCE_END.search(text):
            found.append("no full stop at the end")
    if "short" in checks:
        if len(text.split()) > HINT_WORDS:
            found.append(f"long: {len(text.split())} words")
        bare = PASS_NUMBER.sub("", CARD_SYMBOL.sub("", text))
        if re.search(r"\d", bare):
            found.append("a figure in the hint line")
    return found


# ---------------------------------------------------------------------------- the collection
@dataclass
class Collected:
    """Texts by source: how many were checked (`counts`), each distinct text once with its
    kind (`texts`)."""

    counts: Counter = field(default_factory=Counter)
    texts: dict[str, dict[str, str]] = field(default_factory=lambda: defaultdict(dict))

    def add(self, source: str, text: str | None, kind: str) -> None:
        if not text:
            return
        self.counts[source] += 1
        self.texts[source].setdefault(text, kind)

    def findings(self) -> list[str]:
        return [
            f"{source}: {problem}: {text!r}"
            for source, texts in self.texts.items()
            for text, kind in texts.items()
            for problem in findings(text, kind)
        ]

    def sources(self) -> dict[str, tuple[int, int]]:
        """Each source: (texts checked, distinct texts)."""
        return {source: (self.counts[source], len(self.texts[source])) for source in self.counts}


def add_state(said: Collected, state: dict) -> None:
    """Every player text of one view state."""
    for slot in state["pyramid"]:
        said.add("card labels", slot["label"], "label")
    said.add("pile labels", state["stock"]["label"], "label")
    said.add("pile labels", state["waste"]["label"], "label")
    said.add("card labels", state["waste"]["top_label"], "label")
    for item in state["status"]["items"]:
        said.add("status line", item, "label")
    for control in state["controls"].values():
        said.add("greyed buttons", control["why"], "sentence")
    notice = state["notice"]
    if notice:
        said.add("notices", notice["title"], "label")
        for line in notice["lines"]:
            said.add("notices", line, "label")
        said.add("notices read out", notice["spoken"], "sentence")
    if state["narration"]:
        said.add("narration", state["narration"]["text"], "sentence")
    shown = state["hint"]
    if shown and shown.get("status") == "done":
        said.add("hint lines", shown["reason"], "hint")
        said.add("hint details", shown["detail"], "detail")
    if state["offer"]:
        said.add("offers", state["offer"]["text"], "sentence")
    if state["puzzle"]:
        said.add("puzzle feedback", state["puzzle"]["prompt"], "sentence")
        said.add("puzzle feedback", state["puzzle"]["said"], "sentence")


def refused(said: Collected, reason: str | None) -> None:
    """A refusal as the board shows it: the sentence of its ack."""
    if reason is not None:
        said.add("refusals", ack(None, False, reason, None)["said"], "sentence")


def add_taps(said: Collected, game: Game) -> None:
    """The refusal of every tap a player can make now: each card alone, each pair of cards in
    play, the piles (with each card in play selected, and as they looked before)."""
    in_play = game.in_play
    for card in game.cards:
        try:
            game.tap_move(card)
        except IllegalMove as error:
            refused(said, error.reason)
    for pick in in_play:
        for target in [*in_play, "stock", "waste"]:
            try:
                game.tap_move(target, pick)
            except IllegalMove as error:
                refused(said, error.reason)
    for pile in ("stock", "waste"):
        for face in ("back", "empty", *(str(card) for card in in_play)):
            refused(said, game.pile_tap_refusal(pile, face))
    refused(said, game.recycle_refusal)
    for step in (Game.undo, Game.redo):
        try:
            step(game.copy())
        except IllegalMove as error:
            refused(said, error.reason)


HINT_EVERY = 12
"""Hints (fair and all-seeing) are asked at every this many positions: the slowest part."""
HINT_TIME = 0.004
"""A hint's time limit here: a fair hint spends nodes for it (180), an all-seeing one the clock."""
PICTURE_EVERY = 25


def play_positions(said: Collected, rules: str, count: int, seed: int = 0) -> int:
    """Random play from numbered deals of `rules` (with undos and redos) until `count` positions
    were seen, reading every text the board shows at each: its state under varied extras and
    options, the refusal of every tap, and at some positions hints and the picture."""
    rng = random.Random(f"{rules}-{seed}")
    seen, deal = 0, 0
    while seen < count:
        deal += 1
        game = Game.deal(deal, rules)
        event = MoveEvent("new")
        while seen < count:
            seen += 1
            options = ViewOptions(dead_end_notice=seen % 3 == 0, auto_pair=seen % 5 == 0)
            extras = Extras(
                elapsed=seen * 7.5,
                running=True,
                paused=seen % 17 == 0,
                practice=seen % 4 == 0,
                lost_from_start=True if seen % 9 == 0 and game.open_book else None,
                proven=False if seen % 11 == 0 else None,
                deal_chosen=seen % 2 == 0,
            )
            if seen % HINT_EVERY == 0 and not game.is_won:
                for fair in (True, False):
                    found = hint(game, fair=fair, time_limit=HINT_TIME)
                    shown = Extras(**{**extras.__dict__, "hint": hint_view(found)})
                    add_state(said, build_state(game, version=seen, extras=shown, event=event))
            add_state(said, build_state(game, version=seen, options=options, extras=extras,
                                        event=event))  # fmt: skip
            add_taps(said, game)
            if seen % PICTURE_EVERY == 0:
                picture = svg.board(game)
                said.add("pictures", picture.title, "label")
                said.add("pictures", picture.description, "sentence")
            moves = game.legal_moves()
            if not moves:
                break
            choice = rng.random()
            if game.can_undo and choice < 0.08:
                event = MoveEvent("undo", str(game.undo()))
            elif game.can_redo and choice < 0.12:
                event = MoveEvent("redo", str(game.redo()))
            else:
                event = MoveEvent("play", str(game.play(rng.choice(moves))))
        # The game's end, and the board's other events on it.
        for action in ("restart", "continue", "step", "refresh"):
            add_state(said, build_state(game, version=seen, event=MoveEvent(action)))
    return seen


def add_reviews(said: Collected, rules: str, games: int) -> None:
    """Reviews of games played at random: the summary, the rows, the text table and the HTML
    table (its visible words and tooltips), and the board's review panel."""
    for deal in range(1, games + 1):
        rng = random.Random(deal)
        game = Game.deal(deal, rules)
        while (moves := game.legal_moves()) and game.move_count < 80:
            game.play(rng.choice(moves))
        result = review(game, time_limit=0.05, hint_time=HINT_TIME)
        said.add("review summaries", result.summary, "sentence")
        said.add("review summaries", repr(result), "code")
        for line in str(result).splitlines()[1:]:
            said.add("review text table", line.strip(), "code")
        add_html(said, "review tables", result._repr_html_())
        shown = review_view(result)
        for row in shown["rows"]:
            said.add("review panel", row["note"], "label")
            said.add("review panel", row["step_label"], "label")
            said.add("review hints", row["hint_reason"], "hint")
        for column in shown["columns"]:
            said.add("review panel", column, "label")


REPORTS = re.compile(r"class='pyramid-(?:scorecard|comparison)'")
"""The strategy lab's tables: reports for whoever measures a strategy, timings included, read
as prose (the lab's figures are what its reader acts on)."""


def add_html(said: Collected, source: str, page: str) -> None:
    """What a reader of an HTML or SVG output reads: its text between tags, line by line, its
    tooltips and alt texts, and a picture's title and description."""
    kind = "prose" if REPORTS.search(page) else "label"
    for value in re.findall(r'(?:title|alt|aria-label)="([^"]*)"', page):
        said.add(source, html.unescape(value), "label")
    for value in re.findall(r"<(?:title|desc)>(.*?)</(?:title|desc)>", page, flags=re.S):
        said.add(source, html.unescape(value), "label")
    page = re.sub(r"<svg.*?</svg>|<style.*?</style>|<script.*?</script>", "", page, flags=re.S)
    text = re.sub(r"<br\s*/?>|</(?:p|div|tr|td|th|li|h\d|figcaption)>", "\n", page)
    for line in html.unescape(re.sub(r"<[^>]+>", " ", text)).splitlines():
        line = " ".join(line.split())
        said.add(source, line, kind)


def add_records(said: Collected, rules: str) -> None:
    """The Records panel's words and the Continue offer, for records of 0, 1 and 2 of each
    count, saving on and off, with and without the latest losses."""
    at = dt.datetime(2026, 1, 2, 3, 4)
    game = Game.deal(5, rules)
    lost = [
        FinishedGame("g", rules, number, game.layout, (), moves, "loss", 60.0, 0, at, at, "")
        for number, moves in ((5, 1), (None, 2))
    ]
    for n in range(3):
        records = Records(rules, games=n, wins=n, losses=n, practice=n, current_streak=n,
                          best_streak=n, fastest_win=n * 61.0 or None,
                          fewest_moves=n or None, best_score=n * 50 or None)  # fmt: skip
        for saving in (True, False):
            shown = records_view(records, saving=saving, losses=lost[:n])
            said.add("records", shown["title"], "label")
            for item in shown["items"]:
                said.add("records", f"{item['label']} {item['value']}", "label")
            for note in shown["notes"]:
                said.add("records notes", note, "sentence")
        played = game.copy()
        for _ in range(n):
            played.play(played.legal_moves()[0])
        saved = SavedGame("g", played, n * 30.0, at, at)
        said.add("offers", offer_view(saved)["text"], "sentence")


def add_catalog(said: Collected) -> None:
    """The menus' words and the Rules panel of every preset."""
    tables = catalog()
    for preset in tables["presets"]:
        said.add("menus", preset["label"], "label")
        said.add("menus", preset["summary"], "sentence")
    for option in tables["options"]:
        said.add("menus", option["label"], "label")
        said.add("menus", option["help"], "sentence")
    for value in tables["words"].values():
        said.add("board words", value, "label")
    for key in ("question", "yes", "no"):
        said.add("board words", tables["give_up"][key], "label")
    for what in ("hint", "review"):
        said.add(
            "board words", failed_view(what, ValueError("out of memory"))["reason"], "sentence"
        )
    for rules in PRESETS.values():
        for auto_pair in (True, False):
            for section in rules_view(rules, ViewOptions(auto_pair=auto_pair))["explained"]:
                said.add("rules panel", section["title"], "label")
                said.add("rules panel", section["text"], "sentence")


def add_puzzles(said: Collected, rules: str, checked: int) -> None:
    """Puzzle feedback: each legal move of the first `checked` puzzles checked in a cell, and
    one puzzle played on the board: a wrong move, the answer, then the win."""
    from pyramid_widget.solver import solve
    from pyramid_widget.widget import PyramidWidget

    shipped = puzzles.load(rules)
    for puzzle in list(shipped)[:checked]:
        said.add("puzzle feedback", puzzle.task, "sentence")
        for move in puzzle.game().legal_moves():
            said.add("puzzle feedback", puzzle.check(move).sentence, "sentence")
    board = PyramidWidget(rules, store=None)
    try:
        puzzle = shipped[0]
        board.puzzle(puzzle)
        add_state(said, board.state)
        for move in puzzle.game().legal_moves():
            try:
                board.play(move)
            except IllegalMove as error:  # the puzzle's refusal: what it says is read
                refused(said, error.reason)
            else:
                add_state(said, board.state)
                break
        for move in solve(board.game).moves:
            board.play(move)
            add_state(said, board.state)
        board.close_puzzle()
        add_state(said, board.state)
    finally:
        board.close()


# ---------------------------------------------------------------------------- notebooks
_CODE_LINE = re.compile(r"^\s*[<\[{('\"]|^\s*[A-Za-z_][\w.]*\(|\[##\]| \.\. |^\s*[\w ,'-]+:\s{2,}")


def add_notebook(said: Collected, name: str, nb) -> None:
    """What a notebook showed: each line of its text outputs (prose, or code when it looks like
    a repr, a dump or speaks notation with no card symbol) and its HTML and SVG words."""
    source = f"notebook {name}"
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            for page in (data.get("text/html", ""), data.get("image/svg+xml", "")):
                if page:
                    add_html(said, source, page)
            text = output.get("text", "") or ("" if data.get("text/html") else
                                              data.get("text/plain", ""))  # fmt: skip
            for line in text.splitlines():
                if not line.strip():
                    continue
                code = bool(_CODE_LINE.search(line)) or (
                    bool(NOTATION.search(line)) and not CARD_SYMBOL.search(line)
                )
                said.add(source, line.strip(), "code" if code else "prose")
