import type { Catalog } from "../catalog-schema.ts";
import { messages } from "../messages.ts";
import { priceField, priceIn, priceSetsOf } from "./price-sets.ts";
import { indexByCode, type RuleIssue } from "./rule.ts";

/**
 * A plan with essentials costs exactly the plan without essentials plus the add-on of the same
 * term, in the default price set and in every price set either plan overrides.
 */
export function essentialsPrices({
  plans,
  essentials,
}: Pick<Catalog, "plans" | "essentials">): RuleIssue[] {
  const byCode = indexByCode(plans);
  const addOns = indexByCode(essentials.addOns);
  const issues: RuleIssue[] = [];
  plans.forEach((plan, index) => {
    if (!plan.essentials || plan.essentialsAddOn === null) return;
    const addOn = addOns.get(plan.essentialsAddOn);
    const base =
      (plan.essentialsDowngrade === null ? undefined : byCode.get(plan.essentialsDowngrade)) ??
      plans.find((other) => other.essentialsUpgrade === plan.code);
    if (!addOn || !base || base.essentials) return;
    for (const set of priceSetsOf(plan, base)) {
      const price = priceIn(plan, set);
      const basePrice = priceIn(base, set);
      if (price !== basePrice + addOn.price) {
        issues.push({
          ...messages.essentialsPrice(price, base.code, basePrice, addOn.code, addOn.price, set),
          at: { entity: "plans", index, field: priceField(plan, set) },
        });
      }
    }
  });
  return issues;
}
