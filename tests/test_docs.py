"""Docs that run: every Python example in README.md and in the package's docstrings is executed
here, and its printed results must be what the example shows."""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

import pyramid_widget

PACKAGE = Path(pyramid_widget.__file__).resolve().parent
README = PACKAGE.parent / "README.md"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
MODULES = sorted(
    ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
    for path in PACKAGE.rglob("*.py")
)


def python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)


@pytest.mark.parametrize("name", MODULES)
def test_every_docstring_example_runs(name):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    public = {key: getattr(pyramid_widget, key) for key in pyramid_widget.__all__}
    for test in finder.find(module, name, extraglobs=public):
        assert "doctest: +SKIP" not in "".join(e.source for e in test.examples), test.name
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} failing example(s) in {name}"


def test_the_docstrings_hold_examples():
    """The docstrings of the main entry points really carry examples."""
    examples = 0
    for name in MODULES:
        for test in doctest.DocTestFinder().find(importlib.import_module(name), name):
            examples += len(test.examples)
    assert examples >= 20


def test_every_python_block_of_the_readme_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("DASK_TEMPORARY_DIRECTORY", str(tmp_path))  # dask's scratch files
    blocks = python_blocks(README.read_text(encoding="utf-8"))
    assert blocks, "the README shows Python"
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    parser = doctest.DocTestParser()
    for n, block in enumerate(blocks, 1):
        if ">>>" in block:
            runner.run(parser.get_doctest(block, {}, f"README block {n}", str(README), 0))
        else:
            exec(compile(block, f"README block {n}", "exec"), {})
    assert runner.failures == 0
