// Price experiments after the sale (issue 36 item 2, decision 0089): the first paid renewal of a
// subscription bought in a group, at the price recorded at purchase, and a cancellation before it,
// each recorded once with the purchase's group.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { groupFor } from "../../domain/experiments/assignment.ts";
import { planPrice } from "../../domain/pricing/index.ts";
import { ExperimentEvents } from "../db/experiment-events.ts";
import { Orders } from "../db/orders.ts";
import { experimentCatalog } from "../testing/fixture-catalog.ts";
import { newKey, startTestServer, type TestClient, type TestServer } from "../testing/harness.ts";
import { saveSandboxCard } from "../testing/sandbox-cards.ts";

let server: TestServer;
const catalog = experimentCatalog();
const PLAN = "wv_bizindiv_1m";
const DAY = 86_400_000;

beforeAll(async () => {
  server = await startTestServer({
    catalog,
    env: { CLOCK: "settable" },
    renewals: { intervalMs: 0 },
  });
});
afterAll(async () => {
  await server.close();
});

const db = () => server.running.deps.db;

function sampleVisitor(from: number): string {
  const experiment = catalog.experiments?.[0];
  if (!experiment) throw new Error("the fixture experiment");
  for (let i = from; ; i++) {
    const id = `5a1e0000-1c8e-4b57-9a0e-${String(i).padStart(12, "0")}`;
    if (groupFor(experiment, id) === "sample") return id;
  }
}

/** A visitor of the sample group who signs up and buys the monthly Professional plan. */
async function buyer(email: string, from: number): Promise<{ client: TestClient; vid: string }> {
  const vid = sampleVisitor(from);
  const client = server.client();
  const headers = new Headers();
  headers.append("set-cookie", `vid=${vid}; Path=/`);
  client.remember(headers);
  const signedUp = await client.call(api.signUp, {
    body: { email, password: "secret-1", firstName: "Pat", lastName: "Buyer" },
  });
  if (!signedUp.ok) throw new Error(signedUp.body.message);
  expect((await saveSandboxCard(client)).ok).toBe(true);
  const summary = await client.call(api.orderSummary, { body: { targetProduct: PLAN } });
  if (!summary.ok) throw new Error(summary.body.message);
  const bought = await client.call(api.upgrade, {
    body: {
      product: { code: PLAN, name: "Professional" },
      newCart: true,
      expectedTotal: summary.body.total,
    },
    idempotencyKey: newKey(),
  });
  if (!bought.ok) throw new Error(bought.body.message);
  return { client, vid };
}

const kindsOf = async (vid: string) =>
  (await ExperimentEvents.ofVisitor(db(), vid)).map((e) => `${e.kind}:${e.group}`).sort();

describe("after the sale", () => {
  it("records the first renewal at the recorded price, and no cancellation after it", async () => {
    const { client, vid } = await buyer("renews@example.com", 0);
    await server.moveClock(32 * DAY);
    await server.moveClock(31 * DAY);
    const events = await ExperimentEvents.ofVisitor(db(), vid);
    const renewal = events.find((e) => e.kind === "renewal");
    expect(renewal?.group).toBe("sample");
    const order = renewal?.orderId ? await Orders.byId(db(), renewal.orderId) : null;
    const plan = catalog.plans.find((p) => p.code === PLAN);
    expect(plan && order?.subTotal).toBe(plan && planPrice(plan, "sample").price);
    // Two renewals happened; one renewal event, the first one's.
    expect(events.filter((e) => e.kind === "renewal")).toHaveLength(1);
    const orders = await Orders.countFor(db(), renewal?.userId ?? 0);
    expect(orders).toBe(3);
    // The session of two months ago has expired: signed in again on the same browser.
    const again = await client.call(api.signIn, {
      body: { email: "renews@example.com", password: "secret-1" },
    });
    expect(again.ok).toBe(true);
    expect((await client.call(api.cancelSubscription)).ok).toBe(true);
    expect(await kindsOf(vid)).toEqual([
      "checkout:sample",
      "exposure:sample",
      "purchase:sample",
      "renewal:sample",
    ]);
  });

  it("records a cancellation before the first renewal once", async () => {
    const { client, vid } = await buyer("leaves@example.com", 10_000);
    expect((await client.call(api.cancelSubscription)).ok).toBe(true);
    expect((await client.call(api.cancelSubscription)).ok).toBe(false);
    expect(await kindsOf(vid)).toEqual([
      "cancellation:sample",
      "checkout:sample",
      "exposure:sample",
      "purchase:sample",
    ]);
  });
});
