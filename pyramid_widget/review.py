"""Game review: move by move, was the deal still winnable, and where did the win slip away?

`review(game)` gives, for every move, the exact solver's verdict before and after it and what a
fair hint (knowing the cards seen by then in the game as played) would have suggested, and names
the decisive mistake (the first move after which a winnable deal was lost) with a move that
kept the win. Winnability only goes one way along a game (a position that reaches a winnable one
is winnable; every position after an unwinnable one is unwinnable), so the review bisects for
the turn: about log2(moves) solves, every verdict shown the solver's own or following from one.
Where a time limit left the turn undecided, the positions in doubt say "unknown".
"""

from __future__ import annotations

import html
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from . import svg, words
from .deals import deal_cards, parse_layout
from .game import Game, IllegalMove, Move
from .rules import Rules
from .solver.budget import seconds_limit

Verdict = Literal["winnable", "unwinnable", "unknown", "won"]
Outcome = Literal["won", "stuck"] | None

DEFAULT_TIME_LIMIT = 5.0
"""Seconds the solver may spend on one position (the solver's goal: every deal within 5 s)."""


@dataclass(frozen=True)
class MoveReview:
    """One move of the reviewed game.

    number: 1 for the first move. move: its notation ("5h+8c", "Kh", "draw", "recycle").
    before / after: "winnable", "unwinnable" or "unknown" for the position before and after the
        move ("won" after the winning move); proofs, never guesses (see the module docstring).
    hint, hint_kind, hint_verdict, hint_reason, hint_chance: what a fair hint said before the
        move (hint is None when hints were not asked for, or the hint had no move).
    decisive: this is the move that lost a winnable deal. keeps_win: on that move, a move that
        would have kept the win instead.
    """

    number: int
    move: str
    before: Verdict
    after: Verdict
    hint: str | None = None
    hint_kind: str | None = None
    hint_verdict: str | None = None
    hint_reason: str | None = None
    hint_chance: float | None = None
    decisive: bool = False
    keeps_win: str | None = None

    @property
    def followed_hint(self) -> bool:
        """The player played what the fair hint suggested."""
        return self.hint is not None and _same_move(self.hint, self.move)

    @property
    def move_text(self) -> str:
        """The move as a player reads it ("3♦ + 10♠"); `move` is its notation."""
        return _text(self.move)

    @property
    def hint_text(self) -> str | None:
        return None if self.hint is None else _text(self.hint)

    @property
    def keeps_win_text(self) -> str | None:
        return None if self.keeps_win is None else _text(self.keeps_win)

    def to_dict(self) -> dict[str, Any]:
        """A plain dict (one row of `Review.to_rows`)."""
        return {
            "number": self.number,
            "move": self.move,
            "before": self.before,
            "after": self.after,
            "hint": self.hint,
            "hint_kind": self.hint_kind,
            "hint_verdict": self.hint_verdict,
            "hint_reason": self.hint_reason,
            "hint_chance": self.hint_chance,
            "followed_hint": self.followed_hint,
            "decisive": self.decisive,
            "keeps_win": self.keeps_win,
        }


