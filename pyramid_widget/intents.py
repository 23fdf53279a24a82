"""Intents: what a front end asks for, checked for its form, and carried out on the session.

A front end sends custom messages such as
``{"type": "intent", "seq": 4, "view": "v1", "version": 12, "action": "tap",
"target": "8c", "selected": "5h"}``. Each gets exactly one answer,
``{"type": "ack", "seq": 4, "view": "v1", "ok": bool, "reason": str | None,
"said": str | None, "move": notation | None}``, whether it was applied, refused by the
engine, malformed or stale: `reason` is the refusal as code reads it, `said` the same as a
sentence, as the board shows it ("share" adds the deal's "code"; a tap that selects a card
adds "select").

`ACTIONS` is the protocol, written once: each action's fields with their types and the session
call it makes. Parsing, dispatch, the `catalog` the front end reads and the front end's JSDoc
`Request` type all come from it. This module decides nothing about the game: what a tap means
is `Game.tap_move`'s, legality is the engine's, and a refusal is passed on word for word. The
one thing decided here is whether a message is well formed and still about the board the
player saw. It never imports Jupyter, so every path can be unit tested.
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .cards import Card
from .game import PILES, IllegalMove, Move
from .words import ANSWERED, GIVES_UP, NOTHING_TO_CONTINUE, quoted, sentence

if TYPE_CHECKING:
    from .session import GameSession


class BadIntent(ValueError):
    """A message that cannot be acted on (malformed, unknown or stale), with the reason why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


MAX_VIEW_ID = 100
MAX_SEQ = 2**53 - 1  # the largest whole number JavaScript counts exactly
MAX_DEPTH = 20


