// Issue 11, "Renewals": the renewal worker on a settable clock. The server runs a local run with
// CLOCK=settable; each test moves the clock through POST /dev/clock (which answers once the worker
// has caught up) and checks invoices, charges, e-mails and the account's state. Expected amounts
// come from the pricing module and the catalogue, with the spec's figures beside them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { addMonthsClamped, periodEnd } from "../../domain/calendar/index.ts";
import type { Catalog } from "../../domain/catalog/catalog-schema.ts";
import { orderSummary, type TaxLocation, taxAmount } from "../../domain/pricing/index.ts";
import { makeCampaign } from "../../domain/testing/builders.ts";
import { DAY_MS } from "../clock.ts";
import { SandboxCharges } from "../db/ledger.ts";
import { Orders } from "../db/orders.ts";
import { Renewals } from "../db/renewals.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import type { PaymentProvider } from "../payments/provider.ts";
import { fixtureCatalog } from "../testing/fixture-catalog.ts";
import { newKey, startTestServer, type TestClient, type TestServer } from "../testing/harness.ts";
import { answerSandboxApproval } from "../testing/paypal-sandbox.ts";
import { chargesOfCustomer, workspaceOf } from "../testing/tables.ts";
import { LOCK_LEASE_MS } from "./account-lock.ts";
import { type RenewalRun, RenewalWorker } from "./renewals.ts";

const OK_CARD = "4242424242424242";
const DECLINED_WHEN_CHARGED = "4000000000000341";

/** The fixture catalogue plus two targeted campaigns (a coupon is needed, so no other test sees them). */
function catalog(): Catalog {
  const base = fixtureCatalog();
  const window = { validFrom: Date.UTC(2026, 0, 1), validTo: Date.UTC(2026, 1, 1) };
  return {
    ...base,
    campaigns: [
      ...base.campaigns,
      makeCampaign({
        id: "loyal",
        name: "Loyalty price",
        coupon: "loyal2026",
        targeted: true,
        recurring: true,
        ...window,
        prices: { wv_unloct17_1m: 1199 },
      }),
      makeCampaign({
        id: "intro",
        name: "Introductory price",
        coupon: "intro2026",
        targeted: true,
        recurring: false,
        ...window,
        prices: { wv_bizindiv_1m: 1999 },
      }),
    ],
  };
}

let server: TestServer;
/** Bought on the first day, under the campaigns (they end on 1 February 2026). */
let campaignBuyers: { intro: Subscriber; loyal: Subscriber };
beforeAll(async () => {
  server = await startTestServer({
    catalog: catalog(),
    env: { CLOCK: "settable" },
    renewals: { intervalMs: 0 },
  });
  campaignBuyers = {
    intro: await subscriber("intro@example.com", { code: "wv_bizindiv_1m", coupon: "intro2026" }),
    loyal: await subscriber("loyal@example.com", { code: "wv_unloct17_1m", coupon: "loyal2026" }),
  };
});
afterAll(async () => {
  await server.close();
});

const db = () => server.running.deps.db;

async function signUp(email: string): Promise<{ client: TestClient; userId: number }> {
  const client = server.client();
  const answer = await client.call(api.signUp, {
    body: { email, password: PASSWORD, firstName: "Rene", lastName: "Wal" },
  });
  if (!answer.ok) throw new Error(answer.body.message);
  return { client, userId: answer.body.userId };
}

async function saveCard(client: TestClient, number: string): Promise<void> {
  const token = await client.call(api.sandboxToken, {
    body: { number, expMonth: 12, expYear: 2040, cvc: "123", postalCode: "12345" },
  });
  if (!token.ok) throw new Error(token.body.message);
  const saved = await client.call(api.paymentToken, {
    body: { token: token.body.id },
    idempotencyKey: newKey(),
  });
  if (!saved.ok) throw new Error(saved.body.message);
}

type Purchase = {
  code: string;
  addOns?: string[];
  coupon?: string;
  seats?: number;
  address?: { country: string; state?: string };
};

type Subscriber = Awaited<ReturnType<typeof subscriber>>;