@dataclass(frozen=True)
class Review:
    """The review of one game: per-move records in `steps`, and the story in a few fields.

    start / end: the verdict before the first move and after the last ("won" if it won).
    outcome: "won", "stuck", or None for a game left unfinished.
    mistake: the number of the decisive move (None when the deal was never lost, was lost from
        the start, or a time limit hid the turn). better: a move that would have kept the win
        there; line: the solver's whole winning line from the position before the mistake,
        starting with `better`.
    solved: how many positions the solver searched; seconds: the review's wall time.
    """

    rules: str
    layout: str
    deal_code: str
    steps: tuple[MoveReview, ...]
    start: Verdict
    end: Verdict
    outcome: Outcome
    mistake: int | None = None
    better: str | None = None
    line: tuple[str, ...] = ()
    solved: int = 0
    seconds: float = 0.0
    time_limit: float | None = DEFAULT_TIME_LIMIT
    _game: Game | None = field(default=None, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.steps)

    def __iter__(self) -> Iterator[MoveReview]:
        return iter(self.steps)

    def __getitem__(self, number: int) -> MoveReview:
        """The record of move `number` (1-based, like the table)."""
        if not 1 <= number <= len(self.steps):
            raise IndexError(f"move {number} is not in this game of {len(self.steps)} moves")
        return self.steps[number - 1]

    @property
    def summary(self) -> str:
        """One or two sentences a player can read: what happened to the win."""
        n = len(self.steps)
        if self.end == "won":
            return words.review_won(n)
        if self.start == "unwinnable":
            return words.review_lost_from_start(n)
        if self.mistake is not None:
            return words.review_mistake(
                self.mistake, self[self.mistake].move_text, self.better_text
            )
        if self.end == "winnable":
            return words.review_still_winnable(n)
        doubt = [s.number for s in self.steps if "unknown" in (s.before, s.after)]
        if doubt:
            return words.review_in_doubt(doubt[0], doubt[-1])
        return words.review_undecided(n)

    @property
    def better_text(self) -> str | None:
        """`better` as a player reads it ("5♥ + 8♦")."""
        return None if self.better is None else _text(self.better)

    def game_at(self, moves: int) -> Game:
        """The game after its first `moves` moves, the rest ready to `redo()`: to look at the
        board where it went wrong, e.g. `PyramidWidget(game=review.game_at(review.mistake - 1))`.
        """
        if self._game is None:
            raise ValueError("this review keeps no game to step through")
        if isinstance(moves, bool) or not isinstance(moves, int) or not 0 <= moves <= len(self):
            raise ValueError(f"moves must be a number from 0 to {len(self)}, not {moves!r}")
        game = self._game.copy()
        for _ in range(len(self) - moves):
            game.undo()
        return game

    def to_rows(self) -> list[dict[str, Any]]:
        """The per-move records as plain dicts, e.g. for `pandas.DataFrame(review.to_rows())`."""
        return [step.to_dict() for step in self.steps]

    def __repr__(self) -> str:
        return f"<Review of {self.deal_code} ({words.count_of(len(self), 'move')}): {self.summary}>"

    def __str__(self) -> str:
        """The review as a text table, in card symbols and the verdict words."""
        width = max(len(word) for word in words.VERDICT_WORDS.values())
        number, move, before, after, fair_hint = words.REVIEW_COLUMNS
        head = f"{number:>3}  {move:<9} {before:<{width}} {after:<{width}}"
        hints = any(step.hint is not None for step in self.steps)
        lines = [self.summary, head + (f" {fair_hint}" if hints else "")]
        for step in self.steps:
            hint = f" {step.hint_text or '-'}" if hints else ""
            mark = f"  <- {words.slipped_away(step.keeps_win_text)}" if step.decisive else ""
            lines.append(
                f"{step.number:>3}  {step.move_text:<9} "
                f"{words.verdict_words(step.before):<{width}} "
                f"{words.verdict_words(step.after):<{width}}{hint}{mark}"
            )
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return _html(self)


def review(
    game: Any,
    *,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    hints: bool = True,
    hint_time: float = 0.3,
) -> Review:
    """Review a game: a `Game`, a `PyramidWidget` (its game), a JSON save, or a finished
    game's record (a mapping or object with a `save`, or with `layout`, `rules` and `moves`).

    time_limit: seconds for the solver on each position (None: no limit). hints: also ask a
    fair hint before every move (each within `hint_time` seconds); off, the review is quicker.
    The game given is not changed; the review judges its moves as they stand (not redo moves).
    """
    time_limit = seconds_limit("time_limit", time_limit, unlimited=True)
    hint_time = seconds_limit("hint_time", hint_time, unlimited=False)
    source = _game_from(game)
    started = time.perf_counter()
    positions = _replay(source)
    verdicts, solutions, solved = _verdicts(positions, time_limit)
    hinted = [_hint(pos, hint_time) for pos in positions[:-1]] if hints else None

    mistake = next(
        (
            k + 1
            for k in range(len(positions) - 1)
            if verdicts[k] == "winnable" and verdicts[k + 1] == "unwinnable"
        ),
        None,
    )
    line = solutions[mistake - 1].moves if mistake is not None else ()
    steps = []
    for k, move in enumerate(positions[-1].log):
        number = k + 1
        found = hinted[k] if hinted is not None else None
        steps.append(
            MoveReview(
                number=number,
                move=move,
                before=verdicts[k],
                after=verdicts[k + 1],
                hint=getattr(found, "move", None),
                hint_kind=getattr(found, "kind", None),
                hint_verdict=getattr(found, "verdict", None),
                hint_reason=getattr(found, "reason", None),
                hint_chance=getattr(found, "chance", None),
                decisive=number == mistake,
                keeps_win=line[0] if number == mistake else None,
            )
        )
    last = positions[-1]
    return Review(
        rules=last.rules.name,
        layout=last.layout,
        deal_code=last.deal_code,
        steps=tuple(steps),
        start=verdicts[0],
        end=verdicts[-1],
        outcome=last.outcome,
        mistake=mistake,
        better=line[0] if line else None,
        line=tuple(line),
        solved=solved,
        seconds=time.perf_counter() - started,
        time_limit=time_limit,
        _game=last,
    )


