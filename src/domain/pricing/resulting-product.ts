// What a purchase leaves the account with: the product it holds afterwards and the value of the
// new period. Pure functions of the catalogue and the order summary, used by the server's quotes
// (the summary's `change`) and orders (what is written and what a later addition is prorated
// against), so both read them from here rather than from each other.
import type { Catalog, PlanEntry } from "../catalog/catalog-schema.ts";
import type { OrderSummary } from "./order-summary.ts";

/** The value of the new period: the plan, essentials and seats after any discount (no add-ons, tax or credit). */
export function periodValue(summary: OrderSummary): number {
  const n = summary.newSubscription;
  return n.firstTermBasePrice - n.firstTermDiscount + n.firstTermExtraSeatsPrice;
}

/** The product held after buying `plan` with these add-ons: with essentials, its essentials variant. */
export function resultingProduct(
  catalog: Pick<Catalog, "essentials">,
  plan: Pick<PlanEntry, "code" | "essentialsUpgrade">,
  addOns: readonly string[],
): string {
  const withEssentials = addOns.some((a) => catalog.essentials.addOns.some((e) => e.code === a));
  return withEssentials && plan.essentialsUpgrade ? plan.essentialsUpgrade : plan.code;
}
