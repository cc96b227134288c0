import { describe, expect, it } from "vitest";
import { runStages, type Stage } from "./stages.ts";

/** Commands that end when the test says so; what started, in order; one log. */
function fakeMachine(missing: string[] = []) {
  const started: string[] = [];
  const ends = new Map<string, (code: number) => void>();
  const writers = new Map<string, (chunk: string) => void>();
  let clock = 0;
  let log = "";
  const deps = {
    cores: 2,
    run: (command: string[], write: (chunk: string) => void) =>
      new Promise<number>((resolve) => {
        const name = command.join(" ");
        started.push(name);
        ends.set(name, resolve);
        writers.set(name, write);
      }),
    out: (chunk: string | Uint8Array) => {
      log += String(chunk);
    },
    now: () => clock,
    exists: (path: string) => !missing.includes(path),
    label: (command: string[]) => command.join(" "),
  };
  /** Ends a running command (after it printed `said`) and lets the runner react. */
  const end = async (name: string, code = 0, said = `${name} says hi\n`) => {
    const resolve = ends.get(name);
    if (!resolve) throw new Error(`${name} is not running (started: ${started.join(", ")})`);
    writers.get(name)?.(said);
    ends.delete(name);
    clock += 1000;
    resolve(code);
    await new Promise((r) => setTimeout(r, 0));
  };
  return { deps, started, end, log: () => log, running: () => [...ends.keys()] };
}

/** The shape of npm test's table (scripts/test.ts). */
const table: Stage[] = [
  { name: "catalog", title: "cat", commands: [["bundle"], ["check"]], needs: "cli/bin.cjs" },
  { name: "types", title: "ty", commands: [["astro-check"], ["tsc"]], together: true },
  { name: "lint", title: "li", commands: [["biome"]] },
  { name: "unit", title: "un", commands: [["vitest"]], after: ["catalog"], fillsMachine: true },
  {
    name: "build",
    title: "bu",
    commands: [["astro-build"], ["as-of"]],
    after: ["catalog", "types"],
  },
  {
    name: "browser",
    title: "br",
    commands: [["playwright"]],
    after: ["catalog", "types", "lint", "unit", "build"],
    fillsMachine: true,
    early: [["install"]],
  },
];

