// The CLI bundle (decision 0017) answers exactly as the TypeScript sources do, and its manifest
// lists the project files it was built from, which is what bin.cjs checks before running it.
// The bundle is buildCli()'s from the current sources: the one `npm test`'s catalog stage built
// when nothing changed since, else one built for this run (cli/testing/bundle.ts).
import { spawnSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { currentBundle } from "../cli/testing/bundle.ts";
import { type BundleInputs, bundleIsCurrent } from "./build-cli.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
let outDir: string;

function run(entry: string, args: string[]) {
  const result = spawnSync(process.execPath, [entry, ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("the catalog CLI bundle", () => {
  beforeAll(async () => {
    outDir = await currentBundle();
  }, 60_000);

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

  it("lists the project files it was built from", () => {
    expect(readdirSync(outDir).sort()).toEqual(["catalog.cjs", "inputs.json"]);
    const manifest: BundleInputs = JSON.parse(readFileSync(join(outDir, "inputs.json"), "utf8"));
    expect(manifest.builtAtMs).toBeLessThanOrEqual(Date.now());
    expect(manifest.inputs).toContain("cli/main.ts");
    expect(manifest.inputs).toContain("cli/commands/validate.ts");
    expect(manifest.inputs).toContain("src/domain/catalog/validate.ts");
    expect(manifest.inputs).toContain("node_modules/.package-lock.json");
    expect(manifest.inputs.filter((path) => path.includes("node_modules/zod"))).toEqual([]);
  });
});

describe("whether a built bundle is current", () => {
  it("is not once a file it was built from, or the build script, changed after it was built", () => {
    expect(bundleIsCurrent(outDir)).toBe(true);
    // A project of two files and a bundle built after both.
    const project = mkdtempSync(join(tmpdir(), "catalog-current-"));
    try {
      const dist = join(project, "dist");
      mkdirSync(join(project, "scripts"));
      mkdirSync(dist);
      for (const file of ["main.ts", "scripts/build-cli.ts"])
        writeFileSync(join(project, file), "");
      const builtAtMs = Date.now() + 60_000;
      const manifest: BundleInputs = { builtAtMs, inputs: ["main.ts"] };
      writeFileSync(join(dist, "inputs.json"), JSON.stringify(manifest));
      expect(bundleIsCurrent(dist, `${project}/`)).toBe(true);
      for (const file of ["main.ts", "scripts/build-cli.ts"]) {
        const path = join(project, file);
        utimesSync(path, new Date(), new Date(builtAtMs + 1000));
        expect(bundleIsCurrent(dist, `${project}/`), file).toBe(false);
        utimesSync(path, new Date(), new Date(builtAtMs - 1000));
        expect(bundleIsCurrent(dist, `${project}/`), file).toBe(true);
      }
      rmSync(join(project, "main.ts"));
      expect(bundleIsCurrent(dist, `${project}/`)).toBe(false);
      expect(bundleIsCurrent(join(project, "nowhere"), `${project}/`)).toBe(false);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