/** A new account with a card that buys `p` now; returns it with the time of purchase. */
async function subscriber(email: string, p: Purchase) {
  const { client, userId } = await signUp(email);
  if (p.address) {
    const answer = await client.call(api.address, { body: p.address });
    if (!answer.ok) throw new Error(answer.body.message);
  }
  await saveCard(client, OK_CARD);
  const t0 = server.clock.now();
  const bought = await client.call(api.upgrade, {
    body: {
      product: { code: p.code },
      newCart: true,
      ...(p.addOns ? { addOns: p.addOns } : {}),
      ...(p.coupon ? { coupon: p.coupon } : {}),
      ...(p.seats ? { seats: p.seats } : {}),
    },
    idempotencyKey: newKey(),
  });
  if (!bought.ok) throw new Error(bought.body.message);
  return { email, client, userId, t0, order: bought.body };
}

/** Moves the clock through the development endpoint; answers once the worker has caught up. */
async function moveClock(
  change: { advanceMs: number } | { set: number | string },
): Promise<RenewalRun> {
  const response = await fetch(`${server.running.url}/dev/clock`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(change),
  });
  const body = (await response.json()) as { now: number; renewals: RenewalRun };
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body.renewals;
}

const setClock = (ms: number) => moveClock({ set: ms });

const PASSWORD = "secret-1";

/** A client signed in afresh: sessions last 30 days, and the clock moves by months. */
function as(email: string): Promise<TestClient> {
  return server.signedIn(email, PASSWORD);
}

async function invoices(email: string, processor: "cc" | "paypal" = "cc") {
  const client = await as(email);
  const answer = await client.call(processor === "cc" ? api.invoices : api.paypalInvoices, {
    params: { page: 1 },
  });
  if (!answer.ok) throw new Error(answer.body.message);
  return answer.body;
}

async function subscription(userId: number) {
  const sub = await Subscriptions.get(db(), userId);
  if (!sub) throw new Error(`no subscription for ${userId}`);
  return sub;
}

async function chargesOf(userId: number): Promise<{ amount: number; error: string | null }[]> {
  return chargesOfCustomer(db(), `cus_sandbox_${userId}`);
}

async function mailsTo(email: string): Promise<{ subject: string; body: string }[]> {
  const response = await fetch(
    `${server.running.url}/dev/mailbox?format=json&to=${encodeURIComponent(email)}`,
  );
  const mails = (await response.json()) as { subject: string; body: string }[];
  return mails.reverse(); // oldest first
}

/** The charge the catalogue implies for buying `code` at `atMs` and for each renewal of it. */
function implied(code: string, atMs: number, options: { tax?: TaxLocation; coupon?: string } = {}) {
  const { catalog } = server;
  const summary = orderSummary(catalog, {
    targetProduct: code,
    atMs,
    tax: options.tax ?? { country: "US" },
    coupon: options.coupon,
  });
  const rate = summary.taxRates[0]?.ratePercent ?? 0;
  const recurring =
    summary.newSubscription.recurringBasePrice + summary.newSubscription.extraSeatsRecurringPrice;
  return { purchase: summary.total, renewal: recurring + taxAmount(recurring, rate) };
}

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

