"""The game: positions, moves, legality, undo/redo and the outcome.

This is the one place where the rule of a move lives (`Game._refusal` says why a move is
illegal, `_apply` says what a legal move does). Everything else, the widget included, asks here.

A position is immutable. The non-pyramid cards still in the game, kept in their original order,
are always "waste then stock" (drawing moves the boundary right, a recycle moves it back to 0,
removals take cards out), so a position is: which pyramid cards are gone, which other cards are
left, how many of those lie on the waste, and which pass this is.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from .cards import COVERED_BY, PYRAMID_SIZE, ROW_INDICES, Card
from .deals import (
    daily_deal_number,
    deal_cards,
    format_layout,
    parse_layout,
    random_deal_number,
)
from .rules import Rules

MoveKind = Literal["pair", "king", "draw", "recycle"]
FULL_PYRAMID = (1 << PYRAMID_SIZE) - 1

# The player's words for each refusal (003): one table, so the front end and tests agree.
NOT_THIRTEEN = "those two do not add up to 13"
COVERED = "that card is still covered"
NOT_IN_PLAY = "that card is not in play"
SAME_CARD = "a card cannot pair with itself"
KING_ALONE = "a King is removed alone"
NEEDS_PARTNER = "that card needs a partner that makes 13"
KING_DRAW_FIRST = "draw the King to the waste first"
NO_CARDS_TO_TURN = "no cards left to turn"
RECYCLE_NEEDS_EMPTY_STOCK = "recycling unlocks once the stock is empty"
NO_RECYCLES = "no recycles left"
NOTHING_TO_RECYCLE = "nothing in the waste to recycle"
ALREADY_WON = "the game is already won"
NOTHING_TO_UNDO = "nothing to undo"
NOTHING_TO_REDO = "nothing to redo"

# Scoring (001).
POINTS_PER_CARD = 5
POINTS_PER_ROW = 25
POINTS_FOR_PYRAMID = 100
POINTS_PER_CARD_LEFT = 10


class IllegalMove(ValueError):
    """A move the rules refuse; `.reason` says why in the player's words. Nothing changed."""

    def __init__(self, reason: str, move: object = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.move = move


@dataclass(frozen=True, slots=True)
class Move:
    """A move: a pair ("5h+8c"), a King ("Kh"), "draw" or "recycle". Hashable."""

    kind: MoveKind
    cards: tuple[Card, ...] = ()

    @classmethod
    def pair(cls, a: Card, b: Card) -> Move:
        return cls("pair", tuple(sorted((a, b))))

    @classmethod
    def king(cls, card: Card) -> Move:
        return cls("king", (card,))

    @classmethod
    def parse(cls, text: str | Move) -> Move:
        """Read a notation; either order of a pair is accepted. Raises IllegalMove if unreadable."""
        if isinstance(text, Move):
            return text
        if not isinstance(text, str):
            raise IllegalMove(f"not a move: {text!r}")
        word = text.strip()
        if word.lower() in ("draw", "recycle"):
            return DRAW if word.lower() == "draw" else RECYCLE
        parts = word.split("+")
        try:
            cards = [Card.parse(part) for part in parts]
        except ValueError:
            raise IllegalMove(f"not a move: {text!r}") from None
        if len(cards) == 2:
            return cls.pair(*cards)
        if len(cards) == 1:
            return cls.king(cards[0])
        raise IllegalMove(f"not a move: {text!r}")

    def __str__(self) -> str:
        if self.kind in ("draw", "recycle"):
            return self.kind
        return "+".join(str(card) for card in self.cards)

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


DRAW = Move("draw")
RECYCLE = Move("recycle")


@dataclass(frozen=True, slots=True)
class Position:
    """Everything that undo restores. `rest` holds the non-pyramid cards still in the game."""

    removed: int  # bit i set: pyramid card i is gone
    rest: tuple[Card, ...]  # waste (bottom..top) followed by stock (top..bottom)
    waste_count: int
    pass_number: int
    move_count: int = 0
    score: int = 0

    @property
    def waste(self) -> tuple[Card, ...]:
        return self.rest[: self.waste_count]

    @property
    def stock(self) -> tuple[Card, ...]:
        return self.rest[self.waste_count :]


def _exposed(removed: int, i: int) -> bool:
    return all(removed >> j & 1 for j in COVERED_BY[i])


class Game:
    """One deal of Pyramid under some `Rules`, with unlimited undo and redo.

    Build one with `Game.deal(n)`, `Game.random()`, `Game.from_layout(text)`,
    `Game.from_code(code)` or `Game.from_json(save)`; then `play("5h+8c")`, `draw()`,
    `recycle()`, `undo()`, `redo()`. `legal_moves()` lists what may be played now.
    """

    def __init__(
        self,
        cards: Iterable[Card],
        rules: Rules | None = None,
        *,
        deal_number: int | None = None,
        start: Position | None = None,
        seen: Iterable[Card] = (),
    ) -> None:
        self.cards: tuple[Card, ...] = tuple(cards)
        if sorted(self.cards) != sorted(set(self.cards)) or len(self.cards) != 52:
            parse_layout(format_layout(self.cards))  # raises with the precise problem
        self.rules: Rules = rules if rules is not None else Rules()
        self.deal_number = deal_number
        self._where = {card: i for i, card in enumerate(self.cards)}
        first = start or Position(0, self.cards[PYRAMID_SIZE:], 0, 1)
        self._positions: list[Position] = [first]
        self._history: list[Move] = []
        self._redo: list[Move] = []
        self._seen: set[Card] = set(self.cards[:PYRAMID_SIZE]) | set(seen)
        self._see()

    # ----------------------------------------------------------------- construction
    @classmethod
    def from_layout(cls, text: str, rules: Rules | str | None = None) -> Game:
        """A game on a written layout (cards 1-28 the pyramid, 29-52 the stock)."""
        return cls(parse_layout(text), Rules.coerce(rules))

    @classmethod
    def deal(cls, number: int, rules: Rules | str | None = None) -> Game:
        """Numbered deal `number` (stable forever; see `deals`)."""
        return cls(deal_cards(number), Rules.coerce(rules), deal_number=number)

    @classmethod
    def random(cls, rules: Rules | str | None = None) -> Game:
        """A random numbered deal, so that it can always be shared and replayed."""
        return cls.deal(random_deal_number(), rules)

    @classmethod
    def from_code(cls, code: str) -> Game:
        from .saves import game_from_code

        return game_from_code(code)

    @classmethod
    def from_position(
        cls,
        pyramid: Mapping[int, str],
        stock: Sequence[str] = (),
        waste: Sequence[str] = (),
        rules: Rules | str | None = None,
        *,
        pass_number: int = 1,
    ) -> Game:
        """A mid-game position holding only the given cards (for lessons and puzzles): see
        `saves.game_from_position`. Example: `Game.from_position({27: "5h"}, waste=["8c"])`."""
        from .saves import game_from_position

        return game_from_position(pyramid, stock, waste, rules, pass_number=pass_number)

    @classmethod
    def from_json(cls, text: str) -> Game:
        from .saves import game_from_json

        return game_from_json(text)

    def to_json(self) -> str:
        from .saves import game_to_json

        return game_to_json(self)

    @property
    def code(self) -> str:
        """A compact code of the rules and the current position (like chess's FEN)."""
        from .saves import position_code

        return position_code(self)

    @property
    def deal_id(self) -> str:
        """A shareable code of this deal's start: "classic#42" or the start position's code."""
        from .saves import deal_code

        return deal_code(self)

    def copy(self) -> Game:
        """An independent game with the same position, history and redo list."""
        twin = Game.__new__(Game)
        twin.__dict__.update(self.__dict__)
        twin._positions = list(self._positions)
        twin._history = list(self._history)
        twin._redo = list(self._redo)
        twin._seen = set(self._seen)
        return twin

    # ----------------------------------------------------------------- position
    @property
    def position(self) -> Position:
        return self._positions[-1]

    @property
    def start(self) -> Position:
        return self._positions[0]

    @property
    def from_deal_start(self) -> bool:
        """True when this game began at its deal's start (nothing removed, nothing drawn, pass
        1, no move counted). A game begun from a mid-game code, a lesson position or a save of
        a position is practice: records count it as played, never for bests or streaks."""
        start = self.start
        return (
            start.removed == 0
            and start.waste_count == 0
            and start.pass_number == 1
            and start.move_count == 0
            and start.score == 0
            and start.rest == self.cards[PYRAMID_SIZE:]
        )

    @property
    def layout(self) -> str:
        return format_layout(self.cards)

    @property
    def pyramid(self) -> tuple[Card | None, ...]:
        removed = self.position.removed
        return tuple(None if removed >> i & 1 else self.cards[i] for i in range(PYRAMID_SIZE))

    @property
    def stock(self) -> tuple[Card, ...]:
        return self.position.stock

    @property
    def waste(self) -> tuple[Card, ...]:
        return self.position.waste

    @property
    def stock_count(self) -> int:
        pos = self.position
        return len(pos.rest) - pos.waste_count

    @property
    def stock_top(self) -> Card | None:
        """The face-up stock top, or None when the stock is face down or empty."""
        stock = self.stock
        return stock[0] if stock and self.rules.stock_in_play else None

    @property
    def waste_top(self) -> Card | None:
        waste = self.waste
        return waste[-1] if waste else None

    @property
    def pass_number(self) -> int:
        return self.position.pass_number

    @property
    def passes_left(self) -> int | None:
        """Recycles still allowed (None when unlimited)."""
        passes = self.rules.passes
        return None if passes is None else passes - self.position.pass_number

    @property
    def move_count(self) -> int:
        return self.position.move_count

    @property
    def score(self) -> int:
        return self.position.score

    @property
    def cleared(self) -> int:
        return self.position.removed.bit_count()

    @property
    def exposed(self) -> tuple[Card, ...]:
        removed = self.position.removed
        return tuple(
            self.cards[i]
            for i in range(PYRAMID_SIZE)
            if not removed >> i & 1 and _exposed(removed, i)
        )

    @property
    def in_play(self) -> tuple[Card, ...]:
        """Every card that a move may use now: exposed pyramid cards, waste top, stock top."""
        extra = tuple(card for card in (self.waste_top, self.stock_top) if card is not None)
        return self.exposed + extra

    @property
    def seen(self) -> frozenset[Card]:
        """Cards the player has seen face up; undo never makes a card unseen again."""
        return frozenset(self._seen)

    @property
    def log(self) -> list[str]:
        return [str(move) for move in self._history]

    @property
    def history(self) -> list[Move]:
        return list(self._history)

    @property
    def redo_moves(self) -> list[Move]:
        """Moves that `redo()` would replay, next one first."""
        return list(reversed(self._redo))

    @property
    def can_undo(self) -> bool:
        return bool(self._history)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    # ----------------------------------------------------------------- outcome
    @property
    def is_won(self) -> bool:
        pos = self.position
        if pos.removed != FULL_PYRAMID:
            return False
        return self.rules.win == "pyramid" or not pos.rest

    @property
    def is_stuck(self) -> bool:
        """Not won, and no pair, no King, no draw and no recycle is left."""
        return not self.is_won and not self.legal_moves()

    @property
    def is_dead_end(self) -> bool:
        """001's early notice: no pair or King open now, and no card the stock and waste can
        still bring would ever fit an exposed pyramid card, so the pyramid can never change.

        Sound by construction: with no removal open among pyramid cards, the pyramid can only
        change by pairing an exposed pyramid card with a stock or waste card; if none of those
        cards has a matching value, the pyramid is frozen for good and the game cannot be won.
        """
        if self.is_won or self.position.removed == FULL_PYRAMID:
            return False
        if any(move.kind in ("pair", "king") for move in self.legal_moves()):
            return False
        exposed = self.exposed
        if any(card.is_king for card in exposed):
            return False
        values = {13 - card.value for card in exposed}
        return not any(card.value in values for card in self.position.rest)

    @property
    def outcome(self) -> Literal["won", "stuck"] | None:
        if self.is_won:
            return "won"
        return "stuck" if self.is_stuck else None

    # ----------------------------------------------------------------- legality
    def _locate(self, card: Card) -> str:
        """Where a card is now: "pyramid", "covered", "waste-top", "stock-top", or "out"."""
        pos = self.position
        i = self._where[card]
        if i < PYRAMID_SIZE:
            if pos.removed >> i & 1:
                return "out"
            return "pyramid" if _exposed(pos.removed, i) else "covered"
        if pos.waste_count and pos.rest[pos.waste_count - 1] == card:
            return "waste-top"
        if len(pos.rest) > pos.waste_count and pos.rest[pos.waste_count] == card:
            return "stock-top" if self.rules.stock_in_play else "out"
        return "out"

    def _card_refusal(self, card: Card) -> str | None:
        place = self._locate(card)
        if place == "covered":
            return COVERED
        return NOT_IN_PLAY if place == "out" else None

    def _refusal(self, move: Move) -> str | None:
        """Why `move` is illegal now, in the player's words, or None when it is legal."""
        if self.is_won:
            return ALREADY_WON
        if move.kind == "draw":
            return None if self.stock_count else NO_CARDS_TO_TURN
        if move.kind == "recycle":
            return self.recycle_blocker
        if move.kind == "king":
            card = move.cards[0]
            if not card.is_king:
                return NEEDS_PARTNER
            refusal = self._card_refusal(card)
            if refusal is None and self._locate(card) == "stock-top":
                return None if self.rules.king_from_stock else KING_DRAW_FIRST
            return refusal
        a, b = move.cards
        if a == b:
            return SAME_CARD
        if a.is_king or b.is_king:
            return KING_ALONE
        for card in move.cards:
            refusal = self._card_refusal(card)
            if refusal:
                return refusal
        return None if a.pairs_with(b) else NOT_THIRTEEN

    @property
    def recycle_blocker(self) -> str | None:
        """Why a recycle is refused now, or None when it is allowed."""
        if self.is_won:
            return ALREADY_WON
        pos = self.position
        if self.stock_count:
            return RECYCLE_NEEDS_EMPTY_STOCK
        passes = self.rules.passes
        if passes is not None and pos.pass_number >= passes:
            return NO_RECYCLES
        return None if pos.waste_count else NOTHING_TO_RECYCLE

    def is_legal(self, move: Move | str) -> bool:
        try:
            return self._refusal(Move.parse(move)) is None
        except IllegalMove:
            return False

    def refusal(self, move: Move | str) -> str | None:
        """Why a move would be refused now (None when it is legal); changes nothing."""
        try:
            return self._refusal(Move.parse(move))
        except IllegalMove as error:
            return error.reason

    def legal_moves(self) -> list[Move]:
        """Every legal move now: pairs and Kings first, then draw, then recycle."""
        if self.is_won:
            return []
        cards = self.in_play
        moves: list[Move] = []
        for n, a in enumerate(cards):
            if a.is_king:
                king = Move.king(a)
                if self._refusal(king) is None:
                    moves.append(king)
                continue
            moves.extend(Move.pair(a, b) for b in cards[n + 1 :] if a.pairs_with(b))
        if self.stock_count:
            moves.append(DRAW)
        if self.recycle_blocker is None:
            moves.append(RECYCLE)
        return moves

    # ----------------------------------------------------------------- playing
    def play(self, move: Move | str) -> Move:
        """Play a move (or its notation). Raises IllegalMove and changes nothing if refused."""
        parsed = Move.parse(move)
        refusal = self._refusal(parsed)
        if refusal is not None:
            raise IllegalMove(refusal, parsed)
        self._push(parsed)
        if self._redo and self._redo[-1] == parsed:
            self._redo.pop()
        else:
            self._redo.clear()
        return parsed

    def draw(self) -> Move:
        return self.play(DRAW)

    def recycle(self) -> Move:
        return self.play(RECYCLE)

    def undo(self) -> Move:
        """Take back the last move (the seen cards stay seen). IllegalMove if none."""
        if not self._history:
            raise IllegalMove(NOTHING_TO_UNDO)
        self._positions.pop()
        move = self._history.pop()
        self._redo.append(move)
        return move

    def redo(self) -> Move:
        """Play again the last undone move. IllegalMove if none."""
        if not self._redo:
            raise IllegalMove(NOTHING_TO_REDO)
        move = self._redo.pop()
        self._push(move)
        return move

    def restart(self) -> None:
        """Back to the start of the deal; the whole history goes (unlike undo, no redo)."""
        del self._positions[1:]
        self._history.clear()
        self._redo.clear()

    def _push(self, move: Move) -> None:
        self._positions.append(self._apply(self.position, move))
        self._history.append(move)
        self._see()

    def _see(self) -> None:
        """Record newly visible cards: the waste top and, if face up, the stock top."""
        for card in (self.waste_top, self.stock_top):
            if card is not None:
                self._seen.add(card)

    def _apply(self, pos: Position, move: Move) -> Position:
        """The position after a legal move; also where moves and points are counted."""
        moves = pos.move_count + 1
        if move.kind == "draw":
            return replace(pos, waste_count=pos.waste_count + 1, move_count=moves)
        if move.kind == "recycle":
            return replace(pos, waste_count=0, pass_number=pos.pass_number + 1, move_count=moves)
        removed, rest, waste_count = pos.removed, list(pos.rest), pos.waste_count
        for card in move.cards:
            i = self._where[card]
            if i < PYRAMID_SIZE:
                removed |= 1 << i
            else:
                at = rest.index(card)
                rest.pop(at)
                if at < waste_count:
                    waste_count -= 1
        score = pos.score
        if self.rules.scoring:
            score += POINTS_PER_CARD * len(move.cards)
            score += POINTS_PER_ROW * sum(
                1
                for row in ROW_INDICES
                if all(removed >> i & 1 for i in row) and not all(pos.removed >> i & 1 for i in row)
            )
            if removed == FULL_PYRAMID and pos.removed != FULL_PYRAMID:
                score += POINTS_FOR_PYRAMID + POINTS_PER_CARD_LEFT * len(rest)
        return Position(removed, tuple(rest), waste_count, pos.pass_number, moves, score)

    # ----------------------------------------------------------------- display
    def board(self) -> str:
        """The table as text: [Kc] in play, Kc covered, .. gone; a face-down stock shows ##."""
        removed = self.position.removed
        lines = []
        for r, row in enumerate(ROW_INDICES):
            cells = []
            for i in row:
                if removed >> i & 1:
                    cells.append(" .. ")
                elif _exposed(removed, i):
                    cells.append(f"[{self.cards[i]}]")
                else:
                    cells.append(f" {self.cards[i]} ")
            lines.append("  " * (6 - r) + "".join(cells))
        top = self.stock_top
        stock = f"[{top}]" if top else "[##]" if self.stock_count else "[  ]"
        waste = f"[{self.waste_top}]" if self.waste_top else "[  ]"
        lines.append(
            f"stock {stock} x{self.stock_count}   waste {waste} x{len(self.waste)}   "
            f"pass {self.pass_number}/{self.rules.passes_text}"
        )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.board()

    def __repr__(self) -> str:
        deal = f" #{self.deal_number}" if self.deal_number is not None else ""
        state = self.outcome or "playing"
        score = f", score {self.score}" if self.rules.scoring else ""
        return (
            f"<Game {self.rules.name}{deal}: {state}, cleared {self.cleared}/28, "
            f"pass {self.pass_number}/{self.rules.passes_text}, stock {self.stock_count}, "
            f"waste {self.waste_top or '-'}, {self.move_count} moves{score}>"
        )


def deal_for_date(date: _dt.date | None = None, rules: Rules | str | None = None) -> Game:
    """The daily deal: deal number YYYYMMDD of the date (today by default)."""
    return Game.deal(daily_deal_number(date), rules)
