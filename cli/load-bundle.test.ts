// The bundle's code cache (load-bundle.ts) only ever makes a run faster: the first run writes it,
// later runs read it, and a damaged, foreign or missing cache changes nothing a user sees.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentBundle } from "./testing/bundle.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
// The bundle of the current sources (cli/testing/bundle.ts); its code caches go to cacheRoot.
let outDir: string;
const cacheRoot = mkdtempSync(join(tmpdir(), "catalog-compile-cache-"));

function runEntry(entry: string, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [entry, ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", NODE_COMPILE_CACHE: cacheRoot, ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const run = (args: string[], env: Record<string, string> = {}) =>
  runEntry(join(outDir, "catalog.cjs"), args, env);

/** The code cache files of the validate bundle under the cache root (Node adds a version folder). */
function validateCaches(): string[] {
  return readdirSync(cacheRoot, { recursive: true, encoding: "utf8" })
    .filter((path) => /catalog-validate-[0-9a-f]{8}\.v8cache$/.test(path))
    .map((path) => join(cacheRoot, path));
}

/** The YAML parse cache files under the cache root (cli/core/parse-cache.ts). */
function parseCaches(): string[] {
  return readdirSync(cacheRoot, { recursive: true, encoding: "utf8" })
    .filter((path) => /catalog-yaml-[0-9a-f]{8}\.cache$/.test(path))
    .map((path) => join(cacheRoot, path));
}

describe("the CLI bundle's code cache", () => {
  let expected: ReturnType<typeof run>;
  beforeAll(async () => {
    outDir = await currentBundle();
    expected = runEntry(join(root, "cli/main.ts"), ["validate"]);
    expect(expected.code).toBe(0);
  }, 60_000);
  afterAll(() => {
    rmSync(cacheRoot, { recursive: true, force: true });
  });

  it("is written by the first run and read by the next, which answers the same", () => {
    expect(validateCaches()).toEqual([]);
    expect(run(["validate"])).toEqual(expected);
    const [cache] = validateCaches();
    expect(cache).toBeDefined();
    const written = readFileSync(cache as string);
    expect(run(["validate"])).toEqual(expected);
    // Accepted, so not written again.
    expect(readFileSync(cache as string).equals(written)).toBe(true);
  }, 60_000);

  it("answers the same from a damaged cache, and replaces it", () => {
    const [cache] = validateCaches();
    const whole = readFileSync(cache as string);
    // The stamp kept (same build), the compiled code cut short and then garbage.
    writeFileSync(cache as string, Buffer.concat([whole.subarray(0, 64), Buffer.alloc(4096, 7)]));
    expect(run(["validate"])).toEqual(expected);
    expect(readFileSync(cache as string).equals(whole.subarray(0, 64))).toBe(false);
    expect(readFileSync(cache as string).length).toBeGreaterThan(4096 + 64);
    expect(run(["validate"])).toEqual(expected);
  }, 60_000);

  it("is neither read nor written with Node's compile cache switched off", () => {
    for (const cache of validateCaches()) rmSync(cache);
    for (const cache of parseCaches()) rmSync(cache);
    expect(run(["validate"], { NODE_DISABLE_COMPILE_CACHE: "1" })).toEqual(expected);
    expect(validateCaches()).toEqual([]);
    expect(parseCaches()).toEqual([]);
  }, 60_000);

  it("sees an edit made after a run whose parsed files it kept, at the edit's line", () => {
    const work = mkdtempSync(join(tmpdir(), "catalog-edit-"));
    try {
      cpSync(join(root, "catalog"), join(work, "catalog"), { recursive: true });
      const validate = () => run(["validate", join(work, "catalog")]);
      const before = parseCaches().length;
      expect(validate().code).toBe(0);
      // A file of this folder's own.
      expect(parseCaches()).toHaveLength(before + 1);
      const plan = join(work, "catalog/plans/power.yaml");
      const text = readFileSync(plan, "utf8");
      writeFileSync(plan, text.replace(/price: [0-9.]+/, "price: -1"));
      const line = text.slice(0, text.search(/price: [0-9.]+/)).split("\n").length;
      const edited = validate();
      // What the TypeScript sources say with no cache of any kind, line included.
      const fresh = runEntry(join(root, "cli/main.ts"), ["validate", join(work, "catalog")], {
        NODE_DISABLE_COMPILE_CACHE: "1",
      });
      expect(edited).toEqual(fresh);
      expect(edited.code).toBe(1);
      expect(edited.stdout + edited.stderr).toContain(`power.yaml:${line} `);
      // And back: the original text is valid again.
      writeFileSync(plan, text);
      expect(validate().code).toBe(0);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 60_000);
});
