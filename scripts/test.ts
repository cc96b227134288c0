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

type Stage = {
  name: string;
  title: string;
  commands: string[][];
  needs?: string;
  /**
   * Run the commands at once, each one's output held back and printed whole, in order, when all
   * have ended: neither waits for the other, and a failure still reads as one command's output.
   */
  together?: boolean;
};

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

/** Runs a command with this Node; its output goes to the terminal, or into `held` when given. */
function run(args: string[], held?: Buffer[]): Promise<number> {
  return new Promise((done) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      stdio: held ? ["ignore", "pipe", "pipe"] : "inherit",
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1", ...(held ? { FORCE_COLOR: "1" } : {}) },
    });
    child.stdout?.on("data", (chunk: Buffer) => held?.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => held?.push(chunk));
    child.on("error", (error) => {
      console.error(error);
      done(1);
    });
    child.on("close", (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

/** The commands of a `together` stage: the first failing exit code (0 when none failed). */
async function runTogether(commands: string[][]): Promise<number> {
  const outputs = commands.map(() => [] as Buffer[]);
  const codes = await Promise.all(commands.map((command, i) => run(command, outputs[i])));
  let failed = 0;
  commands.forEach((command, i) => {
    const name = command.map((part) => part.replace(`${root}node_modules/`, "")).join(" ");
    console.log(`--- ${name} (exit code ${codes[i]}) ---`);
    process.stdout.write(Buffer.concat(outputs[i] ?? []));
    if (codes[i] !== 0 && failed === 0) failed = codes[i] ?? 1;
  });
  return failed;
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
  // A together stage is one step of all its commands; otherwise each command is a step.
  const steps = stage.together ? [stage.commands] : stage.commands.map((command) => [command]);
  for (const step of steps) {
    const code = step.length > 1 ? await runTogether(step) : await run(step[0] ?? []);
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
