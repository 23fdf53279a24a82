"""What several test modules share: a reference layout and its win, a stand-in for a browser
view, a fake clock and a wait. (Test modules import from here, never from one another.)"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from pyramid_widget import Card
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
CARD_TOKEN = re.compile(r"\b(?:[A2-9TJQK][cdhs])\b")


def cards_named(text: str) -> set[Card]:
    """Every card notation that appears anywhere in `text` (e.g. a serialized state)."""
    return {Card.parse(token) for token in CARD_TOKEN.findall(text)}


class Front:
    """A stand-in for one browser view: sends intents and keeps the acks it is sent."""

    def __init__(self, widget: PyramidWidget, view: str = "v1") -> None:
        self.widget = widget
        self.view = view
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
