"""Rule settings, the named presets, and the editions they come from.

Every point on which the five source editions differ is a field of `Rules`; each edition's
combination is a named preset. Nothing about these choices is hard-wired anywhere else: the
game consults its `Rules`. The editions' codes ("000" ... "004", the source documents) are
defined once, in `EDITIONS`; everywhere else the code speaks of behaviour.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal

from .words import quoted, rules_sections, rules_summary

WinCondition = Literal["pyramid", "deck"]

MAX_PASSES = 999
"""The most passes a rule may set: more than a game is ever played with ("unlimited", None,
is the rule for more), and a count short enough to write in a name or a code."""


@dataclass(frozen=True)
class Rules:
    """The rule settings of one game.

    stock_in_play: the stock's top card lies face up and can be paired (002, 003, Microsoft).
    passes: passes through the stock (1 = no recycle, at most `MAX_PASSES`); None means
        unlimited.
    win: "pyramid" (the 28 pyramid cards gone) or "deck" (pyramid, stock and waste gone).
    scoring: 001's points (5 a card, 25 a cleared row, 100 + 10 a card left on clearing).
    king_from_stock: with the stock top in play, a King there leaves alone without being drawn
        first (003 and Microsoft); False is 002's way, where it must be drawn to the waste.
    """

    stock_in_play: bool = False
    passes: int | None = 3
    win: WinCondition = "pyramid"
    scoring: bool = False
    king_from_stock: bool = True

    def __post_init__(self) -> None:
        for flag in ("stock_in_play", "scoring", "king_from_stock"):
            if not isinstance(getattr(self, flag), bool):
                raise ValueError(f"{flag} must be true or false")
        if self.passes is not None and (
            isinstance(self.passes, bool)
            or not isinstance(self.passes, int)
            or not 1 <= self.passes <= MAX_PASSES
        ):
            raise ValueError(
                f"passes must be a whole number from 1 to {MAX_PASSES}, or None; "
                f"not {quoted(self.passes)}"
            )
        if self.win not in ("pyramid", "deck"):
            raise ValueError(f"win must be 'pyramid' or 'deck', not {quoted(self.win)}")

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> Rules:
        """The named edition's rules, with any field overridden (e.g. passes=1)."""
        try:
            base = PRESETS[name]
        except KeyError:
            known = ", ".join(PRESETS)
            raise ValueError(f"unknown rules {quoted(name)}; known presets: {known}") from None
        return replace(base, **overrides) if overrides else base

    @property
    def name(self) -> str:
        """The preset name, plus the fields that differ from it: "classic,passes=1"."""
        best_name, best_diff = "classic", self._diff(PRESETS["classic"])
        for preset_name, preset in PRESETS.items():
            diff = self._diff(preset)
            if len(diff) < len(best_diff):
                best_name, best_diff = preset_name, diff
        return ",".join([best_name, *(f"{k}={_show(v)}" for k, v in best_diff)])

    def _diff(self, other: Rules) -> list[tuple[str, Any]]:
        return [
            (f.name, getattr(self, f.name))
            for f in fields(self)
            if getattr(self, f.name) != getattr(other, f.name)
        ]

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Read a name as printed by `name`: "open-stock" or "classic,passes=1,scoring=true".

        >>> Rules.parse("classic,passes=1").passes
        1
        >>> Rules.parse("scored,passes=unlimited").name
        'scored,passes=unlimited'
        """
        if not isinstance(text, str) or not text.strip():
            raise ValueError("rules name is empty")
        head, *parts = [p.strip() for p in text.split(",")]
        overrides: dict[str, Any] = {}
        known = {f.name for f in fields(cls)}
        for part in parts:
            key, sep, raw = part.partition("=")
            key = key.strip()
            if not sep or key not in known:
                raise ValueError(f"unknown rules setting {quoted(part)}")
            overrides[key] = _read(key, raw.strip())
        return cls.preset(head, **overrides)

    @classmethod
    def coerce(cls, rules: Rules | str | None) -> Rules:
        """Accept what the public API accepts: a Rules, a name for `parse`, or None (classic)."""
        if rules is None:
            return cls()
        if isinstance(rules, str):
            return cls.parse(rules)
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a Rules or a preset name, not {quoted(rules)}")
        return rules

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        if not isinstance(data, dict):
            raise ValueError("rules must be an object")
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown rules settings: {', '.join(sorted(unknown))}")
        return cls(**data)

    @property
    def passes_text(self) -> str:
        return "unlimited" if self.passes is None else str(self.passes)

    @property
    def explained(self) -> tuple[tuple[str, str], ...]:
        """How to play under these rules, as (title, text) sections for a Rules panel: made
        from the settings, so it is always true to them.

        >>> dict(Rules.preset("one-recycle").explained)["Passes"].endswith("2 passes in all.")
        True
        """
        return rules_sections(self)

    @property
    def summary(self) -> str:
        """These rules in one plain sentence, e.g. for a menu.

        >>> Rules.preset("strict").summary
        'Stock top face up and in play; a King there is drawn first; 1 pass; clear the whole deck.'
        """
        return rules_summary(self)


def _show(value: Any) -> str:
    if value is None:
        return "unlimited"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _read(key: str, raw: str) -> Any:
    low = raw.lower()
    if key == "passes":
        if low in ("none", "unlimited", "inf"):
            return None
        # ASCII digits only, few enough to read (Python reads no number past 4,300 digits).
        count = int(low) if low.isascii() and low.isdigit() and len(low) <= 9 else 0
        if not 1 <= count <= MAX_PASSES:
            raise ValueError(
                f"passes must be a number from 1 to {MAX_PASSES} or 'unlimited', not {quoted(raw)}"
            )
        return count
    if key == "win":
        return low
    if low in ("true", "1", "yes", "on"):
        return True
    if low in ("false", "0", "no", "off"):
        return False
    raise ValueError(f"{key} must be true or false, not {quoted(raw)}")


PRESETS: dict[str, Rules] = {
    "classic": Rules(),
    "scored": Rules(scoring=True),
    "open-stock": Rules(stock_in_play=True),
    "one-recycle": Rules(passes=2),
    "strict": Rules(stock_in_play=True, passes=1, win="deck", king_from_stock=False),
}
"""The named presets: each source edition's combination of rules (see `EDITIONS`)."""


@dataclass(frozen=True)
class Edition:
    """One source edition (the rule pages and guides the product is built from)."""

    code: str
    preset: str
    what: str


EDITIONS: tuple[Edition, ...] = (
    Edition("000", "classic", "face-down stock, waste top only, 3 passes; auto-pair, records"),
    Edition("001", "scored", "scoring, 1/3/unlimited passes, winnable deals, all-seeing hints"),
    Edition("002", "open-stock", "stock top face up and in play, 3 passes"),
    Edition("002", "strict", "the traditional game: 1 pass, the whole deck, King drawn first"),
    Edition("003", "open-stock", "stock top in play; refusals explained; fair hints"),
    Edition("004", "one-recycle", "waste top only, a single recycle; daily deal"),
)
"""The one table of edition codes and the presets that play them (shared/seeds/ holds the
source texts). Text a player reads never names an edition: it names behaviour."""
