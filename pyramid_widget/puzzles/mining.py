"""Mining: puzzles from numbered deals, along the lines real games take.

Each winnable deal is looked at along its first winning line from the deal's start
(`_Oracle.winning_line`) and along the lines of a few plausible players
(`players.PlausiblePlayer`): a real player's mistakes are where puzzles live. `judge` and
`is_fair` say what makes a position a puzzle.

Each deal is mined by `mine_deal`, a plain top-level function of one picklable `DealTask`, so
any `concurrent.futures` executor (a process pool, a dask client's executor) can run it; the
result depends on nothing but the task and the solver's verdicts (which are exact: a faster
solver finds the same puzzles). The one exception is the solver's time limit: a solve that
runs out of time skips its position (counted in `DealMined.undecided`, which the command line
prints), and a slower machine might run out where a faster one does not.
"""

from __future__ import annotations

import hashlib
import itertools
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor
from dataclasses import dataclass, replace

from ..cards import PYRAMID_SIZE, Card
from ..deals import check_deal_number
from ..game import Game, Move
from ..rules import Rules
from ..solver import Solution, solve
from ..solver.budget import seconds_limit
from ..words import quoted
from .losses import plain_loss
from .players import REMOVALS, PlausiblePlayer, after, greedy_choices, pile_choices, removals
from .puzzle import Choice, Puzzle, position_key, puzzle_id, unseen_cards
from .rating import Measures, loss_depth
from .reasons import answer_reason, loser_reason
from .themes import Evidence, detect

MAX_ANSWERS = 2
LINE_MOVES = 1000  # a safety net: a plausible line never needs this many moves


