// Schema migrations, applied in order at start-up by Kysely's Migrator, on SQLite and on
// PostgreSQL alike (decision 0082). A migration is never edited once released: add a new one
// (migrations/README.md). Each migration is a key of the Migrator's table (kysely_migration): its
// version on four digits, "0001".
//
// Databases made before Kysely recorded their migrations in schema_migrations: those records are
// copied into kysely_migration first (carryOver), so that nothing applied is applied again. The
// old table stays, untouched.
import { type Kysely, sql } from "kysely";
import { type Migration as KyselyMigration, Migrator } from "kysely/migration";
import type { Db, Dialect, Queryable } from "./db.ts";
import { migration as m0001 } from "./migrations/0001.ts";
import { migration as m0002 } from "./migrations/0002.ts";
import { migration as m0003 } from "./migrations/0003.ts";
import { migration as m0004 } from "./migrations/0004.ts";
import { migration as m0005 } from "./migrations/0005.ts";
import { migration as m0006 } from "./migrations/0006.ts";
import { migration as m0007 } from "./migrations/0007.ts";
import { migration as m0008 } from "./migrations/0008.ts";
import { migration as m0009 } from "./migrations/0009.ts";
import { migration as m0010 } from "./migrations/0010.ts";
import { migration as m0011 } from "./migrations/0011.ts";
import { migration as m0012 } from "./migrations/0012.ts";
import { migration as m0013 } from "./migrations/0013.ts";
import { migration as m0014 } from "./migrations/0014.ts";
import { migration as m0015 } from "./migrations/0015.ts";
import { migration as m0016 } from "./migrations/0016.ts";
import { migration as m0017 } from "./migrations/0017.ts";
import { migration as m0018 } from "./migrations/0018.ts";
import { migration as m0019 } from "./migrations/0019.ts";
import { migration as m0020 } from "./migrations/0020.ts";
import { migration as m0021 } from "./migrations/0021.ts";
import { migration as m0022 } from "./migrations/0022.ts";
import { migration as m0023 } from "./migrations/0023.ts";
import { migration as m0024 } from "./migrations/0024.ts";
import { migration as m0025 } from "./migrations/0025.ts";
import { migration as m0026 } from "./migrations/0026.ts";
import { migration as m0027 } from "./migrations/0027.ts";
import { migration as m0028 } from "./migrations/0028.ts";
import { migration as m0029 } from "./migrations/0029.ts";
import { migration as m0030 } from "./migrations/0030.ts";
import type { Migration } from "./migrations/frozen.ts";
import type { Database } from "./schema.ts";
import { SqliteDb } from "./sqlite.ts";

export type { Migration };

export const MIGRATIONS: readonly Migration[] = [
  m0001,
  m0002,
  m0003,
  m0004,
  m0005,
  m0006,
  m0007,
  m0008,
  m0009,
  m0010,
  m0011,
  m0012,
  m0013,
  m0014,
  m0015,
  m0016,
  m0017,
  m0018,
  m0019,
  m0020,
  m0021,
  m0022,
  m0023,
  m0024,
  m0025,
  m0026,
  m0027,
  m0028,
  m0029,
  m0030,
];

const MIGRATION_TABLE = "kysely_migration";

/** A migration's key in the Migrator's table. */
export const migrationKey = (version: number) => String(version).padStart(4, "0");

/** Any fixed number: the advisory lock under which one server at a time carries records over. */
const CARRY_OVER_LOCK = 7_104_400_411;

async function hasTable(tx: Queryable, dialect: Dialect, table: string): Promise<boolean> {
  const row =
    dialect === "sqlite"
      ? await tx.get("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ?", [
          table,
        ])
      : await tx.get("SELECT 1 AS found WHERE to_regclass(?) IS NOT NULL", [table]);
  return row !== undefined;
}

/**
 * Copies schema_migrations' records (today's code before Kysely) into the Migrator's table, once:
 * the table is made as the Migrator makes it, and a record already there is left as it is. Their
 * times never go back from one version to the next, as the Migrator checks that migrations were
 * applied in order (one applied late, as a test may do, then counts as applied with the last).
 */
async function carryOver(db: Db): Promise<void> {
  await db.transaction(
    async (tx) => {
      if (db.dialect === "postgres") {
        await tx.get(`SELECT pg_advisory_xact_lock(${CARRY_OVER_LOCK}) AS locked`);
      }
      if (!(await hasTable(tx, db.dialect, "schema_migrations"))) return;
      await tx.exec(
        `CREATE TABLE IF NOT EXISTS ${MIGRATION_TABLE} (name varchar(255) NOT NULL PRIMARY KEY, timestamp varchar(255) NOT NULL)`,
      );
      const applied = await tx.all<{ version: number; applied_at: number }>(
        "SELECT version, applied_at FROM schema_migrations ORDER BY version",
      );
      let latest = 0;
      for (const { version, applied_at } of applied) {
        latest = Math.max(latest, applied_at);
        await tx.run(
          `INSERT INTO ${MIGRATION_TABLE} (name, timestamp) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`,
          [migrationKey(version), new Date(latest).toISOString()],
        );
      }
    },
    { isolation: "read committed" },
  );
}

/**
 * Applies the migrations not applied yet, in order, all in one transaction with their records in
 * kysely_migration. Returns the versions applied. Several servers starting at once on one
 * PostgreSQL database take turns (the Migrator's advisory lock, held until its transaction ends;
 * the next holder then reads what the previous one committed); on SQLite the Migrator has the
 * connection to itself. `_now` is kept for the callers: the Migrator records its own time.
 */
export async function migrate(db: Db, _now: number, migrations = MIGRATIONS): Promise<number[]> {
  await carryOver(db);
  const byKey = new Map(migrations.map((m) => [migrationKey(m.version), m]));
  const provided: Record<string, KyselyMigration> = {};
  for (const [key, migration] of byKey) {
    provided[key] = {
      up: async (trx) => {
        try {
          await migration.up(trx, db.dialect);
        } catch (error) {
          throw new Error(
            `Migration ${migration.version} (${migration.name}) failed: ${String(error)}`,
            { cause: error },
          );
        }
      },
    };
  }
  // On PostgreSQL the Migrator's tables are looked for in the connection's schema (its search
  // path), as other schemas of the same database may have theirs.
  const schema =
    db.dialect === "postgres"
      ? (await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db.kysely))
          .rows[0]?.schema
      : undefined;
  const run = (kysely: Kysely<Database>) =>
    new Migrator({
      db: kysely,
      provider: { getMigrations: async () => provided },
      migrationTableSchema: schema,
      // A database may lack a migration that sorts before one it has (a test applies 14 last).
      allowUnorderedMigrations: true,
    }).migrateToLatest();
  const { error, results } =
    db instanceof SqliteDb ? await db.exclusive(run) : await run(db.kysely);
  if (error) throw error;
  return (results ?? [])
    .filter((r) => r.status === "Success" && r.direction === "Up")
    .map((r) => byKey.get(r.migrationName)?.version ?? Number(r.migrationName));
}
