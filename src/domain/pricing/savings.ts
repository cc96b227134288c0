// "Save N%" between the monthly and annual versions of a plan (spec section 9), by comparing
// monthly-equivalent prices.
import type { PlanEntry } from "../catalog/catalog-schema.ts";

type Priced = Pick<PlanEntry, "price" | "termDuration">;

/**
 * Whole percent saved per month by the annual version, or null when it saves less than 1%.
 * Computed exactly on the unrounded monthly equivalents, then rounded DOWN, so an advertised
 * saving is never larger than the real one (Power: 9.99 vs 59.88 / 12 = 4.99 saves 50.05% → 50).
 * Pass `{ price, termDuration }` objects to compare prices from a price set.
 */
export function savingsPercent(monthlyPlan: Priced, annualPlan: Priced): number | null {
  const monthlyPrice = monthlyPlan.price;
  const monthlyTerm = monthlyPlan.termDuration;
  if (monthlyPrice <= 0) return null;
  // 1 − (annual / annualTerm) / (monthly / monthlyTerm), kept in integers.
  const base = monthlyPrice * annualPlan.termDuration;
  const saved = base - annualPlan.price * monthlyTerm;
  let percent = Math.floor((saved * 100) / base);
  // Guard the floor against a quotient that floating point rounded up to a whole number.
  if (percent * base > saved * 100) percent -= 1;
  return percent >= 1 ? percent : null;
}
