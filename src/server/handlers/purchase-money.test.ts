// Issue 18, items 4, 5, 9 and 10 through the API: what the summary shows is what is charged, and an
// order exists only for a charge the provider confirmed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { mulDivRoundHalfUp } from "../../domain/pricing/money.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import { Users } from "../db/users.ts";
import { newKey, startTestServer, type TestClient, type TestServer } from "../testing/harness.ts";
import { signUpWithCard } from "../testing/sandbox-cards.ts";
import { couponRedemptionsOfOrder, successfulChargeAmounts } from "../testing/tables.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function chargedAmounts(): Promise<number[]> {
  return successfulChargeAmounts(server.running.deps.db);
}

async function subscriptionOf(email: string) {
  const user = await Users.byEmail(server.running.deps.db, email);
  if (!user) throw new Error(`no user ${email}`);
  const sub = await Subscriptions.get(server.running.deps.db, user.id);
  if (!sub) throw new Error(`no subscription for ${email}`);
  return sub;
}

async function summaryOf(
  client: TestClient,
  body: { targetProduct: string; seats?: number; addOns?: string[]; coupon?: string },
) {
  const answer = await client.call(api.orderSummary, { body });
  if (!answer.ok) throw new Error(answer.body.message);
  return answer.body;
}

describe("add-ons a plan cannot take (item 4)", () => {
  it("refuses essentials on Business annual in the summary and the purchase, charging nothing", async () => {
    const owner = await server.signedIn("owner@demo.test");
    const summary = await owner.call(api.orderSummary, {
      body: { targetProduct: "wv_bizoct17_12m", seats: 5, addOns: ["wv_essentials_12m"] },
    });
    expect(summary).toMatchObject({
      status: 400,
      body: { message: "Essentials is not sold with Business (billed annually)." },
    });
    const before = await chargedAmounts();
    const bought = await owner.call(api.upgrade, {
      body: { product: { code: "wv_bizoct17_12m" }, seats: 5, addOns: ["wv_essentials_12m"] },
      idempotencyKey: newKey(),
    });
    expect(bought.ok).toBe(false);
    expect(bought.status).toBe(400);
    expect(await chargedAmounts()).toEqual(before);
  });
});

describe("mid-period additions (item 9)", () => {
  it("charges added Business seats pro rata and keeps the renewal date", async () => {
    const owner = await server.signedIn("owner@demo.test");
    const sub = await subscriptionOf("owner@demo.test");
    const { orderStart, orderEnd } = sub;
    if (orderStart === null || orderEnd === null) throw new Error("owner has no period");
    const now = server.clock.now();
    const expected = mulDivRoundHalfUp(2 * 23988, orderEnd - now, orderEnd - orderStart);
    const summary = await summaryOf(owner, { targetProduct: "wv_bizoct17_12m", seats: 7 });
    expect(summary.total).toBe(expected);
    expect(summary.change).toBe("addition");
    expect(summary.addition).toEqual({
      periodEnd: orderEnd,
      ratio: (orderEnd - now) / (orderEnd - orderStart),
      termValueAdded: 2 * 23988,
    });
    const before = await chargedAmounts();
    const bought = await owner.call(api.upgrade, {
      body: { product: { code: "wv_bizoct17_12m" }, seats: 7, expectedTotal: summary.total },
      idempotencyKey: newKey(),
    });
    if (!bought.ok) throw new Error(bought.body.message);
    expect(bought.body).toMatchObject({ total: expected, seats: 7, orderEndDate: orderEnd });
    expect((await chargedAmounts()).slice(before.length)).toEqual([expected]);
    const after = await subscriptionOf("owner@demo.test");
    expect(after).toMatchObject({
      productCode: "wv_bizoct17_12m",
      seats: 7,
      orderStart,
      orderEnd,
      periodAnchor: sub.periodAnchor,
      periodIndex: sub.periodIndex,
      // A later change credits the unused part of a period now worth 7 seats.
      paidCents: sub.paidCents + 2 * 23988,
    });
    const licence = await owner.call(api.enterpriseLicense);
    expect(licence.ok && licence.body).toMatchObject({ maxSeats: 7 });
  });

  it("adds Essentials to a monthly plan for the rest of the month, renewing on the same date", async () => {
    const monthly = await server.signedIn("monthly@demo.test");
    const sub = await subscriptionOf("monthly@demo.test");
    const { orderStart, orderEnd } = sub;
    if (orderStart === null || orderEnd === null) throw new Error("monthly has no period");
    const now = server.clock.now();
    const expected = mulDivRoundHalfUp(1999, orderEnd - now, orderEnd - orderStart);
    const summary = await summaryOf(monthly, { targetProduct: "wv_unloct17_plus_1m" });
    expect(summary.total).toBe(expected);
    expect(summary.lines).toEqual([
      {
        kind: "essentials",
        label: "Essentials for the rest of your billing period",
        amount: expected,
      },
    ]);
    const bought = await monthly.call(api.upgrade, {
      body: { product: { code: "wv_unloct17_plus_1m" }, expectedTotal: summary.total },
      idempotencyKey: newKey(),
    });
    if (!bought.ok) throw new Error(bought.body.message);
    expect(bought.body).toMatchObject({
      productCode: "wv_unloct17_plus_1m",
      total: expected,
      orderEndDate: orderEnd,
    });
    expect(await subscriptionOf("monthly@demo.test")).toMatchObject({
      productCode: "wv_unloct17_plus_1m",
      orderStart,
      orderEnd,
    });
  });
});

