// Wall time of `catalog validate` and `catalog build` on the shipped catalogue and on a generated
// one 100 times its size, each as a ratio to `node -e 0` measured in the same run (goals, issue
// 19: validate on the shipped catalogue within 4x Node's start-up; the 100x catalogue under 1 s).
// The CLI runs as npx runs it (cli/bin.cjs), from its bundle, rebuilt first (decision 0017); the
// same validate from the TypeScript sources is measured beside it for comparison.
// The headline ratio takes the median of RATIO_RUNS runs of each side, the two sides interleaved
// (node -e 0, validate, node -e 0, ...), so both see the same load on a shared machine; the load
// average is printed beside it. Validate is measured as it runs after any earlier run (Node's
// compile cache filled: decision 0017).
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const RUNS = 7;
const RATIO_RUNS = 21;

/** Wall time in milliseconds of one run of node with these arguments (which must succeed). */
function runMs(args: string[], cwd = root, env: NodeJS.ProcessEnv = process.env): number {
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, args, { cwd, encoding: "utf8", env });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (run.status !== 0) {
    throw new Error(`node ${args.join(" ")} exited ${run.status}:\n${run.stdout}${run.stderr}`);
  }
  return ms;
}

function median(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Median wall time in milliseconds of running node with these arguments. */
function medianMs(args: string[], cwd = root): number {
  return median(Array.from({ length: RUNS }, () => runMs(args, cwd)));
}

/**
 * Wall times of several commands run in turn, `runs` rounds of one run each, after one unmeasured
 * round (it fills Node's compile cache, as any earlier run would have): each
 * command's list of times, in round order.
 */
export function interleavedRuns(
  commands: Record<string, string[]>,
  runs: number,
): Record<string, number[]> {
  const times = Object.fromEntries(Object.keys(commands).map((name) => [name, [] as number[]]));
  for (let round = -1; round < runs; round++) {
    for (const [name, command] of Object.entries(commands)) {
      const ms = runMs(command);
      if (round >= 0) times[name]?.push(ms);
    }
  }
  return times;
}

/**
 * Copies the shipped catalogue and adds 99 renamed copies of every plan family, so the plan count
 * (the bulk of the data) is 100 times the shipped one. Codes get a numeric suffix to stay unique.
 */
export function makeLargeCatalog(factor = 100): string {
  const dir = mkdtempSync(join(tmpdir(), "catalog-x100-"));
  cpSync(join(root, "catalog"), dir, { recursive: true });
  const plansDir = join(dir, "plans");
  const families = readdirSync(plansDir).filter((f) => f.endsWith(".yaml"));
  const codes = new Set<string>();
  for (const file of families) {
    for (const m of readFileSync(join(plansDir, file), "utf8").matchAll(/\b(wv_[a-z0-9_]+)/g)) {
      codes.add(m[1] as string);
    }
  }
  // Longest first, so wv_single_plus_1m is renamed before wv_single_1m could match inside it.
  const ordered = [...codes].sort((a, b) => b.length - a.length);
  for (let copy = 1; copy < factor; copy++) {
    for (const file of families) {
      let text = readFileSync(join(plansDir, file), "utf8");
      text = text.replace(/^family: ([a-z0-9-]+)/m, `family: $1-x${copy}`);
      for (const code of ordered) {
        text = text.replace(new RegExp(`\\b${code}\\b`, "g"), `${code}_x${copy}`);
      }
      writeFileSync(join(plansDir, file.replace(".yaml", `-x${copy}.yaml`)), text);
    }
  }
  // Seat structures name the plans they price (appliesTo): the copies of a banded plan keep its
  // structure, so the structure lists them too.
  const bandsFile = join(dir, "seat-bands.yaml");
  const bands = readFileSync(bandsFile, "utf8").replace(
    /appliesTo: \[([^\]]*)\]/g,
    (_, list: string) => {
      const listed = list.split(",").map((code) => code.trim());
      const copies = listed.flatMap((code) =>
        Array.from({ length: factor - 1 }, (_, i) => `${code}_x${i + 1}`),
      );
      return `appliesTo: [${[...listed, ...copies].join(", ")}]`;
    },
  );
  writeFileSync(bandsFile, bands);
  return dir;
}

export async function benchCatalog(): Promise<Record<string, number>> {
  const { buildCli } = await import("./build-cli.ts");
  const bundle = await buildCli();
  // esbuild's service process stays up for later builds; there are none here.
  await (await import("esbuild")).stop();
  const loadBefore = loadavg()[0] ?? Number.NaN;
  const validateArgs = ["cli/bin.cjs", "validate", "catalog"];
  const headline = interleavedRuns(
    {
      nodeStart: ["-e", "0"],
      validate: validateArgs,
    },
    RATIO_RUNS,
  );
  const loadAfter = loadavg()[0] ?? Number.NaN;
  const nodeStarts = headline.nodeStart ?? [];
  const validates = headline.validate ?? [];
  const nodeStart = median(nodeStarts);
  const validate = median(validates);
  // Each round's validate over the node -e 0 run just before it: on a machine whose load comes in
  // bursts, the two runs of a round see nearly the same load, so this moves less than the ratio
  // of the medians.
  const pairedRatio = median(validates.map((ms, i) => ms / (nodeStarts[i] ?? Number.NaN)));
  const validateSources = medianMs(["cli/main.ts", "validate", "catalog"]);
  const large = makeLargeCatalog();
  const out = mkdtempSync(join(tmpdir(), "catalog-build-"));
  try {
    const build = medianMs(["cli/bin.cjs", "build", "--dir", "catalog", "--out", out]);
    const validateLarge = medianMs(["cli/bin.cjs", "validate", large]);
    const buildLarge = medianMs(["cli/bin.cjs", "build", "--dir", large, "--out", out]);
    return {
      "CLI bundle build (ms)": bundle.ms,
      "CLI bundle (KiB)": bundle.bytes / 1024,
      [`node -e 0 (ms, median of ${RATIO_RUNS}, interleaved)`]: nodeStart,
      [`validate shipped (ms, median of ${RATIO_RUNS}, interleaved)`]: validate,
      "validate shipped / node start (goal 4)": validate / nodeStart,
      "same, median of each round's ratio": pairedRatio,
      "load average before (1 min)": loadBefore,
      "load average after (1 min)": loadAfter,
      "validate shipped, sources unbundled (ms)": validateSources,
      "sources unbundled / node start": validateSources / nodeStart,
      "build shipped (ms)": build,
      "build shipped / node start": build / nodeStart,
      "validate 100x (ms, goal 1000)": validateLarge,
      "validate 100x / node start": validateLarge / nodeStart,
      "build 100x (ms)": buildLarge,
      "build 100x / node start": buildLarge / nodeStart,
    };
  } finally {
    rmSync(large, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await benchCatalog();
  for (const [name, value] of Object.entries(figures)) {
    console.log(`${name.padEnd(56)} ${value.toFixed(name.includes("/") ? 2 : 1)}`);
  }
}
