// `catalog report` on a real SQLite database that the server made (the test harness): a few
// purchases (VAT, a campaign, a coupon, a team and a seat added), a refund, a cancellation, a
// trial, a one-off export and experiment events. The revenue equals the invoices' sum to the
// cent, the subscriptions counted equal the database's, every format renders, the html fetches
// nothing, and the database file is not changed by a byte.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Report } from "../../../src/domain/report/report.ts";
import { fixtureCatalog, TEST_NOW } from "../../../src/server/testing/fixture-catalog.ts";
import { startTestServer } from "../../../src/server/testing/harness.ts";
import { makeReport, renderReport, windowOf } from "../../commands/report.ts";
import {
  databaseTruth,
  playReportSeason,
  type Truth,
  REPORT_WINDOW as window,
} from "../../testing/report-season.ts";
import { ExitError } from "../exit-error.ts";
import { DATABASE_FILE } from "../subscription-groups.ts";

vi.setConfig({ testTimeout: 60_000 });

const root = fileURLToPath(new URL("../../..", import.meta.url));
const tokens = readFileSync(join(root, "src/styles/tokens.css"), "utf8");
const dataDir = mkdtempSync(join(tmpdir(), "report-sqlite-"));
/** What the database holds, read by the server's own connection before it closed. */
let truth: Truth;

