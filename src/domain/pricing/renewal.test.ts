import { describe, expect, it } from "vitest";
import { renewalAfter } from "./renewal.ts";

const AT = Date.UTC(2026, 11, 7, 4, 30);
const summary = (over: {
  productCode?: string;
  change?: string;
  base?: number;
  seats?: number;
}) => ({
  productCode: over.productCode ?? "wv_unloct17_12m",
  change: over.change ?? "new",
  newSubscription: {
    recurringBasePrice: over.base ?? 9588,
    extraSeatsRecurringPrice: over.seats ?? 0,
  },
});

describe("renewalAfter", () => {
  it("renews a yearly plan a year after the purchase, at its recurring price", () => {
    expect(renewalAfter(summary({}), true, AT)).toEqual({
      amount: 9588,
      atMs: Date.UTC(2027, 11, 7, 4, 30),
      termMonths: 12,
    });
  });

  it("adds the extra seats' recurring price and counts a monthly term in calendar months", () => {
    const at = Date.UTC(2027, 0, 31);
    expect(
      renewalAfter(summary({ productCode: "wv_bizoct17_1m", base: 2999, seats: 1998 }), true, at),
    ).toEqual({ amount: 4997, atMs: Date.UTC(2027, 1, 28), termMonths: 1 });
  });

  it("starts a new term on an upgrade too", () => {
    expect(renewalAfter(summary({ change: "upgrade" }), true, AT)?.atMs).toBe(
      Date.UTC(2027, 11, 7, 4, 30),
    );
  });

  it("says nothing for a one-off, a downgrade or an addition", () => {
    expect(renewalAfter(summary({}), false, AT)).toBeNull();
    expect(renewalAfter(summary({ change: "downgrade" }), true, AT)).toBeNull();
    expect(renewalAfter(summary({ change: "addition" }), true, AT)).toBeNull();
  });
});
