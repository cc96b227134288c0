// Figures of the checkout app (issue 9): Lighthouse 13's mobile preset on /cart#plans and on the
// checkout screen, signed in, against the built site and the real API server (sandbox payments,
// the demo accounts), and the compressed JavaScript of each screen and step. On the checkout
// screen the payment step, and with it the sandbox card fields, mounts during the measured load,
// so its layout shift counts; the run checks that they did mount. `npm run bench` runs it with the
// other benches; `node scripts/bench-cart.ts` alone (after `npm run build`). The pages are served
// from a build of the bench's own, the production site plus the floor page (BENCH_FLOOR=1,
// astro.config.mjs), which the production site does not ship.
// Goals: performance ≥ 95 (median of 5), total blocking time within 100 ms of the floor page's
// (an empty React island in the same build, measured in the same run), layout shift ≤ 0.01.
// Lighthouse's blocking time is wall time, which on a shared machine grows with its load; the
// same loads are also counted in CPU time (scripts/cart-cpu.ts), five of each page taken in turn,
// and the goal of 100 ms above the floor is checked on those figures (decision 0061).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { type Page, chromium as playwright } from "@playwright/test";
import lighthouse from "lighthouse";
import { hrefFor } from "../src/domain/checkout/screens.ts";
import { startServer } from "../src/server/main.ts";
import { createStaticHandler } from "../src/server/static-files.ts";
import { startChromium } from "./bench-pages.ts";
import { cartPageScripts, dynamicImports, staticImports } from "./cart-bundle.ts";
import { type LoadCpu, measureLoad } from "./cart-cpu.ts";

const distDir = fileURLToPath(new URL("../dist/", import.meta.url));

/** The demo account the runs sign in as: a free user with no saved card, so the card fields show. */
export const BENCH_ACCOUNT = "free@demo.test";
export const GOALS = { performance: 95, totalBlockingTimeMs: 100, layoutShift: 0.01 } as const;

const SCREENS = {
  // The floor (issue 22, item 12): an empty React island in the same build, measured in the same
  // run, so /cart's figures read as a difference from it whatever the machine's load.
  "floor (empty island)": "/bench/floor/",
  "/cart#plans": hrefFor("plans", undefined, { via: "hash" }),
  "checkout (Power annual)": hrefFor("checkout", { product: "wv_single_12m" }, { via: "hash" }),
};

/** What shows each screen has loaded, for the CPU runs (Lighthouse waits for quiet instead). */
const READY: Record<keyof typeof SCREENS, (page: Page) => Promise<unknown>> = {
  "floor (empty island)": (page) => page.getByText("Nothing here").waitFor(),
  "/cart#plans": (page) => page.getByRole("heading", { level: 1, name: "Plans" }).waitFor(),
  "checkout (Power annual)": (page) => page.getByLabel("Card number").waitFor(),
};

type Figures = Record<string, number | string>;
type Run = { performance: number; tbt: number; cls: number; shifts: string };

