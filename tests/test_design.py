"""The design stays easy to see: no import cycles, the engine free of Jupyter, one home for the
rule of a tap and for dropping stale results, every player sentence written in words.py, no
edition codes in what a player reads."""

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
    """Presets, option labels and help, pass choices, verdict words and titles, the puzzle
    filters and the Puzzles menus with their counts reach the front end in the `catalog` trait,
    capitalised where they are shown so; the JS must not spell any of them itself, nor
    capitalise words itself."""
    from pyramid_widget.view import catalog
    from pyramid_widget.words import ANY_DIFFICULTY, ANY_THEME

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
        *(theme["label"] for menu in tables["puzzles"]["menus"].values() for theme in menu),
        *(
            level["label"]
            for menu in tables["puzzles"]["menus"].values()
            for theme in menu
            for level in theme["difficulties"]
        ),
        tables["puzzles"]["none"],
        *(word.split(" (")[0] for word in (ANY_THEME, ANY_DIFFICULTY)),
    ]
    copied = [word for word in words if f'"{word}"' in code or f"`{word}`" in code]
    assert not copied, copied
    assert "toUpperCase" not in code, "words.capitalised is the one capitalising helper"


def _js_strings(code: str) -> set[str]:
    """The JS's string literals, a template literal's text cut at each `${...}`, each stripped of
    the spaces and punctuation around it."""
    pieces = re.findall(r'"((?:[^"\\\n]|\\.)*)"', code)
    for template in re.findall(r"`([^`]*)`", code):
        pieces += re.split(r"\$\{[^}]*\}", template)
    return {piece.strip(" :;,.") for piece in pieces}


def _sentence_parts_of_words_py() -> set[str]:
    """Every string of two words or more in words.py (an f-string's text between its
    placeholders too), stripped as `_js_strings` strips; docstrings left out."""
    tree = ast.parse((PACKAGE / "words.py").read_text(encoding="utf-8"))
    docstrings = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    texts = [
        node.value.strip(" :;,.")
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and id(node) not in docstrings
    ]  # fmt: skip
    return {text for text in texts if len(text.split()) >= 2}


SHARED_NAMES = {"Pyramid Solitaire", "New deal"}
"""The widget's name (its own label) and a button that words.py also says in a sentence."""


def test_the_front_end_writes_no_sentence_of_words_py():
    """What the board says after a move, its status line, its piles' and cards' labels, its
    records, its review's notes and its short messages come in the state or the catalog; the
    JS writes none of words.py's words itself (card names included)."""
    from pyramid_widget import words

    strings = _js_strings(_front_end_code())
    copied = (_sentence_parts_of_words_py() & strings) - SHARED_NAMES
    assert not copied, copied
    names = [*words.RANK_NAMES, *words.SUIT_NAMES.values(), *words.RECORD_LABELS.values()]
    assert not set(names) & strings


def test_a_sentence_of_words_py_in_the_front_end_is_caught():
    """The check above can fail: a narration the JS wrote itself is found."""
    code = 'text = `Took back ${moveSymbols(move)}`; label = "Waste: empty";'
    assert {"Took back", "Waste: empty"} <= _sentence_parts_of_words_py() & _js_strings(code)


def test_test_modules_share_helpers_instead_of_importing_one_another():
    tests = ROOT / "tests"
    offenders = [
        f"{path.relative_to(ROOT)}: {line.strip()}"
        for path in tests.rglob("*.py")
        for line in path.read_text(encoding="utf-8").splitlines()
        if re.match(r"\s*(from|import) test_\w+", line)
    ]
    assert not offenders, offenders


def _front_end_code() -> str:
    source = (ROOT / "js" / "widget.js").read_text(encoding="utf-8")
    return re.sub(r"/\*.*?\*/|//[^\n]*", "", source, flags=re.DOTALL)


def test_the_front_ends_request_type_is_written_from_the_protocol_table():
    """js/widget.js's JSDoc `Request` is `intents.request_typedef()` word for word, so tsc
    checks every intent the front end builds against the fields Python reads."""
    from pyramid_widget.intents import request_typedef

    source = (ROOT / "js" / "widget.js").read_text(encoding="utf-8")
    assert request_typedef() in source, (
        "js/widget.js's Request type differs from intents.ACTIONS; put this in its place:\n"
        + request_typedef()
    )


