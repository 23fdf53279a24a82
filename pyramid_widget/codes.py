"""Text forms of a game: position codes, deal codes and the JSON save format.

This module reads and writes text and checks that it is well formed; it builds no `Game`
(`game.py` does, from what is read here, and replays a save's moves through the rules).

Position code (like chess's FEN), fields joined by ":"::

    pw1:<rules>:<52 cards, 2 characters each>:<pyramid gone, hex>:<stock cards left, hex>
       :<waste size>:<pass>:<moves>:<score>:<stock cards seen, hex>

The two stock masks have bit k for stock card k (card 29 + k of the layout). A numbered deal's
start also has the short deal code "<rules>#<number>" (e.g. "classic#42").

A save is JSON with the whole history: the start position's code, the moves played, the redo
list, the cards seen and the position's code. A save is replayed, never trusted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .cards import PYRAMID_SIZE, Card
from .deals import check_deal_number, parse_layout, read_deal_number
from .position import MAX_MOVES, Position
from .rules import Rules
from .words import quoted

CODE_PREFIX = "pw1"
SAVE_FORMAT = "pyramid-widget-save"
SAVE_VERSION = 1


# ---------------------------------------------------------------- position codes
def position_code(
    cards: tuple[Card, ...], rules: Rules, pos: Position, seen: frozenset[Card]
) -> str:
    """The position code of `pos` in the deal `cards` under `rules`."""
    stock_cards = cards[PYRAMID_SIZE:]
    left = set(pos.rest)
    rest_mask = sum(1 << k for k, card in enumerate(stock_cards) if card in left)
    seen_mask = sum(1 << k for k, card in enumerate(stock_cards) if card in seen)
    fields = [
        CODE_PREFIX,
        rules.name,
        "".join(str(card) for card in cards),
        f"{pos.removed:07x}",
        f"{rest_mask:06x}",
        str(pos.waste_count),
        str(pos.pass_number),
        str(pos.move_count),
        str(pos.score),
        f"{seen_mask:06x}",
    ]
    return ":".join(fields)


@dataclass(frozen=True)
class CodeParts:
    """What a code names. A deal code ("classic#42") gives `number` and no `position`; a
    position code gives the deck, the position and the stock cards seen."""

    rules: Rules
    cards: tuple[Card, ...] | None = None
    number: int | None = None
    position: Position | None = None
    seen: tuple[Card, ...] = ()


def read_code(code: str) -> CodeParts:
    """Read a position code or a "<rules>#<number>" deal code (checks the form, not whether
    the position is reachable: that is `position.check_reachable`, which `Game` applies)."""
    if not isinstance(code, str) or not code.strip():
        raise ValueError("empty game code")
    text = code.strip()
    if "#" in text and not text.startswith(CODE_PREFIX + ":"):
        rules_text, _, number_text = text.rpartition("#")
        if not (number_text.isascii() and number_text.isdigit()):
            raise ValueError(f"unknown deal code {quoted(code)}: expected '<rules>#<number>'")
        number = read_deal_number(number_text)
        return CodeParts(Rules.parse(rules_text or "classic"), number=number)
    parts = text.split(":")
    if parts[0] != CODE_PREFIX or len(parts) != 10:
        raise ValueError(
            f"unknown game code {quoted(code)}: expected {CODE_PREFIX}:... with 10 fields"
        )
    _, rules_text, deck, removed_h, rest_h, waste_t, pass_t, moves_t, score_t, seen_h = parts
    rules = Rules.parse(rules_text)
    if len(deck) != 104:
        raise ValueError("game code: the deck field must hold 52 cards of 2 characters")
    cards = parse_layout(" ".join(deck[k : k + 2] for k in range(0, 104, 2)))
    removed, rest_mask, waste_count, pass_number, moves, score, seen_mask = (
        _number(raw, *field)
        for raw, field in zip(
            (removed_h, rest_h, waste_t, pass_t, moves_t, score_t, seen_h), _NUMBERS, strict=True
        )
    )
    stock_cards = cards[PYRAMID_SIZE:]
    rest = tuple(card for k, card in enumerate(stock_cards) if rest_mask >> k & 1)
    seen = tuple(card for k, card in enumerate(stock_cards) if seen_mask >> k & 1)
    position = Position(removed, rest, waste_count, pass_number, moves, score)
    return CodeParts(rules, cards=cards, position=position, seen=seen)


_COUNT_DIGITS = len(str(MAX_MOVES))
_NUMBERS = (
    ("pyramid", 16, 7),
    ("stock", 16, 6),
    ("waste", 10, _COUNT_DIGITS),
    ("pass", 10, _COUNT_DIGITS),
    ("moves", 10, _COUNT_DIGITS),
    ("score", 10, _COUNT_DIGITS),
    ("seen", 16, 6),
)
"""The number fields of a position code, in order: each one's name, its base and its most
digits (a mask as many hex digits as it has bits for, a count as many as `MAX_MOVES` has)."""


def _number(text: str, name: str, base: int, most: int) -> int:
    """A number field of a code, read strictly: only its base's ASCII digits (int() would also
    take a sign, spaces, underscores and other scripts' digits), and no more than `most`."""
    digits = "0123456789abcdefABCDEF" if base == 16 else "0123456789"
    if not 0 < len(text) <= most or not set(text) <= set(digits):
        kind = "hex digits" if base == 16 else "digits"
        raise ValueError(f"game code: its {name} field must be a number of {most} {kind} at most")
    return int(text, base)


