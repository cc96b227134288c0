import { describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { periodEnd } from "../../domain/calendar/index.ts";
import { Outbox } from "../db/outbox.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import { Users } from "../db/users.ts";
import { newKey, type TestClient } from "../testing/harness.ts";
import {
  account,
  approveAtPaypal,
  confirm,
  db,
  deliver,
  fake,
  HREF,
  MONTHLY,
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
import { refundsWithId, workspaceOf } from "../testing/tables.ts";

startsPaypalServer();

describe("a change scheduled for the period end", () => {
  const TEAM = "wv_bizoct17_1m";
  // The fixture's Business monthly: 3 seats included at 73.99, 39.99 each above
  // (services/renewals-*.test.ts).
  const FIVE_SEATS = 7399 + 2 * 3999;
  const FOUR_SEATS = 7399 + 3999;

  /** What the team's owner sees of the plan, the seats and the workspace. */
  async function seen(client: TestClient) {
    const products = await client.call(api.products);
    const licence = await client.call(api.enterpriseLicense);
    if (!products.ok || !licence.ok) throw new Error("a call failed");
    return {
      productCode: products.body.productCode,
      seats: products.body.Seats,
      nextBillingDate: products.body.nextBillingDate,
      nextBillingAmount: products.body.nextBillingAmount,
      workspaceProduct: licence.body.productCode,
      workspaceSeats: licence.body.maxSeats,
    };
  }

  it("takes effect with PayPal's sale of the next period, as a card renewal applies it, once", async () => {
    const { client, userId, email } = await account();
    const prepared = await prepare(client, TEAM, { seats: 5 });
    expect(prepared.total).toBe(FIVE_SEATS);
    const sub = approveAtPaypal(prepared);
    expect((await confirm(client, sub.id, TEAM)).ok).toBe(true);
    const t0 = server.clock.now();
    const end = periodEnd(t0, 0, 1);
    // Under PayPal's API the product does not schedule it (PayPal would go on billing 5 seats):
    // the card call and PayPal's both refuse, each saying why.
    const byCard = await client.call(api.upgrade, {
      body: { product: { code: TEAM }, seats: 4, newCart: true },
      idempotencyKey: newKey(),
    });
    expect(byCard.ok || byCard.body.error_code).toBe("paypal_change_not_supported");
    const byPaypal = await client.call(api.paypalSubscription, {
      body: { product: { code: TEAM }, seats: 4, newCart: true, href: HREF },
      idempotencyKey: newKey(),
    });
    expect(byPaypal.ok || byPaypal.body.error_code).toBe("downgrade_needs_no_payment");
    // One recorded otherwise (by a server without PayPal's settings, whose stand-in renews
    // PayPal subscribers itself; as seat-reductions.test.ts records one from before its rules)
    // must still take effect with the period PayPal bills.
    await db().transaction((tx) =>
      Subscriptions.update(tx, userId, {
        pendingProductCode: TEAM,
        pendingSeats: 4,
        pendingAt: end,
      }),
    );
    expect(await seen(client)).toMatchObject({
      seats: 5,
      workspaceSeats: 5,
      nextBillingDate: end,
      nextBillingAmount: FOUR_SEATS,
    });

    server.clock.set(end);
    const sale = fake.event("PAYMENT.SALE.COMPLETED", fake.sale(sub.id, FOUR_SEATS, new Date(end)));
    expect((await deliver(sale)).status).toBe(200);
    expect((await deliver(sale)).status).toBe(200);

    // A month can outlast the 30-day session: the owner signs in again to look.
    const later = await server.signedIn(email, PASSWORD);
    expect(await seen(later)).toEqual({
      productCode: TEAM,
      seats: 4,
      nextBillingDate: periodEnd(t0, 1, 1),
      nextBillingAmount: FOUR_SEATS,
      workspaceProduct: TEAM,
      workspaceSeats: 4,
    });
    expect((await paypalInvoices(later)).map((i) => [i.seats, i.amountPaid])).toEqual([
      [5, FIVE_SEATS],
      [4, FOUR_SEATS],
    ]);
    // Nothing is left to apply at the next period end, and the workspace row the editor reads
    // has the seats paid for (as after a card renewal: renewals-*.test.ts).
    expect(await subscriptionOf(userId)).toMatchObject({
      seats: 4,
      pendingProductCode: null,
      pendingSeats: null,
      pendingAt: null,
    });
    const workspace = await workspaceOf(db(), userId);
    expect(workspace).toEqual({ max_seats: 4, product_code: TEAM });
  });
});

describe("cancelling both ways", () => {
  it("cancelling in the product cancels at PayPal and keeps the paid period", async () => {
    const { client, userId, sub, t0 } = await subscriber();
    const answer = await client.call(api.cancelSubscription, {});
    expect(answer.ok && answer.body.orderEndDate).toBe(periodEnd(t0, 0, 1));
    expect(fake.subscriptions.get(sub.id)?.status).toBe("CANCELLED");
    const row = await subscriptionOf(userId);
    expect(row).toMatchObject({ orderState: "cancelled", productCode: MONTHLY });
  });

  it("changes nothing here when PayPal cannot cancel", async () => {
    const { client, userId, sub } = await subscriber();
    fake.down = true;
    try {
      const answer = await client.call(api.cancelSubscription, {});
      expect(answer.ok || answer.body.error_code).toBe("paypal_provider_error");
    } finally {
      fake.down = false;
    }
    expect((await subscriptionOf(userId)).orderState).toBe("automatic");
    expect(fake.subscriptions.get(sub.id)?.status).toBe("ACTIVE");
  });

  it("cancelling at PayPal ends it in the product at the end of the paid period", async () => {
    const { userId, sub, t0 } = await subscriber();
    const event = fake.event("BILLING.SUBSCRIPTION.CANCELLED", { ...sub, status: "CANCELLED" });
    expect((await deliver(event)).status).toBe(200);
    const row = await subscriptionOf(userId);
    expect(row).toMatchObject({ orderState: "cancelled", orderEnd: periodEnd(t0, 0, 1) });
  });

  it("a full refund of the paid period ends it now and cancels at PayPal", async () => {
    const { userId, sub, t0 } = await subscriber();
    const sale = fake.sale(sub.id, MONTHLY_PRICE, new Date(t0));
    expect((await deliver(fake.event("PAYMENT.SALE.COMPLETED", sale))).status).toBe(200);
    const refund = fake.event("PAYMENT.SALE.REFUNDED", {
      id: "REFUND-1",
      sale_id: sale.id,
      amount: { total: "9.99", currency: "USD" },
    });
    expect((await deliver(refund)).status).toBe(200);
    expect((await deliver(refund)).status).toBe(200);
    // Ended now through the one refund path (services/refunds.ts), as a card refund ends it: the
    // plan lapses to free at once (expired), and PayPal bills no more.
    const row = await subscriptionOf(userId);
    expect(row.orderState).toBe("cancelled");
    expect(row.expiredFlag).toBe(true);
    expect(row.productCode).toBe("wv_free");
    expect(fake.subscriptions.get(sub.id)?.status).toBe("CANCELLED");
    const refunds = await refundsWithId(db(), "REFUND-1");
    expect(refunds.length).toBe(1);
  });

  it("SUSPENDED and EXPIRED at PayPal end it in the product at the end of the paid period, as CANCELLED", async () => {
    for (const status of ["SUSPENDED", "EXPIRED"] as const) {
      const { userId, sub, t0 } = await subscriber();
      const event = fake.event(`BILLING.SUBSCRIPTION.${status}`, { ...sub, status });
      expect((await deliver(event)).status).toBe(200);
      expect((await deliver(event)).status).toBe(200);
      const row = await subscriptionOf(userId);
      expect(row, status).toMatchObject({ orderState: "cancelled", orderEnd: periodEnd(t0, 0, 1) });
    }
  });

  it("a failed payment and an opened dispute are recorded and change nothing: PayPal retries, access follows the outcome", async () => {
    const { userId, sub } = await subscriber();
    const before = await subscriptionOf(userId);
    const failed = fake.event("BILLING.SUBSCRIPTION.PAYMENT.FAILED", sub);
    const dispute = fake.event("CUSTOMER.DISPUTE.CREATED", { dispute_id: "PP-D-1" });
    expect((await deliver(failed)).status).toBe(200);
    expect((await deliver(dispute)).status).toBe(200);
    expect(await subscriptionOf(userId)).toEqual(before);
    expect(fake.subscriptions.get(sub.id)?.status).toBe("ACTIVE");
  });

  it("a reversal of the sale (the buyer's bank or a lost dispute) ends it now, as a lost dispute, and cancels at PayPal", async () => {
    const { userId, sub, t0, orderId } = await subscriber();
    const sale = fake.sale(sub.id, MONTHLY_PRICE, new Date(t0));
    expect((await deliver(fake.event("PAYMENT.SALE.COMPLETED", sale))).status).toBe(200);
    const reversed = fake.event("PAYMENT.SALE.REVERSED", {
      id: sale.id,
      amount: { total: "9.99", currency: "USD" },
    });
    expect((await deliver(reversed)).status).toBe(200);
    expect((await deliver(reversed)).status).toBe(200);
    const row = await subscriptionOf(userId);
    expect(row).toMatchObject({
      orderState: "cancelled",
      expiredFlag: true,
      productCode: "wv_free",
    });
    expect(fake.subscriptions.get(sub.id)?.status).toBe("CANCELLED");
    const refunds = await refundsWithId(db(), `reversal:${sale.id}`);
    expect(refunds).toEqual([{ kind: "dispute_lost", amount: MONTHLY_PRICE, order_id: orderId }]);
  });

  it("refuses a card plan change of a PayPal subscriber with the reason", async () => {
    const { client } = await subscriber();
    const answer = await client.call(api.upgrade, {
      body: { product: { code: "wv_unloct17_1m" }, newCart: true },
      idempotencyKey: newKey(),
    });
    expect(answer.ok || answer.body.error_code).toBe("paypal_change_not_supported");
  });

  it("a plan change through PayPal replaces the old PayPal subscription", async () => {
    const { client, userId, sub } = await subscriber();
    const prepared = await prepare(client, "wv_unloct17_1m");
    const next = approveAtPaypal(prepared);
    const answer = await confirm(client, next.id, "wv_unloct17_1m");
    expect(answer.ok).toBe(true);
    expect(fake.subscriptions.get(sub.id)?.status).toBe("CANCELLED");
    expect((await Users.byId(db(), userId))?.paypalSubscriptionId).toBe(next.id);
    expect((await subscriptionOf(userId)).productCode).toBe("wv_unloct17_1m");
  });
});

describe("a customer who leaves stops paying (issue 33 item 4)", () => {
  async function mailsTo(email: string) {
    return Outbox.latest(db(), 20, email);
  }

  it("deleting the account cancels the PayPal subscription at PayPal first, and says billing stopped", async () => {
    const { client, userId, email, sub, t0 } = await subscriber();
    const answer = await client.call(api.deleteUser, { body: { forgetMe: true } });
    expect(answer.ok).toBe(true);
    expect(fake.subscriptions.get(sub.id)?.status).toBe("CANCELLED");
    expect(await Users.byId(db(), userId)).toBeNull();
    const [mail] = (await mailsTo(email)).filter((m) => m.subject === "Your billing has stopped");
    expect(mail?.body).toContain("Your account has been deleted, and your billing has stopped.");
    expect(mail?.body).toContain("Your PayPal subscription is cancelled at PayPal");
    // A sale PayPal took all the same (its cancel crossed the renewal) is given back, not left
    // waiting for an account that is gone.
    const end = periodEnd(t0, 0, 1);
    server.clock.set(end);
    const sale = fake.sale(sub.id, MONTHLY_PRICE, new Date(end));
    expect((await deliver(fake.event("PAYMENT.SALE.COMPLETED", sale))).status).toBe(200);
    expect(refundsOf(sub.id)).toEqual(["9.99"]);
  });

  it("converting to free cancels at PayPal first, and says billing stopped", async () => {
    const { client, userId, email, sub } = await subscriber();
    const answer = await client.call(api.disbandInstance, {
      body: { reason: "", forgetMe: false, deleteOwner: false, deleteMembers: false },
    });
    expect(answer.ok && answer.body.productCode).toBe("wv_free");
    expect(fake.subscriptions.get(sub.id)?.status).toBe("CANCELLED");
    expect((await subscriptionOf(userId)).orderState).toBe("cancelled");
    const [mail] = (await mailsTo(email)).filter((m) => m.subject === "Your billing has stopped");
    expect(mail?.body).toContain(
      "Your account is now on the free plan, and your billing has stopped.",
    );
  });

  it("deletes an account whose PayPal subscription PayPal does not know (nothing there bills)", async () => {
    const { client, userId } = await account();
    await db().transaction((tx) => Users.update(tx, userId, { paypalSubscriptionId: "I-GONE" }));
    expect((await client.call(api.deleteUser, { body: { forgetMe: true } })).ok).toBe(true);
    expect(await Users.byId(db(), userId)).toBeNull();
  });

  it("refuses to delete or convert, changing nothing, while PayPal cannot be reached", async () => {
    const { client, userId, email, sub } = await subscriber();
    fake.down = true;
    try {
      const deleted = await client.call(api.deleteUser, { body: { forgetMe: true } });
      const converted = await client.call(api.disbandInstance, {
        body: { reason: "", forgetMe: false, deleteOwner: false, deleteMembers: false },
      });
      for (const answer of [deleted, converted])
        expect(answer.ok || [answer.status, answer.body.error_code]).toEqual([
          503,
          "billing_not_stopped",
        ]);
    } finally {
      fake.down = false;
    }
    expect(await Users.byId(db(), userId)).not.toBeNull();
    expect(await subscriptionOf(userId)).toMatchObject({
      productCode: MONTHLY,
      orderState: "automatic",
    });
    expect(fake.subscriptions.get(sub.id)?.status).toBe("ACTIVE");
    expect((await mailsTo(email)).map((m) => m.subject)).not.toContain("Your billing has stopped");
    // Retried once PayPal answers: done.
    expect((await client.call(api.deleteUser, { body: { forgetMe: true } })).ok).toBe(true);
    expect(fake.subscriptions.get(sub.id)?.status).toBe("CANCELLED");
  });
});
