// Bundles the `catalog` CLI (cli/main.ts and everything it imports, dependencies included) with
// esbuild into one CommonJS file, cli/dist/catalog.cjs. cli/bin.cjs runs it while it is current
// (cli/dist/inputs.json: every project file it was built from, none changed since) and the
// TypeScript sources otherwise. Decision 0017: Node loading ~400 module files one by one is what a
// run from the sources spends most of its time on.
// Run by `npm run build`, `npm run build:cli`, the first stage of `npm test` and `npm run bench`.
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build, stop } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
export const CLI_DIST = `${root}cli/dist`;

/** The manifest bin.cjs checks: when the bundle was built, and the files it was built from. */
export type BundleInputs = { builtAtMs: number; inputs: string[] };

/**
 * Whether the bundle in `dir` is what this build would make now: every project file it was built
 * from (its inputs.json) and this build script itself unchanged since it was built. bin.cjs makes
 * the same check, less the build script (it runs a bundle, not a build); tests that run a bundle
 * use one built by an earlier step (`npm test`'s catalog stage) when this holds.
 */
export function bundleIsCurrent(dir = CLI_DIST, projectRoot = root): boolean {
  try {
    const manifest: BundleInputs = JSON.parse(readFileSync(`${dir}/inputs.json`, "utf8"));
    return [...manifest.inputs, "scripts/build-cli.ts"].every(
      (path) => statSync(`${projectRoot}${path}`).mtimeMs <= manifest.builtAtMs,
    );
  } catch {
    return false;
  }
}

/** Builds the bundle into `outDir` (default cli/dist, the one bin.cjs runs); returns its figures. */
export async function buildCli(outDir = CLI_DIST): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  // Any file changed from now on is newer than the bundle, so bin.cjs will not trust it.
  const builtAtMs = Date.now();
  rmSync(outDir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: ["cli/main.ts"],
    outfile: `${outDir}/catalog.cjs`,
    bundle: true,
    platform: "node",
    target: "node24",
    // CommonJS, as bin.cjs: a run needs no ES module loader (about 5 ms of a run). So
    // `import("node:path")` becomes require(), and main.ts finds the project root from its own
    // address, as it does from the sources.
    format: "cjs",
    supported: { "dynamic-import": false },
    define: { "import.meta.url": "__catalogUrl" },
    banner: { js: 'const __catalogUrl = require("node:url").pathToFileURL(__filename).href;' },
    minifySyntax: true,
    minifyWhitespace: true,
    legalComments: "none",
    metafile: true,
    logLevel: "warning",
  });
  // Project files and the installed dependency set (npm ci rewrites node_modules/.package-lock.json).
  const inputs = [
    ...Object.keys(result.metafile.inputs).filter(
      (path) => !/(^|\/)node_modules\//.test(path) && !path.includes(":"),
    ),
    "node_modules/.package-lock.json",
  ].sort();
  mkdirSync(outDir, { recursive: true });
  const manifest: BundleInputs = { builtAtMs, inputs };
  writeFileSync(`${outDir}/inputs.json`, `${JSON.stringify(manifest, null, 2)}\n`);
  const bytes = Object.values(result.metafile.outputs).reduce((sum, out) => sum + out.bytes, 0);
  return { ms: performance.now() - started, bytes };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { ms, bytes } = await buildCli();
  await stop();
  console.log(`cli/dist/catalog.cjs: ${(bytes / 1024).toFixed(0)} KiB in ${ms.toFixed(0)} ms`);
}
