// Issue 18, items 5 and 10: a coupon that does not fit the product bought is simply not applied
// (the summary says why), and a first-term discount applies once per account and coupon.
import { describe, expect, it } from "vitest";
import { makeCampaign, makeSpecCatalog } from "../testing/builders.ts";
import { orderSummary } from "./order-summary.ts";
import { quote } from "./quote.ts";

const atMs = Date.UTC(2026, 0, 15);
const catalog = makeSpecCatalog({
  campaigns: [
    makeCampaign({
      id: "refer",
      name: "Refer a friend",
      coupon: "referafriend",
      targeted: true,
      validFrom: Date.UTC(2026, 0, 1),
      validTo: Date.UTC(2027, 0, 1),
      prices: { wv_unloct17_12m: 4794 },
    }),
    makeCampaign({
      id: "forever",
      name: "Forever",
      coupon: "fb20am",
      targeted: true,
      recurring: true,
      validFrom: Date.UTC(2026, 0, 1),
      validTo: Date.UTC(2027, 0, 1),
      prices: { wv_unloct17_12m: 7188 },
    }),
  ],
});

describe("a coupon for other products (item 10)", () => {
  it.each([
    ["wv_unloct17_1m", "Unlimited (billed monthly)", 1599],
    ["wv_flex2", "Flex (one-time purchase)", 2999],
  ])("is not applied to %s, and the summary says so", (targetProduct, _label, price) => {
    const result = orderSummary(catalog, { atMs, targetProduct, coupon: "referafriend" });
    expect(result.total).toBe(price);
    expect(result.coupon).toEqual({
      code: "referafriend",
      applied: false,
      note: expect.stringMatching(
        /^Coupon 'referafriend' does not apply to .+, so it is not applied\.$/,
      ),
    });
    expect(result.lines.some((line) => line.kind === "discount")).toBe(false);
  });

  it("is applied to the product it is for", () => {
    const result = orderSummary(catalog, {
      atMs,
      targetProduct: "wv_unloct17_12m",
      coupon: "referafriend",
    });
    expect(result.total).toBe(4794);
    expect(result.coupon).toEqual({ code: "referafriend", applied: true, note: null });
  });

  it("prices the quote (catalog quote) alike: no refusal, no discount", () => {
    const result = quote(catalog, { plan: "wv_unloct17_1m", atMs, coupon: "referafriend" });
    expect(result.ok && result.quote.total).toBe(1599);
    expect(result.ok && result.quote.campaign).toBeNull();
  });

  it("still refuses a coupon that does not exist or has ended", () => {
    const unknown = quote(catalog, { plan: "wv_unloct17_1m", atMs, coupon: "nope" });
    expect(unknown.ok ? null : unknown.error.code).toBe("COUPON_UNKNOWN");
  });
});

describe("first-term discounts apply once (item 5)", () => {
  it("does not take a first-term discount again for a coupon this account redeemed", () => {
    const result = orderSummary(catalog, {
      atMs,
      targetProduct: "wv_unloct17_12m",
      coupon: "referafriend",
      redeemedCoupons: ["ReferAFriend"],
    });
    expect(result.total).toBe(9588);
    expect(result.newSubscription.firstTermDiscount).toBe(0);
    expect(result.coupon).toEqual({
      code: "referafriend",
      applied: false,
      note: "Coupon 'referafriend' was already used on this account: its first-term discount applies once.",
    });
  });

  it("keeps a recurring campaign's discount, which is not a first-term one", () => {
    const result = orderSummary(catalog, {
      atMs,
      targetProduct: "wv_unloct17_12m",
      coupon: "fb20am",
      redeemedCoupons: ["fb20am"],
    });
    expect(result.total).toBe(7188);
    expect(result.coupon?.applied).toBe(true);
  });
});
