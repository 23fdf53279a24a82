"""Intents: what a front end asks for, checked for its form, and translated into a call.

A front end sends custom messages such as
``{"type": "intent", "seq": 4, "view": "v1", "version": 12, "action": "tap",
"target": "8c", "selected": "5h"}``. Each gets exactly one answer,
``{"type": "ack", "seq": 4, "view": "v1", "ok": bool, "reason": str | None,
"move": notation | None}``, whether it was applied, refused by the engine, malformed or stale
("share" adds the deal's "code"; a tap that selects a card adds "select").

Actions and their fields: tap {target: a card or "stock" or "waste", selected?: a card,
version} (every click or key on a card or a pile), pair {cards: [a, b], version} (a drag),
draw, recycle, undo, redo, restart, new {number? | daily? | code?}, hint, dismiss (the hint),
pause {auto?}, unpause {auto?} (the end of a pause), option {name, value}, rules {name} (for
the next deal), share, continue (take up the saved game on offer), review (review the game),
review_step {moves} (show the reviewed game after that many of its moves), review_close,
puzzle {id? | step? (1 or -1) | theme?, difficulty?} (puzzle mode), puzzle_close.

This module decides nothing about the game: what a tap means is `Game.tap_move`'s, legality is
the engine's, and its refusal is passed on word for word. The one thing decided here is whether
a message is well formed and still about the board the player saw. It never imports Jupyter:
`handle` takes the message and a `Session` (a `GameSession`, or anything with the same few
methods), so every path can be unit tested.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from .cards import Card
from .game import PILES, IllegalMove, Move


class Session(Protocol):
    """What `handle` needs from the object that owns the game (`session.GameSession`)."""

    @property
    def version(self) -> int:
        """The version of the state last sent to the views."""
        ...

    @property
    def position_version(self) -> int:
        """The state version at which the position (or the deal) last changed."""
        ...

    def tap(self, target: Card | str, selected: Card | None = None) -> Move | Card: ...

    def play(self, move: Move | str) -> Move: ...

    def draw(self) -> Move: ...

    def recycle(self) -> Move: ...

    def undo(self) -> Move: ...

    def redo(self) -> Move: ...

    def restart(self) -> Any: ...

    def request_new_deal(
        self, *, number: int | None = None, daily: bool = False, code: str | None = None
    ) -> Any: ...

    def request_hint(self) -> Any: ...

    def dismiss_hint(self) -> Any: ...

    def pause(self, *, auto: bool = False) -> Any: ...

    def unpause(self, *, auto: bool = False) -> Any: ...

    def continue_saved(self) -> Any: ...

    def request_review(self) -> Any: ...

    def step_review(self, moves: int) -> Any: ...

    def close_review(self) -> Any: ...

    def set_option(self, name: str, value: bool) -> Any: ...

    def set_next_rules(self, rules: str) -> Any: ...

    def share(self) -> str: ...

    def open_puzzle(
        self, which: str | None = None, *, theme: str | None = None, difficulty: str | None = None
    ) -> Any: ...

    def step_puzzle(self, step: int) -> Any: ...

    def close_puzzle(self) -> Any: ...


class BadIntent(ValueError):
    """A message that cannot be acted on (malformed, unknown or stale), with the reason why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


#: Taps and pairs carry the state version that the view rendered. A tap on a pile means what
#: that pile showed (the stock's top card, whether it was empty), so it is refused as stale if
#: the position changed since; a tap on a card and a pair name the cards they move, so they
#: stand on any board where the engine allows them (quick taps on two Kings both go). Draw,
#: recycle, undo and redo mean the same on any board (a quick double tap does it twice); new
#: deal and restart throw the position away anyway.
POSITIONAL = frozenset({"tap", "pair"})

#: Actions that are one call on the session with no fields.
CALLS: dict[str, Callable[[Session], Any]] = {
    "draw": lambda session: session.draw(),
    "recycle": lambda session: session.recycle(),
    "undo": lambda session: session.undo(),
    "redo": lambda session: session.redo(),
    "restart": lambda session: session.restart(),
    "hint": lambda session: session.request_hint(),
    "dismiss": lambda session: session.dismiss_hint(),
    "review": lambda session: session.request_review(),
    "review_close": lambda session: session.close_review(),
    "puzzle_close": lambda session: session.close_puzzle(),
}
ACTIONS = (
    POSITIONAL
    | set(CALLS)
    | {
        "new",
        "pause",
        "unpause",
        "option",
        "rules",
        "share",
        "continue",
        "review_step",
        "puzzle",
    }
)

#: A saved game is continued only on request, and the widget says why it cannot be.
NOTHING_TO_CONTINUE = "there is no saved game of these rules to continue"

