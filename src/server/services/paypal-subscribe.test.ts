// PayPal subscriptions (issue 21): created and verified on the server, its webhooks, the reverse
// charge on its invoices. The flow's steps are in testing/paypal-flow.ts.

import { describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { periodEnd } from "../../domain/calendar/index.ts";
import { REVERSE_CHARGE_MENTION } from "../../domain/invoices/tax-treatment.ts";
import { Invoices } from "../db/invoices.ts";
import { Users } from "../db/users.ts";
import {
  account,
  approveAtPaypal,
  confirm,
  db,
  deliver,
  fake,
  MONTHLY,
  MONTHLY_PRICE,
  PASSWORD,
  paypalInvoices,
  prepare,
  server,
  startsPaypalServer,
  subscriber,
  subscriptionOf,
} from "../testing/paypal-flow.ts";

startsPaypalServer();

describe("a subscription created and verified on the server", () => {
  it("makes the PayPal product and plan once, and answers the plan, quantity and order key", async () => {
    const { client } = await account();
    const first = await prepare(client);
    const second = await prepare(client);
    expect(first.planId).toBe(second.planId);
    expect(first.quantity).toBe(1);
    expect(first.firstCycleUnitPrice).toBeNull();
    expect(first.total).toBe(MONTHLY_PRICE);
    expect(first.orderKey).not.toBe(second.orderKey);
    const plan = fake.plans.get(first.planId);
    expect(plan?.billing_cycles?.map((c) => c.pricing_scheme?.fixed_price.value)).toEqual([
      "9.99",
      "9.99",
    ]);
    expect(
      fake.calls.filter((c) => c.method === "POST" && c.path === "/v1/billing/plans").length,
    ).toBe(1);
  });

  it("writes the order when PayPal says ACTIVE with our order key, plan and amount", async () => {
    const { client, userId } = await account();
    const prepared = await prepare(client);
    const sub = approveAtPaypal(prepared);
    const answer = await confirm(client, sub.id);
    expect(answer.ok && answer.body.orderId).toMatch(/^ord/);
    // The same confirm again (a retried onApprove): the same order, not a second one.
    const again = await confirm(client, sub.id);
    expect(again.ok && again.body.orderId).toBe(answer.ok && answer.body.orderId);
    expect((await paypalInvoices(client)).map((i) => [i.productCode, i.amountPaid])).toEqual([
      [MONTHLY, MONTHLY_PRICE],
    ]);
    const subRow = await subscriptionOf(userId);
    expect(subRow).toMatchObject({
      productCode: MONTHLY,
      orderState: "automatic",
      paymentProcessor: "paypal",
    });
    expect((await Users.byId(db(), userId))?.paypalSubscriptionId).toBe(sub.id);
  });

  it("refuses a subscription still APPROVAL_PENDING: no order", async () => {
    const { client, userId } = await account();
    const prepared = await prepare(client);
    const sub = approveAtPaypal(prepared, { status: "APPROVAL_PENDING" });
    const answer = await confirm(client, sub.id);
    expect(answer.ok || [answer.status, answer.body.error_code]).toEqual([
      409,
      "paypal_not_completed",
    ]);
    expect(await paypalInvoices(client)).toEqual([]);
    expect((await subscriptionOf(userId)).productCode).not.toBe(MONTHLY);
  });

  it("refuses a subscription with another order's custom_id, and leaves it alone", async () => {
    const { client } = await account();
    const prepared = await prepare(client);
    const sub = approveAtPaypal(prepared, { customId: "PAYID-NOT-OURS" });
    const answer = await confirm(client, sub.id);
    expect(answer.ok || [answer.status, answer.body.error_code]).toEqual([
      409,
      "paypal_subscription_mismatch",
    ]);
    expect(await paypalInvoices(client)).toEqual([]);
    expect(fake.subscriptions.get(sub.id)?.status).toBe("ACTIVE");
  });

  it("refuses a subscription of another plan, and cancels it at PayPal", async () => {
    const { client, userId } = await account();
    const other = await prepare(client, "wv_unloct17_1m");
    const prepared = await prepare(client);
    const sub = approveAtPaypal(prepared, { planId: other.planId });
    const answer = await confirm(client, sub.id);
    expect(answer.ok || [answer.status, answer.body.error_code]).toEqual([
      409,
      "paypal_subscription_mismatch",
    ]);
    expect(await paypalInvoices(client)).toEqual([]);
    expect((await subscriptionOf(userId)).orderState).not.toBe("automatic");
    expect(fake.subscriptions.get(sub.id)?.status).toBe("CANCELLED");
  });

  it("answers 502 with nothing written when PayPal cannot be reached", async () => {
    const { client } = await account();
    const prepared = await prepare(client);
    const sub = approveAtPaypal(prepared);
    fake.down = true;
    try {
      const answer = await confirm(client, sub.id);
      expect(answer.ok || [answer.status, answer.body.error_code]).toEqual([
        502,
        "paypal_provider_error",
      ]);
    } finally {
      fake.down = false;
    }
    expect(await paypalInvoices(client)).toEqual([]);
  });
});

describe("webhooks", () => {
  it("refuses with 400 and changes nothing when PayPal does not verify the delivery", async () => {
    const { userId, sub } = await subscriber();
    const event = fake.event("BILLING.SUBSCRIPTION.CANCELLED", { id: sub.id, status: "CANCELLED" });
    // The same event re-serialised (PayPal signs the bytes it sent) and a forged signature.
    const reserialised = { ...event, body: JSON.stringify(JSON.parse(event.body)) };
    const forged = {
      ...event,
      headers: { ...event.headers, "paypal-transmission-sig": "forged" },
    };
    for (const delivery of [reserialised, forged]) {
      const response = await deliver(delivery);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error_code: string }).error_code).toBe(
        "webhook_not_verified",
      );
    }
    expect((await subscriptionOf(userId)).orderState).toBe("automatic");
    // The genuine delivery is applied.
    expect((await deliver(event)).status).toBe(200);
    expect((await subscriptionOf(userId)).orderState).toBe("cancelled");
  });

  it("writes one renewal order per PAYMENT.SALE.COMPLETED over 13 months on the test clock", async () => {
    const { email, userId, sub, t0 } = await subscriber();
    // The first payment's sale: joins the order already written, no second order.
    const first = fake.event(
      "PAYMENT.SALE.COMPLETED",
      fake.sale(sub.id, MONTHLY_PRICE, new Date(t0)),
    );
    expect((await deliver(first)).status).toBe(200);
    for (let month = 1; month <= 13; month++) {
      const at = periodEnd(t0, month - 1, 1);
      server.clock.set(at);
      const sale = fake.event(
        "PAYMENT.SALE.COMPLETED",
        fake.sale(sub.id, MONTHLY_PRICE, new Date(at)),
      );
      expect((await deliver(sale)).status).toBe(200);
      // PayPal delivers again: nothing more.
      expect((await deliver(sale)).status).toBe(200);
    }
    // A new session: the first one ran out while the clock moved 13 months.
    const invoices = await paypalInvoices(await server.signedIn(email, PASSWORD));
    expect(invoices.map((i) => i.amountPaid)).toEqual(Array(14).fill(MONTHLY_PRICE));
    const row = await subscriptionOf(userId);
    expect(row.orderEnd).toBe(periodEnd(t0, 13, 1));
    expect(row.orderState).toBe("automatic");
  });
});

