"""The exact solver's pruning rules, each checked against a search without it.

The last pass as a stack (rule 8) against the plain search and against a brute force over the
engine's own moves; the relaxed game's "free" and forced removals (rule 7) and the two-phase
game's (rule 9) against those games searched without them.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest
from helpers import brute_force, replay_wins
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramid_widget import Game, solve
from pyramid_widget.solver import facts as pyramid_facts
from pyramid_widget.solver import search
from pyramid_widget.solver.endgame import apex_reachable, segments_ahead
from pyramid_widget.solver.facts import (
    BY_VALUE,
    KING_BIT,
    LONELY,
    PAIRS,
    SPECS,
    PyramidFacts,
    _phases_clash,
)
from pyramid_widget.solver.last_pass import LastPass
from pyramid_widget.solver.problem import FULL, exposed_cards, first_stock
from pyramid_widget.solver.search import Solver
from pyramid_widget.solver.solution import problem_from_game
from pyramid_widget.solver.stock_facts import DEAD, SHORT


def played_position(deal: int, rules: str, seed: int, *, before_last: bool = False) -> Game:
    """A position in the last pass (or, ``before_last``, in the pass before it): on a winning
    line (then perhaps one random move) for odd seeds mixed with deals, by random play that
    prefers removals otherwise; stopped at random in the pass wanted, most often just after a
    draw."""
    rng = random.Random(f"{seed}-{deal}-{rules}")
    game = Game.deal(deal, rules)
    wanted = game.rules.passes - before_last
    stop, prefer = (0.05, 0.7) if before_last else (0.06, 0.8)
    line = list(solve(game).moves) if (seed + deal) % 2 else []
    for _ in range(400):
        moves = game.legal_moves()
        here = game.pass_number == wanted
        if not moves or game.pass_number > wanted or (here and rng.random() < stop):
            break
        if line:
            game.play(line.pop(0))
            continue
        removals = [m for m in moves if m.kind in ("pair", "king")]
        game.play(rng.choice(removals if removals and rng.random() < prefer else moves))
    if line and rng.random() < 0.5 and game.legal_moves():
        game.play(rng.choice(game.legal_moves()))
    return game


def stack_verdict(game: Game) -> bool:
    problem = problem_from_game(game)
    P, S, k, _ = problem.start
    solver = Solver(problem)  # (rule 8's helper holds it weakly)
    return LastPass(solver).winnable(P, S & ((1 << k) - 1), S >> k << k)


@pytest.mark.parametrize(
    "rules", ["strict", "classic,passes=1", "open-stock,passes=1", "one-recycle", "classic"]
)
def test_the_last_pass_as_a_stack_agrees_with_the_plain_search(rules, monkeypatch):
    """Rule 8 decides a last-pass position exactly: the same verdict as the search that keeps
    the whole waste in its positions (never switched to rule 8 here)."""
    monkeypatch.setattr(search, "_PLAIN_NODES", 10**9)
    verdicts: list[bool] = []
    for deal in range(1, 400):
        if len(verdicts) >= 24 and verdicts.count(True) >= 4:
            break
        game = played_position(deal, rules, seed=3)
        if game.is_won or game.pass_number != game.rules.passes:
            continue
        plain = solve(game).status == "winnable"
        if not plain and verdicts.count(False) >= 20:
            continue
        assert stack_verdict(game) == plain, (deal, game.code)
        verdicts.append(plain)
    assert verdicts.count(True) >= 4 and verdicts.count(False) >= 4, verdicts


@pytest.mark.parametrize("rules", ["strict", "classic,passes=1", "open-stock,passes=1"])
def test_the_last_pass_as_a_stack_agrees_with_a_brute_force_search(rules):
    verdicts = []
    for deal in range(1, 300):
        if verdicts.count(True) >= 3 and verdicts.count(False) >= 3:
            break
        game = played_position(deal, rules, seed=11)
        if game.is_won or game.cleared < 16:
            continue
        try:
            expected = brute_force(game, 6_000)
        except TimeoutError:
            continue
        assert stack_verdict(game) == expected, (deal, game.code)
        verdicts.append(expected)
    assert verdicts.count(True) >= 2 and verdicts.count(False) >= 2, verdicts


@pytest.mark.parametrize("rules", ["strict", "classic,passes=1"])
def test_a_long_last_pass_search_hands_over_to_the_stack_and_its_line_replays(rules, monkeypatch):
    """With rule 8 taking over at once, every verdict stays and every line still replays."""
    monkeypatch.setattr(search, "_PLAIN_NODES", 0)
    for deal in range(1, 40):
        game = Game.deal(deal, rules)
        fast = solve(game)
        monkeypatch.setattr(search, "_PLAIN_NODES", 10**9)
        plain = solve(game)
        monkeypatch.setattr(search, "_PLAIN_NODES", 0)
        assert fast.status == plain.status, deal
        if fast.status == "winnable":
            assert replay_wins(game, fast.moves), deal


def random_state(deal: int, removed: int, seed: int, P: int) -> tuple[list[int], int, list[int]]:
    """Deal ``deal``'s pyramid values, a pyramid state reached from P by taking up to
    ``removed`` exposed cards away at random (as play would), and its other cards' values
    shuffled."""
    rng = random.Random(seed)
    game = Game.deal(deal)
    for _ in range(removed):
        exposed = exposed_cards(P)[0]
        if not exposed:
            break
        P |= 1 << rng.choice(exposed)
    stock = [card.rank for card in game.cards[28:]]
    rng.shuffle(stock)
    return [card.rank for card in game.cards[:28]], P, stock


def relaxed_moves(facts: PyramidFacts, P: int, bag: int) -> Iterator[tuple[int, int]]:
    """The relaxed game's moves from pyramid P with the cards of ``bag``, one by one, as (the
    pyramid after, the bag after): an exposed King alone (it takes no bag card and only
    uncovers others, so taking it first loses no win), else every pyramid pair and every
    exposed card with a bag card of its partner value. The move-by-move games below force
    no other removal."""
    known = facts.facts(P)
    king_bit, pairs, by_value = known[KING_BIT], known[PAIRS], known[BY_VALUE]
    if king_bit:
        yield P | king_bit, bag
        return
    for bits, _, _ in pairs:
        yield P | bits, bag
    for v in range(1, 13):
        if by_value[v] and bag >> 3 * (13 - v) & 7:
            less = bag - (1 << 3 * (13 - v))
            for i in by_value[v]:
                yield P | 1 << i, less


def relaxed_without_shortcuts(facts: PyramidFacts, P: int, bag: int, memo: dict) -> bool:
    """The relaxed game searched move by move (`relaxed_moves`)."""
    key = P | bag << 28
    if key in memo:
        return memo[key]
    if P == FULL:
        result = not facts.deck_win or facts.stock_in_play or not bag & ~(7 << 39)
    else:
        result = any(
            relaxed_without_shortcuts(facts, after, left, memo)
            for after, left in relaxed_moves(facts, P, bag)
        )
    memo[key] = result
    return result


@settings(max_examples=60, deadline=None)
@given(
    deal=st.integers(1, 10**6),
    removed=st.integers(0, 22),
    kept=st.integers(4, 24),
    deck=st.booleans(),
    open_stock=st.booleans(),
    seed=st.integers(0, 10**6),
)
def test_the_relaxed_games_forced_removals_never_change_its_verdict(
    deal, removed, kept, deck, open_stock, seed
):
    """`PyramidFacts.relaxed` plays some cards at once (a card with no pyramid partner left,
    a card with its one exposed partner, `_free` cards); the verdict is the move-by-move one."""
    values, P, stock = random_state(deal, removed, seed, 0)
    facts = PyramidFacts(values, deck_win=deck, stock_in_play=open_stock)
    bag = sum(1 << 3 * v for v in stock[:kept])
    assert facts.relaxed(P, bag) == relaxed_without_shortcuts(facts, P, bag, {})


def two_phase_without_shortcuts(
    facts: PyramidFacts, P: int, first: int, then: int, complete: bool, memo: dict, relaxed: dict
) -> bool:
    """The relaxed game in two phases searched move by move: the first phase may end at any
    moment (with ``complete``, only once every card of ``first`` but Kings is used), and the
    rest is then the relaxed game with ``then`` alone (`relaxed_moves`)."""
    key = (P, first, then)
    if key in memo:
        return memo[key]
    result = (not complete or not first & ~(7 << 39)) and relaxed_without_shortcuts(
        facts, P, then, relaxed
    )
    if not result and P != FULL:
        result = any(
            two_phase_without_shortcuts(facts, after, left, then, complete, memo, relaxed)
            for after, left in relaxed_moves(facts, P, first)
        )
    memo[key] = result
    return result


@st.composite
def two_phase_games(draw) -> tuple[PyramidFacts, int, int, int]:
    """A rule-9 two-phase game from a random deal: the pyramid's facts under random rules, a
    pyramid state with the apex gone (as in rule 9) and some cards taken away, and up to 24
    of the other cards' values split into a first and a second bag."""
    values, P, stock = random_state(
        draw(st.integers(1, 10**6)), draw(st.integers(0, 18)), draw(st.integers(0, 10**6)), 1
    )
    facts = PyramidFacts(values, deck_win=draw(st.booleans()), stock_in_play=draw(st.booleans()))
    kept = draw(st.integers(4, 24))
    cut = min(draw(st.integers(0, 24)), kept)
    first = sum(1 << 3 * v for v in stock[:cut])
    then = sum(1 << 3 * v for v in stock[cut:kept])
    return facts, P, first, then


