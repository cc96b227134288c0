import { describe, expect, it } from "vitest";
import { addMonthsClamped, periodEnd } from "../calendar/index.ts";
import type { Catalog } from "../catalog/catalog-schema.ts";
import { choiceOfGroup } from "../experiments/price-choice.ts";
import { orderSummary, taxAmount } from "../pricing/index.ts";
import { makeCampaign, makeSpecCatalog } from "../testing/builders.ts";
import {
  type BillingState,
  endedState,
  nextAttemptAt,
  nextRenewalStep,
  RENEWAL_ATTEMPT_DAYS,
  recurringCampaignOf,
  renewalCharge,
} from "./index.ts";

const DAY = 86_400_000;
const JAN_15 = Date.UTC(2026, 0, 15, 12);
const FEB_1 = Date.UTC(2026, 1, 1);

function catalogWith(...campaigns: Catalog["campaigns"]): Catalog {
  return makeSpecCatalog({ campaigns });
}

/** What the order summary says a plan renews at: its recurring figures. */
function recurringOf(catalog: Catalog, request: Parameters<typeof orderSummary>[1]): number {
  const n = orderSummary(catalog, request).newSubscription;
  return n.recurringBasePrice + n.extraSeatsRecurringPrice;
}

function charge(
  catalog: Catalog,
  facts: Partial<Parameters<typeof renewalCharge>[1]>,
  at = JAN_15,
) {
  const result = renewalCharge(
    catalog,
    { productCode: "wv_single_1m", seats: 1, recurringCampaign: null, ...facts },
    at,
  );
  if (!result.ok) throw new Error(result.error.message);
  return result.charge;
}

describe("renewalCharge", () => {
  const catalog = makeSpecCatalog();

  it("charges the plan's recurring price, as the order summary gives it", () => {
    for (const code of ["wv_single_1m", "wv_single_12m", "wv_unloct17_1m", "wv_unloct17_12m"]) {
      const c = charge(catalog, { productCode: code });
      expect(c.subTotal).toBe(recurringOf(catalog, { targetProduct: code, atMs: JAN_15 }));
      expect(c).toMatchObject({ salesTax: 0, discount: 0, campaignApplied: null });
      expect(c.total).toBe(c.subTotal);
    }
    // Spec section 9: Power 9.99 a month, 59.88 a year; Unlimited 15.99, 95.88.
    expect(charge(catalog, { productCode: "wv_single_1m" }).total).toBe(999);
    expect(charge(catalog, { productCode: "wv_unloct17_12m" }).total).toBe(9588);
  });

  it("renews the essentials variant at its own price, which is the plan plus the add-on", () => {
    const plus = charge(catalog, { productCode: "wv_single_plus_1m" });
    expect(plus.total).toBe(
      recurringOf(catalog, { targetProduct: "wv_single_plus_1m", atMs: JAN_15 }),
    );
    // Bought as Power + the essentials add-on, the account holds wv_single_plus_1m: same figure.
    expect(plus.total).toBe(
      recurringOf(catalog, {
        targetProduct: "wv_single_1m",
        addOns: ["wv_essentials_1m"],
        atMs: JAN_15,
      }),
    );
    expect(plus.total).toBe(2998); // 9.99 + 19.99 (spec section 9: Power + essentials 29.98)
    expect(charge(catalog, { productCode: "wv_single_plus_12m" }).total).toBe(17976);
  });

  it("charges for the current seats of a team plan", () => {
    const c = charge(catalog, { productCode: "wv_bizoct17_1m", seats: 5 });
    expect(c.subTotal).toBe(
      recurringOf(catalog, { targetProduct: "wv_bizoct17_1m", seats: 5, atMs: JAN_15 }),
    );
    expect(c.subTotal).toBe(7399 + 2 * 3999); // 3 seats included, 2 extra
  });

  it("uses the customer's price set and adds the sales tax of their address", () => {
    const sample = charge(catalog, {
      productCode: "wv_bizindiv_1m",
      priceChoice: choiceOfGroup("sample"),
    });
    expect(sample.subTotal).toBe(3599);
    const taxed = charge(
      makeSpecCatalog({
        taxRates: [{ country: "US", state: "CA", ratePercent: 7.25, assumed: true }],
      }),
      {
        productCode: "wv_unloct17_1m",
        tax: { country: "US", state: "CA" },
      },
    );
    expect(taxed).toMatchObject({ subTotal: 1599, ratePercent: 7.25 });
    expect(taxed.salesTax).toBe(taxAmount(1599, 7.25));
    expect(taxed.total).toBe(1599 + 116); // 1599 × 7.25% = 115.93 → 116
  });

  it("does not renew a first-term campaign discount, nor apply a campaign running at renewal", () => {
    const firstTerm = makeCampaign({
      id: "winter",
      recurring: false,
      targeted: false,
      validFrom: Date.UTC(2026, 0, 10),
      validTo: FEB_1,
      prices: { wv_single_12m: 2994 },
    });
    const cat = catalogWith(firstTerm);
    const bought = orderSummary(cat, { targetProduct: "wv_single_12m", atMs: JAN_15 });
    expect(bought.newSubscription.firstTermDiscount).toBe(5988 - 2994);
    expect(bought.newSubscription.recurringBasePrice).toBe(5988);
    const kept = recurringCampaignOf(cat, {
      productCode: "wv_single_12m",
      atMs: JAN_15,
      coupon: null,
    });
    expect(kept).toBeNull();
    // Renewing while the same campaign still runs: the full price all the same.
    expect(charge(cat, { productCode: "wv_single_12m", recurringCampaign: kept }).total).toBe(
      bought.newSubscription.recurringBasePrice,
    );
    // Even when the id is passed, a first-term campaign is not honoured.
    expect(charge(cat, { productCode: "wv_single_12m", recurringCampaign: "winter" }).total).toBe(
      5988,
    );
  });

  it("keeps a recurring campaign's discount for every renewal, after its window and without its coupon", () => {
    const loyal = makeCampaign({
      id: "loyal",
      coupon: "loyal2026",
      recurring: true,
      targeted: true,
      validFrom: Date.UTC(2026, 0, 1),
      validTo: FEB_1,
      prices: { wv_unloct17_1m: 1199 },
    });
    const cat = catalogWith(loyal);
    const bought = orderSummary(cat, {
      targetProduct: "wv_unloct17_1m",
      atMs: JAN_15,
      coupon: "loyal2026",
    });
    expect(bought.newSubscription.recurringBasePrice).toBe(1199);
    const kept = recurringCampaignOf(cat, {
      productCode: "wv_unloct17_1m",
      atMs: JAN_15,
      coupon: "loyal2026",
    });
    expect(kept).toBe("loyal");
    const later = addMonthsClamped(JAN_15, 7); // long after the campaign ended
    const renewed = charge(cat, { productCode: "wv_unloct17_1m", recurringCampaign: kept }, later);
    expect(renewed).toMatchObject({ subTotal: 1199, discount: 400, campaignApplied: "loyal" });
    expect(renewed.subTotal).toBe(bought.newSubscription.recurringBasePrice);
    // Without the coupon at purchase the targeted campaign never applied: nothing to keep.
    expect(
      recurringCampaignOf(cat, { productCode: "wv_unloct17_1m", atMs: JAN_15, coupon: null }),
    ).toBeNull();
    // A product the campaign does not price renews at its own price.
    expect(charge(cat, { productCode: "wv_single_1m", recurringCampaign: "loyal" }).total).toBe(
      999,
    );
  });

  it("prices a one-time product for its validity and refuses an unknown product", () => {
    const flex = charge(catalog, { productCode: "wv_flex2" });
    expect(flex).toMatchObject({ subTotal: 2999, termMonths: 12 });
    const unknown = renewalCharge(
      catalog,
      { productCode: "wv_gone_1m", seats: 1, recurringCampaign: null },
      JAN_15,
    );
    expect(unknown).toMatchObject({ ok: false, error: { code: "UNKNOWN_PLAN" } });
  });
});