STALE = "the board changed before that move arrived; nothing was done"
ANSWERED = "that message was answered long ago; nothing was done"
MAX_VIEW_ID = 100
MAX_DEPTH = 20


class Inbox:
    """What each view's intents were answered, so that a message delivered twice is applied
    at most once: a repeat gets its first ack again. A view numbers its intents upwards, so
    anything at or below the highest number seen that is no longer remembered is refused."""

    KEEP = 64  # acks remembered per view
    VIEWS = 32  # views remembered (the oldest is forgotten first)

    def __init__(self) -> None:
        self._views: dict[str | None, tuple[int, dict[int, dict]]] = {}

    def answer(self, intent: Intent) -> dict | None:
        """The ack this intent already got, a refusal if it is too old to tell, or None."""
        highest, acks = self._views.get(intent.view, (-1, {}))
        if intent.seq in acks:
            return dict(acks[intent.seq])
        if intent.seq <= highest:
            return ack(intent, False, ANSWERED, None)
        return None

    def keep(self, intent: Intent, answer: dict) -> None:
        highest, acks = self._views.pop(intent.view, (-1, {}))
        acks[intent.seq] = answer
        while len(acks) > self.KEEP:
            del acks[min(acks)]
        self._views[intent.view] = (max(highest, intent.seq), acks)
        while len(self._views) > self.VIEWS:
            del self._views[next(iter(self._views))]


@dataclass(frozen=True)
class Intent:
    """A well-formed request from a front end."""

    seq: int
    action: str
    view: str | None = None
    version: int | None = None
    target: Card | str | None = None
    cards: tuple[Card, ...] = ()
    number: int | None = None
    daily: bool = False
    code: str | None = None
    name: str | None = None
    value: bool | None = None
    auto: bool = False
    moves: int | None = None
    step: int | None = None
    theme: str | None = None
    difficulty: str | None = None


def _int(value: Any) -> bool:
    """True for a JSON integer (bool is an int subclass in Python, but not in JSON)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _card(text: Any) -> Card:
    if not isinstance(text, str):
        raise BadIntent(f"a card must be written as text like '5h', not {text!r}")
    try:
        return Card.parse(text)
    except ValueError:
        raise BadIntent(f"unknown card {text!r}") from None


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
        raise BadIntent(f"unknown message type {content.get('type')!r}")
    seq = content.get("seq")
    if not _int(seq) or seq < 0:
        raise BadIntent("an intent needs a sequence number 'seq' (a whole number, 0 or more)")
    view = content.get("view")
    if view is not None and (not isinstance(view, str) or len(view) > MAX_VIEW_ID):
        raise BadIntent(f"'view' must be text of at most {MAX_VIEW_ID} characters")
    action = content.get("action")
    if not isinstance(action, str) or action not in ACTIONS:
        raise BadIntent(f"unknown action {action!r}; expected one of {', '.join(sorted(ACTIONS))}")
    version = content.get("version")
    if version is not None and (not _int(version) or version < 0):
        raise BadIntent("'version' must be a whole number, 0 or more")
    if action in POSITIONAL and version is None:
        raise BadIntent(f"a {action} needs the 'version' of the board it was made on")

    extra: dict[str, Any] = {}
    if action == "tap":
        target = content.get("target")
        extra["target"] = target if target in PILES else _card(target)
        selected = content.get("selected")
        extra["cards"] = () if selected is None else (_card(selected),)
    elif action == "pair":
        raw = content.get("cards")
        if not isinstance(raw, list) or len(raw) != 2:
            raise BadIntent("a pair needs 'cards': a list of two cards")
        extra["cards"] = (_card(raw[0]), _card(raw[1]))
        if extra["cards"][0] == extra["cards"][1]:
            raise BadIntent("a pair needs two different cards")
    elif action == "new":
        extra.update(_new_deal_fields(content))
    elif action in ("pause", "unpause"):
        extra["auto"] = _flag(content, "auto", default=False)
    elif action == "option":
        extra["name"] = _text(content, "name")
        extra["value"] = _flag(content, "value", default=None)
    elif action == "rules":
        extra["name"] = _text(content, "name")
    elif action == "puzzle":
        extra.update(_puzzle_fields(content))
    elif action == "review_step":
        moves = content.get("moves")
        if not _int(moves) or moves < 0:
            raise BadIntent("a review step needs 'moves': a whole number, 0 or more")
        extra["moves"] = moves
    return Intent(seq=seq, action=action, view=view, version=version, **extra)


def _text(content: dict, key: str) -> str:
    value = content.get(key)
    if not isinstance(value, str) or not value.strip():
        raise BadIntent(f"'{key}' must be non-empty text")
    return value.strip()


def _flag(content: dict, key: str, default: bool | None) -> bool:
    value = content.get(key, default)
    if not isinstance(value, bool):
        raise BadIntent(f"'{key}' must be true or false")
    return value


def _puzzle_fields(content: dict) -> dict[str, Any]:
    """A puzzle by id, the next or previous one (step 1 or -1), or the first one with a theme
    and a difficulty (either may be left out)."""
    fields: dict[str, Any] = {}
    for key in ("id", "theme", "difficulty"):
        if content.get(key) is not None:
            fields["name" if key == "id" else key] = _text(content, key)
    step = content.get("step")
    if step is not None:
        if step not in (1, -1) or isinstance(step, bool):
            raise BadIntent("'step' must be 1 (the next puzzle) or -1 (the previous one)")
        if fields:
            raise BadIntent("a puzzle step takes no id, theme or difficulty")
        fields["step"] = step
    if "name" in fields and len(fields) > 1:
        raise BadIntent("a puzzle by id takes no theme or difficulty")
    return fields


def _new_deal_fields(content: dict) -> dict[str, Any]:
    """A new deal is random, or one of: a deal number, today's deal, a shared code."""
    number = content.get("number")
    if number is not None and (not _int(number) or number < 0):
        raise BadIntent("a deal number must be a whole number, 0 or more")
    daily = _flag(content, "daily", default=False)
    code = content.get("code")
    if code is not None:
        code = _text(content, "code")
    if sum((number is not None, daily, code is not None)) > 1:
        raise BadIntent("a new deal takes at most one of 'number', 'daily' and 'code'")
    return {"number": number, "daily": daily, "code": code}


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
        "move": str(move) if move is not None else None,
        **extra,
    }


