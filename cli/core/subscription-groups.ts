// Reads the active subscriptions of the server's database for `catalog diff --impact`, grouped
// (src/domain/catalog/impact.ts counts them), and writes nothing: the SQLite file of DATA_DIR is
// opened read-only (immutable unless a server has it open), PostgreSQL (DATABASE_URL) in a
// read-only transaction. A missing or unreadable database is an ExitError that says which.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { SubscriptionGroup } from "../../src/domain/catalog/impact.ts";
import { ExitError } from "./exit-error.ts";

/** The server's database file in its data folder (src/server/data-folder.ts). */
export const DATABASE_FILE = "checkout.sqlite";

/** One statement, the same on SQLite and PostgreSQL: no parameters, no dialect. */
export const GROUPS_SQL = `
  SELECT s.product_code AS product_code, s.seats AS seats,
         s.recurring_campaign AS recurring_campaign,
         u.price_testing_group_value AS price_group, COUNT(*) AS n
  FROM subscriptions s JOIN users u ON u.id = s.user_id
  WHERE s.order_state = 'automatic'
  GROUP BY s.product_code, s.seats, s.recurring_campaign, u.price_testing_group_value`;

type Row = Record<string, unknown>;

export function groupsOf(rows: readonly Row[]): SubscriptionGroup[] {
  return rows.map((r) => ({
    productCode: String(r.product_code),
    seats: Number(r.seats),
    recurringCampaign: r.recurring_campaign === null ? null : String(r.recurring_campaign),
    priceGroup: r.price_group === null ? null : String(r.price_group),
    count: Number(r.n),
  }));
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The active subscriptions of the SQLite database in `dataDir`. */
export async function sqliteGroups(dataDir: string): Promise<SubscriptionGroup[]> {
  const file = join(dataDir, DATABASE_FILE);
  if (!existsSync(file) || !statSync(file).isFile()) {
    throw new ExitError(
      `no database at ${file}: DATA_DIR must name the server's data folder, which holds ${DATABASE_FILE}`,
    );
  }
  const { DatabaseSync } = await import("node:sqlite");
  const url = pathToFileURL(file);
  url.searchParams.set("mode", "ro");
  // Without a write-ahead log no server has the file open: read it as immutable, so that not
  // even SQLite's shared-memory index is created beside it. With one, read through it.
  if (!existsSync(`${file}-wal`)) url.searchParams.set("immutable", "1");
  let db: InstanceType<typeof DatabaseSync> | undefined;
  try {
    db = new DatabaseSync(url, { readOnly: true });
    return groupsOf(db.prepare(GROUPS_SQL).all() as Row[]);
  } catch (error) {
    throw new ExitError(`${file} could not be read as the server's database: ${reason(error)}`);
  } finally {
    db?.close();
  }
}

/** The active subscriptions of the PostgreSQL database at `url`, in a read-only transaction. */
export async function postgresGroups(url: string): Promise<SubscriptionGroup[]> {
  const { default: pg } = await import("pg");
  const where = url.replace(/\/\/[^@/]*@/, "//…@");
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    await client.query("BEGIN TRANSACTION READ ONLY");
    const { rows } = await client.query(GROUPS_SQL);
    await client.query("ROLLBACK");
    return groupsOf(rows as Row[]);
  } catch (error) {
    throw new ExitError(
      `the PostgreSQL database of DATABASE_URL (${where}) could not be read: ${reason(error)}`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Where --impact reads: DATABASE_URL when set (as the server does), else DATA_DIR. */
export async function subscriptionGroups(
  env: Record<string, string | undefined>,
): Promise<{ source: string; groups: SubscriptionGroup[] }> {
  const url = env.DATABASE_URL?.trim();
  if (url) return { source: "DATABASE_URL", groups: await postgresGroups(url) };
  const dir = env.DATA_DIR?.trim();
  if (dir) return { source: join(dir, DATABASE_FILE), groups: await sqliteGroups(dir) };
  throw new ExitError(
    "--impact needs the server's database: set DATA_DIR (its data folder) or DATABASE_URL",
  );
}
