// `catalog report` on a real SQLite database that the server made (the test harness): a few
// purchases (VAT, a campaign, a coupon, a team and a seat added), a refund, a cancellation, a
// trial, a one-off export and experiment events. The revenue equals the invoices' sum to the
// cent, the subscriptions counted equal the database's, every format renders, the html fetches
// nothing, and the database file is not changed by a byte.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { api } from "../../../src/contract/index.ts";
import type { Report } from "../../../src/domain/report/report.ts";
import type { ExperimentEventsTable } from "../../../src/server/db/schema.ts";
import { recordRefund } from "../../../src/server/services/refunds.ts";
import { fixtureCatalog, TEST_NOW } from "../../../src/server/testing/fixture-catalog.ts";
import {
  newKey,
  startTestServer,
  type TestClient,
  type TestServer,
} from "../../../src/server/testing/harness.ts";
import { saveSandboxCard } from "../../../src/server/testing/sandbox-cards.ts";
import { makeReport, renderReport } from "../../commands/report.ts";
import { DATABASE_FILE } from "../subscription-groups.ts";

vi.setConfig({ testTimeout: 60_000 });

const root = fileURLToPath(new URL("../../..", import.meta.url));
const tokens = readFileSync(join(root, "src/styles/tokens.css"), "utf8");
const dataDir = mkdtempSync(join(tmpdir(), "report-sqlite-"));
const HOUR = 3_600_000;
const window = { from: TEST_NOW - 30 * 24 * HOUR, to: TEST_NOW + 30 * 24 * HOUR };

/** What the database holds, read by the server's own connection before it closed. */
let truth: {
  invoiceSum: number;
  waiting: number;
  subscriptions: Record<string, number>;
  orders: Record<string, string>;
};

async function buyer(server: TestServer, email: string, country = "US"): Promise<TestClient> {
  const { client } = await server.verifiedAccount(email, "secret-password-1");
  // Oregon: a US address needs its state (decision 0078); 0 % sales tax in the catalogue.
  const where = country === "US" ? { country, state: "OR", postalCode: "97201" } : { country };
  const address = await client.call(api.address, { body: { name: "R", ...where } });
  if (!address.ok) throw new Error(address.body.message);
  const card = await saveSandboxCard(client);
  if (!card.ok) throw new Error(card.body.message);
  return client;
}

async function buy(client: TestClient, code: string, seats?: number): Promise<string> {
  const bought = await client.call(api.upgrade, {
    body: { product: { code }, ...(seats ? { seats } : {}) },
    idempotencyKey: newKey(),
  });
  if (!bought.ok) throw new Error(bought.body.message);
  return bought.body.orderId;
}

