"""One puzzle: a position where exactly one removal (or two) keeps the win, with its answers,
the moves that lose, their explanations, themes and a measured difficulty.

Puzzles are data (they ship as JSON lines and travel to a front end), so `Puzzle.from_dict`
checks every field before it believes it: a damaged record gets a ValueError naming the field,
never a half-built puzzle.
"""

from __future__ import annotations

import hashlib
import html
from dataclasses import dataclass
from typing import Any

from .. import svg, words
from ..deals import check_deal_number
from ..game import Game, Move
from ..rules import Rules
from .players import REMOVALS
from .rating import Difficulty, Measures, difficulty
from .themes import THEMES

LINES = ("solver", "player")
"""The lines of play a puzzle is found on: the solver's winning line, or a plausible player's."""


def position_key(game: Game) -> str:
    """What makes two positions the same puzzle: the rules, the deal's cards, the cards left,
    the waste, the pass and the cards seen (not the move count or the score)."""
    pos = game.position
    return "|".join(
        [
            game.rules.name,
            game.layout,
            f"{pos.removed:07x}",
            " ".join(str(card) for card in pos.rest),
            str(pos.waste_count),
            str(pos.pass_number),
            " ".join(sorted(str(card) for card in game.seen)),
        ]
    )


def puzzle_id(game: Game) -> str:
    """A puzzle's stable id: 12 hex digits of the SHA-256 of its `position_key`."""
    return hashlib.sha256(position_key(game).encode()).hexdigest()[:12]


@dataclass(frozen=True)
class Choice:
    """One legal move of the puzzle and its verdict: ``move`` (notation, for code), ``text``
    (card symbols, for players), ``keeps_win`` and ``why`` (a sentence in card symbols)."""

    move: str
    text: str
    keeps_win: bool
    why: str

    def __post_init__(self) -> None:
        if not isinstance(self.move, str):
            raise ValueError(f"a choice's move must be a notation, not {words.quoted(self.move)}")
        move = Move.parse(self.move)  # IllegalMove is a ValueError
        if self.move != str(move) or self.text != move.text:
            raise ValueError(
                f"choice {words.quoted(self.move)}: write it {str(move)!r}, shown {move.text!r}"
            )
        if not isinstance(self.keeps_win, bool):
            raise ValueError(f"choice {move}: keeps_win must be true or false")
        if not isinstance(self.why, str) or not self.why.strip():
            raise ValueError(f"choice {move}: why must be a sentence")

    @classmethod
    def of(cls, move: Move, keeps_win: bool, why: str) -> Choice:
        return cls(str(move), move.text, keeps_win, why)

    def to_dict(self) -> dict[str, Any]:
        return {"move": self.move, "text": self.text, "keeps_win": self.keeps_win, "why": self.why}

    @classmethod
    def from_dict(cls, data: Any) -> Choice:
        if not isinstance(data, dict) or set(data) != {"move", "text", "keeps_win", "why"}:
            raise ValueError("a choice is an object with move, text, keeps_win and why")
        return cls(data["move"], data["text"], data["keeps_win"], data["why"])


@dataclass(frozen=True)
class Verdict:
    """What `Puzzle.check` says of a move: ``legal``, ``right`` (it is an answer),
    ``keeps_win`` and a ``sentence`` for the player (card symbols)."""

    move: str
    text: str
    legal: bool
    right: bool
    keeps_win: bool
    sentence: str


