// Issue 18, items 7 and 8: what the second hostile probe did with account locks and forgotten
// Idempotency-Keys, as the attack that used to work and now does not. On SQLite, on PostgreSQL
// in-process (PGlite) and, when DATABASE_URL names one, on a PostgreSQL server.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { IdempotencyKeys } from "../db/idempotency.ts";
import { MIGRATIONS, migrate } from "../db/migrations.ts";
import { SqliteDb } from "../db/sqlite.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import { Users } from "../db/users.ts";
import { createSandboxProvider } from "../payments/sandbox.ts";
import { newKey, startTestServer, type TestDatabase, type TestServer } from "../testing/harness.ts";
import { openPglite } from "../testing/pglite.ts";
import { POSTGRES_SKIPPED, postgresUrl, tellPostgresSkipped } from "../testing/postgres.ts";
import { signUpWithCard } from "../testing/sandbox-cards.ts";
import {
  countCharges,
  countLocksOf,
  countOrdersOf,
  forgetChargesOfKey,
  forgetOrderKey,
} from "../testing/tables.ts";

const databases: { name: string; database: TestDatabase; skip: string | null }[] = [
  { name: "SQLite", database: "sqlite", skip: null },
  { name: "PostgreSQL in-process (PGlite)", database: "pglite", skip: null },
  {
    name: "a PostgreSQL server",
    database: "postgres",
    skip: postgresUrl() ? null : POSTGRES_SKIPPED,
  },
];
if (!postgresUrl()) tellPostgresSkipped("the lock and replay tests on a PostgreSQL server");

const DAY_MS = 24 * 60 * 60 * 1000;

/** Holds the next charge at the provider until `release()`, as a slow provider would. */
function gate() {
  let enter: () => void = () => {};
  let open: () => void = () => {};
  const entered = new Promise<void>((resolve) => {
    enter = resolve;
  });
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { armed: false, entered, opened, enter, release: () => open() };
}

