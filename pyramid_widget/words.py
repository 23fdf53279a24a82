"""The words a player reads that several layers share: one vocabulary for verdicts.

`Solution.status`, `Hint.verdict` and the review's `before` / `after` use the keys; the board,
the review table and the hints read them as these words (see docs/glossary.md).
"""

from __future__ import annotations

VERDICT_WORDS: dict[str, str] = {
    "winnable": "can be won",
    "unwinnable": "cannot be won from here",
    "unknown": "not known yet",
    "won": "won",
}


def verdict_words(verdict: str) -> str:
    """How a verdict reads to a player.

    >>> verdict_words("unwinnable")
    'cannot be won from here'
    """
    return VERDICT_WORDS.get(verdict, verdict)


def join_words(parts: list[str]) -> str:
    """ "a", "a and b", "a, b and c".

    >>> join_words(["7♦", "2♣", "K♠"])
    '7♦, 2♣ and K♠'
    """
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]
