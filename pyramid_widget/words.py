"""Every sentence a player reads, written in one place: the modules that decide what to say
(which move is refused, which cards a move frees, why a puzzle's move loses) ask here for the
words. Card symbols (10♠, 5♥ + 8♣), never notation, and one vocabulary (docs/glossary.md);
tests/test_design.py fails on a player sentence built anywhere else. Refusals are phrases
("nothing to undo"), made sentences where they are shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import RANK_NAMES

if TYPE_CHECKING:
    from datetime import datetime

    from .cards import Card
    from .rules import Rules


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
    """How a verdict reads to a player ("unwinnable": "cannot be won from here")."""
    return VERDICT_WORDS.get(verdict, verdict)


# ---------------------------------------------------------------------------- refusals
# Why a move, a tap or a button does nothing (`Game.refusal`, `IllegalMove.reason`, a greyed
# button's tooltip).
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


def not_a(thing: str, text: object) -> str:
    """Text or a value that names no move or no card: "not a card: 'Zz'"."""
    return f"not a {thing}: {text!r}"


def malformed_move(kind: object, cards: object, count: int | None) -> str:
    """A hand-built `Move` that is none: an unknown kind (`count` None), or other than its
    `count` cards."""
    if count is None:
        return f"not a move: unknown kind {kind!r}"
    return f"not a move: a {kind} names {count} card(s), not {cards!r}"


def refused_in_replay(number: int, move: object, reason: str) -> str:
    """A replayed move the rules refuse, by its number in the list."""
    return f"move {number} ({move!s}): {reason}"


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
    "out of moves is not a loss until you leave the deal. Practice games (begun from a "
    "position) count as played, never for bests or streaks."
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
# A hint's advice is a phrase ("pair 8♣ from the waste with 5♥: it frees 7♦"), which the
# reasons below make sentences of.
def card_from(card: Card, pile: str | None) -> str:
    """A card in play: "8♣ from the waste", or "5♥" for a pyramid card (the board shows
    where those are)."""
    return card.symbol if pile is None else f"{card.symbol} from the {pile}"


def draw_advice(*, last: bool, pairs_open: bool) -> str:
    card = "the last card" if last else "the next card"
    if not pairs_open:
        return f"draw {card} from the stock (nothing in play pairs now)"
    return f"draw {card} from the stock rather than pair now"


def recycle_advice(next_pass: int, passes: int | None) -> str:
    total = "" if passes is None else f" of {passes}"
    return f"the stock is empty: turn the waste over for pass {next_pass}{total}"


def removal_advice(cards: list[str]) -> str:
    """A King removed, or a pair: "remove K♠", "pair 8♣ from the waste with 5♥"."""
    return f"remove {cards[0]}" if len(cards) == 1 else f"pair {cards[0]} with {cards[1]}"


def freed_card(card: Card, partner: Card | None) -> str:
    """A card a move frees, and what it can do then."""
    if card.is_king:
        return f"{card.symbol}, which can then go alone"
    if partner is not None:
        return f"{card.symbol}, which then pairs with {partner.symbol}"
    return card.symbol


def frees(advice: str, freed: list[str]) -> str:
    return f"{advice}: it frees {join_words(freed)}"


WON_HINT = sentence(ALREADY_WON)
STUCK_HINT = f"{capitalised(NO_MOVE_LEFT)}: undo, restart the deal or start a new one."


def winnable_hint(advice: str, moves: int) -> str:
    return f"{capitalised(advice)}. It can be won: {moves} moves to the win."


def unwinnable_hint(advice: str) -> str:
    return f"This deal cannot be won from here: undo to an earlier position, or play on ({advice})."


def untimed_hint(advice: str) -> str:
    """An all-seeing hint whose search ran out of time."""
    return f"{capitalised(advice)}. No verdict in time: this is a sensible move."


def unweighed_hint(advice: str, unseen: int) -> str:
    """A fair hint that decided no order of the unseen cards in time."""
    return (
        f"{capitalised(advice)}. With {count_of(unseen, 'card')} unseen there was no time to "
        "weigh the odds: this is a sensible move."
    )


def weighed_hint(advice: str, odds: str, *, won_any: bool) -> str:
    """A fair hint with its odds; when no move won anywhere, the move is only the best try."""
    return f"{capitalised(advice)}. {odds}" if won_any else f"{odds} Best try: {advice}."


def odds(unseen: int, stock: int, won: int, decided: int, *, every: bool, unsettled: int) -> str:
    """How good a fair hint's move is, in words a player uses, with the counts behind them:
    it won in `won` of the `decided` orders of the `unseen` cards (`every`: all orders were
    tried), `unsettled` more undecided. The unseen cards all lie in the stock; when the
    stock (`stock` cards) also holds cards already seen, the sentence says so, so that its
    count and the board's stock count do not seem to disagree."""
    where = "unseen cards"
    if stock > unseen:
        where = f"unseen cards of the {stock} in the stock"
    if every and won == decided:
        return f"It wins whatever order the {unseen} {where} are in."
    ways = "possible orders" if every else "ways tried"
    if won == 0:
        text = (
            f"The deal looks lost from here: no move won in any of the {decided} ways "
            f"the {unseen} {where} could lie that were tried."
        )
    elif decided < 5:  # too few to put a word on
        text = f"It won in {won} of the {decided} {ways} for the {unseen} {where}."
    else:
        share = won / decided
        likely = (
            "Very likely to win" if share >= 0.9
            else "Likely to win" if share >= 0.6
            else "About an even chance" if share >= 0.4
            else "Unlikely to win"
        )  # fmt: skip
        text = f"{likely}: it won in {won} of the {decided} {ways} for the {unseen} {where}."
    if unsettled:
        text += f" ({unsettled} more could not be settled in the time.)"
    return text


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


