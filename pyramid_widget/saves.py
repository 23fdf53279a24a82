"""Saves (versioned JSON with the whole history) and compact position codes.

A save is replayed, never trusted: loading rebuilds the game from its start by playing every
recorded move through the rules, then checks that the result is the position the save claims.
A damaged, truncated or tampered save therefore raises ValueError and builds nothing.

Position code (like chess's FEN), fields joined by ":"::

    pw1:<rules>:<52 cards, 2 characters each>:<pyramid gone, hex>:<stock cards left, hex>
       :<waste size>:<pass>:<moves>:<score>:<stock cards seen, hex>

The two stock masks have bit k for stock card k (card 29 + k of the layout). A numbered deal's
start also has the short code "<rules>#<number>" (e.g. "classic#42").
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from .cards import COVERED_BY, PYRAMID_SIZE, STOCK_SIZE, Card
from .deals import build_layout, check_deal_number, deal_cards, parse_layout
from .game import Game, IllegalMove, Move, Position
from .rules import Rules

CODE_PREFIX = "pw1"
SAVE_FORMAT = "pyramid-widget-save"
SAVE_VERSION = 1


# ---------------------------------------------------------------- position codes
def position_code(game: Game, position: Position | None = None) -> str:
    pos = position or game.position
    stock_cards = game.cards[PYRAMID_SIZE:]
    left = set(pos.rest)
    rest_mask = sum(1 << k for k, card in enumerate(stock_cards) if card in left)
    seen = game.seen
    seen_mask = sum(1 << k for k, card in enumerate(stock_cards) if card in seen)
    fields = [
        CODE_PREFIX,
        game.rules.name,
        "".join(str(card) for card in game.cards),
        f"{pos.removed:07x}",
        f"{rest_mask:06x}",
        str(pos.waste_count),
        str(pos.pass_number),
        str(pos.move_count),
        str(pos.score),
        f"{seen_mask:06x}",
    ]
    return ":".join(fields)


def deal_code(game: Game) -> str:
    if game.deal_number is not None:
        return f"{game.rules.name}#{game.deal_number}"
    return position_code(game, game.start)


def game_from_code(code: str) -> Game:
    """Build a game from a position code or a "<rules>#<number>" deal code."""
    if not isinstance(code, str) or not code.strip():
        raise ValueError("empty game code")
    text = code.strip()
    if "#" in text and not text.startswith(CODE_PREFIX + ":"):
        rules_text, _, number_text = text.rpartition("#")
        if not number_text.isdigit():
            raise ValueError(f"unknown deal code {code!r}: expected '<rules>#<number>'")
        number = check_deal_number(int(number_text))
        return Game(deal_cards(number), Rules.parse(rules_text or "classic"), deal_number=number)
    parts = text.split(":")
    if parts[0] != CODE_PREFIX or len(parts) != 10:
        raise ValueError(
            f"unknown game code {_short(code)}: expected {CODE_PREFIX}:... with 10 fields"
        )
    _, rules_text, deck, removed_h, rest_h, waste_t, pass_t, moves_t, score_t, seen_h = parts
    rules = Rules.parse(rules_text)
    if len(deck) != 104:
        raise ValueError("game code: the deck field must hold 52 cards of 2 characters")
    cards = tuple(Card.parse(deck[k : k + 2]) for k in range(0, 104, 2))
    try:
        removed, rest_mask, seen_mask = (int(h, 16) for h in (removed_h, rest_h, seen_h))
        waste_count, pass_number, moves, score = (
            int(t) for t in (waste_t, pass_t, moves_t, score_t)
        )
    except ValueError:
        raise ValueError("game code: a number field is not a number") from None
    stock_cards = cards[PYRAMID_SIZE:]
    rest = tuple(card for k, card in enumerate(stock_cards) if rest_mask >> k & 1)
    seen = [card for k, card in enumerate(stock_cards) if seen_mask >> k & 1]
    position = Position(removed, rest, waste_count, pass_number, moves, score)
    check_position(cards, rules, position, seen)
    return Game(cards, rules, start=position, seen=seen)


def check_position(cards: tuple[Card, ...], rules: Rules, pos: Position, seen: list[Card]) -> None:
    """Refuse positions no play could reach (a tampered or damaged code)."""
    Game(cards, rules)  # the deck itself must be whole
    if not 0 <= pos.removed < 1 << PYRAMID_SIZE or len(pos.rest) > STOCK_SIZE:
        raise ValueError("impossible position: mask out of range")
    for i in range(PYRAMID_SIZE):
        if pos.removed >> i & 1 and not all(pos.removed >> j & 1 for j in COVERED_BY[i]):
            raise ValueError("impossible position: a pyramid card left before the cards on it")
    gone_stock = [card for card in cards[PYRAMID_SIZE:] if card not in pos.rest]
    gone = [c for i, c in enumerate(cards[:PYRAMID_SIZE]) if pos.removed >> i & 1] + gone_stock
    for value in range(1, 7):
        if sum(c.value == value for c in gone) != sum(c.value == 13 - value for c in gone):
            raise ValueError("impossible position: removed cards do not form pairs of 13")
    if not 0 <= pos.waste_count <= len(pos.rest):
        raise ValueError("impossible position: waste larger than the cards left")
    if pos.pass_number < 1 or (rules.passes is not None and pos.pass_number > rules.passes):
        raise ValueError("impossible position: pass number outside the rules' passes")
    if pos.move_count < len(gone) // 2 or pos.score < 0 or (pos.score and not rules.scoring):
        raise ValueError("impossible position: move count or score out of range")
    if not set(gone_stock) | set(pos.waste) <= set(seen):
        raise ValueError("impossible position: a card left or lies on the waste unseen")


def game_from_position(
    pyramid: Mapping[int, str],
    stock: Sequence[str] = (),
    waste: Sequence[str] = (),
    rules: Rules | str | None = None,
    *,
    pass_number: int = 1,
) -> Game:
    """A mid-game position where only the given cards are left; all others were paired away.

    `pyramid` maps pyramid indices (0 the apex, 21-27 the bottom row) to cards; `waste` lists
    the waste bottom to top, `stock` the stock with the next card first. The player has seen
    every card but the stock's on the first pass, and everything from the second pass on.
    Refuses positions no game could reach (a card left under a removed one, unpaired removals).
    """
    rules = Rules.coerce(rules)
    rest = [*waste, *stock]
    cards = parse_layout(build_layout(dict(pyramid), rest))
    left_rest = cards[PYRAMID_SIZE : PYRAMID_SIZE + len(rest)]
    gone = [
        c
        for i, c in enumerate(cards)
        if i >= PYRAMID_SIZE + len(rest) or (i < PYRAMID_SIZE and i not in pyramid)
    ]
    kings = sum(card.is_king for card in gone)
    fewest_moves = kings + (len(gone) - kings) // 2 + pass_number - 1
    removed = sum(1 << i for i in range(PYRAMID_SIZE) if i not in pyramid)
    start = Position(removed, left_rest, len(waste), pass_number, fewest_moves)
    unseen = set() if pass_number > 1 else set(left_rest[len(waste) :])
    seen = [card for card in cards if card not in unseen]
    check_position(cards, rules, start, seen)
    return Game(cards, rules, start=start, seen=seen)


# ---------------------------------------------------------------- JSON saves
def game_to_json(game: Game) -> str:
    data: dict[str, Any] = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "rules": game.rules.to_dict(),
        "deal_number": game.deal_number,
        "start": position_code(game, game.start),
        "moves": game.log,
        "redo": [str(move) for move in game.redo_moves],
        "seen": sorted(str(card) for card in game.seen),
        "position": game.code,
    }
    return json.dumps(data, ensure_ascii=False)


def game_from_json(text: str) -> Game:
    """Rebuild a saved game by replaying it; ValueError (building nothing) if anything is off."""
    try:
        data = json.loads(text)
    except (TypeError, json.JSONDecodeError) as error:
        raise ValueError(
            f"not a pyramid-widget save (damaged or truncated JSON: {error})"
        ) from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise ValueError("not a pyramid-widget save")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ValueError("save has no schema version")
    if version > SAVE_VERSION:
        raise ValueError(
            f"save written by a newer pyramid-widget (schema {version}); "
            f"this version reads schema {SAVE_VERSION}: upgrade to open it"
        )
    if version < 1:
        raise ValueError(f"unknown save schema {version}")
    missing = {"rules", "start", "moves", "redo", "seen", "position"} - set(data)
    if missing:
        raise ValueError(f"save is missing {', '.join(sorted(missing))}")
    rules = Rules.from_dict(data["rules"])
    start = game_from_code(data["start"])
    if start.rules != rules:
        raise ValueError("save is inconsistent: its rules differ from its start position's")
    number = data.get("deal_number")
    if number is not None:
        check_deal_number(number)
        if deal_cards(number) != start.cards:
            raise ValueError("save is inconsistent: the layout is not that deal number's")
    game = Game(start.cards, rules, deal_number=number, start=start.start, seen=start.seen)
    moves, redo = data["moves"], data["redo"]
    if not isinstance(moves, list) or not isinstance(redo, list):
        raise ValueError("save is damaged: moves must be lists")
    _replay(game, moves, "move")
    trial = game.copy()
    _replay(trial, redo, "redo move")
    for _ in redo:
        trial.undo()
    game._redo = trial._redo  # the redo list, checked playable from here
    seen = data["seen"]
    if not isinstance(seen, list):
        raise ValueError("save is damaged: seen must be a list of cards")
    game._seen |= {Card.parse(card) for card in seen}
    if data["position"] != game.code:
        raise ValueError("save is inconsistent: its position is not where its moves lead")
    return game


def _replay(game: Game, moves: list[Any], what: str) -> None:
    for n, notation in enumerate(moves, 1):
        try:
            game.play(Move.parse(notation))
        except IllegalMove as error:
            raise ValueError(
                f"save is damaged: {what} {n} ({notation!r}): {error.reason}"
            ) from None


def _short(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")
