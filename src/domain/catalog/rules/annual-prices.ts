import type { Catalog } from "../catalog-schema.ts";
import { messages } from "../messages.ts";
import { priceField, priceIn, priceSetsOf } from "./price-sets.ts";
import { indexByCode, type RuleIssue } from "./rule.ts";

/**
 * A longer term never costs more a month than the monthly plan of the same family, in the default
 * price set and in every price set either plan overrides. Compared in whole cents: the annual
 * price must not exceed twelve monthly prices.
 */
export function annualNotAboveMonthly({ plans }: Pick<Catalog, "plans">): RuleIssue[] {
  const byCode = indexByCode(plans);
  const issues: RuleIssue[] = [];
  plans.forEach((plan, index) => {
    if (plan.termDuration === 1 || plan.monthlyVersion === null) return;
    const monthly = byCode.get(plan.monthlyVersion);
    if (!monthly || monthly.code === plan.code || monthly.termDuration !== 1) return;
    for (const set of priceSetsOf(plan, monthly)) {
      const price = priceIn(plan, set);
      const monthlyPrice = priceIn(monthly, set);
      if (price > monthlyPrice * plan.termDuration) {
        issues.push({
          ...messages.annualAboveMonthly(
            plan.code,
            plan.termDuration,
            price,
            monthly.code,
            monthlyPrice,
            set,
          ),
          at: { entity: "plans", index, field: priceField(plan, set) },
        });
      }
    }
  });
  return issues;
}
