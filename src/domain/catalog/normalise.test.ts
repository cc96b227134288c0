import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toCents } from "./normalise.ts";
import {
  makeCampaignInput,
  makeCatalogFiles,
  makeFamily,
  makeVariant,
  withFamily,
} from "./testing/builders.ts";
import { validateCatalog } from "./validate.ts";

function catalogOf(...args: Parameters<typeof makeCatalogFiles>) {
  const result = validateCatalog(makeCatalogFiles(...args));
  if (!result.ok) throw new Error(result.issues.map((i) => i.message).join("\n"));
  return result.catalog;
}

describe("toCents", () => {
  it("is exact for every amount with at most two decimals", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_00 }), (cents) => {
        const dollars = Number((cents / 100).toFixed(2));
        expect(toCents(dollars)).toBe(cents);
      }),
      { numRuns: 10_000 },
    );
  });

  it("converts the spec's prices", () => {
    expect([9.99, 59.88, 4.99, 179.76, 374, 0.07].map(toCents)).toEqual([
      999, 5988, 499, 17976, 37400, 7,
    ]);
  });
});

describe("normalise", () => {
  it("turns a variant into a plan entry with the family's fields and the -1/null defaults", () => {
    const plan = catalogOf().plans.find((p) => p.code === "wv_single_12m");
    expect(plan).toMatchObject({
      family: "power",
      name: "Power",
      termDuration: 12,
      price: 5988,
      seatPrice: -1,
      includedSeats: -1,
      minSeats: 1,
      trialProduct: null,
      trialDuration: -1,
      validMonths: null,
      gbPerSeat: null,
      essentialsPrice: 0,
      essentialsAddOn: null,
      monthlyVersion: "wv_single_1m",
      annualVersion: "wv_single_12m",
    });
  });

  it("prices the included add-on and links plans of the same kind across terms", () => {
    const plan = catalogOf().plans.find((p) => p.code === "wv_single_plus_1m");
    expect(plan).toMatchObject({
      essentialsPrice: 1999,
      monthlyVersion: "wv_single_plus_1m",
      annualVersion: "wv_single_plus_12m",
    });
  });

  it("leaves the annual link empty when the family has no annual variant", () => {
    const plans = withFamily(
      makeFamily({ variants: [makeVariant({ code: "wv_single_1m", term: 1, price: 9.99 })] }),
    );
    const campaigns = {
      campaigns: [makeCampaignInput({ products: [{ code: "wv_single_1m", price: 7.99 }] })],
    };
    const plan = catalogOf({ plans, campaigns }).plans.find((p) => p.code === "wv_single_1m");
    expect(plan).toMatchObject({ monthlyVersion: "wv_single_1m", annualVersion: null });
  });

  it("fills price-test prices from the default where a set overrides only one figure", () => {
    const plan = catalogOf().plans.find((p) => p.code === "wv_k12_12m");
    expect(plan?.priceTests).toEqual({ "sample-catalogue": { price: 29900, seatPrice: 499 } });
  });

  it("turns campaign dates into milliseconds and prices into cents", () => {
    const [campaign] = catalogOf({
      campaigns: {
        campaigns: [
          makeCampaignInput({
            validFrom: "2026-11-27T05:00:00Z",
            validTo: "2026-12-01T00:00:00-05:00",
          }),
        ],
      },
    }).campaigns;
    expect(campaign).toMatchObject({
      validFrom: Date.UTC(2026, 10, 27, 5),
      validTo: Date.UTC(2026, 11, 1, 5),
      products: ["wv_single_12m"],
      prices: { wv_single_12m: 4790 },
    });
  });

  it("records a seat structure's largest seat count and band prices in cents", () => {
    const [structure] = catalogOf().seatStructures;
    expect(structure).toMatchObject({
      maximumSeats: 100,
      bands: [
        { from: 1, to: 30, total: 37400, perSeat: null, assumed: false },
        { from: 31, to: 100, total: null, perSeat: 499, assumed: false },
      ],
    });
  });
});
