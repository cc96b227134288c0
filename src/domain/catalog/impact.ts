// `catalog diff --impact`: how many active subscriptions are on each changed price. Pure: the
// subscriptions come in grouped (cli/core/subscription-groups.ts reads them from the server's
// database). Existing subscribers keep the price they signed up at (catalog/README.md), so the
// count is who a price migration of that price would reach, and who renews into it otherwise.
import { resolvePriceSet } from "../pricing/price-sets.ts";
import type { Catalog } from "./catalog-schema.ts";
import type { PriceChange } from "./diff.ts";

/** Active subscriptions that share a product, seat count, recurring campaign and price group. */
export type SubscriptionGroup = {
  productCode: string;
  seats: number;
  recurringCampaign: string | null;
  /** The account's priceTestingGroupValue (its price set), or null. */
  priceGroup: string | null;
  count: number;
};

/**
 * Active subscriptions on the price a change changes, or null where no subscription can be (a
 * single export or an export upgrade is bought once). `catalog` is the catalogue after the change.
 */
export function impactOf(
  change: PriceChange,
  catalog: Pick<Catalog, "plans" | "seatStructures" | "priceSets" | "essentials">,
  groups: readonly SubscriptionGroup[],
): number | null {
  const sum = (keep: (g: SubscriptionGroup) => boolean) =>
    groups.filter(keep).reduce((n, g) => n + g.count, 0);
  switch (change.kind) {
    case "export":
    case "exportUpgrade":
      return null;
    case "plan": {
      const plan = catalog.plans.find((p) => p.code === change.item);
      if (plan === undefined) return 0;
      const paysExtraSeats = (g: SubscriptionGroup) =>
        change.field !== "seatPrice" || g.seats > Math.max(0, plan.includedSeats);
      // A price set's change reaches its group; the default one everyone without an override.
      const inSet = (g: SubscriptionGroup) => {
        const set = resolvePriceSet(catalog, g.priceGroup ?? undefined);
        return change.priceSet === null
          ? set === null || plan.priceTests[set] === undefined
          : set === change.priceSet;
      };
      return sum((g) => g.productCode === plan.code && paysExtraSeats(g) && inSet(g));
    }
    case "essentials": {
      const withAddOn = new Set(
        catalog.plans.filter((p) => p.essentialsAddOn === change.item).map((p) => p.code),
      );
      return sum((g) => withAddOn.has(g.productCode));
    }
    case "seatBand": {
      const structure = catalog.seatStructures.find((s) => s.id === change.item);
      const from = Number((change.seats ?? "").split("-")[0]);
      // Totals above a band are built on it, so a band's price reaches every count from it up.
      return sum((g) => structure?.appliesTo.includes(g.productCode) === true && g.seats >= from);
    }
    case "campaign":
      // A campaign's price reaches renewals only of subscriptions bought under it (recurring).
      return sum((g) => g.recurringCampaign === change.item && g.productCode === change.field);
  }
}
