"""The exact solver: verdicts a player can trust, lines that replay, shortest wins.

Cross-checks against the reference decks in tests/data/decks (independent solvers' verdicts), the
engine (every returned line is replayed), a plain brute force on small end-game positions, and
rule-monotonicity (a rule that only adds moves can never turn a win into a loss).
"""

from __future__ import annotations

import contextlib
import gc
import random
from concurrent.futures import ProcessPoolExecutor

import pytest
from helpers import brute_force, fewest_moves, reference_decks, replay_wins

from pyramid_widget import Game, Rules, solve


def check(game: Game, **kwargs):
    """Solve and, for a win, replay the line on the engine."""
    solution = solve(game, **kwargs)
    assert solution.status in ("winnable", "unwinnable")
    if solution.status == "winnable":
        assert replay_wins(game, solution.moves), solution.moves
    else:
        assert solution.moves == ()
    return solution


# ------------------------------------------------------------------ reference decks
@pytest.mark.parametrize("deck", ["open-stock.jsonl", "one-pass.jsonl"])
def test_every_reference_verdict_agrees_and_every_line_replays(deck):
    for row in reference_decks(deck):
        game = Game.from_layout(row["layout"], Rules.parse(row["rules"]))
        solution = check(game, time_limit=30)
        if row["verdict"] is not None:
            assert solution.status == row["verdict"], row["index"]


def test_the_one_pass_decks_the_peer_left_undecided_are_all_unwinnable():
    undecided = [row for row in reference_decks("one-pass.jsonl") if row["verdict"] is None]
    assert undecided, "the reference file should hold some undecided decks"
    for row in undecided:
        game = Game.from_layout(row["layout"], Rules.parse(row["rules"]))
        assert check(game, time_limit=30).status == "unwinnable", row["index"]


def _shortest(row: dict) -> tuple[int, str, tuple[str, ...], bool]:
    """Solve one reference deck for its shortest win (in a worker process)."""
    game = Game.from_layout(row["layout"], Rules.parse(row["rules"]))
    solution = solve(game, optimal=True, time_limit=300)
    return row["index"], solution.status, solution.moves, solution.optimal


def test_shortest_wins_have_the_reference_move_counts_on_every_reference_deck():
    """All 111 winnable open-stock decks, on two worker processes (shortest wins are costly)."""
    rows = [row for row in reference_decks("open-stock.jsonl") if row["verdict"] == "winnable"]
    assert len(rows) == 111
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(_shortest, rows))
    for row, (index, status, moves, optimal) in zip(rows, results, strict=True):
        game = Game.from_layout(row["layout"], Rules.parse(row["rules"]))
        assert (status, optimal) == ("winnable", True), index
        assert len(moves) == row["optimal_moves"], index
        assert replay_wins(game, moves), index


@pytest.mark.parametrize(
    "rules",
    [
        "classic",
        "open-stock",
        "one-recycle",
        "classic,passes=1",
        "open-stock,passes=unlimited",
        "strict",
    ],
)
def test_shortest_wins_are_as_short_as_a_breadth_first_search_finds(rules):
    """Near the end of a won game, often after a step off the line (so waste and stock hold
    cards the pyramid still needs, deep down, with and without a recycle left): the shortest
    win has exactly as many moves as a search over the engine's own moves finds."""
    rng = random.Random(f"fewest-{rules}")
    checked = 0
    for deal in range(1, 1000):
        if checked >= 10:
            break
        game = Game.deal(deal, rules)
        line = list(solve(game).moves)
        if not line:
            continue
        for move in line[: max(0, len(line) - rng.randrange(5, 11))]:
            game.play(move)
        if rng.random() < 0.6:
            game.play(rng.choice(game.legal_moves()))
        try:
            fewest = fewest_moves(game, 60_000)
        except TimeoutError:
            continue
        solution = solve(game, optimal=True)
        if fewest is None:
            assert solution.status == "unwinnable", (deal, game.code)
            continue
        assert len(solution.moves) == fewest, (deal, game.code)
        assert replay_wins(game, solution.moves), (deal, game.code)
        checked += 1
    assert checked >= 10


