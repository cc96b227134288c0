import { describe, expect, it } from "vitest";
import {
  centsOf,
  checkSubscription,
  paypalTerms,
  paypalValue,
  type SubscriptionFacts,
} from "./terms.ts";

const single = {
  productCode: "wv_single_1m",
  termMonths: 1,
  seats: 1,
  multiUser: false,
  firstTotalCents: 999,
  renewalTotalCents: 999,
};

describe("paypalTerms", () => {
  it("is one unit at the renewal price when the first payment is a renewal's", () => {
    expect(paypalTerms(single)).toEqual({
      planKey: "wv_single_1m:1m:999",
      productCode: "wv_single_1m",
      termMonths: 1,
      unitCents: 999,
      quantity: 1,
      firstUnitCents: 999,
      firstTotalCents: 999,
    });
  });

  it("makes the seats the quantity when both payments split into whole cents", () => {
    const t = paypalTerms({
      ...single,
      productCode: "team",
      seats: 4,
      multiUser: true,
      firstTotalCents: 4000,
      renewalTotalCents: 4800,
    });
    expect([t.quantity, t.unitCents, t.firstUnitCents, t.planKey]).toEqual([
      4,
      1200,
      1000,
      "team:1m:1200",
    ]);
  });

  it("keeps one unit (the whole price) when a payment does not split evenly", () => {
    const t = paypalTerms({ ...single, seats: 3, multiUser: true, renewalTotalCents: 1000 });
    expect([t.quantity, t.unitCents, t.firstUnitCents]).toEqual([1, 1000, 999]);
  });
});

describe("PayPal's amounts", () => {
  it("writes and reads PayPal's decimal strings", () => {
    expect([paypalValue(999), paypalValue(5), paypalValue(120000)]).toEqual([
      "9.99",
      "0.05",
      "1200.00",
    ]);
    expect([
      centsOf("9.99"),
      centsOf("12.3"),
      centsOf("7"),
      centsOf("1.234"),
      centsOf("x"),
    ]).toEqual([999, 1230, 700, null, null]);
  });
});

describe("checkSubscription", () => {
  const terms = paypalTerms({ ...single, firstTotalCents: 500 });
  const expected = { orderKey: "PAYID-1", planId: "P-1", terms };
  const active: SubscriptionFacts = {
    status: "ACTIVE",
    customId: "PAYID-1",
    planId: "P-1",
    quantity: "1",
    lastPayment: { currency: "USD", value: "5.00" },
    cycles: [
      { sequence: 1, value: "5.00" },
      { sequence: 2, value: "9.99" },
    ],
  };
  it("accepts the subscription asked for", () => {
    expect(checkSubscription(active, expected)).toEqual({ ok: true });
    const runs = {
      cycles: [
        { sequence: 1, value: "5.00", totalCycles: 1 },
        { sequence: 2, value: "9.99", totalCycles: 0 },
      ],
    };
    expect(checkSubscription({ ...active, ...runs }, expected)).toEqual({ ok: true });
  });
  it("names what differs", () => {
    const cases: [Partial<typeof active>, string][] = [
      [{ status: "APPROVAL_PENDING" }, "not_active"],
      [{ customId: "PAYID-2" }, "wrong_custom_id"],
      [{ planId: "P-2" }, "wrong_plan"],
      [{ quantity: "2" }, "wrong_quantity"],
      [{ lastPayment: { currency: "USD", value: "4.99" } }, "wrong_amount"],
      [{ lastPayment: { currency: "EUR", value: "5.00" } }, "wrong_amount"],
      // The renewals' price overridden by the buyer's browser.
      [{ cycles: [{ sequence: 2, value: "0.01" }] }, "wrong_amount"],
      // Issue 33 item 3: the discounted first cycle set to repeat, a first cycle of another
      // price, a renewal cycle that stops, a cycle the plan has not.
      [
        {
          cycles: [
            { sequence: 1, value: "5.00", totalCycles: 999 },
            { sequence: 2, value: "9.99", totalCycles: 0 },
          ],
        },
        "wrong_cycles",
      ],
      [
        {
          cycles: [
            { sequence: 1, value: "0.01" },
            { sequence: 2, value: "9.99" },
          ],
        },
        "wrong_cycles",
      ],
      [
        {
          cycles: [
            { sequence: 1, value: "5.00" },
            { sequence: 2, value: "9.99", totalCycles: 1 },
          ],
        },
        "wrong_cycles",
      ],
      [
        {
          cycles: [
            { sequence: 1, value: "5.00" },
            { sequence: 2, value: "9.99" },
            { sequence: 3, value: "9.99" },
          ],
        },
        "wrong_cycles",
      ],
      // Cycles PayPal did not report cannot be checked: refused, not taken on trust.
      [{ cycles: [{ sequence: 2, value: "9.99" }] }, "wrong_cycles"],
      [{ cycles: [] }, "wrong_cycles"],
    ];
    for (const [change, reason] of cases) {
      expect(checkSubscription({ ...active, ...change }, expected)).toEqual({ ok: false, reason });
    }
  });
});
