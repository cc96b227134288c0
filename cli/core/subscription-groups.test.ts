// Reading the server's database for `catalog diff --impact`: the same grouped counts from a
// seeded SQLite data folder (read-only: nothing is written beside it) and from the PostgreSQL
// dialect (PGlite); a clear ExitError, never a stack trace, for a missing or corrupt database.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../src/contract/index.ts";
import { fixtureCatalog } from "../../src/server/testing/fixture-catalog.ts";
import { newKey, startTestServer, type TestServer } from "../../src/server/testing/harness.ts";
import { ExitError } from "./exit-error.ts";
import {
  DATABASE_FILE,
  GROUPS_SQL,
  groupsOf,
  postgresGroups,
  sqliteGroups,
  subscriptionGroups,
} from "./subscription-groups.ts";

let buyers = 0;
async function buy(server: TestServer, code: string, seats?: number): Promise<void> {
  buyers += 1;
  const client = server.client();
  const signUp = await client.call(api.signUp, {
    body: {
      email: `impact-${buyers}@example.com`,
      password: "secret-1",
      firstName: "I",
      lastName: "M",
    },
  });
  if (!signUp.ok) throw new Error(signUp.body.message);
  const token = await client.call(api.sandboxToken, {
    body: { number: "4242424242424242", expMonth: 12, expYear: 2040, cvc: "123", postalCode: "1" },
  });
  if (!token.ok) throw new Error(token.body.message);
  await client.call(api.paymentToken, { body: { token: token.body.id }, idempotencyKey: newKey() });
  const bought = await client.call(api.upgrade, {
    body: { product: { code }, ...(seats ? { seats } : {}) },
    idempotencyKey: newKey(),
  });
  if (!bought.ok) throw new Error(bought.body.message);
}

/** Two Power annual subscribers and a team of 5: what every database below holds. */
async function seed(server: TestServer): Promise<void> {
  await buy(server, "wv_single_12m");
  await buy(server, "wv_single_12m");
  await buy(server, "wv_bizoct17_12m", 5);
}

const expected = [
  { productCode: "wv_bizoct17_12m", seats: 5, recurringCampaign: null, priceGroup: null, count: 1 },
  { productCode: "wv_single_12m", seats: 1, recurringCampaign: null, priceGroup: null, count: 2 },
];
const sorted = <T extends { productCode: string }>(list: T[]) =>
  [...list].sort((a, b) => a.productCode.localeCompare(b.productCode));

const dataDir = mkdtempSync(join(tmpdir(), "impact-sqlite-"));
beforeAll(async () => {
  const server = await startTestServer({
    catalog: fixtureCatalog(),
    seed: false,
    // A SQLite data folder whatever the run's default database (TEST_DATABASE).
    testDatabase: "sqlite",
    env: { DATA_DIR: dataDir },
  });
  await seed(server);
  await server.close();
}, 60_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("active subscriptions from the server's database", () => {
  it("reads a SQLite data folder (DATA_DIR) and writes nothing to it", async () => {
    const before = readdirSync(dataDir).map((f) => [f, statSync(join(dataDir, f)).mtimeMs]);
    const bytes = readFileSync(join(dataDir, DATABASE_FILE));
    expect(sorted(await sqliteGroups(dataDir))).toEqual(expected);
    expect(await subscriptionGroups({ DATA_DIR: dataDir })).toMatchObject({
      source: join(dataDir, DATABASE_FILE),
    });
    expect(readdirSync(dataDir).map((f) => [f, statSync(join(dataDir, f)).mtimeMs])).toEqual(
      before,
    );
    expect(readFileSync(join(dataDir, DATABASE_FILE)).equals(bytes)).toBe(true);
  });

  it("reads the PostgreSQL dialect with the same statement (PGlite)", async () => {
    const server = await startTestServer({
      catalog: fixtureCatalog(),
      seed: false,
      testDatabase: "pglite",
    });
    try {
      await seed(server);
      const rows = await server.running.deps.db.all(GROUPS_SQL);
      expect(sorted(groupsOf(rows))).toEqual(expected);
    } finally {
      await server.close();
    }
  }, 60_000);

  it("says what is wrong with a missing or corrupt database, or none named", async () => {
    const empty = mkdtempSync(join(tmpdir(), "impact-empty-"));
    try {
      await expect(sqliteGroups(empty)).rejects.toThrowError(
        new ExitError(
          `no database at ${join(empty, DATABASE_FILE)}: DATA_DIR must name the server's data folder, which holds ${DATABASE_FILE}`,
        ),
      );
      writeFileSync(join(empty, DATABASE_FILE), "not a database, just text\n".repeat(100));
      await expect(sqliteGroups(empty)).rejects.toThrowError(
        `${join(empty, DATABASE_FILE)} could not be read as the server's database: file is not a database`,
      );
      expect(readdirSync(empty)).toEqual([DATABASE_FILE]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    await expect(subscriptionGroups({})).rejects.toThrowError(
      "--impact needs the server's database: set DATA_DIR (its data folder) or DATABASE_URL",
    );
    const refused = postgresGroups("postgres://reader:secret@127.0.0.1:1/checkout");
    await expect(refused).rejects.toBeInstanceOf(ExitError);
    await expect(refused).rejects.toThrowError(
      /^the PostgreSQL database of DATABASE_URL \(postgres:\/\/…@127\.0\.0\.1:1\/checkout\) could not be read: /,
    );
  });
});