def test_the_front_end_sends_the_actions_python_lists_and_no_other():
    from pyramid_widget.intents import ACTIONS
    from pyramid_widget.view import catalog

    code = _front_end_code()
    sent = set(re.findall(r'\baction: "(\w+)"', code))
    assert sent <= set(ACTIONS), f"the front end sends unknown actions: {sent - set(ACTIONS)}"
    # The rest go out by name, from buttons and keys (the catalog's fieldless actions, and the
    # ones that leave the game, which ask first).
    by_name = {name for name in set(ACTIONS) - sent if f'"{name}"' in code}
    assert set(ACTIONS) == sent | by_name, f"never sent: {set(ACTIONS) - sent - by_name}"
    assert catalog()["actions"] == {name: list(a.fields) for name, a in ACTIONS.items()}


def test_a_protocol_table_that_differs_from_the_front_end_is_caught(monkeypatch):
    """The check above can fail: a new field in the table changes the written type."""
    from dataclasses import replace

    from pyramid_widget import intents

    source = (ROOT / "js" / "widget.js").read_text(encoding="utf-8")
    draw = replace(intents.ACTIONS["draw"], fields={"times": intents.COUNT})
    monkeypatch.setattr(intents, "ACTIONS", {**intents.ACTIONS, "draw": draw})
    assert intents.request_typedef() not in source


#: Modules allowed past the size limit, each with its reason.
LONG_MODULES: dict[str, str] = {
    "pyramid_widget.words": "the one home of every sentence a player reads (one vocabulary)",
}
MAX_LINES = 800


