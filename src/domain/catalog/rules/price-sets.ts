import type { PlanEntry } from "../catalog-schema.ts";

/** The price sets to compare two plans in: the default (null) and every set either overrides. */
export function priceSetsOf(...plans: PlanEntry[]): (string | null)[] {
  return [null, ...new Set(plans.flatMap((plan) => Object.keys(plan.priceTests)))];
}

/** A plan's price in a price set (the default price when the set does not override it). */
export function priceIn(plan: PlanEntry, set: string | null): number {
  return set === null ? plan.price : (plan.priceTests[set]?.price ?? plan.price);
}

/** The field to point at for a plan's price in a price set: the override when there is one. */
export function priceField(plan: PlanEntry, set: string | null): (string | number)[] {
  return set !== null && plan.priceTests[set] ? ["priceTests", set, "price"] : ["price"];
}
