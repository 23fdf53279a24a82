"""Winnability statistics on a real dask cluster: a `LocalCluster` of worker processes, reached
through a `Client`, its `get_executor()`, and the command line's `--scheduler`.

The cluster keeps its scratch files in a temporary folder and runs no dashboard, so nothing is
left behind; it is closed when the module's tests are done.
"""

from __future__ import annotations

import _thread
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import dask
import pytest
from distributed import Client, LocalCluster, get_task_stream

from pyramid_widget import Game, solve, winnability
from pyramid_widget.solver.pools import RECOUNT_S, DaskPool, InlineExecutor, pool_for

DEALS = [*range(1, 31), *(Game.deal(n, "open-stock").layout for n in (5, 6, 7))]
WORKERS = 2


def answers(result) -> dict:
    """Everything a result says but the time it took."""
    return {key: value for key, value in result.to_dict().items() if key != "seconds"}


def start_cluster(folder, workers: int) -> LocalCluster:
    return LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,  # no dashboard, and its health page on a free port:
        scheduler_kwargs={"dashboard_address": ":0"},  # 8787 may be someone else's
        local_directory=str(folder),
    )


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Iterator:
    folder = tmp_path_factory.mktemp("dask")
    with dask.config.set({"temporary-directory": str(folder)}):
        yield folder


@pytest.fixture(scope="module")
def cluster(scratch) -> Iterator[LocalCluster]:
    with start_cluster(scratch, WORKERS) as cluster:
        yield cluster


@pytest.fixture(scope="module")
def client(cluster) -> Iterator[Client]:
    # Not the default client: winnability must wait on the client it is given.
    with Client(cluster, set_as_default=False) as client:
        yield client


@pytest.fixture(scope="module")
def in_process() -> dict:
    return answers(winnability(DEALS, "open-stock", executor=InlineExecutor(), progress=None))


def test_a_local_cluster_agrees_with_solving_in_process(client, in_process):
    on_cluster = winnability(DEALS, "open-stock", executor=client, progress=None)
    assert answers(on_cluster) == in_process
    assert on_cluster.deals == len(DEALS) and on_cluster.decided == len(DEALS)


@pytest.mark.parametrize("pure", [None, True], ids=["get_executor()", "get_executor(pure=True)"])
def test_the_clients_executor_agrees_too_and_nothing_is_reused(client, in_process, pure):
    executor = client.get_executor() if pure is None else client.get_executor(pure=pure)
    keys = []
    for _ in range(2):  # two identical calls: both must solve every chunk
        with get_task_stream(client=client) as tasks:
            result = winnability(DEALS, "open-stock", executor=executor, progress=None)
        assert answers(result) == in_process
        keys.append({task["key"] for task in tasks.data})
    chunks = -(-len(DEALS) // -(-len(DEALS) // (2 * WORKERS)))  # chunks of ceil(n / 4)
    assert len(keys[0]) == len(keys[1]) == chunks
    assert not keys[0] & keys[1]  # pure=False: new task names, no result taken from the first


def test_two_identical_calls_on_a_client_both_run_their_tasks(client):
    keys = []
    for _ in range(2):
        with get_task_stream(client=client) as tasks:
            winnability(range(1, 9), "classic", executor=client, progress=None)
        keys.append({task["key"] for task in tasks.data})
    assert keys[0] and keys[1] and not keys[0] & keys[1]


def test_the_chunks_in_flight_follow_the_clusters_threads(scratch):
    with start_cluster(scratch, 1) as cluster, Client(cluster, set_as_default=False) as client:
        pool = pool_for(client, None, 100)
        assert isinstance(pool, DaskPool) and pool.workers() == 1
        with get_task_stream(client=client) as tasks:
            winnability(range(1, 25), "classic", executor=client, progress=None)
        assert len(tasks.data) == 2  # chunks of 12 deals: 2 in flight for its one thread
        cluster.scale(3)
        client.wait_for_workers(3, timeout=120)
        time.sleep(RECOUNT_S)  # the count is read again at most this often
        assert pool.workers() == 3
        assert pool_for(client, 7, 100).workers() == 7  # unless the caller says
        with get_task_stream(client=client) as tasks:
            result = winnability(range(1, 25), "classic", executor=client, progress=None)
        assert result.deals == 24
        assert len(tasks.data) == 6  # chunks of 4 deals: 2 for each of the 3 threads


def test_an_interrupted_run_on_a_cluster_cancels_what_it_sent(client):
    fired = threading.Event()

    def progress(done, total, rate, eta):
        if done >= 10 and not fired.is_set():
            fired.set()
            threading.Thread(target=_thread.interrupt_main).start()

    deals = range(1, 2001)
    result = winnability(deals, "classic", executor=client, progress=progress)
    assert result.interrupted and 10 <= result.deals < len(deals)
    assert result.deals + len(result.not_tried) == len(deals)
    decided = [n for n in deals if n not in set(result.not_tried)]
    statuses = [solve(Game.deal(n, "classic")).status for n in decided]
    assert (result.winnable, result.unwinnable) == (
        statuses.count("winnable"),
        statuses.count("unwinnable"),
    )

    def tasks(dask_scheduler) -> list:
        return [str(key) for key in dask_scheduler.tasks]

    deadline = time.monotonic() + 30
    while client.run_on_scheduler(tasks) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert client.run_on_scheduler(tasks) == []  # nothing of the run is left on the cluster


def test_the_command_line_runs_on_a_scheduler(cluster):
    args = ["stats", "--deals", "1-30", "--rules", "open-stock", "--json"]
    done = subprocess.run(
        [sys.executable, "-m", "pyramid_widget", *args, "--scheduler", cluster.scheduler_address],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    expected = winnability(range(1, 31), "open-stock", executor=InlineExecutor(), progress=None)
    assert {k: v for k, v in json.loads(done.stdout).items() if k != "seconds"} == answers(expected)
