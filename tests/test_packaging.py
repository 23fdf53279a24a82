"""What `pip install pyramid-widget` gives a user: the widget with its front end inside.

The JS and CSS are edited in js/ and only copied into the wheel at build time, so a wheel that
forgot them would still pass every test run from the repository. These tests build the sdist
and, from it, the wheel (as pip does), install the wheel into a fresh virtual environment and
import the widget there, away from the repository.
"""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FRONT_END = {"widget.js": REPO / "js" / "widget.js", "widget.css": REPO / "js" / "widget.css"}

pytestmark = pytest.mark.slow


def _run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    """Run a command; on failure the assertion shows everything it printed."""
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    assert result.returncode == 0, (
        f"{' '.join(command)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
    )
    return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    missing = [str(path.relative_to(REPO)) for path in FRONT_END.values() if not path.is_file()]
    assert not missing, f"the front end is missing from the repository: {', '.join(missing)}"
    out = tmp_path_factory.mktemp("dist")
    # No isolation: the build backend comes from the test extra, so no download is needed.
    _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(REPO)])
    wheels = list(out.glob("pyramid_widget-*.whl"))
    assert len(wheels) == 1, f"expected one wheel, found {wheels}"
    return wheels[0]


def test_the_wheel_ships_the_front_end_and_licence(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        for name, source in FRONT_END.items():
            assert archive.read(f"pyramid_widget/static/{name}") == source.read_bytes()
        entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        assert (
            "pyramid-widget = pyramid_widget.__main__:main" in archive.read(entry_points).decode()
        )
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    strays = sorted(n for n in names if n.split("/")[0].split("-")[0] != "pyramid_widget")
    assert not strays, f"files outside the package in the wheel: {strays}"


_PROBE = """
import json, pathlib
import pyramid_widget
from pyramid_widget import puzzles
from pyramid_widget.widget import PyramidWidget

def text(value):
    # anywidget accepts a string or a path; it may wrap a path in a str-like object.
    return value.read_text() if isinstance(value, pathlib.PurePath) else str(value)

print(json.dumps({
    "package": pyramid_widget.__file__,
    "esm": text(PyramidWidget._esm),
    "css": text(PyramidWidget._css),
    "puzzles": {rules: len(puzzles.load(rules)) for rules in puzzles.SHIPPED},
}))
"""


def test_the_installed_widget_finds_its_js_and_css_inside_the_package(
    wheel: Path, tmp_path: Path
) -> None:
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    _run(
        [
            *(sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet"),
            *("--no-deps", "--no-index", "--disable-pip-version-check", str(wheel)),
        ]
    )
    # The runtime dependencies (anywidget and friends) come from the test environment: a plain
    # path line, so the editable install of the repository living there is not picked up.
    site = Path(
        _run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]
        ).stdout.strip()
    )
    (site / "zz_test_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")

    # -I: no current folder, PYTHONPATH or user site on sys.path, so only the wheel is found.
    probe = json.loads(_run([str(python), "-I", "-c", _PROBE], cwd=tmp_path).stdout)

    assert Path(probe["package"]).is_relative_to(venv)
    assert FRONT_END["widget.js"].read_text().strip() in probe["esm"]
    assert FRONT_END["widget.css"].read_text().strip() in probe["css"]
    assert all(count >= 200 for count in probe["puzzles"].values()), probe["puzzles"]  # data too
