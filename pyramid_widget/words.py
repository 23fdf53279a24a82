"""Every sentence a player reads, written in one place.

The modules that decide what to say (which move is refused, which cards a move frees, why a
puzzle's move loses) ask here for the words. A player reads card symbols (10♠, 5♥ + 8♣), never
notation, and one vocabulary (docs/glossary.md); tests/test_design.py fails on a player
sentence built anywhere else. Refusals are phrases ("nothing to undo"), made sentences where
they are shown.
"""

from __future__ import annotations

from .cards import RANK_NAMES


# ---------------------------------------------------------------------------- helpers
def capitalised(text: str) -> str:
    """The one capitalising helper: the first letter upper-cased, the rest kept as it is.

    >>> capitalised("cannot be won from here")
    'Cannot be won from here'
    """
    return text[:1].upper() + text[1:]


def sentence(text: str) -> str:
    """A phrase as a sentence: capitalised, with a full stop unless it has one.

    >>> sentence("nothing to undo")
    'Nothing to undo.'
    """
    return capitalised(text) + ("" if text.endswith(".") else ".")


def join_words(parts: list[str]) -> str:
    """ "a", "a and b", "a, b and c".

    >>> join_words(["7♦", "2♣", "K♠"])
    '7♦, 2♣ and K♠'
    """
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def count_of(count: int, noun: str, plural: str | None = None) -> str:
    """A count and its noun: "1 card", "3 cards", "2 wrong tries".

    >>> count_of(1, "move"), count_of(3, "move"), count_of(2, "wrong try", "wrong tries")
    ('1 move', '3 moves', '2 wrong tries')
    """
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


_COUNT_WORDS = ("no", "one", "two", "three", "four")


def count_word(count: int) -> str:
    """Small counts in words (a pyramid holds at most four cards of a value)."""
    return _COUNT_WORDS[count] if count < len(_COUNT_WORDS) else str(count)


def rank_word(value: int, count: int = 1) -> str:
    """A value in words, singular or plural: "Four", "Fours", "Sixes". (Words, not "4s",
    which would read as the card 4♠ in notation.)

    >>> rank_word(4, 2), rank_word(1), rank_word(6, 3)
    ('Fours', 'Ace', 'Sixes')
    """
    word = RANK_NAMES[value - 1]
    if count == 1:
        return word
    return word + ("es" if word.endswith("x") else "s")


# ---------------------------------------------------------------------------- verdicts
VERDICT_WORDS: dict[str, str] = {
    "winnable": "can be won",
    "unwinnable": "cannot be won from here",
    "unknown": "not known yet",
    "won": "won",
}
"""How `Solution.status`, `Hint.verdict` and the review's `before` / `after` read."""


def verdict_words(verdict: str) -> str:
    """How a verdict reads to a player.

    >>> verdict_words("unwinnable")
    'cannot be won from here'
    """
    return VERDICT_WORDS.get(verdict, verdict)


# ---------------------------------------------------------------------------- refusals
# Why the engine refuses a move or a tap (`Game.refusal`, `IllegalMove.reason`).
NOT_THIRTEEN = "those two do not add up to 13"
COVERED = "that card is still covered"
NOT_IN_PLAY = "that card is not in play"
SAME_CARD = "a card cannot pair with itself"
KING_ALONE = "a King is removed alone"
NEEDS_PARTNER = "that card needs a partner that makes 13"
NO_PARTNER = "nothing in play makes 13 with that card"
EMPTY_WASTE = "the waste is empty"
KING_DRAW_FIRST = "draw the King to the waste first"
NO_CARDS_TO_TURN = "no cards left to turn"
RECYCLE_NEEDS_EMPTY_STOCK = "recycling unlocks once the stock is empty"
NO_RECYCLES = "no recycles left"
NOTHING_TO_RECYCLE = "nothing in the waste to recycle"
ALREADY_WON = "the game is already won"
NOTHING_TO_UNDO = "nothing to undo"
NOTHING_TO_REDO = "nothing to redo"
NO_MOVE_LEFT = "no move is left"
NOTHING_PLAYED = "no move has been played yet"
PAUSED = "the game is paused: resume to play"
"""Why nothing moves during a pause (a refusal, and a greyed button's tooltip)."""
NO_HINTS_IN_PUZZLES = "a puzzle gives no hints: finding the move is the point"


def not_a_move(text: object) -> str:
    """Text or a value that names no move."""
    return f"not a move: {text!r}"


def not_a_card(text: object) -> str:
    return f"not a card: {text!r}"


def bad_move_kind(kind: object) -> str:
    """A hand-built `Move` of an unknown kind."""
    return f"not a move: unknown kind {kind!r}"


def bad_move_cards(kind: str, cards: object) -> str:
    """A hand-built `Move` whose cards are not cards."""
    return f"not a move: {kind} needs cards, not {cards!r}"


def bad_card_count(kind: str, count: int, given: int) -> str:
    """A hand-built `Move` with too many or too few cards."""
    return f"not a move: a {kind} names {count} card(s), not {given}"


def refused_in_replay(number: int, move: object, reason: str) -> str:
    """A replayed move the rules refuse, by its number in the list."""
    return f"move {number} ({move!s}): {reason}"


def refused_redo(reason: str) -> str:
    return f"redo {reason}"
