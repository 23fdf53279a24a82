"""Build what runs pyramid-widget inside Pyodide: a Pyodide folder, and a JupyterLite site on it.

    python wasm/build.py pyodide OUT    the Pyodide runtime, the wheels and a lockfile for them
    python wasm/build.py lite OUT       a static JupyterLite site: the package and the notebooks
    python wasm/build.py serve DIR      serve a built site on 127.0.0.1 (PORT, default 8000)

Everything comes from the package registries through their ordinary clients, and nothing in the
output points anywhere else:
- the Pyodide runtime is the npm registry's `pyodide` package, pinned in package-lock.json
  and installed by ./dev into node_modules ($PYRAMID_PYODIDE names another copy);
- the wheels are PyPI's, pinned in wasm/requirements.txt and downloaded once into build/cache;
- pyramid-widget's own wheel is built from this checkout each time.

Why a lockfile of our own: Pyodide loads packages from the `pyodide-lock.json` next to its
runtime, with a checksum for each file. The npm package's lockfile describes Pyodide's full
distribution (hundreds of packages that npm does not carry, with checksums of Pyodide's own
builds), so the folder gets one that lists exactly the wheels in it, with their dependencies as
Pyodide reads them. `loadPyodide({packages: ["pyramid-widget"]})` then loads the package and
everything it needs from that folder alone: the Pyodide test does that under Node, and the
JupyterLite kernel does it when it starts (so the notebooks need no `%pip install` cell).
"""

from __future__ import annotations

import argparse
import contextlib
import email.parser
import functools
import hashlib
import http.server
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import NormalizedName, canonicalize_name, parse_wheel_filename
from packaging.version import Version

REPO = Path(__file__).resolve().parents[1]
REQUIREMENTS = REPO / "wasm" / "requirements.txt"
NOTEBOOKS = REPO / "notebooks"
CACHE = REPO / "build" / "cache"
DEFAULT_PYODIDE = REPO / "node_modules" / "pyodide"

#: The npm package's files that make the runtime (not its docs, types, maps or demo consoles).
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")

#: What the JupyterLite kernel installs before it runs a cell (see its worker's initKernel);
#: listed in `loadPyodideOptions.packages`, they load from the lockfile while Pyodide starts.
KERNEL_PACKAGES = ("micropip", "piplite", "ipykernel", "comm", "pyodide-kernel", "jedi", "ipython")

#: The front-end halves the site needs: the kernel itself, ipywidgets' widget manager and
#: anywidget's renderer. Each comes as a wheel holding its JupyterLab extension.
EXTENSION_WHEELS = ("jupyterlite-pyodide-kernel", "jupyterlab-widgets", "anywidget")

KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
PYODIDE_KERNELSPEC = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}

#: Content types for the served site: module scripts and wasm are refused under wrong ones.
CONTENT_TYPES = {
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".ipynb": "application/json",
    ".webmanifest": "application/manifest+json",
    ".whl": "application/zip",
    ".zip": "application/zip",
}


class BuildError(Exception):
    """Something the build needs is missing or inconsistent; the message says what to do."""


# --------------------------------------------------------------------------- the runtime
@dataclass(frozen=True)
class Runtime:
    """The npm registry's Pyodide package: its folder, version and the Python it carries."""

    folder: Path
    version: str
    info: dict[str, str]

    @classmethod
    def find(cls, folder: Path | None = None) -> Runtime:
        folder = folder or Path(os.environ.get("PYRAMID_PYODIDE") or DEFAULT_PYODIDE)
        missing = [
            name for name in (*RUNTIME_FILES, "package.json") if not (folder / name).is_file()
        ]
        if missing:
            raise BuildError(
                f"no Pyodide runtime in {folder} (missing {', '.join(missing)}): run ./dev test "
                "or ./dev lite, which install it from package-lock.json"
            )
        version = json.loads((folder / "package.json").read_text())["version"]
        info = json.loads((folder / "pyodide-lock.json").read_text())["info"]
        return cls(folder, version, info)

    @property
    def python(self) -> str:
        """The Python version inside, e.g. "3.14.2"."""
        return self.info["python"]

    def marker_environment(self) -> dict[str, str]:
        """PEP 508 marker values as Python inside this Pyodide reports them."""
        return {
            "implementation_name": "cpython",
            "implementation_version": self.python,
            "os_name": "posix",
            "platform_machine": "wasm32",
            "platform_python_implementation": "CPython",
            "platform_release": "",
            "platform_system": "Emscripten",
            "platform_version": "",
            "python_full_version": self.python,
            "python_version": ".".join(self.python.split(".")[:2]),
            "sys_platform": "emscripten",
        }