@settings(max_examples=80, deadline=None)
@given(game=two_phase_games())
def test_the_two_phase_games_forced_removals_never_change_its_verdict(game):
    """`PyramidFacts.two_phase` plays a card with no pyramid partner left at once with a
    first-phase card when only the first phase can give it one or the first bag serves every
    card of its value, and a card with its one exposed partner when neither bag holds a
    partner for it (its second phase, the relaxed game, forces its own); the verdict is the
    move-by-move one. With the whole deck to clear and the stock face down, its counting
    bounds also cut lines that leave cards unused: then its verdict lies between the
    move-by-move game that must use them all and the one that may leave them (True for every
    line of the real game, which uses them all)."""
    facts, P, first, then = game
    verdict = facts.two_phase(P, first, then)
    loose = two_phase_without_shortcuts(facts, P, first, then, False, {}, {})
    if facts.capped:
        assert two_phase_without_shortcuts(facts, P, first, then, True, {}, {}) <= verdict
        assert verdict <= loose
    else:
        assert verdict == loose


@pytest.mark.parametrize(
    "deal, P, first, then, deck, open_stock",
    [
        # Pairing a card at once with its one pyramid partner left, though a bag holds a
        # partner for it: the card must take a first-phase card, and its partner leaves with
        # another pyramid card in the second phase.
        (444378, 268394497, 70869323784, 1787008684616, False, True),
        (44176, 267357185, 4096, 550848692224, False, True),
        (372553, 268431873, 1855432492104, 8607011336, False, False),
        # Giving a card with no pyramid partner left a first-phase card at once when the first
        # bag holds a partner, but not one for every pyramid card of its value: another of them
        # needs that card in the first phase, and this one can wait for the second.
        (609383, 268428801, 629349065232, 308314184, False, False),
        (774071, 268426305, 146215862856, 629347192904, False, True),
        (248944, 48234497, 79610286080, 629365837896, False, False),
    ],
)
def test_the_two_phase_game_forces_a_removal_only_where_every_win_allows_it(
    deal, P, first, then, deck, open_stock
):
    """States found by a search where a looser forced removal would call a winnable two-phase
    game lost."""
    values = [card.rank for card in Game.deal(deal).cards[:28]]
    facts = PyramidFacts(values, deck_win=deck, stock_in_play=open_stock)
    assert two_phase_without_shortcuts(facts, P, first, then, False, {}, {})
    assert facts.two_phase(P, first, then)


