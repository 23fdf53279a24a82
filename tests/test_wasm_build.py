"""wasm/build.py's lockfile: which wheels go into Pyodide, and the clear refusals.

The Pyodide test and the JupyterLite browser test use the real wheels; these tests use small
hand-made ones, to pin down what the lockfile says and that a set of wheels that cannot work
in Pyodide is refused with every problem named, before anything is built.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

import pytest
from helpers import load_script

REPO = Path(__file__).resolve().parents[1]


build = load_script(REPO / "wasm" / "build.py", "wasm_build")

INFO = {
    "abi_version": "2026_0",
    "arch": "wasm32",
    "platform": "emscripten_5_0_3",
    "python": "3.14.2",
}
RUNTIME = build.Runtime(Path("/nonexistent"), "314.0.6", INFO)
ENVIRONMENT = RUNTIME.marker_environment()


def make_wheel(
    folder: Path,
    name: str,
    version: str,
    requires: tuple[str, ...] = (),
    files: tuple[str, ...] = (),
    tag: str = "py3-none-any",
) -> Path:
    """A minimal wheel: METADATA with its Requires-Dist lines, and the given files."""
    dist = f"{name.replace('-', '_')}-{version}"
    path = folder / f"{dist}-{tag}.whl"
    metadata = "\n".join(
        [
            "Metadata-Version: 2.1",
            f"Name: {name}",
            f"Version: {version}",
            *(f"Requires-Dist: {req}" for req in requires),
        ]
    )
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"{dist}.dist-info/METADATA", metadata + "\n")
        for file in files or (f"{name.replace('-', '_')}/__init__.py",):
            archive.writestr(file, "")
    return path


def wheels(folder: Path, *specs: tuple) -> list:
    return [build.Wheel.read(make_wheel(folder, *spec)) for spec in specs]


def test_dependencies_are_read_as_pyodide_reads_its_markers(tmp_path):
    found = wheels(
        tmp_path,
        ("app", "1.0", ('shell; sys_platform != "emscripten"', "core>=2", 'tests; extra == "t"')),
        ("core", "2.1", ('typing-extensions; python_version < "3.12"',)),
    )
    chosen = build.resolve(found, ["app"], ENVIRONMENT)
    # The terminal-only and the old-Python dependency do not apply inside Pyodide.
    assert [wheel.name for wheel in chosen] == ["app", "core"]


def test_a_set_that_cannot_work_is_refused_with_every_problem_named(tmp_path):
    found = wheels(tmp_path, ("app", "1.0", ("core>=3", "missing")), ("core", "2.1"))
    with pytest.raises(build.BuildError) as error:
        build.resolve(found, ["app", "absent"], ENVIRONMENT)
    text = str(error.value)
    assert "app 1.0 needs core>=3: the set has 2.1" in text
    assert "app 1.0 needs missing: the set has none" in text
    assert "absent (asked for) has no wheel in the set" in text
    assert "wasm/requirements.txt" in text


def test_of_two_wheels_of_one_name_the_newer_wins(tmp_path):
    """The kernel's stand-in widgetsnbextension (4.0.999) replaces the real one."""
    found = wheels(
        tmp_path,
        ("ipywidgets", "8.1.9", ("widgetsnbextension~=4.0.16",)),
        ("widgetsnbextension", "4.0.16"),
        ("widgetsnbextension", "4.0.999"),
        ("widgetsnbextension", "3.6.999"),
    )
    chosen = {
        wheel.name: str(wheel.version)
        for wheel in build.resolve(found, ["ipywidgets"], ENVIRONMENT)
    }
    assert chosen == {"ipywidgets": "8.1.9", "widgetsnbextension": "4.0.999"}


def test_extras_asked_for_bring_their_dependencies(tmp_path):
    found = wheels(
        tmp_path,
        ("app", "1.0", ("lib[fast]",)),
        ("lib", "1.0", ('speedups; extra == "fast"',)),
        ("speedups", "1.0"),
    )
    assert [w.name for w in build.resolve(found, ["app"], ENVIRONMENT)] == [
        "app",
        "lib",
        "speedups",
    ]


def test_the_lockfile_lists_each_wheel_with_its_checksum_imports_and_dependencies(tmp_path):
    found = wheels(
        tmp_path,
        (
            "My_App",
            "1.0",
            ('Core_Lib>=2; platform_system == "Emscripten"',),
            ("my_app/__init__.py", "my_app_cli.py", "my_app.pth"),
        ),
        ("Core_Lib", "2.0"),
    )
    lock = build.lockfile(RUNTIME, build.resolve(found, ["my-app"], ENVIRONMENT))
    assert lock["info"] == INFO
    entry = lock["packages"]["my-app"]
    path = tmp_path / entry["file_name"]
    assert entry["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert entry["depends"] == ["core-lib"]
    assert entry["imports"] == ["my_app", "my_app_cli"]  # the .pth file is no module
    assert entry["install_dir"] == "site" and entry["package_type"] == "package"
    json.dumps(lock)  # it is written as JSON


def test_a_platform_wheel_is_refused(tmp_path):
    path = make_wheel(tmp_path, "native", "1.0", tag="cp314-cp314-manylinux_2_28_x86_64")
    with pytest.raises(build.BuildError, match="not a pure-Python wheel"):
        build.Wheel.read(path)


@pytest.mark.parametrize(
    "line",
    ["anywidget>=0.11", "anywidget", "anywidget[dev]==0.11.0", 'a==1; sys_platform == "linux"'],
)
def test_the_requirements_file_holds_only_exact_pins(tmp_path, line):
    requirements = tmp_path / "requirements.txt"
    requirements.write_text(f"# a comment\ntraitlets==5.16.1\n{line}\n")
    with pytest.raises(build.BuildError, match="must be a plain name==version pin"):
        build.pinned(requirements)


def test_the_repositorys_pins_are_all_exact():
    pins = build.pinned()
    assert {"anywidget", "ipywidgets", "traitlets", "ipython", "micropip"} <= {p.name for p in pins}


def test_a_missing_runtime_says_how_to_get_it(tmp_path):
    with pytest.raises(build.BuildError, match=r"run ./dev test or ./dev lite"):
        build.Runtime.find(tmp_path)
