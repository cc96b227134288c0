// `catalog report` on PostgreSQL (DATABASE_URL, a schema of its own on the real server): the same
// season as report.test.ts, read in one read-only transaction, gives revenue equal to the
// invoices to the cent and the database's subscriptions. Skipped, and says so, without
// DATABASE_URL (the SQLite test still runs).
import { randomBytes } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { fixtureCatalog, TEST_NOW } from "../../../src/server/testing/fixture-catalog.ts";
import { startTestServer } from "../../../src/server/testing/harness.ts";
import {
  openTestPostgres,
  postgresUrl,
  tellPostgresSkipped,
} from "../../../src/server/testing/postgres.ts";
import { makeReport } from "../../commands/report.ts";
import { databaseTruth, playReportSeason, REPORT_WINDOW } from "../../testing/report-season.ts";

vi.setConfig({ testTimeout: 120_000 });
const url = postgresUrl();
if (!url) tellPostgresSkipped("catalog report on PostgreSQL");

describe.skipIf(!url)("catalog report on PostgreSQL", () => {
  it("reads DATABASE_URL read-only: revenue equals the invoices, subscriptions the database's", async () => {
    const { db, schema } = await openTestPostgres(url ?? "");
    const server = await startTestServer({
      catalog: fixtureCatalog(),
      seed: false,
      database: { db, secret: randomBytes(32), label: `PostgreSQL schema ${schema.schema}` },
    });
    try {
      await playReportSeason(server);
      const truth = await databaseTruth(db, REPORT_WINDOW);
      const report = await makeReport("unused", REPORT_WINDOW, {
        catalog: fixtureCatalog(),
        env: { DATABASE_URL: schema.url },
        now: () => TEST_NOW,
      });
      expect(report.source).toMatch(/^DATABASE_URL \(postgres/);
      expect(report.invoices.totalCents).toBe(truth.invoiceSum);
      expect(report.revenue.revenueCents).toBe(truth.invoiceSum);
      expect(report.revenueMatchesInvoices).toBe(true);
      expect(Object.fromEntries(report.active.byPlan.map((p) => [p.productCode, p.count]))).toEqual(
        truth.subscriptions,
      );
      expect(report.experiments[0]?.tallies.map((t) => [t.group, t.exposed, t.purchased])).toEqual([
        ["control", 4, 1],
        ["sample", 4, 1],
      ]);
    } finally {
      await server.close();
    }
  });
});