# ---------------------------------------------------------------- JSON saves
@dataclass(frozen=True)
class SaveParts:
    """A save as read: every field checked for its type, nothing yet replayed."""

    rules: Rules
    deal_number: int | None
    start: str
    moves: tuple[str, ...]
    redo: tuple[str, ...]
    seen: frozenset[Card]
    position: str


def write_save(parts: SaveParts) -> str:
    data: dict[str, Any] = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "rules": parts.rules.to_dict(),
        "deal_number": parts.deal_number,
        "start": parts.start,
        "moves": list(parts.moves),
        "redo": list(parts.redo),
        "seen": sorted(str(card) for card in parts.seen),
        "position": parts.position,
    }
    return json.dumps(data, ensure_ascii=False)


def read_save(text: str) -> SaveParts:
    """Read a save's fields; ValueError saying what is wrong if it is not a sound save."""
    if not isinstance(text, str | bytes):
        raise ValueError(f"a save is JSON text, not {type(text).__name__}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(
            f"not a pyramid-widget save (damaged or truncated JSON: {error})"
        ) from None
    except (RecursionError, UnicodeDecodeError):
        raise ValueError("not a pyramid-widget save (nested too deeply or not text)") from None
    except ValueError:  # a number of thousands of digits, which Python does not read
        raise ValueError("not a pyramid-widget save (a number in it is far too long)") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise ValueError("not a pyramid-widget save")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ValueError("save has no schema version")
    if version > SAVE_VERSION:
        raise ValueError(
            f"save written by a newer pyramid-widget (schema {quoted(version)}); "
            f"this version reads schema {SAVE_VERSION}: upgrade to open it"
        )
    if version < 1:
        raise ValueError(f"unknown save schema {quoted(version)}")
    missing = {"rules", "start", "moves", "redo", "seen", "position"} - set(data)
    if missing:
        raise ValueError(f"save is missing {', '.join(sorted(missing))}")
    number = data.get("deal_number")
    if number is not None:
        check_deal_number(number)
    moves, redo, seen = data["moves"], data["redo"], data["seen"]
    if not all(isinstance(v, list) and all(isinstance(m, str) for m in v) for v in (moves, redo)):
        raise ValueError("save is damaged: moves must be lists of move notations")
    if not isinstance(seen, list) or not all(isinstance(card, str) for card in seen):
        raise ValueError("save is damaged: seen must be a list of cards")
    if not isinstance(data["start"], str) or not isinstance(data["position"], str):
        raise ValueError("save is damaged: start and position must be codes")
    return SaveParts(
        rules=Rules.from_dict(data["rules"]),
        deal_number=number,
        start=data["start"],
        moves=tuple(moves),
        redo=tuple(redo),
        seen=frozenset(Card.parse(card) for card in seen),
        position=data["position"],
    )
