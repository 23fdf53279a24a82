"""Every sentence a player reads, written in one place: the modules that decide what to say
(which move is refused, which cards a move frees, why a puzzle's move loses) ask here for the
words. Card symbols (10♠, 5♥ + 8♣), never notation, and one vocabulary (docs/glossary.md);
tests/test_design.py fails on a player sentence built anywhere else. Refusals are phrases
("nothing to undo"), made sentences where they are shown.
"""

from __future__ import annotations

import reprlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from datetime import datetime

    from .cards import Card
    from .rules import Rules


# ---------------------------------------------------------------------------- cards
RANK_NAMES = tuple("Ace Two Three Four Five Six Seven Eight Nine Ten Jack Queen King".split())
SUIT_NAMES = {"c": "Clubs", "d": "Diamonds", "h": "Hearts", "s": "Spades"}
"""How a card is spoken (`Card.name`: "Five of Hearts"): the ranks' names, Ace first."""


# ---------------------------------------------------------------------------- helpers
def capitalised(text: str) -> str:
    """The one capitalising helper: the first letter upper-cased, the rest kept as it is.

    >>> capitalised("cannot be won from here")
    'Cannot be won from here'
    """
    return text[:1].upper() + text[1:]


def sentence(text: str) -> str:
    """A phrase as a sentence: capitalised, with a full stop unless it ends one already.

    >>> sentence("nothing to undo"), sentence("Pyramid cleared!")
    ('Nothing to undo.', 'Pyramid cleared!')
    """
    return capitalised(text) + ("" if text.endswith((".", "!", "?")) else ".")


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


QUOTE_MOST = 40
_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxtuple, _SHORT.maxdict, _SHORT.maxset = 2, 4, 4, 4, 4
_SHORT.maxstring = _SHORT.maxother = QUOTE_MOST