beforeAll(async () => {
  const server = await startTestServer({
    catalog: fixtureCatalog(),
    seed: false,
    testDatabase: "sqlite",
    env: { DATA_DIR: dataDir },
  });
  try {
    const step = () => server.clock.advance(HOUR);
    // In the "winter" campaign's window: Power annual at 29.94 instead of 59.88, VAT 20 %.
    const a = await buyer(server, "report-a@example.com", "FR");
    const orderA = await buy(a, "wv_single_12m");
    step();
    const b = await buyer(server, "report-b@example.com");
    const orderB = await buy(b, "wv_single_1m");
    step();
    const c = await buyer(server, "report-c@example.com");
    await buy(c, "wv_bizoct17_12m", 3);
    step();
    await buy(c, "wv_bizoct17_12m", 4);
    step();
    const d = await buyer(server, "report-d@example.com");
    const coupon = await d.call(api.applyCoupon, { params: { code: "vipcoupon" }, body: {} });
    if (!coupon.ok) throw new Error(coupon.body.message);
    const orderD = await buy(d, "wv_unloct17_12m");
    step();
    const e = await buyer(server, "report-e@example.com");
    await buy(e, "single_export_hd");
    step();
    const f = await buyer(server, "report-f@example.com");
    const trial = await f.call(api.activateFreeTrial, {
      body: { vertical: "unlimited" },
      idempotencyKey: newKey(),
    });
    if (!trial.ok) throw new Error(trial.body.message);
    step();
    // B's month refunded in full; A cancels (Power stays until its year ends).
    const { db } = server.running.deps;
    const orderOfB = await db.kysely
      .selectFrom("orders")
      .select("total")
      .where("id", "=", orderB)
      .executeTakeFirstOrThrow();
    const refunded = await db.transaction((tx) =>
      recordRefund(
        tx,
        {
          orderId: orderB,
          amount: Number(orderOfB.total),
          currency: "usd",
          providerRefundId: "re_report_b",
          kind: "refund",
          provider: "sandbox",
          now: server.clock.now(),
        },
        server.running.deps,
      ),
    );
    if (!refunded.recorded) throw new Error("the refund was not recorded");
    step();
    const cancelled = await a.call(api.cancelSubscription);
    if (!cancelled.ok) throw new Error(cancelled.body.message);
    // An experiment: four visitors in control (A bought), four in the sample (D bought).
    const at = server.clock.now();
    const event = (
      visitor: string,
      group: string,
      kind: ExperimentEventsTable["kind"],
      orderId: string | null = null,
    ): ExperimentEventsTable => ({
      experiment_id: "xp-report",
      visitor_id: visitor,
      kind,
      group_id: group,
      at,
      user_id: null,
      order_id: orderId,
    });
    const events = [
      ...["c1", "c2", "c3", "c4"].map((v) => event(v, "control", "exposure")),
      ...["s1", "s2", "s3", "s4"].map((v) => event(v, "sample", "exposure")),
      event("c1", "control", "purchase", orderA),
      event("s1", "sample", "purchase", orderD),
    ];
    await db.transaction((tx) =>
      tx.kysely.insertInto("experiment_events").values(events).execute(),
    );
    // What the report must agree with, read here by the server's own connection.
    const sums = await db.kysely
      .selectFrom("invoices")
      .select((x) => x.fn.sum<number>("total").as("n"))
      .executeTakeFirst();
    const waiting = await db.kysely
      .selectFrom("waiting_invoices")
      .select((x) => x.fn.countAll<number>().as("n"))
      .executeTakeFirst();
    const subs = await db.kysely
      .selectFrom("subscriptions")
      .select(["product_code", "order_state", "order_end"])
      .where("order_state", "in", ["automatic", "cancelled"])
      // The refunded account is moved to the free plan, which is no paid subscription.
      .where("product_code", "<>", "wv_free")
      .execute();
    const subscriptions: Record<string, number> = {};
    for (const s of subs) {
      if (s.order_end !== null && Number(s.order_end) <= window.to) continue;
      subscriptions[s.product_code] = (subscriptions[s.product_code] ?? 0) + 1;
    }
    truth = {
      invoiceSum: Number(sums?.n ?? 0),
      waiting: Number(waiting?.n ?? 0),
      subscriptions,
      orders: { a: orderA, b: orderB, d: orderD },
    };
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
    const json = run(["--from", from, "--to", to, "--format", "json"], { DATA_DIR: dataDir });
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

  it("explains bad options and a missing database, exit code 1, no stack trace", () => {
    const env = { DATA_DIR: dataDir };
    const bad = [
      run(["--format", "pdf"], env),
      run(["--from", "last tuesday"], env),
      run(["--from", to, "--to", from], env),
      run([], { DATA_DIR: join(dataDir, "nowhere") }),
      run([], { DATA_DIR: "" }),
    ];
    expect(bad.map((r) => r.code)).toEqual([1, 1, 1, 1, 1]);
    expect(bad.map((r) => r.stderr.split("\n")[0])).toEqual([
      "error: option '--format <format>' argument 'pdf' is invalid. Allowed choices are text, json, markdown, html.",
      '--from must be an ISO date such as 2026-01-01 or 2026-01-01T00:00:00Z, found "last tuesday"',
      `--from (${to}) must be before --to (${from})`,
      `no database at ${join(dataDir, "nowhere", DATABASE_FILE)}: DATA_DIR must name the server's data folder, which holds ${DATABASE_FILE}`,
      "catalog report needs the server's database: set DATA_DIR (its data folder) or DATABASE_URL",
    ]);
    for (const r of bad) expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
