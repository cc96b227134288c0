// Price experiments through the API (issue 36 item 2, decision 0089): fair shares, groups that
// stick across sign-up and devices, one price per visitor and plan, subscribers never moved, and
// every event recorded once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import type { Catalog } from "../../domain/catalog/catalog-schema.ts";
import { groupFor } from "../../domain/experiments/assignment.ts";
import { planPrice } from "../../domain/pricing/index.ts";
import { ExperimentEvents } from "../db/experiment-events.ts";
import { Visitors } from "../db/visitors.ts";
import { experimentCatalog, TEST_EXPERIMENT } from "../testing/fixture-catalog.ts";
import { newKey, startTestServer, type TestClient, type TestServer } from "../testing/harness.ts";
import { saveSandboxCard } from "../testing/sandbox-cards.ts";

let server: TestServer;
let catalog: Catalog;

beforeAll(async () => {
  catalog = experimentCatalog();
  server = await startTestServer({ catalog });
});
afterAll(async () => {
  await server.close();
});

const experiment = () => {
  const found = catalog.experiments?.find((x) => x.id === TEST_EXPERIMENT);
  if (!found) throw new Error("the fixture experiment");
  return found;
};
const PLAN = "wv_bizindiv_1m";

/** The plan's term price in a group (the control: the default prices). */
function priceIn(group: string, code = PLAN): number {
  const plan = catalog.plans.find((p) => p.code === code);
  if (!plan) throw new Error(code);
  return planPrice(plan, group === "control" ? null : group).price;
}

/** A visitor id that the shares put in `group`. */
function visitorIn(group: string, from = 0): string {
  for (let i = from; ; i++) {
    const id = `0b6a1f64-1c8e-4b57-9a0e-${String(i).padStart(12, "0")}`;
    if (groupFor(experiment(), id) === group) return id;
  }
}

function cookieOf(client: TestClient, name: string): string | undefined {
  for (const pair of client.cookieHeader.split("; ")) {
    const eq = pair.indexOf("=");
    if (pair.slice(0, eq) === name) return pair.slice(eq + 1);
  }
  return undefined;
}

/** A browser whose static page already made its visitor id. */
function browserWith(visitorId: string): TestClient {
  const client = server.client();
  const headers = new Headers();
  headers.append("set-cookie", `vid=${visitorId}; Path=/`);
  client.remember(headers);
  return client;
}

async function summaryTotal(client: TestClient, code = PLAN): Promise<number> {
  const answer = await client.call(api.orderSummary, { body: { targetProduct: code } });
  if (!answer.ok) throw new Error(answer.body.message);
  // The plan's price before any credit for a running subscription.
  return answer.body.newSubscription.firstTermBasePrice;
}

let accounts = 0;
async function signUp(client: TestClient): Promise<{ email: string; userId: number }> {
  accounts += 1;
  const email = `xp-${accounts}@example.com`;
  const answer = await client.call(api.signUp, {
    body: { email, password: "secret-1", firstName: "Pat", lastName: "Buyer" },
  });
  if (!answer.ok) throw new Error(answer.body.message);
  return { email, userId: answer.body.userId };
}

const db = () => server.running.deps.db;

describe("assignment through the API", () => {
  it("gives each group its share of many new visitors, within statistical bounds", async () => {
    const n = 400;
    const clients = Array.from({ length: n }, () => server.client());
    for (let i = 0; i < n; i += 50) {
      await Promise.all(
        clients.slice(i, i + 50).map(async (client) => {
          const answer = await client.call(api.experimentExposures, {
            body: { experiments: [TEST_EXPERIMENT] },
          });
          expect(answer.status).toBe(204);
        }),
      );
    }
    const rows = await ExperimentEvents.ofExperiment(db(), TEST_EXPERIMENT, "exposure");
    const mine = new Set(clients.map((c) => cookieOf(c, "vid")));
    const exposed = rows.filter((r) => mine.has(r.visitorId));
    // Every visitor was given an id (cookie vid) and exposed once, in the group the shares give.
    expect(mine.size).toBe(n);
    expect(exposed).toHaveLength(n);
    for (const row of exposed) expect(row.group).toBe(groupFor(experiment(), row.visitorId));
    for (const client of clients) {
      const vid = cookieOf(client, "vid") ?? "";
      expect(cookieOf(client, "xp")).toBe(`${TEST_EXPERIMENT}:${groupFor(experiment(), vid)}`);
    }
    const sample = exposed.filter((r) => r.group === "sample").length;
    // 50 %: 4.5 standard deviations fail a fair assignment about once in 150,000 runs.
    expect(Math.abs(sample - n / 2)).toBeLessThan(4.5 * Math.sqrt(n / 4));
  });

  it("prices a visitor in their group, and the same on every call", async () => {
    for (const group of ["control", "sample"]) {
      const client = browserWith(visitorIn(group));
      expect(await summaryTotal(client)).toBe(priceIn(group));
      expect(await summaryTotal(client)).toBe(priceIn(group));
    }
    expect(priceIn("sample")).not.toBe(priceIn("control"));
  });
});