describe("npm test's stages", () => {
  it("start as soon as what they come after passed and a core is free", async () => {
    const m = fakeMachine();
    const done = runStages(table, m.deps);
    // The install holds no core; the catalog and the long single-threaded check share the two.
    expect(m.running()).toEqual(["install", "bundle", "astro-check"]);
    await m.end("bundle");
    expect(m.running()).toEqual(["install", "astro-check", "check"]);
    await m.end("check");
    expect(m.running()).toEqual(["install", "astro-check", "tsc"]);
    await m.end("tsc");
    expect(m.running()).toEqual(["install", "astro-check", "biome"]);
    await m.end("install");
    await m.end("biome");
    // The unit tests start beside the one check still running, and nothing starts beside them.
    expect(m.running()).toEqual(["astro-check", "vitest"]);
    await m.end("astro-check");
    expect(m.running()).toEqual(["vitest"]);
    await m.end("vitest");
    expect(m.running()).toEqual(["astro-build"]);
    await m.end("astro-build");
    await m.end("as-of");
    expect(m.running()).toEqual(["playwright"]);
    await m.end("playwright");
    const result = await done;
    expect(result).toEqual({
      code: 0,
      passed: 6,
      failed: 0,
      timings: [
        "catalog 2.0s",
        "types 6.0s",
        "lint 2.0s",
        "unit 2.0s",
        "build 2.0s",
        "browser 1.0s",
      ],
    });
  });

  it("print each stage's output whole and in the table's order, whichever ran first", async () => {
    const m = fakeMachine();
    const done = runStages(table, m.deps);
    await m.end("bundle");
    await m.end("check");
    await m.end("tsc", 0, "tsc: fine\n");
    await m.end("biome", 0, "biome: fine\n");
    await m.end("install", 0, "installed\n");
    // Lint has ended, but types still runs: the lint's lines wait for the types'.
    expect(m.log()).not.toContain("biome: fine");
    await m.end("astro-check", 0, "astro: fine\n");
    await m.end("vitest", 0, "vitest: 10 passed\n");
    await m.end("astro-build");
    await m.end("as-of");
    await m.end("playwright", 0, "playwright: 3 passed\n");
    await done;
    const log = m.log();
    const order = [
      "=== test: catalog: cat ===",
      "=== test: catalog passed in 2.0s ===",
      "=== test: types: ty ===",
      "--- astro-check (exit code 0) ---\nastro: fine",
      "--- tsc (exit code 0) ---\ntsc: fine",
      "=== test: types passed",
      "=== test: lint: li ===\nbiome: fine",
      "=== test: unit: un ===\nvitest: 10 passed",
      "=== test: build: bu ===",
      "=== test: browser: br ===\n--- install (beside the stages before it: 5.0s) ---\ninstalled\nplaywright: 3 passed",
      "=== test: browser passed in 1.0s ===",
    ];
    const at = order.map((part) => log.indexOf(part));
    expect(
      at.every((i) => i >= 0),
      log,
    ).toBe(true);
    expect(at, log).toEqual([...at].sort((a, b) => a - b));
  });

  it("start nothing new after a failure, let what runs end, and report the first failed stage's code", async () => {
    const m = fakeMachine();
    const done = runStages(table, m.deps);
    await m.end("bundle");
    await m.end("check");
    await m.end("tsc");
    await m.end("biome");
    expect(m.running()).toEqual(["install", "astro-check", "vitest"]);
    await m.end("astro-check", 2, "src/a.ts: error\n");
    // The unit tests go on to their end (their result is worth having); the build never starts.
    expect(m.running()).toEqual(["install", "vitest"]);
    await m.end("vitest", 1);
    await m.end("install");
    const result = await done;
    expect(m.started).not.toContain("astro-build");
    expect(m.started).not.toContain("playwright");
    expect(result).toEqual({
      code: 2,
      passed: 2,
      failed: 2,
      timings: [
        "catalog 2.0s",
        "types FAILED 5.0s",
        "lint 1.0s",
        "unit FAILED 2.0s",
        "build not run",
        "browser not run",
      ],
    });
    expect(m.log()).toContain(
      '--- astro-check (exit code 2) ---\nsrc/a.ts: error\n--- tsc (exit code 0) ---\ntsc says hi\n\n✗ test: stage "types" (ty) failed with exit code 2.',
    );
  });

  it("fail a stage whose early command failed, showing what it printed, when the stage's turn comes", async () => {
    const m = fakeMachine();
    const done = runStages(table, m.deps);
    await m.end("install", 100, "E: Unable to locate package chromium\n");
    for (const name of ["bundle", "check", "tsc", "biome", "astro-check", "vitest"]) {
      await m.end(name);
    }
    await m.end("astro-build");
    await m.end("as-of");
    const result = await done;
    expect(m.started).not.toContain("playwright");
    expect(result.code).toBe(100);
    expect(result.timings.at(-1)).toBe("browser FAILED 0.0s");
    expect(m.log()).toContain(
      'E: Unable to locate package chromium\n\n✗ test: stage "browser" (br) failed: install exited with 100.',
    );
  });

  it("run the commands of a stage one after another, and not the rest after one failed", async () => {
    const m = fakeMachine();
    const done = runStages(table.slice(0, 1), m.deps);
    expect(m.running()).toEqual(["bundle"]);
    await m.end("bundle", 1);
    const result = await done;
    expect(m.started).toEqual(["bundle"]);
    expect(result).toMatchObject({ code: 1, passed: 0, failed: 1 });
  });

  it("refuse a stage whose needed file does not exist", async () => {
    const m = fakeMachine(["cli/bin.cjs"]);
    const result = await runStages(table.slice(0, 3), m.deps);
    expect(m.started).toEqual([]);
    expect(result.timings).toEqual(["catalog FAILED 0.0s", "types not run", "lint not run"]);
    expect(m.log()).toContain('stage "catalog" (cat) cannot run: cli/bin.cjs does not exist.');
  });
});
