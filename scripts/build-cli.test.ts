// The CLI bundle (decision 0017) answers exactly as the TypeScript sources do, and its manifest
// lists the project files it was built from, which is what bin.cjs checks before running it.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BundleInputs, buildCli } from "./build-cli.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const outDir = mkdtempSync(join(tmpdir(), "catalog-bundle-"));

function run(entry: string, args: string[]) {
  const result = spawnSync(process.execPath, [entry, ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("the catalog CLI bundle", () => {
  let figures: Awaited<ReturnType<typeof buildCli>>;
  beforeAll(async () => {
    figures = await buildCli(outDir);
  }, 60_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it("prints what the sources print, for validate, quote and an unknown command", () => {
    const bundle = join(outDir, "catalog.cjs");
    const sources = join(root, "cli/main.ts");
    for (const args of [
      ["validate", "--json"],
      ["quote", "--plan", "wv_single_12m", "--seats", "3", "--at", "2026-01-10", "--json"],
      ["quote", "--plan", "nope", "--json"],
      ["frobnicate"],
    ]) {
      expect(run(bundle, args), args.join(" ")).toEqual(run(sources, args));
    }
  }, 60_000);

  it("splits commands into their own chunks and lists its project inputs", () => {
    expect(figures.files).toBeGreaterThan(5);
    const manifest: BundleInputs = JSON.parse(readFileSync(join(outDir, "inputs.json"), "utf8"));
    expect(manifest.builtAtMs).toBeLessThanOrEqual(Date.now());
    expect(manifest.inputs).toContain("cli/main.ts");
    expect(manifest.inputs).toContain("cli/commands/validate.ts");
    expect(manifest.inputs).toContain("src/domain/catalog/validate.ts");
    expect(manifest.inputs).toContain("node_modules/.package-lock.json");
    expect(manifest.inputs.filter((path) => path.includes("node_modules/zod"))).toEqual([]);
  });
});
