"""The player's view: what a player at the table sees, and nothing else, for a strategy to read.

A strategy must play as a person at the table could: it sees the 28 pyramid cards, the waste,
how many cards the stock holds (and its top, when the rules turn it face up), the passes left,
the moves played and the moves allowed now, and it remembers every card it has seen turned up.
It never sees a card still face down. So a `PlayerView` is a copy of exactly those things,
taken from the game, and holds no `Game` a strategy could reach into; asking it for a card
that is still face down raises `UnseenCard`, and it has no deal number (a numbered deal names
every card). Two games that differ only in their unseen cards give equal views.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from ..cards import DECK, PYRAMID_SIZE, STOCK_SIZE, Card, is_exposed
from ..game import Game
from ..moves import Move
from ..position import Position
from ..rules import Rules


class UnseenCard(LookupError):
    """A strategy asked its view for a card that is still face down: a player cannot see it."""


class StockView(Sequence[Card]):
    """The stock as a player sees it, next card first: its length is the stock's count, and
    ``stock[i]`` is a card the player has seen there (turned up on an earlier pass, or the
    face-up top where the rules show it), else `UnseenCard`.

    >>> view = PlayerView.of(Game.deal(42, "classic"))
    >>> len(view.stock)
    24
    >>> view.stock[0]
    Traceback (most recent call last):
    pyramid_widget.lab.player_view.UnseenCard: the stock's card 1 (of 24) is face down: ...
    """

    __slots__ = ("_places",)

    def __init__(self, places: tuple[Card | None, ...]) -> None:
        self._places = places  # a seen card, or None where the card is face down

    def __len__(self) -> int:
        return len(self._places)

    @overload
    def __getitem__(self, index: int) -> Card: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Card, ...]: ...

    def __getitem__(self, index: int | slice) -> Card | tuple[Card, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(len(self._places))[index])
        card = self._places[index]
        if card is None:
            place = index % len(self._places) + 1
            raise UnseenCard(
                f"the stock's card {place} (of {len(self._places)}) is face down: a player "
                "has not seen it, so a strategy cannot read it"
            )
        return card

    def __iter__(self) -> Iterator[Card]:
        return (self[i] for i in range(len(self._places)))

    @property
    def known(self) -> tuple[Card | None, ...]:
        """Every place, next card first: the card where the player has seen it, else None."""
        return self._places

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StockView) and other._places == self._places

    def __hash__(self) -> int:
        return hash(self._places)

    def __repr__(self) -> str:
        shown = " ".join("##" if card is None else str(card) for card in self._places)
        return f"<stock of {len(self._places)}: {shown}>"


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What a player at the table sees now (build one with `PlayerView.of(game)`).

    rules: the game's rules. pyramid: the 28 places, apex first, each card or None once gone;
    dealt: the 28 cards as they were dealt (all face up from the start). exposed, in_play: the
    pyramid cards free now, and those with the waste top and a face-up stock top. waste: bottom
    to top (each was seen when drawn). stock: a `StockView`; stock_top: the face-up stock top
    where the rules show it, else None. stock_order: the 24 stock places in the order dealt,
    each card the player has seen there, else None. pass_number, passes_left (None:
    unlimited), move_count, score. history: the moves played. seen: every card seen face up.
    legal: the moves allowed now (`legal_moves()` as a list, as `Game` has it).

    >>> view = PlayerView.of(Game.deal(42, "open-stock"))
    >>> view.stock_top, view.stock_count, view.legal_moves()
    (Card.parse('4h'), 24, [Move.parse('Ks'), Move.parse('draw')])
    >>> view.deal_number
    Traceback (most recent call last):
    AttributeError: a player's view has no 'deal_number': it holds only what a player at ...
    """

    rules: Rules
    pyramid: tuple[Card | None, ...]
    dealt: tuple[Card, ...]
    exposed: tuple[Card, ...]
    in_play: tuple[Card, ...]
    waste: tuple[Card, ...]
    stock: StockView
    stock_top: Card | None
    stock_order: tuple[Card | None, ...]
    pass_number: int
    passes_left: int | None
    move_count: int
    score: int
    history: tuple[Move, ...]
    seen: frozenset[Card]
    legal: tuple[Move, ...]

    @classmethod
    def of(cls, game: Game) -> PlayerView:
        """The view of `game` now: copies of what its player has seen, never the game."""
        pos = game.position
        seen = game.seen
        removed = pos.removed
        dealt = game.cards[:PYRAMID_SIZE]
        exposed = tuple(
            dealt[i] for i in range(PYRAMID_SIZE) if not removed >> i & 1 and is_exposed(removed, i)
        )
        waste, stock = pos.waste, pos.stock
        stock_top = game.stock_top
        tops = tuple(c for c in (waste[-1] if waste else None, stock_top) if c is not None)
        # The stock cards seen are always its first ones in the order dealt (every game is
        # held to that: `position.check_reachable`), so they are counted, not looked up.
        turned = len(seen) - PYRAMID_SIZE
        known = len(stock) if turned == STOCK_SIZE else 0
        while known < len(stock) and stock[known] in seen:
            known += 1
        return cls(
            rules=game.rules,
            pyramid=tuple(None if removed >> i & 1 else dealt[i] for i in range(PYRAMID_SIZE)),
            dealt=dealt,
            exposed=exposed,
            in_play=exposed + tops,
            waste=waste,
            stock=StockView(stock[:known] + (None,) * (len(stock) - known)),
            stock_top=stock_top,
            stock_order=game.cards[PYRAMID_SIZE : PYRAMID_SIZE + turned]
            + (None,) * (STOCK_SIZE - turned),
            pass_number=pos.pass_number,
            passes_left=game.passes_left,
            move_count=pos.move_count,
            score=pos.score,
            history=tuple(game.history),
            seen=seen,
            legal=tuple(game.legal_moves()),
        )

    def __getattr__(self, name: str) -> Any:
        """Only names that do not exist get here: say why a view has no deck, deal or game."""
        raise AttributeError(
            f"a player's view has no {name!r}: it holds only what a player at the table sees "
            "(no deal number, no game, no face-down card)"
        )

    # ----------------------------------------------------------------- read from the fields
    @property
    def waste_top(self) -> Card | None:
        return self.waste[-1] if self.waste else None

    @property
    def stock_count(self) -> int:
        return len(self.stock)

    @property
    def log(self) -> list[str]:
        """The moves played, in notation."""
        return [str(move) for move in self.history]

    @property
    def cleared(self) -> int:
        """Pyramid cards gone."""
        return sum(card is None for card in self.pyramid)

    @property
    def is_won(self) -> bool:
        if any(card is not None for card in self.pyramid):
            return False
        return self.rules.win == "pyramid" or not (self.waste or self.stock_count)

    @property
    def unseen(self) -> frozenset[Card]:
        """The cards not seen yet (all in the stock): which ones is no secret, only where."""
        return frozenset(DECK) - self.seen

    @property
    def gone(self) -> frozenset[Card]:
        """The cards removed so far (each was seen)."""
        left = {*self.pyramid, *self.waste, *self.stock.known}
        return frozenset(card for card in self.seen if card not in left)

    def legal_moves(self) -> list[Move]:
        """The moves allowed now: pairs and Kings first, then draw, then recycle."""
        return list(self.legal)

    def uncovered_by(self, move: Move | str) -> tuple[Card, ...]:
        """The pyramid cards `move` would expose (covered now, free after it), from the
        pyramid's shape alone; whether the move is allowed is `legal`'s question."""
        taken = {self.dealt.index(card) for card in Move.parse(move).cards if card in self.dealt}
        before = sum(1 << i for i, card in enumerate(self.pyramid) if card is None)
        after = before | sum(1 << i for i in taken)
        return tuple(
            self.dealt[i]
            for i in range(PYRAMID_SIZE)
            if not after >> i & 1 and is_exposed(after, i) and not is_exposed(before, i)
        )

    def game_as_seen(self) -> Game:
        """A `Game` that agrees with everything this view shows, its unseen cards laid in the
        stock's face-down places in a fixed order (`sorted`): for tools that take a game, such
        as a fair hint, which answers alike whatever order the unseen cards lie in. It tells
        nothing a player could not know (and its history starts here)."""
        unseen = iter(sorted(self.unseen))
        order = tuple(card if card is not None else next(unseen) for card in self.stock_order)
        left = {*self.waste, *self.stock.known, *self.unseen}
        removed = sum(1 << i for i, card in enumerate(self.pyramid) if card is None)
        rest = tuple(card for card in order if card in left)
        start = Position(
            removed, rest, len(self.waste), self.pass_number, self.move_count, self.score
        )
        return Game((*self.dealt, *order), self.rules, start=start, seen=self.seen)

    def __str__(self) -> str:
        """The table as text (see `Game.board`): the stock face down but for a face-up top."""
        return self.game_as_seen().board()

    def _repr_svg_(self) -> str:
        """A notebook shows the view as a picture of the table (see `pyramid_widget.svg`)."""
        return self.game_as_seen()._repr_svg_()
