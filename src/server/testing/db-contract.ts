// The database contract's backends (db/contract-*.test.ts): every query module of db/ runs alike
// on SQLite (node:sqlite, the embedded default), on PostgreSQL in this process (PGlite: always,
// so `npm test` proves the PostgreSQL dialect on any machine), and on a PostgreSQL server when
// DATABASE_URL names one (a schema of its own, dropped after). Each contract file opens its own
// database per backend.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe } from "vitest";
import type { Db } from "../db/db.ts";
import { migrate } from "../db/migrations.ts";
import { openPostgres } from "../db/postgres.ts";
import { SqliteDb } from "../db/sqlite.ts";
import { openPglite } from "./pglite.ts";
import {
  openTestPostgres,
  POSTGRES_SKIPPED,
  postgresUrl,
  tellPostgresSkipped,
} from "./postgres.ts";
import { testUser } from "./users.ts";

export const NOW = Date.UTC(2026, 0, 15, 12);
export const HOUR = 3_600_000;

export type Opened = {
  db: Db;
  /** Another connection (pool) to the same database, as a second server would have. */
  another(): Db;
  close(): Promise<void>;
};

export type Backend = {
  name: string;
  /** One process per database (SQLite): several servers are not a case. */
  soleServer: boolean;
  skip: string | null;
  open(): Promise<Opened>;
};

const url = postgresUrl();
if (!url) tellPostgresSkipped("the database contract on a PostgreSQL server");

export const backends: Backend[] = [
  {
    name: "SQLite (node:sqlite)",
    soleServer: true,
    skip: null,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), "db-contract-"));
      const path = join(dir, "contract.sqlite");
      const db = new SqliteDb(path);
      const others: SqliteDb[] = [];
      return {
        db,
        another: () => {
          const other = new SqliteDb(path);
          others.push(other);
          return other;
        },
        async close() {
          for (const other of others) other.close();
          db.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: "PostgreSQL in-process (PGlite)",
    soleServer: false,
    skip: null,
    async open() {
      const db = await openPglite();
      // One in-process database, one connection: a second "server" shares it.
      return { db, another: () => db, close: () => db.close() };
    },
  },
  {
    name: "PostgreSQL server (DATABASE_URL)",
    soleServer: false,
    skip: url ? null : POSTGRES_SKIPPED,
    async open() {
      const { db, schema } = await openTestPostgres(url ?? "");
      const others: Db[] = [];
      return {
        db,
        another: () => {
          const other = openPostgres({ url: schema.url, poolSize: 3 });
          others.push(other);
          return other;
        },
        async close() {
          for (const other of others) await other.close();
          await db.close();
        },
      };
    },
  },
];

/**
 * A suite of `topic` on `backend` (skipped when the backend is), with time limits generous
 * enough for PGlite (PostgreSQL in WebAssembly) on a busy machine.
 */
export function describeOn(backend: Backend, topic: string, body: () => void): void {
  const suite = backend.skip ? describe.skip : describe;
  suite(`database contract on ${backend.name}: ${topic}`, { timeout: 30_000 }, body);
}

/** A database of `backend` with every migration applied. */
export async function openMigrated(backend: Backend): Promise<Opened> {
  const opened = await backend.open();
  await migrate(opened.db, NOW);
  return opened;
}

let seq = 0;
/** A name no other row of the run has. */
export const unique = (prefix: string) => `${prefix}-${++seq}`;
/** A number above `base` no other row of the run has (an account id no account holds). */
export const uniqueNumber = (base: number) => base + ++seq;

/** A new account's fields with a unique name. */
export function someUser(overrides: Parameters<typeof testUser>[2] = {}) {
  return testUser(unique("user"), NOW, overrides);
}
