#!/usr/bin/env node
// npm bin shim for `catalog`. Node 24 (the project's pinned node, first on PATH under npx and npm
// scripts) runs the bundle cli/dist/catalog.cjs (scripts/build-cli.ts, decision 0017) while it is
// current, else the TypeScript entry cli/main.ts directly. The compile cache is switched on here,
// before the first module loads, so that a warm run skips compiling either.
// CommonJS, as is the bundle: Node runs an ES module entry through its ES module loader, which
// costs a run about 5 ms more than a CommonJS one (a sixth of Node's own start-up).
// Node's modules through process.getBuiltinModule, not `import`: importing node:fs as a module
// builds its ES module facade, whose getters load all of node:stream (several milliseconds).
const { readFileSync, statSync } = process.getBuiltinModule("node:fs");
const { enableCompileCache } = process.getBuiltinModule("node:module");

enableCompileCache();

/**
 * The bundle is current when every project file it was built from (cli/dist/inputs.json) exists
 * and has not changed since it was built; any doubt runs the sources, which are always right.
 * Kept even though it costs a run ~0.5 ms: this package is private and only runs from its own
 * working tree, where the sources change under the bundle all day (decision 0017).
 */
function bundleIsCurrent() {
  const root = `${__dirname}/../`;
  try {
    const { builtAtMs, inputs } = JSON.parse(readFileSync(`${root}cli/dist/inputs.json`, "utf8"));
    return inputs.every((path) => statSync(root + path).mtimeMs <= builtAtMs);
  } catch {
    return false;
  }
}

if (bundleIsCurrent()) require("./dist/catalog.cjs");
else import("./main.ts");