# ------------------------------------------------------------------ fields
def _int(value: Any) -> bool:
    """True for a JSON integer (bool is an int subclass in Python, but not in JSON)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _card(value: Any, key: str) -> Card:
    if not isinstance(value, str):
        raise BadIntent(f"a card must be written as text like '5h', not {quoted(value)}")
    try:
        return Card.parse(value)
    except ValueError:
        raise BadIntent(f"unknown card {quoted(value)}") from None


def _target(value: Any, key: str) -> Card | str:
    return value if value in PILES else _card(value, key)


def _face(value: Any, key: str) -> str:
    if value in ("back", "empty"):
        return value
    return str(_card(value, key))


def _two_cards(value: Any, key: str) -> tuple[Card, Card]:
    if not isinstance(value, list) or len(value) != 2:
        raise BadIntent(f"'{key}' must be a list of two cards")
    first, second = _card(value[0], key), _card(value[1], key)
    if first == second:
        raise BadIntent("a pair needs two different cards")
    return first, second


def _count(value: Any, key: str) -> int:
    if not _int(value) or value < 0:
        raise BadIntent(f"'{key}' must be a whole number, 0 or more")
    return value


def _flag(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise BadIntent(f"'{key}' must be true or false")
    return value


def _text(value: Any, key: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise BadIntent(f"'{key}' must be non-empty text")
    return value.strip()


def _step(value: Any, key: str) -> int:
    if value not in (1, -1) or isinstance(value, bool):
        raise BadIntent(f"'{key}' must be 1 (the next puzzle) or -1 (the previous one)")
    return value


@dataclass(frozen=True)
class Field:
    """One field of an action: how it is read and checked, and its type in the front end."""

    read: Callable[[Any, str], Any]
    js: str
    required: bool = False
    default: Any = None

    def value(self, content: Mapping[str, Any], key: str) -> Any:
        raw = content.get(key)
        if raw is None and not self.required:
            return self.default
        return self.read(raw, key)


CARD = Field(_card, "CardCode")
TARGET = Field(_target, 'CardCode | "stock" | "waste"', required=True)
PAIR = Field(_two_cards, "[CardCode, CardCode]", required=True)
COUNT = Field(_count, "number")
FLAG = Field(_flag, "boolean", default=False)
TEXT = Field(_text, "string")
FACE = Field(_face, 'CardCode | "back" | "empty"')


def _needed(spec: Field) -> Field:
    return Field(spec.read, spec.js, required=True)


@dataclass(frozen=True)
class Action:
    """One thing a front end may ask for.

    `fields`: the message's keys and how each is checked; `call(session, fields)` is what it
    asks of the session (the fields are checked by then); `check` refuses combinations of
    fields; `positional` actions carry the version of the board they were made on. While
    `leaves(session)` says the action would give up a game that counts (a restart, another
    deal, another saved game), it is refused unless it says `give_up`: the front end asks the
    player first (a call from Python does not ask: the caller decided).
    """

    call: Callable[[GameSession, dict[str, Any]], Any]
    fields: Mapping[str, Field] = field(default_factory=dict)
    check: Callable[[dict[str, Any]], None] | None = None
    positional: bool = False
    leaves: Callable[[GameSession], bool] | None = None


def _pile_face_given(fields: dict[str, Any]) -> None:
    if fields["target"] in PILES and fields["face"] is None:
        raise BadIntent("a tap on a pile needs the 'face' the player saw on it")


def _one_way_to_deal(fields: dict[str, Any]) -> None:
    chosen = (fields["number"] is not None, fields["daily"], fields["code"] is not None)
    if sum(chosen) > 1:
        raise BadIntent("a new deal takes at most one of 'number', 'daily' and 'code'")


def _one_way_to_a_puzzle(fields: dict[str, Any]) -> None:
    picked = [key for key in ("id", "theme", "difficulty") if fields[key] is not None]
    if fields["step"] is not None and (picked or fields["rules"] is not None):
        raise BadIntent("a puzzle step takes no id, theme, difficulty or rules")
    if "id" in picked and len(picked) > 1:
        raise BadIntent("a puzzle by id takes no theme or difficulty")


def _continue(session: GameSession) -> Any:
    if session.continue_saved() is None:
        raise BadIntent(NOTHING_TO_CONTINUE)


def _puzzle(session: GameSession, f: dict[str, Any]) -> Any:
    if f["step"] is not None:
        return session.puzzles.step(f["step"])
    return session.puzzles.open(
        f["id"], theme=f["theme"], difficulty=f["difficulty"], rules=f["rules"]
    )


#: The protocol: every action a front end may send, its fields and the session call it makes.
#: A tap is every click or key on a card or a pile (`Game.tap_move` says what it means); a
#: pair is a drag of one card onto another.
ACTIONS: Mapping[str, Action] = MappingProxyType(
    {
        "tap": Action(
            lambda s, f: s.tap(f["target"], f["selected"], face=f["face"]),
            {"target": TARGET, "selected": CARD, "face": FACE},
            check=_pile_face_given,
            positional=True,
        ),
        "pair": Action(
            lambda s, f: s.play(Move.pair(*f["cards"])), {"cards": PAIR}, positional=True
        ),
        "draw": Action(lambda s, f: s.draw()),
        "recycle": Action(lambda s, f: s.recycle()),
        "undo": Action(lambda s, f: s.undo()),
        "redo": Action(lambda s, f: s.redo()),
        "restart": Action(
            lambda s, f: s.restart(), {"give_up": FLAG}, leaves=lambda s: s.at_stake("board")
        ),
        "new": Action(
            lambda s, f: s.request_new_deal(number=f["number"], daily=f["daily"], code=f["code"]),
            {"number": COUNT, "daily": FLAG, "code": TEXT, "give_up": FLAG},
            check=_one_way_to_deal,
            leaves=lambda s: s.at_stake("game"),
        ),
        "hint": Action(lambda s, f: s.hints.request()),
        "dismiss": Action(lambda s, f: s.hints.dismiss()),
        "pause": Action(lambda s, f: s.pause(**f), {"auto": FLAG}),
        "unpause": Action(lambda s, f: s.unpause(**f), {"auto": FLAG}),
        "option": Action(
            lambda s, f: s.set_option(f["name"], f["value"]),
            {"name": _needed(TEXT), "value": _needed(FLAG)},
        ),
        "rules": Action(lambda s, f: s.set_next_rules(f["name"]), {"name": _needed(TEXT)}),
        "share": Action(lambda s, f: s.share()),
        "continue": Action(
            lambda s, f: _continue(s),
            {"give_up": FLAG},
            leaves=lambda s: s.at_stake("game") and s.offer is not None,
        ),
        "review": Action(lambda s, f: s.reviews.request()),
        "review_step": Action(lambda s, f: s.reviews.step(f["moves"]), {"moves": _needed(COUNT)}),
        "review_close": Action(lambda s, f: s.reviews.close()),
        "puzzle": Action(
            _puzzle,
            {
                "id": TEXT,
                "theme": TEXT,
                "difficulty": TEXT,
                "rules": TEXT,
                "step": Field(_step, "1 | -1"),
            },
            check=_one_way_to_a_puzzle,
        ),
        "puzzle_answer": Action(lambda s, f: s.puzzles.show_answer()),
        "puzzle_close": Action(lambda s, f: s.puzzles.close()),
        "watch_pause": Action(lambda s, f: s.watching.pause()),
        "watch_resume": Action(lambda s, f: s.watching.resume()),
        "watch_step": Action(lambda s, f: s.watching.step()),
        "watch_take_over": Action(lambda s, f: s.watching.take_over()),
        "watch_stop": Action(lambda s, f: s.watching.stop()),
    }
)


@dataclass(frozen=True)
class Intent:
    """A well-formed request from a front end: its envelope and its checked fields."""

    seq: int
    action: str
    view: str | None = None
    version: int | None = None
    fields: Mapping[str, Any] = field(default_factory=dict)


def _plain(value: Any, depth: int = 0) -> Any:
    """The message as JSON reads in Python everywhere: Pyodide hands JavaScript's null over as
    its own `jsnull` object, not None, so it is turned into None here, at the door."""
    if depth > MAX_DEPTH:
        raise BadIntent("a message is nested too deeply")
    if type(value).__name__ == "JsNull":
        return None
    if isinstance(value, dict):
        return {key: _plain(item, depth + 1) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item, depth + 1) for item in value]
    return value


def parse_intent(content: Any) -> Intent:
    """Check a message's shape and return the `Intent`; raise `BadIntent` saying what is wrong."""
    content = _plain(content)
    if not isinstance(content, dict):
        raise BadIntent("a message must be an object")
    if content.get("type") != "intent":
        raise BadIntent(f"unknown message type {quoted(content.get('type'))}")
    seq = content.get("seq")
    if not _int(seq) or not 0 <= seq <= MAX_SEQ:
        raise BadIntent(
            "an intent needs a sequence number 'seq' (a whole number from 0 to 2**53 - 1)"
        )
    view = content.get("view")
    if view is not None and (not isinstance(view, str) or len(view) > MAX_VIEW_ID):
        raise BadIntent(f"'view' must be text of at most {MAX_VIEW_ID} characters")
    name = content.get("action")
    if not isinstance(name, str) or name not in ACTIONS:
        raise BadIntent(
            f"unknown action {quoted(name)}; expected one of {', '.join(sorted(ACTIONS))}"
        )
    action = ACTIONS[name]
    version = content.get("version")
    if version is not None and (not _int(version) or version < 0):
        raise BadIntent("'version' must be a whole number, 0 or more")
    if action.positional and version is None:
        raise BadIntent(f"a {name} needs the 'version' of the board it was made on")
    fields = {key: spec.value(content, key) for key, spec in action.fields.items()}
    if action.check is not None:
        action.check(fields)
    return Intent(seq=seq, action=name, view=view, version=version, fields=fields)


