"""The benchmark scripts run, in a tiny mode, and print the figures they promise.

The figures in the README and in the issue notes come from these scripts; a script that no
longer runs would leave them unreproducible. Nothing here looks at a timing (timings belong to
the scripts' output, never to an assertion): only that each figure is printed and that the
verdicts behind it are right.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from helpers import reference_decks
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramid_widget import PRESETS, Game, solve

ROOT = Path(__file__).resolve().parents[1]


def launch(script: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


def run(script: str, *args: str, timeout: float = 300) -> str:
    done = launch(script, *args, timeout=timeout)
    assert done.returncode == 0, done.stderr
    return done.stdout


def changed_solve(folder: Path, *body: str) -> None:
    """A real copy of the package in ``folder`` whose `solve` is ``body`` (lines of Python,
    with the true one at hand as ``_exact``): a solver that is wrong in one known way."""
    shutil.copytree(ROOT / "pyramid_widget", folder / "pyramid_widget")
    with (folder / "pyramid_widget" / "solver" / "solution.py").open("a") as source:
        source.write("\n_exact = solve\n\n\ndef solve(game, **options):\n")
        source.writelines(f"    {line}\n" for line in body)


def test_the_solver_benchmark_prints_every_figure_and_saves_true_verdicts(tmp_path):
    saved = tmp_path / "deals.jsonl"
    out = run(
        "bench_solver.py",
        *("--deals", "6", "--presets", "classic;strict", "--references", "2"),
        *("--optimal", "1", "--hints", "3"),
        *("--save", str(saved)),
    )
    for name in ("classic", "strict"):
        line = next(line for line in out.splitlines() if line.startswith(f"{name} #1-6"))
        # decided, winnable with its interval, median, p90, p99, max, nodes/s, peak MiB
        assert re.search(r"100\.00 %\s+[\d.]+ % \([\d.]+-[\d.]+\)(\s+[\d.]+){6}$", line), line
    assert re.search(r"shortest wins found with the reference's length: (\d+) of \1\b", out)
    assert re.search(r"fair hint on 3 positions met in random play: median [\d.]+ ms", out)
    machine = re.findall(r"^machine: .* ([\d.]+) ms at best, ([\d.]+) ms at the median", out, re.M)
    assert len(machine) == 2 and all(0 < float(a) <= float(b) for a, b in machine), out
    rows = [json.loads(line) for line in saved.read_text().splitlines()]
    mine = [row for row in rows if not row["set"].startswith("ref ")]
    assert len(mine) == 12 and len(rows) == 16  # and 2 decks of each reference file
    for row in mine:
        rules = row["set"].split(" #")[0]
        assert row["status"] == solve(Game.deal(row["deal"], rules)).status, row


def test_the_engine_benchmark_prints_moves_per_second_for_every_preset():
    out = run("bench_engine.py", "--games", "2")
    for name in PRESETS:
        assert re.search(rf"^{name}\s+2\s+\d+\s+[\d.]+\s+\d+$", out, re.MULTILINE), out


def test_the_store_benchmark_prints_its_waits():
    out = run("bench_store.py", "20")
    assert re.search(r"^autosave per move over \d+ moves: median [\d.]+ ms", out, re.MULTILINE)
    assert "database with 21 finished games" in out, out  # 20 made, plus the one it plays
    for wait in ("open (quick_check", "saved_game", "records('classic')", "history() of all"):
        assert re.search(rf"^{re.escape(wait)}.*median [\d.]+ ms$", out, re.MULTILINE), wait


def test_the_statistics_benchmark_counts_alike_on_the_pool_and_a_dask_cluster():
    out = run("bench_stats.py", "--deals", "8", "--workers", "1", "--repeat", "1", "--limit", "5")
    won = sum(solve(Game.deal(n), time_limit=5).status == "winnable" for n in range(1, 9))
    counts = f"{won} winnable, {8 - won} not, 0 undecided"
    for side in ("process pool (1)", "dask Client (1)"):
        line = next(line for line in out.splitlines() if line.startswith(f"round 1  {side}"))
        assert counts in line and "same verdicts" in line, line


def test_the_lab_benchmark_times_greedy_twice_and_prints_the_players_table():
    out = run("bench_lab.py", *("--deals", "8", "--fair-deals", "2", "--workers", "1"),
              *("--rules", "classic;strict"))  # fmt: skip
    won = sum(solve(Game.deal(n)).status == "winnable" for n in range(1, 9))
    for label in ("no verdict kept yet", "the verdicts kept"):
        line = next(line for line in out.splitlines() if label in line)
        assert re.search(r"[\d.]+ s wall, [\d.]+ s CPU", line) and f"{won} winnable" in line
    assert "| player | `classic`: win rate / efficiency | `strict`: win rate / efficiency |" in out
    strict = sum(solve(Game.deal(n, "strict")).status == "winnable" for n in range(1, 9))
    bound = next(line for line in out.splitlines() if line.startswith("| all_seeing |"))
    cells = [cell.strip() for cell in bound.split("|")[2:4]]
    for cell, winnable in zip(cells, (won, strict), strict=True):
        rate = f"{100 * winnable / 8:.1f} %"
        assert cell.startswith(rate) and cell.endswith("/ 100.0 %" if winnable else "/ -"), cell
    for name in ("random", "greedy", "pile_first", "first_found", "bottom_up", "partner_keeper"):
        assert re.search(rf"^\| {name} \| [\d.]+ % \(", out, re.MULTILINE), name
    assert "| fair_hint (#1-2) |" in out and "machine: a fixed pure-Python workload" in out


def test_the_side_by_side_benchmark_times_two_trees_in_turn_and_agrees_with_itself():
    out = run("side_by_side.py", str(ROOT), str(ROOT), "--rules", "classic", "--deals", "4")
    rows = [line for line in out.splitlines() if line.startswith(str(ROOT))]
    # total s, median, max, nodes, then on how many deals this tree was the faster
    assert len(rows) == 2, out
    figures = [
        re.search(r"\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)  (\d) of 4$", row) for row in rows
    ]
    assert all(figures), out
    nodes = sum(solve(Game.deal(n, "classic")).nodes for n in range(1, 5))
    assert [int(found.group(4)) for found in figures] == [nodes, nodes]
    assert sum(int(found.group(5)) for found in figures) <= 4
    assert "verdicts: the same on all 4 deals" in out


def test_the_side_by_side_benchmark_names_each_deal_whose_verdict_differs(tmp_path):
    # A tree whose solver gives the opposite verdict on every deal decided: each one is named,
    # and the run fails.
    changed_solve(
        tmp_path,
        "found = _exact(game, **options)",
        "flipped = {'winnable': 'unwinnable', 'unwinnable': 'winnable'}[found.status]",
        "return Solution(flipped, (), found.nodes, found.seconds)",
    )
    saved = tmp_path / "saved.jsonl"
    saved.write_text(
        "".join(
            json.dumps({"set": f"{rules} #1-3", "deal": n, "status": "x", "seconds": n / 10}) + "\n"
            for rules in ("classic", "strict")
            for n in (1, 2, 3)
        )
    )
    trees = (str(ROOT), str(tmp_path))
    done = launch(
        "side_by_side.py", *trees, "--rules", "strict", "--slowest", "2", "--from", str(saved)
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "strict, the 2 slowest of" in done.stdout
    for n in (3, 2):  # the two slowest of strict's in the file, slowest first
        status = solve(Game.deal(n, "strict")).status
        other = "unwinnable" if status == "winnable" else "winnable"
        assert f"deal {n}: {status} before, {other} after" in done.stdout, done.stdout
    assert "deal 1:" not in done.stdout and "verdicts: the same" not in done.stdout


def test_the_side_by_side_benchmark_times_shortest_wins_and_names_each_length_that_differs(
    tmp_path,
):
    # Against itself, the shortest wins of the first reference decks agree; against a tree
    # whose "shortest" win is only the first win its search finds, every deck where that one
    # is longer is named with both lengths, and the run fails.
    out = run("side_by_side.py", str(ROOT), str(ROOT), "--optimal", "2")
    assert "optimal=True, the first 2 open-stock reference decks" in out, out
    rows = [line for line in out.splitlines() if line.startswith(str(ROOT))]
    assert len(rows) == 2 and all(re.search(r"\d+  \d of 2$", row) for row in rows), out
    assert "verdicts: the same on all 2 decks" in out

    changed_solve(tmp_path, "options.pop('optimal', None)", "return _exact(game, **options)")
    done = launch("side_by_side.py", str(ROOT), str(tmp_path), "--optimal", "3")
    assert done.returncode == 1, done.stdout + done.stderr
    rows = reference_decks("open-stock.jsonl")
    longer = 0
    for row in rows[:3]:
        first = len(solve(Game.from_layout(row["layout"], row["rules"])).moves)
        named = f"deck {row['index']}: winnable in {row['optimal_moves']} moves before, "
        if first != row["optimal_moves"]:
            longer += 1
            assert f"{named}winnable in {first} moves after" in done.stdout, done.stdout
        else:
            assert f"deck {row['index']}:" not in done.stdout, done.stdout
    assert longer >= 1  # (else this deck set could not show a difference)
    assert "verdicts: the same" not in done.stdout


def test_the_side_by_side_benchmark_refuses_what_it_cannot_measure(tmp_path):
    cases = [
        ((str(ROOT), str(tmp_path), "--deals", "2"), 2, "has no pyramid_widget/"),
        ((str(ROOT), str(ROOT), "--deals", "0"), 2, "0 deals: give 1 or more"),
        ((str(ROOT), str(ROOT), "--slowest", "3"), 2, "--slowest and --from go together"),
        ((str(ROOT), str(ROOT), "--rules", "nonsense", "--deals", "2"), 1, "unknown rules"),
        ((str(ROOT), str(ROOT), "--optimal", "2", "--deals", "2"), 2, "no --rules, --deals"),
    ]
    for args, status, message in cases:
        done = launch("side_by_side.py", *args, timeout=120)
        assert done.returncode == status and message in done.stderr, (args, done.stderr)
        assert "verdicts" not in done.stdout


def side_by_side_module():
    spec = importlib.util.spec_from_file_location(
        "side_by_side", ROOT / "benchmarks" / "side_by_side.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_ROW = st.fixed_dictionaries(
    {
        "set": st.sampled_from(["strict #1-9", "classic #1-9"]),
        "deal": st.integers(1, 10_000),
        "status": st.just("unwinnable"),
        "seconds": st.floats(0, 10, allow_nan=False),
    }
).map(json.dumps)
_DAMAGED = st.one_of(
    st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=30),
    st.sampled_from(["{}", "[]", "null", '{"set": 1, "deal": 2, "seconds": 3}']),
    st.sampled_from(['{"set": "strict #1", "deal": 2, "seconds": NaN}']),
    st.sampled_from(['{"set": "strict #1", "deal": 0, "seconds": 1}']),
    st.sampled_from(['{"set": "strict #1", "deal": 2.5, "seconds": 1}']),
    st.sampled_from(['{"set": "strict #1", "deal": 2}', '{"set": "strict #1", "seconds": 1}']),
)


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.one_of(_ROW, _DAMAGED), max_size=8), count=st.integers(1, 5))
def test_the_side_by_side_saved_file_reader_takes_only_whole_rows(tmp_path_factory, lines, count):
    # A saved file gives the slowest deals of the setting asked for, slowest first, or, with a
    # damaged row anywhere, a message naming the file (never a traceback, never a guess).
    path = tmp_path_factory.mktemp("saved") / "deals.jsonl"
    path.write_text("\n".join(lines) + "\n")
    reader = side_by_side_module().slowest
    rows = []
    for line in lines:
        try:
            row = json.loads(line)
        except ValueError:
            row = None
        whole = isinstance(row, dict) and row.keys() >= {"set", "deal", "seconds"}
        if whole and isinstance(row["set"], str) and type(row["deal"]) is int:
            whole = row["deal"] >= 1 and type(row["seconds"]) is float and row["seconds"] >= 0
        else:
            whole = False
        if line.strip() and not whole:
            rows = None
            break
        if line.strip():
            rows.append(row)
    if rows is None:
        try:
            reader(path, "strict", count)
        except SystemExit as stop:
            assert str(path) in str(stop) and "not a row of bench_solver.py --save" in str(stop)
        else:
            raise AssertionError("a damaged row was read")
        return
    mine = sorted(
        ((row["seconds"], row["deal"]) for row in rows if row["set"].startswith("strict #")),
        reverse=True,
    )
    if not mine:
        try:
            reader(path, "strict", count)
        except SystemExit as stop:
            assert "has no deals of 'strict'" in str(stop)
        else:
            raise AssertionError("no deals of strict, yet some were given")
        return
    assert reader(path, "strict", count) == [deal for _, deal in mine[:count]]
