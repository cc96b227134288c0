// Subscriptions from the payments that stand (decision 0075): MRR at the end of each month and
// the active subscriptions per plan and term at the end of the window (decision 0091).
import type { Catalog } from "../catalog/catalog-schema.ts";
import { divRoundHalfUp } from "../pricing/money.ts";
import { type Ledger, type PlanInUse, payingUsers, planInUse } from "./ledger.ts";
import { monthsOf, type Window } from "./window.ts";

export type MrrPoint = { month: string; mrrCents: number; subscriptions: number };
export type ActivePlan = { productCode: string; name: string; termMonths: number; count: number };
export type Active = { at: number; total: number; byPlan: ActivePlan[] };

/**
 * What a plan in use brings in a month: its period's value (plan and additions, after campaign
 * discounts, before tax and upgrade credit, less partial refunds) over its term's months, so an
 * annual plan counts a twelfth of its year each month. A period without a term (a pass bought
 * once) is spread over its own length in months.
 */
function monthlyValue(plan: PlanInUse): number {
  if (plan.termMonths > 0) return divRoundHalfUp(plan.value, plan.termMonths);
  if (plan.periodEnd === null) return 0;
  const months = (plan.periodEnd - plan.periodStart) / (365.25 / 12) / 86_400_000;
  return months > 0 ? Math.round(plan.value / months) : 0;
}

/** MRR at the last moment of each month of the window (the window's end for the last one). */
export function mrrOf(ledger: Ledger, w: Window): MrrPoint[] {
  const users = payingUsers(ledger);
  return monthsOf(w).map((month) => {
    const at = month.end - 1;
    let mrrCents = 0;
    let subscriptions = 0;
    for (const user of users) {
      const plan = planInUse(ledger, user, at);
      if (plan === null) continue;
      subscriptions += 1;
      mrrCents += monthlyValue(plan);
    }
    return { month: month.label, mrrCents, subscriptions };
  });
}

/** The subscriptions active at the window's last moment, per plan and term. */
export function activeAt(ledger: Ledger, catalog: Pick<Catalog, "plans">, w: Window): Active {
  const at = w.to - 1;
  const counts = new Map<string, ActivePlan>();
  let total = 0;
  for (const user of payingUsers(ledger)) {
    const plan = planInUse(ledger, user, at);
    if (plan === null) continue;
    total += 1;
    const key = `${plan.productCode}\u0000${plan.termMonths}`;
    const row = counts.get(key) ?? {
      productCode: plan.productCode,
      name: catalog.plans.find((p) => p.code === plan.productCode)?.name ?? plan.productCode,
      termMonths: plan.termMonths,
      count: 0,
    };
    row.count += 1;
    counts.set(key, row);
  }
  const byPlan = [...counts.values()].sort(
    (a, b) => a.productCode.localeCompare(b.productCode) || a.termMonths - b.termMonths,
  );
  return { at, total, byPlan };
}
