// A real PostgreSQL server for the tests, when DATABASE_URL names one (`.ci/run` sets it when
// 127.0.0.1:5432 answers). Each test run gets a schema of its own (test_<pid>_<random>), chosen
// through the connection's search_path, and drops it at the end, so runs and test files sharing
// one database never see each other's rows.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { openPostgres, type PostgresDb } from "../db/postgres.ts";

/** The server's URL, or null when the PostgreSQL variants of the tests are skipped. */
export function postgresUrl(): string | null {
  const url = process.env.DATABASE_URL;
  return url && /^postgres(ql)?:\/\//.test(url) ? url : null;
}

export const POSTGRES_SKIPPED =
  "DATABASE_URL is not set, so the tests on a real PostgreSQL server are skipped (PGlite runs the PostgreSQL dialect in-process instead). Run them with DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx vitest run src/server";

let told = false;
/** Prints once per test file why the real-server variants do not run. */
export function tellPostgresSkipped(what: string): void {
  if (told) return;
  told = true;
  console.warn(`skipped: ${what}: ${POSTGRES_SKIPPED}`);
}

/** `url` whose connections use `schema` (libpq's `options`, which pg understands too). */
function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set("options", `-c search_path=${schema}`);
  return parsed.toString();
}

export type TestSchema = {
  schema: string;
  /** DATABASE_URL for this schema (for child processes). */
  url: string;
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
};

export async function createTestSchema(url: string): Promise<TestSchema> {
  const schema = `test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  return {
    schema,
    url: withSearchPath(url, schema),
    async drop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A PostgresDb on a new schema of the real server; `close()` also drops the schema. */
export async function openTestPostgres(
  url: string,
  poolSize = 5,
): Promise<{ db: PostgresDb; schema: TestSchema }> {
  const schema = await createTestSchema(url);
  const db = openPostgres({ url: schema.url, poolSize });
  const close = db.close.bind(db);
  db.close = async () => {
    await close();
    await schema.drop();
  };
  return { db, schema };
}