def _apply(session: Session, intent: Intent) -> tuple[Move | None, dict[str, Any]]:
    """Carry out a checked intent on the session: the move made, and any extra ack fields.
    Engine refusals propagate as IllegalMove, bad values as ValueError."""
    action = intent.action
    if action in POSITIONAL:
        if intent.version > session.version:
            raise BadIntent(f"version {intent.version} is newer than the board's")
        if intent.target in PILES and intent.version < session.position_version:
            raise BadIntent(STALE)
        if action == "pair":
            return session.play(Move.pair(*intent.cards)), {}
        selected = intent.cards[0] if intent.cards else None
        done = session.tap(intent.target, selected)
        return (done, {}) if isinstance(done, Move) else (None, {"select": str(done)})
    if action in CALLS:
        done = CALLS[action](session)
        return (done if isinstance(done, Move) else None), {}
    if action == "new":
        session.request_new_deal(number=intent.number, daily=intent.daily, code=intent.code)
    elif action == "pause":
        session.pause(auto=intent.auto)
    elif action == "unpause":
        session.unpause(auto=intent.auto)
    elif action == "option":
        session.set_option(intent.name, intent.value)
    elif action == "rules":
        session.set_next_rules(intent.name)
    elif action == "continue":
        if session.continue_saved() is None:
            raise BadIntent(NOTHING_TO_CONTINUE)
    elif action == "review_step":
        session.step_review(intent.moves)
    elif action == "puzzle":
        if intent.step is not None:
            session.step_puzzle(intent.step)
        else:
            session.open_puzzle(intent.name, theme=intent.theme, difficulty=intent.difficulty)
    else:  # share: the code is handed over because the player asked for it
        return None, {"code": session.share()}
    return None, {}


def handle(session: Session, content: Any, inbox: Inbox | None = None) -> dict | None:
    """Answer one message from a front end: apply it through `session` or say why not.

    Never raises for anything a front end can send: a malformed or stale message, or a move
    the engine refuses, becomes an ack with ok=False and the reason, and changes nothing.
    With an `inbox`, a message delivered again gets its first answer and is not applied twice.
    Returns None only for anywidget's own command messages, which are not ours to answer.
    """
    if isinstance(content, dict) and content.get("kind") == "anywidget-command":
        return None
    try:
        intent = parse_intent(content)
    except BadIntent as error:
        return ack(content, False, error.reason, None)
    earlier = inbox.answer(intent) if inbox is not None else None
    if earlier is not None:
        return earlier
    try:
        move, extra = _apply(session, intent)
        answer = ack(intent, True, None, move, **extra)
    except (BadIntent, IllegalMove) as error:
        answer = ack(intent, False, error.reason, None)
    except (ValueError, TypeError) as error:
        # A deal number, code, rules name or option the engine or session refuses.
        answer = ack(intent, False, str(error), None)
    if inbox is not None:
        inbox.keep(intent, answer)
    return answer
