import { describe, expect, it } from "vitest";
import { makeCatalog, makePlan, makeSpecCatalog } from "../testing/builders.ts";
import { basePriceWithoutAddOns } from "./base-price.ts";

const catalog = makeSpecCatalog();
const plan = (code: string) => {
  const found = catalog.plans.find((p) => p.code === code);
  if (!found) throw new Error(`fixture has no ${code}`);
  return found;
};

describe("basePriceWithoutAddOns", () => {
  it("is the essentials downgrade's price", () => {
    expect(basePriceWithoutAddOns(plan("wv_single_plus_12m"), catalog)).toBe(5988);
    expect(basePriceWithoutAddOns(plan("wv_single_plus_1m"), catalog)).toBe(999);
    expect(basePriceWithoutAddOns(plan("wv_unloct17_plus_12m"), catalog)).toBe(9588);
    expect(basePriceWithoutAddOns(plan("wv_unloct17_plus_1m"), catalog)).toBe(1599);
  });

  it("is price − essentials price without a downgrade", () => {
    const plus = makePlan({ price: 17976, essentials: true, essentialsPrice: 11988 });
    expect(basePriceWithoutAddOns(plus, makeCatalog())).toBe(5988);
  });

  it("falls back to price − essentials price when the downgrade is not in the catalogue", () => {
    const plus = makePlan({
      price: 2998,
      essentialsPrice: 1999,
      essentialsDowngrade: "wv_gone_1m",
    });
    expect(basePriceWithoutAddOns(plus, makeCatalog())).toBe(999);
  });

  it("is the price itself for a plan without add-ons", () => {
    expect(basePriceWithoutAddOns(plan("wv_bizindiv_12m"), catalog)).toBe(23988);
  });

  it("reads the price set", () => {
    expect(basePriceWithoutAddOns(plan("wv_bizindiv_12m"), catalog, "sample")).toBe(21588);
  });
});
