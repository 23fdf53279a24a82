"""Winnable deals only, and winnability statistics on any executor."""

from __future__ import annotations

import _thread
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import Executor, ThreadPoolExecutor

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramid_widget import Game, Rules, deal_winnable, solve, winnability
from pyramid_widget.deals import MAX_DEAL
from pyramid_widget.solver import wilson
from pyramid_widget.solver.chunked import IN_FLIGHT_PER_WORKER, DealsLeft
from pyramid_widget.solver.pools import DEFAULT_WORKERS, InlineExecutor


def test_a_winnable_deal_is_proven_and_replays():
    found = deal_winnable("classic", seed=7)
    game, proven = found
    assert proven and found.game is game and found.proven and found.tries >= 1
    assert game.deal_number is not None and game.move_count == 0
    solution = solve(game)
    assert solution.status == "winnable"


def test_the_same_seed_gives_the_same_deal():
    first = deal_winnable("open-stock", seed=42)
    again = deal_winnable("open-stock", seed=42)
    assert first.game.layout == again.game.layout and first.proven == again.proven
    assert deal_winnable("open-stock", seed=43).game.layout != first.game.layout


def test_an_unproven_deal_is_never_claimed_winnable():
    # One node of search cannot prove anything: the deal comes back unproven.
    game, proven = deal_winnable("strict", seed=1, per_deal=1e-9, total=1e-9)
    assert not proven
    assert isinstance(game, Game)


def test_bad_budgets_are_refused():
    with pytest.raises(ValueError):
        deal_winnable("classic", per_deal=0)


def test_winnability_matches_one_solve_per_deal_on_any_executor():
    rules = Rules.preset("classic", passes=1)
    expected = [solve(Game.deal(n, rules)).status for n in range(1, 13)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        result = winnability(range(1, 13), rules, executor=pool, chunk=3)
    assert result.winnable == expected.count("winnable")
    assert result.unwinnable == expected.count("unwinnable")
    assert result.unknown == 0 and result.deals == 12
    low, high = result.interval
    assert low <= result.rate <= high


def test_winnability_takes_layouts_and_reports_undecided_deals():
    layouts = [Game.deal(n).layout for n in (1, 2, 3)]
    with ThreadPoolExecutor(max_workers=1) as pool:
        result = winnability(layouts, "classic", executor=pool)
    assert result.decided == 3 and result.to_dict()["deals"] == 3
    with ThreadPoolExecutor(max_workers=1) as pool:
        rushed = winnability([49], "classic", executor=pool, time_limit=0.001)
    assert rushed.unknown == 1 and rushed.undecided == (49,) and rushed.rate is None


@pytest.mark.parametrize("bad", [[0], ["Ac 2c"], [1.5], [True]])
def test_bad_deals_are_refused_before_any_work(bad):
    with pytest.raises(ValueError):
        winnability(bad, "classic", executor=ThreadPoolExecutor(max_workers=1))


def test_the_wilson_interval():
    assert wilson(0, 0) is None
    low, high = wilson(0, 10)
    assert low == 0.0 and 0.27 < high < 0.28
    low, high = wilson(50, 100)
    assert 0.40 < low < 0.41 and 0.59 < high < 0.60


# --- where the chunks run, how many at once, interrupts, progress --------------------------

DEALS = range(1, 41)


def truth(deals, rules="classic") -> tuple[int, int, int]:
    """(winnable, unwinnable, undecided) solved one by one in this process."""
    statuses = [solve(Game.deal(n, rules)).status for n in deals]
    return statuses.count("winnable"), statuses.count("unwinnable"), statuses.count("unknown")


def counts(result) -> tuple[int, int, int]:
    return result.winnable, result.unwinnable, result.unknown


class GatedPool(ThreadPoolExecutor):
    """A real thread pool whose calls wait for `gate` before they run, so the test can see how
    many chunks `winnability` puts in flight before any of them is done."""

    def __init__(self, max_workers: int) -> None:
        super().__init__(max_workers=max_workers)
        self.gate = threading.Event()
        self.submitted = 0

    def submit(self, fn, /, *args, **kwargs):
        self.submitted += 1

        def gated():
            self.gate.wait()
            return fn(*args, **kwargs)

        return super().submit(gated)


class Unsized(Executor):
    """An executor that does not say how many calls it runs at once (no `_max_workers`)."""

    def __init__(self) -> None:
        self.inner = GatedPool(max_workers=2)

    def submit(self, fn, /, *args, **kwargs):
        return self.inner.submit(fn, *args, **kwargs)

    def shutdown(self, wait=True, *, cancel_futures=False):
        self.inner.shutdown(wait=wait, cancel_futures=cancel_futures)


def in_flight(executor, gated: GatedPool, **options) -> tuple[int, object]:
    """How many chunks `winnability` sends before the first one finishes, and its result."""
    answer = {}
    run = threading.Thread(
        target=lambda: answer.update(
            result=winnability(DEALS, "classic", executor=executor, chunk=1, **options)
        )
    )
    run.start()
    try:
        deadline = time.monotonic() + 30
        while gated.submitted < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.5)  # nothing finishes while the gate is shut: the count cannot grow
        sent = gated.submitted
    finally:
        gated.gate.set()
        run.join(120)
    return sent, answer["result"]