# ---------------------------------------------------------------------- replay and verdicts
def _replay(game: Game) -> list[Game]:
    """The game after 0, 1, ... n of its moves, each a copy taken while the game is replayed
    from its start (so each knows the cards seen up to then, and no card seen only in an
    undone branch: undoing from the end could not forget those)."""
    start = game.start
    replay = Game(
        game.cards, game.rules, deal_number=game.deal_number, start=start, seen=game.start_seen
    )
    positions = [replay.copy()]
    for move in game.history:
        replay.play(move)
        positions.append(replay.copy())
    return positions


def _verdicts(positions: list[Game], time_limit: float | None) -> tuple[list[Verdict], dict, int]:
    """Each position's verdict, solving as few as the one-way argument allows (module doc).

    Returns the verdicts, the solver's Solution for each position it proved winnable (the
    decisive mistake's better move comes from there), and how many positions were solved.
    """
    from .solver import solve

    last = len(positions) - 1
    if positions[last].is_won:
        return ["winnable"] * last + ["won"], {}, 0
    status: dict[int, str] = {}
    solutions: dict[int, Any] = {}

    def settled() -> tuple[int, int]:
        """(last proven winnable index or -1, first proven unwinnable index or last + 1)."""
        win = max((i for i, s in status.items() if s == "winnable"), default=-1)
        loss = min((i for i, s in status.items() if s == "unwinnable"), default=last + 1)
        if win >= loss:
            raise RuntimeError(f"solver contradiction: position {win} winnable after {loss} lost")
        return win, loss

    for i in _order(last, status, settled):
        solution = solve(positions[i], time_limit=time_limit)
        status[i] = solution.status
        if solution.status == "winnable":
            solutions[i] = solution
    win, loss = settled()
    verdicts: list[Verdict] = [
        "winnable" if i <= win else "unwinnable" if i >= loss else "unknown"
        for i in range(last + 1)
    ]
    return verdicts, solutions, len(status)


def _order(last: int, status: dict[int, str], settled) -> Iterator[int]:
    """Positions to solve next: the end (a still-winnable end settles everything), the start
    (a deal lost from the start settles everything), then the middle of what is undecided."""
    for i in dict.fromkeys((last, 0)):
        if i not in status:
            win, loss = settled()
            if win < i < loss:
                yield i
    while True:
        win, loss = settled()
        open_ = [i for i in range(win + 1, loss) if i not in status]
        if not open_:
            return
        middle = (win + loss) / 2
        yield min(open_, key=lambda i: abs(i - middle))


def _hint(game: Game, time_limit: float) -> Any:
    from .solver import hint

    return hint(game, fair=True, time_limit=time_limit)


# ---------------------------------------------------------------------- accepted inputs
def _game_from(source: Any) -> Game:
    """The Game to review from any accepted input; ValueError naming what was wrong."""
    if isinstance(source, Game):
        return source
    inner = getattr(source, "game", None)
    if isinstance(inner, Game):  # a PyramidWidget, or a record that keeps its game
        return inner
    if isinstance(source, str):
        return Game.from_json(source)
    fields = source if isinstance(source, Mapping) else _attributes(source)
    for key in ("save", "json"):
        if isinstance(fields.get(key), str):
            return Game.from_json(fields[key])
    if "layout" in fields and "moves" in fields:
        return _from_layout(fields)
    raise ValueError(
        "review needs a Game, a PyramidWidget, a JSON save, or a record with a 'save' "
        f"or with 'layout', 'rules' and 'moves'; got {type(source).__name__}"
    )


def _attributes(obj: Any) -> dict[str, Any]:
    names = ("save", "json", "layout", "rules", "moves", "deal_number")
    return {name: getattr(obj, name) for name in names if hasattr(obj, name)}


def _from_layout(fields: Mapping[str, Any]) -> Game:
    """A game rebuilt from a record's layout, rules and moves (each move checked)."""
    rules = fields.get("rules") or "classic"
    if isinstance(rules, Mapping):
        rules = Rules.from_dict(dict(rules))
    elif isinstance(rules, str):
        rules = Rules.parse(rules)
    cards = parse_layout(fields["layout"])
    number = fields.get("deal_number")
    if number is not None and deal_cards(number) != cards:
        raise ValueError(f"the record's layout is not deal number {number}'s")
    game = Game(cards, rules, deal_number=number)
    moves = fields["moves"]
    try:
        game.replay(moves.split() if isinstance(moves, str) else moves)
    except IllegalMove as error:
        raise ValueError(f"the record cannot be replayed: {error.reason}") from None
    return game