beforeAll(async () => {
  const server = await startTestServer({
    catalog: fixtureCatalog(),
    seed: false,
    testDatabase: "sqlite",
    env: { DATA_DIR: dataDir },
  });
  try {
    await playReportSeason(server);
    truth = await databaseTruth(server.running.deps.db, window);
  } finally {
    await server.close();
  }
}, 120_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const deps = () => ({ catalog: fixtureCatalog(), env: { DATA_DIR: dataDir }, now: () => TEST_NOW });

describe("catalog report on the server's database", () => {
  let report: Report;
  let before: Buffer;
  let files: string[];
  beforeAll(async () => {
    before = readFileSync(join(dataDir, DATABASE_FILE));
    files = readdirSync(dataDir).sort();
    report = await makeReport("unused", window, deps());
  });

  it("has revenue equal to the sum of the invoices and credit notes, to the cent", () => {
    expect(truth.waiting).toBe(0);
    expect(truth.invoiceSum).toBeGreaterThan(0);
    expect(report.invoices.totalCents).toBe(truth.invoiceSum);
    expect(report.revenue.revenueCents).toBe(truth.invoiceSum);
    expect(report.revenueMatchesInvoices).toBe(true);
    expect(report.revenue.refunds).toBe(1);
    expect(report.invoices.creditNotes).toBe(1);
    // A's VAT: 20 % of 29.94 is 5.99 (rounded), and nobody else was taxed.
    expect(report.revenue.taxCents).toBe(599);
    expect(report.exports).toEqual({ count: 1, netCents: 299 });
  });

  it("counts the subscriptions the database holds", () => {
    const counted = Object.fromEntries(report.active.byPlan.map((p) => [p.productCode, p.count]));
    expect(counted).toEqual(truth.subscriptions);
    expect(counted).toEqual({ wv_bizoct17_12m: 1, wv_single_12m: 1, wv_unloct17_12m: 1 });
  });

  it("tells the movements, the trial, the campaigns and the experiment", () => {
    const sum = (k: "new" | "upgraded" | "cancelled" | "lapsed") =>
      report.movements.reduce((n, w) => n + w[k], 0);
    expect({
      new: sum("new"),
      upgraded: sum("upgraded"),
      cancelled: sum("cancelled"),
      lapsed: sum("lapsed"),
    }).toEqual({
      new: 4,
      upgraded: 1,
      cancelled: 1,
      lapsed: 1,
    });
    // The 14-day trial ended inside the window without a purchase.
    expect(report.trials).toMatchObject([
      { kind: "wv_unlimited_trial", started: 1, converted: 0, running: 0 },
    ]);
    // List prices of the fixture: Unlimited annual 95.88, Power annual 59.88.
    expect(report.campaigns.map((c) => [c.id, c.redemptions, c.discountCents])).toEqual([
      ["vip", 1, 9588 - 4794],
      ["winter", 1, 5988 - 2994],
    ]);
    const [xp] = report.experiments;
    expect(xp?.tallies).toEqual([
      { group: "control", exposed: 4, purchased: 1, revenueCents: 2994, revenueSquares: 2994 ** 2 },
      { group: "sample", exposed: 4, purchased: 1, revenueCents: 4794, revenueSquares: 4794 ** 2 },
    ]);
    expect(xp?.analysis.groups.map((g) => g.group)).toEqual(["control", "sample"]);
  });

  it("renders every format, the html self-contained with its charts", async () => {
    const text = await renderReport(report, "text", tokens);
    expect(text).toContain("equals the invoices and credit notes of the window");
    expect(text).toMatch(/Active subscriptions at \d{4}-\d{2}-\d{2}/);
    expect(JSON.parse(await renderReport(report, "json", tokens))).toEqual(report);
    const markdown = await renderReport(report, "markdown", tokens);
    expect(markdown).toContain("| campaign | coupon | redemptions |");
    expect(markdown).toContain("### Experiment xp-report");
    const html = await renderReport(report, "html", tokens);
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?\s*(https?:)?\/\//i);
    expect(html).not.toMatch(/https?:\/\/|@import|<script|<link/i);
    expect(html).toContain("--brand: #4c2bd1");
    expect(html.match(/<svg /g)?.length).toBe(4);
    for (const label of [
      "Monthly recurring revenue",
      "Active subscriptions",
      "Movements per week",
      "Conversion per group",
    ])
      expect(html).toContain(`<figcaption>${label}</figcaption>`);
  });

  it("leaves the database file as it was, byte for byte, with nothing written beside it", () => {
    expect(readFileSync(join(dataDir, DATABASE_FILE)).equals(before)).toBe(true);
    expect(readdirSync(dataDir).sort()).toEqual(files);
  });
});

describe("the catalog report command", () => {
  const cli = join(root, "cli/main.ts");
  const run = (args: string[], env: Record<string, string>) => {
    const result = spawnSync(process.execPath, [cli, "report", ...args], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "", DATABASE_URL: "", ...env },
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  const from = new Date(window.from).toISOString();
  const to = new Date(window.to).toISOString();

  it("prints the report of DATA_DIR, and writes the html to --out", () => {
    const json = run(["--from", from, "--to", to, "--json"], { DATA_DIR: dataDir });
    expect(json.stderr).toBe("");
    expect(json.code).toBe(0);
    const printed = JSON.parse(json.stdout) as Report;
    expect(printed.revenueMatchesInvoices).toBe(true);
    expect(printed.revenue.revenueCents).toBe(truth.invoiceSum);
    const out = join(mkdtempSync(join(tmpdir(), "report-out-")), "report.html");
    const html = run(["--from", from, "--to", to, "--format", "html", "--out", out], {
      DATA_DIR: dataDir,
    });
    expect(html).toMatchObject({ code: 0, stdout: "" });
    expect(readFileSync(out, "utf8")).toContain("<svg ");
    rmSync(join(out, ".."), { recursive: true, force: true });
  });

  it("refuses a bad option and a missing database with exit code 1 and no stack trace", () => {
    const bad = [
      run(["--format", "pdf"], { DATA_DIR: dataDir }),
      run(["--from", "last tuesday"], { DATA_DIR: dataDir }),
      run([], { DATA_DIR: join(dataDir, "nowhere") }),
    ];
    expect(bad.map((r) => [r.code, r.stderr.split("\n")[0]])).toEqual([
      [
        1,
        "error: option '--format <format>' argument 'pdf' is invalid. Allowed choices are text, json, markdown, html.",
      ],
      [
        1,
        '--from must be an ISO date such as 2026-01-01 or 2026-01-01T00:00:00Z, found "last tuesday"',
      ],
      [
        1,
        `no database at ${join(dataDir, "nowhere", DATABASE_FILE)}: DATA_DIR must name the server's data folder, which holds ${DATABASE_FILE}`,
      ],
    ]);
    for (const r of bad) expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("says what is wrong with a window or a missing database setting", async () => {
    const message = (p: Promise<unknown>) =>
      p.then(
        () => "no error",
        (e: unknown) => (e instanceof ExitError ? e.message : `not an ExitError: ${String(e)}`),
      );
    expect(await message(windowOf(to, from, TEST_NOW))).toBe(
      `--from (${to}) must be before --to (${from})`,
    );
    expect(await message(windowOf(undefined, "2026-13-01", TEST_NOW))).toBe(
      '--to must be an ISO date such as 2026-01-01 or 2026-01-01T00:00:00Z, found "2026-13-01"',
    );
    expect(await windowOf(undefined, "2026-03-31", TEST_NOW)).toEqual({
      from: Date.UTC(2025, 2, 31),
      to: Date.UTC(2026, 2, 31),
    });
    expect(await message(makeReport("unused", window, { ...deps(), env: {} }))).toBe(
      "catalog report needs the server's database: set DATA_DIR (its data folder) or DATABASE_URL",
    );
    const corrupt = mkdtempSync(join(tmpdir(), "report-corrupt-"));
    writeFileSync(join(corrupt, DATABASE_FILE), "not a database");
    try {
      expect(
        await message(makeReport("unused", window, { ...deps(), env: { DATA_DIR: corrupt } })),
      ).toMatch(/^\/.*checkout\.sqlite could not be (opened|read) as the server's database: /);
    } finally {
      rmSync(corrupt, { recursive: true, force: true });
    }
  });
});
