// The plan price without its add-ons (spec section 9): what a plan with essentials costs without
// them, shown beside the essentials line.
import type { Catalog, PlanEntry } from "../catalog/catalog-schema.ts";
import { planPrice } from "./price-sets.ts";

/**
 * The essentials downgrade's price when the plan has one (and it is in the catalogue), otherwise
 * price − essentialsPrice (never below 0). Power + essentials annual: 179.76 → 59.88.
 */
export function basePriceWithoutAddOns(
  plan: PlanEntry,
  catalog: Pick<Catalog, "plans">,
  priceSetId: string | null = null,
): number {
  if (plan.essentialsDowngrade !== null) {
    const downgrade = catalog.plans.find((p) => p.code === plan.essentialsDowngrade);
    if (downgrade !== undefined) return planPrice(downgrade, priceSetId).price;
  }
  return Math.max(0, planPrice(plan, priceSetId).price - plan.essentialsPrice);
}