def _same_move(a: str, b: str) -> bool:
    try:
        return Move.parse(a) == Move.parse(b)
    except IllegalMove:
        return False


# ---------------------------------------------------------------------- display
_COLOURS = {
    "winnable": "var(--jp-success-color1, #2e7d32)",
    "unwinnable": "var(--jp-error-color1, #c62828)",
    "unknown": "var(--jp-ui-font-color2, #757575)",
    "won": "var(--jp-success-color1, #2e7d32)",
}


def _text(notation: str) -> str:
    """A move's notation as a player reads it."""
    return Move.parse(notation).text


def _td(content: str, *, colour: str = "", title: str | None = None, wrap: bool = True) -> str:
    style = "padding:2px 8px;text-align:left" + (f";color:{colour}" if colour else "")
    style += "" if wrap else ";white-space:nowrap"
    tip = f' title="{html.escape(title)}"' if title else ""
    return f'<td style="{style}"{tip}>{content}</td>'


def _hint_text(step: MoveReview) -> str:
    """The hint's move, then what it knew: a proven verdict, or else its estimate of the chance
    to win (a fair hint with unseen cards estimates; it never claims a loss)."""
    if step.hint is None and step.hint_verdict is None:
        return ""
    text = html.escape(step.hint_text or words.NO_MOVE)
    if step.hint_verdict in ("winnable", "unwinnable"):
        text += f" <small>({html.escape(words.verdict_words(step.hint_verdict))})</small>"
    elif step.hint_chance is not None:
        text += f" <small>({words.chance_words(step.hint_chance)})</small>"
    return text + (" ✓" if step.followed_hint else "")


def _html(review: Review) -> str:
    """The review as a table: decisive row highlighted, hint reasons as tooltips. A column with
    nothing in it (no hints asked for, no decisive move) is left out."""
    hints = any(s.hint is not None or s.hint_verdict is not None for s in review.steps)
    notes = review.mistake is not None
    rows = []
    for step in review.steps:
        note, style = "", ""
        if step.decisive:
            style = ' style="background:var(--jp-warn-color3, #fff3e0);font-weight:bold"'
            note = f"◀ {html.escape(words.slipped_away(step.keeps_win_text))}"
            if step.hint_reason:
                note += f"<br><small>{html.escape(words.fair_hint_said(step.hint_reason))}</small>"
        cells = [
            _td(str(step.number)),
            _td(html.escape(step.move_text), wrap=False),
            _td(words.verdict_words(step.before), colour=_COLOURS[step.before]),
            _td(words.verdict_words(step.after), colour=_COLOURS[step.after]),
        ]
        if hints:
            cells.append(_td(_hint_text(step), title=step.hint_reason, wrap=False))
        if notes:
            cells.append(_td(note))
        rows.append(f"<tr{style}>{''.join(cells)}</tr>")
    names = list(words.REVIEW_COLUMNS if hints else words.REVIEW_COLUMNS[:-1])
    head = "".join(
        f'<th style="padding:2px 8px;text-align:left">{name}</th>'
        for name in [*names, *([""] if notes else [])]
    )
    deal = review.deal_code if "#" in review.deal_code else f"{review.rules}, {words.CHOSEN_LAYOUT}"
    hinted = any(step.hint is not None for step in review.steps)
    facts = words.review_facts(deal, hints=hinted)
    facts = html.escape(facts, quote=False)
    table = (
        '<table style="border-collapse:collapse">'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )
    return (
        '<div class="pyramid-review">'
        f"<p><b>{html.escape(review.summary)}</b><br><small>{facts}</small></p>"
        '<div style="display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start">'
        f"<div>{table}</div>{_picture(review)}</div></div>"
    )


def _picture(review: Review) -> str:
    """The position that matters, as a picture beside the table: before the decisive move,
    with the mistake and the better move marked; else where the game ended."""
    if review._game is None:
        return ""
    if review.mistake is None:
        picture, caption = svg.board(review._game, size=360), words.ENDED_HERE
    else:
        picture = svg.board(
            review.game_at(review.mistake - 1),
            size=360,
            mistake=review[review.mistake].move,
            better=review.better,
        )
        caption = words.before_mistake(review.mistake)
    figcaption = f"<figcaption><small>{caption}</small></figcaption>"
    return f'<figure style="margin:0">{picture}{figcaption}</figure>'
