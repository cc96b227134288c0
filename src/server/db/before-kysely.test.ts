// Databases made by the code before Kysely (decision 0082) open and migrate forward with every row
// kept, and nothing applied again: a SQLite file made by that code with the demo accounts (and a
// row in every other table), and a pg_dump of a PostgreSQL schema made the same way
// (fixtures/). Made once at commit 8cf1cbb; never regenerated.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "../seed.ts";
import { openPglite } from "../testing/pglite.ts";
import { openTestPostgres, postgresUrl, tellPostgresSkipped } from "../testing/postgres.ts";
import type { Db } from "./db.ts";
import { MIGRATIONS, migrate, migrationKey } from "./migrations.ts";
import { openPostgres } from "./postgres.ts";
import { SqliteDb } from "./sqlite.ts";
import { Users } from "./users.ts";

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url);

/** Rows of every table the fixtures were made with: the demo accounts, one row elsewhere. */
const ROWS: Record<string, number> = {
  account_locks: 1,
  billing_details: 1,
  card_tokens: 3,
  coupon_redemptions: 1,
  email_changes: 1,
  events: 1,
  idempotency_keys: 1,
  instances: 2,
  invites: 1,
  invoice_counters: 1,
  invoice_numbering: 1,
  invoices: 1,
  order_items: 1,
  orders: 1,
  outbox: 1,
  paypal_approvals: 1,
  paypal_kept_events: 1,
  paypal_plans: 1,
  paypal_stray_refunds: 1,
  paypal_strays: 1,
  pending_purchases: 1,
  rate_limits: 1,
  refunds: 1,
  renewals: 1,
  sandbox_charges: 1,
  sandbox_customers: 3,
  sandbox_setups: 1,
  schema_migrations: 29,
  secrets: 1,
  sessions: 1,
  subscriptions: 14,
  team_accounts: 1,
  trial_claims: 1,
  users: 14,
  waiting_invoices: 1,
  webhook_events: 1,
};

async function rowCounts(db: Db): Promise<Record<string, number>> {
  const tables = await db.all<{ name: string }>(
    db.dialect === "sqlite"
      ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%'"
      : "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name NOT LIKE 'kysely_%'",
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables.sort((a, b) => a.name.localeCompare(b.name))) {
    counts[name] = (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${name}`))?.n ?? -1;
  }
  return counts;
}

/** The migrations released after Kysely, which a database made before it has not run. */
const AFTER_KYSELY = MIGRATIONS.filter((m) => m.version > 29).map((m) => m.version);

/**
 * Upgrades `db` (today's code's database) with `upgrade`, which answers the versions it applied,
 * and checks that every row is still there.
 */
async function upgradesWithEveryRow(
  db: Db,
  upgrade: () => Promise<number[]> = () => migrate(db, 0),
): Promise<void> {
  expect(await rowCounts(db)).toEqual(ROWS);
  // Its 29 migrations count as applied: none runs again; those released after Kysely do, once.
  expect(await upgrade()).toEqual(AFTER_KYSELY);
  expect(await migrate(db, 0)).toEqual([]);
  const next = MIGRATIONS.length + 1;
  const later = {
    version: next,
    name: "a migration released after these",
    async up(k: Parameters<(typeof MIGRATIONS)[number]["up"]>[0]) {
      await k.schema.createTable("after_kysely").addColumn("id", "bigint").execute();
    },
  };
  expect(await migrate(db, 0, [...MIGRATIONS, later])).toEqual([next]);
  expect(await migrate(db, 0, [...MIGRATIONS, later])).toEqual([]);
  const names = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`
    .execute(db.kysely)
    .then((r) => r.rows.map((row) => row.name));
  expect(names).toEqual([...MIGRATIONS, later].map((m) => migrationKey(m.version)));
  const { after_kysely, experiment_events, ...kept } = await rowCounts(db);
  expect(kept).toEqual(ROWS);
  expect(experiment_events).toBe(0);
  expect(after_kysely).toBe(0);
  // The accounts read back whole through the table module.
  for (const { email } of DEMO_ACCOUNTS) {
    expect((await Users.byEmail(db, email))?.email).toBe(email);
  }
}

describe("a database made before Kysely", () => {
  it("SQLite: migrates forward with every row", async () => {
    const dir = mkdtempSync(join(tmpdir(), "before-kysely-"));
    const path = join(dir, "db.sqlite");
    copyFileSync(fixture("before-kysely.sqlite"), path);
    const db = new SqliteDb(path);
    try {
      await upgradesWithEveryRow(db);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const dump = () => readFileSync(fixture("before-kysely.postgres.sql"), "utf8");

  it("PostgreSQL (PGlite): migrates forward with every row", { timeout: 60_000 }, async () => {
    const db = await openPglite();
    try {
      await db.exec(dump());
      await upgradesWithEveryRow(db);
    } finally {
      await db.close();
    }
  });

  const url = postgresUrl();
  if (!url) tellPostgresSkipped("the upgrade of a database made before Kysely");
  it.skipIf(!url)(
    "PostgreSQL server: migrates forward with every row, two servers at once",
    {
      timeout: 60_000,
    },
    async () => {
      const { db, schema } = await openTestPostgres(url ?? "");
      const other = openPostgres({ url: schema.url, poolSize: 2 });
      try {
        await db.exec(dump());
        // A second server upgrading at the same moment: the record copy and the Migrator take
        // turns, so each later migration runs on one of them, once.
        await upgradesWithEveryRow(db, async () =>
          (await Promise.all([migrate(db, 0), migrate(other, 0)])).flat().sort((a, b) => a - b),
        );
      } finally {
        await other.close();
        await db.close();
      }
    },
  );
});
