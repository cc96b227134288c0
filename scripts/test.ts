// `npm test`: every check CI runs. A stage starts once the stages it comes after have passed and
// a core is free, so single-threaded checks run beside each other (scripts/stages.ts, decision
// 0072); after a failure nothing new starts. The log reads in the table's order, with each
// stage's time. `node scripts/test.ts unit lint` runs only the named stages.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { runStages, type Stage } from "./stages.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The JavaScript entry of a package's bin, run with this Node (24) rather than a shebang's. */
function bin(pkg: string, name: string): string {
  const manifest = JSON.parse(readFileSync(`${root}node_modules/${pkg}/package.json`, "utf8"));
  const entry = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.[name];
  if (!entry) throw new Error(`${pkg} has no bin named ${name}`);
  return `${root}node_modules/${pkg}/${entry}`;
}

const stages: Stage[] = [
  {
    name: "catalog",
    title: "CLI bundle built; catalogue build output is up to date",
    // The bundle is not committed (decision 0017): built here, so that every later stage and
    // every test that runs `catalog` runs what this commit's sources make.
    commands: [["scripts/build-cli.ts"], ["cli/bin.cjs", "build", "--check"]],
    needs: "cli/bin.cjs",
  },
  {
    name: "types",
    title: "type check (astro check; browser code without Node's types)",
    commands: [
      [bin("astro", "astro"), "check"],
      [bin("typescript", "tsc"), "-p", "tsconfig.browser.json"],
    ],
    // Two single-threaded checks of different configurations on a 2-core machine (decision 0030).
    together: true,
  },
  {
    name: "lint",
    title: "lint and format (biome ci)",
    commands: [[bin("@biomejs/biome", "biome"), "ci", "."]],
  },
  {
    name: "unit",
    title: "unit and component tests (vitest)",
    commands: [[bin("vitest", "vitest"), "run"]],
    // Tests run the catalog's bundle as `npx catalog` does.
    after: ["catalog"],
    fillsMachine: true,
  },
  {
    name: "build",
    title: "site build (astro build), and the pages as of campaign edges for the browser tests",
    // The "as of" builds (scripts/pages-as-of.ts) come after dist/, here rather than inside a
    // Playwright worker, where each held the worker for tens of seconds (issue 17).
    commands: [[bin("astro", "astro"), "build"], ["scripts/pages-as-of.ts"]],
    // astro build and astro check both write the generated types in .astro/ as they start.
    after: ["catalog", "types"],
  },
  {
    name: "browser",
    title: "browser tests (playwright)",
    commands: [[bin("@playwright/test", "playwright"), "test"]],
    // The longest stage, and the one that fills the machine most: last, once everything else
    // passed, so a failure anywhere reports in a minute or two rather than after it.
    after: ["catalog", "types", "lint", "unit", "build"],
    fillsMachine: true,
    // Installing the browsers (a new machine: ~15 s of download and unpacking) happens while
    // the other stages run.
    early: [["scripts/ensure-chromium.ts"]],
  },
];

/** Runs a command with this Node, its output (stdout and stderr) to `write`. */
function run(args: string[], write: (chunk: string | Uint8Array) => void): Promise<number> {
  return new Promise((done) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      // Output goes through a pipe now (held or passed on): keep a terminal's colours.
      env: {
        ...process.env,
        ASTRO_TELEMETRY_DISABLED: "1",
        ...(process.stdout.isTTY ? { FORCE_COLOR: "1" } : {}),
      },
    });
    child.stdout?.on("data", write);
    child.stderr?.on("data", write);
    child.on("error", (error) => {
      write(`${String(error)}\n`);
      done(1);
    });
    child.on("close", (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !stages.some((stage) => stage.name === name));
if (unknown.length > 0) {
  console.error(
    `test: unknown stage ${unknown.join(", ")}; stages: ${stages.map((s) => s.name).join(", ")}`,
  );
  process.exit(2);
}

const selected = wanted.length > 0 ? stages.filter((stage) => wanted.includes(stage.name)) : stages;
const allStart = performance.now();
const result = await runStages(selected, {
  cores: availableParallelism(),
  run,
  out: (chunk) => process.stdout.write(chunk),
  now: () => performance.now(),
  exists: (path) => existsSync(`${root}${path}`),
  label: (command) => command.map((part) => part.replace(`${root}node_modules/`, "")).join(" "),
});
const total = ((performance.now() - allStart) / 1000).toFixed(1);
if (result.failed > 0) {
  console.error(
    `\n✗ test: ${result.failed} stage(s) failed after ${total}s; timings: ${result.timings.join(", ")}`,
  );
} else {
  console.log(
    `\n✓ test: all ${selected.length} stage(s) passed in ${total}s: ${result.timings.join(", ")}`,
  );
}
// The plain closing line CI reads (stages, not single tests: each runner prints its own).
console.log(`stages: ${result.passed} passed, ${result.failed} failed`);
process.exit(result.code);