function state(overrides: Partial<BillingState> = {}): BillingState {
  return {
    productCode: "wv_single_1m",
    orderState: "automatic",
    seats: 1,
    termMonths: 1,
    orderStart: JAN_15,
    orderEnd: periodEnd(JAN_15, 0, 1),
    periodAnchor: JAN_15,
    periodIndex: 0,
    pendingProductCode: null,
    pendingSeats: null,
    pendingAt: null,
    expired: false,
    ...overrides,
  };
}

describe("nextRenewalStep", () => {
  const catalog = makeSpecCatalog();
  const feb15 = Date.UTC(2026, 1, 15, 12);

  it("is due at the end of the paid period, not before", () => {
    expect(nextRenewalStep(catalog, state(), feb15 - 1)).toEqual({ kind: "none" });
    expect(nextRenewalStep(catalog, state(), feb15)).toEqual({
      kind: "renew",
      slot: { anchor: JAN_15, index: 1 },
      start: feb15,
      end: Date.UTC(2026, 2, 15, 12),
      anchor: JAN_15,
      index: 1,
      productCode: "wv_single_1m",
      seats: 1,
      termMonths: 1,
      scheduledChange: false,
    });
  });

  it("counts every period from the anchor: 31 January renews on 28 February, then 31 March", () => {
    const jan31 = Date.UTC(2026, 0, 31, 9);
    const first = nextRenewalStep(
      catalog,
      state({ orderStart: jan31, periodAnchor: jan31, orderEnd: Date.UTC(2026, 1, 28, 9) }),
      Date.UTC(2026, 1, 28, 9),
    );
    expect(first).toMatchObject({ kind: "renew", end: Date.UTC(2026, 2, 31, 9), index: 1 });
    const second = nextRenewalStep(
      catalog,
      state({
        orderStart: Date.UTC(2026, 1, 28, 9),
        periodAnchor: jan31,
        periodIndex: 1,
        orderEnd: Date.UTC(2026, 2, 31, 9),
      }),
      Date.UTC(2026, 2, 31, 9),
    );
    expect(second).toMatchObject({
      slot: { anchor: jan31, index: 2 },
      end: Date.UTC(2026, 3, 30, 9),
    });
  });

  it("takes the order start as the anchor of rows written before anchors", () => {
    const step = nextRenewalStep(catalog, state({ periodAnchor: null }), feb15);
    expect(step).toMatchObject({ slot: { anchor: JAN_15, index: 1 } });
  });

  it("ends a cancelled subscription at its period end and a one-time product at its validity end", () => {
    expect(nextRenewalStep(catalog, state({ orderState: "cancelled" }), feb15)).toEqual({
      kind: "end",
      reason: "cancelled",
      endedAt: feb15,
    });
    const flex = state({
      productCode: "wv_flex2",
      termMonths: 12,
      orderEnd: addMonthsClamped(JAN_15, 12),
    });
    expect(nextRenewalStep(catalog, flex, addMonthsClamped(JAN_15, 12))).toMatchObject({
      kind: "end",
      reason: "one_time",
    });
  });

  it("does nothing for trials, purchase orders, free and expired accounts", () => {
    for (const s of [
      state({ orderState: "trial", termMonths: null }),
      state({ orderState: "purchaseOrder" }),
      state({ productCode: "wv_free" }),
      state({ expired: true }),
    ]) {
      expect(nextRenewalStep(catalog, s, feb15 + 400 * DAY)).toEqual({ kind: "none" });
    }
  });

  it("applies a scheduled downgrade: same term keeps the anchor, a new term starts a new one", () => {
    const sameTerm = state({
      productCode: "wv_unloct17_1m",
      pendingProductCode: "wv_single_1m",
      pendingAt: feb15,
    });
    expect(nextRenewalStep(catalog, sameTerm, feb15)).toMatchObject({
      productCode: "wv_single_1m",
      anchor: JAN_15,
      index: 1,
      scheduledChange: true,
    });
    const jan15next = addMonthsClamped(JAN_15, 12);
    const annualToMonthly = state({
      productCode: "wv_unloct17_12m",
      termMonths: 12,
      orderEnd: jan15next,
      pendingProductCode: "wv_single_1m",
      pendingAt: jan15next,
    });
    expect(nextRenewalStep(catalog, annualToMonthly, jan15next)).toMatchObject({
      slot: { anchor: JAN_15, index: 1 },
      start: jan15next,
      end: addMonthsClamped(jan15next, 1),
      anchor: jan15next,
      index: 0,
      termMonths: 1,
      productCode: "wv_single_1m",
    });
    const seats = state({
      productCode: "wv_bizoct17_1m",
      seats: 5,
      pendingProductCode: "wv_bizoct17_1m",
      pendingSeats: 4,
      pendingAt: feb15,
    });
    expect(nextRenewalStep(catalog, seats, feb15)).toMatchObject({
      seats: 4,
      scheduledChange: true,
    });
    // A seat reduction never renews fewer seats than the team holds (issue 18 item 3).
    for (const [seatsInUse, renewed] of [
      [0, 4],
      [3, 4],
      [4, 4],
      [5, 5],
    ] as const) {
      expect(
        nextRenewalStep(catalog, { ...seats, seatsInUse }, feb15),
        `${seatsInUse}`,
      ).toMatchObject({
        seats: renewed,
      });
    }
    // ... and a switch to a one-person plan is not held up by members (they lose the team plan).
    const toPower = {
      ...seats,
      pendingProductCode: "wv_single_1m",
      pendingSeats: 1,
      seatsInUse: 5,
    };
    expect(nextRenewalStep(catalog, toPower, feb15)).toMatchObject({ seats: 1 });
    const notYet = state({ pendingProductCode: "wv_single_12m", pendingAt: feb15 + DAY });
    expect(nextRenewalStep(catalog, notYet, feb15)).toMatchObject({
      productCode: "wv_single_1m",
      scheduledChange: false,
    });
  });
});

describe("the retry schedule and the end state", () => {
  it("tries on day 0, 3 and 7 after the renewal date, then stops", () => {
    expect(RENEWAL_ATTEMPT_DAYS).toEqual([0, 3, 7]);
    expect(nextAttemptAt(JAN_15, 0)).toBe(JAN_15);
    expect(nextAttemptAt(JAN_15, 1)).toBe(JAN_15 + 3 * DAY);
    expect(nextAttemptAt(JAN_15, 2)).toBe(JAN_15 + 7 * DAY);
    expect(nextAttemptAt(JAN_15, 3)).toBeNull();
  });

  it("ends on the free plan, cancelled and expired, remembering the automatic subscription", () => {
    expect(endedState({ orderState: "automatic", prevOrderState: "trial" })).toEqual({
      productCode: "wv_free",
      orderState: "cancelled",
      prevOrderState: "automatic",
      expired: true,
      seats: 1,
      paidCents: 0,
    });
    expect(endedState({ orderState: "cancelled", prevOrderState: "automatic" })).toMatchObject({
      prevOrderState: "automatic",
    });
  });
});