@dataclass(frozen=True)
class Puzzle:
    """A position from a real deal where one removal (or two) keeps the win and every other
    legal move throws it away.

    id: stable, from the position (`puzzle_id`). rules: the rules' name. code: the position
        code (`Game.from_code`). deal, move, line: where it was found (numbered deal, moves
        played from its start, on the "solver"'s or a "player"'s line).
    answers: the removals that keep the win. alternatives: every other legal move, each of
        which loses, the most tempting first. themes: ids of `THEMES`. unseen: cards the
        player has not seen (the answer holds whatever order they lie in). measures, rating,
        difficulty: `rating`.

    A puzzle is checked when it is made (by hand, by `from_dict` or by the miner): every field
    has its type, the code loads into a game at a position with this id and move count, the
    choices are exactly its legal moves, the answers (one or two) are removals and the unseen
    count is right. Whether the answers really keep the win is the solver's to say
    (`verify.problems`).
    """

    id: str
    rules: str
    code: str
    deal: int
    move: int
    line: str
    answers: tuple[Choice, ...]
    alternatives: tuple[Choice, ...]
    themes: tuple[str, ...]
    unseen: int
    measures: Measures

    def __post_init__(self) -> None:
        for name in ("id", "rules", "code", "line"):
            if not isinstance(getattr(self, name), str):
                raise ValueError(f"puzzle {name} must be a text")
        for name in ("deal", "move", "unseen"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"puzzle {name} must be a whole number from 0 up")
        check_deal_number(self.deal)
        if self.line not in LINES:
            raise ValueError(f"puzzle line must be one of {', '.join(LINES)}")
        if Rules.parse(self.rules).name != self.rules:
            raise ValueError(f"puzzle rules must be written {Rules.parse(self.rules).name!r}")
        for name, keeps_win in (("answers", True), ("alternatives", False)):
            choices = getattr(self, name)
            if not isinstance(choices, tuple) or not all(isinstance(c, Choice) for c in choices):
                raise ValueError(f"puzzle {name} must be a tuple of choices")
            if any(c.keeps_win is not keeps_win for c in choices):
                raise ValueError(f"puzzle {name}: keeps_win must be {keeps_win} for each")
        if not 1 <= len(self.answers) <= 2 or not self.alternatives:
            raise ValueError("a puzzle has one or two answers and at least one alternative")
        if any(Move.parse(c.move).kind not in ("pair", "king") for c in self.answers):
            raise ValueError("a puzzle's answers are removals")
        themes = self.themes
        if not isinstance(themes, tuple) or not themes or not set(themes) <= set(THEMES):
            raise ValueError(f"puzzle themes must be a tuple of: {', '.join(THEMES)}")
        if len(set(themes)) != len(themes):
            raise ValueError("puzzle themes are each named once")
        if not isinstance(self.measures, Measures):
            raise ValueError("puzzle measures must be Measures")
        self._check_position()

    def _check_position(self) -> None:
        if not self.code.startswith(f"pw1:{self.rules}:"):
            raise ValueError("puzzle code must be a position code under the puzzle's rules")
        game = self.game()  # ValueError if damaged or unreachable
        if puzzle_id(game) != self.id or game.move_count != self.move:
            raise ValueError(
                f"puzzle {words.quoted(self.id)}: its id or move does not match its code"
            )
        moves = [c.move for c in self.answers + self.alternatives]
        legal = [str(m) for m in game.legal_moves()]
        if len(set(moves)) != len(moves) or set(moves) != set(legal):
            raise ValueError(
                f"puzzle {words.quoted(self.id)}: its choices are not the position's legal moves"
            )
        if unseen_cards(game) != self.unseen:
            raise ValueError(
                f"puzzle {words.quoted(self.id)}: unseen must count the cards not yet seen"
            )

    @property
    def rating(self) -> int:
        return self.measures.rating

    @property
    def difficulty(self) -> Difficulty:
        return difficulty(self.rating)

    def game(self) -> Game:
        """A fresh game at the puzzle's position."""
        return Game.from_code(self.code)

    def picture(
        self, *, answer: bool = False, theme: str = "light", size: float | None = None
    ) -> svg.SvgImage:
        """The position as a picture (`svg.board`; no unseen card shown). With ``answer``, the
        first answer is marked as the better move and the most tempting losing removal as the
        mistake, for an answer sheet."""
        marks = {}
        if answer:
            tempting = [c for c in self.alternatives if Move.parse(c.move).kind in REMOVALS]
            marks = {"better": self.answers[0].move, "mistake": tempting[0].move}
        return svg.board(self.game(), theme=theme, size=size, **marks)

    def _repr_html_(self) -> str:
        """A notebook shows the task, the themes and the difficulty over the picture."""
        about = html.escape(f"{self.task} {', '.join(self.theme_titles)}; {self.difficulty}.")
        return f"<div><p>{about}</p>{self.picture()}</div>"

    @property
    def task(self) -> str:
        """What to find, for the player."""
        return words.puzzle_task(len(self.answers))

    @property
    def theme_titles(self) -> tuple[str, ...]:
        return tuple(THEMES[theme].title for theme in self.themes)

    @property
    def about(self) -> dict[str, Any]:
        """What a front end may show before the puzzle is solved: no answer, and nothing that
        names an unseen card. The code and the deal number both name every card (a deal number
        is its layout), so neither is here while a card is unseen; the deal is named once
        every card has been seen.

        >>> from pyramid_widget import puzzles
        >>> hiding = next(puzzle for puzzle in puzzles.load() if puzzle.unseen)
        >>> "deal" in hiding.about, "code" in hiding.about
        (False, False)
        """
        shown: dict[str, Any] = {
            "id": self.id,
            "rules": self.rules,
            "move": self.move,
            "task": self.task,
            "themes": list(self.themes),
            "theme_titles": list(self.theme_titles),
            "difficulty": self.difficulty,
            "rating": self.rating,
            "unseen": self.unseen,
        }
        if not self.unseen:
            shown["deal"] = self.deal
        return shown

    def choice(self, move: Move | str) -> Choice | None:
        """The answer or alternative for ``move``, or None if it is not a legal move here."""
        notation = str(Move.parse(move))
        return next((c for c in self.answers + self.alternatives if c.move == notation), None)

    def check(self, move: Move | str) -> Verdict:
        """Judge a player's move: right (an answer), wrong (it loses: why), or not possible
        here (the rules' reason). Raises IllegalMove (a ValueError) for text that is no move.

        >>> from pyramid_widget import puzzles
        >>> puzzle = puzzles.load("classic")[0]
        >>> puzzle.check(puzzle.answers[0].move).right
        True
        >>> puzzle.check(puzzle.alternatives[0].move).keeps_win
        False
        """
        parsed = Move.parse(move)
        choice = self.choice(parsed)
        if choice is None:
            refusal = self.game().refusal(parsed) or words.NOT_THIS_POSITIONS
            sentence = words.not_possible(parsed.text, refusal)
            return Verdict(str(parsed), parsed.text, False, False, False, sentence)
        right = choice in self.answers
        return Verdict(choice.move, choice.text, True, right, choice.keeps_win, choice.why)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "rules": self.rules,
            "code": self.code,
            "deal": self.deal,
            "move": self.move,
            "line": self.line,
            "answers": [choice.to_dict() for choice in self.answers],
            "alternatives": [choice.to_dict() for choice in self.alternatives],
            "themes": list(self.themes),
            "unseen": self.unseen,
            "measures": self.measures.to_dict(),
            "rating": self.rating,
            "difficulty": self.difficulty,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Puzzle:
        """Read a record written by `to_dict`; ValueError naming what is wrong."""
        if not isinstance(data, dict) or set(data) != _FIELDS:
            raise ValueError("a puzzle is an object with " + ", ".join(sorted(_FIELDS)))
        for name in ("answers", "alternatives", "themes"):
            if not isinstance(data[name], list):
                raise ValueError(f"puzzle {name} must be a list")
        puzzle = cls(
            data["id"],
            data["rules"],
            data["code"],
            data["deal"],
            data["move"],
            data["line"],
            tuple(Choice.from_dict(item) for item in data["answers"]),
            tuple(Choice.from_dict(item) for item in data["alternatives"]),
            tuple(data["themes"]),
            data["unseen"],
            Measures.from_dict(data["measures"]),
        )
        if data["rating"] != puzzle.rating or data["difficulty"] != puzzle.difficulty:
            raise ValueError("puzzle rating and difficulty must follow from its measures")
        return puzzle


_FIELDS = set(Puzzle.__dataclass_fields__) | {"rating", "difficulty"}


def unseen_cards(game: Game) -> int:
    """How many cards of the position the player has never seen (all lie in the stock)."""
    seen = game.seen
    return sum(card not in seen for card in game.stock)
