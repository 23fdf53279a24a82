"""The view state: everything a front end may draw, and nothing the player may not see.

The browser is not trusted with hidden information: whatever a front end (or a curious player
with the developer tools open) does, it can only learn what this module puts in the state. So
the state is built here, in one pure function, from the engine's public accessors:

- the 28 pyramid cards are dealt face up, so their identities are always sent;
- the stock sends only its count, plus its top card when the rules turn that card face up;
- the waste sends its top and a short fan of the cards under it, all of which were turned face
  up when they were drawn;
- legal moves and playable cards only ever name cards in play, which are face up.

No Jupyter import here: the state is a plain JSON-able dict, testable without a kernel.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any

from . import puzzles, words
from .game import Game, Move
from .intents import front_end_actions
from .puzzles import DIFFICULTIES, THEMES
from .rules import PRESETS, Rules
from .svg import WASTE_FAN
from .words import (
    ALREADY_WON,
    GIVE_UP,
    GIVES_UP,
    KEEP_PLAYING,
    NO_HINTS_IN_PUZZLES,
    NO_MOVE_LEFT,
    NOTHING_PLAYED,
    NOTHING_TO_REDO,
    NOTHING_TO_UNDO,
    OPTION_WORDS,
    PAUSED,
    RECORDS_COUNT,
    RECORDS_OFFER,
    SAVING_OFF,
    VERDICT_WORDS,
    capitalised,
    card_label,
    continue_offer,
    controls_text,
    failed,
    latest_losses,
    lost_game,
    sentence,
)

if TYPE_CHECKING:
    from .records import FinishedGame, Records, SavedGame
    from .review import Review

#: Bumped when the shape of the state changes incompatibly, so a front end can tell.
SCHEMA = 1

MAX_FAN = WASTE_FAN
"""How many waste cards a view may show, top included (as many as a picture shows)."""


def _option(default: bool, name: str) -> Any:
    label, help = OPTION_WORDS[name]
    return field(default=default, metadata={"label": label, "help": help})


@dataclass(frozen=True)
class ViewOptions:
    """Display choices that are not rules: they change what a view offers, never legality.
    Each option's label and help, as the board's menu shows them, are `words.OPTION_WORDS`."""

    highlight_partners: bool = _option(True, "highlight_partners")
    auto_pair: bool = _option(False, "auto_pair")
    fair_hints: bool = _option(True, "fair_hints")
    dead_end_notice: bool = _option(False, "dead_end_notice")
    winnable_only: bool = _option(False, "winnable_only")

    waste_fan: int = MAX_FAN
    """How many waste cards to show, top included (1 shows the top alone)."""

    def __post_init__(self) -> None:
        if not 1 <= self.waste_fan <= MAX_FAN:
            raise ValueError(f"waste_fan must be between 1 and {MAX_FAN}, not {self.waste_fan}")


OPTION_FIELDS = tuple(f for f in fields(ViewOptions) if "label" in f.metadata)
OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in OPTION_FIELDS)
"""The options a player can switch on the board (and a notebook through the widget's traits)."""

PASS_CHOICES: tuple[tuple[str, str], ...] = (
    ("1", "1 pass"),
    ("2", "2 passes"),
    ("3", "3 passes"),
    ("unlimited", "unlimited"),
)


def catalog() -> dict[str, Any]:
    """The tables a front end builds its menus from, sent once: the presets with a sentence
    each, the pass choices, the options with their labels and help, the verdicts' words (and
    as titles), the puzzles' themes and difficulties, each preset's Puzzles menu
    (`puzzle_menu`) and the board's fixed words (`words.BOARD_WORDS`). Words arrive
    capitalised where they are shown so: the front end keeps no copy of them and changes none."""
    return {
        "presets": [
            {"name": name, "label": capitalised(name.replace("-", " ")), "summary": rules.summary}
            for name, rules in PRESETS.items()
        ],
        "passes": [{"value": value, "label": label} for value, label in PASS_CHOICES],
        "options": [
            {"name": f.name, "label": f.metadata["label"], "help": f.metadata["help"]}
            for f in OPTION_FIELDS
        ],
        "verdicts": dict(VERDICT_WORDS),
        "give_up": {"question": GIVES_UP, "yes": GIVE_UP, "no": KEEP_PLAYING},
        "actions": front_end_actions(),
        "verdict_titles": {verdict: capitalised(word) for verdict, word in VERDICT_WORDS.items()},
        "puzzles": {
            "themes": [
                {"id": theme.id, "title": theme.title, "meaning": theme.meaning}
                for theme in THEMES.values()
            ],
            "difficulties": [{"id": level, "label": capitalised(level)} for level in DIFFICULTIES],
            "menus": {preset: puzzle_menu(preset) for preset in PRESETS},
            "none": capitalised(words.NO_PUZZLES),
        },
        "words": dict(words.BOARD_WORDS),
    }


def puzzle_menu(preset: str) -> list[dict[str, Any]]:
    """The Puzzles menu under `preset`: each theme that has puzzles ("" first: any theme), and
    under it each difficulty that has some ("" first: any), every choice labelled with how
    many puzzles it holds. A pair of theme and difficulty with no puzzle is not offered."""
    found = puzzles.counts(preset)
    menu = []
    for theme, title in [(None, words.ANY_THEME), *((t.id, t.title) for t in THEMES.values())]:
        levels = [(None, words.ANY_DIFFICULTY), *((d, capitalised(d)) for d in DIFFICULTIES)]
        choices = [
            {"id": level or "", "label": words.puzzle_choice(label, found[theme, level])}
            for level, label in levels
            if found[theme, level]
        ]
        if choices:
            label = words.puzzle_choice(title, found[theme, None])
            menu.append({"id": theme or "", "label": label, "difficulties": choices})
    return menu


@dataclass(frozen=True)
class MoveEvent:
    """What just changed the board; given to `PyramidWidget.on_move` callbacks and sent to the
    views (for their announcements and animations).

    action: "play" (a pair, King, draw or recycle), "undo", "redo", "new" (another deal),
    "restart", "continue" (a saved game taken up), "puzzle" (a puzzle was put on the board),
    "watch" (a strategy's game was), "step" (the board went to another move of the game under
    review), "refresh" or "start" (the widget was just made). move: the move's notation, if any.
    """

    action: str
    move: str | None = None

    def __str__(self) -> str:
        if self.action == "play" and self.move:
            return self.move
        return f"{self.action} {self.move}" if self.move else self.action


def pyramid_statuses(game: Game) -> list[dict[str, str | None]]:
    """The 28 pyramid slots, apex first: each card with "in_play", "covered" or "removed", and
    the label a screen reader reads for it ("Five of Hearts, in play"; None once removed)."""
    exposed = set(game.exposed)
    slots: list[dict[str, str | None]] = []
    for card, original in zip(game.pyramid, game.cards[:28], strict=True):
        if card is None:
            slots.append({"card": str(original), "status": "removed", "label": None})
        else:
            status = "in_play" if card in exposed else "covered"
            slots.append({"card": str(card), "status": status, "label": card_label(card, status)})
    return slots


def deal_view(game: Game, *, chosen: bool, proven: bool | None) -> dict[str, Any]:
    """What the board may say about which deal this is.

    Every deal is a numbered deal or a layout, so its number or code rebuilds the whole stock:
    while a card is unseen, a deal is only named if the player chose it (by number, the daily
    deal, a deal code). Once the game is won or every card has been seen, nothing is secret
    any more. A layout's code spells out the deck, so it waits for that too; sharing hands it
    over on request (the `share` intent), never in the state.
    """
    open_book = game.is_won or game.all_seen
    named = game.deal_number is not None and chosen
    return {
        "code": game.deal_code if named or open_book else None,
        "number": game.deal_number if named or open_book else None,
        "proven": proven,
    }


@dataclass(frozen=True)
class Extras:
    """What the widget adds to the game's own state: the clock, a hint, deals and rules to come.

    elapsed: seconds played (the clock starts with the first move and stops at a win; undo
    never rewinds it); running / paused: its state (views tick it on between states).
    hint: a `hint_view` dict, or None. next_rules: the rules name new deals will use.
    finding_deal: a winnable deal is being searched for. proven: whether this deal was proven
    winnable when it was dealt (None when nobody asked). deal_chosen: the player picked this
    deal (by number, the daily deal, a deal code), so its number may be shown.
    review_refusal: why the review cannot open now (None when it can). puzzle: the puzzle on
    the board (`puzzle_mode.PuzzleRun.view`), or None. at_stake: {"restart": bool, "deal":
    bool}: a restart, or another deal (or saved game), would record the game as lost, so a
    view asks the player first. practice: the game counts as played only (records.py).
    lost_from_start: the deal could not be won from its start (None: not known, or not to be
    said yet: only once the game is over or every card is seen). watch: the strategy playing
    on the board (`watch_mode.WatchMode.view`), or None.
    """

    elapsed: float = 0.0
    running: bool = False
    paused: bool = False
    hint: dict[str, Any] | None = None
    next_rules: str | None = None
    finding_deal: bool = False
    proven: bool | None = None
    offer: dict[str, Any] | None = None
    records: dict[str, Any] | None = None
    review: dict[str, Any] | None = None
    deal_chosen: bool = False
    review_refusal: str | None = None
    puzzle: dict[str, Any] | None = None
    at_stake: dict[str, bool] | None = None
    practice: bool = False
    lost_from_start: bool | None = None
    watch: dict[str, Any] | None = None


CHECKING = {"status": "checking"}


def hint_view(hint: Any) -> dict[str, Any]:
    """The part of a solver `Hint` a view shows: the move to highlight, the hint line
    (`reason`) and the detail a player may open under it (`detail`, "" for none).

    The move is a legal move now, so it names only cards in play; a fair hint's words speak
    only of seen cards. (An all-seeing hint may speak of any card: that is its point.)
    """
    move = getattr(hint, "move", None)
    chance = getattr(hint, "chance", None)
    verdict = str(getattr(hint, "verdict", "unknown"))
    return {
        "status": "done",
        "move": str(move) if move is not None else None,
        "kind": str(getattr(hint, "kind", "none")),
        "verdict": verdict,
        "reason": str(getattr(hint, "reason", "")),
        "detail": str(getattr(hint, "detail", "")),
        "chance": float(chance) if chance is not None else None,
        # Every order of the unseen cards that was tried lost: the sentence says so.
        "looks_lost": verdict == "unknown" and chance == 0.0,
    }


def offer_view(saved: SavedGame | None) -> dict[str, Any] | None:
    """What the Continue offer shows of a saved game: how far it got and how long it took.

    Never its code, layout or cards: the saved position's stock is as secret as the live one's,
    and the player sees the game itself only once it is continued (then through `build_state`).
    """
    if saved is None:
        return None
    game = saved.game
    return {
        "rules": game.rules.name,
        "moves": game.move_count,
        "cleared": game.cleared,
        "elapsed": round(saved.elapsed, 3),
        "text": continue_offer(
            game.rules.name, game.move_count, game.cleared, clock_text(saved.elapsed)
        ),
    }


def clock_text(seconds: float) -> str:
    """Play time as the board's clock shows it: "2:05", "1:02:05".

    >>> clock_text(125), clock_text(3725)
    ('2:05', '1:02:05')
    """
    minutes, secs = divmod(int(max(0.0, seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def records_view(
    records: Records, *, saving: bool, losses: Sequence[FinishedGame] = ()
) -> dict[str, Any]:
    """One rules preset's records for the Records panel, with the sentences that say what
    counts (`saving` is False with store=None or a read-only database; `losses`: the latest
    lost games, so a player can see which games the losses were)."""
    shown = {**records.to_dict(), "win_rate": records.win_rate}
    if not (Rules.parse(records.rules).scoring or records.best_score is not None):
        del shown["best_score"]
    items = [
        {"key": key, "label": label, "value": _record_value(key, shown[key])}
        for key, label in words.RECORD_LABELS.items()
        if key in shown
    ]
    notes = [RECORDS_COUNT]
    if records.losses:
        notes.append(RECORDS_OFFER)
    if losses:
        notes.append(
            latest_losses([lost_game(g.deal_number, g.move_count, g.finished_at) for g in losses])
        )
    if not saving:
        notes.append(SAVING_OFF)
    title = words.records_title(records.rules)
    return {**records.to_dict(), "saving": saving, "title": title, "items": items, "notes": notes}


def _record_value(key: str, value: float | None) -> str:
    """One record as the Records panel shows it: a count, a rate, a time, or a dash."""
    if value is None:
        return words.NO_RECORD
    if key == "win_rate":
        return f"{round(value * 100)}%"
    return clock_text(value) if key == "fastest_win" else str(value)


REVIEWING = {"status": "reviewing"}


def failed_view(what: str, error: Exception) -> dict[str, str]:
    """What the board shows of a hint or a review (`what`) that failed, as a sentence."""
    return {"status": "failed", "reason": sentence(failed(what, error))}


def review_view(review: Review) -> dict[str, Any]:
    """The review table a view shows, one row per move of the game as played.

    Nothing in it can name an unseen card: `move` is a move the player made, `hint` is a fair
    hint's move (cards in play then), `keeps_win` is a legal move of a position the player had
    on the board, and the solver's full winning `line` (which would name cards still to come)
    is left out. The before/after verdicts come from a solver that saw every card, which is
    why the widget only reviews a game that is over or whose every card has been seen.
    """
    rows = [
        {
            "number": step.number,
            "move": step.move,
            "move_text": step.move_text,
            "before": step.before,
            "after": step.after,
            "hint": step.hint,
            "hint_text": step.hint_text,
            "hint_reason": step.hint_reason,
            "followed": step.followed_hint,
            "decisive": step.decisive,
            "keeps_win": step.keeps_win,
            "keeps_win_text": step.keeps_win_text,
            "note": words.slipped_away(step.keeps_win_text) if step.decisive else None,
            "step_label": words.step_label(step.number, step.move_text),
        }
        for step in review.steps
    ]
    return {
        "status": "done",
        "summary": review.summary,
        "outcome": review.outcome,
        "mistake": review.mistake,
        "better": review.better,
        "better_text": review.better_text,
        "hints": any(step.hint is not None or step.hint_verdict for step in review.steps),
        "columns": [capitalised(name) for name in (*words.REVIEW_COLUMNS, words.REVIEW_NOTE)],
        "rows": rows,
        "end": len(rows),
    }


def rules_view(rules: Rules, options: ViewOptions) -> dict[str, Any]:
    """The rules a view names and explains: the settings, and the Rules panel's sections
    (how to play under exactly these rules, then the controls)."""
    controls = controls_text(stock_in_play=rules.stock_in_play, auto_pair=options.auto_pair)
    sections = [*rules.explained, ("Controls", controls)]
    return {
        **_rules_summary(rules),
        "explained": [{"title": title, "text": text} for title, text in sections],
    }


def _rules_summary(rules: Rules) -> dict[str, Any]:
    return {"name": rules.name, **rules.to_dict(), "passes_choice": rules.passes_text}


def controls_view(
    game: Game, *, paused: bool, review_refusal: str | None, puzzle: bool = False
) -> dict[str, dict[str, Any]]:
    """Which buttons can do something now, and for those that cannot, the sentence saying why
    (a greyed button's tooltip). `review_refusal` is the session's word on the review."""

    def control(*reasons: str | None) -> dict[str, Any]:
        why = next((reason for reason in reasons if reason), None)
        return {"enabled": why is None, "why": None if why is None else sentence(why)}

    won = ALREADY_WON if game.is_won else None
    stuck = NO_MOVE_LEFT if game.outcome == "stuck" else None
    hold = PAUSED if paused else None
    return {
        "hint": control(won, stuck, hold, NO_HINTS_IN_PUZZLES if puzzle else None),
        "undo": control(hold, None if game.can_undo else NOTHING_TO_UNDO),
        "redo": control(hold, None if game.can_redo else NOTHING_TO_REDO),
        "recycle": control(hold, game.recycle_refusal),
        "pause": control(won),
        "review": control(review_refusal),
        "restart": control(None if game.can_undo or game.can_redo else NOTHING_PLAYED),
    }


def narration_view(game: Game, event: MoveEvent, extras: Extras, options: ViewOptions) -> Any:
    """What the board says of the change `event` made: a won, stuck or dead-end game is said
    and stays under the table (`lasting`) until the position changes; anything else is only
    spoken. None when there is nothing to say."""
    if game.is_won:
        return {"text": words.won_in(game.move_count), "lasting": True}
    if game.outcome == "stuck":
        return {"text": words.OUT_OF_MOVES_SAID, "lasting": True}
    if options.dead_end_notice and game.is_dead_end:
        return {"text": words.DEAD_END_SAID, "lasting": True}
    action, move = event.action, Move.parse(event.move) if event.move else None
    text = None
    if action in ("play", "redo") and move is not None:
        text = (
            words.turned(game.waste_top) if move.kind == "draw"
            else words.recycled(game.pass_number) if move.kind == "recycle"
            else words.removed(move.text)
        )  # fmt: skip
    elif action == "undo":
        text = words.took_back(None if move is None else words.move_named(move.kind, move.text))
    elif action in ("new", "restart", "continue", "step"):
        text = {
            "new": words.NEW_DEAL,
            "restart": words.DEAL_RESTARTED,
            "continue": words.continued(game.move_count),
            "step": words.stepped(game.move_count),
        }[action]
    elif action == "watch" and extras.watch is not None:
        text = words.watching(extras.watch["player"], extras.watch["said"])
    elif action == "puzzle" and extras.puzzle is not None:
        puzzle = extras.puzzle
        text = words.puzzle_opened(puzzle["number"], puzzle["count"], puzzle["prompt"])
    return None if text is None else {"text": text, "lasting": False}


def _hint_shown(extras: Extras) -> dict[str, Any] | None:
    """The hint as the board shows it: one that finds no win on a deal lost from its start
    says so, not "undo to an earlier position"."""
    hint = extras.hint
    if hint and extras.lost_from_start and hint.get("verdict") == "unwinnable":
        return {**hint, "reason": words.LOST_HINT}
    return hint


def notice_view(game: Game, extras: Extras, options: ViewOptions) -> dict[str, Any] | None:
    """The notice over the table, if any: its `kind` (which says what it offers: "paused",
    "won", "puzzle_solved", "lost" (from the start), "unwinnable" (an all-seeing hint said
    so), "stuck" or "dead_end"), its `title` and its `lines`."""

    def notice(kind: str, title: str, *lines: str) -> dict[str, Any]:
        shown = [line for line in lines if line]
        return {"kind": kind, "title": title, "lines": shown, "spoken": words.spoken(title, shown)}

    practice = words.PRACTICE if extras.practice else ""
    hint = extras.hint or {}
    if extras.paused:
        return notice("paused", words.PAUSED_TITLE, words.PAUSED_LINE)
    if game.is_won and extras.puzzle is not None:
        puzzle = extras.puzzle
        return notice("puzzle_solved", words.PUZZLE_SOLVED_TITLE, puzzle["said"], puzzle["tally"])
    if game.is_won:
        score = game.score if game.rules.scoring else None
        lines = words.won_lines(clock_text(extras.elapsed), game.move_count, game.cleared, score)
        return notice("won", words.WON_TITLE, *lines, practice)
    if extras.lost_from_start and (game.outcome == "stuck" or hint.get("verdict") == "unwinnable"):
        return notice("lost", words.LOST_FROM_START, words.LOST_OFFER, practice)
    if hint.get("status") == "done" and hint.get("verdict") == "unwinnable":
        return notice(
            "unwinnable", words.capitalised(words.verdict_words("unwinnable")), hint["reason"]
        )
    if game.outcome == "stuck":
        return notice(
            "stuck", words.OUT_OF_MOVES, words.STUCK_LINE, practice or words.STUCK_NOT_LOST
        )
    if options.dead_end_notice and game.is_dead_end:
        return notice("dead_end", words.DEAD_END_TITLE, words.DEAD_END_LINE)
    return None


def build_state(
    game: Game,
    *,
    version: int,
    position_version: int | None = None,
    options: ViewOptions | None = None,
    event: MoveEvent | None = None,
    extras: Extras | None = None,
) -> dict[str, Any]:
    """The state a view renders, for `game` at `version`.

    `position_version` is the version at which the position last changed (this one by
    default): views announce a move once, not again when only an option changed.
    `event` is the change that produced this state (see `MoveEvent`); a start by default.
    """
    options = options or ViewOptions()
    extras = extras or Extras()
    event = event or MoveEvent("start")
    deal = deal_view(game, chosen=extras.deal_chosen, proven=extras.proven)
    rules = game.rules
    waste = game.waste
    stock_top = game.stock_top
    return {
        "schema": SCHEMA,
        "version": version,
        "position_version": version if position_version is None else position_version,
        "deal": deal,
        "rules": rules_view(rules, options),
        "controls": controls_view(
            game,
            paused=extras.paused,
            review_refusal=extras.review_refusal,
            puzzle=extras.puzzle is not None,
        ),
        "puzzle": extras.puzzle,
        "pyramid": pyramid_statuses(game),
        "stock": {
            "count": game.stock_count,
            "top": str(stock_top) if stock_top is not None else None,
            "label": words.stock_words(
                game.stock_count,
                stock_top,
                PAUSED if extras.paused else game.recycle_refusal,
                tap=True,
            ),
        },
        "waste": {
            "count": len(waste),
            "top": str(waste[-1]) if waste else None,
            "fan": [str(card) for card in waste[-options.waste_fan :]] if waste else [],
            "label": words.waste_words(len(waste)),
            "top_label": card_label(waste[-1], "waste_top") if waste else None,
        },
        "playable": [str(card) for card in game.in_play],
        "selectable": [] if options.auto_pair else [str(card) for card in game.selectable],
        "legal": [str(move) for move in game.legal_moves()],
        "status": {
            "cleared": game.cleared,
            "moves": game.move_count,
            "pass": game.pass_number,
            "passes": rules.passes,
            "passes_left": game.passes_left,
            "score": game.score if rules.scoring else None,
            "can_undo": game.can_undo,
            "can_redo": game.can_redo,
            "recycle_refusal": game.recycle_refusal,
            "outcome": game.outcome,
            "dead_end": options.dead_end_notice and game.is_dead_end,
            "items": words.board_status(
                game.cleared,
                words.pass_words(game.pass_number, rules.passes),
                game.stock_count,
                game.move_count,
                game.score if rules.scoring else None,
                deal["number"],
                extras.proven,
            ),
        },
        "clock": {
            "elapsed": round(extras.elapsed, 3),
            "running": extras.running,
            "paused": extras.paused,
        },
        "hint": _hint_shown(extras),
        "notice": notice_view(game, extras, options),
        "next_rules": _rules_summary(
            Rules.parse(extras.next_rules) if extras.next_rules else rules
        ),
        "finding_deal": extras.finding_deal,
        "at_stake": extras.at_stake or {"restart": False, "deal": False},
        "offer": extras.offer,
        "records": extras.records,
        "review": extras.review,
        "watch": extras.watch,
        "event": asdict(event),
        "narration": narration_view(game, event, extras, options),
        "options": asdict(options),
    }