describe("several workers on one database", () => {
  it("charge each period once when two workers race (and the server's own joins in)", async () => {
    const accounts = await Promise.all(
      ["race-a", "race-b", "race-c"].map((name) =>
        subscriber(`${name}@example.com`, { code: "wv_single_1m" }),
      ),
    );
    const deps = server.running.deps;
    const one = new RenewalWorker(deps, { intervalMs: 0, id: "worker-one" });
    const two = new RenewalWorker(deps, { intervalMs: 0, id: "worker-two" });
    const t0 = Math.max(...accounts.map((a) => a.t0));
    // Moving the test clock directly kicks the server's worker too: three workers race.
    server.clock.set(addMonthsClamped(t0, 3));
    await Promise.all([
      one.runOnce(),
      two.runOnce(),
      one.runOnce(),
      two.runOnce(),
      server.running.renewals?.kick(),
    ]);
    for (const account of accounts) {
      const charges = await chargesOf(account.userId);
      expect(charges).toHaveLength(4); // the purchase and three renewals, each once
      expect(await invoices(account.email)).toHaveLength(4);
      const renewals = await Renewals.forUser(db(), account.userId);
      expect(renewals.map((r) => [r.periodIndex, r.state, r.attempts])).toEqual([
        [1, "charged", 1],
        [2, "charged", 1],
        [3, "charged", 1],
      ]);
    }
  });

  it("lets exactly one of two claims of the same period win", async () => {
    const claim = (worker: string) =>
      db().transaction((tx) =>
        Renewals.claim(tx, {
          id: `ren_${worker}`,
          userId: 999_999,
          periodAnchor: 1,
          periodIndex: 1,
          periodStart: 2,
          periodEnd: 3,
          productCode: "wv_single_1m",
          seats: 1,
          subTotal: 999,
          salesTax: 0,
          amount: 999,
          processor: "cc",
          worker,
          now: server.clock.now(),
          leaseUntil: server.clock.now() + LOCK_LEASE_MS,
        }),
      );
    const [a, b] = await Promise.all([claim("a"), claim("b")]);
    expect([a, b].filter((c) => c !== null)).toHaveLength(1);
  });

  it("takes over a worker that died after charging: the same provider key, one charge, one order", async () => {
    const email = "takeover@example.com";
    const { userId, t0 } = await subscriber(email, {
      code: "wv_single_1m",
    });
    const deps = server.running.deps;
    let charged = false;
    // This worker's process "dies" right after the provider charged this account: it never
    // answers again (other accounts it meets first are charged as usual).
    const dying: PaymentProvider = {
      ...deps.payments,
      async charge(input) {
        const result = await deps.payments.charge(input);
        if (input.customerId !== `cus_sandbox_${userId}`) return result;
        charged = true;
        return new Promise(() => {});
      },
    };
    const doomed = new RenewalWorker({ ...deps, payments: dying }, { intervalMs: 0, id: "doomed" });
    await server.running.renewals?.stop(); // only the doomed worker sees the period first
    try {
      server.clock.set(periodEnd(t0, 0, 1));
      void doomed.runOnce();
      await expect.poll(() => charged).toBe(true);
      const [claimed] = await Renewals.forUser(db(), userId);
      expect(claimed).toMatchObject({ state: "claimed", worker: "doomed", attempts: 1 });

      // Another worker waits for the lock's and the claim's leases, then takes the attempt over.
      const heir = new RenewalWorker(deps, { intervalMs: 0, id: "heir" });
      await heir.runOnce(); // still leased: the account is busy, the claim taken
      expect(await Renewals.forUser(db(), userId)).toMatchObject([{ worker: "doomed" }]);
      expect(await chargesOf(userId)).toHaveLength(2);
      server.clock.advance(LOCK_LEASE_MS);
      await heir.runOnce();
      const charges = await chargesOf(userId);
      expect(charges.map((c) => c.error)).toEqual([null, null]); // the purchase and one renewal
      const list = await invoices(email);
      expect(list).toHaveLength(2);
      const [renewal] = await Renewals.forUser(db(), userId);
      expect(renewal).toMatchObject({ state: "charged", worker: "heir", attempts: 1 });
      const order = await Orders.byId(db(), renewal?.orderId ?? "");
      const first = await SandboxCharges.byKey(db(), order?.idempotencyKey ?? "");
      expect(order?.chargeRef).toBe(first?.id);
    } finally {
      server.running.renewals?.start();
    }
  });
});

describe("when the worker runs", () => {
  it("runs on its interval of real time, without any clock change", async () => {
    const email = "interval@example.com";
    const { t0 } = await subscriber(email, { code: "wv_single_1m" });
    let offset = 0;
    // A clock nobody can subscribe to: only the interval can notice that time has passed.
    const clock = { now: () => server.clock.now() + offset };
    const worker = new RenewalWorker(
      { ...server.running.deps, clock },
      { intervalMs: 25, id: "ticking" },
    );
    worker.start();
    try {
      offset = periodEnd(t0, 0, 1) - server.clock.now();
      await expect.poll(async () => (await invoices(email)).length, { timeout: 5000 }).toBe(2);
    } finally {
      await worker.stop();
    }
  });
});
