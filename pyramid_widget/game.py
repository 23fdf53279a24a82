"""The game: moves, legality, taps, undo/redo, the outcome, and its saves.

This is the one place where the rule of a move lives: `Game._refusal` says why a move is
refused, `Game._apply` says what a legal move does, and `Game.tap_move` says what a tap on a
card or a pile means (a click, a key, a drag: every way of moving asks it). Everything else,
the widget included, asks here.

Positions are immutable (`position.py`); codes and saves are read and written as text by
`codes.py` and turned into games here, where a save's moves are replayed through the rules.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Literal

from . import codes, words
from .cards import PYRAMID_SIZE, ROW_INDICES, STOCK_SIZE, Card, is_exposed
from .deals import (
    build_layout,
    daily_deal_number,
    deal_cards,
    format_layout,
    parse_layout,
    random_deal_number,
)
from .moves import DRAW, RECYCLE, IllegalMove, Move
from .position import FULL_PYRAMID, Position, check_reachable, deal_start, earned
from .rules import Rules

Pile = Literal["stock", "waste"]
PILES: tuple[Pile, ...] = ("stock", "waste")
"""The piles a tap may name besides a card."""


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
        self.cards: tuple[Card, ...] = _whole_deck(cards)
        self.rules: Rules = Rules.coerce(rules)
        self.deal_number = deal_number
        self._where = {card: i for i, card in enumerate(self.cards)}
        seen = tuple(seen)
        if not all(isinstance(card, Card) for card in seen):
            raise ValueError("seen must hold cards")
        if deal_number is not None:
            if deal_cards(deal_number) != self.cards:  # also checks the number
                raise ValueError(f"these cards are not deal number {deal_number}'s")
            if start is not None and start != deal_start(self.cards):
                raise ValueError("a numbered deal starts at its deal's start, not mid-game")
        if start is not None:
            check_reachable(self.cards, self.rules, start, {*self.cards[:PYRAMID_SIZE], *seen})
        first = start or deal_start(self.cards)
        self._positions: list[Position] = [first]
        self._history: list[Move] = []
        self._redo: list[Move] = []
        self._seen: set[Card] = set(self.cards[:PYRAMID_SIZE]) | set(seen)
        self._see()
        self._start_seen = frozenset(self._seen)

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
        """The game a position code or a deal code ("classic#42") names; ValueError saying
        what is wrong if the code is damaged or names a position no play could reach.

        >>> Game.from_code("open-stock#42").deal_number
        42
        """
        parts = codes.read_code(code)
        if parts.number is not None:
            return cls.deal(parts.number, parts.rules)
        assert parts.cards is not None and parts.position is not None
        return cls(parts.cards, parts.rules, start=parts.position, seen=parts.seen)

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
        """A mid-game position where only the given cards are left (for lessons and puzzles);
        every other card was paired away.

        `pyramid` maps pyramid indices (0 the apex, 21-27 the bottom row) to cards; `waste`
        lists the waste bottom to top, `stock` the stock with the next card first. The player
        has seen every card but the stock's on the first pass, and everything from the second
        pass on. Refuses positions no game could reach (a card left under a removed one,
        unpaired removals) with a ValueError.

        >>> game = Game.from_position({0: "5h"}, waste=["8c"], stock=["Ks"])
        >>> game.legal_moves()
        [Move.parse('5h+8c'), Move.parse('draw')]
        """
        rules = Rules.coerce(rules)
        rest = [*waste, *stock]
        if len(rest) > STOCK_SIZE:
            raise ValueError(f"the stock and waste hold {STOCK_SIZE} cards at most")
        gone_stock = STOCK_SIZE - len(rest)  # they left first, so they lie first in the stock
        cards = parse_layout(build_layout(dict(pyramid), [None] * gone_stock + rest))
        left_rest = cards[PYRAMID_SIZE + gone_stock :]
        gone = [
            c
            for i, c in enumerate(cards)
            if PYRAMID_SIZE <= i < PYRAMID_SIZE + gone_stock
            or (i < PYRAMID_SIZE and i not in pyramid)
        ]
        kings = sum(card.is_king for card in gone)
        fewest_moves = kings + (len(gone) - kings) // 2 + pass_number - 1 + len(waste)
        removed = sum(1 << i for i in range(PYRAMID_SIZE) if i not in pyramid)
        score = earned(rules, 0, removed, len(gone), len(left_rest))
        start = Position(removed, left_rest, len(waste), pass_number, fewest_moves, score)
        unseen = set() if pass_number > 1 else set(left_rest[len(waste) :])
        seen = [card for card in cards if card not in unseen]
        return cls(cards, rules, start=start, seen=seen)

    @classmethod
    def from_json(cls, text: str) -> Game:
        """Rebuild a saved game (`to_json`) by replaying it through the rules: a damaged,
        truncated or tampered save raises ValueError and builds nothing."""
        save = codes.read_save(text)
        begun = cls.from_code(save.start)
        if begun.rules != save.rules:
            raise ValueError("save is inconsistent: its rules differ from its start position's")
        if save.deal_number is not None and deal_cards(save.deal_number) != begun.cards:
            raise ValueError("save is inconsistent: the layout is not that deal number's")
        game = cls(
            begun.cards,
            save.rules,
            deal_number=save.deal_number,
            start=begun.start,
            seen=begun.seen | save.seen,
        )
        try:
            game.replay(save.moves)
            game._redo = game._checked_redo(save.redo)
        except IllegalMove as error:
            raise ValueError(f"save is damaged: {error.reason}") from None
        if save.position != game.code:
            raise ValueError("save is inconsistent: its position is not where its moves lead")
        return game

    def to_json(self) -> str:
        """A full save: the start, every move, the redo list and the cards seen."""
        return codes.write_save(
            codes.SaveParts(
                rules=self.rules,
                deal_number=self.deal_number,
                start=codes.position_code(self.cards, self.rules, self.start, self.seen),
                moves=tuple(self.log),
                redo=tuple(str(move) for move in self.redo_moves),
                seen=self.seen,
                position=self.code,
            )
        )

    @property
    def code(self) -> str:
        """A compact code of the rules and the current position (like chess's FEN)."""
        return codes.position_code(self.cards, self.rules, self.position, self.seen)

    @property
    def deal_code(self) -> str:
        """A shareable code of this deal's start: "classic#42" or the start position's code."""
        if self.deal_number is not None:
            return f"{self.rules.name}#{self.deal_number}"
        return codes.position_code(self.cards, self.rules, self.start, self.seen)

    def copy(self) -> Game:
        """An independent game with the same position, history and redo list."""
        twin = Game.__new__(Game)
        twin.__dict__.update(self.__dict__)
        twin._positions = list(self._positions)
        twin._history = list(self._history)
        twin._redo = list(self._redo)
        twin._seen = set(self._seen)
        return twin

    def replay(self, moves: Iterable[Move | str]) -> None:
        """Play `moves` in order, as a player would; the one way a list of moves is replayed
        (saves, reviews, records). IllegalMove naming the move's number and why if one is
        refused; the moves before it stay played."""
        for n, move in enumerate(moves, 1):
            try:
                self.play(move)
            except IllegalMove as error:
                raise IllegalMove(words.refused_in_replay(n, move, error.reason), move) from None

    def _checked_redo(self, redo: Sequence[str]) -> list[Move]:
        """The redo list that `redo` (next move first) names, checked playable from here."""
        trial = self.copy()
        try:
            trial.replay(redo)
        except IllegalMove as error:
            raise IllegalMove(words.refused_redo(error.reason)) from None
        return list(reversed(trial._history[len(self._history) :]))

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
        return self.start == deal_start(self.cards)

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
            if not removed >> i & 1 and is_exposed(removed, i)
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
        """The early dead-end notice: no pair or King open now, and no card the stock and waste can
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
    def start_seen(self) -> frozenset[Card]:
        """The cards seen when this game began (a game begun on a later pass has seen its
        whole stock): what a replay from its start knows."""
        return self._start_seen

    @property
    def all_seen(self) -> bool:
        """Every card has been seen face up: nothing is hidden from the player any more."""
        return set(self.cards) <= self.seen

    @property
    def open_book(self) -> bool:
        """The game is over or every card has been seen: the all-seeing solver's word on it
        may be said (a review, whether the deal could be won at all)."""
        return self.outcome is not None or self.all_seen

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
            return "pyramid" if is_exposed(pos.removed, i) else "covered"
        if pos.waste_count and pos.rest[pos.waste_count - 1] == card:
            return "waste-top"
        if len(pos.rest) > pos.waste_count and pos.rest[pos.waste_count] == card:
            return "stock-top" if self.rules.stock_in_play else "out"
        return "out"

    def _card_refusal(self, card: Card) -> str | None:
        place = self._locate(card)
        if place == "covered":
            return words.COVERED
        return words.NOT_IN_PLAY if place == "out" else None

    def _refusal(self, move: Move) -> str | None:
        """Why `move` is illegal now, in the player's words, or None when it is legal."""
        if self.is_won:
            return words.ALREADY_WON
        if move.kind == "draw":
            return None if self.stock_count else words.NO_CARDS_TO_TURN
        if move.kind == "recycle":
            return self.recycle_refusal
        if move.kind == "king":
            # Where the card lies comes first: "still covered" says more than "needs a partner".
            card = move.cards[0]
            refusal = self._card_refusal(card)
            if refusal is not None:
                return refusal
            if not card.is_king:
                return words.NEEDS_PARTNER if self.auto_partner(card) else words.NO_PARTNER
            if self._locate(card) == "stock-top" and not self.rules.king_from_stock:
                return words.KING_DRAW_FIRST
            return None
        a, b = move.cards
        if a == b:
            return words.SAME_CARD
        if a.is_king or b.is_king:
            return words.KING_ALONE
        for card in move.cards:
            refusal = self._card_refusal(card)
            if refusal:
                return refusal
        return None if a.pairs_with(b) else words.not_thirteen(a, b)

    @property
    def recycle_refusal(self) -> str | None:
        """Why a recycle is refused now, or None when it is allowed."""
        if self.is_won:
            return words.ALREADY_WON
        pos = self.position
        if self.stock_count:
            return words.RECYCLE_NEEDS_EMPTY_STOCK
        passes = self.rules.passes
        if passes is not None and pos.pass_number >= passes:
            return words.NO_RECYCLES
        return None if pos.waste_count else words.NOTHING_TO_RECYCLE

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

    # ----------------------------------------------------------------- taps
    def tap_move(
        self,
        target: Card | Pile | str,
        selected: Card | str | None = None,
        *,
        auto_pair: bool = False,
    ) -> Move | Card:
        """What a tap on `target` (a card, "stock" or "waste") means now, with `selected` the
        card the player had selected, if any: the one rule for every way of moving (a click,
        a key, a drag). Returns the move to play, or the card the tap selects (a card in play
        waiting for its partner; tapped while selected, it is deselected). With `auto_pair`
        one tap pairs a lone card with its first partner (`auto_partner`) instead of
        selecting it. Changes nothing. Raises IllegalMove with the very words `refusal()` gives
        for that move when the tap can do nothing:

        - a King goes alone (a selection is dropped);
        - another card with a selected card pairs with it;
        - a lone card in play selects (or auto-pairs); covered or gone, it says why;
        - the stock pairs its face-up top with the selected card, lets a King on it go alone
          when the rules allow, else draws, and once empty recycles;
        - the waste is its top card.

        >>> game = Game.deal(42)
        >>> game.tap_move("stock")
        Move.parse('draw')
        >>> game.tap_move(game.pyramid[0])
        Traceback (most recent call last):
        pyramid_widget.moves.IllegalMove: that card is still covered
        """
        pick = self._as_card(selected) if selected is not None else None
        if target == "stock":
            top = self.stock_top
            if top is not None and (pick is not None or self._king_leaves_from_stock(top)):
                return self.tap_move(top, pick)
            return self._checked(DRAW if self.stock_count else RECYCLE)
        if target == "waste":
            if self.waste_top is None:
                raise IllegalMove(words.EMPTY_WASTE)
            return self.tap_move(self.waste_top, pick, auto_pair=auto_pair)
        card = self._as_card(target)
        if card.is_king:
            return self._checked(Move.king(card))
        if pick is not None and pick != card:
            return self._checked(Move.pair(pick, card))
        lone = Move.king(card)  # how a lone card is written: "7c"
        refusal = self._refusal(lone)
        if refusal not in (words.NEEDS_PARTNER, words.NO_PARTNER):
            raise IllegalMove(refusal, lone)  # covered, gone, or the game is won
        if not auto_pair or pick is not None:
            return card  # select it (or, tapped again, deselect it)
        partner = self.auto_partner(card)
        if partner is None:
            raise IllegalMove(words.NO_PARTNER, lone)
        return Move.pair(card, partner)

    def pile_face(self, pile: Pile) -> str:
        """What a player sees on `pile`: its face-up top card ("8c"), "back" (face-down cards)
        or "empty"."""
        top = self.stock_top if pile == "stock" else self.waste_top
        if top is not None:
            return str(top)
        return "back" if (self.stock_count if pile == "stock" else self.waste) else "empty"

    def pile_tap_refusal(
        self, pile: Pile, face: str, selected: Card | str | None = None
    ) -> str | None:
        """Why a tap on `pile` made while it showed `face` (`pile_face`) no longer means what
        the player saw it mean, or None when it still does. A face-down stock draws whichever
        card is next, so quick taps draw once each; a tap that acts on a face-up card, or a
        draw whose stock ran out meanwhile, is refused with the reason.

        >>> game = Game.deal(42)
        >>> game.pile_tap_refusal("stock", "back") is None
        True
        >>> game.pile_tap_refusal("stock", "empty")
        'the waste was turned over before that tap arrived; nothing was done'
        """
        pick = self._as_card(selected) if selected is not None else None
        then, now = (
            self._pile_meaning(pile, face, pick),
            self._pile_meaning(pile, self.pile_face(pile), pick),
        )
        if then == now:
            return None
        if then == "draw" and now == "recycle":
            return words.STOCK_RAN_OUT
        if then == "recycle":
            return words.STOCK_TURNED_OVER
        return words.pile_changed(pile)

    def _pile_meaning(self, pile: Pile, face: str, pick: Card | None) -> str:
        """What a tap on `pile` with `face` on it acts on: "draw", "recycle", or a card."""
        if pile == "waste":
            return face
        if face in ("back", "empty"):
            return "draw" if face == "back" else "recycle"
        top = Card.parse(face)
        return face if pick is not None or self._king_leaves_from_stock(top) else "draw"

    def auto_partner(self, card: Card) -> Card | None:
        """The partner auto-pair takes for `card`: the first card in play that makes 13 with
        it, searching the pyramid from the top row down, left to right, then the waste top,
        then a face-up stock top."""
        return next((other for other in self.in_play if card.pairs_with(other)), None)

    def uncovered_by(self, move: Move | str) -> tuple[Card, ...]:
        """The pyramid cards `move` exposes (covered now, in play after it); changes nothing."""
        after = self.copy()
        after.play(move)
        before = set(self.exposed)
        return tuple(card for card in after.exposed if card not in before)

    @property
    def selectable(self) -> tuple[Card, ...]:
        """The cards a lone tap selects (in play, not a King): they wait for a partner."""
        return tuple(card for card in self.in_play if not card.is_king)

    def _king_leaves_from_stock(self, top: Card) -> bool:
        return top.is_king and self.rules.king_from_stock

    def _checked(self, move: Move) -> Move:
        refusal = self._refusal(move)
        if refusal is not None:
            raise IllegalMove(refusal, move)
        return move

    @staticmethod
    def _as_card(card: Card | str) -> Card:
        if isinstance(card, Card):
            return card
        try:
            return Card.parse(card)
        except ValueError:
            raise IllegalMove(words.not_a("card", card)) from None

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
        if self.recycle_refusal is None:
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
            raise IllegalMove(words.NOTHING_TO_UNDO)
        self._positions.pop()
        move = self._history.pop()
        self._redo.append(move)
        return move

    def redo(self) -> Move:
        """Play again the last undone move. IllegalMove if none."""
        if not self._redo:
            raise IllegalMove(words.NOTHING_TO_REDO)
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
        score = pos.score + earned(self.rules, pos.removed, removed, len(move.cards), len(rest))
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
                elif is_exposed(removed, i):
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

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        """A notebook shows the position as a picture (`svg.board`, with its words as alt text);
        terminals keep `repr`. The picture's module is imported only when one is drawn, as
        python-chess's `Board` imports `chess.svg`: the engine never loads it otherwise."""
        from . import svg

        return svg.board(self)._repr_mimebundle_()

    def __repr__(self) -> str:
        deal = f" #{self.deal_number}" if self.deal_number is not None else ""
        state = self.outcome or "playing"
        score = f", score {self.score}" if self.rules.scoring else ""
        return (
            f"<Game {self.rules.name}{deal}: {state}, cleared {self.cleared}/28, "
            f"pass {self.pass_number}/{self.rules.passes_text}, stock {self.stock_count}, "
            f"waste {self.waste_top or '-'}, {words.count_of(self.move_count, 'move')}{score}>"
        )


def _whole_deck(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The 52 cards of a deal, each a Card and each once; ValueError naming the problem."""
    if isinstance(cards, str | bytes) or not isinstance(cards, Iterable):
        raise ValueError(
            f"a deal is 52 cards (use Game.from_layout for text), not {words.quoted(cards)}"
        )
    deck = tuple(cards)
    strangers = [card for card in deck if not isinstance(card, Card)]
    if strangers:
        raise ValueError(f"a deal is 52 cards, and {words.quoted(strangers[0])} is not a Card")
    if len(set(deck)) != 52 or len(deck) != 52:
        parse_layout(format_layout(deck))  # raises with the precise problem
    return deck


def deal_for_date(date: _dt.date | None = None, rules: Rules | str | None = None) -> Game:
    """The daily deal: deal number YYYYMMDD of the date (today by default)."""
    return Game.deal(daily_deal_number(date), rules)
