import { describe, expect, it } from "vitest";
import { issuesOf, makeCatalogInput, makeFamily } from "../testing/builders.ts";

const power = makeFamily();
const withChanges = (changes: Record<string, Record<string, unknown>>) => ({
  plans: makeCatalogInput().plans.map((f) =>
    f.family === "power"
      ? makeFamily({ variants: power.variants.map((v) => ({ ...v, ...changes[v.code] })) })
      : f,
  ),
});

describe("an annual plan costs no more a month than the monthly plan", () => {
  it("accepts an annual price of exactly twelve monthly prices", async () => {
    expect(
      await issuesOf(
        withChanges({ wv_single_12m: { price: 119.88 }, wv_single_plus_12m: { price: 239.76 } }),
      ),
    ).toEqual([]);
  });

  it("reports an annual price above twelve monthly prices", async () => {
    expect(
      await issuesOf(
        withChanges({ wv_single_12m: { price: 119.89 }, wv_single_plus_12m: { price: 239.77 } }),
      ),
    ).toMatchInlineSnapshot(`
      [
        "catalog/plans/power.yaml variants[1].price: wv_single_12m costs 119.89 for 12 months, more a month than wv_single_1m at 9.99: expected at most 119.88 for 12 months",
      ]
    `);
  });

  it("compares within each price set", async () => {
    expect(
      await issuesOf(
        withChanges({
          wv_single_1m: { priceTests: { "sample-catalogue": { price: 4 } } },
          wv_single_plus_1m: { priceTests: { "sample-catalogue": { price: 23.99 } } },
        }),
      ),
    ).toMatchInlineSnapshot(`
      [
        "catalog/plans/power.yaml variants[1].price: wv_single_12m in price set sample-catalogue costs 59.88 for 12 months, more a month than wv_single_1m at 4.00: expected at most 48.00 for 12 months",
      ]
    `);
  });
});
