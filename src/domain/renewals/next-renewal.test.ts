import { describe, expect, it } from "vitest";
import { makeSpecCatalog } from "../testing/builders.ts";
import { type NextRenewalFacts, nextRenewal } from "./next-renewal.ts";
import { renewalWords } from "./renewal-words.ts";

const END = Date.UTC(2027, 11, 7);
const catalog = makeSpecCatalog({
  taxRates: [{ country: "US", state: "CA", ratePercent: 7.25, assumed: true }],
});

function facts(overrides: Partial<NextRenewalFacts> = {}): NextRenewalFacts {
  return {
    productCode: "wv_single_12m",
    orderState: "automatic",
    seats: 1,
    orderEnd: END,
    pendingProductCode: null,
    pendingSeats: null,
    recurringCampaign: null,
    priceBasis: null,
    tax: null,
    ...overrides,
  };
}

describe("nextRenewal", () => {
  it("is the renewal's charge with its tax, on the period end", () => {
    const next = nextRenewal(catalog, facts({ tax: { country: "US", state: "CA" } }));
    // Power annual 59.88 with 7.25 % → 4.34 of tax.
    expect(next).toEqual({
      at: END,
      productCode: "wv_single_12m",
      seats: 1,
      amount: 6422,
      tax: 434,
      termMonths: 12,
    });
  });

  it("renews into the change scheduled for the period end (Essentials cancelled)", () => {
    const next = nextRenewal(
      catalog,
      facts({ productCode: "wv_single_plus_12m", pendingProductCode: "wv_single_12m" }),
    );
    expect(next).toMatchObject({ productCode: "wv_single_12m", amount: 5988 });
  });

  it("has none for a one-time product (Flex), a cancelled subscription or a trial", () => {
    expect(nextRenewal(catalog, facts({ productCode: "wv_flex2" }))).toBeNull();
    expect(nextRenewal(catalog, facts({ orderState: "cancelled" }))).toBeNull();
    expect(nextRenewal(catalog, facts({ orderState: "trial" }))).toBeNull();
  });
});

describe("renewalWords", () => {
  it("says the amount, the term and whether tax is in it", () => {
    expect(renewalWords({ amount: 150515, tax: 10175, termMonths: 12 })).toBe(
      "$1,505.15 every year (tax included)",
    );
    expect(renewalWords({ amount: 999, tax: 0, termMonths: 1 })).toBe("$9.99 every month (no tax)");
  });
});
