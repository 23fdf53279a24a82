"""The shortest-win search's memory savers: its compact tables, the line walked back by undoing
moves, and the estimate's bounded cache. Each is forced on searches that would not otherwise
need it, and must give lines exactly as short, which replay on the engine."""

from __future__ import annotations

import random

import pytest
from helpers import reference_decks, replay_wins
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramid_widget import Game, Rules, solve
from pyramid_widget.solver import optimal
from pyramid_widget.solver.search import Solver
from pyramid_widget.solver.solution import problem_from_game

RULES = ["classic", "open-stock", "one-recycle", "classic,passes=1", "strict"]


@pytest.fixture
def compact(monkeypatch):
    """Every search in compact tables from its first position, and an estimate cache that is
    emptied every 64 entries; `_parents` calls recorded, to show which cases they met."""
    monkeypatch.setattr(optimal, "_FEW", 0)
    monkeypatch.setattr(optimal, "_EXTRA_MOST", 64)
    calls = []
    parents = optimal._parents

    def recorded(solver, state, code, fresh, buried):
        calls.append((code, buried))
        return parents(solver, state, code, fresh, buried)

    monkeypatch.setattr(optimal, "_parents", recorded)
    return calls


def positions(rules: str, count: int):
    """Won-able positions near the end of seeded games, some after a step off the line."""
    rng = random.Random(f"tables-{rules}")
    for deal in range(1, 400):
        if count <= 0:
            return
        game = Game.deal(deal, rules)
        line = list(solve(game).moves)
        if not line:
            continue
        for move in line[: rng.randrange(len(line) // 3, len(line))]:
            game.play(move)
        if rng.random() < 0.5:
            game.play(rng.choice(game.legal_moves()))
        count -= 1
        yield deal, game


@pytest.mark.parametrize("rules", RULES)
def test_compact_tables_find_lines_as_short_as_the_dict(rules, compact, monkeypatch):
    games = list(positions(rules, 8))
    forced = [solve(game, optimal=True) for _, game in games]
    monkeypatch.setattr(optimal, "_FEW", 1 << 30)
    monkeypatch.setattr(optimal, "_EXTRA_MOST", 1 << 30)
    for (deal, game), solution in zip(games, forced, strict=True):
        plain = solve(game, optimal=True)
        assert solution.status == plain.status, (deal, game.code)
        assert len(solution.moves) == len(plain.moves), (deal, game.code)
        assert replay_wins(game, solution.moves) or solution.status != "winnable", deal


def test_the_walk_back_meets_every_kind_of_move_and_buried_cards(compact):
    """Across the settings, the walk undoes removals, draws, recycles and rule 6's burials."""
    for rules in RULES:
        for _, game in positions(rules, 8):
            solve(game, optimal=True)
    codes = {code for code, _ in compact}
    assert optimal._RECYCLE in codes
    assert any(optimal._DRAWS < code < optimal._RECYCLE for code in codes)
    assert any(code < optimal._DRAWS and code >> 6 == optimal._ALONE for code in codes)
    assert any(code < optimal._DRAWS and code >> 6 != optimal._ALONE for code in codes)
    assert any(buried for _, buried in compact)


def test_compact_tables_on_reference_decks_keep_the_reference_lengths(compact):
    rows = [row for row in reference_decks("open-stock.jsonl") if row["verdict"] == "winnable"][:6]
    for row in rows:
        game = Game.from_layout(row["layout"], Rules.parse(row["rules"]))
        solution = solve(game, optimal=True)
        assert len(solution.moves) == row["optimal_moves"], row["index"]
        assert replay_wins(game, solution.moves), row["index"]


@settings(max_examples=60, deadline=None)
@given(
    rules=st.sampled_from([*RULES, "open-stock,passes=unlimited"]),
    deal=st.integers(1, 10_000),
    seed=st.integers(0, 2**32),
)
def test_parents_undo_every_move_the_search_makes(rules, deal, seed):
    """On random walks through the search's own moves: the position before every move is
    among those `_parents` works out from the position after it and what is kept of the move."""
    rng = random.Random(seed)
    game = Game.deal(deal, rules)
    problem = problem_from_game(game)
    solver = Solver(problem)
    P, S, k, p = problem.start
    state = P | S << 28 | k << 52 | optimal._FRESH | (0 if problem.passes is None else p) << 58
    if problem.passes == p:
        kept = solver.kept(P, S, k)
        if kept < 0:
            return
        state ^= (S ^ kept) << 28
    for _ in range(60):
        moves = optimal.successors(solver, state)
        if not moves:
            break
        for _, child, move in moves:
            code, buried = move & ((1 << optimal._CODE_BITS) - 1), move >> optimal._CODE_BITS
            before = optimal._parents(solver, child, code, state >> 57 & 1, buried)
            assert state in before, (rules, deal, state, child, move)
        state = rng.choice(moves)[1]


@settings(max_examples=80, deadline=None)
@given(
    passes=st.sampled_from([None, 1, 3, 9]),
    puts=st.lists(
        st.tuples(st.integers(0, 3), st.integers(1, 2**30 - 1), st.integers(0, 2**23)),
        max_size=400,
    ),
)
def test_a_compact_table_keeps_what_a_dict_keeps(passes, puts):
    """Positions of a few pyramid states (so tables grow and collide), values rewritten."""
    g_bits = 9
    model: dict[int, int] = {}
    table = optimal._Reached(passes, g_bits)
    for P, rest, value in puts:
        state = P | rest << 28 | (passes or 0) << 58
        table.put(state, value)
        model[state] = value
        assert table.get(state) == value
        assert table.get(state ^ 1 << 40) == model.get(state ^ 1 << 40)
    assert all(table.get(state) == value for state, value in model.items())
    again = optimal._Reached.of(dict(model), passes, g_bits)
    assert all(again.get(state) == value for state, value in model.items())
