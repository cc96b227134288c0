// Price sets (docs/decisions/0003): a plan's `priceTests[setId]` replaces its price and seat price
// for users whose priceTestingGroupValue maps to that set in `catalog.priceSets`.
import type { Catalog, PlanEntry } from "../catalog/catalog-schema.ts";

/** The price-set id that a user's priceTestingGroupValue selects, or null for the default prices. */
export function priceSetForGroup(
  catalog: Pick<Catalog, "priceSets">,
  priceTestingGroupValue: string | null | undefined,
): string | null {
  if (!priceTestingGroupValue) return null;
  return (
    catalog.priceSets.find((set) => set.groupValues.includes(priceTestingGroupValue))?.id ?? null
  );
}

/**
 * The price set a request names: either a set id or a priceTestingGroupValue. An unknown value
 * means default prices, not an error: group values come from user sessions, not from customers.
 */
export function resolvePriceSet(
  catalog: Pick<Catalog, "priceSets">,
  priceGroup: string | null | undefined,
): string | null {
  if (!priceGroup) return null;
  if (catalog.priceSets.some((set) => set.id === priceGroup)) return priceGroup;
  return priceSetForGroup(catalog, priceGroup);
}

/** The plan's term price and extra-seat price (-1 when none) in a price set. */
export function planPrice(
  plan: Pick<PlanEntry, "price" | "seatPrice" | "priceTests">,
  priceSetId: string | null,
): { price: number; seatPrice: number } {
  const override = priceSetId === null ? undefined : plan.priceTests[priceSetId];
  return override
    ? { price: override.price, seatPrice: override.seatPrice }
    : { price: plan.price, seatPrice: plan.seatPrice };
}