def quoted(value: object) -> str:
    """The one way a refusal quotes what it was given: its repr, cut to `QUOTE_MOST`
    characters with an ellipsis, so that a field of a megabyte (or a number of thousands of
    digits) comes back as a line, never whole.

    >>> quoted("Zz"), quoted("x" * 41), quoted(["Zz"] * 9), quoted(-(10**5000))[:4]
    ("'Zz'", "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'", "['Zz', 'Zz', 'Zz', 'Zz', ...]", '-100')
    """
    if isinstance(value, str):
        head = value[:QUOTE_MOST]
        while len(repr(head)) > QUOTE_MOST + 2:  # an escape ("\x00") counts as what it takes
            head = head[:-1]
        return repr(head) if head == value else repr(head)[:-1] + "…" + repr(head)[-1]
    if isinstance(value, int) and abs(value) >= 10**QUOTE_MOST:  # no repr past 4,300 digits
        drop = int(abs(value).bit_length() * 0.30102) - QUOTE_MOST  # leaves 40 digits or more
        return "-" * (value < 0) + str(abs(value) // 10**drop)[:QUOTE_MOST] + "…"
    text = _SHORT.repr(value)
    return text if len(text) <= QUOTE_MOST else text[:QUOTE_MOST] + "…"


# ---------------------------------------------------------------------------- verdicts
VERDICT_WORDS: dict[str, str] = {
    "winnable": "can be won",
    "unwinnable": "cannot be won from here",
    "unknown": "not known yet",
    "won": "won",
}
"""How `Solution.status`, `Hint.verdict` and the review's `before` / `after` read."""


def verdict_words(verdict: str) -> str:
    """How a verdict reads to a player ("unwinnable": "cannot be won from here")."""
    return VERDICT_WORDS.get(verdict, verdict)


# ---------------------------------------------------------------------------- refusals
# Why a move, a tap or a button does nothing (`Game.refusal`, `IllegalMove.reason`, a greyed
# button's tooltip).
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


def not_thirteen(card: Card, other: Card) -> str:
    """A pair whose values do not make 13, named with what they make.

    >>> from pyramid_widget import Card
    >>> not_thirteen(Card.parse("3d"), Card.parse("9s"))
    '3♦ and 9♠ make 12, not 13'
    """
    return f"{card.symbol} and {other.symbol} make {card.value + other.value}, not 13"


def not_a(thing: str, text: object) -> str:
    """Text or a value that names no move or no card: "not a card: 'Zz'"."""
    return f"not a {thing}: {quoted(text)}"


def malformed_move(kind: object, cards: object, count: int | None) -> str:
    """A hand-built `Move` that is none: an unknown kind (`count` None), or other than its
    `count` cards."""
    if count is None:
        return f"not a move: unknown kind {quoted(kind)}"
    return f"not a move: a {kind} names {count} card(s), not {quoted(cards)}"


def refused_in_replay(number: int, move: object, reason: str) -> str:
    """A replayed move the rules refuse, by its number in the list."""
    return f"move {number} ({quoted(str(move))}): {reason}"


def refused_redo(reason: str) -> str:
    return f"redo {reason}"


# ---------------------------------------------------------------------------- the board's modes
STOCK_RAN_OUT = "the stock ran out before that tap arrived; nothing was done"
STOCK_TURNED_OVER = "the waste was turned over before that tap arrived; nothing was done"


def pile_changed(pile: str) -> str:
    """Why a tap on a pile whose top card changed meanwhile did nothing."""
    return f"the {pile}'s top card changed before that tap arrived; nothing was done"


ANSWERED = "that message was answered long ago; nothing was done"
NOTHING_TO_CONTINUE = "there is no saved game of these rules to continue"
GIVES_UP = "This gives up the game in play: it counts as a loss."
GIVE_UP, KEEP_PLAYING = "Give up", "Keep playing"
REVIEW_LOCKED = (
    "the review judges with every card known, so it opens once the game is over "
    "or every card has been seen"
)
NOTHING_TO_REVIEW = f"{NOTHING_PLAYED}: nothing to review"
NO_REVIEW = "there is no review to step through: ask for one first"
NO_PUZZLE = "no puzzle is on the board: open one first"


def failed(what: str, error: object) -> str:
    """Why a hint or a review did not come (`what`: "hint" or "review")."""
    return f"no {what}: {error}"


# ---------------------------------------------------------------------------- the rules panel
PAIRS_RULE = (
    "Remove two cards in play whose values make 13: A + Q, 2 + J, 3 + 10, 4 + 9, 5 + 8, 6 + 7. "
    "A King is 13 on its own and is removed alone."
)
SCORING_RULE = (
    "5 points a card removed, 25 for each cleared row, and on clearing the pyramid 100 more "
    "plus 10 for each card still in the stock and the waste. Undo takes the points back."
)
OUT_OF_MOVES = "Out of moves"
OUT_OF_MOVES_RULE = (
    "When no pair, King, draw or recycle is left you are out of moves: undo, restart the deal "
    "or start a new one. A game counts as lost only when you leave it (restart it, or play "
    "another deal) after its first move."
)


def rules_sections(rules: Rules) -> tuple[tuple[str, str], ...]:
    """How to play under `rules`, as (title, text) sections (`Rules.explained`)."""
    in_play = "A pyramid card is in play once no card lies on it."
    if not rules.stock_in_play:
        in_play += " Besides those, only the top card of the waste is in play; the stock lies "
        in_play += "face down."
    else:
        in_play += " The top card of the waste and the stock's top card, which lies face up, are "
        in_play += "in play too, and may pair with each other. A King on top of the stock "
        in_play += (
            "is removed straight from there."
            if rules.king_from_stock
            else "must be drawn to the waste first."
        )
    passes = "Tap the stock to turn its next card onto the waste."
    if rules.passes == 1:
        passes += " You go through the stock once: the waste is never turned over."
    else:
        passes += " Once the stock is empty, the waste can be turned over to go through it again"
        passes += f": {rules.passes} passes in all." if rules.passes else ", as often as you like."
    if rules.win == "deck":
        win = "Clear the whole deck to win: the pyramid, the stock and the waste."
    else:
        win = "Clear all 28 pyramid cards to win; cards left in the stock and the waste do not "
        win += "matter."
    scoring = [("Scoring", SCORING_RULE)] if rules.scoring else []
    return (
        ("Pairs", PAIRS_RULE),
        ("In play", in_play),
        ("Passes", passes),
        ("The win", win),
        *scoring,
        (OUT_OF_MOVES, OUT_OF_MOVES_RULE),
    )


def rules_summary(rules: Rules) -> str:
    """`rules` in one plain sentence, for a menu (`Rules.summary`)."""
    if rules.stock_in_play:
        stock = "Stock top face up and in play"
        if not rules.king_from_stock:
            stock += "; a King there is drawn first"
    else:
        stock = "Stock face down, waste top in play"
    passes = (
        "unlimited passes" if rules.passes is None else count_of(rules.passes, "pass", "passes")
    )
    win = "clear the whole deck" if rules.win == "deck" else "clear the pyramid"
    scored = "; scored" if rules.scoring else ""
    return f"{stock}; {passes}; {win}{scored}."


def controls_text(*, stock_in_play: bool, auto_pair: bool) -> str:
    """The Rules panel's last section: how to move with the mouse and the keys."""
    stock = (
        " With a card selected, tap the stock to pair it with the stock's top card."
        if stock_in_play
        else ""
    )
    auto = " Auto-pair is on: a tap pairs a card with its first partner." if auto_pair else ""
    return (
        "Tap a card in play to select it, then a partner to pair them (or drag one card onto "
        "the other); tap a King to remove it. Tap the stock to draw, or to turn the waste over "
        f"once the stock is empty.{stock} Keys: arrows move, Enter or Space selects, D draws, "
        "R recycles, U or Ctrl+Z undoes, H asks for a hint, N deals anew, P pauses, F goes "
        f"full screen, Esc clears the selection.{auto}"
    )


# ---------------------------------------------------------------------------- the board
OPTION_WORDS: dict[str, tuple[str, str]] = {
    "highlight_partners": (
        "Highlight partners",
        "Outline the cards that make 13 with the selected one.",
    ),
    "auto_pair": (
        "Auto-pair: a tap takes the first partner",
        "One tap pairs a card with the first card in play that makes 13 with it, instead of "
        "selecting it; drag one card onto another to choose the partner.",
    ),
    "fair_hints": (
        "Fair hints (only cards you have seen)",
        "Hints use only the cards you have seen; off, the solver sees every card and can "
        "prove a deal lost.",
    ),
    "dead_end_notice": (
        "Early dead-end notice (looks at unseen cards)",
        "Say as soon as no card still to come can ever fit the pyramid; it looks at the "
        "values of cards you have not seen, so it is off unless asked for.",
    ),
    "winnable_only": (
        "Winnable deals only",
        "Random new deals are proven winnable by the solver before they are dealt.",
    ),
}
"""Each board option's label and help (`view.ViewOptions`), as the Game menu shows them."""


def continue_offer(rules: str, moves: int, cleared: int, clock: str) -> str:
    """The Continue offer of a saved game (never its cards)."""
    return (
        f"Continue your {rules} game ({count_of(moves, 'move')}, {cleared} of 28 cleared, "
        f"{clock})? Playing another deal instead counts it as a loss."
    )


RECORDS_COUNT = (
    "A game counts once it is won or given up. Restarting it, or playing another deal (or "
    "continuing another saved game) after its first move, gives it up: that is a loss. Being "
    "out of moves is not a loss until you leave the deal. Practice games (from a layout, a "
    "position or a reviewed game) count as played, never for bests or streaks."
)
RECORDS_OFFER = (
    "Each new board offers to continue the last unfinished game of its rules; a first move on "
    "another deal gives that game up."
)
SAVING_OFF = "Saving is off: games on this board are not recorded."


def lost_game(deal_number: int | None, moves: int, finished_at: datetime) -> str:
    """One lost game, for the Records panel's list of the latest."""
    deal = f"deal {deal_number}" if deal_number is not None else CHOSEN_LAYOUT
    return f"{deal}, left after {count_of(moves, 'move')} on {finished_at:%d %b %H:%M}"


def latest_losses(games: list[str]) -> str:
    return f"Latest losses: {'; '.join(games)}."


# ---------------------------------------------------------------------------- hints
# A hint is short: the move, one reason and how the move stands ("Pair 9♠ with 4♦: it frees
# 6♥. Likely to win."). Its detail, which the board opens on request, says what lies behind
# it: where the cards lie, what the freed cards pair with, how the chance was weighed.
def card_from(card: Card, pile: str | None) -> str:
    """A card in play: "8♣ from the waste", or "5♥" for a pyramid card (the board shows
    where those are)."""
    return card.symbol if pile is None else f"{card.symbol} from the {pile}"


def draw_advice(*, last: bool, pairs_open: bool) -> str:
    card = "the last card" if last else "the next card"
    if pairs_open:
        return f"draw {card} rather than pair now"
    return f"draw {card}: nothing pairs now"


def recycle_advice(next_pass: int, passes: int | None) -> str:
    return f"turn the waste over for {pass_words(next_pass, passes).lower()}"


def removal_advice(cards: list[str]) -> str:
    """A King removed, or a pair: "remove K♠", "pair 8♣ from the waste with 5♥"."""
    return f"remove {cards[0]}" if len(cards) == 1 else f"pair {cards[0]} with {cards[1]}"


def frees(advice: str, freed: list[Card], then: list[str] | None = None) -> str:
    """A removal and the pyramid cards it frees, then what those can do: "pair 9♦ with 4♥:
    it frees 10♣ and 9♠; then 10♣ pairs with 3♥"."""
    text = f"{advice}: it frees {join_words([card.symbol for card in freed])}"
    return text + (f"; then {join_words(then)}" if then else "")


def pairs_then(card: Card, partner: Card) -> str:
    return f"{card.symbol} pairs with {partner.symbol}"


def pair_each_other(card: Card, partner: Card) -> str:
    """Two freed cards that make 13 together."""
    return f"{card.symbol} and {partner.symbol} pair with each other"


def go_alone(kings: list[Card]) -> str:
    verb = "goes" if len(kings) == 1 else "go"
    return f"{join_words([king.symbol for king in kings])} {verb} alone"


def move_named(kind: str, text: str) -> str:
    """A move inside a sentence: "9♠ + 4♦", "K♥", "a draw", "a recycle"."""
    return {"draw": "a draw", "recycle": "a recycle"}.get(kind, text)


WON_HINT = sentence(ALREADY_WON)
STUCK_HINT = f"{capitalised(NO_MOVE_LEFT)}: undo, restart the deal or start a new one."
KEEPS_THE_WIN = "It keeps the win."
NO_VERDICT = "No verdict in time."
UNWEIGHED = "Chances not weighed in time."
CHANCES_UNCLEAR = "Its chances are unclear."
BEST_TRY = "Looks lost: the best try."


def short_hint(advice: str, outlook: str) -> str:
    """The hint line: the move with its reason, then how it stands (`outlook`, a sentence)."""
    return f"{sentence(advice)} {outlook}"


def unwinnable_hint(move: str) -> str:
    """An all-seeing hint that finds no win: undo, or play on with `move` (`move_named`)."""
    return f"This deal cannot be won from here: undo, or play on with {move}."


def chance_words(chance: float) -> str:
    """A fair hint's estimate in words (the review's hint column says the same)."""
    if chance == 0.0:
        return "looks lost"
    return (
        "very likely to win" if chance >= 0.9
        else "likely to win" if chance >= 0.6
        else "about an even chance" if chance >= 0.4
        else "unlikely to win"
    )  # fmt: skip


def outlook(won: int, decided: int) -> str:
    """How a fair hint's move stands: won in `won` of the `decided` orders it tried."""
    if decided < 5:  # too few to put a word on
        return CHANCES_UNCLEAR
    return sentence(chance_words(won / decided))


# The detail: the figures behind a hint.
def _unseen(unseen: int, stock: int) -> str:
    """The unseen cards, which all lie in the stock: when the stock (`stock` cards) also holds
    cards already seen, the words say so, so that the count and the board's stock count do
    not seem to disagree."""
    cards = "the one unseen card" if unseen == 1 else f"the {unseen} unseen cards"
    return cards + (f" of the {stock} in the stock" if stock > unseen else "")


def odds(unseen: int, stock: int, won: int, decided: int, *, every: bool, unsettled: int) -> str:
    """How a fair hint weighed its move: it won in `won` of the `decided` orders of the
    `unseen` cards it tried (`every`: all orders there are), `unsettled` more undecided.

    >>> odds(13, 13, 0, 24, every=False, unsettled=0)
    'Tried on 24 orders of the 13 unseen cards: no move won.'
    >>> odds(3, 4, 6, 6, every=True, unsettled=0)
    'It wins whatever order the 3 unseen cards of the 4 in the stock are in.'
    """
    cards = _unseen(unseen, stock)
    if every and won == decided:
        return f"It wins whatever order {cards} {'is' if unseen == 1 else 'are'} in."
    tried = f"{count_of(decided, 'order')} of {cards}"
    if every:
        tried = f"every order {cards} can lie in"
    if won == 0:
        result = "no move won"
    elif won == decided:
        result = "it won" + ("" if decided == 1 else f" in all {won}")
    else:
        result = f"it won in {won} of {decided}"
    text = f"Tried on {tried}: {result}."
    if unsettled:
        more = capitalised(count_of(unsettled, "more order"))
        text += f" {more} could not be settled in the time."
    return text


def unweighed(unseen: int) -> str:
    """A fair hint that decided no order of the unseen cards in time."""
    return (
        f"With {count_word(unseen)} {'card' if unseen == 1 else 'cards'} unseen there was no "
        "time to weigh the odds: this is a sensible move."
    )


def solver_found(moves: int | None) -> str:
    """What the all-seeing solver found: a win in `moves`, or (None) none."""
    if moves is None:
        return "Seeing every card, the solver finds no win from here."
    return f"Seeing every card, the solver finds a win in {count_of(moves, 'move')}."


SOLVER_OUT_OF_TIME = "The solver found no verdict in the time: this is a sensible move."


def hint_detail(advice: str | None, *facts: str) -> str:
    """A hint's detail: the move in full (where its cards lie, what the freed cards can do),
    when that says more than the hint line, then the facts."""
    return " ".join(([] if advice is None else [sentence(advice)]) + list(facts))


# ---------------------------------------------------------------------------- the review
def review_won(moves: int) -> str:
    return f"Won in {count_of(moves, 'move')}; the deal could be won at every move."


def review_lost_from_start(moves: int) -> str:
    return (
        f"This deal could not be won from the start; no move of the {count_of(moves, 'move')} "
        "lost it."
    )


def review_mistake(number: int, move: str, better: str | None) -> str:
    """The decisive mistake: move `number` (`move`, in symbols), and the move that kept the win."""
    return (
        f"The deal could be won until move {number} ({move}); after it, it could not. "
        f"{better} would have kept the win."
    )


def review_still_winnable(moves: int) -> str:
    return f"After {count_of(moves, 'move')} the deal can still be won: nothing is lost yet."


def review_in_doubt(first: int, last: int) -> str:
    """The turn lies among moves `first` to `last`, which the time limit left undecided."""
    return (
        "The solver could not decide every position in its time, so the move that lost the "
        f"deal is one of moves {first} to {last}."
    )


def review_undecided(moves: int) -> str:
    return f"After {count_of(moves, 'move')}, the solver could not decide this position."


def slipped_away(better: str | None) -> str:
    """The note on the decisive move's row."""
    return f"the win slipped away here; {better} would have kept it"


REVIEW_COLUMNS = ("#", "move", "before", "after", "fair hint")
NO_MOVE = "no move"
"""A hint's move in the review when the hint had none."""


def fair_hint_said(reason: str) -> str:
    return f"fair hint: {reason}"


def review_facts(deal: str, *, hints: bool) -> str:
    """The line under the review's summary: the deal and what the ✓ means."""
    facts = f"Deal {deal}."
    if hints:
        facts += " ✓: the move played was the fair hint's (hover a hint for its reason)."
    return facts


CHOSEN_LAYOUT = "a chosen layout"
"""A deal with no number, in a sentence."""
ENDED_HERE = "Where the game ended."


def before_mistake(number: int) -> str:
    """The caption of the picture of the position before the decisive move."""
    return f"Before move {number}: the mistake and the move that kept the win."


REVIEW_NOTE = "note"
"""The board's review table's last column, where the decisive move's row says so."""


def step_label(number: int, move: str) -> str:
    """A review row's button on the board, which puts the board before that move."""
    return f"Show the board before move {number}, {move}"


# ---------------------------------------------------------------------------- puzzles
THEME_WORDS: dict[str, tuple[str, str]] = {
    "uncover-more": (
        "Pick the partner that uncovers more",
        "A card has two partners: the right one frees a card that the other leaves covered.",
    ),
    "trapped": (
        "A card trapped under its partners",
        "The wrong move takes away the last partner a card could ever meet: every partner "
        "left lies on it or under it.",
    ),
    "keep-waste": (
        "Keep the waste card for a better partner",
        "The waste card can wait: another card needs it more.",
    ),
    "pass-reserve": (
        "Keep a pass in reserve",
        "Recycling now is too soon: use what is in play first.",
    ),
    "kings": ("Kings at once", "A King goes alone and never costs anything: take it."),
    "look-ahead": ("Look further ahead", "No simple idea shows the loss: it lies further on."),
}
"""Each puzzle theme's title and meaning, in the order puzzles list them (`puzzles.THEMES`)."""


def puzzle_task(answers: int) -> str:
    """What to find."""
    if answers == 1:
        return "Find the one removal that keeps the win."
    return f"{capitalised(count_word(answers))} removals keep the win: find one."


NOT_THIS_POSITIONS = "it is not one of this position's moves"


def not_possible(move: str, refusal: str) -> str:
    """A puzzle's answer to a move the position does not have."""
    return f"{move} is not possible here: {refusal}."


def keeps_the_win(
    move: str,
    *,
    king: bool,
    freed: list[str],
    waste_kept: tuple[str, str] | None,
    recycle_waits: bool,
) -> str:
    """Why a puzzle's answer is right, e.g. "8♦ + 5♣ keeps the win: it frees 9♦."; with
    `waste_kept` (the waste top, its better partner) the waste card waits for a better one."""
    text = f"{move} keeps the win"
    if king:
        text += ": a King goes alone, so taking it costs nothing"
    if freed:
        text += ("; it frees " if king else ": it frees ") + join_words(freed)
    if waste_kept is not None:
        text += f", and the {waste_kept[0]} stays on the waste for the {waste_kept[1]}"
    if recycle_waits:
        text += "; the recycle can wait"
    return sentence(text)


def lost_plainly(kind: str, move: str, loss: str) -> str:
    """A losing move (of `kind`) and the plain loss right after it (a `PlainLoss` sentence)."""
    after = {"draw": "after drawing,", "recycle": "after recycling,"}.get(kind, f"after {move}")
    return sentence(f"{after} {loss}")


def lost_partner(move: str, card: str) -> str:
    """The losing move took the partner of `card` that frees less; which partner frees more
    is the puzzle's answer, so it is not named."""
    return sentence(
        f"after {move} the deal can no longer be won: another partner of the {card} frees a "
        "card this pair leaves covered"
    )


def lost_waste_card(move: str, top: str, better: str) -> str:
    """The losing move spent the waste card a better partner needed."""
    return sentence(
        f"after {move} the deal can no longer be won: keep the {top} on the waste for the {better}"
    )


RECYCLE_LOSES = sentence(
    "recycling now loses: the waste comes back in the same order, and from the next pass on no "
    "line wins"
)


def draw_loses(top: str | None, *, answer: bool = False) -> str:
    """Drawing loses; `top` is the waste card it covers (None: the waste is empty), not named
    when it is itself the answer (a King: naming it would give the answer away)."""
    card = "waste card" if answer else top
    covered = f"the {card} goes under the next card, and " if top else ""
    return sentence(f"drawing now loses: {covered}no line wins after that")


def lost_deeper(move: str) -> str:
    """A losing move whose loss no plain reason explains."""
    return sentence(
        f"after {move} the deal can no longer be won, however you play on: the solver checked "
        "every line"
    )


# Plain losses: each completes "after <move> ..." (`puzzles.losses.PlainLoss`).
def trapped(card: Card, on: list[Card], under: list[Card]) -> str:
    """A pyramid card that can never leave: its partners left lie on it (`on`) or under it."""
    need = 13 - card.value
    head = f"the {card.symbol} can never leave: "
    total = len(on) + len(under)
    if total == 0:
        return head + f"no {rank_word(need)} is left to take it"
    names = join_words([other.symbol for other in sorted(on + under)])
    if total == 1:
        where = "on" if on else "under"
        return head + f"the only {rank_word(need)} left, {names}, lies {where} it"
    if on and under:
        return head + (
            f"of the {rank_word(need, 2)} left, {join_words([c.symbol for c in sorted(on)])} "
            f"{'lies' if len(on) == 1 else 'lie'} on it and "
            f"{join_words([c.symbol for c in sorted(under)])} under it"
        )
    many = "both" if total == 2 else f"all {count_word(total)}"
    where = "on" if on else "under"
    return head + f"{many} {rank_word(need, 2)} left lie {where} it ({names})"


def no_partner_left(card: Card) -> str:
    """A stock or waste card with no partner left (under the whole-deck win)."""
    return f"the {card.symbol} can never leave: no {rank_word(13 - card.value)} is left"


def short_of_partners(value: int, in_pyramid: int, partners: int) -> str:
    """More pyramid cards of `value` than partners left for them."""
    take = "it" if in_pyramid == 1 else "them"
    need = 13 - value
    have = (
        f"no {rank_word(need)} is"
        if partners == 0
        else f"only {count_word(partners)} {rank_word(need, partners)} "
        f"{'is' if partners == 1 else 'are'}"
    )
    return (
        f"the pyramid still holds {count_word(in_pyramid)} {rank_word(value, in_pyramid)}, "
        f"but {have} left to take {take}"
    )


DEAD_END = "nothing in play pairs, and no card still to come fits the pyramid"


# Puzzle mode: what the board says while a puzzle is on it. A puzzle is solved when its answer
# is found; playing on to the win is the player's choice.
def play_on(solved: bool) -> str:
    """The prompt once the answer is on the board (`solved`: found, not shown)."""
    head = "Solved. " if solved else ""
    return head + "Play on to the win if you like: a move that throws the win away is refused."


SHOWN_PROMPT = "Here is the answer, so this puzzle counts as not solved. Play it to go on."
WON_NEXT = "Played to the win. Next puzzle?"


def wrong_try(why: str) -> str:
    """A wrong move in a puzzle, and why it loses (the answer waits for Show the answer)."""
    return f"Not that one. {why}"


def throws_the_win_away(move: str) -> str:
    return f"{move} throws the win away: after it the deal cannot be won."


def found(why: str, *, shown: bool) -> str:
    """The answer played: why it keeps the win (a "Right!" only when it was not shown)."""
    return why if shown else f"Right! {why}"


def puzzle_result(wrong: int, *, solved: bool, shown: bool) -> str:
    """What the puzzle counted as, said when it is played to the win."""
    if shown:
        return "The answer was shown, so this puzzle counts as not solved."
    if not solved:
        return "This puzzle counts as not solved."
    if wrong == 0:
        return "Solved at the first try!"
    return f"Solved after {count_of(wrong, 'wrong try', 'wrong tries')}."


def unreadable_move(text: object) -> str:
    """Typed text that is no move (`Move.parse`, a student's answer too), and how a move is
    written."""
    return f"not a move: {quoted(text)}; write a pair (A♠ + Q♥), a King (K♠), draw or recycle"


ANY_THEME = "Any theme"
ANY_DIFFICULTY = "Any difficulty"
NO_PUZZLES = "no puzzles ship for these rules"


def puzzle_choice(label: str, count: int) -> str:
    """A choice of the Puzzles menu with how many puzzles it holds: "Easy (56)"."""
    return f"{label} ({count})"


# ---------------------------------------------------------------------------- watching
NOT_WATCHING = "no strategy is playing on the board: watch one first"
WATCH_OVER = "the watched game is over: take it over, or stop watching"
WATCH_YOURS = "You took over: the game is yours to play on (it is not recorded)."


WATCH_SAID = {
    "thinking": "{0} is choosing a move\u2026",
    "chose": "{0} plays {1}.",
    "refused": "{0} chose {1}, which the rules refuse ({2}): the game is lost.",
    "failed": "{0} stopped with an error: {1}",
    "won": "{0} cleared the pyramid in {1} moves.",
    "stuck": "{0} has no move left: the game is over.",
}
"""What the board says while a strategy plays, after each thing that can happen."""


def watch_said(what: str, player: str, *details: object) -> str:
    return WATCH_SAID[what].format(player, *details)


def watching(player: str, said: str) -> str:
    """What the board says as a watch begins: "Watching greedy play. greedy plays 5♥ + 8♣." """
    return f"Watching {player} play. {said}"


# ---------------------------------------------------------------------------- the notices
# The notice over the table when the game is paused, won, out of moves or lost.
PAUSED_TITLE = "Paused"
PAUSED_LINE = "The clock is stopped and moves wait until you resume."
WON_TITLE = "Pyramid cleared!"
PUZZLE_SOLVED_TITLE = "Played to the win!"
STUCK_LINE = "No pair, no King, no draw and no recycle is left."
STUCK_NOT_LOST = (
    "It is not recorded as a loss until you leave the deal (restart it or play another): "
    "undo to try another way."
)
DEAD_END_TITLE = "Dead end"
DEAD_END_LINE = "No card the stock can still bring would ever fit the pyramid."
LOST_FROM_START = "This deal could not be won from the start."
LOST_OFFER = (
    "No move of yours lost it. Try a new deal; with Winnable deals only on, each can be won."
)
LOST_HINT = "This deal could not be won from the start: no move of yours lost it."
PRACTICE = "This game is practice: it counts as played, never as a win or a loss."


def won_lines(clock: str, moves: int, cleared: int, score: int | None) -> list[str]:
    lines = [f"Time {clock}", f"Moves {moves}", f"Cards cleared {cleared} of 28"]
    return lines if score is None else [*lines, f"Score {score}"]


def puzzle_score(tried: int, solved: int, first_try: int) -> str:
    """The puzzles of this session: "Solved 2 of 3 tried, 1 first try"."""
    return f"Solved {solved} of {tried} tried, {count_of(first_try, 'first try', 'first tries')}"


def spoken(title: str, lines: list[str]) -> str:
    """A notice as a screen reader says it: its title and lines, each a sentence."""
    return " ".join(sentence(text) for text in [title, *lines])


# ---------------------------------------------------------------------------- the board's lines
# What the board says after a change of position (shown under the table, or only spoken), its
# status line, the labels of its piles and records, and its short messages.
def won_in(moves: int) -> str:
    return f"Pyramid cleared in {count_of(moves, 'move')}!"


OUT_OF_MOVES_SAID = "Out of moves: undo, restart or deal again."
DEAD_END_SAID = "Dead end: no card the stock can still bring would ever fit."


def turned(card: Card | None) -> str:
    """A draw: the card it turned up."""
    return "Turned a card." if card is None else f"Turned {card.symbol}."


def recycled(pass_number: int) -> str:
    return f"Recycled the waste: pass {pass_number}."


def removed(move: str) -> str:
    """A pair or a King removed (`move` in symbols)."""
    return f"Removed {move}."


def took_back(move: str | None) -> str:
    """An undo: the move it took back (`move_named`), if known."""
    return "Took back a move." if move is None else f"Took back {move}."


NEW_DEAL = "New deal."
DEAL_RESTARTED = "Deal restarted."


def continued(moves: int) -> str:
    return f"Saved game continued at move {moves}."


def stepped(moves: int) -> str:
    """The review put the game after `moves` moves on the board."""
    return "The game at its start." if moves == 0 else f"The game after move {moves}."


def puzzle_opened(number: int, count: int, prompt: str) -> str:
    return f"Puzzle {number} of {count}. {sentence(prompt)}"


def board_status(
    cleared: int, passes: str, stock: int, moves: int, score: int | None, deal: int | None,
    proven: bool | None,
) -> list[str]:  # fmt: skip
    """The status line over the board, item by item (the clock is its own item: `TIME`)."""
    items = [f"Cleared {cleared} of 28", passes, f"Stock {stock}", f"Moves {moves}"]
    if score is not None:
        items.append(f"Score {score}")
    if deal is not None:
        items.append(f"Deal #{deal}")
    return items + ["Unproven deal"] * (proven is False)


RECORD_LABELS = {
    "games": "Games",
    "wins": "Wins",
    "losses": "Losses",
    "win_rate": "Win rate",
    "current_streak": "Current streak",
    "best_streak": "Best streak",
    "fastest_win": "Fastest win",
    "fewest_moves": "Fewest moves",
    "best_score": "Best score",
}
NO_RECORD = "—"


def records_title(rules: str) -> str:
    return f"Records: {rules}"


BOARD_WORDS = {
    "time": "Time",
    "checking": "Checking for a solution…",
    "finding": "Finding a winnable deal…",
    "reviewing": "Reviewing…",
    "detail": "Why?",
    "number_first": "Type a deal number first: a whole number, such as 42.",
    "code_first": "Paste a deal or position code first.",
    "no_full_screen": "Full screen is not available here.",
    "copied": "Deal code copied.",
    "copy_this": "Copy this code:",
    "puzzle_closed": "Puzzle closed: the game you left is back.",
    "watch_stopped": "Stopped watching: the game you left is back.",
}
"""The board's fixed words, sent once in the `catalog` (`view.catalog`): the clock's label,
what shows while the solver works, the hint's disclosure and the short messages."""


# ---------------------------------------------------------------------------- the picture
# The words of `svg.board`: its title, description, status lines, legend and the labels a
# screen reader reads for each card and pile.
MARK_WORDS = {
    "selected": "selected",
    "hint": "the hint",
    "mistake": "the mistake",
    "better": "the better move",
}
LEGEND_WORDS = {"selected": "Selected", "hint": "Hint", "mistake": "Mistake", "better": "Better"}
PLACE_WORDS = {
    "in_play": "in play",
    "covered": "covered",
    "waste_top": "in play, waste top",
    "waste": "in the waste",
    "stock_top": "in play, stock top",
    "revealed": "in the stock (revealed)",
}
THE_STOCK = "the stock"
PYRAMID = "Pyramid"
STOCK_REVEALED = "Stock, revealed"
REVEALED_HEADING = "The stock under its top, next card first (shown by reveal):"


def card_label(card: Card, place: str) -> str:
    """A card and where it lies, from `PLACE_WORDS`: "Five of Hearts, in play"."""
    return f"{card.name}, {PLACE_WORDS[place]}"


def pass_words(number: int, passes: int | None) -> str:
    return f"Pass {number}" if passes is None else f"Pass {number} of {passes}"


def picture_title(left: int, passes: str) -> str:
    return f"Pyramid Solitaire: {left} of 28 pyramid cards left, {passes.lower()}"


def stock_words(count: int, top: Card | None, refusal: str | None, *, tap: bool = False) -> str:
    """The stock pile: its face-up `top` if shown, or why it cannot be recycled once empty;
    `tap`: on the board, where a tap on a face-down stock draws."""
    if count == 0:
        return f"Stock: empty; {refusal}" if refusal else "Stock: empty; recycle the waste"
    if top is not None:
        return f"Stock: {top.name} face up, {count_of(count, 'card')}"
    return f"Stock: {count_of(count, 'card')} face down" + ("; draw" if tap else "")


def waste_words(count: int, top: str | None = None) -> str:
    if not count:
        return "Waste: empty"
    return f"Waste: {count_of(count, 'card')}" + (f", top {top}" if top else "")


def status_parts(
    cleared: int, passes: str, stock: int, waste: int, moves: int, score: int | None, outcome: str
) -> list[str]:
    """The picture's status line, part by part (`score` None when the rules do not score)."""
    parts = [f"Cleared {cleared} of 28", passes, f"Stock {stock}", f"Waste {waste}"]
    parts.append(f"Moves {moves}")
    if score is not None:
        parts.append(f"Score {score}")
    parts += {"won": ["Pyramid cleared!"], "stuck": [OUT_OF_MOVES]}.get(outcome, [])
    return parts


def picture_description(
    in_play: list[str], covered: int, stock: str, waste: str, status: list[str]
) -> str:
    return (
        f"In play in the pyramid: {', '.join(in_play) or 'none'}. "
        f"Covered: {count_of(covered, 'card')}. {stock}. {waste}. {' · '.join(status)}."
    )