@settings(max_examples=150, deadline=None)
@given(game=two_phase_games())
def test_lonely_cards_bound_to_both_phases_only_cut_lost_two_phase_games(game):
    """`_phases_clash` (a card that must leave in the first phase lying under one that must
    leave in the second) calls a two-phase game lost only where the move-by-move game that may
    leave cards unused (the loosest) cannot clear the pyramid either."""
    facts, P, first, then = game
    if _phases_clash(facts.facts(P)[LONELY], first, then):
        assert not two_phase_without_shortcuts(facts, P, first, then, False, {}, {})
        assert not facts.two_phase(P, first, then)


@pytest.mark.parametrize(
    "deal, P, first, then",
    [
        # Found among random states (`random_state`) whose bounds hold with both bags.
        (559606, 268042241, 1726593892368, 558482133056),
        (225051, 267190273, 69632, 757141345480),
        (656172, 2097153, 1170513069648, 567074197504),
        (299548, 256114689, 214901784584, 9663681536),
        (358001, 265027585, 629231652872, 551100878984),
        (656019, 268433537, 558484496464, 764537996288),
    ],
)
def test_lonely_cards_bound_to_both_phases_prove_a_two_phase_game_lost(deal, P, first, then):
    """States where the order of the lonely cards alone settles the two-phase game: each bag
    lacks the partners of some card no pyramid card left can pair with, and one bound to the
    first phase lies under one bound to the second. The move-by-move game agrees."""
    values = [card.rank for card in Game.deal(deal).cards[:28]]
    facts = PyramidFacts(values, deck_win=False, stock_in_play=True)
    both = first + then
    assert all(low <= both >> 3 * v & 7 <= high for v, low, high in facts.facts(P)[SPECS])
    assert _phases_clash(facts.facts(P)[LONELY], first, then)
    assert not two_phase_without_shortcuts(facts, P, first, then, False, {}, {})
    assert not facts.two_phase(P, first, then)


def test_lonely_cards_bound_to_both_phases_cut_rule_nines_search_and_decide_alike(monkeypatch):
    """On strict's deals, which rule 9 mostly settles at the start, the order of the lonely
    cards cuts the two-phase searches short: fewer positions, the same verdicts."""
    rules = "strict"
    games = [Game.deal(deal, rules) for deal in range(1, 61)]

    def decide(game: Game) -> tuple[bool, int]:
        problem = problem_from_game(game)
        solver = Solver(problem)
        return solver.solve(problem.start) is not None, solver.pyramid.positions

    with_cut = [decide(game) for game in games]
    monkeypatch.setattr(pyramid_facts, "_phases_clash", lambda *_: False)
    without = [decide(game) for game in games]
    assert [won for won, _ in with_cut] == [won for won, _ in without]
    assert sum(n for _, n in with_cut) < 0.9 * sum(n for _, n in without)


