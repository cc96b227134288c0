// PayPal's events in any order, its terms all of them, and two servers on one database
// (issue 33).

import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { periodEnd } from "../../domain/calendar/index.ts";
import { testClock } from "../clock.ts";
import { Refunds } from "../db/refunds.ts";
import { Users } from "../db/users.ts";
import type { SignedEvent } from "../testing/fake-paypal.ts";
import { TEST_NOW } from "../testing/fixture-catalog.ts";
import { newKey, startTestServer } from "../testing/harness.ts";
import {
  confirm,
  db,
  deliver,
  deliverUntilApplied,
  fake,
  HREF,
  MONTHLY,
  MONTHLY_PRICE,
  PASSWORD,
  paypalEnv,
  paypalInvoices,
  prepare,
  refundsOf,
  server,
  startsPaypalServer,
  subscriber,
  subscriptionOf,
} from "../testing/paypal-flow.ts";
import { openPglite } from "../testing/pglite.ts";
import { eventPayloads, orderTotalsOf } from "../testing/tables.ts";
import { sweepPaypalOrphans } from "./paypal-orphans.ts";

startsPaypalServer();

describe("events in any order (issue 33 item 2)", () => {
  async function applied(event: SignedEvent) {
    const response = await deliver(event);
    return [response.status, ((await response.json()) as { applied?: string }).applied];
  }

  for (const type of ["PAYMENT.SALE.REFUNDED", "PAYMENT.SALE.REVERSED"] as const) {
    it(`${type} before the first sale's PAYMENT.SALE.COMPLETED is kept and applied when the sale arrives`, async () => {
      const { userId, sub, t0, orderId } = await subscriber();
      const firstSaleId = fake.transactions.get(sub.id)?.[0]?.id as string;
      const back = fake.event(
        type,
        type === "PAYMENT.SALE.REFUNDED"
          ? { id: `REFUND-${firstSaleId}`, sale_id: firstSaleId, amount: { total: "9.99" } }
          : { id: firstSaleId, amount: { total: "9.99", currency: "USD" } },
      );
      expect(await applied(back)).toEqual([200, "kept until its sale is known"]);
      // Nothing can be taken back yet: the plan runs, PayPal keeps billing.
      expect((await subscriptionOf(userId)).productCode).toBe(MONTHLY);
      const sale = fake.sale(sub.id, MONTHLY_PRICE, new Date(t0), firstSaleId);
      expect(await applied(fake.event("PAYMENT.SALE.COMPLETED", sale))).toEqual([
        200,
        "first payment",
      ]);
      // The kept event is applied now: the period paid ends, PayPal bills no more.
      expect(await subscriptionOf(userId)).toMatchObject({
        orderState: "cancelled",
        expiredFlag: true,
        productCode: "wv_free",
      });
      expect(fake.subscriptions.get(sub.id)?.status).toBe("CANCELLED");
      if (orderId === undefined) throw new Error("the first payment made no order");
      const refunds = await Refunds.forOrder(db(), orderId);
      expect(refunds.map((r) => [Number(r.amount), r.orderId])).toEqual([[MONTHLY_PRICE, orderId]]);
      // PayPal delivers the refund again: recorded once.
      expect(await applied(back)).toEqual([200, "duplicate"]);
      expect((await Refunds.forOrder(db(), orderId)).length).toBe(1);
    });
  }

  it("a kept refund whose sale was recorded without it is applied by the sweep", async () => {
    const { userId, sub, t0 } = await subscriber();
    const firstSaleId = fake.transactions.get(sub.id)?.[0]?.id as string;
    const refund = fake.event("PAYMENT.SALE.REFUNDED", {
      id: `REFUND-${firstSaleId}`,
      sale_id: firstSaleId,
      amount: { total: "9.99", currency: "USD" },
    });
    expect(await applied(refund)).toEqual([200, "kept until its sale is known"]);
    // The sale arrives while PayPal cannot cancel: the refund cannot be applied yet.
    fake.cancelsDown = true;
    try {
      const sale = fake.sale(sub.id, MONTHLY_PRICE, new Date(t0), firstSaleId);
      expect(await applied(fake.event("PAYMENT.SALE.COMPLETED", sale))).toEqual([
        200,
        "first payment",
      ]);
    } finally {
      fake.cancelsDown = false;
    }
    expect((await subscriptionOf(userId)).productCode).toBe(MONTHLY);
    const { paypal } = server.running.deps;
    if (!paypal) throw new Error("the server has no PayPal client");
    const run = await sweepPaypalOrphans({ ...server.running.deps, paypal });
    expect(run.keptApplied).toBeGreaterThanOrEqual(1);
    expect((await subscriptionOf(userId)).productCode).toBe("wv_free");
    expect(fake.subscriptions.get(sub.id)?.status).toBe("CANCELLED");
  });

  it("the same renewal sale under a new event id after the renewal is a duplicate: 200, one order", async () => {
    const { email, userId, sub, t0 } = await subscriber();
    // The first payment's PAYMENT.SALE.COMPLETED never arrived; the renewal's does.
    const at = periodEnd(t0, 0, 1);
    server.clock.set(at);
    const resource = fake.sale(sub.id, MONTHLY_PRICE, new Date(at));
    expect(await applied(fake.event("PAYMENT.SALE.COMPLETED", resource))).toEqual([200, "renewed"]);
    // PayPal sends the same sale again under a new event id.
    const resent = fake.event("PAYMENT.SALE.COMPLETED", resource);
    expect(await applied(resent)).toEqual([200, "sale recorded already"]);
    const invoices = await paypalInvoices(await server.signedIn(email, PASSWORD));
    expect(invoices.map((i) => i.amountPaid)).toEqual([MONTHLY_PRICE, MONTHLY_PRICE]);
    expect((await subscriptionOf(userId)).orderEnd).toBe(periodEnd(t0, 1, 1));
  });
});

