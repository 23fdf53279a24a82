"""What several test modules share: a reference layout and its win, the reference decks, a
stand-in for a browser view, a fake clock, a wait, and a search with no pruning that checks the
solver. (Test modules import from here, never from one another.)"""

from __future__ import annotations

import importlib.util
import itertools
import json
import random
import re
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType

from pyramid_widget import Card, Game
from pyramid_widget.cards import RANK_NAMES
from pyramid_widget.widget import PyramidWidget

# open-stock.jsonl index 0: winnable, and its optimal line starts Kc, Kh, 7h+6d.
LAYOUT = (
    "Th Js 2d Ks 8c Qs 8h 5d 8d Qc Tc 6h 2c 9h 4h 2h 5h Jd 6s 8s 3s Kc Jh 3c Kh As 3h 7h "
    "6d Ah Kd 5c 4d Qd 9s 3d 7c Ad Ac 7s Jc 2s 5s 4s 6c 7d Td 9d 4c Qh 9c Ts"
)
SOLUTION = (
    "Kc Kh 7h+6d draw Kd draw draw As+Qd 4d+9s draw draw draw draw 6s+7s draw Jh+2s draw draw "
    "draw 6c+7d 3c+Td 2h+Jd draw 9d+4c draw draw 3h+Ts 5h+8s Tc+3s 9h+4h recycle Qc+Ah draw "
    "draw 6h+7c draw draw 2c+Jc 8h+5s 5d+8d Qs+Ac Ks draw draw draw recycle 8c+5c Js+2d Th+3d"
).split()
# Numbered deal 1 under open-stock: winnable, with Kc and Kh on its bottom row, and a winning line
# the solver found. A numbered deal counts for the records; a game from a layout is practice.
DEAL = 1
DEAL_SOLUTION = (
    "Kc Kh 5h+8s draw draw draw 6c+7c draw draw draw Ks draw draw draw draw draw 3d+Th 3s+Ts "
    "4h+9d Ac+Qd draw 2h+Js draw draw 3h+Td 6s+7h Kd draw draw draw recycle Ad+Qc 2c+Jh draw "
    "draw draw draw draw draw draw draw 5d+8c 2d+Jd 3c+Tc 2s+Jc 4c+9s draw 6d+7s 5s+8h recycle "
    "draw draw 5c+8d 4d+9c draw 6h+7d"
).split()
DECKS = Path(__file__).resolve().parent / "data" / "decks"  # a copy of shared/decks


def reference_decks(name: str) -> list[dict]:
    """The rows of one reference deck file (index, layout, rules, the independent verdict,
    and for winnable decks the shortest win's length and a winning line)."""
    path = DECKS / name
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


CARD_TOKEN = re.compile(r"\b(?:[A2-9TJQK][cdhs])\b")
CARD_SYMBOL = re.compile(r"(?<![0-9A-Za-z])(10|[A2-9JQK])([♣♦♥♠])")
CARD_WORDS = re.compile(
    r"\b(Ace|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King) of "
    r"(Clubs|Diamonds|Hearts|Spades)\b"
)
_SUIT_OF = {"Clubs": "c", "Diamonds": "d", "Hearts": "h", "Spades": "s"}
_RANK_OF = dict(zip(RANK_NAMES, "A23456789TJQK", strict=True))


def cards_named(text: str) -> set[Card]:
    """Every card that `text` (a serialized state, an ack, a sentence) names in any form the
    product writes: notation ("Ts"), symbols ("10♠") or words ("Ten of Spades")."""
    named = {Card.parse(token) for token in CARD_TOKEN.findall(text)}
    named |= {Card.parse(rank + suit) for rank, suit in CARD_SYMBOL.findall(text)}
    named |= {
        Card.parse(_RANK_OF[rank] + _SUIT_OF[suit]) for rank, suit in CARD_WORDS.findall(text)
    }
    return named