def ack(
    intent_or_seq: Intent | Any,
    ok: bool,
    reason: str | None,
    move: Move | None,
    **extra: Any,
) -> dict:
    """The answer to a message (a bad message gets its `seq` echoed back only if it had one)."""
    if isinstance(intent_or_seq, Intent):
        seq, view = intent_or_seq.seq, intent_or_seq.view
    else:
        content = intent_or_seq if isinstance(intent_or_seq, dict) else {}
        seq = content.get("seq") if _int(content.get("seq")) else None
        view = content.get("view") if isinstance(content.get("view"), str) else None
    return {
        "type": "ack",
        "seq": seq,
        "view": view,
        "ok": ok,
        "reason": reason,
        "said": None if reason is None else sentence(reason),
        "move": str(move) if move is not None else None,
        **extra,
    }


def _answer(intent: Intent, done: Any) -> dict:
    """The ack of an applied intent: the move it made, the card a tap selected, a shared code."""
    if isinstance(done, Move):
        return ack(intent, True, None, done)
    if isinstance(done, Card):
        return ack(intent, True, None, None, select=str(done))
    if intent.action == "share":
        return ack(intent, True, None, None, code=done)
    return ack(intent, True, None, None)


class Inbox:
    """What each view's intents were answered, so that a message delivered twice is applied
    at most once: a repeat gets its first ack again. A view numbers its intents upwards, so
    anything at or below the highest number a view has sent is refused once its ack is no
    longer kept. Acks are kept for the latest views, within a size; the highest numbers for
    many more views, so none is forgotten while its page could still send again."""

    KEEP = 64  # acks kept per view
    VIEWS = 32  # views whose acks are kept (the oldest is forgotten first)
    BYTES = 1 << 20  # the acks kept, in all (JSON bytes)
    SEEN = 10_000  # views whose highest number is kept

    def __init__(self) -> None:
        self._acks: dict[str | None, dict[int, tuple[dict, int]]] = {}
        self._highest: dict[str | None, int] = {}
        self._bytes = 0

    def answer(self, intent: Intent) -> dict | None:
        """The ack this intent already got, a refusal if it is too old to tell, or None."""
        kept = self._acks.get(intent.view, {}).get(intent.seq)
        if kept is not None:
            return dict(kept[0])
        if intent.seq <= self._highest.get(intent.view, -1):
            return ack(intent, False, ANSWERED, None)
        return None

    def keep(self, intent: Intent, answer: dict) -> None:
        view, size = intent.view, len(json.dumps(answer))
        acks = self._acks.pop(view, {})
        acks[intent.seq] = (answer, size)
        self._acks[view] = acks  # the latest view last
        self._bytes += size
        self._highest[view] = max(self._highest.pop(view, -1), intent.seq)
        while len(acks) > self.KEEP:
            self._forget(view, min(acks))
        while len(self._acks) > self.VIEWS or self._bytes > self.BYTES:
            oldest = next(iter(self._acks))
            self._forget(oldest, min(self._acks[oldest]))
        while len(self._highest) > self.SEEN:
            del self._highest[next(iter(self._highest))]

    def _forget(self, view: str | None, seq: int) -> None:
        acks = self._acks[view]
        self._bytes -= acks.pop(seq)[1]
        if not acks:
            del self._acks[view]


