// `npm test`: every check CI runs, in order, stopping at the first failure.
// `node scripts/test.ts unit lint` runs only the named stages (same order).
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The JavaScript entry of a package's bin, run with this Node (24) rather than a shebang's. */
function bin(pkg: string, name: string): string {
  const manifest = JSON.parse(readFileSync(`${root}node_modules/${pkg}/package.json`, "utf8"));
  const entry = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.[name];
  if (!entry) throw new Error(`${pkg} has no bin named ${name}`);
  return `${root}node_modules/${pkg}/${entry}`;
}

type Stage = { name: string; title: string; commands: string[][]; needs?: string };

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
  },
  {
    name: "build",
    title: "site build (astro build), and the pages as of campaign edges for the browser tests",
    // The "as of" builds (scripts/pages-as-of.ts) come after dist/, here rather than inside a
    // Playwright worker, where each held the worker for tens of seconds (issue 17).
    commands: [[bin("astro", "astro"), "build"], ["scripts/pages-as-of.ts"]],
  },
  {
    name: "browser",
    title: "browser tests (playwright)",
    commands: [["scripts/ensure-chromium.ts"], [bin("@playwright/test", "playwright"), "test"]],
  },
];

function run(args: string[]): Promise<number> {
  return new Promise((done) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1" },
    });
    child.on("error", (error) => {
      console.error(error);
      done(1);
    });
    child.on("exit", (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

const seconds = (start: number) => `${((performance.now() - start) / 1000).toFixed(1)}s`;

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !stages.some((stage) => stage.name === name));
if (unknown.length > 0) {
  console.error(
    `test: unknown stage ${unknown.join(", ")}; stages: ${stages.map((s) => s.name).join(", ")}`,
  );
  process.exit(2);
}

const selected = wanted.length > 0 ? stages.filter((stage) => wanted.includes(stage.name)) : stages;
const timings: string[] = [];
const allStart = performance.now();
for (const stage of selected) {
  console.log(`\n=== test: ${stage.name}: ${stage.title} ===`);
  const start = performance.now();
  if (stage.needs && !existsSync(`${root}${stage.needs}`)) {
    console.error(`\n✗ test: stage "${stage.name}" cannot run: ${stage.needs} does not exist.`);
    process.exit(1);
  }
  for (const command of stage.commands) {
    const code = await run(command);
    if (code !== 0) {
      timings.push(`${stage.name} FAILED ${seconds(start)}`);
      console.error(
        `\n✗ test: stage "${stage.name}" (${stage.title}) failed with exit code ${code}.`,
      );
      console.error(`  timings: ${timings.join(", ")}`);
      // The plain closing line CI reads (stages, not single tests: each runner prints its own).
      console.log(`stages: ${timings.length - 1} passed, 1 failed`);
      process.exit(code);
    }
  }
  timings.push(`${stage.name} ${seconds(start)}`);
  console.log(`=== test: ${stage.name} passed in ${seconds(start)} ===`);
}
console.log(
  `\n✓ test: all ${selected.length} stage(s) passed in ${seconds(allStart)}: ${timings.join(", ")}`,
);
console.log(`stages: ${selected.length} passed, 0 failed`);