class Front:
    """A stand-in for one browser view: sends intents and keeps the acks it is sent. Each has
    its own view id (as each rendered view has), and numbers its intents from 1."""

    views = itertools.count(1)

    def __init__(self, widget: PyramidWidget, view: str | None = None) -> None:
        self.widget = widget
        self.view = view or f"v{next(Front.views)}"
        self.seq = 0
        self.sent: list[dict] = []
        widget.send = lambda content, buffers=None: self.sent.append(content)

    def raw(self, content: object) -> dict | None:
        """Deliver any message as the comm would; return the ack it produced, if any."""
        before = len(self.sent)
        self.widget._on_msg(self.widget, content, [])
        assert len(self.sent) - before <= 1, "one message, at most one answer"
        return self.sent[-1] if len(self.sent) > before else None

    def intent(self, action: str, *, version: int | None = None, **fields: object) -> dict:
        self.seq += 1
        message = {"type": "intent", "seq": self.seq, "view": self.view, "action": action}
        message["version"] = self.widget.state["version"] if version is None else version
        message.update(fields)
        ack = self.raw(message)
        assert ack is not None and ack["seq"] == self.seq and ack["view"] == self.view
        return ack


def random_game(rules: str, deal: int, steps: int, seed: int, *, undo: float = 0.0) -> Game:
    """Numbered deal `deal` of `rules` after `steps` random legal moves (each step an undo
    instead with chance `undo`), the same for the same arguments."""
    game = Game.deal(deal, rules)
    rng = random.Random(seed)
    for _ in range(steps):
        moves = game.legal_moves()
        if not moves:
            break
        if undo and game.can_undo and rng.random() < undo:
            game.undo()
        else:
            game.play(rng.choice(moves))
    return game


def load_script(path: Path, name: str) -> ModuleType:
    """A script of the repository (wasm/build.py, tests/in_pyodide/drive.py) as a module."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def won_game(number: int = 1) -> Game:
    """Classic deal `number` played to a win by always taking the first legal move (deal 1
    wins that way)."""
    game = Game.deal(number)
    while not game.is_won:
        game.play(game.legal_moves()[0])
    return game


class FakeTime:
    """A clock that moves only when a test says so (`clock.now += 5`)."""

    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def wait_for(predicate: Callable[[], object], timeout: float = 30.0) -> None:
    """Wait until `predicate()` is true (a worker thread's result), failing after `timeout`."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def replay_wins(game: Game, moves: Iterable[str]) -> bool:
    """Play the line on a copy of the engine's game; True when it ends won."""
    copy = game.copy()
    for move in moves:
        copy.play(move)
    return copy.is_won


def brute_force(game: Game, budget: int) -> bool:
    """Plain reachability search over the engine's own legal moves, no pruning at all: is a
    won position reachable? (Under unlimited passes the pass number is left out of the
    position, so the search is finite.)"""
    unlimited = game.rules.passes is None
    visited = set()
    stack = [game.copy()]
    while stack:
        position = stack.pop()
        if position.is_won:
            return True
        key = (position.pyramid, position.waste, position.stock, unlimited or position.pass_number)
        if key in visited:
            continue
        visited.add(key)
        if len(visited) > budget:
            raise TimeoutError
        for move in position.legal_moves():
            child = position.copy()
            child.play(move)
            stack.append(child)
    return False


def fewest_moves(game: Game, budget: int) -> int | None:
    """Breadth-first search over the engine's own legal moves, no pruning at all: the fewest
    moves to a won position, or None when there is none (raises TimeoutError past ``budget``
    positions)."""
    unlimited = game.rules.passes is None

    def key(position: Game) -> tuple:
        return (position.pyramid, position.waste, position.stock, unlimited or position.pass_number)

    visited = {key(game)}
    frontier = [game.copy()]
    depth = 0
    while frontier:
        if any(position.is_won for position in frontier):
            return depth
        depth += 1
        following = []
        for position in frontier:
            for move in position.legal_moves():
                child = position.copy()
                child.play(move)
                spot = key(child)
                if spot not in visited:
                    visited.add(spot)
                    following.append(child)
        if len(visited) > budget:
            raise TimeoutError
        frontier = following
    return None