describe("stickiness", () => {
  it("keeps the group across sign-up and sign-in on another device", async () => {
    const vid = visitorIn("sample", 1_000);
    const laptop = browserWith(vid);
    expect(await summaryTotal(laptop)).toBe(priceIn("sample"));
    const { email, userId } = await signUp(laptop);
    expect(await Visitors.idOf(db(), userId)).toBe(vid);
    // Another device, which the static page gave an id in the other group.
    const phone = browserWith(visitorIn("control", 2_000));
    expect(await summaryTotal(phone)).toBe(priceIn("control"));
    const signedIn = await phone.call(api.signIn, { body: { email, password: "secret-1" } });
    expect(signedIn.ok).toBe(true);
    expect(cookieOf(phone, "vid")).toBe(vid);
    expect(cookieOf(phone, "xp")).toBe(`${TEST_EXPERIMENT}:sample`);
    expect(await summaryTotal(phone)).toBe(priceIn("sample"));
    // A fresh browser (a new cookie jar) adopts it too.
    const tablet = server.client();
    await tablet.call(api.signIn, { body: { email, password: "secret-1" } });
    expect(cookieOf(tablet, "vid")).toBe(vid);
  });

  it("gives an account without a visitor id the browser's at sign-in", async () => {
    const { email, userId } = await signUp(server.client());
    await db()
      .kysely.updateTable("users")
      .set({ visitor_id: null })
      .where("id", "=", userId)
      .execute();
    const vid = visitorIn("sample", 3_000);
    const browser = browserWith(vid);
    await browser.call(api.signIn, { body: { email, password: "secret-1" } });
    expect(await Visitors.idOf(db(), userId)).toBe(vid);
  });
});

describe("one price per visitor and plan", () => {
  it("quotes, summarises and charges the same price of the visitor's group", async () => {
    const vid = visitorIn("sample", 4_000);
    const client = browserWith(vid);
    const options = await client.call(api.paymentOptions, { query: { tier: "professional" } });
    if (!options.ok) throw new Error(options.body.message);
    const offered = options.body.products.find((p) => p.code === PLAN);
    expect(offered?.price).toBe(priceIn("sample"));
    await signUp(client);
    const saved = await saveSandboxCard(client);
    expect(saved.ok).toBe(true);
    const summary = await client.call(api.orderSummary, { body: { targetProduct: PLAN } });
    if (!summary.ok) throw new Error(summary.body.message);
    expect(summary.body.subTotal).toBe(priceIn("sample"));
    const bought = await client.call(api.upgrade, {
      body: {
        product: { code: PLAN, name: "Professional" },
        newCart: true,
        expectedTotal: summary.body.total,
      },
      idempotencyKey: newKey(),
    });
    if (!bought.ok) throw new Error(bought.body.message);
    expect(bought.body.total).toBe(summary.body.total);
    const events = await ExperimentEvents.ofVisitor(db(), vid);
    expect(events.map((e) => [e.kind, e.group])).toEqual(
      expect.arrayContaining([
        ["exposure", "sample"],
        ["checkout", "sample"],
        ["purchase", "sample"],
      ]),
    );
    expect(events.find((e) => e.kind === "purchase")?.orderId).toMatch(/^ord/);
  });
});

