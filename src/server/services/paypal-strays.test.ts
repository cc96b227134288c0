// PayPal approvals that never became an order here: orphans swept, and strays (a subscription
// that pays for nothing here) cancelled and refunded.

import { describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { periodEnd } from "../../domain/calendar/index.ts";
import { PaypalApprovals } from "../db/paypal-approvals.ts";
import { PaypalStrays } from "../db/paypal-strays.ts";
import {
  account,
  approveAtPaypal,
  confirm,
  db,
  deliver,
  fake,
  MONTHLY_PRICE,
  PASSWORD,
  paypalInvoices,
  prepare,
  refundsOf,
  server,
  startsPaypalServer,
  subscriber,
  subscriptionOf,
} from "../testing/paypal-flow.ts";
import { ORPHAN_AFTER_MS, sweepPaypalOrphans } from "./paypal-orphans.ts";

startsPaypalServer();

describe("orphans", () => {
  it("an approval whose confirm call never came becomes its order by the ACTIVATED webhook", async () => {
    const { client } = await account();
    const prepared = await prepare(client);
    const sub = approveAtPaypal(prepared);
    const event = fake.event("BILLING.SUBSCRIPTION.ACTIVATED", sub);
    expect((await deliver(event)).status).toBe(200);
    expect((await paypalInvoices(client)).map((i) => i.amountPaid)).toEqual([MONTHLY_PRICE]);
  });

  it("the sweep confirms an approval PayPal activated later, and cancels one that does not match", async () => {
    const { client } = await account();
    const prepared = await prepare(client);
    const sub = approveAtPaypal(prepared, { status: "APPROVAL_PENDING" });
    // The confirm call came too early (PayPal still pending) and never again.
    expect((await confirm(client, sub.id)).ok).toBe(false);
    const stray = await account();
    const strayPrepared = await prepare(stray.client);
    const straySub = approveAtPaypal(strayPrepared, { status: "APPROVAL_PENDING" });
    expect((await confirm(stray.client, straySub.id)).ok).toBe(false);
    // At PayPal, both complete; the second one with a first payment it was not asked for.
    const paid = approveAtPaypal(prepared);
    fake.subscriptions.set(sub.id, { ...paid, id: sub.id });
    const wrong = approveAtPaypal({ ...strayPrepared, firstCycleUnitPrice: "1.00" });
    fake.subscriptions.set(straySub.id, { ...wrong, id: straySub.id });
    server.clock.advance(ORPHAN_AFTER_MS + 1000);
    const { paypal } = server.running.deps;
    if (!paypal) throw new Error("the server has no PayPal client");
    const run = await sweepPaypalOrphans({ ...server.running.deps, paypal });
    expect(run).toMatchObject({ ordered: 1, refused: 1 });
    expect((await paypalInvoices(client)).map((i) => i.amountPaid)).toEqual([MONTHLY_PRICE]);
    expect(await paypalInvoices(stray.client)).toEqual([]);
    expect(fake.subscriptions.get(straySub.id)?.status).toBe("CANCELLED");
    expect((await PaypalApprovals.get(db(), strayPrepared.orderKey))?.state).toBe("cancelled");
  });
});

describe("strays: a subscription that pays for nothing here is cancelled and refunded", () => {
  it("one that does not match its order: cancelled at PayPal, its payment refunded and recorded", async () => {
    const { client } = await account();
    const other = await prepare(client, "wv_unloct17_1m");
    const prepared = await prepare(client);
    // Approved at PayPal on another plan than the one prepared: it took 15.99.
    const sub = approveAtPaypal(prepared, { planId: other.planId });
    expect((await confirm(client, sub.id)).ok).toBe(false);
    expect(fake.subscriptions.get(sub.id)?.status).toBe("CANCELLED");
    expect(refundsOf(sub.id)).toEqual(["15.99"]);
    expect(await PaypalStrays.get(db(), sub.id)).toMatchObject({
      state: "settled",
      approvalId: prepared.orderKey,
    });
    expect((await PaypalStrays.refundsOf(db(), sub.id)).map((r) => r.amount)).toEqual([1599]);
    expect(await paypalInvoices(client)).toEqual([]);
    // The same confirm again (a retried onApprove) refunds nothing more.
    expect((await confirm(client, sub.id)).ok).toBe(false);
    expect(refundsOf(sub.id)).toEqual(["15.99"]);
  });

  it("one cancelled at PayPal before it was confirmed: its approval closes, its payment is refunded", async () => {
    const { client } = await account();
    const prepared = await prepare(client);
    const sub = approveAtPaypal(prepared);
    // The buyer cancels at PayPal before onApprove, or the ACTIVATED webhook, reached us.
    const cancelled = { ...sub, status: "CANCELLED" as const };
    fake.subscriptions.set(sub.id, cancelled);
    const event = fake.event("BILLING.SUBSCRIPTION.CANCELLED", cancelled);
    expect((await deliver(event)).status).toBe(200);
    expect(refundsOf(sub.id)).toEqual(["9.99"]);
    expect((await PaypalApprovals.get(db(), prepared.orderKey))?.state).toBe("cancelled");
    // A late ACTIVATED event or confirm call writes no order for it, and refunds nothing twice.
    expect((await deliver(fake.event("BILLING.SUBSCRIPTION.ACTIVATED", sub))).status).toBe(200);
    expect((await confirm(client, sub.id)).ok).toBe(false);
    expect(await paypalInvoices(client)).toEqual([]);
    expect(refundsOf(sub.id)).toEqual(["9.99"]);
  });

  it("a second subscription for an order already written: cancelled and refunded, the first kept", async () => {
    const { client, sub, prepared } = await subscriber();
    // The same checkout approved twice at PayPal (two windows): one order, one payment kept.
    const twin = approveAtPaypal(prepared);
    expect((await deliver(fake.event("BILLING.SUBSCRIPTION.ACTIVATED", twin))).status).toBe(200);
    expect(fake.subscriptions.get(twin.id)?.status).toBe("CANCELLED");
    expect(refundsOf(twin.id)).toEqual(["9.99"]);
    expect(fake.subscriptions.get(sub.id)?.status).toBe("ACTIVE");
    expect(refundsOf(sub.id)).toEqual([]);
    expect((await paypalInvoices(client)).map((i) => i.amountPaid)).toEqual([MONTHLY_PRICE]);
  });

  it("a sale PayPal takes when no renewal is due here is refunded: no order, the paid period kept", async () => {
    const { client, userId, email, sub, t0 } = await subscriber();
    expect((await client.call(api.cancelSubscription, {})).ok).toBe(true);
    // PayPal bills at the period's end all the same (its cancel crossed the renewal).
    const end = periodEnd(t0, 0, 1);
    server.clock.set(end);
    // A month can outlast the 30-day session: the customer signs in again to look.
    const later = await server.signedIn(email, PASSWORD);
    const sale = fake.sale(sub.id, MONTHLY_PRICE, new Date(end));
    expect((await deliver(fake.event("PAYMENT.SALE.COMPLETED", sale))).status).toBe(200);
    expect(refundsOf(sub.id)).toEqual(["9.99"]);
    expect((await PaypalStrays.refundOf(db(), sale.id))?.amount).toBe(MONTHLY_PRICE);
    expect((await paypalInvoices(later)).map((i) => i.amountPaid)).toEqual([MONTHLY_PRICE]);
    expect((await subscriptionOf(userId)).orderEnd).toBe(end);
  });

  it("a refund PayPal could not make is made by the sweep, and its sale event refunds nothing twice", async () => {
    const { client } = await account();
    const other = await prepare(client, "wv_unloct17_1m");
    const prepared = await prepare(client);
    const sub = approveAtPaypal(prepared, { planId: other.planId });
    fake.refundsDown = true;
    try {
      expect((await confirm(client, sub.id)).ok).toBe(false);
    } finally {
      fake.refundsDown = false;
    }
    expect(fake.subscriptions.get(sub.id)?.status).toBe("CANCELLED");
    expect(refundsOf(sub.id)).toEqual([]);
    expect((await PaypalStrays.get(db(), sub.id))?.state).toBe("open");
    const { paypal } = server.running.deps;
    if (!paypal) throw new Error("the server has no PayPal client");
    const run = await sweepPaypalOrphans({ ...server.running.deps, paypal });
    expect(run).toMatchObject({ straysSettled: 1, straysOpen: 0, refunded: 1599 });
    expect(refundsOf(sub.id)).toEqual(["15.99"]);
    expect((await PaypalStrays.get(db(), sub.id))?.state).toBe("settled");
    // PayPal's PAYMENT.SALE.COMPLETED of that payment arrives late: already refunded.
    const payment = fake.transactions.get(sub.id)?.[0];
    const sale = fake.sale(sub.id, 1599, new Date(server.clock.now()), payment?.id);
    expect((await deliver(fake.event("PAYMENT.SALE.COMPLETED", sale))).status).toBe(200);
    expect(refundsOf(sub.id)).toEqual(["15.99"]);
    expect(await sweepPaypalOrphans({ ...server.running.deps, paypal })).toMatchObject({
      straysSettled: 0,
      refunded: 0,
    });
  });
});
