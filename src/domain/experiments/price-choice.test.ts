// The price cross-test's domain leg for experiment groups: in every group, the quote (plans
// pages, `catalog quote`), the order summary (checkout, charge) and the price basis a purchase
// records agree on every plan, and a group prices only the plans its experiment covers.
import { describe, expect, it } from "vitest";
import type { Catalog } from "../catalog/catalog-schema.ts";
import { planPrice, quote, safeOrderSummary } from "../pricing/index.ts";
import { currentPriceBasis } from "../renewals/index.ts";
import { makeSpecCatalog } from "../testing/builders.ts";
import { choiceOfGroup, type PriceChoice, priceSetForPlan } from "./price-choice.ts";

const COVERED = ["wv_bizindiv_1m", "wv_bizindiv_12m"];
const catalog: Catalog = {
  ...makeSpecCatalog(),
  experiments: [
    {
      id: "pro-price",
      description: "",
      groups: [
        { set: "control", share: 50 },
        { set: "sample", share: 50 },
      ],
      plans: COVERED,
      audiences: ["new"],
      from: 0,
      to: Number.MAX_SAFE_INTEGER,
    },
  ],
};
const atMs = Date.UTC(2026, 0, 15);

describe("experiment groups across the pricing module", () => {
  const choices: [string, PriceChoice][] = [
    ["control", { groupValue: null, groups: { "pro-price": "control" } }],
    ["sample", { groupValue: null, groups: { "pro-price": "sample" } }],
    // The account's price-testing group prices what no experiment covers; a group wins over it.
    [
      "control over sample group value",
      { groupValue: "sample", groups: { "pro-price": "control" } },
    ],
  ];
  for (const [name, choice] of choices) {
    it(`agrees on every sold plan in the ${name} choice`, () => {
      let compared = 0;
      for (const plan of catalog.plans.filter((p) => !p.legacy && !p.isTrial && p.price > 0)) {
        const set = priceSetForPlan(catalog, choice, plan.code);
        const expected = COVERED.includes(plan.code)
          ? (choice.groups["pro-price"] ?? null) === "control"
            ? null
            : "sample"
          : priceSetForPlan(catalog, choiceOfGroup(choice.groupValue), plan.code);
        expect(set, plan.code).toBe(expected);
        const quoted = quote(catalog, { plan: plan.code, atMs, priceChoice: choice });
        const summary = safeOrderSummary(catalog, {
          targetProduct: plan.code,
          atMs,
          priceChoice: choice,
        });
        if (!quoted.ok || !summary.ok) continue;
        expect(summary.summary.subTotal, plan.code).toBe(quoted.quote.total);
        if (plan.recurring && !plan.multiUser) {
          expect(currentPriceBasis(catalog, plan.code, { priceChoice: choice, atMs })?.price).toBe(
            planPrice(plan, set).price,
          );
        }
        compared += 1;
      }
      expect(compared).toBeGreaterThan(5);
    });
  }

  it("prices the covered plans differently in the sample group (the test can fail)", () => {
    for (const code of COVERED) {
      const plan = catalog.plans.find((p) => p.code === code);
      if (!plan) throw new Error(code);
      const sample = quote(catalog, { plan: code, atMs, priceChoice: choices[1]?.[1] });
      const control = quote(catalog, { plan: code, atMs, priceChoice: choices[0]?.[1] });
      expect(sample.ok && control.ok && sample.quote.price !== control.quote.price).toBe(true);
    }
  });
});