def test_the_relaxed_game_pairs_a_card_with_its_one_partner_only_when_it_may_leave_cards():
    """Deal 699832, the whole deck to clear with the stock face down: every card of the bag
    must leave with a pyramid card, so a card whose one pyramid partner is exposed may still
    have to take a bag card (pairing the two at once would strand two bag cards)."""
    values = [card.rank for card in Game.deal(699832).cards[:28]]
    stock = [6, 8, 9, 1, 4, 8, 8, 1, 13, 3, 13, 11, 7, 2, 13, 12, 10, 3, 12, 6, 2, 13, 10, 5]
    bag = sum(1 << 3 * v for v in stock)
    facts = PyramidFacts(values, deck_win=True, stock_in_play=False)
    assert relaxed_without_shortcuts(facts, 0, bag, {})
    assert facts.relaxed(0, bag)


def test_the_relaxed_games_count_their_positions_for_the_budgets():
    """The relaxed games look at the solver's budget once every 512 new positions, and the
    up-front check (`relaxed_within`) gives up at the first position past its budget,
    answering True (nothing proven); a fair hint's answers depend on both being exact."""
    problem = problem_from_game(Game.deal(7, "classic"))
    P, S, _, _ = problem.start
    solver = Solver(problem)
    facts = solver.pyramid
    seen: list[int] = []
    facts.on_tick = lambda: seen.append(facts.positions)
    rng = random.Random(7)
    stock = [1 << i for i in range(24) if S >> i & 1]
    lost = None
    while facts.positions < 2_000:
        bag = solver.bag(sum(rng.sample(stock, rng.randint(6, 18))))
        fresh = PyramidFacts(problem.pyramid_values, deck_win=False, stock_in_play=False)
        if not fresh.relaxed(P, bag) and fresh.positions >= 10:
            lost = bag, fresh.positions
        facts.relaxed(P, bag)
    assert seen == [512 * n for n in range(1, facts.positions // 512 + 1)]
    assert lost is not None
    bag, needed = lost
    short = PyramidFacts(problem.pyramid_values, deck_win=False, stock_in_play=False)
    assert short.relaxed_within(P, bag, needed - 1) and short.positions == needed
    assert not short.relaxed_within(P, bag, needed)  # (what it met before is known now)
    exact = PyramidFacts(problem.pyramid_values, deck_win=False, stock_in_play=False)
    assert not exact.relaxed_within(P, bag, needed) and exact.positions == needed
    none = PyramidFacts(problem.pyramid_values, deck_win=False, stock_in_play=False)
    assert none.relaxed_within(P, bag, 0) and none.positions == 1
    # A budget whose end falls where a stretch of the count ends anyway (a multiple of 512),
    # as if 1,019 positions had been met before.
    late = PyramidFacts(problem.pyramid_values, deck_win=False, stock_in_play=False)
    late._stretch(1_019)
    assert late.relaxed_within(P, bag, 5) and late.positions == 1_025


@pytest.mark.parametrize(
    "rules", ["classic", "one-recycle", "classic,passes=1", "strict", "open-stock,passes=1"]
)
def test_the_apex_rule_never_calls_a_winnable_last_pass_lost(rules):
    """Rule 9 (the apex leaves last, with a waste card or the stock top) against rule 8's
    exact verdict, on last-pass positions; it must also cut some."""
    cuts = wins = 0
    for deal in range(1, 120):
        game = played_position(deal, rules, seed=5)
        if game.is_won or game.pass_number != game.rules.passes:
            continue
        problem = problem_from_game(game)
        P, S, k, _ = problem.start
        solver = Solver(problem)
        reachable = apex_reachable(solver, P, S & ((1 << k) - 1), S >> k << k)
        if stack_verdict(game):
            wins += 1
            assert reachable, (deal, game.code)
        cuts += not reachable
    assert cuts >= 3 and wins >= 2, (cuts, wins)


@pytest.mark.parametrize("rules", ["classic", "one-recycle"])
def test_leaving_the_apex_rule_out_at_recycles_cuts_less_and_decides_alike(rules):
    """A fair hint's searches leave rule 9 out at the recycles into the last pass. That may only
    change how much is searched, never a verdict, and a line found so still replays."""
    walked_more = 0
    for deal in range(1, 41):
        game = Game.deal(deal, rules)
        problem = problem_from_game(game)
        with_rule, without = Solver(problem), Solver(problem)
        line = with_rule.solve(problem.start)
        other = without.solve(problem.start, apex_at_recycle=False)
        assert (line is None) == (other is None), deal
        if other is not None:
            assert replay_wins(game, other), deal
        walked_more += without.nodes > with_rule.nodes
    assert walked_more >= 3, walked_more  # the rule does cut where it runs


def test_the_apex_rule_knows_the_two_cards_on_the_apex_may_leave_together():
    """8s and 5s lie on the apex 5d and pair with each other: then neither needs a waste
    partner, and the apex takes the 8d from the stock. A last pass, stock face down."""
    game = Game.from_position(
        {0: "5d", 1: "8s", 2: "5s"}, stock=["Kh", "8d"], rules="classic,passes=1"
    )
    problem = problem_from_game(game)
    P, S, k, _ = problem.start
    assert apex_reachable(Solver(problem), P, S & ((1 << k) - 1), S >> k << k)
    solution = solve(game)
    assert solution.status == "winnable"
    for move in solution.moves:
        game.play(move)
    assert game.is_won


def test_the_apex_rule_cuts_a_last_pass_whose_apex_partner_comes_too_early():
    """The apex 7d needs a 6: one lies on the waste, one is the first stock card; the 7s
    after it can never leave, and the Ace that the Queen on the apex needs comes after the
    7s: drawn, the 7s buries both 6s for good."""
    game = Game.from_position(
        {0: "7d", 1: "Qc", 2: "Kc"},
        waste=["6h"],
        stock=["6s", "7s", "Ah"],
        rules="classic,passes=1",
    )
    problem = problem_from_game(game)
    P, S, k, _ = problem.start
    assert not apex_reachable(Solver(problem), P, S & ((1 << k) - 1), S >> k << k)
    assert solve(game).status == "unwinnable"
    assert brute_force(game, 6_000) is False


def test_the_apex_rule_cuts_a_last_pass_that_must_draw_a_card_it_cannot_use():
    """The apex 3c takes the Ts, the first card; everything drawn after the Ts must leave
    before the apex. The Queen on the apex takes the Ah, but the Jack that the 2s needs comes
    after the Ac, which has no Queen left to leave with: drawn, it stays on the Ts for good.
    Each card after the Ts has a partner in the pyramid, so the phases that may leave a card
    unused let this through; the ones that use up the cards drawn do not. With the Jack
    before the Ac the deal is won, and the rule lets it through."""
    verdicts = []
    for stock in (["Ts", "Ah", "Ac", "Jd", "Qh"], ["Ts", "Ah", "Jd", "Ac", "Qh"]):
        game = Game.from_position(
            {0: "3c", 1: "Qd", 2: "2s"}, stock=stock, rules="classic,passes=1"
        )
        problem = problem_from_game(game)
        P, S, k, _ = problem.start
        verdicts.append(
            (
                apex_reachable(Solver(problem), P, S & ((1 << k) - 1), S >> k << k),
                solve(game).status,
                brute_force(game, 6_000),
            )
        )
    assert verdicts == [(False, "unwinnable", False), (True, "winnable", True)]


def drained_without_shortcuts(
    values: list[int], P: int, first: int, then: list[int], deck: bool
) -> bool:
    """`PyramidFacts.drained` searched move by move: the first phase, which may end at any
    moment, then for some n the relaxed game that must use every one of the first n cards of
    ``then`` (Kings left out, as the solver leaves them out)."""
    facts = PyramidFacts(values, deck_win=deck, stock_in_play=False)
    every = PyramidFacts(values, deck_win=True, stock_in_play=False)  # (every card used)
    prefixes = [sum(1 << 3 * v for v in then[:n]) for n in range(len(then) + 1)]
    memo: dict = {}
    relaxed: dict = {}
    return any(
        two_phase_and_used_up(facts, every, P, first, bag, memo, relaxed) for bag in prefixes
    )


def two_phase_and_used_up(
    facts: PyramidFacts, every: PyramidFacts, P: int, first: int, then: int, memo, relaxed
) -> bool:
    key = (P, first, then)
    if key not in memo:
        result = relaxed_without_shortcuts(every, P, then, relaxed)
        if not result and P != FULL:
            result = any(
                two_phase_and_used_up(facts, every, after, left, then, memo, relaxed)
                for after, left in relaxed_moves(facts, P, first)
            )
        memo[key] = result
    return memo[key]


def phase_cards(values: list[int], P: int, stock: list[int], seed: int) -> tuple[int, list[int]]:
    """Bags for `drained` that make its question a close one: the cards of ``stock`` that
    some pyramid card left (P) could take, shuffled, some for the first phase and most of
    the rest for the second, so that the pyramid's needs are about met and drawing one card
    more may or may not pay."""
    rng = random.Random(seed)
    wanted = {13 - values[i] for i in range(28) if not P >> i & 1}
    useful = [v for v in stock if v in wanted]
    rng.shuffle(useful)
    cut = rng.randint(0, len(useful))
    then = useful[cut:][: rng.randint(0, len(useful) - cut)]
    return sum(1 << 3 * v for v in useful[:cut]), then


@settings(max_examples=150, deadline=None)
@given(
    deal=st.integers(1, 10**6),
    removed=st.integers(10, 22),
    deck=st.booleans(),
    seed=st.integers(0, 10**6),
)
def test_the_used_up_second_phase_agrees_with_its_move_by_move_game(deal, removed, deck, seed):
    """`PyramidFacts.drained` (rule 9 with the stock face down) forces removals, stops the
    second phase's cards where one can no longer leave and tries the longest first; its
    verdict is the move-by-move one's, and under the pyramid win never True where
    `two_phase`, which may leave the second phase's cards unused, says False."""
    values, P, stock = random_state(deal, removed, seed, 1)  # the apex gone, as in rule 9
    first, then = phase_cards(values, P, stock, seed)
    facts = PyramidFacts(values, deck_win=deck, stock_in_play=False)
    verdict = facts.drained(P, first, sum(v << 4 * n for n, v in enumerate(then)))
    assert verdict == drained_without_shortcuts(values, P, first, then, deck)
    if not deck:  # (with the whole deck to clear, `two_phase`'s bounds use up both bags)
        assert verdict <= facts.two_phase(P, first, sum(1 << 3 * v for v in then))


@pytest.mark.parametrize(
    "deal, P, first, then, deck",
    [
        # Found by `phase_cards` on random deals: states where `drained` goes wrong if it tries
        # only the longest run of second-phase cards (the first four), or forces a first-phase
        # card on a card with no pyramid partner left whenever the first bag holds one (as
        # `two_phase` may when that bag serves every card of the value).
        (959819, 268435361, 16809984, [9, 5], False),
        (770786, 268384385, 68853699712, [12, 4, 7, 10, 6, 10], True),
        (973511, 268432385, 206158696512, [4, 10, 6, 11], True),
        (541811, 266223617, 78400487432, [1, 12, 11, 5, 6, 5], False),
        (155369, 267885769, 139722797248, [5], True),
        (430986, 268418113, 20975760, [4, 8, 12, 2, 4], True),
        (259359, 268435329, 4202560, [2, 3, 4, 3], False),
        (49055, 268435393, 77309411840, [12, 4, 3, 4, 3], False),
    ],
)
def test_the_used_up_second_phase_where_a_shortcut_would_go_wrong(deal, P, first, then, deck):
    """States where a looser `drained` would disagree with the move-by-move game."""
    values = [card.rank for card in Game.deal(deal).cards[:28]]
    facts = PyramidFacts(values, deck_win=deck, stock_in_play=False)
    seq = sum(v << 4 * n for n, v in enumerate(then))
    assert facts.drained(P, first, seq) == drained_without_shortcuts(values, P, first, then, deck)


@pytest.mark.parametrize("rules", ["one-recycle", "classic"])
def test_the_apex_rule_at_the_recycles_cuts_more_and_never_a_winnable_last_pass(rules, monkeypatch):
    """The positions at which real searches recycle into the last pass (the waste empty):
    none that rule 8 finds winnable is cut, and using up the cards drawn after the apex's
    partner cuts some that the looser phases let through."""
    seen: dict[tuple[int, int], Solver] = {}
    check = search.apex_reachable
    quota = [0]

    def record(solver: Solver, P: int, W: int, T: int) -> bool:
        if not W and quota[0] and (P, T) not in seen:
            seen[P, T] = solver
            quota[0] -= 1
        return check(solver, P, W, T)

    monkeypatch.setattr(search, "apex_reachable", record)
    for deal in range(1, 80):
        quota[0] = 12  # the first recycles of each deal, its winning line's among them
        solve(Game.deal(deal, rules))
    monkeypatch.setattr(search, "apex_reachable", check)
    more = wins = 0
    for (P, T), solver in seen.items():
        problem = solver.problem
        k = first_stock(T, 0)
        fresh = Solver(dataclasses.replace(problem, start=(P, T, k, problem.passes)))
        winnable = LastPass(fresh).winnable(P, 0, T)
        cut = not apex_reachable(fresh, P, 0, T)
        with monkeypatch.context() as loose:
            loose.setattr(PyramidFacts, "drained", lambda *_: True)
            loose_cut = not apex_reachable(Solver(fresh.problem), P, 0, T)
        assert not (winnable and cut), (P, T)
        assert cut or not loose_cut, (P, T)
        wins += winnable
        more += cut and not loose_cut
    assert more >= 5 and wins >= 5, (more, wins)


def test_positions_differing_only_in_which_of_two_like_cards_was_paired_are_searched_once():
    """Rule 5 up to suits: J♥ and J♣ lie next to each other in the stock of one-recycle deal
    10. Pairing 2♦ with the first and drawing the second, or drawing both and pairing 2♦ with
    the second, leaves the same values in the same order and the same waste size: one game.
    Once the first is proven lost, the second costs the same solver no new position, while a
    solver that has not met the first must search it."""
    game = Game.deal(10, "one-recycle")
    for _ in range(12):
        game.play("draw")
    first, second = game.stock[:2]
    assert (str(first), str(second)) == ("Jh", "Jc")
    paired_first, paired_second = game.copy(), game.copy()
    paired_first.replay(["draw", "2d+Jh", "draw"])
    paired_second.replay(["draw", "draw", "2d+Jc"])
    assert [c.rank for c in paired_first.waste] == [c.rank for c in paired_second.waste]
    assert paired_first.waste != paired_second.waste
    one, other = problem_from_game(paired_first), problem_from_game(paired_second)
    solver = Solver(one)
    assert solver.solve(one.start) is None and solver.nodes > 0
    before = solver.nodes
    assert solver.solve(other.start) is None
    assert solver.nodes == before
    fresh = Solver(other)
    assert fresh.solve(other.start) is None and fresh.nodes > 0


@settings(max_examples=40, deadline=None)
@given(deal=st.integers(1, 10**6), masks=st.lists(st.integers(0, (1 << 24) - 1), max_size=40))
def test_a_bag_counts_the_same_before_and_after_its_tables_are_built(deal, masks):
    """`Solver.bag` counts card by card for its first asks and by byte tables after; the
    relaxed games' verdicts rest on both giving each stock card's value once."""
    problem = problem_from_game(Game.deal(deal, "one-recycle"))
    solver = Solver(problem)
    values = problem.stock_values
    for S in [*masks, *masks]:  # (the second round after the tables, whatever came first)
        expected = sum(1 << 3 * values[j] for j in range(24) if S >> j & 1)
        assert solver.bag(S) == expected
    for S in range(search._BAGS_BY_TABLE + 1):
        solver.bag(S)
    assert solver._bags, "the tables were built"
    for S in masks:
        assert solver.bag(S) == sum(1 << 3 * values[j] for j in range(24) if S >> j & 1)


def phases_without_shortcuts(facts: PyramidFacts, P: int, bags: tuple[int, ...], memo: dict):
    """The relaxed game in phases searched move by move: each phase may use the cards of its
    own bag (a card may lie in two bags: each is a copy of its own), pyramid pairs and Kings
    at any time, and may end at any moment (`relaxed_moves`)."""
    key = (P, bags)
    if key in memo:
        return memo[key]
    result = P == FULL
    if not result and bags:
        result = phases_without_shortcuts(facts, P, bags[1:], memo) or any(
            phases_without_shortcuts(facts, after, (left, *bags[1:]), memo)
            for after, left in relaxed_moves(facts, P, bags[0])
        )
    memo[key] = result
    return result


@st.composite
def phased_games(draw) -> tuple[PyramidFacts, int, tuple[int, int], tuple[int, ...]]:
    """Rule 10's games from random play under a pyramid win: the pyramid's facts and state,
    the other cards left cut into a run of bags in drawing order (the last pass's segments,
    disjoint), and two bags for the pass before (this pass before and after the apex's
    partner), drawn from the same cards: a card may lie in both passes' bags."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    game = Game.deal(draw(st.integers(1, 10**6)), "classic,passes=unlimited")
    for _ in range(draw(st.integers(0, 60))):
        moves = game.legal_moves()
        if not moves or game.is_won:
            break
        removals = [m for m in moves if m.kind in ("pair", "king")]
        game.play(rng.choice(removals if removals and rng.random() < 0.7 else moves))
    problem = problem_from_game(game)
    P, S, _, _ = problem.start
    facts = PyramidFacts(problem.pyramid_values, deck_win=False, stock_in_play=False)
    kept = [v for j, v in enumerate(problem.stock_values) if S >> j & 1]
    cuts = sorted(draw(st.lists(st.integers(0, len(kept)), max_size=4)))
    segments = [kept[a:b] for a, b in zip([0, *cuts], [*cuts, len(kept)], strict=True)]
    last = tuple(bag for bag in (sum(1 << 3 * v for v in seg) for seg in segments) if bag)
    chosen = sorted(draw(st.sets(st.integers(0, max(0, len(kept) - 1)), max_size=12)))
    chosen = [i for i in chosen if i < len(kept)]
    split = draw(st.integers(0, len(chosen)))
    now = tuple(sum(1 << 3 * kept[i] for i in part) for part in (chosen[:split], chosen[split:]))
    return facts, P, now, last


def packed(bags: tuple[int, ...]) -> int:
    """A run of bags as `PyramidFacts.phases` takes it: 42 bits each, the first lowest."""
    return sum(bag << 42 * n for n, bag in enumerate(bags))


@settings(max_examples=150, deadline=None)
@given(game=phased_games())
def test_the_last_pass_in_segments_is_the_move_by_move_game_in_phases(game):
    """`PyramidFacts.phases` (rule 10's last pass: one phase per segment between dead cards)
    forces the removals `_first_phase` forces and asks the lonely cards' order first; its
    verdict is the move-by-move one."""
    facts, P, _, last = game
    if not last:
        return
    verdict = facts.phases(P, last[0], packed(last[1:]))
    assert verdict == phases_without_shortcuts(facts, P, last, {})


@settings(max_examples=150, deadline=None)
@given(game=phased_games())
def test_the_pass_before_the_last_in_phases_is_the_move_by_move_game(game):
    """`PyramidFacts.ahead` (rule 10 in the pass before the last: one or two phases of this
    pass, whose cards may lie in the last pass's bags too, then the last pass in segments)
    agrees with the move-by-move game that gives each bag its own copies."""
    facts, P, (first, second), last = game
    verdict = facts.ahead(P, first, second | packed(last) << 42)
    bags = (first, second, *last) if second else (first, *last)
    assert verdict == phases_without_shortcuts(facts, P, bags, {})


@pytest.mark.parametrize("rules", ["one-recycle", "classic"])
def test_the_last_pass_in_segments_never_calls_a_winnable_position_lost(rules):
    """Rule 10 (`endgame.segments_ahead`) against the exact verdict of a search without it, on
    positions of the pass before the last (the first of one-recycle's two, the second of
    classic's three, where it is sound though not asked); it must also cut some."""
    cuts = wins = 0
    for deal in range(1, 160):
        game = played_position(deal, rules, seed=3, before_last=True)
        if game.is_won or game.pass_number != game.rules.passes - 1:
            continue
        problem = problem_from_game(game)
        P, S, k, _ = problem.start
        fits = segments_ahead(Solver(problem), P, S, k)
        winnable = Solver(problem).solve(problem.start, apex_at_recycle=False) is not None
        assert fits or not winnable, (deal, game.code)
        wins += winnable
        cuts += not fits
    assert cuts >= 5 and wins >= 5, (cuts, wins)


def test_the_last_pass_in_segments_decides_alike_and_cuts(monkeypatch):
    """Asked from the first node on, rule 10 leaves every verdict of one-recycle's deals as
    it was, every line found still replays, and some searches take fewer nodes."""
    monkeypatch.setattr(search, "_SEGMENT_NODES", 0)
    fewer = 0
    for deal in range(1, 61):
        game = Game.deal(deal, "one-recycle")
        problem = problem_from_game(game)
        with_rule, without = Solver(problem), Solver(problem)
        without._segmented = False
        line = with_rule.solve(problem.start)
        other = without.solve(problem.start)
        assert (line is None) == (other is None), deal
        if line is not None:
            assert replay_wins(game, line), deal
        fewer += with_rule.nodes < without.nodes
    assert fewer >= 5, fewer


def test_the_last_pass_in_segments_settles_a_hard_one_recycle_deal_early():
    """One-recycle deal 9030, which the search settles only deep down without rule 10: the
    apex J♠ must leave last, with the 2♥ or the 2♦ of the stock, and what either keeps
    out of play, with the cards that can never leave, leaves too little for the rest. Asked
    once the search has run 2,000 nodes, rule 10 proves it lost within a few thousand."""
    solution = solve(Game.deal(9030, "one-recycle"))
    assert solution.status == "unwinnable"
    assert solution.nodes < 10_000, solution.nodes


def buried_by_walking_down(solver: Solver, P: int, waste: int, stock: int) -> int:
    """Rule 6 as its docstring tells it, card by card: walk down the waste from the top, each
    card spending one partner of its value (a pyramid card left or, with the stock top in
    play, a stock card of the partner value); the first card with none left is buried with
    everything under it. Kings leave alone."""
    counts = solver.pyramid.counts(P)
    values = solver.sv
    open_stock = solver.problem.stock_in_play
    spent = [0] * 14
    for j in range(23, -1, -1):
        if not waste >> j & 1 or values[j] == 13:
            continue
        v = values[j]
        supply = counts[13 - v]
        if open_stock:
            supply += sum(1 for i in range(24) if stock >> i & 1 and values[i] == 13 - v)
        spent[v] += 1
        if spent[v] > supply:
            return (2 << j) - 1
    return 0


@settings(max_examples=300, deadline=None)
@given(
    deal=st.integers(1, 10**6),
    removed=st.integers(0, 27),
    seed=st.integers(0, 2**32),
    open_stock=st.booleans(),
    cards=st.integers(0, (1 << 24) - 1),
    boundary=st.integers(0, 24),
    fresh=st.integers(0, (1 << 24) - 1),
)
def test_the_last_pass_burial_is_the_walk_down_the_waste(
    deal, removed, seed, open_stock, cards, boundary, fresh
):
    """Rule 6 (`Solver._buried`) buries exactly what walking down the waste does. And where
    a waste that had nothing buried gained some cards from the stock, looking at their values
    only (the search's way; with the stock top in play, their partners' values too, whose
    stock supply they took) finds the same as looking at the whole waste."""
    game = Game.deal(deal, "open-stock,passes=1" if open_stock else "classic,passes=1")
    solver = Solver(problem_from_game(game))
    P = random_state(deal, removed, seed, 0)[1]
    waste, stock = cards & ((1 << boundary) - 1), cards >> boundary << boundary
    burial = solver._info(P)[DEAD], solver._info(P)[SHORT]
    buried = solver._buried(waste, stock, *burial)
    assert buried == buried_by_walking_down(solver, P, waste, stock)
    added = waste & fresh
    if not solver._buried(waste & ~added, stock | added, *burial):
        assert solver._buried(waste, stock, *burial, added) == buried
