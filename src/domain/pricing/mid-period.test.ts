// Issue 18, item 9: seats and add-ons added mid-period are charged pro rata for the rest of the
// current period and renew with the subscription on its existing date.
import { describe, expect, it } from "vitest";
import { makeSpecCatalog } from "../testing/builders.ts";
import { type CurrentSubscription, orderSummary } from "./order-summary.ts";

const day = 86_400_000;
const atMs = Date.UTC(2026, 0, 15);
const catalog = makeSpecCatalog();

// owner@demo.test: Business annual, 5 seats, 30 days into a 365-day period.
const business: CurrentSubscription = {
  planCode: "wv_bizoct17_12m",
  seats: 5,
  periodStart: atMs - 30 * day,
  periodEnd: atMs + 335 * day,
  paidCents: 44388 + 2 * 23988,
};

describe("orderSummary: additions to the running period", () => {
  it.each([
    // [what, current, request, expected total, expected lines]
    [
      "2 Business seats, 335 of 365 days left: 2 × 239.88 × 335/365",
      business,
      { targetProduct: "wv_bizoct17_12m", seats: 7 },
      44033, // 47976 × 335 / 365 = 44032.77 → 44033
      [
        {
          kind: "extraSeats",
          label: "2 added seats for the rest of your billing period",
          amount: 44033,
        },
      ],
    ],
    [
      "Essentials on Power monthly, 20 of 30 days left (the add-on)",
      {
        planCode: "wv_single_1m",
        seats: 1,
        periodStart: atMs - 10 * day,
        periodEnd: atMs + 20 * day,
        paidCents: 999,
      },
      { targetProduct: "wv_single_1m", addOns: ["wv_essentials_1m"] },
      1333, // 1999 × 2/3 = 1332.67 → 1333
      [
        {
          kind: "essentials",
          label: "Essentials for the rest of your billing period",
          amount: 1333,
        },
      ],
    ],
    [
      "Essentials on Power monthly, as the essentials version of the plan",
      {
        planCode: "wv_single_1m",
        seats: 1,
        periodStart: atMs - 10 * day,
        periodEnd: atMs + 20 * day,
        paidCents: 999,
      },
      { targetProduct: "wv_single_plus_1m" },
      1333,
      [
        {
          kind: "essentials",
          label: "Essentials for the rest of your billing period",
          amount: 1333,
        },
      ],
    ],
    [
      "Schools seats: the band total's difference, pro rata (30 → 40 seats, half the year left)",
      {
        planCode: "wv_k12_12m",
        seats: 30,
        periodStart: atMs - 100 * day,
        periodEnd: atMs + 100 * day,
        paidCents: 37400,
      },
      { targetProduct: "wv_k12_12m", seats: 40 },
      null,
      null,
    ],
  ] as const)("%s", (_what, current, request, total, lines) => {
    const result = orderSummary(catalog, { atMs, current, ...request });
    expect(result.addition).toMatchObject({
      periodEnd: current.periodEnd,
      ratio: (current.periodEnd - atMs) / (current.periodEnd - current.periodStart),
    });
    if (total !== null) expect(result.total).toBe(total);
    if (lines !== null) expect(result.lines).toEqual(lines);
    // No credit, no first-term price: only the pro-rata difference is charged now.
    expect(result.proration.prorateAmount).toBe(0);
    expect(result.total).toBeGreaterThan(0);
    expect(result.total).toBeLessThan(
      result.newSubscription.recurringBasePrice + result.newSubscription.extraSeatsRecurringPrice,
    );
  });

  it("says what a full term gains, for the credit of a later change", () => {
    const seats = orderSummary(catalog, {
      atMs,
      current: business,
      targetProduct: "wv_bizoct17_12m",
      seats: 7,
    });
    expect(seats.addition?.termValueAdded).toBe(2 * 23988);
    const essentials = orderSummary(catalog, {
      atMs,
      current: { ...business, planCode: "wv_single_1m", seats: 1, paidCents: 999 },
      targetProduct: "wv_single_plus_1m",
    });
    expect(essentials.addition?.termValueAdded).toBe(1999);
  });

  it("renews at the full price of what the subscription has after the addition", () => {
    const result = orderSummary(catalog, {
      atMs,
      current: business,
      targetProduct: "wv_bizoct17_12m",
      seats: 7,
    });
    expect(result.newSubscription).toMatchObject({
      recurringBasePrice: 44388,
      extraSeatsRecurringPrice: 4 * 23988,
      firstTermDiscount: 0,
      prorateDiscount: 0,
    });
  });

  it("is no addition when the plan or its term changes, or seats go down", () => {
    const at = { atMs, current: business };
    expect(
      orderSummary(catalog, { ...at, targetProduct: "wv_bizoct17_1m", seats: 7 }).addition,
    ).toBeNull();
    expect(
      orderSummary(catalog, { ...at, targetProduct: "wv_bizoct17_12m", seats: 4 }).addition,
    ).toBeNull();
    expect(
      orderSummary(catalog, {
        atMs,
        current: { ...business, planCode: "wv_single_12m", seats: 1 },
        targetProduct: "wv_unloct17_12m",
      }).addition,
    ).toBeNull();
    expect(
      orderSummary(catalog, { atMs, targetProduct: "wv_bizoct17_12m", seats: 7 }).addition,
    ).toBeNull();
  });

  it("adds tax to the pro-rata amount", () => {
    const taxed = makeSpecCatalog({
      taxRates: [{ country: "US", state: "CA", ratePercent: 10, assumed: true }],
    });
    const result = orderSummary(taxed, {
      atMs,
      current: business,
      targetProduct: "wv_bizoct17_12m",
      seats: 7,
      tax: { country: "US", state: "CA" },
    });
    expect(result.subTotal).toBe(44033);
    expect(result.salesTax).toBe(4403);
    expect(result.total).toBe(44033 + 4403);
  });
});