# --------------------------------------------------------------------------- wheels
@dataclass(frozen=True)
class Wheel:
    """A wheel file and what Pyodide's lockfile says about it."""

    path: Path
    name: NormalizedName
    version: Version
    requires: tuple[Requirement, ...]
    imports: tuple[str, ...]

    @classmethod
    def read(cls, path: Path) -> Wheel:
        name, version, _, tags = parse_wheel_filename(path.name)
        if not all(tag.platform == "any" for tag in tags):
            raise BuildError(f"{path.name} is not a pure-Python wheel; Pyodide cannot use it")
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
            info = next(n for n in names if re.fullmatch(r"[^/]+\.dist-info/METADATA", n))
            metadata = email.parser.Parser().parsestr(archive.read(info).decode())
        requires = tuple(Requirement(text) for text in metadata.get_all("Requires-Dist") or ())
        return cls(path, name, version, requires, _top_level_modules(names))

    def needs(self, environment: dict[str, str], extras: Iterable[str] = ()) -> list[Requirement]:
        """The requirements that apply inside Pyodide (with the given extras asked for)."""
        wanted = ["", *extras]
        return [
            req
            for req in self.requires
            if req.marker is None
            or any(req.marker.evaluate({**environment, "extra": extra}) for extra in wanted)
        ]

    def sha256(self) -> str:
        return hashlib.sha256(self.path.read_bytes()).hexdigest()


def _top_level_modules(names: Iterable[str]) -> tuple[str, ...]:
    """The importable names a wheel installs (for the lockfile's `imports`)."""
    found = set()
    for name in names:
        top, _, rest = name.partition("/")
        if top.endswith((".dist-info", ".data")) or top == "__pycache__":
            continue
        if rest:  # a package folder
            module = top
        elif top.endswith(".py"):  # a single-file module
            module = top.removesuffix(".py")
        else:  # a .pth file or other data
            continue
        if module.isidentifier():
            found.add(module)
    return tuple(sorted(found))


def pinned(requirements: Path = REQUIREMENTS) -> list[Requirement]:
    """The `name==version` lines of a requirements file (anything else is refused)."""
    pins = []
    for line in requirements.read_text().splitlines():
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        req = Requirement(text)
        specs = list(req.specifier)
        if len(specs) != 1 or specs[0].operator != "==" or req.marker or req.extras:
            raise BuildError(f"{requirements.name}: {text!r} must be a plain name==version pin")
        pins.append(req)
    return pins


def _cached(folder: Path, name: str, version: str) -> Path | None:
    wanted = (canonicalize_name(name), Version(version))
    for path in folder.glob("*.whl"):
        found_name, found_version, _, _ = parse_wheel_filename(path.name)
        if (found_name, found_version) == wanted:
            return path
    return None


