import type { Catalog } from "../catalog-schema.ts";
import { closest } from "../closest.ts";
import { messages } from "../messages.ts";
import type { RuleIssue } from "./rule.ts";

/** Every priceTests key of a plan names a price set of price-tests.yaml. */
export function priceTestKeys({
  plans,
  priceSets,
}: Pick<Catalog, "plans" | "priceSets">): RuleIssue[] {
  const ids = priceSets.map((set) => set.id);
  const issues: RuleIssue[] = [];
  plans.forEach((plan, index) => {
    for (const key of Object.keys(plan.priceTests)) {
      if (!ids.includes(key)) {
        issues.push({
          ...messages.unknownPriceSet(key, ids, closest(key, ids)),
          at: { entity: "plans", index, field: ["priceTests", key] },
        });
      }
    }
  });
  return issues;
}

/** Warning: a price set no plan overrides a price for is probably a leftover or a typo. */
export function priceSetsUsed({
  plans,
  priceSets,
}: Pick<Catalog, "plans" | "priceSets">): RuleIssue[] {
  const used = new Set(plans.flatMap((plan) => Object.keys(plan.priceTests)));
  return priceSets.flatMap((set, index) =>
    used.has(set.id)
      ? []
      : [
          {
            ...messages.priceSetUnused(set.id),
            at: { entity: "priceSets" as const, index, field: ["id"] },
          },
        ],
  );
}