def test_the_shortest_wins_estimate_counts_a_waste_card_once_by_its_cheaper_route():
    """Two cards of a value must still come from waste and stock: one on the waste, reached
    for one move by the recycle or for two by the cards on it, and one in the stock, five
    moves away. Both are reached, so the estimate is the stock card's five, not the waste
    card's second route (a bound that counts one card twice is weaker than it need be)."""
    from pyramid_widget.solver.optimal import _reach

    waste_card, stock_card = 1 << 0, 1 << 13
    waste_and_stock = (1 << 14) - 1  # waste: 0 (the card) to 2, the stock: 3 to 13
    partnered = waste_card | waste_and_stock >> 3 << 3  # cards 1 and 2 pair with nothing
    kind = ((), ((waste_card | stock_card, 2),), 2, partnered)
    assert _reach(kind, waste_and_stock, 3, True, True) == 5
    assert _reach(kind, waste_and_stock, 3, False, True) == 5  # no recycle: two for the first


def test_the_reference_optimal_lines_are_no_shorter_than_ours():
    """The reference's own lines replay on our engine and are as long as our shortest."""
    for row in reference_decks("open-stock.jsonl")[:40]:
        if row["verdict"] != "winnable":
            continue
        game = Game.from_layout(row["layout"], Rules.parse(row["rules"]))
        assert replay_wins(game, row["solution"]), row["index"]
        assert len(row["solution"]) == row["optimal_moves"]


# ------------------------------------------------------------------ any position
def test_solving_leaves_the_game_untouched():
    game = Game.deal(7, "open-stock")
    game.play("draw")
    before = (game.code, game.log, game.seen)
    solve(game)
    solve(game, optimal=True)
    assert (game.code, game.log, game.seen) == before


def test_a_won_game_is_winnable_with_no_moves_left_to_play():
    game = Game.deal(1)
    solution = check(game)
    for move in solution.moves:
        game.play(move)
    assert game.is_won
    done = solve(game)
    assert (done.status, done.moves) == ("winnable", ())


@pytest.mark.parametrize("rules", ["classic", "open-stock", "one-recycle", "strict"])
def test_positions_met_in_play_have_consistent_verdicts(rules):
    """From positions reached by random play: a winnable position's line replays; a lost
    position stays lost after every legal move; following a line keeps it winnable."""
    rng = random.Random(f"mid-{rules}")
    for deal in range(1, 9):
        game = Game.deal(deal, rules)
        for _ in range(rng.randrange(3, 30)):
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
        solution = check(game, time_limit=30)
        if solution.status == "unwinnable":
            for move in game.legal_moves():
                child = game.copy()
                child.play(move)
                assert solve(child, time_limit=30).status == "unwinnable", (deal, move)
        elif solution.moves:
            child = game.copy()
            child.play(solution.moves[0])
            assert check(child, time_limit=30).status == "winnable"


@pytest.mark.parametrize("rules", ["classic", "open-stock", "classic,passes=unlimited", "strict"])
def test_one_solver_answers_follow_up_questions_as_a_fresh_one_would(rules):
    """A fair hint asks one solver about the start, then about every legal move: the memo
    shared by those questions must hold only positions proven lost, never the positions of
    a win found earlier (nor of a search cut short by its budget)."""
    from pyramid_widget.solver.search import SearchTimeout, Solver
    from pyramid_widget.solver.solution import problem_from_game

    asked = 0
    for deal in range(1, 13):
        game = Game.deal(deal, rules)
        problem = problem_from_game(game)
        shared = Solver(problem)
        with contextlib.suppress(SearchTimeout):
            shared.solve(problem.start, node_limit=50)  # cut short on most deals
        shared.solve(problem.start)
        for move in game.legal_moves():
            child = shared.after(problem.start, str(move))
            alone = Solver(problem).solve(child) is not None
            assert (shared.solve(child) is not None) == alone, (deal, str(move))
            asked += 1
    assert asked > 12


def test_a_time_limit_gives_unknown_never_a_guess():
    game = Game.deal(49)  # classic deal 49 takes the search well over a thousand nodes
    solution = solve(game, time_limit=0.001)
    assert solution.status == "unknown"
    assert solution.moves == ()
    assert solution.winnable is None


def test_a_negative_time_limit_is_refused():
    with pytest.raises(ValueError):
        solve(Game.deal(1), time_limit=-1)


