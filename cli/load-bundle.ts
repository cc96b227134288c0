// The bundle's entry, cli/dist/catalog.cjs (scripts/build-cli.ts, decision 0017): runs the bundle
// of the command named on the command line (cli/dist/catalog-<command>.cjs, or catalog-all.cjs
// for help and typos) with a V8 code cache taken at the end of a run.
//
// Why not only Node's compile cache: it stores each module's code as compiled when the module
// loads, so every function that V8 compiles lazily later (most of the YAML parser, zod's checks,
// the rules) is compiled again on every run. `vm.Script#createCachedData()` called after the run
// holds those functions too. The bundle is CommonJS because vm.Script runs scripts, not modules.
//
// The cache holds compiled code only, never a result: every run still reads and checks every file.
// It lives in Node's compile cache folder (os.tmpdir()/node-compile-cache, or NODE_COMPILE_CACHE;
// none with NODE_DISABLE_COMPILE_CACHE), one file per bundle, stamped with the bundle's size and
// modification time; V8 itself rejects a cache made by another V8 version or other flags.
import { namedCommand } from "./command-names.ts";
import { fnv1aHex } from "./core/fnv1a.ts";

// Node's modules through process.getBuiltinModule, not `import`: importing node:fs as a module
// builds its ES module facade, which reads every export, and its getters load all of node:stream
// (several milliseconds a run).
const { readFileSync, renameSync, statSync, writeFileSync } = process.getBuiltinModule("node:fs");
const { createRequire, enableCompileCache, getCompileCacheDir } =
  process.getBuiltinModule("node:module");
const { dirname } = process.getBuiltinModule("node:path");
const { fileURLToPath } = process.getBuiltinModule("node:url");
const { Script } = process.getBuiltinModule("node:vm");

enableCompileCache();

// V8 optimises a function in background threads once it has run a few hundred times. A run on the
// shipped catalogue ends before that work pays off, and on a busy 2-core machine those threads take
// the CPU from the run itself (about 20 ms of CPU for `validate`). Twenty to fifty times the usual
// thresholds: short runs stay in the interpreter and baseline code, a run on a catalogue 100 times
// larger still gets its hot loops optimised (as fast as with the defaults). Set before the bundle is
// compiled, so that its code cache is made and read under the same flags.
process
  .getBuiltinModule("node:v8")
  .setFlagsFromString(
    "--invocation-count-for-maglev=20000 --invocation-count-for-maglev-osr=5000 " +
      "--invocation-count-for-turbofan=60000 --invocation-count-for-osr=20000",
  );

/** Where this bundle's code cache is and what it must be stamped with; undefined: no cache. */
function cacheFor(file: string): { path: string; stamp: Buffer } | undefined {
  const dir = getCompileCacheDir();
  if (dir === undefined) return undefined;
  const { size, mtimeMs } = statSync(file);
  const name = file.replace(/^.*[/\\]/, "").replace(/\.cjs$/, "");
  return {
    path: `${dir}/${name}-${fnv1aHex(file)}.v8cache`,
    stamp: Buffer.from(`${size}:${mtimeMs}\n`),
  };
}

/** The cached code for `stamp`, or undefined when there is none or it is for another build. */
function readCache(path: string, stamp: Buffer): Buffer | undefined {
  try {
    const data = readFileSync(path);
    return data.subarray(0, stamp.length).equals(stamp) ? data.subarray(stamp.length) : undefined;
  } catch {
    return undefined;
  }
}

/** Best effort: a cache that cannot be written only means the next run compiles again. */
function writeCache(path: string, stamp: Buffer, code: Buffer): void {
  const partial = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(partial, Buffer.concat([stamp, code]));
    // A rename, so that a run starting meanwhile reads the old cache or the new one, never half.
    renameSync(partial, path);
  } catch {
    // Read-only or full temporary folder: nothing to do.
  }
}

/** Compiles and runs a CommonJS bundle (it starts its command itself) with the code cache. */
function run(file: string): void {
  const cache = cacheFor(file);
  const cachedData = cache && readCache(cache.path, cache.stamp);
  // The wrapper of Node's CommonJS loader, on the bundle's first line so line numbers hold.
  const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, "utf8")}\n})`;
  const script = new Script(source, { filename: file, ...(cachedData ? { cachedData } : {}) });
  if (cache && (cachedData === undefined || script.cachedDataRejected)) {
    // Taken at exit, after the command ran, so it holds every function the run compiled.
    process.once("exit", () => writeCache(cache.path, cache.stamp, script.createCachedData()));
  }
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
}

run(fileURLToPath(new URL(`catalog-${namedCommand(process.argv) ?? "all"}.cjs`, import.meta.url)));
