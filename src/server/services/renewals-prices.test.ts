// Issue 11, "Renewals": what renews, and at what price (the pricing module's and the catalogue's
// amounts, with the spec's figures beside them).

import { describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { addMonthsClamped, periodEnd } from "../../domain/calendar/index.ts";
import { orderSummary } from "../../domain/pricing/index.ts";
import { Renewals } from "../db/renewals.ts";
import { newKey } from "../testing/harness.ts";
import { answerSandboxApproval } from "../testing/paypal-sandbox.ts";
import {
  campaignBuyers,
  chargesOf,
  db,
  implied,
  invoices,
  mailsTo,
  moveClock,
  server,
  setClock,
  signUp,
  startsRenewalServer,
  subscriber,
  subscription,
} from "../testing/renewal-flow.ts";
import { workspaceOf } from "../testing/tables.ts";

startsRenewalServer();

describe("what renews, and at what price", () => {
  it("does not charge a cancelled subscription: it ends at its period end", async () => {
    const email = "cancelled@example.com";
    const { client, userId, t0 } = await subscriber(email, { code: "wv_unloct17_1m" });
    const cancelled = await client.call(api.cancelSubscription);
    expect(cancelled).toMatchObject({ ok: true, body: { orderEndDate: periodEnd(t0, 0, 1) } });

    await setClock(periodEnd(t0, 0, 1) - 1);
    expect(await subscription(userId)).toMatchObject({
      productCode: "wv_unloct17_1m",
      orderState: "cancelled",
    });
    await setClock(periodEnd(t0, 0, 1));
    expect(await subscription(userId)).toMatchObject({
      productCode: "wv_free",
      orderState: "cancelled",
      prevOrderState: "automatic",
      expiredFlag: true,
      orderEnd: periodEnd(t0, 0, 1),
    });
    await setClock(addMonthsClamped(t0, 4));
    expect(await chargesOf(userId)).toHaveLength(1);
    expect(await invoices(email)).toHaveLength(1);
    expect(await Renewals.forUser(db(), userId)).toEqual([]);
    expect((await mailsTo(email)).at(-1)?.subject).toBe("Your subscription has ended");
  });

  it("applies a scheduled downgrade at renewal and charges the new product's price", async () => {
    // Unlimited annual, then Power monthly: a cheaper plan on a shorter term waits for the year's
    // end (decision 0012), then starts a new monthly anchor on that day.
    const email = "downgrade@example.com";
    const { client, userId, t0 } = await subscriber(email, {
      code: "wv_unloct17_12m",
    });
    const scheduled = await client.call(api.upgrade, {
      body: { product: { code: "wv_single_1m" }, newCart: true },
      idempotencyKey: newKey(),
    });
    const yearEnd = periodEnd(t0, 0, 12);
    expect(scheduled).toMatchObject({
      ok: true,
      body: { total: 0, scheduledChange: { productCode: "wv_single_1m", effectiveDate: yearEnd } },
    });
    const power = implied("wv_single_1m", yearEnd);
    expect(power.renewal).toBe(999);

    await setClock(addMonthsClamped(yearEnd, 1));
    const list = await invoices(email);
    expect(list.map((i) => [i.productCode, i.amountPaid, i.orderEndDate])).toEqual([
      ["wv_unloct17_12m", 9588, yearEnd],
      ["wv_single_1m", power.renewal, periodEnd(yearEnd, 0, 1)],
      ["wv_single_1m", power.renewal, periodEnd(yearEnd, 1, 1)],
    ]);
    expect(await subscription(userId)).toMatchObject({
      productCode: "wv_single_1m",
      termMonths: 1,
      periodAnchor: yearEnd,
      periodIndex: 1,
      pendingProductCode: null,
    });
  });

  it("renews a team with fewer seats when that was scheduled, at the price of those seats", async () => {
    const email = "team-down@example.com";
    const { client, userId, t0 } = await subscriber(email, {
      code: "wv_bizoct17_1m",
      seats: 5,
    });
    const fewer = await client.call(api.upgrade, {
      body: { product: { code: "wv_bizoct17_1m" }, seats: 4, newCart: true },
      idempotencyKey: newKey(),
    });
    expect(fewer).toMatchObject({ ok: true, body: { scheduledChange: { seats: 4 } } });
    await setClock(periodEnd(t0, 0, 1));
    const four = orderSummary(server.catalog, {
      targetProduct: "wv_bizoct17_1m",
      seats: 4,
      atMs: periodEnd(t0, 0, 1),
    }).newSubscription;
    expect(four.recurringBasePrice + four.extraSeatsRecurringPrice).toBe(7399 + 3999);
    expect((await invoices(email)).map((i) => [i.seats, i.amountPaid])).toEqual([
      [5, 7399 + 2 * 3999],
      [4, 7399 + 3999],
    ]);
    expect(await subscription(userId)).toMatchObject({
      seats: 4,
      periodAnchor: t0,
      periodIndex: 1,
    });
    const instance = await workspaceOf(db(), userId);
    expect(instance?.max_seats).toBe(4);
  });

  it("renews the essentials add-on with its plan, at the essentials variant's price", async () => {
    const email = "essentials@example.com";
    const { t0 } = await subscriber(email, {
      code: "wv_single_1m",
      addOns: ["wv_essentials_1m"],
    });
    const plus = implied("wv_single_plus_1m", t0);
    expect(plus.renewal).toBe(2998); // spec section 9: Power + essentials 29.98 a month
    await setClock(periodEnd(t0, 1, 1));
    expect((await invoices(email)).map((i) => [i.productCode, i.amountPaid])).toEqual([
      ["wv_single_plus_1m", 999 + 1999],
      ["wv_single_plus_1m", plus.renewal],
      ["wv_single_plus_1m", plus.renewal],
    ]);
  });

  it("does not renew a first-term campaign discount, and renews a recurring one", async () => {
    const { intro, loyal } = campaignBuyers; // bought on 15 January 2026 with the coupons
    const introFigures = implied("wv_bizindiv_1m", intro.t0, { coupon: "intro2026" });
    const loyalFigures = implied("wv_unloct17_1m", loyal.t0, { coupon: "loyal2026" });
    expect(introFigures).toEqual({ purchase: 1999, renewal: 3999 }); // Professional 39.99
    expect(loyalFigures).toEqual({ purchase: 1199, renewal: 1199 }); // recurring: every term
    // Both campaigns ended on 1 February 2026, many renewals ago; the recurring one's price is
    // kept for the subscription, the first-term one was never renewed.
    await moveClock({ advanceMs: 0 });
    const now = server.clock.now();
    const ended = (t0: number) => {
      let n = 0;
      while (periodEnd(t0, n, 1) <= now) n++;
      return n;
    };
    expect(ended(intro.t0)).toBeGreaterThan(12);
    expect((await invoices(intro.email)).map((i) => i.amountPaid)).toEqual([
      introFigures.purchase,
      ...Array(ended(intro.t0)).fill(introFigures.renewal),
    ]);
    expect((await invoices(loyal.email)).map((i) => i.amountPaid)).toEqual(
      Array(1 + ended(loyal.t0)).fill(loyalFigures.renewal),
    );
  });

  it("renews a PayPal subscription as a PayPal charge (sandbox: no PayPal API call)", async () => {
    const email = "paypal-renew@example.com";
    const { client, userId } = await signUp(email);
    const approval = await client.call(api.paypalSubscription, {
      body: { product: { code: "wv_single_1m" }, newCart: true, href: "/cart#paypalCompleted" },
      idempotencyKey: newKey(),
    });
    if (!approval.ok) throw new Error(approval.body.message);
    const t0 = server.clock.now();
    await answerSandboxApproval(client, approval.body.approvalId);
    await setClock(periodEnd(t0, 0, 1));
    const list = await invoices(email, "paypal");
    expect(list.map((i) => [i.paymentProcessor, i.amountPaid])).toEqual([
      ["paypal", 999],
      ["paypal", 999],
    ]);
    expect(await invoices(email, "cc")).toEqual([]);
    expect(await chargesOf(userId)).toEqual([]);
    const [renewal] = await Renewals.forUser(db(), userId);
    expect(renewal).toMatchObject({ processor: "paypal", state: "charged" });
  });
});
