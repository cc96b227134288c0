// Issue 23 item 1 on a deployment's shape: two server processes on one PostgreSQL database,
// purchases arriving at both at once (exports, which take no account lock, so they really run
// side by side, and plans of other accounts): every order has one invoice, and the numbers of the
// year's series are 1..n, none twice, none skipped. Needs DATABASE_URL (PGlite lives inside one
// process; src/server/db/invoice-numbers.test.ts runs the same race on SQLite and PGlite).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { seriesGaps } from "../../domain/invoices/numbering.ts";
import type { Db } from "../db/db.ts";
import type { ChildServer } from "../testing/children.ts";
import { newKey, TestClient } from "../testing/harness.ts";
import { allInvoices, invoicedOrderIds } from "../testing/invoice-tables.ts";
import { postgresUrl, tellPostgresSkipped } from "../testing/postgres.ts";
import { signUpWithCard } from "../testing/sandbox-cards.ts";
import { sameBrowser, startTwoServers, type TwoServers } from "../testing/two-servers.ts";

const url = postgresUrl();
if (!url) tellPostgresSkipped("invoice numbers from two servers on one PostgreSQL database");

describe.skipIf(!url)(
  "invoice numbers from two servers on one PostgreSQL database",
  { timeout: 120_000 },
  () => {
    let servers: TwoServers | undefined;
    let a: ChildServer;
    let b: ChildServer;
    let db: Db;

    beforeAll(async () => {
      servers = await startTwoServers(url ?? "", {
        PAYMENTS: "sandbox",
        SEED: "false",
        RENEWAL_INTERVAL_SECONDS: "0",
      });
      ({ a, b, db } = servers);
    }, 90_000);

    afterAll(() => servers?.stop());

    /** A new account with a saved test card, and a client of it on each server. */
    async function buyer(email: string): Promise<[TestClient, TestClient]> {
      const onA = await signUpWithCard(new TestClient(a.url), {
        email,
        password: "secret-password-1",
        firstName: "Pat",
        lastName: "B",
      });
      return [onA, sameBrowser(onA, b)];
    }

    it("purchases at both servers at once: one invoice each, numbered 1..n", async () => {
      const exporters = await buyer("exports@example.com");
      const planBuyers = await Promise.all([1, 2, 3, 4].map((i) => buyer(`plan-${i}@example.com`)));
      const exports = Array.from({ length: 24 }, (_, i) =>
        exporters[i % 2]?.call(api.upgrade, {
          body: { product: { code: "single_export_hd" } },
          idempotencyKey: newKey(),
        }),
      );
      const plans = planBuyers.map((clients, i) =>
        clients[i % 2]?.call(api.upgrade, {
          body: { product: { code: "wv_unloct17_12m" } },
          idempotencyKey: newKey(),
        }),
      );
      const answers = await Promise.all([...exports, ...plans]);
      const refused = answers.filter((x) => !x?.ok);
      expect(refused, JSON.stringify(refused.map((x) => x?.body))).toEqual([]);

      const orders = await invoicedOrderIds(db);
      const invoices = await allInvoices(db);
      expect(orders).toHaveLength(28);
      expect(new Set(invoices.map((i) => i.order_id))).toEqual(new Set(orders.map((o) => o.id)));
      expect(new Set(invoices.map((i) => i.series)).size).toBe(1);
      expect(seriesGaps(invoices.map((i) => Number(i.sequence)))).toEqual({
        missing: [],
        repeated: [],
      });
      expect(invoices).toHaveLength(28);
    });
  },
);
