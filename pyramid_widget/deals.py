"""Layouts, numbered deals and the daily deal.

A layout is 52 cards separated by spaces: cards 1-28 are the pyramid rows top to bottom, left
to right; cards 29-52 are the stock, card 29 drawn first.

Numbered deals must stay the same forever, on every platform and Python version, so they do not
use `random` (whose algorithms may change). The shuffle is spelled out here:

1. Start from the fresh deck Ac..Kc Ad..Kd Ah..Kh As..Ks (`cards.DECK`).
2. Seed SplitMix64 (Steele, Lea & Flood 2014) with the deal number.
3. Fisher-Yates from the end: for i = 51 down to 1, j = next64() mod (i + 1), swap cards i, j.
   (The modulo bias is below 2**-57, far beneath anything a player could notice.)
4. The shuffled deck, in order, is the layout.
"""

from __future__ import annotations

import datetime as _dt
import secrets
from collections import Counter

from .cards import DECK, Card
from .words import quoted

MASK64 = (1 << 64) - 1
MAX_DEAL = 2**32 - 1
"""Deal numbers run from 1 to MAX_DEAL; a random deal is one of them, so it can be shared."""


def splitmix64(seed: int):
    """Yield SplitMix64 outputs: a tiny, fully specified generator with good statistics."""
    state = seed & MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


def check_deal_number(number: object) -> int:
    """Return the number if it names a deal, else raise ValueError saying what is accepted."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_DEAL:
        raise _no_such_deal(number)
    return number


def read_deal_number(text: str) -> int:
    """The deal number `text` writes in ASCII digits, else ValueError as `check_deal_number`'s
    (a text of more digits than any deal number's is never read as a number: Python reads
    none past 4,300 digits)."""
    if not (text.isascii() and text.isdigit()) or len(text.lstrip("0")) > len(str(MAX_DEAL)):
        raise _no_such_deal(text)
    return check_deal_number(int(text))


def _no_such_deal(value: object) -> ValueError:
    return ValueError(f"unknown deal {quoted(value)}: deal numbers run from 1 to {MAX_DEAL}")


def deal_cards(number: int) -> tuple[Card, ...]:
    """The 52 cards of numbered deal `number`, in layout order.

    >>> " ".join(str(card) for card in deal_cards(42)[:3])
    '7c 3h Kc'
    """
    check_deal_number(number)
    deck = list(DECK)
    rng = splitmix64(number)
    for i in range(len(deck) - 1, 0, -1):
        j = next(rng) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def random_deal_number() -> int:
    return secrets.randbelow(MAX_DEAL) + 1


def daily_deal_number(date: _dt.date | None = None) -> int:
    """The daily deal of a date is deal number YYYYMMDD (today's by default)."""
    day = date or _dt.date.today()
    return day.year * 10000 + day.month * 100 + day.day


def parse_layout(text: str) -> tuple[Card, ...]:
    """Read a layout; refuse anything but exactly one full deck, naming the problem."""
    if not isinstance(text, str):
        raise ValueError("a layout is a text of 52 cards separated by spaces")
    words = text.split()
    cards: list[Card] = []
    for word in words:
        cards.append(Card.parse(word))  # raises "unknown card '1x'"
    duplicates = [str(card) for card, n in Counter(cards).items() if n > 1]
    if duplicates:
        raise ValueError(f"duplicate {', '.join(duplicates)} in the layout")
    if len(cards) != len(DECK):
        missing = sorted(set(DECK) - set(cards))
        hint = f" (missing {', '.join(map(str, missing))})" if len(missing) <= 4 else ""
        raise ValueError(f"a layout needs 52 cards; this one has {len(cards)} cards{hint}")
    return tuple(cards)


def format_layout(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(str(card) for card in cards)


def build_layout(
    pyramid: dict[int, str] | list[str | None] | None = None,
    stock: list[str | None] | None = None,
) -> str:
    """A layout with chosen cards in chosen places; every other place gets the unused cards in
    fresh-deck order. Handy for lessons and tests that need one particular position.

    `pyramid` is a list of up to 28 cards (row by row from the apex, None = any card) or a
    mapping {pyramid index: card}; `stock` is a list of up to 24 cards, the first drawn first.
    """
    slots: list[Card | None] = [None] * len(DECK)
    items = pyramid.items() if isinstance(pyramid, dict) else enumerate(pyramid or [])
    for i, text in items:
        if text is not None:
            if not 0 <= i < 28:
                raise ValueError(f"pyramid index {i} is outside 0..27")
            slots[i] = Card.parse(text)
    if stock and len(stock) > 24:
        raise ValueError("the stock holds 24 cards")
    for k, text in enumerate(stock or []):
        if text is not None:
            slots[28 + k] = Card.parse(text)
    chosen = [card for card in slots if card is not None]
    duplicates = [str(card) for card, n in Counter(chosen).items() if n > 1]
    if duplicates:
        raise ValueError(f"duplicate {', '.join(duplicates)} in the layout")
    spare = iter(card for card in DECK if card not in set(chosen))
    return format_layout([card if card is not None else next(spare) for card in slots])