def download(
    pins: Sequence[Requirement], folder: Path, *, python: str, pure: bool = True
) -> list[Path]:
    """The wheels of `pins` from PyPI into `folder` (pip runs only for what is not there yet).

    `pure`: wheels for any platform and the given Python, as Pyodide needs; otherwise wheels
    for this machine (for the tools that build the site).
    """
    folder.mkdir(parents=True, exist_ok=True)
    version_of = {req.name: next(iter(req.specifier)).version for req in pins}
    missing = [req for req in pins if _cached(folder, req.name, version_of[req.name]) is None]
    if missing:
        target = ["--only-binary=:all:", "--implementation", "py", "--platform", "any"]
        command = [
            *(sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check"),
            *("--no-deps", "--dest", str(folder)),
            *([*target, "--python-version", python] if pure else []),
            *(str(req) for req in missing),
        ]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            raise BuildError(f"pip could not download {missing}:\n{result.stderr[-3000:]}")
    paths = []
    for req in pins:
        path = _cached(folder, req.name, version_of[req.name])
        if path is None:
            raise BuildError(f"pip reported success but no wheel of {req} is in {folder}")
        paths.append(path)
    return paths


def project_wheel(folder: Path) -> Path:
    """pyramid-widget's wheel, freshly built from this checkout (as `pip install .` would)."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    command = [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(folder)]
    result = subprocess.run([*command, str(REPO)], capture_output=True, text=True)
    if result.returncode != 0:
        raise BuildError(f"building the wheel failed:\n{result.stdout[-2000:]}{result.stderr}")
    (wheel,) = folder.glob("pyramid_widget-*.whl")
    return wheel


# --------------------------------------------------------------------------- the lockfile
def resolve(
    wheels: Iterable[Wheel], roots: Iterable[str], environment: dict[str, str]
) -> list[Wheel]:
    """The wheels `roots` need inside Pyodide, dependencies included, or BuildError naming
    every requirement the set does not meet. Of two wheels of one name the newer wins (the
    kernel's stand-ins for widgetsnbextension and ipykernel are numbered high for this)."""
    newest: dict[NormalizedName, Wheel] = {}
    for wheel in wheels:
        if wheel.name not in newest or wheel.version > newest[wheel.name].version:
            newest[wheel.name] = wheel
    chosen: dict[NormalizedName, Wheel] = {}
    problems = []
    todo: list[tuple[str, frozenset[str], str]] = [(r, frozenset(), "asked for") for r in roots]
    seen: set[tuple[NormalizedName, frozenset[str]]] = set()
    while todo:
        raw, extras, why = todo.pop()
        name = canonicalize_name(raw)
        if (name, extras) in seen:
            continue
        seen.add((name, extras))
        wheel = newest.get(name)
        if wheel is None:
            problems.append(f"{name} ({why}) has no wheel in the set")
            continue
        chosen[name] = wheel
        for req in wheel.needs(environment, extras):
            dep = newest.get(canonicalize_name(req.name))
            if dep is None or not req.specifier.contains(dep.version, prereleases=True):
                have = f"the set has {dep.version}" if dep else "the set has none"
                problems.append(f"{wheel.name} {wheel.version} needs {req}: {have}")
            else:
                todo.append((req.name, frozenset(req.extras), f"for {wheel.name}"))
    if problems:
        raise BuildError(
            "the wheels do not make a working set for Pyodide; fix wasm/requirements.txt:\n  "
            + "\n  ".join(sorted(set(problems)))
        )
    return sorted(chosen.values(), key=lambda wheel: wheel.name)


def lockfile(runtime: Runtime, wheels: Sequence[Wheel]) -> dict:
    """A `pyodide-lock.json` describing exactly `wheels` (each next to it in the folder)."""
    environment = runtime.marker_environment()
    names = {wheel.name for wheel in wheels}
    packages = {}
    for wheel in wheels:
        depends = sorted({canonicalize_name(req.name) for req in wheel.needs(environment)})
        assert set(depends) <= names, (wheel.name, depends)  # resolve() guarantees it
        packages[wheel.name] = {
            "name": wheel.name,
            "version": str(wheel.version),
            "file_name": wheel.path.name,
            "install_dir": "site",
            "sha256": wheel.sha256(),
            "package_type": "package",
            "imports": list(wheel.imports),
            "depends": depends,
            "unvendored_tests": False,
        }
    return {"info": runtime.info, "packages": packages}


def build_pyodide(
    out: Path,
    *,
    runtime: Runtime,
    extra_wheels: Sequence[Path] = (),
    roots: Sequence[str] = ("pyramid-widget",),
    cache: Path = CACHE,
) -> list[Wheel]:
    """Fill `out` with the runtime, the wheels `roots` need and their lockfile; returns them."""
    python = ".".join(runtime.python.split(".")[:2])
    paths = [
        project_wheel(cache / "dist"),
        *download(pinned(), cache / "wheels", python=python),
        *extra_wheels,
    ]
    wheels = resolve(map(Wheel.read, paths), roots, runtime.marker_environment())
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    for name in RUNTIME_FILES:
        shutil.copy2(runtime.folder / name, out / name)
    for wheel in wheels:
        shutil.copy2(wheel.path, out / wheel.path.name)
    (out / "pyodide-lock.json").write_text(json.dumps(lockfile(runtime, wheels), indent=1))
    return wheels


# --------------------------------------------------------------------------- the site
def _kernel_version() -> str:
    try:
        return importlib.metadata.version("jupyterlite-pyodide-kernel")
    except importlib.metadata.PackageNotFoundError:
        raise BuildError(
            "jupyterlite-pyodide-kernel is not installed: run ./dev lite (it installs the test "
            "extra, which holds jupyterlite-core and the kernel)"
        ) from None


def _check_kernel_matches(runtime: Runtime) -> None:
    """The kernel is built against one Pyodide release; another may not start."""
    from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION

    if runtime.version != PYODIDE_VERSION:
        raise BuildError(
            f"jupyterlite-pyodide-kernel {_kernel_version()} expects Pyodide {PYODIDE_VERSION}, "
            f"but package.json pins {runtime.version}: pin the same version in both"
        )


def _kernel_stand_ins(kernel_wheel: Path, folder: Path) -> list[Path]:
    """The small wheels the kernel ships (piplite, pyodide-kernel and stand-ins for ipykernel
    and widgetsnbextension), taken out of the kernel's own wheel."""
    folder.mkdir(parents=True, exist_ok=True)
    found = []
    with zipfile.ZipFile(kernel_wheel) as archive:
        for name in archive.namelist():
            if re.search(r"/static/pypi/[^/]+\.whl$", name):
                path = folder / name.rsplit("/", 1)[1]
                path.write_bytes(archive.read(name))
                found.append(path)
    if not found:
        raise BuildError(f"no wheels found inside {kernel_wheel.name}")
    return found


def _site_notebooks(folder: Path) -> None:
    """The repository's notebooks, set to open on the Pyodide kernel."""
    folder.mkdir(parents=True)
    for source in sorted(NOTEBOOKS.glob("*.ipynb")):
        notebook = json.loads(source.read_text())
        notebook.setdefault("metadata", {})["kernelspec"] = dict(PYODIDE_KERNELSPEC)
        (folder / source.name).write_text(json.dumps(notebook, indent=1) + "\n")


def build_lite(out: Path, *, runtime: Runtime, cache: Path = CACHE) -> None:
    """A static JupyterLite site in `out`: open `out/lab/index.html?path=play.ipynb`."""
    _check_kernel_matches(runtime)
    kernel = Requirement(f"jupyterlite-pyodide-kernel=={_kernel_version()}")
    (kernel_wheel,) = download([kernel], cache / "tools", python="", pure=False)
    stand_ins = _kernel_stand_ins(kernel_wheel, cache / "kernel-wheels" / kernel_wheel.stem)

    with tempfile.TemporaryDirectory(prefix="pyramid-lite-") as scratch:
        lite_dir = Path(scratch)
        # JupyterLite copies static/pyodide/ into the site and points the kernel at it.
        wheels = build_pyodide(
            lite_dir / "static" / "pyodide",
            runtime=runtime,
            extra_wheels=stand_ins,
            roots=("pyramid-widget", *KERNEL_PACKAGES),
            cache=cache,
        )
        by_name = {wheel.name: wheel.path for wheel in wheels}
        extensions = [kernel_wheel, *(by_name[n] for n in EXTENSION_WHEELS[1:])]
        _site_notebooks(lite_dir / "files")
        site_config = {
            "jupyter-lite-schema-version": 0,
            "jupyter-config-data": {
                "appName": "Pyramid Solitaire",
                # window.jupyterapp, as JupyterLab's expose_app_in_browser: the browser tests
                # drive the notebook through it, and a curious user can from the console.
                "exposeAppInBrowser": "true",
                "litePluginSettings": {
                    KERNEL_PLUGIN: {
                        # piplite would otherwise look for unknown packages on PyPI.
                        "disablePyPIFallback": True,
                        "loadPyodideOptions": {"packages": ["pyramid-widget", *KERNEL_PACKAGES]},
                    }
                },
            },
        }
        (lite_dir / "jupyter-lite.json").write_text(json.dumps(site_config, indent=1))
        build_config = {
            "LiteBuildConfig": {
                # Only the extensions listed here, not whatever this environment has.
                "ignore_sys_prefix": True,
                "federated_extensions": [str(path) for path in extensions],
                "apps": ["lab", "notebooks", "tree"],
                "no_sourcemaps": True,
                "no_unused_shared_packages": True,
            }
        }
        (lite_dir / "jupyter_lite_config.json").write_text(json.dumps(build_config, indent=1))
        shutil.rmtree(out, ignore_errors=True)
        command = [
            *(sys.executable, "-m", "jupyterlite_core", "build"),
            *("--lite-dir", str(lite_dir), "--output-dir", str(out.resolve())),
        ]
        result = subprocess.run(command, capture_output=True, text=True, cwd=lite_dir)
        if result.returncode != 0:
            raise BuildError(f"jupyter lite build failed:\n{result.stdout[-4000:]}{result.stderr}")
    check_site(out)


def check_site(site: Path) -> None:
    """The built site has what a notebook needs offline, or BuildError says what is missing."""
    problems = []
    for path in (
        "static/pyodide/pyodide.mjs",
        "static/pyodide/pyodide-lock.json",
        "files/play.ipynb",
        "files/strategy_lab.ipynb",
    ):
        if not (site / path).is_file():
            problems.append(f"{path} is missing")
    extensions = site / "extensions"
    for name in (
        "@jupyterlite/pyodide-kernel-extension",
        "@jupyter-widgets/jupyterlab-manager",
        "anywidget",
    ):
        if not (extensions / name / "package.json").is_file():
            problems.append(f"the lab extension {name} is missing")
    settings = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel = settings["litePluginSettings"][KERNEL_PLUGIN]
    if kernel.get("pyodideUrl") != "./static/pyodide/pyodide.mjs":
        problems.append(f"the kernel loads Pyodide from {kernel.get('pyodideUrl')!r}")
    if problems:
        raise BuildError(f"the site in {site} is incomplete:\n  " + "\n  ".join(problems))


# --------------------------------------------------------------------------- serving
class _SiteHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **CONTENT_TYPES}

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")  # a rebuilt site is never served stale
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        if not getattr(self.server, "quiet", False):
            super().log_message(format, *args)


def site_server(
    site: Path, port: int = 8000, *, quiet: bool = False
) -> http.server.ThreadingHTTPServer:
    """An HTTP server for `site` on 127.0.0.1 (port 0: any free one), not yet started: call
    serve_forever, from a thread if need be. `quiet`: no line per request on stderr."""
    handler = functools.partial(_SiteHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.quiet = quiet  # type: ignore[attr-defined]  (read by _SiteHandler)
    return server


# --------------------------------------------------------------------------- command line
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="wasm/build.py", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name, text in (("pyodide", "a Pyodide folder"), ("lite", "a JupyterLite site")):
        command = sub.add_parser(name, help=f"build {text}")
        command.add_argument("out", type=Path)
        command.add_argument("--cache", type=Path, default=CACHE, help="download cache")
    serve = sub.add_parser("serve", help="serve a built site on 127.0.0.1")
    serve.add_argument("site", type=Path)
    serve.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    try:
        if args.command == "serve":
            check_site(args.site)
            with site_server(args.site, args.port) as server:
                print(
                    f"serving {args.site} at http://127.0.0.1:{args.port}/lab/index.html"
                    "?path=play.ipynb (Ctrl+C stops)",
                    flush=True,
                )
                with contextlib.suppress(KeyboardInterrupt):
                    server.serve_forever()
            return 0
        runtime = Runtime.find()
        if args.command == "pyodide":
            wheels = build_pyodide(args.out, runtime=runtime, cache=args.cache)
            print(f"Pyodide {runtime.version} with {len(wheels)} wheels in {args.out}")
        else:
            build_lite(args.out, runtime=runtime, cache=args.cache)
            print(f"JupyterLite site in {args.out}: {_size(args.out) / 2**20:.1f} MiB")
    except BuildError as error:
        print(f"wasm/build.py: {error}", file=sys.stderr)
        return 1
    return 0


def _size(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


if __name__ == "__main__":
    sys.exit(main())