describe("PayPal's terms, all of them (issue 33 item 3)", () => {
  it("refuses at confirm a subscription whose discounted first cycle is set to repeat: no order, cancelled and refunded", async () => {
    const { client, userId, sub: current } = await subscriber();
    // A plan change: the first payment is discounted by the credit of the month paid.
    const prepared = await prepare(client, "wv_unloct17_1m");
    expect(prepared.firstCycleUnitPrice).not.toBeNull();
    const repeating = fake.approve({
      planId: prepared.planId,
      customId: prepared.orderKey,
      quantity: prepared.quantity,
      firstCycleUnitPrice: prepared.firstCycleUnitPrice,
      firstCycleTotalCycles: 999,
      at: new Date(server.clock.now()),
    });
    const answer = await confirm(client, repeating.id, "wv_unloct17_1m");
    expect(answer.ok || [answer.status, answer.body.error_code]).toEqual([
      409,
      "paypal_subscription_mismatch",
    ]);
    expect(fake.subscriptions.get(repeating.id)?.status).toBe("CANCELLED");
    expect(refundsOf(repeating.id)).toEqual([prepared.firstCycleUnitPrice]);
    // The plan and the subscription paying for it are untouched.
    expect((await subscriptionOf(userId)).productCode).toBe(MONTHLY);
    expect((await Users.byId(db(), userId))?.paypalSubscriptionId).toBe(current.id);
    expect(fake.subscriptions.get(current.id)?.status).toBe("ACTIVE");
  });

  it("a renewal sale of another amount than the renewal price extends nothing and is flagged for the team", async () => {
    const { email, userId, sub, t0 } = await subscriber();
    const end = periodEnd(t0, 0, 1);
    server.clock.set(end);
    for (const cents of [1, 500]) {
      const sale = fake.event("PAYMENT.SALE.COMPLETED", fake.sale(sub.id, cents, new Date(end)));
      const response = await deliver(sale);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { applied: string }).applied).toBe(
        "amount differs: nothing extended, flagged",
      );
    }
    expect((await subscriptionOf(userId)).orderEnd).toBe(end);
    const later = await server.signedIn(email, PASSWORD);
    expect((await paypalInvoices(later)).map((i) => i.amountPaid)).toEqual([MONTHLY_PRICE]);
    const flags = await eventPayloads(db(), "paypal_sale_amount_mismatch", userId);
    expect(flags.map((f) => JSON.parse(f.payload).cents)).toEqual([1, 500]);
    // The team is told in the server's log too, at error level. These two lines are expected:
    // taken out, so that close() still fails on any other error.
    const lines = server.log.lines;
    const flagged = lines.filter((l) => l.startsWith("error") && l.includes("nothing extended"));
    expect(flagged).toHaveLength(2);
    for (const line of flagged) lines.splice(lines.indexOf(line), 1);
    // The renewal price itself still renews.
    const right = fake.event(
      "PAYMENT.SALE.COMPLETED",
      fake.sale(sub.id, MONTHLY_PRICE, new Date(end)),
    );
    expect((await deliver(right)).status).toBe(200);
    expect((await subscriptionOf(userId)).orderEnd).toBe(periodEnd(t0, 1, 1));
  });
});

describe("two servers on one database", { timeout: 120_000 }, () => {
  it("apply the same event, delivered to both at once, once", async () => {
    const pglite = await openPglite();
    const secret = randomBytes(32);
    const shared = { db: pglite, secret, label: "PGlite shared" };
    // The second server must not close the database the first one closes.
    const borrowed = new Proxy(pglite, {
      get: (target, prop) =>
        prop === "close"
          ? async () => {}
          : ((value) => (typeof value === "function" ? value.bind(target) : value))(
              Reflect.get(target, prop, target),
            ),
    });
    const clock = testClock(TEST_NOW);
    const a = await startTestServer({
      seed: false,
      env: paypalEnv(fake.url),
      database: shared,
      clock,
    });
    const b = await startTestServer({
      seed: false,
      env: paypalEnv(fake.url),
      database: { ...shared, db: borrowed },
      clock,
    });
    try {
      const { client, userId } = await a.verifiedAccount("twice@example.com", "pw-for-paypal-1");
      const answer = await client.call(api.paypalSubscription, {
        body: { product: { code: MONTHLY }, newCart: true, href: HREF },
        idempotencyKey: newKey(),
      });
      if (!answer.ok || !answer.body.subscription) throw new Error("not prepared");
      const sub = fake.approve({
        planId: answer.body.subscription.planId,
        customId: answer.body.approvalId,
        quantity: 1,
        at: new Date(a.clock.now()),
      });
      const t0 = a.clock.now();
      const activated = fake.event("BILLING.SUBSCRIPTION.ACTIVATED", sub);
      // One may be asked to deliver again (the account was busy with the other): PayPal does.
      expect(
        await Promise.all([deliverUntilApplied(activated, a), deliverUntilApplied(activated, b)]),
      ).toEqual([200, 200]);
      const renewalAt = periodEnd(t0, 0, 1);
      a.clock.set(renewalAt);
      const sale = fake.event(
        "PAYMENT.SALE.COMPLETED",
        fake.sale(sub.id, MONTHLY_PRICE, new Date(renewalAt)),
      );
      expect(
        await Promise.all([
          deliverUntilApplied(sale, a),
          deliverUntilApplied(sale, b),
          deliverUntilApplied(sale, a),
        ]),
      ).toEqual([200, 200, 200]);
      const orders = await orderTotalsOf(pglite, userId);
      expect(orders.map((o) => Number(o.total))).toEqual([MONTHLY_PRICE, MONTHLY_PRICE]);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