async function lighthouseRun(url: string, port: number): Promise<Run> {
  const result = await lighthouse(url, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance"],
    // The session cookie of the signed-in account must survive Lighthouse's start.
    disableStorageReset: true,
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
  return {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    tbt: lhr.audits["total-blocking-time"]?.numericValue ?? Number.NaN,
    cls: lhr.audits["cumulative-layout-shift"]?.numericValue ?? Number.NaN,
    shifts: shiftSources(lhr.audits["layout-shifts"]?.details),
  };
}

/** What moved, by Lighthouse's layout-shifts audit: the element and its share of the shift. */
function shiftSources(details: unknown): string {
  const items =
    (details as { items?: { node?: { selector?: string }; score?: number }[] } | undefined)
      ?.items ?? [];
  return (
    items
      .map((item) => `${item.node?.selector ?? "?"} ${(item.score ?? 0).toFixed(3)}`)
      .join("; ") || "none"
  );
}

/** Runs per page; the median is reported (issue 22: the median of 5). */
const RUNS = 5;

/**
 * Each run's own address (`bench=<n>` in the query, which the app ignores): Lighthouse records no
 * navigation when the tab is already at the address and only the hash would change (NO_NAVSTART).
 */
function runUrl(origin: string, path: string, run: number): string {
  const url = new URL(path, origin);
  url.searchParams.set("bench", String(run + 1));
  return url.href;
}
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/**
 * The screens' loads in CPU time, the floor first: RUNS rounds, each loading every screen once,
 * so a change in the machine's load touches every screen alike; medians, and each screen against
 * the floor of the same run. Returns the figures and the goals missed.
 */
async function cpuFigures(
  page: Page,
  origin: string,
): Promise<{ figures: Figures; missed: string[] }> {
  const runs = new Map<string, LoadCpu[]>();
  for (let i = 0; i < RUNS; i++) {
    for (const [name, path] of Object.entries(SCREENS) as [keyof typeof SCREENS, string][]) {
      const load = await measureLoad(page, runUrl(origin, path, 100 + i), READY[name]);
      runs.set(name, [...(runs.get(name) ?? []), load]);
    }
  }
  const figures: Figures = {};
  const missed: string[] = [];
  const at = (name: string, key: keyof LoadCpu) =>
    median((runs.get(name) ?? []).map((r) => r[key]));
  const [floor] = Object.keys(SCREENS);
  for (const name of Object.keys(SCREENS)) {
    figures[`${name} main-thread CPU (ms)`] = Math.round(at(name, "taskCpuMs"));
    figures[`${name} script CPU (ms)`] = Math.round(at(name, "scriptCpuMs"));
    figures[`${name} blocking at 4x CPU (ms)`] = Math.round(at(name, "blockingAt4xMs"));
    figures[`${name} longest task at 4x CPU (ms)`] = Math.round(at(name, "longestTaskAt4xMs"));
    if (!floor || name === floor) continue;
    const above = at(name, "blockingAt4xMs") - at(floor, "blockingAt4xMs");
    figures[`${name} CPU / floor CPU`] = (at(name, "taskCpuMs") / at(floor, "taskCpuMs")).toFixed(
      2,
    );
    figures[`${name} blocking at 4x above the floor (ms)`] = Math.round(above);
    if (above > GOALS.totalBlockingTimeMs)
      missed.push(`${name} blocking at 4x CPU ${Math.round(above)} ms above the floor`);
  }
  return { figures, missed };
}

/** Gzip -9 bytes of a chunk and what it imports statically beyond `known` files. */
function chunkBytes(url: string, known: Set<string>): { files: string[]; bytes: number } {
  const files: string[] = [];
  const queue = [url];
  while (queue.length > 0) {
    const next = queue.pop() as string;
    if (known.has(next) || files.includes(next)) continue;
    files.push(next);
    const code = readFileSync(join(distDir, next), "utf8");
    for (const spec of staticImports(code))
      if (spec.startsWith("./")) queue.push(`/_astro/${spec.slice(2)}`);
  }
  const bytes = files.reduce(
    (sum, file) => sum + gzipSync(readFileSync(join(distDir, file)), { level: 9 }).length,
    0,
  );
  return { files, bytes };
}

/**
 * JavaScript per screen: the shell every /cart page loads, then each chunk loaded with import()
 * (screens, the payment step, the providers' SDK chunks) with what it adds beyond the shell.
 */
export function screenBytes(): Figures {
  const [page] = cartPageScripts(distDir).filter((p) => p.page === "/cart");
  if (!page) throw new Error("dist/cart/index.html is missing: run `npm run build` first.");
  const shell = new Set(page.files.filter((f) => !page.largestScreen.files.includes(f)));
  const figures: Figures = { "shell (every /cart page)": page.shellBytes };
  const seen = new Set<string>();
  // Each chunk with what has loaded before it: the shell, and the chunks that imported it.
  const queue: { url: string; loaded: Set<string> }[] = [...shell].map((url) => ({
    url,
    loaded: shell,
  }));
  while (queue.length > 0) {
    const { url, loaded } = queue.shift() as { url: string; loaded: Set<string> };
    const code = readFileSync(join(distDir, url), "utf8");
    for (const spec of dynamicImports(code)) {
      if (!spec.startsWith("./")) continue;
      const chunk = `/_astro/${spec.slice(2)}`;
      if (seen.has(chunk) || loaded.has(chunk)) continue;
      seen.add(chunk);
      const { files, bytes } = chunkBytes(chunk, loaded);
      figures[`+ ${chunk.replace(/^\/_astro\/|\.[\w-]+\.js$/g, "")}`] = bytes;
      queue.push({ url: chunk, loaded: new Set([...loaded, ...files]) });
    }
    // A chunk's static imports may import() too (the payment step's SDK loaders).
    for (const spec of staticImports(code)) {
      const next = spec.startsWith("./") ? `/_astro/${spec.slice(2)}` : null;
      if (next && !loaded.has(next) && !seen.has(next)) {
        seen.add(next);
        queue.push({ url: next, loaded });
      }
    }
  }
  return figures;
}

/** The site built with the floor page into a temporary folder (removed by the caller). */
function buildWithFloor(): string {
  const outDir = mkdtempSync(join(tmpdir(), "bench-cart-site-"));
  const astro = fileURLToPath(new URL("../node_modules/astro/bin/astro.mjs", import.meta.url));
  const built = spawnSync(process.execPath, [astro, "build", "--outDir", outDir], {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    env: { ...process.env, BENCH_FLOOR: "1" },
    encoding: "utf8",
  });
  if (built.status !== 0) throw new Error(`astro build for the bench failed:\n${built.stderr}`);
  return outDir;
}

export async function benchCart(): Promise<Figures> {
  const siteDir = buildWithFloor();
  const dataDir = mkdtempSync(join(tmpdir(), "bench-cart-"));
  const running = await startServer({
    port: 0,
    host: "127.0.0.1",
    staticHandler: createStaticHandler(siteDir),
    env: { DATA_DIR: dataDir, PAYMENTS: "sandbox", SEED: "true", RENEWAL_INTERVAL_SECONDS: "0" },
    log: { info() {}, warn() {}, error: (message) => console.error(message) },
  });
  const origin = running.url.replace("localhost", "127.0.0.1");
  const figures: Figures = { "signed in as": BENCH_ACCOUNT };
  const missed: string[] = [];
  let browser: Awaited<ReturnType<typeof playwright.connectOverCDP>> | undefined;
  let chromium: Awaited<ReturnType<typeof startChromium>> | undefined;
  try {
    // Inside the try: a browser that fails to start still closes the server and its data folder.
    chromium = await startChromium();
    // Sign in through the page, as a person would: the cookie lands in the browser's profile.
    browser = await playwright.connectOverCDP(`http://127.0.0.1:${chromium.port}`);
    const page = await browser.contexts()[0]?.newPage();
    if (!page) throw new Error("no browser context to sign in with");
    await page.goto(`${origin}/cart/login`);
    await page.getByLabel("E-mail").fill(BENCH_ACCOUNT);
    await page.getByLabel("Password").fill("demo-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/cart\/plans/);

    // The floor is measured first; each screen's blocking time is then read against it.
    let floorTbt: number | null = null;
    for (const [name, path] of Object.entries(SCREENS)) {
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i++) {
        // Under heavy load Lighthouse sometimes loses the trace (NO_NAVSTART): that run is taken
        // again, at its own new address, up to twice; any other failure stops the bench.
        for (let attempt = 0; ; attempt++) {
          try {
            runs.push(await lighthouseRun(runUrl(origin, path, i + attempt * RUNS), chromium.port));
            break;
          } catch (error) {
            if (attempt >= 2 || !String(error).includes("NO_NAVSTART")) throw error;
          }
        }
      }
      const run = {
        performance: median(runs.map((r) => r.performance)),
        tbt: median(runs.map((r) => r.tbt)),
        cls: median(runs.map((r) => r.cls)),
      };
      figures[`${name} Lighthouse mobile performance`] = run.performance;
      figures[`${name} total blocking time (ms)`] = Math.round(run.tbt);
      figures[`${name} cumulative layout shift`] = run.cls.toFixed(3);
      figures[`${name} what moved (last run)`] = runs.at(-1)?.shifts ?? "";
      const floor = floorTbt;
      if (floor === null) {
        floorTbt = run.tbt;
        continue;
      }
      figures[`${name} TBT above the floor (ms)`] = Math.round(run.tbt - floor);
      figures[`${name} TBT / floor TBT`] = floor > 0 ? (run.tbt / floor).toFixed(2) : "floor 0 ms";
      if (run.performance < GOALS.performance)
        missed.push(`${name} performance ${run.performance}`);
      // Lighthouse's blocking time above the floor is reported, not checked: its wall time moves
      // with the machine's load. The goal is checked on the same loads in CPU time (below).
      if (run.cls > GOALS.layoutShift) missed.push(`${name} CLS ${run.cls.toFixed(3)}`);
    }

    const cpu = await cpuFigures(page, origin);
    Object.assign(figures, cpu.figures);
    missed.push(...cpu.missed);

    // The checkout's figures count the card fields' mount only if they mounted in that load.
    await page.goto(runUrl(origin, SCREENS["checkout (Power annual)"], RUNS));
    await page.getByLabel("Card number").waitFor({ timeout: 15_000 });
    figures["checkout: card fields mounted in the load"] = "yes";
  } finally {
    // Every handle closed, whatever failed: an open CDP connection keeps `npm run bench` alive.
    await browser?.close().catch(() => undefined);
    await chromium?.stop();
    await running.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(siteDir, { recursive: true, force: true });
  }
  Object.assign(figures, screenBytes());
  figures["checkout budgets"] = missed.length === 0 ? "all met" : `MISSED: ${missed.join("; ")}`;
  return figures;
}

if (import.meta.main) {
  const figures = await benchCart();
  for (const [name, value] of Object.entries(figures)) console.log(`${name.padEnd(52)} ${value}`);
  if (String(figures["checkout budgets"]).startsWith("MISSED")) process.exitCode = 1;
}