def review_in_doubt(time_limit: float | None, first: int, last: int) -> str:
    """The turn lies among moves `first` to `last`, which the time limit left undecided."""
    return (
        f"The solver could not decide every position within {time_limit} s, so the move that "
        f"lost the deal is one of moves {first} to {last}; raise time_limit to find it."
    )


def review_undecided(moves: int) -> str:
    return f"After {count_of(moves, 'move')}, the solver could not decide this position."


def slipped_away(better: str | None) -> str:
    """The note on the decisive move's row."""
    return f"the win slipped away here; {better} would have kept it"


REVIEW_COLUMNS = ("#", "move", "before", "after", "fair hint")
NO_MOVE = "no move"
"""A hint's move in the review when the hint had none."""


def chance_to_win(chance: float) -> str:
    return f"≈{chance:.0%} wins"


def fair_hint_said(reason: str) -> str:
    return f"fair hint: {reason}"


def review_facts(deal: str, solved: int, seconds: float, *, hints: bool) -> str:
    """The line under the review's summary: the deal, the solver's work and the ✓'s meaning."""
    facts = f"deal {deal} · {count_of(solved, 'position')} solved in {seconds:.1f} s"
    if hints:
        facts += " · ✓ the move played was the fair hint's (hover a hint for its reason)"
    return facts


CHOSEN_LAYOUT = "a chosen layout"
"""A deal with no number, in a sentence."""
ENDED_HERE = "Where the game ended."


def before_mistake(number: int) -> str:
    """The caption of the picture of the position before the decisive move."""
    return f"Before move {number}: the mistake and the move that kept the win."


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
    "short-of-partners": (
        "Save the partners the pyramid needs",
        "The wrong move spends a card that a pyramid card needed as its partner.",
    ),
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


def lost_partner(move: str, card: str, partner: str, freed: list[str]) -> str:
    """The losing move took the partner that frees less."""
    return sentence(
        f"after {move} the deal can no longer be won: the {card} should go with the {partner}, "
        f"which frees {join_words(freed)}"
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


def draw_loses(top: str | None) -> str:
    covered = f"the {top} goes under the next card, and " if top else ""
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


# Puzzle mode: what the board says while a puzzle is on it.
PLAY_ON = "Right. Now play on to the win: a move that throws the win away is refused."
SOLVED_NEXT = "Solved. Next puzzle?"


def wrong_try(move: str, why: str) -> str:
    return f"Not {move}: {why}"


def throws_the_win_away(move: str) -> str:
    return f"{move} throws the win away: after it the deal cannot be won."


def found(move: str) -> str:
    return f"Right: {move} keeps the win."


def solved(wrong: int) -> str:
    """The puzzle is won, after `wrong` wrong tries."""
    tries = count_of(wrong, "wrong try", "wrong tries")
    return "Solved: the deal is won." + (" First try!" if wrong == 0 else f" ({tries} first.)")


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


# ---------------------------------------------------------------------------- the notices
# The notice over the table when the game is paused, won, out of moves or lost.
PAUSED_TITLE = "Paused"
PAUSED_LINE = "The clock is stopped and moves wait until you resume."
WON_TITLE = "Pyramid cleared!"
PUZZLE_SOLVED_TITLE = "Puzzle solved!"
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
LOST_HINT = f"{LOST_FROM_START} {LOST_OFFER}"
PRACTICE = "This game is practice: it counts as played, never as a win or a loss."


def won_lines(clock: str, moves: int, cleared: int, score: int | None) -> list[str]:
    lines = [f"Time {clock}", f"Moves {moves}", f"Cards cleared {cleared} of 28"]
    return lines if score is None else [*lines, f"Score {score}"]


def puzzle_score(tried: int, solved: int, first_try: int) -> str:
    """The puzzles of this session: "Solved 2 of 3 tried, 1 first try"."""
    return f"Solved {solved} of {tried} tried, {count_of(first_try, 'first try', 'first tries')}"


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


def stock_words(count: int, top: Card | None, refusal: str | None) -> str:
    """The stock pile: its face-up `top` if shown, or why it cannot be recycled once empty."""
    if count == 0:
        return f"Stock: empty; {refusal}" if refusal else "Stock: empty; recycle the waste"
    if top is not None:
        return f"Stock: {top.name} face up, {count_of(count, 'card')}"
    return f"Stock: {count_of(count, 'card')} face down"


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
