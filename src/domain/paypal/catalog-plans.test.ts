import { describe, expect, it } from "vitest";
import { makePlan, makeSpecCatalog } from "../testing/builders.ts";
import { catalogPaypalTerms } from "./catalog-plans.ts";

const AT = Date.UTC(2026, 0, 15);

describe("catalogPaypalTerms", () => {
  it("is one plan per sold recurring plan and price set, at its catalogue price", () => {
    const keys = catalogPaypalTerms(makeSpecCatalog(), AT).map((t) => t.planKey);
    expect(keys).toContain("wv_single_1m:1m:999");
    expect(keys).toContain("wv_single_12m:12m:5988");
    // The sample price set prices Business Individual lower: a plan of its own.
    expect(keys.filter((k) => k.startsWith("wv_bizindiv_1m:"))).toEqual([
      "wv_bizindiv_1m:1m:3999",
      "wv_bizindiv_1m:1m:3599",
    ]);
    // A one-time product has no PayPal plan.
    expect(keys.some((k) => k.startsWith("wv_flex2:"))).toBe(false);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("leaves out trials, legacy and free plans", () => {
    const catalog = makeSpecCatalog();
    const extra = [
      makePlan({ code: "old_1m", legacy: true, price: 500 }),
      makePlan({ code: "trial_1m", isTrial: true, price: 500 }),
      makePlan({ code: "free_1m", price: 0 }),
    ];
    const keys = catalogPaypalTerms({ ...catalog, plans: [...catalog.plans, ...extra] }, AT).map(
      (t) => t.planKey,
    );
    expect(keys).toEqual(catalogPaypalTerms(catalog, AT).map((t) => t.planKey));
  });

  it("a price changed in a release changes that plan's key alone", () => {
    const catalog = makeSpecCatalog();
    const release = {
      ...catalog,
      plans: catalog.plans.map((p) => (p.code === "wv_single_1m" ? { ...p, price: 1099 } : p)),
    };
    const before = catalogPaypalTerms(catalog, AT).map((t) => t.planKey);
    const after = catalogPaypalTerms(release, AT).map((t) => t.planKey);
    expect(after.filter((k) => !before.includes(k))).toEqual(["wv_single_1m:1m:1099"]);
    expect(before.filter((k) => !after.includes(k))).toEqual(["wv_single_1m:1m:999"]);
  });
});
