// Issue 12, "Existing subscribers keep the price they signed up at": subscribers buy under one
// catalogue; the server restarts on the same data folder with a dearer catalogue; the renewal
// worker (moved by the settable clock) charges the recorded price until the new catalogue's dated
// price migration moves their cohort, and from its date on charges (and records) today's price.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { periodEnd } from "../../domain/calendar/index.ts";
import type { Catalog, PriceMigration } from "../../domain/catalog/catalog-schema.ts";
import { testClock } from "../clock.ts";
import { Instances } from "../db/instances.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import { Users } from "../db/users.ts";
import { fixtureCatalog, TEST_NOW } from "../testing/fixture-catalog.ts";
import { newKey, startTestServer, type TestServer } from "../testing/harness.ts";
import { chargesOfCustomer, pricingStructureOfWorkspaceOwnedBy } from "../testing/tables.ts";

const DAY = 86_400_000;
const dataDir = mkdtempSync(join(tmpdir(), "price-keeping-"));
const env = { CLOCK: "settable", DATA_DIR: dataDir };

/** Power annual 59.88 → 71.88 and dearer schools bands, with the migrations given. */
function dearer(migrations: PriceMigration[]): Catalog {
  const base = fixtureCatalog();
  return {
    ...base,
    plans: base.plans.map((p) => (p.code === "wv_single_12m" ? { ...p, price: 7188 } : p)),
    priceMigrations: migrations,
  };
}

const SIGNED_UP_BEFORE = TEST_NOW + DAY;
const MOVE = periodEnd(TEST_NOW, 0, 12) + 30 * DAY; // after the first renewal, before the second
const migration: PriceMigration = {
  id: "power-2027",
  description: "Power annual subscribers from before 16 January 2026 pay the new price.",
  products: ["wv_single_12m"],
  seatStructure: null,
  signedUpBefore: SIGNED_UP_BEFORE,
  renewalsFrom: MOVE,
};

let server: TestServer;

async function buyer(email: string, code: string, seats?: number): Promise<number> {
  const client = server.client();
  const signUp = await client.call(api.signUp, {
    body: { email, password: "secret-1", firstName: "Kee", lastName: "Per" },
  });
  if (!signUp.ok) throw new Error(signUp.body.message);
  // Verified: the schools plan is sold to a verified education address (issue 18 item 2).
  await server.running.deps.db.transaction((tx) =>
    Users.update(tx, signUp.body.userId, { emailVerified: true }),
  );
  const token = await client.call(api.sandboxToken, {
    body: { number: "4242424242424242", expMonth: 12, expYear: 2040, cvc: "123", postalCode: "1" },
  });
  if (!token.ok) throw new Error(token.body.message);
  const card = await client.call(api.paymentToken, {
    body: { token: token.body.id },
    idempotencyKey: newKey(),
  });
  if (!card.ok) throw new Error(card.body.message);
  const bought = await client.call(api.upgrade, {
    body: { product: { code }, newCart: true, ...(seats ? { seats } : {}) },
    idempotencyKey: newKey(),
  });
  if (!bought.ok) throw new Error(bought.body.message);
  return signUp.body.userId;
}

async function setClock(ms: number): Promise<void> {
  const response = await fetch(`${server.running.url}/dev/clock`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ set: ms }),
  });
  expect(response.status).toBe(200);
}

/**
 * What the sandbox provider charged the account for its renewals, oldest first (the purchase
 * itself left out: it may have had the fixture's first-term campaign price).
 */
async function renewals(userId: number): Promise<number[]> {
  const charges = await chargesOfCustomer(server.running.deps.db, `cus_sandbox_${userId}`);
  return charges
    .filter((c) => c.error === null)
    .map((c) => c.amount)
    .slice(1);
}

let early: number;
let late: number;
let school: number;

beforeAll(async () => {
  // Under the old catalogue: two Power annual subscribers a day apart, and a school of 120 seats
  // whose workspace is licensed on the older bands (bought before prices were recorded).
  server = await startTestServer({ catalog: fixtureCatalog(), env, renewals: { intervalMs: 0 } });
  early = await buyer("early@example.com", "wv_single_12m");
  await setClock(TEST_NOW + 2 * DAY);
  late = await buyer("late@example.com", "wv_single_12m");
  school = await buyer("school@district.k12.ca.us", "wv_k12_12m", 120);
  const db = server.running.deps.db;
  await db.transaction(async (tx) => {
    await Subscriptions.update(tx, school, { priceBasis: null });
    const owner = await Users.byId(tx, school);
    await Instances.update(tx, Number(owner?.instanceId), {
      licensePricingStructure: "k12-legacy",
    });
  });
  const now = server.clock.now();
  await server.close();
  // The same data folder, a dearer catalogue with a dated migration of the early cohort.
  server = await startTestServer({
    catalog: dearer([
      migration,
      {
        ...migration,
        id: "schools",
        products: ["wv_k12_12m"],
        signedUpBefore: null,
        seatStructure: "k12-legacy",
      },
    ]),
    env,
    clock: testClock(now),
    renewals: { intervalMs: 0 },
  });
}, 60_000);

afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("existing subscribers keep the price they signed up at", () => {
  it("records the prices a purchase signed up at", async () => {
    expect((await Subscriptions.get(server.running.deps.db, early))?.priceBasis).toMatchObject({
      productCode: "wv_single_12m",
      price: 5988,
      seatStructure: null,
    });
  });

  it("renews at the recorded price after a price rise, before the migration's date", async () => {
    await setClock(MOVE - DAY);
    expect(await renewals(early)).toEqual([5988]);
    expect(await renewals(late)).toEqual([5988]);
    // 120 seats on the older bands (299 for 30, then 90 × 9.00), not today's (374 + 70 × 11 + 20 × 10).
    expect(await renewals(school)).toEqual([29900 + 90 * 900]);
  });

  it("renews at the new price from the migration's date on, for the cohort it names only", async () => {
    await setClock(periodEnd(TEST_NOW, 1, 12) + 7 * DAY);
    expect(await renewals(early)).toEqual([5988, 7188]);
    // Signed up after signedUpBefore: not in the cohort, keeps the price it signed up at.
    expect(await renewals(late)).toEqual([5988, 5988]);
    expect(await renewals(school)).toEqual([29900 + 90 * 900, 37400 + 70 * 1100 + 20 * 1000]);
    const sub = await Subscriptions.get(server.running.deps.db, early);
    expect(sub?.priceBasis).toMatchObject({ price: 7188 });
    // The school's workspace now reports the structure it is priced by.
    const structure = await pricingStructureOfWorkspaceOwnedBy(server.running.deps.db, school);
    expect(structure).toBe("k12-2024-01");
  });
});