for (const { name, database, skip } of databases) {
  (skip ? describe.skip : describe)(`issue 18 on ${name}`, { timeout: 30_000 }, () => {
    let server: TestServer;
    let held = gate();
    beforeAll(async () => {
      server = await startTestServer({
        testDatabase: database,
        payments: ({ db, clock }) => {
          const sandbox = createSandboxProvider(db, clock);
          return {
            ...sandbox,
            async charge(input) {
              if (held.armed) {
                held.armed = false;
                held.enter();
                await held.opened;
              }
              return sandbox.charge(input);
            },
          };
        },
      });
    }, 60_000);
    afterAll(async () => {
      await server?.close();
    });

    function buyer(email: string) {
      return signUpWithCard(server.client(), {
        email,
        password: "secret-1",
        firstName: "Pat",
        lastName: "Buyer",
      });
    }

    it("item 7: a request reusing a running purchase's key with another body frees nobody's lock", async () => {
      const email = `lock-${database}@example.com`;
      const client = await buyer(email);
      const key = newKey();
      held = gate();
      held.armed = true;
      const first = client.call(api.upgrade, {
        body: { product: { code: "wv_unloct17_12m" }, newCart: true },
        idempotencyKey: key,
      });
      await held.entered; // purchase A holds the account's lock and waits at the provider
      try {
        const reused = await client.call(api.upgrade, {
          body: { product: { code: "wv_single_12m" }, newCart: true },
          idempotencyKey: key,
        });
        expect(reused).toMatchObject({
          status: 422,
          body: { error_code: "idempotency_key_reused" },
        });
        const beside = await client.call(api.upgrade, {
          body: { product: { code: "wv_single_12m" }, newCart: true },
          idempotencyKey: newKey(),
        });
        expect(beside).toMatchObject({ status: 409, body: { error_code: "account_busy" } });
      } finally {
        held.release();
      }
      expect((await first).ok).toBe(true);
      expect(await countOrdersOf(server.running.deps.db, email)).toBe(1);
      // The lock is free again once A is done.
      expect(await countLocksOf(server.running.deps.db, email)).toBe(0);
    });

    it("item 8: replaying a key forgotten after a day answers the first order, writes no second", async () => {
      const email = `replay-${database}@example.com`;
      const client = await buyer(email);
      const key = newKey();
      const body = { product: { code: "single_export_hd" } };
      const first = await client.call(api.upgrade, { body, idempotencyKey: key });
      if (!first.ok) throw new Error(first.body.message);
      const credits = async () => {
        const user = await Users.byEmail(server.running.deps.db, email);
        const subscription = user && (await Subscriptions.get(server.running.deps.db, user.id));
        return subscription?.exportCredits ?? 0;
      };
      const creditsAfterFirst = await credits();
      for (let replay = 0; replay < 5; replay++) {
        // The hourly clean-up deletes keys older than a day.
        server.clock.advance(DAY_MS + 1);
        await server.running.deps.db.transaction((tx) =>
          IdempotencyKeys.deleteOlderThan(tx, server.clock.now() - DAY_MS),
        );
        if (replay === 2) {
          // From here not even the order remembers the key: the provider's charge id decides.
          await forgetOrderKey(server.running.deps.db, first.body.orderId);
        }
        const again = await client.call(api.upgrade, { body, idempotencyKey: key });
        expect(again.ok && again.body.orderId).toBe(first.body.orderId);
      }
      expect(await countOrdersOf(server.running.deps.db, email)).toBe(1);
      expect(await credits()).toBe(creditsAfterFirst);
    });

    it("item 8: a provider that forgot the key too (Stripe, after 24 hours) is not asked again", async () => {
      const email = `forgotten-${database}@example.com`;
      const client = await buyer(email);
      const key = newKey();
      const body = { product: { code: "single_export_4k" } };
      const first = await client.call(api.upgrade, { body, idempotencyKey: key });
      if (!first.ok) throw new Error(first.body.message);
      server.clock.advance(DAY_MS + 1);
      await server.running.deps.db.transaction(async (tx) => {
        await IdempotencyKeys.deleteOlderThan(tx, server.clock.now() - DAY_MS);
        await forgetChargesOfKey(tx, key);
      });
      const charges = await countCharges(server.running.deps.db);
      const again = await client.call(api.upgrade, { body, idempotencyKey: key });
      expect(again.ok && again.body.orderId).toBe(first.body.orderId);
      expect(await countCharges(server.running.deps.db)).toBe(charges);
    });
  });
}

describe("item 8: migration 14 on a database with orders that share a charge", () => {
  for (const kind of ["sqlite", "pglite"] as const) {
    it(`keeps the first order on its charge and marks the others (${kind})`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "charge-ref-"));
      const db = kind === "sqlite" ? new SqliteDb(join(dir, "db.sqlite")) : await openPglite();
      try {
        await migrate(
          db,
          0,
          MIGRATIONS.filter((m) => m.version !== 14),
        );
        const insert = (id: string, chargeRef: string | null) =>
          db.run(
            `INSERT INTO orders (id, user_id, kind, product_code, product_name, seats, sub_total,
               sales_tax, total, list_price, charge_ref, period_start, term_months, created_at)
             VALUES (?, 1, 'one_off', 'single_export_hd', 'HD export', 1, 499, 0, 499, 499, ?, 0, 0, 0)`,
            [id, chargeRef],
          );
        for (const id of ["o1", "o2", "o3"]) await insert(id, "ch_same");
        await insert("o4", null);
        await insert("o5", null);
        expect(await migrate(db, 0)).toEqual([14]);
        const rows = await db.all<{ id: string; charge_ref: string | null }>(
          "SELECT id, charge_ref FROM orders ORDER BY id",
        );
        expect(rows).toEqual([
          { id: "o1", charge_ref: "ch_same" },
          { id: "o2", charge_ref: "ch_same#duplicate:o2" },
          { id: "o3", charge_ref: "ch_same#duplicate:o3" },
          { id: "o4", charge_ref: null },
          { id: "o5", charge_ref: null },
        ]);
      } finally {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }, 60_000);
  }
});