@pytest.mark.parametrize("threads", [1, 3])
def test_the_chunks_in_flight_follow_a_pools_workers(threads):
    with GatedPool(max_workers=threads) as pool:
        sent, result = in_flight(pool, pool, progress=None)
    assert sent == IN_FLIGHT_PER_WORKER * threads
    assert counts(result) == truth(DEALS)


def test_an_executor_of_unknown_size_takes_workers_or_this_machines_cores():
    told = Unsized()
    sent, result = in_flight(told, told.inner, workers=5, progress=None)
    assert sent == IN_FLIGHT_PER_WORKER * 5 and counts(result) == truth(DEALS)
    guessed = Unsized()
    sent, _ = in_flight(guessed, guessed.inner, progress=None)
    assert sent == min(len(DEALS), IN_FLIGHT_PER_WORKER * DEFAULT_WORKERS)
    told.shutdown(), guessed.shutdown()


def test_the_local_pool_the_inline_fallback_and_a_thread_pool_agree():
    expected = truth(DEALS)
    assert counts(winnability(DEALS, "classic", progress=None)) == expected
    assert counts(winnability(DEALS, "classic", workers=1, progress=None)) == expected
    inline = winnability(DEALS, "classic", executor=InlineExecutor(), progress=None)
    assert counts(inline) == expected
    with ThreadPoolExecutor(max_workers=2) as pool:
        assert counts(winnability(DEALS, "classic", executor=pool, progress=None)) == expected
    assert not multiprocessing.active_children()  # the local pools are gone


def test_no_deals_make_no_pool():
    empty = winnability([], "classic", progress=None)
    assert (empty.deals, empty.rate, empty.interrupted, empty.not_tried) == (0, None, False, ())
    assert not multiprocessing.active_children()


def test_progress_counts_every_deal_with_a_rate_and_the_time_left():
    seen = []
    winnability(
        range(1, 11), "classic", executor=InlineExecutor(), progress=lambda *a: seen.append(a)
    )
    assert [done for done, *_ in seen] == list(range(1, 11))  # one deal at a time in-process
    assert {total for _, total, _, _ in seen} == {10}
    assert all(rate > 0 and eta >= 0 for _, _, rate, eta in seen)
    assert seen[-1][3] == 0  # nothing left


