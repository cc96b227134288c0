// Add-ons of an order: single exports and export upgrades are one-off purchases; the essentials
// add-on renews with the plan, so it must bill on the plan's term, can be added once, and only to a
// plan that has an essentials version (the plan bought becomes that version).
import type { Catalog, PlanEntry } from "../catalog/catalog-schema.ts";
import { pricingErrors, type Result } from "./errors.ts";
import type { PriceLine } from "./lines.ts";
import { formatCount } from "./money.ts";
import { planLabel } from "./resolve-plan.ts";
import { termAdverb } from "./terms.ts";

export type AddOns = {
  essentials: { name: string; price: number } | null;
  nonRecurring: PriceLine[];
};

export function priceAddOns(
  catalog: Catalog,
  plan: PlanEntry | null,
  codes: readonly string[],
): Result<AddOns> {
  let essentials: AddOns["essentials"] = null;
  const counts = new Map<string, { name: string; price: number; count: number }>();
  for (const code of codes) {
    const single = catalog.singleExports.find((e) => e.code === code);
    const upgrade = catalog.exportUpgrades.find((u) => u.code === code);
    const oneOff =
      single ??
      (upgrade && {
        name: `Export upgrade: ${upgrade.hours} ${upgrade.hours === 1 ? "hour" : "hours"}`,
        price: upgrade.price,
      });
    if (oneOff) {
      const seen = counts.get(code);
      counts.set(code, { name: oneOff.name, price: oneOff.price, count: (seen?.count ?? 0) + 1 });
      continue;
    }
    const addOn = catalog.essentials.addOns.find((a) => a.code === code);
    if (addOn === undefined) return { ok: false, error: pricingErrors.unknownAddOn(code) };
    const addOnLabel = `${addOn.name} (billed ${termAdverb(addOn.termDuration)})`;
    if (plan === null) return { ok: false, error: pricingErrors.addOnNeedsPlan(addOn.name) };
    if (plan.essentials)
      return { ok: false, error: pricingErrors.addOnAlreadyIncluded(addOn.name, planLabel(plan)) };
    // Only a plan with an essentials version can take the add-on: the purchase becomes that
    // version. Any other plan would charge for essentials and change nothing (issue 18, item 4).
    const withEssentials = plan.essentialsUpgrade
      ? catalog.plans.find((p) => p.code === plan.essentialsUpgrade)
      : undefined;
    if (withEssentials === undefined) {
      return { ok: false, error: pricingErrors.addOnNotSold(addOn.name, planLabel(plan)) };
    }
    if (!plan.recurring || plan.termDuration !== addOn.termDuration) {
      return { ok: false, error: pricingErrors.addOnTermMismatch(addOnLabel, planLabel(plan)) };
    }
    if (essentials !== null) return { ok: false, error: pricingErrors.addOnTwice(addOn.name) };
    essentials = { name: addOn.name, price: addOn.price };
  }
  const nonRecurring = [...counts.values()].map(({ name, price, count }) => ({
    kind: "addOn" as const,
    label: count === 1 ? name : `${formatCount(count)} × ${name}`,
    amount: count * price,
  }));
  return { ok: true, value: { essentials, nonRecurring } };
}
