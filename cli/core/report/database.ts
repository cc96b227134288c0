// The server's database opened for reading only, through Kysely typed by the server's own
// `Database` (src/server/db/schema.ts): `DATABASE_URL` (PostgreSQL, every read inside one READ
// ONLY transaction) when set, as the server does, else the SQLite file of `DATA_DIR`, opened
// read-only (and immutable while no server has it open: no shared-memory file is made beside it),
// as `catalog diff --impact` reads it (../subscription-groups.ts). The queries see a
// `ReadonlyKysely`, so a write does not even compile.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Kysely, PostgresDialect } from "kysely";
import type { ReadonlyKysely } from "kysely/readonly";
import { nodeSqliteDialect, sqliteDatabase } from "../../../src/server/db/node-sqlite-dialect.ts";
import type { Database } from "../../../src/server/db/schema.ts";
import { ExitError } from "../exit-error.ts";
import { DATABASE_FILE } from "../subscription-groups.ts";

/** What the queries may do: select. */
export type ReadDb = Pick<ReadonlyKysely<Database>, "selectFrom">;

export type ReportDatabase = {
  /** Where it reads, for the report's header (a URL without its password). */
  source: string;
  /** Runs the reads, on PostgreSQL inside one read-only transaction (one consistent view). */
  read<T>(reads: (db: ReadDb) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function openSqlite(dataDir: string): Promise<ReportDatabase> {
  const file = join(dataDir, DATABASE_FILE);
  if (!existsSync(file) || !statSync(file).isFile()) {
    throw new ExitError(
      `no database at ${file}: DATA_DIR must name the server's data folder, which holds ${DATABASE_FILE}`,
    );
  }
  const { DatabaseSync } = await import("node:sqlite");
  const url = pathToFileURL(file);
  url.searchParams.set("mode", "ro");
  // Without a write-ahead log no server has the file open: read it as immutable (decision as in
  // subscription-groups.ts). With one, read through it.
  if (!existsSync(`${file}-wal`)) url.searchParams.set("immutable", "1");
  let raw: InstanceType<typeof DatabaseSync>;
  try {
    raw = new DatabaseSync(url, { readOnly: true });
  } catch (error) {
    throw new ExitError(`${file} could not be opened as the server's database: ${reason(error)}`);
  }
  const kysely = new Kysely<Database>({ dialect: nodeSqliteDialect(sqliteDatabase(raw)) });
  const db = kysely as unknown as ReadonlyKysely<Database>;
  return {
    source: file,
    async read(reads) {
      try {
        return await reads(db);
      } catch (error) {
        throw new ExitError(`${file} could not be read as the server's database: ${reason(error)}`);
      }
    },
    close: () => kysely.destroy(),
  };
}

export async function openPostgres(url: string): Promise<ReportDatabase> {
  const { default: pg } = await import("pg");
  const where = url.replace(/\/\/[^@/]*@/, "//…@");
  const pool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 10_000 });
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const db = kysely as unknown as ReadonlyKysely<Database>;
  return {
    source: `DATABASE_URL (${where})`,
    async read(reads) {
      try {
        return await db
          .transaction()
          .setAccessMode("read only")
          .execute((trx) => reads(trx));
      } catch (error) {
        throw new ExitError(
          `the PostgreSQL database of DATABASE_URL (${where}) could not be read: ${reason(error)}`,
        );
      }
    },
    close: () => kysely.destroy(),
  };
}

/** DATABASE_URL when set (as the server does), else DATA_DIR. */
export function openReportDatabase(
  env: Record<string, string | undefined>,
): Promise<ReportDatabase> {
  const url = env.DATABASE_URL?.trim();
  if (url) return openPostgres(url);
  const dir = env.DATA_DIR?.trim();
  if (dir) return openSqlite(dir);
  throw new ExitError(
    "catalog report needs the server's database: set DATA_DIR (its data folder) or DATABASE_URL",
  );
}
