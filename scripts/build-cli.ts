// Bundles the `catalog` CLI (cli/main.ts and everything it imports, dependencies included) into
// cli/dist/ with esbuild: one CommonJS file per command (catalog-<command>.cjs, main.ts with that
// command alone; catalog-all.cjs for help), and the entry catalog.cjs (cli/load-bundle.ts) that
// runs the command's file with a V8 code cache. cli/bin.cjs runs the bundle while it is current
// (cli/dist/inputs.json: every project file it was built from, none changed since) and the
// TypeScript sources otherwise. Decision 0017.
// Run by `npm run build`, `npm run build:cli`, the first stage of `npm test` and `npm run bench`.
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type BuildOptions, build, type Plugin, stop } from "esbuild";
import { COMMAND_NAMES, type CommandName } from "../cli/command-names.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
export const CLI_DIST = `${root}cli/dist`;

/** The manifest bin.cjs checks: when the bundle was built, and the files it was built from. */
export type BundleInputs = { builtAtMs: number; inputs: string[] };

/**
 * zod re-exports all its ~50 message locales (`z.locales`, about a third of its code); nothing
 * here switches locale, so the bundle's `z.locales` holds English only. A build-time substitution
 * of one import, not a load hook at run time (decision 0007 turned that down).
 */
const englishOnlyZodLocales: Plugin = {
  name: "english-only-zod-locales",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[/\\]zod[/\\]v4[/\\](classic|core)[/\\]/.test(args.importer)
        ? { path: "zod-locales-en", namespace: "zod-locales" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "zod-locales" }, () => ({
      contents: 'export { default as en } from "zod/v4/locales/en.js";',
      resolveDir: root,
    }));
  },
};

/**
 * node:child_process (and the net and dgram modules it loads) costs a few milliseconds of every
 * run when commander and cli/core/catalog-fs.ts load it as they start, though only `diff` and
 * `publish` run git and no command spawns a subcommand. In the bundle it loads on first use.
 */
const CHILD_PROCESS_FUNCTIONS = [
  "exec",
  "execFile",
  "execFileSync",
  "execSync",
  "fork",
  "spawn",
  "spawnSync",
];
const childProcessOnFirstUse: Plugin = {
  name: "child-process-on-first-use",
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, () => ({
      path: "child_process",
      namespace: "lazy-builtin",
    }));
    build.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, () => ({
      contents: [
        'const load = () => process.getBuiltinModule("node:child_process");',
        "export default new Proxy({}, { get: (_, key) => load()[key] });",
        ...CHILD_PROCESS_FUNCTIONS.map(
          (name) => `export const ${name} = (...args) => load().${name}(...args);`,
        ),
      ].join("\n"),
      loader: "js",
    }));
  },
};

/**
 * In the bundle of one command, the command table (cli/command-table.ts) holds that command
 * alone, so the bundle holds no other command's code; the help bundle keeps the whole table.
 */
function commandTableOf(name: CommandName | "all"): Plugin {
  return {
    name: "one-command-table",
    setup(build) {
      if (name === "all") return;
      build.onResolve({ filter: /^\.\/command-table\.ts$/ }, () => ({
        path: name,
        namespace: "command-table",
      }));
      build.onLoad({ filter: /.*/, namespace: "command-table" }, () => ({
        contents: `export const COMMANDS = { ${name}: () => import("./cli/commands/${name}.ts") };`,
        resolveDir: root,
        loader: "ts",
      }));
    },
  };
}

const shared = {
  absWorkingDir: root,
  bundle: true,
  platform: "node",
  target: "node24",
  minifySyntax: true,
  minifyWhitespace: true,
  // No keepNames: nothing here reads a function's or class's name (commander's error classes keep
  // theirs, as esbuild renames only what collides), and its __name() calls cost ~6 ms of CPU a run.
  legalComments: "none",
  metafile: true,
  logLevel: "warning",
} satisfies BuildOptions;

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
export async function buildCli(
  outDir = CLI_DIST,
): Promise<{ ms: number; bytes: number; files: number }> {
  const started = performance.now();
  // Any file changed from now on is newer than the bundle, so bin.cjs will not trust it.
  const builtAtMs = Date.now();
  rmSync(outDir, { recursive: true, force: true });
  const results = await Promise.all([
    // The entry: picks the command's bundle and runs it with a V8 code cache (cli/load-bundle.ts).
    // CommonJS like bin.cjs, which requires it: no ES module loader in a run.
    build({
      ...shared,
      entryPoints: { catalog: "cli/load-bundle.ts" },
      outfile: `${outDir}/catalog.cjs`,
      format: "cjs",
      define: { "import.meta.url": "__catalogUrl" },
      banner: { js: 'const __catalogUrl = require("node:url").pathToFileURL(__filename).href;' },
    }),
    // One self-contained CommonJS file per command (and one with all, for help): main.ts with that
    // command only. CommonJS because the loader runs it as a vm.Script, to cache its code.
    ...(["all", ...COMMAND_NAMES] as const).map((name) =>
      build({
        ...shared,
        entryPoints: { [`catalog-${name}`]: "cli/main.ts" },
        outdir: outDir,
        outExtension: { ".js": ".cjs" },
        format: "cjs",
        // main.ts finds the project root from its own address, as it does from the sources.
        define: { "import.meta.url": "__catalogUrl" },
        // A script run by vm.Script has no module loader: `import("node:path")` becomes require().
        supported: { "dynamic-import": false },
        banner: { js: 'const __catalogUrl = require("node:url").pathToFileURL(__filename).href;' },
        plugins: [englishOnlyZodLocales, childProcessOnFirstUse, commandTableOf(name)],
      }),
    ),
  ]);
  // Project files and the installed dependency set (npm ci rewrites node_modules/.package-lock.json).
  const inputs = [
    ...new Set(
      results.flatMap((result) =>
        Object.keys(result.metafile.inputs).filter(
          (path) => !/(^|\/)node_modules\//.test(path) && !path.includes(":"),
        ),
      ),
    ),
    "node_modules/.package-lock.json",
  ].sort();
  mkdirSync(outDir, { recursive: true });
  const manifest: BundleInputs = { builtAtMs, inputs };
  writeFileSync(`${outDir}/inputs.json`, `${JSON.stringify(manifest, null, 2)}\n`);
  const outputs = results.flatMap((result) => Object.values(result.metafile.outputs));
  return {
    ms: performance.now() - started,
    bytes: outputs.reduce((sum, output) => sum + output.bytes, 0),
    files: outputs.length,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { ms, bytes, files } = await buildCli();
  await stop();
  const entry = statSync(`${CLI_DIST}/catalog.cjs`).size;
  console.log(
    `cli/dist/catalog.cjs: ${files} files, ${(bytes / 1024).toFixed(0)} KiB (entry ${(entry / 1024).toFixed(0)} KiB) in ${ms.toFixed(0)} ms`,
  );
}