def python(script: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``script`` in a new Python, in a process group of its own: if it hangs, it is ended
    with every process it started, so nothing outlives the test."""
    child = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        raise
    return subprocess.CompletedProcess(child.args, child.returncode, out, err)


PYODIDE_PREAMBLE = {
    # What Pyodide answers (tests/test_pyodide.py sees it there): the pool's own check fails
    # with NotImplementedError "This Python build lacks multiprocessing.synchronize".
    "no multiprocessing.synchronize": "sys.modules['multiprocessing.synchronize'] = None",
    # Pyodide again, and thread-less sandboxes: the pool is made, its first submit cannot
    # start the thread that feeds the workers.
    "no threads": (
        "import threading\n"
        'def refuse(self): raise RuntimeError("can\'t start new thread")\n'
        "threading.Thread.start = refuse"
    ),
    # A Python built without the C half of multiprocessing: its modules fail to import.
    "no _multiprocessing": "sys.modules['_multiprocessing'] = None",
}


@pytest.mark.parametrize("limit", sorted(PYODIDE_PREAMBLE))
def test_where_no_process_pool_can_be_made_the_deals_are_solved_in_process(limit):
    script = (
        "import sys, json, multiprocessing.process\n"
        f"{PYODIDE_PREAMBLE[limit]}\n"
        "from pyramid_widget import winnability\n"
        "result = winnability(range(1, 13), 'classic', progress=None)\n"
        "children = multiprocessing.process.active_children()\n"
        "print(json.dumps([result.winnable, result.unwinnable, result.unknown, len(children)]))\n"
    )
    done = python(script)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [*truth(range(1, 13)), 0]  # same answers, no process


def interrupt_when(done_at_least: int):
    """A progress function that interrupts the main thread (as Ctrl+C or a kernel's stop
    button would) from another thread, once that many deals are done."""
    fired = threading.Event()

    def progress(done, total, rate, eta):
        if done >= done_at_least and not fired.is_set():
            fired.set()
            threading.Thread(target=_thread.interrupt_main).start()

    return progress


@pytest.mark.parametrize("where", ["local pool", "in-process", "thread pool"])
def test_an_interrupted_run_returns_what_it_decided(where):
    deals = range(1, 3001)
    executor = {"in-process": InlineExecutor(), "thread pool": ThreadPoolExecutor(2)}.get(where)
    started = time.monotonic()
    result = winnability(deals, "classic", executor=executor, progress=interrupt_when(30))
    assert result.interrupted and time.monotonic() - started < 60  # not the 3000 deals
    assert 30 <= result.deals < len(deals) and result.deals + len(result.not_tried) == len(deals)
    assert len(set(result.not_tried)) == len(result.not_tried) and set(result.not_tried) <= set(
        deals
    )
    decided = [n for n in deals if n not in set(result.not_tried)]
    assert counts(result) == truth(decided)  # the counts are those of exactly these deals
    assert "interrupted with" in str(result) and result.to_dict()["interrupted"] is True
    assert not multiprocessing.active_children()  # a pool made for the run is ended with it
    if executor is not None:
        executor.shutdown(cancel_futures=True)


BAD_OPTIONS = st.one_of(
    st.integers(max_value=0),
    st.floats(allow_nan=True),
    st.text(max_size=5),
    st.booleans(),
    st.just([2]),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(["workers", "chunk"]), value=BAD_OPTIONS)
def test_bad_workers_or_chunks_are_refused_before_any_work(name, value):
    pool = GatedPool(max_workers=1)
    pool.gate.set()
    with pytest.raises((TypeError, ValueError)):
        winnability([1], "classic", executor=pool, progress=None, **{name: value})
    assert pool.submitted == 0
    pool.shutdown()


@pytest.mark.parametrize(
    "options",
    [
        {"progress": "sometimes"},
        {"progress": 1},
        {"executor": object()},
        {"executor": "tcp://127.0.0.1:8786"},
    ],
)
def test_bad_progress_or_executors_are_refused(options):
    with pytest.raises((TypeError, ValueError)):
        winnability([1], "classic", **options)
    assert not multiprocessing.active_children()


def test_one_layout_alone_is_refused_with_a_hint():
    with pytest.raises(ValueError, match="in a list"):
        winnability(Game.deal(1).layout, "classic")


def test_a_bad_deal_late_in_the_list_is_refused_before_the_first_is_solved():
    pool = GatedPool(max_workers=1)
    pool.gate.set()
    with pytest.raises(ValueError):
        winnability([*range(1, 100), 0], "classic", executor=pool, progress=None)
    with pytest.raises(ValueError):
        winnability(range(1, MAX_DEAL + 2), "classic", executor=pool, progress=None)
    assert pool.submitted == 0
    pool.shutdown()


def test_statistics_need_neither_dask_nor_jupyter():
    """dask is an optional extra and ipywidgets a notebook's: neither is loaded by importing
    the package or counting deals outside a kernel."""
    script = (
        "import sys\n"
        "import pyramid_widget\n"
        "from pyramid_widget import winnability\n"
        "assert winnability(range(1, 5), 'classic', progress=True).deals == 4\n"
        "loaded = {'dask', 'distributed', 'ipywidgets', 'IPython'} & set(sys.modules)\n"
        "print(sorted(loaded))\n"
    )
    done = python(script)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
    assert "4 deals in" in done.stderr  # progress=True outside a terminal: lines on stderr


def test_a_run_over_every_deal_stopped_early_keeps_the_rest_as_a_range():
    every = range(1, MAX_DEAL + 1)
    result = winnability(every, "classic", executor=InlineExecutor(), progress=interrupt_when(5))
    assert result.interrupted and result.deals >= 5
    left = result.not_tried
    assert len(left) == MAX_DEAL - result.deals and left[-1] == MAX_DEAL
    assert left.spans()[-1].endswith(f"-{MAX_DEAL}")  # one span, not four billion numbers
    assert result.deals + 1 == left[0]  # in-process, one deal at a time, in order


def test_the_deals_left_are_a_sequence():
    left = DealsLeft(("Ac 2c",), (3, 4), range(5, 9), DealsLeft((20,)))
    assert list(left) == ["Ac 2c", 3, 4, 5, 6, 7, 8, 20] and len(left) == 8
    assert left[-1] == 20 and left[1:3] == (3, 4) and left == tuple(left)
    assert left.spans() == ["Ac 2c", "3-8", "20"]
    with pytest.raises(IndexError):
        left[8]
    assert DealsLeft() == () and DealsLeft().spans() == []
