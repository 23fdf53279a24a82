// Run tests/pyodide/drive.py inside Pyodide under Node, on a Pyodide folder made by
// `python wasm/build.py pyodide DIR` (the npm registry's runtime, the wheels, their lockfile).
//
//   node run.mjs PYODIDE_PACKAGE DIR DRIVER REPORT
//
// PYODIDE_PACKAGE is the npm package's folder (its pyodide.mjs is imported from there, so its
// own dependencies resolve); DIR is the runtime Pyodide actually loads. Pyodide starts with
// pyramid-widget and every dependency in the lockfile loaded, then runs DRIVER's report(),
// and the JSON it returns goes to REPORT together with the load time and every network
// request that was tried. The network is closed: fetch() fails, so anything Pyodide would
// have fetched from outside shows up in the report instead of being fetched.
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodidePackage, folder, driver, reportPath] = process.argv.slice(2);
if (!reportPath) {
  console.error("usage: node run.mjs PYODIDE_PACKAGE DIR DRIVER REPORT");
  process.exit(2);
}

const fetches = [];
globalThis.fetch = async (url) => {
  fetches.push(String(url));
  throw new Error(`the Pyodide test allows no network access (asked for ${url})`);
};

const started = performance.now();
let pyodide, loaded, text;
try {
  const { loadPyodide } = await import(pathToFileURL(join(pyodidePackage, "pyodide.mjs")).href);
  pyodide = await loadPyodide({
    indexURL: resolve(folder) + "/",
    packages: ["pyramid-widget"],
    stdout: (line) => console.log(line),
    stderr: (line) => console.error(line),
  });
  loaded = performance.now();
  // The driver becomes a module of its own, imported as the test imports it under CPython.
  const moduleName = basename(driver, ".py");
  pyodide.FS.mkdirTree("/driver");
  pyodide.FS.writeFile(`/driver/${moduleName}.py`, readFileSync(driver, "utf8"));
  text = await pyodide.runPythonAsync(
    `import sys\nsys.path.insert(0, "/driver")\nimport ${moduleName}\n${moduleName}.report()`,
  );
} catch (error) {
  // Only the message: Node's own report of an error thrown from Pyodide's minified runtime
  // would print a megabyte of its source.
  console.error(`run.mjs: ${error && error.message ? error.message : error}`);
  console.error(`network requests tried: ${JSON.stringify(fetches)}`);
  process.exit(1);
}
const finished = performance.now();

writeFileSync(
  reportPath,
  JSON.stringify({
    report: JSON.parse(text),
    fetches,
    pyodide: pyodide.version,
    load_s: (loaded - started) / 1000,
    run_s: (finished - loaded) / 1000,
  }),
);
