// Issue 11, "Renewals": the renewal worker on a settable clock. Each test moves the clock through
// POST /dev/clock and checks invoices, charges, e-mails and the account's state: thirteen months of
// renewals, and a refused renewal. Expected amounts come from the pricing module and the catalogue,
// with the spec's figures beside them.

import { describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { addMonthsClamped, periodEnd } from "../../domain/calendar/index.ts";
import { DAY_MS } from "../clock.ts";
import { Renewals } from "../db/renewals.ts";
import {
  as,
  chargesOf,
  DECLINED_WHEN_CHARGED,
  db,
  implied,
  invoices,
  mailsTo,
  moveClock,
  OK_CARD,
  saveCard,
  setClock,
  startsRenewalServer,
  subscriber,
  subscription,
} from "../testing/renewal-flow.ts";

startsRenewalServer();

describe("thirteen months on the test clock", () => {
  it("finds exactly the invoices and amounts the catalogue implies for a monthly and an annual subscriber", async () => {
    const ca = { country: "US", state: "CA" };
    const monthly = await subscriber("monthly-13@example.com", {
      code: "wv_unloct17_1m",
      address: ca,
    });
    const annual = await subscriber("annual-13@example.com", { code: "wv_single_12m" });
    const t0 = monthly.t0;

    const m = implied("wv_unloct17_1m", t0, { tax: ca });
    const a = implied("wv_single_12m", annual.t0);
    // The same figures by hand (the clock starts on 15 January 2026, inside the fixture's winter
    // sale on Power annual): Unlimited monthly 15.99 plus California's 7.25% (115.93 → 1.16) is
    // 17.15 at purchase and at every renewal. Power annual is 29.94 in the sale (first term
    // only), then 59.88 a year, untaxed (US without a state: 0%).
    expect(m).toEqual({ purchase: 1715, renewal: 1715 });
    expect(a).toEqual({ purchase: 2994, renewal: 5988 });

    // One jump of thirteen months: the worker renews period after period, in order.
    const run = await setClock(addMonthsClamped(t0, 13));
    expect(run.charged).toBeGreaterThanOrEqual(13 + 1);

    // Monthly: the purchase and 13 renewals (15 February 2026 … 15 February 2027, the last due
    // exactly now). Each period ends on the anchor's day, counted from the anchor.
    const mInvoices = await invoices(monthly.email);
    expect(mInvoices).toHaveLength(14);
    expect(mInvoices.map((i) => i.amountPaid)).toEqual([m.purchase, ...Array(13).fill(m.renewal)]);
    expect(mInvoices.map((i) => i.orderEndDate)).toEqual(
      Array.from({ length: 14 }, (_, n) => periodEnd(t0, n, 1)),
    );
    expect(mInvoices.reduce((sum, i) => sum + i.amountPaid, 0)).toBe(14 * 1715);
    for (const invoice of mInvoices.slice(1)) {
      expect(invoice).toMatchObject({
        productCode: "wv_unloct17_1m",
        orderDuration: 1,
        price: 1599,
        salesTax: 116,
        seats: 1,
        paymentProcessor: "cc",
      });
      expect(invoice.invoiceNumber).toMatch(/^INV-/);
    }
    expect((await chargesOf(monthly.userId)).map((c) => c.amount)).toEqual(
      mInvoices.map((i) => i.amountPaid),
    );

    // Annual: the purchase and one renewal on 15 January 2027; the next is due in 2028.
    const aInvoices = await invoices(annual.email);
    expect(aInvoices.map((i) => [i.amountPaid, i.orderEndDate])).toEqual([
      [a.purchase, periodEnd(annual.t0, 0, 12)],
      [a.renewal, periodEnd(annual.t0, 1, 12)],
    ]);

    const products = await (await as(monthly.email)).call(api.products);
    if (!products.ok) throw new Error(products.body.message);
    expect(products.body).toMatchObject({
      orderState: "automatic",
      productCode: "wv_unloct17_1m",
      nextBillingDate: periodEnd(t0, 13, 1),
    });
    // Caught up: moving the clock again by a millisecond renews nothing for them.
    await moveClock({ advanceMs: 1 });
    expect(await invoices(monthly.email)).toHaveLength(14);
    expect(await invoices(annual.email)).toHaveLength(2);
    const receipts = (await mailsTo("monthly-13@example.com")).filter(
      (mail) => mail.subject === "Your subscription renewed",
    );
    expect(receipts).toHaveLength(13);
    expect(receipts[0]?.body).toContain("$17.15");
  });
});

describe("a refused renewal (the test card ending 0341 saves fine and is declined when charged)", () => {
  it("is tried on day 0, 3 and 7 with an e-mail each time, then the account lapses to the free plan", async () => {
    const email = "dunning@example.com";
    const { client, userId, t0 } = await subscriber(email, { code: "wv_single_1m" });
    await saveCard(client, DECLINED_WHEN_CHARGED);
    const due = periodEnd(t0, 0, 1);

    expect((await moveClock({ set: due })).failed).toBeGreaterThanOrEqual(1);
    let [renewal] = await Renewals.forUser(db(), userId);
    expect(renewal).toMatchObject({
      state: "failed",
      attempts: 1,
      amount: 999,
      lastError: "card_declined",
      nextAttemptAt: due + 3 * DAY_MS,
    });
    // The grace period: the plan stays until the tries are used up.
    expect(await subscription(userId)).toMatchObject({
      productCode: "wv_single_1m",
      orderState: "automatic",
    });

    await setClock(due + 3 * DAY_MS - 1); // not yet
    expect(await Renewals.forUser(db(), userId)).toMatchObject([{ attempts: 1 }]);
    await setClock(due + 3 * DAY_MS);
    [renewal] = await Renewals.forUser(db(), userId);
    expect(renewal).toMatchObject({
      state: "failed",
      attempts: 2,
      nextAttemptAt: due + 7 * DAY_MS,
    });

    await setClock(due + 7 * DAY_MS);
    [renewal] = await Renewals.forUser(db(), userId);
    expect(renewal).toMatchObject({ state: "lapsed", attempts: 3 });

    // Spec section 4: cancelled (orderState) and expired (the flag), on the free plan's
    // entitlements; prevOrderState remembers the automatic subscription.
    expect(await subscription(userId)).toMatchObject({
      productCode: "wv_free",
      orderState: "cancelled",
      prevOrderState: "automatic",
      expiredFlag: true,
      orderEnd: due,
      paidCents: 0,
    });
    const context = await (await as(email)).call(api.userContext);
    if (!context.ok) throw new Error(context.body.message);
    expect(context.body).toMatchObject({
      productCode: "wv_free",
      orderState: "cancelled",
      isCancelled: true,
      isExpiredAccount: true,
    });

    const mails = (await mailsTo(email)).map((mail) => mail.subject);
    expect(mails.filter((s) => s === "Your payment did not go through")).toHaveLength(2);
    expect(mails.at(-1)).toBe("Your subscription has ended");
    const failed = (await mailsTo(email)).find(
      (m) => m.subject === "Your payment did not go through",
    );
    expect(failed?.body).toContain("Your card was declined.");
    const retryDay = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });
    expect(failed?.body).toContain(`We will try again on ${retryDay.format(due + 3 * DAY_MS)}.`);
    // It links to the account page, where Update card saves the card the next try charges.
    expect(failed?.body).toMatch(/add a card that works before then:\n\S+\/cart\/home$/);

    // Three declined tries, no successful one after the purchase; nothing more is tried.
    expect((await chargesOf(userId)).map((c) => c.error)).toEqual([
      null,
      "card_declined",
      "card_declined",
      "card_declined",
    ]);
    await setClock(addMonthsClamped(due, 3));
    expect(await chargesOf(userId)).toHaveLength(4);
    expect(await invoices(email)).toHaveLength(1);
  });

  it("is restored by a successful retry, for the period it was due for", async () => {
    const email = "restored@example.com";
    const { client, userId, t0 } = await subscriber(email, { code: "wv_single_1m" });
    await saveCard(client, DECLINED_WHEN_CHARGED);
    const due = periodEnd(t0, 0, 1);
    await setClock(due);
    expect(await Renewals.forUser(db(), userId)).toMatchObject([{ state: "failed", attempts: 1 }]);

    await saveCard(await as(email), OK_CARD); // the customer follows the e-mail's advice
    await setClock(due + 3 * DAY_MS);
    expect(await Renewals.forUser(db(), userId)).toMatchObject([{ state: "charged", attempts: 2 }]);
    expect(await subscription(userId)).toMatchObject({
      productCode: "wv_single_1m",
      orderState: "automatic",
      orderStart: due,
      orderEnd: periodEnd(t0, 1, 1), // the anchor holds: the late payment does not move the day
      periodIndex: 1,
      expiredFlag: false,
    });
    const list = await invoices(email);
    expect(list.map((i) => [i.amountPaid, i.orderEndDate])).toEqual([
      [999, due],
      [999, periodEnd(t0, 1, 1)],
    ]);
    expect((await mailsTo(email)).at(-1)?.subject).toBe(
      "Payment received: your subscription continues",
    );
    // And it renews normally at the next period end.
    await setClock(periodEnd(t0, 1, 1));
    expect(await invoices(email)).toHaveLength(3);
  });
});