describe("reverse charge (issue 23)", () => {
  it("a German company's PayPal plan, its confirmation by webhook and its renewals carry no VAT", async () => {
    const { client, email } = await account();
    await client.call(api.address, { body: { name: "Ada Team", country: "DE" } });
    const saved = await client.call(api.saveBillingDetails, {
      body: { organisation: "Beispiel GmbH", taxId: "DE136695976" },
    });
    expect(saved.ok && saved.body.reverseCharge).toBe(true);
    const prepared = await prepare(client);
    expect(prepared.total).toBe(MONTHLY_PRICE);
    // What PayPal will charge each renewal: the price, no German VAT on top.
    expect(
      fake.plans
        .get(prepared.planId)
        ?.billing_cycles?.map((c) => c.pricing_scheme?.fixed_price.value),
    ).toEqual(["9.99", "9.99"]);
    // The confirm call never comes: the ACTIVATED webhook prices the approval again, the same.
    const sub = approveAtPaypal(prepared);
    expect((await deliver(fake.event("BILLING.SUBSCRIPTION.ACTIVATED", sub))).status).toBe(200);
    expect((await paypalInvoices(client)).map((i) => i.amountPaid)).toEqual([MONTHLY_PRICE]);
    const t0 = server.clock.now();
    const at = periodEnd(t0, 0, 1);
    server.clock.set(at);
    const sale = fake.event(
      "PAYMENT.SALE.COMPLETED",
      fake.sale(sub.id, MONTHLY_PRICE, new Date(at)),
    );
    expect((await deliver(sale)).status).toBe(200);
    const later = await server.signedIn(email, PASSWORD);
    const documents = await later.call(api.invoiceDocuments, {});
    const numbers = documents.ok ? documents.body.documents.map((d) => d.number) : [];
    expect(numbers).toHaveLength(2);
    for (const number of numbers) {
      expect((await Invoices.byNumber(db(), number))?.document).toMatchObject({
        taxes: [{ label: "VAT (reverse charge)", ratePercent: 0, taxable: MONTHLY_PRICE, tax: 0 }],
        total: MONTHLY_PRICE,
        notes: [REVERSE_CHARGE_MENTION],
      });
    }
  });
});
