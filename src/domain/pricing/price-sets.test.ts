import { describe, expect, it } from "vitest";
import { makePlan, makeSpecCatalog } from "../testing/builders.ts";
import { planPrice, priceSetForGroup, resolvePriceSet } from "./price-sets.ts";

const catalog = makeSpecCatalog();

describe("price sets", () => {
  it("maps a priceTestingGroupValue to its set", () => {
    expect(priceSetForGroup(catalog, "sample")).toBe("sample");
    expect(priceSetForGroup(catalog, "other")).toBeNull();
    expect(priceSetForGroup(catalog, undefined)).toBeNull();
  });

  it("resolves a set id or a group value, unknown values to the default prices", () => {
    const sets = { priceSets: [{ id: "set1", description: "", groupValues: ["g1"] }] };
    expect(resolvePriceSet(sets, "set1")).toBe("set1");
    expect(resolvePriceSet(sets, "g1")).toBe("set1");
    expect(resolvePriceSet(sets, "g2")).toBeNull();
  });

  it("overrides price and seat price in the set", () => {
    const business = makePlan({
      price: 44388,
      seatPrice: 23988,
      priceTests: { sample: { price: 35988, seatPrice: 23988 } },
    });
    expect(planPrice(business, null)).toEqual({ price: 44388, seatPrice: 23988 });
    expect(planPrice(business, "sample")).toEqual({ price: 35988, seatPrice: 23988 });
    expect(planPrice(business, "other")).toEqual({ price: 44388, seatPrice: 23988 });
  });
});
