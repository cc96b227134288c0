// The prices one customer sees: per plan, the price set of the experiment group the customer is
// in for that plan, else the set the account's priceTestingGroupValue selects, else the defaults.
import type { Catalog } from "../catalog/catalog-schema.ts";
import { resolvePriceSet } from "../pricing/price-sets.ts";
import { priceSetOfGroup } from "./assignment.ts";

/** One customer's price choice: the account's price-testing group and its experiment groups. */
export type PriceChoice = {
  /** The account's priceTestingGroupValue (set by hand, spec) or a price-set id, or null. */
  groupValue: string | null;
  /** The customer's group in each running experiment they are enrolled in, by experiment id. */
  groups: Readonly<Record<string, string>>;
};

export const NO_CHOICE: PriceChoice = { groupValue: null, groups: {} };

/** The choice of a bare price-set id or priceTestingGroupValue (the `catalog quote` option). */
export function choiceOfGroup(groupValue: string | null | undefined): PriceChoice {
  return groupValue ? { groupValue, groups: {} } : NO_CHOICE;
}

/** The price set that prices `productCode` for this customer: null for the default prices. */
export function priceSetForPlan(
  catalog: Pick<Catalog, "priceSets" | "experiments">,
  choice: PriceChoice,
  productCode: string,
): string | null {
  for (const experiment of catalog.experiments ?? []) {
    const group = choice.groups[experiment.id];
    if (group !== undefined && experiment.plans.includes(productCode)) {
      return priceSetOfGroup(group);
    }
  }
  return resolvePriceSet(catalog, choice.groupValue);
}
