// Bundles the `catalog` CLI (cli/main.ts and everything it imports, dependencies included) into
// cli/dist/catalog.mjs with esbuild, one chunk per command so each still loads only when it runs.
// cli/bin.js runs the bundle while it is current (cli/dist/inputs.json: every project file it was
// built from, none changed since) and the TypeScript sources otherwise. Decision 0017.
// Run by `npm run build`, `npm run build:cli`, the first stage of `npm test` and `npm run bench`.
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
export const CLI_DIST = `${root}cli/dist`;

/** The manifest bin.js checks: when the bundle was built, and the files it was built from. */
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

/** Builds the bundle into `outDir` (default cli/dist, the one bin.js runs); returns its figures. */
export async function buildCli(
  outDir = CLI_DIST,
): Promise<{ ms: number; bytes: number; files: number }> {
  const started = performance.now();
  // Any file changed from now on is newer than the bundle, so bin.js will not trust it.
  const builtAtMs = Date.now();
  rmSync(outDir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { catalog: "cli/main.ts" },
    outdir: outDir,
    outExtension: { ".js": ".mjs" },
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node24",
    minifySyntax: true,
    minifyWhitespace: true,
    keepNames: true,
    legalComments: "none",
    metafile: true,
    plugins: [englishOnlyZodLocales],
    logLevel: "warning",
    // A few dependencies are CommonJS and call require() for Node's own modules.
    banner: {
      js: 'import { createRequire as __catalogRequire } from "node:module"; const require = __catalogRequire(import.meta.url);',
    },
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
  const outputs = Object.entries(result.metafile.outputs);
  return {
    ms: performance.now() - started,
    bytes: outputs.reduce((sum, [, output]) => sum + output.bytes, 0),
    files: outputs.length,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { ms, bytes, files } = await buildCli();
  const entry = statSync(`${CLI_DIST}/catalog.mjs`).size;
  console.log(
    `cli/dist/catalog.mjs: ${files} files, ${(bytes / 1024).toFixed(0)} KiB (entry ${(entry / 1024).toFixed(0)} KiB) in ${ms.toFixed(0)} ms`,
  );
}
