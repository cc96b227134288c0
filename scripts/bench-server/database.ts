// The PostgreSQL the bench uses: DATABASE_URL or the machine's own server, a schema of its own
// for each run (dropped after), and the API server's settings for it.
import { randomBytes } from "node:crypto";
import pg from "pg";

/** DATABASE_URL, or the project machines' server when it answers; null when neither does. */
export async function findPostgres(): Promise<string | null> {
  const url = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return url;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A schema of its own on the PostgreSQL server, dropped by `drop()`. */
export async function benchSchema(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `bench_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE SCHEMA ${schema}`);
  const withPath = new URL(url);
  withPath.searchParams.set("options", `-c search_path=${schema}`);
  return {
    url: withPath.toString(),
    drop: () => admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`),
  };
}

export const POOL_SIZE = "20";

export function postgresEnv(schemaUrl: string, secret: string): Record<string, string> {
  return {
    DATABASE_URL: schemaUrl,
    DATABASE_POOL_SIZE: POOL_SIZE,
    SERVER_SECRET: secret,
    PAYMENTS: "sandbox",
    SEED: "true",
  };
}