describe("subscribers are never moved", () => {
  it("does not enrol a paying subscriber, and keeps a buyer in the group bought in", async () => {
    // A subscriber to another plan, whose id the shares would put in the sample group.
    const vid = visitorIn("sample", 5_000);
    const subscriber = browserWith(vid);
    await signUp(subscriber);
    expect((await saveSandboxCard(subscriber)).ok).toBe(true);
    const other = await subscriber.call(api.orderSummary, {
      body: { targetProduct: "wv_single_12m" },
    });
    if (!other.ok) throw new Error(other.body.message);
    const bought = await subscriber.call(api.upgrade, {
      body: {
        product: { code: "wv_single_12m", name: "Single" },
        newCart: true,
        expectedTotal: other.body.total,
      },
      idempotencyKey: newKey(),
    });
    if (!bought.ok) throw new Error(bought.body.message);
    expect(await summaryTotal(subscriber)).toBe(priceIn("control"));
    expect(cookieOf(subscriber, "xp")).toBe("!");
    expect(await ExperimentEvents.ofVisitor(db(), vid)).toEqual([]);

    // A buyer recorded in the sample group keeps it, though the shares (after a catalogue
    // change, say) would now say control: the recorded group wins, subscriber or not.
    const kept = visitorIn("control", 6_000);
    const buyer = browserWith(kept);
    await ExperimentEvents.expose(db(), {
      experimentId: TEST_EXPERIMENT,
      visitorId: kept,
      group: "sample",
      at: server.clock.now(),
      userId: null,
    });
    expect(await summaryTotal(buyer)).toBe(priceIn("sample"));
    await signUp(buyer);
    expect((await saveSandboxCard(buyer)).ok).toBe(true);
    const summary = await buyer.call(api.orderSummary, { body: { targetProduct: PLAN } });
    if (!summary.ok) throw new Error(summary.body.message);
    const paid = await buyer.call(api.upgrade, {
      body: {
        product: { code: PLAN, name: "Professional" },
        newCart: true,
        expectedTotal: summary.body.total,
      },
      idempotencyKey: newKey(),
    });
    if (!paid.ok) throw new Error(paid.body.message);
    // Now a subscriber: the annual plan of the same experiment is still priced in its group.
    expect(priceIn("sample", "wv_bizindiv_12m")).not.toBe(priceIn("control", "wv_bizindiv_12m"));
    expect(await summaryTotal(buyer, "wv_bizindiv_12m")).toBe(priceIn("sample", "wv_bizindiv_12m"));
    expect(cookieOf(buyer, "xp")).toBe(`${TEST_EXPERIMENT}:sample|!`);
  });
});

describe("events are recorded once", () => {
  it("under concurrent and replayed requests", async () => {
    const vid = visitorIn("sample", 7_000);
    const clients = Array.from({ length: 8 }, () => browserWith(vid));
    await Promise.all(clients.map((c) => summaryTotal(c)));
    await Promise.all(
      clients.map((c) =>
        c.call(api.experimentExposures, { body: { experiments: [TEST_EXPERIMENT] } }),
      ),
    );
    const client = clients[0] as TestClient;
    await signUp(client);
    expect((await saveSandboxCard(client)).ok).toBe(true);
    const summary = await client.call(api.orderSummary, { body: { targetProduct: PLAN } });
    if (!summary.ok) throw new Error(summary.body.message);
    const body = {
      product: { code: PLAN, name: "Professional" },
      newCart: true,
      expectedTotal: summary.body.total,
    };
    const key = newKey();
    const first = await client.call(api.upgrade, { body, idempotencyKey: key });
    const again = await client.call(api.upgrade, { body, idempotencyKey: key });
    expect(first.ok && again.ok).toBe(true);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const kinds = (await ExperimentEvents.ofVisitor(db(), vid)).map((e) => e.kind).sort();
    expect(kinds).toEqual(["checkout", "exposure", "purchase"]);
  });
});

describe("the exposure beacon", () => {
  it("refuses a bad body with a clear 400, and passes over experiments that do not run", async () => {
    const client = server.client();
    const bad: [unknown, string][] = [
      [{}, "experiments"],
      [{ experiments: [] }, ">=1 items"],
      [{ experiments: Array.from({ length: 21 }, (_, i) => `x-${i}`) }, "<=20 items"],
      [{ experiments: ["Not An Id!"] }, "an experiment id"],
      // The group is the server's to work out: a client naming one is refused.
      [{ experiments: [TEST_EXPERIMENT], group: "sample" }, '"group"'],
    ];
    for (const [body, says] of bad) {
      const answer = await client.fetch("/api/4/experiments/exposures", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const error = (await answer.json()) as { error_code: string; message: string };
      expect([answer.status, error.error_code]).toEqual([400, "invalid_request"]);
      expect(error.message).toContain(says);
    }
    const ended = await client.call(api.experimentExposures, {
      body: { experiments: ["over-long-ago"] },
    });
    expect(ended.status).toBe(204);
    expect(cookieOf(client, "vid")).toBeUndefined();
  });
});
