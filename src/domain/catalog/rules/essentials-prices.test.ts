import { describe, expect, it } from "vitest";
import { issuesOf, makeCatalogInput, makeFamily } from "../testing/builders.ts";

const power = makeFamily();
const withPrice = (code: string, change: Record<string, unknown>) => ({
  plans: makeCatalogInput().plans.map((f) =>
    f.family === "power"
      ? makeFamily({
          variants: power.variants.map((v) => (v.code === code ? { ...v, ...change } : v)),
        })
      : f,
  ),
});

describe("a plan with essentials costs its base plan plus the add-on", () => {
  it("reports a plus price that is not the sum", async () => {
    expect(await issuesOf(withPrice("wv_single_plus_12m", { price: 180 }))).toMatchInlineSnapshot(`
      [
        "catalog/plans/power.yaml variants[3].price: price is 180.00 but wv_single_12m (59.88) plus add-on essentials_12m (119.88) is 179.76: expected 179.76",
      ]
    `);
  });

  it("checks every price set either plan overrides", async () => {
    const plans = makeCatalogInput().plans.map((f) =>
      f.family === "power"
        ? makeFamily({
            variants: power.variants.map((v) =>
              v.code === "wv_single_12m"
                ? { ...v, priceTests: { "sample-catalogue": { price: 47.88 } } }
                : v.code === "wv_single_plus_12m"
                  ? { ...v, priceTests: { "sample-catalogue": { price: 170 } } }
                  : v,
            ),
          })
        : f,
    );
    expect(await issuesOf({ plans })).toMatchInlineSnapshot(`
      [
        "catalog/plans/power.yaml variants[3].priceTests.sample-catalogue.price: price in price set sample-catalogue is 170.00 but wv_single_12m (47.88) plus add-on essentials_12m (119.88) is 167.76: expected 167.76",
      ]
    `);
  });
});
