import { loadavg } from "node:os";
import { defineConfig, devices } from "@playwright/test";
import { controlVisitorId } from "./scripts/control-visitor.ts";
import { chromiumArgs, findTestBrowser } from "./scripts/find-chromium.ts";
import { timeLimitScale } from "./scripts/time-limit-scale.ts";

// Browser tests run against the built site (npm test builds it first) served by e2e/serve.ts (what
// scripts/serve.ts serves, with a cheaper password hash: see there), in an installed Chromium (its
// headless shell where there is one, decision 0071): we never download browser builds
// (scripts/ensure-chromium.ts).
const port = Number(process.env.E2E_PORT ?? 4399);
const baseURL = `http://127.0.0.1:${port}`;
const executablePath = findTestBrowser();
if (!executablePath) {
  throw new Error("No Chromium found. Run `node scripts/ensure-chromium.ts` or set CHROMIUM_PATH.");
}

// Every time limit (a test's 30 s, an expectation's 5 s) times the machine's oversubscription when
// the run starts (scripts/time-limit-scale.ts, decision 0030); E2E_TIMEOUT_SCALE sets it.
const timeoutScale = timeLimitScale("E2E_TIMEOUT_SCALE");
// Said once, by the runner: every worker loads this file too (TEST_WORKER_INDEX is set in workers).
if (timeoutScale !== 1 && process.env.TEST_WORKER_INDEX === undefined) {
  console.log(`playwright: time limits x${timeoutScale} (load ${loadavg()[0].toFixed(1)})`);
}

const browser = {
  ...devices["Desktop Chrome"],
  launchOptions: { executablePath, args: chromiumArgs },
};
const PRICE_CROSS = /pricing[/\\]price-cross\.spec\.ts$/;

export default defineConfig({
  testDir: "e2e",
  timeout: 30_000 * timeoutScale,
  expect: { timeout: 5_000 * timeoutScale },
  outputDir: "test-results",
  fullyParallel: true,
  // Two browsers at once (Playwright's default is half the cores: one here). On the 2-core machine
  // the stage took 12 min with two instead of 15.7 with one (busy machine both times), every test
  // passing; the tests make their own accounts and act as visitors of their own (decision 0025).
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  use: {
    baseURL,
    // Every browser starts as a visitor in the control group of every price experiment in the
    // catalogue, so that the specs read the default prices on whatever day they run, inside an
    // experiment's window or not. The experiment's own specs set their visitors' ids.
    storageState: {
      cookies: [
        {
          name: "vid",
          value: controlVisitorId(),
          domain: "127.0.0.1",
          path: "/",
          expires: -1,
          httpOnly: false,
          secure: false,
          sameSite: "Lax",
        },
      ],
      origins: [],
    },
    // Recording a trace costs every test a third of its time on this 2-core machine (DOM
    // snapshots at each action, kept or not): off in `npm test`. To see a failure step by step,
    // run the spec again with `--trace retain-on-failure` (e2e/README.md, decision 0025).
    trace: "off",
    screenshot: "only-on-failure",
  },
  // The price cross-test's first test is the stage's longest (about a minute of one worker): in a
  // project listed first it starts with the stage, while the other worker takes the rest, instead
  // of starting last (it sorts late, e2e/pricing/) and leaving the other worker idle at the end.
  projects: [
    { name: "price-cross", testMatch: PRICE_CROSS, use: browser },
    { name: "chromium", testIgnore: PRICE_CROSS, use: browser },
  ],
  webServer: {
    // The same Node that runs Playwright (Node 24 from the `node` dev dependency) runs the server.
    command: `"${process.execPath}" e2e/serve.ts`,
    url: baseURL,
    // A fresh data folder per run is e2e/serve.ts's own, removed when it exits.
    // SQLite whatever the run's environment says: CI sets DATABASE_URL for the PostgreSQL unit
    // tests (.ci/run), which is not a database this server may use (empty counts as unset).
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: "",
      SERVER_SECRET: "",
    },
    reuseExistingServer: false,
    // Stopped as a deployment stops it (SIGTERM: a clean close), not Playwright's default SIGKILL,
    // so the server removes its data folder (e2e/serve.ts).
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    // How long Playwright waits for the server to answer (it polls, so a quick start is not held
    // up). It starts in about 3 s on a quiet 2-core machine, but took 50 s at a load of 27 (eight
    // people's builds and tests on two cores), past the former 30 s: the whole stage then failed
    // before its first test (decision 0030). Only a server that never answers waits this long.
    timeout: 120_000,
  },
});
