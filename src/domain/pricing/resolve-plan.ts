// Finding the plan a request means: a product code, or a family id (power, business...) with an
// optional billing mode.
import type { Catalog, PlanEntry } from "../catalog/catalog-schema.ts";
import { pricingErrors, type Result } from "./errors.ts";
import { type RequestMode, termAdverb, termForMode } from "./terms.ts";

/** "Power (billed annually)", "Flex (one-time)": how messages and lines name a plan variant. */
export function planLabel(plan: Pick<PlanEntry, "name" | "recurring" | "termDuration">): string {
  return plan.recurring
    ? `${plan.name} (billed ${termAdverb(plan.termDuration)})`
    : `${plan.name} (one-time)`;
}

function byPreference(a: PlanEntry, b: PlanEntry): number {
  return Number(a.legacy) - Number(b.legacy) || a.order - b.order;
}

/**
 * A code names one variant; with a mode that differs from its term, the code's monthlyVersion or
 * annualVersion is used. A family id picks its plain variant (no essentials, not a trial,
 * current before legacy) for the mode, or the annual one when no mode is given.
 */
export function resolvePlan(
  catalog: Pick<Catalog, "plans">,
  ref: string,
  mode?: RequestMode,
): Result<PlanEntry> {
  const key = ref.trim();
  const byCode = catalog.plans.find((plan) => plan.code === key);
  if (byCode !== undefined) {
    if (mode === undefined || byCode.termDuration === termForMode(mode))
      return { ok: true, value: byCode };
    const otherCode = mode === "monthly" ? byCode.monthlyVersion : byCode.annualVersion;
    const other = catalog.plans.find((plan) => plan.code === otherCode);
    return other !== undefined
      ? { ok: true, value: other }
      : { ok: false, error: pricingErrors.noVariant(byCode.name, mode) };
  }
  const family = catalog.plans.filter((plan) => plan.family === key);
  const first = family[0];
  if (first === undefined) return { ok: false, error: pricingErrors.unknownPlan(key) };
  const plain = family.filter((plan) => !plan.essentials && !plan.isTrial);
  const candidates = (plain.length > 0 ? plain : family).sort(byPreference);
  const term = termForMode(mode ?? "annual");
  const chosen =
    candidates.find((plan) => plan.termDuration === term) ??
    (mode === undefined ? candidates[0] : undefined);
  return chosen !== undefined
    ? { ok: true, value: chosen }
    : { ok: false, error: pricingErrors.noVariant(first.name, mode ?? "annual") };
}