@dataclass(frozen=True)
class MineOptions:
    """How to mine: ``player_lines`` plausible players per deal; at most ``per_deal``
    puzzles a deal (one per pyramid state, the first found); ``max_unseen`` unseen cards at
    most (each order of them is solved); ``time_limit`` seconds per solve."""

    player_lines: int = 3
    per_deal: int = 2
    max_unseen: int = 4
    time_limit: float = 20.0

    def __post_init__(self) -> None:
        for name, low, high in (
            ("player_lines", 0, 100),
            ("per_deal", 1, 1000),
            ("max_unseen", 0, 6),
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(f"{name} must be a whole number from {low} to {high}")
        limit = seconds_limit("time_limit", self.time_limit, unlimited=False)
        object.__setattr__(self, "time_limit", limit)


@dataclass(frozen=True)
class DealTask:
    """One deal to mine: its number, the rules' name and the options (all picklable)."""

    deal: int
    rules: str
    options: MineOptions = MineOptions()


@dataclass(frozen=True)
class DealMined:
    """What mining one deal gave: the puzzles, and figures for the mining report.

    winnable: the deal's verdict from its start (None if undecided). positions: positions
    looked at. found: puzzles found before the per-deal cap. undecided: solves that ran out of
    time (each skipped its position). cpu_seconds: processor time spent.
    """

    deal: int
    rules: str
    winnable: bool | None
    positions: int
    found: int
    undecided: int
    cpu_seconds: float
    puzzles: tuple[Puzzle, ...]


class _Undecided(Exception):
    """A solve ran out of time: the position is skipped."""


class _Oracle:
    """The solver's verdicts for one deal's positions, each asked once."""

    def __init__(self, time_limit: float) -> None:
        self.time_limit = time_limit
        self._known: dict[str, Solution] = {}
        self.undecided = 0

    def solve(self, game: Game) -> Solution:
        key = position_key(game)
        known = self._known.get(key)
        if known is None:
            known = solve(game, time_limit=self.time_limit)
            if known.status == "unknown":
                self.undecided += 1
                raise _Undecided
            self._known[key] = known
        return known

    def wins(self, game: Game) -> bool:
        return self.solve(game).status == "winnable"

    def first_winning(self, game: Game) -> Move | None:
        """The first legal move (in `Game.legal_moves` order) that keeps the win, if any."""
        return next((move for move in game.legal_moves() if self.wins(after(game, move))), None)

    def winning_line(self, game: Game) -> list[Move]:
        """The first winning line from a winnable position: at each turn the first move that
        keeps the win. It depends only on the solver's verdicts, which are exact, never on
        which line the search happens to find, so a faster solver mines the same puzzles."""
        trial, line = game.copy(), []
        while not trial.is_won and len(line) < LINE_MOVES:
            move = self.first_winning(trial)
            if move is None:
                break
            trial.play(move)
            line.append(move)
        return line


def judge(game: Game, oracle: _Oracle) -> tuple[list[Move], list[Move]] | None:
    """The answers and the losing moves of a winnable position (every position on the mined
    lines is), or None if it is no puzzle. A puzzle has one removal, or two (`MAX_ANSWERS`),
    that keep the win, and every other legal move loses it: the other removals, a recycle and
    a draw too (a puzzle never has "or just draw" as a way out); and at least one other
    removal is legal, and loses (a removal always tempts: it clears cards). Waits (draw,
    recycle) are asked first: one that keeps the win settles it at once."""
    moves = game.legal_moves()
    open_removals = [move for move in moves if move.kind in REMOVALS]
    waits = [move for move in moves if move.kind not in REMOVALS]
    if len(open_removals) < 2:
        return None
    if any(oracle.wins(after(game, move)) for move in waits):
        return None
    answers: list[Move] = []
    for move in open_removals:
        if oracle.wins(after(game, move)):
            answers.append(move)
            if len(answers) > MAX_ANSWERS:
                return None
    losers = [move for move in moves if move not in answers]
    if not answers or not any(move.kind in REMOVALS for move in losers):
        return None
    return answers, losers


def arrangements(game: Game) -> Iterator[Game]:
    """The same position with the unseen cards in every other order of their values (suits
    never matter), each as a game."""
    seen = game.seen
    left = set(game.stock)
    places = [i for i in range(PYRAMID_SIZE, 52) if game.cards[i] in left - seen]
    hidden = [game.cards[i] for i in places]
    values = tuple(card.value for card in hidden)
    for order in sorted(set(itertools.permutations(values))):
        if order == values:
            continue
        pools: dict[int, list[Card]] = {}
        for card in sorted(hidden):
            pools.setdefault(card.value, []).append(card)
        fill = [pools[value].pop(0) for value in order]
        cards = list(game.cards)
        for i, card in zip(places, fill, strict=True):
            cards[i] = card
        swap = dict(zip(hidden, fill, strict=True))
        pos = game.position
        start = replace(pos, rest=tuple(swap.get(card, card) for card in pos.rest))
        yield Game(cards, game.rules, start=start, seen=seen)


def is_fair(game: Game, answers: list[Move], oracle: _Oracle, max_unseen: int) -> bool:
    """True when the player has seen every card, or the few unseen ones (at most
    ``max_unseen``), put in every order into their stock places, give exactly the same
    answers. Suits never matter, so orders that only swap cards of one value are the same
    order and are tried once (`arrangements`)."""
    if unseen_cards(game) > max_unseen:
        return False
    for other in arrangements(game):
        for move in other.legal_moves():
            if oracle.wins(after(other, move)) != (move in answers):
                return False
    return True


def measure(game: Game, losers: list[Move]) -> Measures:
    """The puzzle's measures (see `rating`)."""
    losing = set(losers)

    def wrong(moves: list[Move]) -> float:
        return sum(move in losing for move in moves) / len(moves)

    tempting = [move for move in losers if move.kind != "draw"]
    return Measures(
        greedy_wrong=wrong(greedy_choices(game)),
        pile_wrong=wrong(pile_choices(game)),
        random_wrong=wrong(removals(game)),
        depth=max(loss_depth(after(game, move)) for move in tempting),
    )


def build(
    game: Game, answers: list[Move], losers: list[Move], oracle: _Oracle, deal: int, line: str
) -> Puzzle:
    """The puzzle of a judged, fair position: themes, explanations and measures. The first
    winning line after each answer is only needed (and only worked out) when a losing move
    takes the waste top that no answer takes (`themes.keeps_waste`). The losing moves are
    listed most tempting first: the greedy player's, the pile player's, other removals, a
    recycle, a draw."""
    greedy, pile = set(greedy_choices(game)), set(pile_choices(game))
    losers = sorted(
        losers,
        key=lambda move: (
            move not in greedy,
            move not in pile,
            move.kind not in REMOVALS,
            move.kind == "draw",
        ),
    )
    top = game.waste_top
    waits_for_waste = any(top in move.cards for move in losers) and not any(
        top in move.cards for move in answers
    )
    lines = {
        move: tuple(str(step) for step in oracle.winning_line(after(game, move)))
        for move in (answers if waits_for_waste else ())
    }
    evidence = Evidence(
        game,
        tuple(answers),
        tuple(losers),
        lines,
        {move: plain_loss(after(game, move)) for move in losers},
    )
    return Puzzle(
        id=puzzle_id(game),
        rules=game.rules.name,
        code=game.code,
        deal=deal,
        move=game.move_count,
        line=line,
        answers=tuple(Choice.of(move, True, answer_reason(evidence, move)) for move in answers),
        alternatives=tuple(Choice.of(move, False, loser_reason(evidence, move)) for move in losers),
        themes=detect(evidence),
        unseen=unseen_cards(game),
        measures=measure(game, losers),
    )


def player_seed(rules: str, deal: int, line: int) -> int:
    """The seed of a plausible player: from the rules, the deal and the line's number."""
    digest = hashlib.sha256(f"{rules}/{deal}/{line}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _player_line(start: Game, seed: int, oracle: _Oracle) -> Iterator[Game]:
    """The positions of one plausible player's game, seeded from the rules, the deal and the
    line's number (`player_seed`), kept winnable: where the player's move would lose, the
    position is looked at like any other, and the player then plays the first winning move
    instead, so its line goes on to the win."""
    game = start.copy()
    player = PlausiblePlayer(seed)
    for _ in range(LINE_MOVES):
        if game.is_won:
            return
        yield game.copy()
        move = player.choose(game)
        if move is None:
            return
        try:
            if not oracle.wins(after(game, move)):
                move = oracle.first_winning(game)
        except _Undecided:
            return
        if move is None:
            return
        game.play(move)


def _positions(start: Game, task: DealTask, oracle: _Oracle) -> Iterator[tuple[str, Game]]:
    """(line name, position) along the first winning line, then each player's."""
    game = start.copy()
    for move in oracle.winning_line(start):
        yield "solver", game.copy()
        game.play(move)
    for number in range(task.options.player_lines):
        for position in _player_line(start, player_seed(task.rules, task.deal, number), oracle):
            yield "player", position


def mine_deal(task: DealTask) -> DealMined:
    """Mine one deal (a top-level function, for any executor)."""
    started = time.process_time()
    options = task.options
    oracle = _Oracle(options.time_limit)
    start = Game.deal(task.deal, Rules.parse(task.rules))
    try:
        verdict = oracle.solve(start)
    except _Undecided:
        verdict = None
    found: list[tuple[int, Puzzle]] = []
    looked = 0
    if verdict is not None and verdict.status == "winnable":
        keys: set[str] = set()
        for line, game in _positions(start, task, oracle):
            key = position_key(game)
            if key in keys:
                continue
            keys.add(key)
            looked += 1
            try:
                judged = judge(game, oracle)
                if judged and is_fair(game, judged[0], oracle, options.max_unseen):
                    puzzle = build(game, *judged, oracle, task.deal, line)
                    found.append((game.position.removed, puzzle))
            except _Undecided:
                continue
    kept = _keep(found, options.per_deal)
    return DealMined(
        task.deal,
        task.rules,
        None if verdict is None else verdict.status == "winnable",
        looked,
        len(found),
        oracle.undecided,
        time.process_time() - started,
        tuple(kept),
    )


def _keep(found: list[tuple[int, Puzzle]], per_deal: int) -> list[Puzzle]:
    """The first puzzle found for each pyramid state (the mask of cards gone), up to
    ``per_deal`` of them: positions a draw apart on one line are one puzzle to a player."""
    kept: list[Puzzle] = []
    pyramids: set[int] = set()
    for pyramid, puzzle in found:
        if pyramid not in pyramids and len(kept) < per_deal:
            pyramids.add(pyramid)
            kept.append(puzzle)
    return kept


def mine(
    deals: Iterable[int],
    rules: Rules | str | None = "classic",
    *,
    executor: Executor | None = None,
    count: int | None = None,
    chunk: int = 32,
    on_deal: Callable[[DealMined], None] | None = None,
    **options: int | float,
) -> list[Puzzle]:
    """Puzzles from numbered ``deals`` under ``rules``, in deal order, each once.

    ``executor``: any `concurrent.futures` executor to mine on (default: here, one deal after
    another); deals are handed to it ``chunk`` at a time. ``count``: stop once this many
    puzzles are found (every puzzle of the deal that reached it is kept, so the same deals
    always give the same set). ``on_deal`` is called with each deal's `DealMined`, in deal
    order. ``options`` are `MineOptions`' fields. The same input gives the same puzzles.
    """
    settings = MineOptions(**options)  # type: ignore[arg-type]
    name = Rules.coerce(rules).name
    if count is not None and (isinstance(count, bool) or not isinstance(count, int) or count < 1):
        raise ValueError(f"count must be a whole number from 1 up, or None; not {quoted(count)}")
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise ValueError(f"chunk must be a whole number from 1 up, not {quoted(chunk)}")
    tasks = (DealTask(check_deal_number(deal), name, settings) for deal in deals)
    puzzles: list[Puzzle] = []
    ids: set[str] = set()
    while count is None or len(puzzles) < count:
        batch = list(itertools.islice(tasks, chunk))
        if not batch:
            break
        results = map(mine_deal, batch) if executor is None else executor.map(mine_deal, batch)
        for result in results:
            if count is not None and len(puzzles) >= count:
                break
            if on_deal is not None:
                on_deal(result)
            for puzzle in result.puzzles:
                if puzzle.id not in ids:
                    ids.add(puzzle.id)
                    puzzles.append(puzzle)
    return puzzles