class Desk:
    """Where one board's messages arrive: each is checked, applied to the session at most once
    per view (under the session's lock), and answered.

    >>> from pyramid_widget.session import GameSession
    >>> desk = Desk(GameSession("classic", deal=3, store=None, threads=False))
    >>> desk.handle({"type": "intent", "seq": 1, "view": "v", "action": "draw"})["move"]
    'draw'
    """

    def __init__(self, session: GameSession) -> None:
        self.session = session
        self.inbox = Inbox()

    def handle(self, content: Any) -> dict | None:
        """Answer one message: apply it through the session or say why not.

        Never raises for anything a front end can send: a malformed or stale message, or a
        move the engine refuses, becomes an ack with ok=False and the reason, and changes
        nothing; an unexpected error (a bug, never the message's fault) is printed and
        answered as an internal error. Returns None only for anywidget's own command
        messages, which are not ours to answer.
        """
        if isinstance(content, dict) and content.get("kind") == "anywidget-command":
            return None
        try:
            intent = parse_intent(content)
        except BadIntent as error:
            return ack(content, False, error.reason, None)
        with self.session.lock:
            try:
                answer = self.inbox.answer(intent) or self._apply(intent)
            except Exception as error:
                traceback.print_exc(file=sys.stderr)
                return ack(intent, False, f"internal error: {error}", None)
            self.inbox.keep(intent, answer)
            return answer

    def _apply(self, intent: Intent) -> dict:
        session, action = self.session, ACTIONS[intent.action]
        try:
            if action.positional and intent.version > session.version:
                raise BadIntent(f"version {intent.version} is newer than the board's")
            if action.leaves and not intent.fields["give_up"] and action.leaves(session):
                raise BadIntent(GIVES_UP)
            return _answer(intent, action.call(session, dict(intent.fields)))
        except (BadIntent, IllegalMove) as error:
            return ack(intent, False, error.reason, None)
        except (ValueError, TypeError) as error:
            # A deal number, code, rules name or option the engine or session refuses.
            return ack(intent, False, str(error), None)


# ------------------------------------------------------------------ the front end's view of it
def front_end_actions() -> dict[str, list[str]]:
    """For the `catalog` trait: each action and its fields, so the front end's list is this
    table's."""
    return {name: list(action.fields) for name, action in ACTIONS.items()}


def request_typedef() -> str:
    """The JSDoc `Request` type of js/widget.js, written from `ACTIONS` (a test keeps the two
    the same: paste this between the file's `<actions>` markers when the table changes)."""

    def shape(name: str, action: Action) -> str:
        parts = [f'action: "{name}"']
        for key, spec in action.fields.items():
            parts.append(f"{key}{'' if spec.required else '?'}: {spec.js}")
        return "{" + ", ".join(parts) + "}"

    lines = [f" *   | {shape(name, action)}" for name, action in ACTIONS.items()]
    lines[0] = " * @typedef {" + lines[0][len(" *   | ") :]
    return "\n".join([*lines, " * } Request"])
