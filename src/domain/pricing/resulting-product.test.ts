import { describe, expect, it } from "vitest";
import { makeSpecCatalog } from "../testing/builders.ts";
import { orderSummary } from "./order-summary.ts";
import { periodValue, resultingProduct } from "./resulting-product.ts";

const catalog = makeSpecCatalog();
const atMs = Date.UTC(2026, 0, 15);
const withPlus = catalog.plans.find((p) => p.essentialsUpgrade !== null);
const essentials = catalog.essentials.addOns[0];

describe("resultingProduct", () => {
  it("is the plan itself without essentials, and its essentials variant with them", () => {
    if (!withPlus || !essentials) throw new Error("the spec catalogue has essentials variants");
    expect(resultingProduct(catalog, withPlus, [])).toBe(withPlus.code);
    expect(resultingProduct(catalog, withPlus, ["some_other_add_on"])).toBe(withPlus.code);
    expect(resultingProduct(catalog, withPlus, [essentials.code])).toBe(withPlus.essentialsUpgrade);
  });

  it("keeps a plan that has no essentials variant", () => {
    if (!essentials) throw new Error("the spec catalogue has essentials add-ons");
    const plain = { code: "wv_plain_12m", essentialsUpgrade: null };
    expect(resultingProduct(catalog, plain, [essentials.code])).toBe("wv_plain_12m");
  });
});

describe("periodValue", () => {
  it("is a new purchase's subtotal, leaving out one-off add-ons and tax", () => {
    if (!withPlus) throw new Error("the spec catalogue has essentials variants");
    const request = { targetProduct: withPlus.code, atMs };
    const plain = orderSummary(catalog, request);
    expect(periodValue(plain)).toBe(plain.subTotal);
    expect(periodValue(plain)).toBeGreaterThan(0);
    const exportCode = catalog.singleExports[0]?.code ?? "";
    const withExport = orderSummary(catalog, {
      ...request,
      addOns: [exportCode],
      tax: { country: "US", state: "CA" },
    });
    expect(withExport.total).toBeGreaterThan(plain.total);
    expect(periodValue(withExport)).toBe(periodValue(plain));
  });
});
