"""Hints give the answers recorded for positions met in seeded random play, in every preset.

A fair hint's searches are bounded by node counts, not the clock, so its answer (the move, its
kind, the verdict and the chance) is reproducible; the all-seeing hint's answer is the first
move of the solver's line. The answers in tests/data/hint_answers.jsonl were recorded with
``python tests/test_hint_answers.py --record``: a change to the solver that changes one of them
must say why (a completion now decided within its budget, say) and record them again.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from pyramid_widget import PRESETS, Game, hint

ANSWERS = Path(__file__).resolve().parent / "data" / "hint_answers.jsonl"
RULE_SETTINGS = [*PRESETS, "classic,passes=1", "classic,passes=unlimited"]
PER_PRESET = 10


def positions():
    """(rules, deal, moves, game): positions from seeded random play, some with unseen cards."""
    for rules in RULE_SETTINGS:
        rng = random.Random(f"hint-answers-{rules}")
        for _ in range(PER_PRESET):
            deal = rng.randrange(1, 10**6)
            game = Game.deal(deal, rules)
            for _ in range(rng.randrange(0, 40)):
                moves = game.legal_moves()
                if not moves:
                    break
                game.play(rng.choice(moves))
            yield rules, deal, [str(move) for move in game.log], game


def answers(game: Game) -> dict:
    fair = hint(game, fair=True)
    exact = hint(game, fair=False, time_limit=30)
    return {
        "fair": [fair.move, fair.kind, fair.verdict, fair.chance],
        "exact": [exact.move, exact.kind, exact.verdict, exact.chance],
    }


def recorded() -> list[dict]:
    return [json.loads(line) for line in ANSWERS.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("rules", RULE_SETTINGS)
def test_hints_give_the_recorded_answers(rules):
    rows = [row for row in recorded() if row["rules"] == rules]
    assert len(rows) == PER_PRESET
    for row in rows:
        game = Game.deal(row["deal"], rules)
        for move in row["moves"]:
            game.play(move)
        got = answers(game)
        assert got == {"fair": row["fair"], "exact": row["exact"]}, (rules, row["deal"])


def test_the_recorded_positions_include_unseen_cards_and_both_verdicts():
    rows = recorded()
    assert {row["exact"][2] for row in rows} >= {"winnable", "unwinnable"}
    assert sum(row["fair"][3] is not None and 0 < row["fair"][3] < 1 for row in rows) >= 5


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    with ANSWERS.open("w") as out:
        for rules, deal, moves, game in positions():
            row = {"rules": rules, "deal": deal, "moves": moves, **answers(game)}
            out.write(json.dumps(row) + "\n")
