import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { addMonthsClamped } from "../../domain/calendar/index.ts";
import { orderSummary, taxAmount } from "../../domain/pricing/index.ts";
import { DAY_MS } from "../clock.ts";
import { startTestServer, type TestServer } from "../testing/harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe("products (spec 3.3)", () => {
  it("describes the account's product with the spec's keys", async () => {
    const products = await (await server.signedIn("monthly@demo.test")).call(api.products);
    expect(products.ok && products.body).toMatchObject({
      productCode: "wv_unloct17_1m",
      orderState: "automatic",
      FreeProduct: "wv_free",
      TrialProduct: "wv_unlimited_trial",
      "Trial Duration": 14,
      TermDurationMonths: 1,
      ExportPrice: 299,
      "4KExportPrice": 499,
      "Export Upgrades": "0.5:600,1:1000,2:1800",
      essentialsInfo: {
        hasEssentials: false,
        upgradePlan: "wv_unloct17_plus_1m",
        essentialsPrice: 1999,
        newTotalPrice: 3598,
      },
    });
    expect(products.ok && products.body["Purchasable Products"]).toContain("wv_bizoct17_12m");
    const managed = await (await server.signedIn("po@demo.test")).call(api.products);
    expect(managed.ok && managed.body["Purchasable Products"]).toEqual([]);
  });
});

describe("payment options (spec 3.4)", () => {
  it("lists a tier's plans with campaign, savings and essentials figures", async () => {
    const options = await server
      .client()
      .call(api.paymentOptions, { query: { tier: "personal", new: "true", trial: "true" } });
    if (!options.ok) throw new Error(options.body.message);
    const power12 = options.body.products.find((p) => p.code === "wv_single_12m");
    expect(power12).toMatchObject({
      listPrice: 5988,
      price: 2994, // the winter sale (untargeted, first term) is on at the tests' clock
      campaign: { id: "winter", price: 2994, discount: 2994 },
      campaignDiscountPercent: 50,
      campaignDiscountPercentFound: true,
      hasAnnualCampaignPrice: true,
      monthlyVersionPrice: 999,
      savingsValue: 50,
      essentialsUpgrade: { code: "wv_single_plus_12m", price: 17976 },
    });
    const plus = options.body.products.find((p) => p.code === "wv_single_plus_12m");
    expect(plus).toMatchObject({
      essentials: true,
      essentialsDowngrade: { code: "wv_single_12m", essentialsPrice: 11988 },
    });
    expect(options.body.products.every((p) => p.category === "personal")).toBe(true);
    expect(options.body.essentialsPlan.map((e) => e.code)).toEqual([
      "wv_essentials_1m",
      "wv_essentials_12m",
    ]);
    expect(options.body.trialProduct).toBeNull(); // personal has no trial
    const business = await server
      .client()
      .call(api.paymentOptions, { query: { tier: "business", trial: "true" } });
    expect(business.ok && business.body.trialProduct?.code).toBe("wv_bizoct17_trial");
  });

  it("applies a targeted campaign only with its coupon, and the price set of the user", async () => {
    const plain = await server.client().call(api.paymentOptions, { query: { tier: "unlimited" } });
    const withCoupon = await server
      .client()
      .call(api.paymentOptions, { query: { tier: "unlimited", promoId: "vipcoupon" } });
    const find = (a: typeof plain) =>
      a.ok ? a.body.products.find((p) => p.code === "wv_unloct17_12m") : undefined;
    expect(find(plain)?.campaign).toBeNull();
    expect(find(withCoupon)).toMatchObject({ price: 4794, campaign: { id: "vip" } });
  });
});

describe("order summary (spec 3.5)", () => {
  it("is the pricing module's summary for the account", async () => {
    const client = await server.signedIn("free@demo.test");
    await client.call(api.address, { body: { country: "US", state: "CA" } });
    const answer = await client.call(api.orderSummary, {
      body: { targetProduct: "wv_bizoct17_12m", seats: 5 },
    });
    if (!answer.ok) throw new Error(answer.body.message);
    const expected = orderSummary(server.catalog, {
      targetProduct: "wv_bizoct17_12m",
      seats: 5,
      atMs: server.clock.now(),
      tax: { country: "US", state: "CA" },
    });
    // Issue 33, item 9: and the renewal it leads to, the recurring figures with their tax.
    const recurring =
      expected.newSubscription.recurringBasePrice +
      expected.newSubscription.extraSeatsRecurringPrice;
    expect(answer.body).toEqual({
      ...expected,
      productCode: "wv_bizoct17_12m",
      seats: 5,
      currency: "USD",
      change: "new",
      startsAt: null,
      taxLabel: "Sales tax",
      renewal: {
        at: addMonthsClamped(server.clock.now(), 12),
        amount: recurring + taxAmount(recurring, 7.25),
        tax: taxAmount(recurring, 7.25),
        termMonths: 12,
      },
    });
    expect(answer.body.taxRates).toEqual([
      { type: "COMBINED", taxAmount: answer.body.salesTax, ratePercent: 7.25 },
    ]);
    expect(answer.body.total).toBe(answer.body.subTotal + answer.body.salesTax);
  });

  it("credits the unused part of the current period", async () => {
    const client = await server.signedIn("monthly@demo.test");
    const answer = await client.call(api.orderSummary, {
      body: { targetProduct: { code: "wv_unloct17_12m" }, seats: 1 },
    });
    if (!answer.ok) throw new Error(answer.body.message);
    // 1599 paid for a month that started 10 days ago.
    expect(answer.body.proration.prorateAmount).toBeGreaterThan(0);
    expect(answer.body.proration.prorateAmount).toBeLessThan(1599);
    expect(answer.body.newSubscription.prorateDiscount).toBe(answer.body.proration.prorateAmount);
    server.clock.advance(DAY_MS);
    const later = await client.call(api.orderSummary, {
      body: { targetProduct: "wv_unloct17_12m", seats: 1 },
    });
    expect(later.ok && later.body.proration.prorateAmount).toBeLessThan(
      answer.body.proration.prorateAmount,
    );
    server.clock.advance(-DAY_MS);
  });

  it("refuses unknown products, bad seats and wrong types with 4xx", async () => {
    const client = server.client();
    expect(
      await client.call(api.orderSummary, { body: { targetProduct: "wv_nope", seats: 1 } }),
    ).toMatchObject({
      status: 404,
      body: { error_code: "unknown_product" },
    });
    expect(
      await client.call(api.orderSummary, { body: { targetProduct: "wv_k12_12m", seats: 5 } }),
    ).toMatchObject({
      status: 400,
      body: { error_code: "invalid_seats" },
    });
    expect(
      // @ts-expect-error: wrong types, on purpose: the server must refuse them
      await client.call(api.orderSummary, { body: { targetProduct: 12, seats: "two" } }),
    ).toMatchObject({
      status: 400,
      body: { error_code: "invalid_request" },
    });
    expect(
      await client.call(api.orderSummary, {
        body: { targetProduct: "wv_single_12m", coupon: "oldcoupon" },
      }),
    ).toMatchObject({
      status: 409,
      body: { error_code: "coupon_not_active" },
    });
  });
});
