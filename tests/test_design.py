"""The design stays easy to see: no import cycles, the engine free of Jupyter, one home for the
rule of a tap and for dropping stale results, no edition codes in what a player reads."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pyramid_widget

PACKAGE = Path(pyramid_widget.__file__).resolve().parent
ROOT = PACKAGE.parent


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(path: Path) -> set[str]:
    """The package modules `path` imports at run time, anywhere in it (functions included);
    imports under `if TYPE_CHECKING:` are for types only and never run."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:  # `from . import solver` imports the submodule
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in modules else target)
        for child in ast.iter_child_nodes(node):
            visit(child)

    modules = {module_name(p) for p in PACKAGE.rglob("*.py")}
    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {target for target in found if target in modules and target != name}


def import_graph() -> dict[str, set[str]]:
    return {module_name(path): imports_of(path) for path in PACKAGE.rglob("*.py")}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of imports as a list of modules (first == last), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return [*stack[stack.index(target) :], target]
            if target not in state and (cycle := walk(target)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := walk(node)):
            return cycle
    return None


def test_the_package_has_no_import_cycle():
    graph = import_graph()
    # A submodule never imports the package itself (whose __init__ imports submodules), and
    # the package's own lazy names are loaded by name, not by an import statement.
    inward = {name for name, targets in graph.items() if "pyramid_widget" in targets}
    assert not inward - {"pyramid_widget"}, f"modules importing the package root: {inward}"
    graph["pyramid_widget"] = set()  # its eager imports are of leaves; checked just above
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_the_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_only_the_widget_imports_anything_from_jupyter():
    """And the progress display's `NotebookBar`, which imports ipywidgets when it is made, only
    in a running kernel: importing `progress` never loads Jupyter."""
    for path in PACKAGE.rglob("*.py"):
        if path.name == "widget.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if path.name == "progress.py":
            tree = ast.Module(
                body=[
                    node
                    for node in tree.body
                    if not (isinstance(node, ast.ClassDef) and node.name == "NotebookBar")
                ],
                type_ignores=[],
            )
        names = {
            alias.name.split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.Import)
            for alias in node.names
        } | {
            (node.module or "").split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and not node.level
        }
        assert not names & {"anywidget", "ipywidgets", "traitlets", "IPython"}, path.name


EDITION = re.compile(r"(?<![#\w])00[0-4]\b")  # not a colour like #000


def test_edition_codes_are_defined_in_one_place_only():
    """The editions' codes live in `rules.EDITIONS`; code, the front end and the notebooks
    speak of behaviour instead."""
    allowed = {PACKAGE / "rules.py"}
    sources = [*PACKAGE.rglob("*.py"), *(ROOT / "js").glob("*.*"), *(ROOT / "notebooks").glob("*")]
    offenders = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sources
        if path.is_file() and path not in allowed
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if EDITION.search(line)
    ]
    assert not offenders, offenders


def test_the_front_end_tests_absent_values_loosely():
    """Python's None arrives as null in JupyterLab but as undefined through JupyterLite's
    Pyodide kernel: a strict `=== null` would read a missing value as present."""
    source = (ROOT / "js" / "widget.js").read_text(encoding="utf-8")
    assert "=== null" not in source and "!== null" not in source


def test_the_front_end_keeps_no_copy_of_pythons_tables():
    """Presets, option labels and help, pass choices, verdict words and titles and the puzzle
    filters reach the front end in the `catalog` trait, capitalised where they are shown so;
    the JS must not spell any of them itself, nor capitalise words itself."""
    from pyramid_widget.view import catalog

    source = (ROOT / "js" / "widget.js").read_text(encoding="utf-8")
    code = re.sub(r"/\*.*?\*/|//[^\n]*", "", source, flags=re.DOTALL)  # comments may cite them
    tables = catalog()
    words = [
        *(preset[key] for preset in tables["presets"] for key in ("name", "label", "summary")),
        *(option[key] for option in tables["options"] for key in ("label", "help")),
        *(choice["label"] for choice in tables["passes"]),
        *(word for word in tables["verdicts"].values() if word != "won"),
        *(title for title in tables["verdict_titles"].values() if title != "Won"),
        *(theme[key] for theme in tables["puzzles"]["themes"] for key in ("title", "meaning")),
        *(level[key] for level in tables["puzzles"]["difficulties"] for key in ("id", "label")),
    ]
    copied = [word for word in words if f'"{word}"' in code or f"`{word}`" in code]
    assert not copied, copied
    assert "toUpperCase" not in code, "words.capitalised is the one capitalising helper"


def test_test_modules_share_helpers_instead_of_importing_one_another():
    tests = ROOT / "tests"
    offenders = [
        f"{path.relative_to(ROOT)}: {line.strip()}"
        for path in tests.rglob("*.py")
        for line in path.read_text(encoding="utf-8").splitlines()
        if re.match(r"\s*(from|import) test_\w+", line)
    ]
    assert not offenders, offenders