function newBuyer(email: string): Promise<TestClient> {
  return signUpWithCard(server.client(), {
    email,
    password: "secret-1",
    firstName: "Pat",
    lastName: "Buyer",
  });
}

describe("first-term coupons (item 5)", () => {
  it("takes a first-term discount once per account and coupon, recorded with the order", async () => {
    const client = await newBuyer("coupon-once@example.com");
    const first = await summaryOf(client, {
      targetProduct: "wv_unloct17_12m",
      coupon: "vipcoupon",
    });
    expect(first.total).toBe(4794);
    expect(first.coupon).toEqual({ code: "vipcoupon", applied: true, note: null });
    const bought = await client.call(api.upgrade, {
      body: { product: { code: "wv_unloct17_12m" }, coupon: "vipcoupon", expectedTotal: 4794 },
      idempotencyKey: newKey(),
    });
    if (!bought.ok) throw new Error(bought.body.message);
    const rows = await couponRedemptionsOfOrder(server.running.deps.db, bought.body.orderId);
    expect(rows).toEqual([{ coupon: "vipcoupon", order_id: bought.body.orderId }]);

    // A year on, cancelled and buying again with the same coupon: no second first-year discount.
    expect((await client.call(api.cancelSubscription)).ok).toBe(true);
    const again = await summaryOf(client, {
      targetProduct: "wv_unloct17_12m",
      coupon: "vipcoupon",
    });
    expect(again.newSubscription.firstTermDiscount).toBe(0);
    expect(again.coupon).toEqual({
      code: "vipcoupon",
      applied: false,
      note: "Coupon 'vipcoupon' was already used on this account: its first-term discount applies once.",
    });
    // Another account still gets it.
    const other = await newBuyer("coupon-other@example.com");
    expect(
      (await summaryOf(other, { targetProduct: "wv_unloct17_12m", coupon: "vipcoupon" })).total,
    ).toBe(4794);
  });
});

describe("a coupon for other products (item 10)", () => {
  it("is not applied to them, the summary says so, and it can be removed", async () => {
    const client = await newBuyer("coupon-elsewhere@example.com");
    const applied = await client.call(api.applyCoupon, { params: { code: "vipcoupon" }, body: {} });
    expect(applied.ok).toBe(true);
    const annual = await summaryOf(client, { targetProduct: "wv_unloct17_12m" });
    expect(annual.total).toBe(4794);
    for (const [targetProduct, total] of [
      ["wv_unloct17_1m", 1599],
      ["wv_flex2", 2999],
    ] as const) {
      const summary = await summaryOf(client, { targetProduct });
      expect(summary.total).toBe(total);
      expect(summary.coupon).toMatchObject({ code: "vipcoupon", applied: false });
      expect(summary.coupon?.note).toMatch(
        /^Coupon 'vipcoupon' does not apply to .+, so it is not applied\.$/,
      );
      const bought = await client.call(api.upgrade, {
        body: { product: { code: targetProduct }, expectedTotal: total },
        idempotencyKey: newKey(),
      });
      // Flex after monthly is another plan; either way no coupon refusal blocks it.
      expect(bought.ok ? null : bought.body.error_code).not.toBe("coupon_not_applicable");
      break;
    }
    const removed = await client.call(api.removeCoupon);
    expect(removed.ok).toBe(true);
    expect((await summaryOf(client, { targetProduct: "wv_unloct17_12m" })).coupon).toBeNull();
  });
});