def test_no_module_of_the_package_is_over_800_lines():
    long = {
        module_name(path): lines
        for path in PACKAGE.rglob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert set(long) <= set(LONG_MODULES), {m: n for m, n in long.items() if m not in LONG_MODULES}


# ---------------------------------------------------------------------------- player sentences
PROSE = re.compile(r"\b[A-Za-z][a-z']* [a-z']+ [a-z']+\b|\b[A-Za-z][a-z']* [A-Za-z][a-z']*[.!?]$")
"""Prose: three words in a row, or two words ending a sentence ("Pyramid cleared!")."""

SINKS: dict[str, tuple[int | str, ...]] = {
    "IllegalMove": (0, "reason"),
    "Hint": (3, "reason"),
    "PlainLoss": (1, "sentence"),
    "Choice": (3, "why"),
    "Choice.of": (2, "why"),
    "Verdict": (5, "sentence"),
    "Theme": (1, 2, "title", "meaning"),
    "_say": (1, "words"),
}
"""The calls whose text reaches a player, and which of their arguments (by position and by
keyword) carries it: a refusal, a hint's reason, a plain loss, a puzzle's verdicts, a theme,
what puzzle mode says."""

READ_KEYS = {"why", "text", "reason", "summary", "prompt", "said", "notes", "title", "aria-label"}
"""Keys of the view state (and of a picture's attributes) whose values a player reads."""

NOT_FOR_PLAYERS = {
    "__main__.py": "the command line's help and reports, for whoever runs it",
    "puzzles/__main__.py": "the puzzle tools' help and reports, for whoever runs them",
    "puzzles/verify.py": "the maintainers' check of puzzle files",
    "solver/stats.py": "a winnability report, for whoever measures",
    "store.py": "the records database: SQL, and warnings about its file to its owner",
    "store_file.py": "the records database's file: warnings about it to its owner",
    "records.py": "warnings about the records database to its owner",
    "locks.py": "the records database's locks",
    "schema.py": "the records database's SQL",
    "rules.py:EDITIONS": "the source editions, for maintainers: a player never reads one",
    "lab/scorecard.py": "a strategy's scorecard, for whoever measures",
    "lab/comparison.py": "strategies side by side, for whoever measures",
    "lab/chart.py": "the chart of strategies side by side, for whoever measures",
    "lab/verdicts.py": "warnings about the verdicts file to its owner",
}
"""What the scan leaves out (a module, or one top-level name of a module), and why."""


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


def _is_text(node: ast.AST | None) -> bool:
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


def _text(node: ast.AST) -> str:
    """A literal's text; an f-string's placeholders read as "{}"."""
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return node.value  # type: ignore[attr-defined]


def player_sentences(source: str, leave_out: frozenset[str] = frozenset()) -> list[str]:
    """The player sentences built in `source` ("line: text"), by this definition:

    - a string literal or f-string given where a player reads it: an argument of a call in
      `SINKS` in the place given there, or the value of a key in `READ_KEYS`;
    - any other string literal or f-string that is prose (`PROSE`; an f-string's placeholders
      read as "{}").

    Not counted: docstrings; messages for programmers (under `raise` or `assert`, and in a
    call to a class named ...Error, ...Exception or ...Warning, IllegalMove excepted: its
    reason is the player's); a traitlets trait's `help=`; top-level names in `leave_out`.
    """
    tree = ast.parse(source)
    # An f-string's literal parts are read with it, never alone.
    skip = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
            for part in node.values}  # fmt: skip
    found: list[str] = []

    def leave(node: ast.AST) -> None:
        skip.update(id(inner) for inner in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and _is_text(node.value):
            leave(node)  # a docstring, or text that goes nowhere
        if isinstance(node, ast.Raise | ast.Assert):
            leave(node)
        if isinstance(node, ast.Call):
            name = _dotted(node.func)
            last = name.rpartition(".")[2]
            if last != "IllegalMove" and re.search(r"(Error|Exception|Warning)$", last):
                leave(node)
            if name.startswith("traitlets."):
                for keyword in node.keywords:
                    if keyword.arg == "help":
                        leave(keyword)
            places = next((v for k, v in SINKS.items() if name == k or name.endswith("." + k)), ())
            said = [a for n, a in enumerate(node.args) if n in places]
            said += [k.value for k in node.keywords if k.arg in places]
            found += [f"{a.lineno}: {_text(a)}" for a in said if _is_text(a)]
            skip.update(id(a) for a in said)
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value in READ_KEYS and _is_text(value):
                    found.append(f"{value.lineno}: {_text(value)}")
                    skip.add(id(value))
    for statement in tree.body:
        targets = getattr(statement, "targets", None) or [getattr(statement, "target", None)]
        names = {getattr(t, "id", None) for t in targets} | {getattr(statement, "name", None)}
        if names & leave_out:
            leave(statement)
    for node in ast.walk(tree):
        if id(node) not in skip and _is_text(node) and PROSE.search(_text(node)):
            found.append(f"{node.lineno}: {_text(node)}")
    return sorted(set(found), key=lambda line: int(line.partition(":")[0]))


def test_every_player_sentence_is_written_in_words_py():
    """What a player reads (the board, hints, reviews, puzzles, pictures) is written in
    `words.py`, the one vocabulary; elsewhere code decides what to say. A player sentence is
    what `player_sentences` finds; `NOT_FOR_PLAYERS` names what the scan leaves out."""
    modules = {path.relative_to(PACKAGE).as_posix(): path for path in PACKAGE.rglob("*.py")}
    for left_out in NOT_FOR_PLAYERS:
        module, _, name = left_out.partition(":")
        assert module in modules, f"{left_out} is left out, but there is no {module}"
        assert not name or re.search(rf"^{name}\b", modules[module].read_text(), re.M), left_out
    offenders = []
    for module, path in sorted(modules.items()):
        if module == "words.py" or module in NOT_FOR_PLAYERS:
            continue
        parts = (left_out.partition(":") for left_out in NOT_FOR_PLAYERS)
        names = frozenset(name for where, _, name in parts if where == module and name)
        source = path.read_text(encoding="utf-8")
        offenders += [f"{module}:{line}" for line in player_sentences(source, names)]
    assert not offenders, "\n".join(offenders)


def test_the_sentence_finder_finds_sentences():
    source = '''
"""A docstring is no sentence a player reads."""
EDITIONS = ("the notes of a maintainer",)
def refuse(card, n):
    """Nor is this one."""
    raise IllegalMove("no")
def hint():
    Hint(None, "none", "winnable", "Won.")
    Hint(None, "none", "winnable", WON_HINT)
    PlainLoss("stuck", f"{n} moves and nothing left")
    run._say("refused", sentence(why))
    board = {"why": "Paused", "kind": "pair", "class": "pw-card pw-back"}
    status = f"Pass {n} of {m}"
    title = "Pyramid cleared!"
    raise ValueError("this message is for programmers")
    assert n, "and so is this one"
    note = "this one reads like prose"
'''
    assert [line.partition(":")[0] for line in player_sentences(source)] == [
        "3", "6", "8", "10", "12", "14", "17",
    ]  # fmt: skip
    assert "3: the notes of a maintainer" not in player_sentences(source, frozenset({"EDITIONS"}))


def test_words_are_capitalised_in_one_place():
    """`words.capitalised` is the one capitalising helper (the front end receives words
    capitalised: see test_the_front_end_keeps_no_copy_of_pythons_tables)."""
    pattern = re.compile(r"\.capitalize\(\)|\[:1\]\.upper\(\)|\[0\]\.upper\(\)")
    offenders = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in PACKAGE.rglob("*.py")
        if path.name != "words.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert not offenders, offenders
