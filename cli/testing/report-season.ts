// The purchases, refund, cancellation, trial, export and experiment events that the report's
// tests play on a test server (cli/core/report/report*.test.ts), and what its database then
// holds, read by the server's own connection: what the report must agree with.
import { api } from "../../src/contract/index.ts";
import type { Queryable } from "../../src/server/db/db.ts";
import type { ExperimentEventsTable } from "../../src/server/db/schema.ts";
import { recordRefund } from "../../src/server/services/refunds.ts";
import { TEST_NOW } from "../../src/server/testing/fixture-catalog.ts";
import { newKey, type TestClient, type TestServer } from "../../src/server/testing/harness.ts";
import { saveSandboxCard } from "../../src/server/testing/sandbox-cards.ts";

const HOUR = 3_600_000;
/** Thirty days either side of the tests' clock. */
export const REPORT_WINDOW = { from: TEST_NOW - 30 * 24 * HOUR, to: TEST_NOW + 30 * 24 * HOUR };

export type Truth = {
  invoiceSum: number;
  waiting: number;
  /** Paid subscriptions (automatic or cancelled, period not ended at the window's end). */
  subscriptions: Record<string, number>;
};

async function buyer(server: TestServer, email: string, country = "US"): Promise<TestClient> {
  const { client } = await server.verifiedAccount(email, "secret-password-1");
  // Oregon: a US address needs its state (decision 0078); 0 % sales tax in the catalogue.
  const where = country === "US" ? { country, state: "OR", postalCode: "97201" } : { country };
  const address = await client.call(api.address, { body: { name: "R", ...where } });
  if (!address.ok) throw new Error(address.body.message);
  const card = await saveSandboxCard(client);
  if (!card.ok) throw new Error(card.body.message);
  return client;
}

async function buy(client: TestClient, code: string, seats?: number): Promise<string> {
  const bought = await client.call(api.upgrade, {
    body: { product: { code }, ...(seats ? { seats } : {}) },
    idempotencyKey: newKey(),
  });
  if (!bought.ok) throw new Error(bought.body.message);
  return bought.body.orderId;
}

/**
 * In the fixture catalogue's "winter" campaign (Power annual at 29.94 instead of 59.88): A (France,
 * 20 % VAT) buys Power annual and later cancels; B buys Power monthly, refunded in full; C buys
 * Business annual with 3 seats, then a 4th; D buys Unlimited annual with the targeted coupon
 * "vipcoupon"; E buys an HD export; F starts the Unlimited trial. Experiment "xp-report": four
 * visitors per group, one purchase in each (A's in control, D's in the sample).
 */
export async function playReportSeason(server: TestServer): Promise<void> {
  const step = () => server.clock.advance(HOUR);
  // In the "winter" campaign's window: Power annual at 29.94 instead of 59.88, VAT 20 %.
  const a = await buyer(server, "report-a@example.com", "FR");
  const orderA = await buy(a, "wv_single_12m");
  step();
  const b = await buyer(server, "report-b@example.com");
  const orderB = await buy(b, "wv_single_1m");
  step();
  const c = await buyer(server, "report-c@example.com");
  await buy(c, "wv_bizoct17_12m", 3);
  step();
  await buy(c, "wv_bizoct17_12m", 4);
  step();
  const d = await buyer(server, "report-d@example.com");
  const coupon = await d.call(api.applyCoupon, { params: { code: "vipcoupon" }, body: {} });
  if (!coupon.ok) throw new Error(coupon.body.message);
  const orderD = await buy(d, "wv_unloct17_12m");
  step();
  const e = await buyer(server, "report-e@example.com");
  await buy(e, "single_export_hd");
  step();
  const f = await buyer(server, "report-f@example.com");
  const trial = await f.call(api.activateFreeTrial, {
    body: { vertical: "unlimited" },
    idempotencyKey: newKey(),
  });
  if (!trial.ok) throw new Error(trial.body.message);
  step();
  // B's month refunded in full; A cancels (Power stays until its year ends).
  const { db } = server.running.deps;
  const orderOfB = await db.kysely
    .selectFrom("orders")
    .select("total")
    .where("id", "=", orderB)
    .executeTakeFirstOrThrow();
  const refunded = await db.transaction((tx) =>
    recordRefund(
      tx,
      {
        orderId: orderB,
        amount: Number(orderOfB.total),
        currency: "usd",
        providerRefundId: "re_report_b",
        kind: "refund",
        provider: "sandbox",
        now: server.clock.now(),
      },
      server.running.deps,
    ),
  );
  if (!refunded.recorded) throw new Error("the refund was not recorded");
  step();
  const cancelled = await a.call(api.cancelSubscription);
  if (!cancelled.ok) throw new Error(cancelled.body.message);
  // An experiment: four visitors in control (A bought), four in the sample (D bought).
  const at = server.clock.now();
  const event = (
    visitor: string,
    group: string,
    kind: ExperimentEventsTable["kind"],
    orderId: string | null = null,
  ): ExperimentEventsTable => ({
    experiment_id: "xp-report",
    visitor_id: visitor,
    kind,
    group_id: group,
    at,
    user_id: null,
    order_id: orderId,
  });
  const events = [
    ...["c1", "c2", "c3", "c4"].map((v) => event(v, "control", "exposure")),
    ...["s1", "s2", "s3", "s4"].map((v) => event(v, "sample", "exposure")),
    event("c1", "control", "purchase", orderA),
    event("s1", "sample", "purchase", orderD),
  ];
  await db.transaction((tx) => tx.kysely.insertInto("experiment_events").values(events).execute());
}

export async function databaseTruth(db: Queryable, window: { to: number }): Promise<Truth> {
  // What the report must agree with, read here by the server's own connection.
  const sums = await db.kysely
    .selectFrom("invoices")
    .select((x) => x.fn.sum<number>("total").as("n"))
    .executeTakeFirst();
  const waiting = await db.kysely
    .selectFrom("waiting_invoices")
    .select((x) => x.fn.countAll<number>().as("n"))
    .executeTakeFirst();
  const subs = await db.kysely
    .selectFrom("subscriptions")
    .select(["product_code", "order_state", "order_end"])
    .where("order_state", "in", ["automatic", "cancelled"])
    // The refunded account is moved to the free plan, which is no paid subscription.
    .where("product_code", "<>", "wv_free")
    .execute();
  const subscriptions: Record<string, number> = {};
  for (const s of subs) {
    if (s.order_end !== null && Number(s.order_end) <= window.to) continue;
    subscriptions[s.product_code] = (subscriptions[s.product_code] ?? 0) + 1;
  }
  return {
    invoiceSum: Number(sums?.n ?? 0),
    waiting: Number(waiting?.n ?? 0),
    subscriptions,
  };
}