# ------------------------------------------------------------------ every rule setting
RULE_GRID = [
    Rules(stock_in_play=open_stock, passes=passes, win=win, king_from_stock=kings)
    for open_stock in (False, True)
    for passes in (1, 2, 3, None)
    for win in ("pyramid", "deck")
    for kings in ((True, False) if open_stock else (True,))
]


@pytest.mark.parametrize("rules", RULE_GRID, ids=lambda rules: rules.name)
def test_every_rule_setting_gives_replayable_wins(rules):
    for deal in (2, 11, 12):
        check(Game.deal(deal, rules), time_limit=60)


def test_rules_that_only_add_moves_never_lose_a_win():
    """More passes, the stock top in play, Kings off the stock, the pyramid-only win: each
    only adds legal lines, so a win under the stricter rules is a win under the looser."""
    looser = {
        Rules(passes=1): [Rules(passes=2), Rules(passes=1, stock_in_play=True)],
        Rules(passes=2): [Rules(passes=3)],
        Rules(passes=3): [Rules(passes=None), Rules(stock_in_play=True)],
        Rules(passes=1, win="deck"): [Rules(passes=1), Rules(passes=2, win="deck")],
        Rules(stock_in_play=True, king_from_stock=False): [Rules(stock_in_play=True)],
        Rules(stock_in_play=True, passes=1, win="deck", king_from_stock=False): [
            Rules(stock_in_play=True, passes=1, king_from_stock=False)
        ],
    }
    verdicts: dict[tuple[Rules, int], str] = {}

    def verdict(rules: Rules, deal: int) -> str:
        if (rules, deal) not in verdicts:
            verdicts[rules, deal] = check(Game.deal(deal, rules), time_limit=60).status
        return verdicts[rules, deal]

    for deal in range(1, 17):
        for strict, loose_list in looser.items():
            if verdict(strict, deal) == "winnable":
                for loose in loose_list:
                    assert verdict(loose, deal) == "winnable", (deal, strict.name, loose.name)


# ------------------------------------------------------------------ brute force
@pytest.mark.parametrize(
    "rules",
    [
        "classic",
        "classic,passes=1",
        "classic,passes=unlimited",
        "open-stock",
        "strict",
        "open-stock,king_from_stock=false,win=deck,passes=2",
    ],
)
def test_end_games_agree_with_a_brute_force_search(rules):
    """Positions near the end of a game, small enough for a search with no pruning at all:
    reached by following a winning line (then perhaps one random move), or by random play that
    prefers removals. Both verdicts must turn up."""
    rng = random.Random(f"brute-{rules}")
    verdicts = []
    for deal in range(1, 400):
        if verdicts.count(True) >= 4 and verdicts.count(False) >= 4:
            break
        game = Game.deal(deal, rules)
        line = list(solve(game, time_limit=30).moves) if verdicts.count(True) < 4 else []
        if not line and verdicts.count(False) >= 4:
            continue
        for _ in range(300):  # unlimited passes could cycle for ever
            if game.cleared >= 14 or not game.legal_moves():
                break
            moves = game.legal_moves()
            removals = [m for m in moves if m.kind in ("pair", "king")]
            if line:
                game.play(line.pop(0))
            else:
                game.play(rng.choice(removals if removals and rng.random() < 0.9 else moves))
        if line and rng.random() < 0.5 and game.legal_moves():
            game.play(rng.choice(game.legal_moves()))
        if game.cleared < 14 or game.is_won:
            continue
        try:
            expected = brute_force(game, 6_000)
        except TimeoutError:
            continue
        got = check(game, time_limit=30).status
        assert got == ("winnable" if expected else "unwinnable"), (deal, game.code)
        verdicts.append(expected)
    assert verdicts.count(True) >= 2 and verdicts.count(False) >= 2, verdicts


def test_a_finished_solve_leaves_nothing_for_the_cyclic_collector():
    """A solver that handed over to rule 8 goes as soon as the solve ends (no reference
    cycle keeps its memos for the cyclic garbage collector)."""
    game = Game.deal(3836, "classic,passes=1")
    solve(Game.deal(1, "classic,passes=1"))  # (the first solve fills lasting caches)
    gc.collect()
    gc.disable()
    try:
        assert solve(game).status == "unwinnable"
        assert gc.collect() < 1000  # a cycle would leave the solver's memos to the collector
    finally:
        gc.enable()
