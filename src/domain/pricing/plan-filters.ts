// Which plans a visitor is shown (spec section 5): the resolution filter of the 720 / 1080 / 2160
// query parameters, and the premium-template allow-list.
import type { PlanEntry } from "../catalog/catalog-schema.ts";

export type ResolutionFilter = "720" | "1080" | "2160";
type Resolution = PlanEntry["maxPublishResolution"];

const RANK: Record<Resolution, number> = { "720p": 720, "1080p": 1080, "2160p": 2160 };

/** 720 allows 720p, 1080p and 2160p; 1080 allows 1080p and 2160p; 2160 allows only 2160p. */
export function resolutionAllows(filter: ResolutionFilter, resolution: Resolution): boolean {
  return RANK[resolution] >= Number(filter);
}

export type PlanFilter = {
  /** The user has premium templates (showPremiumTemplates). */
  hasPremiumTemplates: boolean;
  /** premiumTemplateProducts: product codes, or "all" (alone or as an element) to allow any. */
  allowed?: readonly string[] | "all" | null | undefined;
  /** Keep only plans whose maximum publish resolution the filter allows. */
  resolution?: ResolutionFilter | null | undefined;
};

/**
 * When the user has premium templates and an allowed list is present, keep the plans whose codes
 * are listed ('all' allows everything); then apply the resolution filter when one is given.
 */
export function filterPlans<P extends Pick<PlanEntry, "code" | "maxPublishResolution">>(
  plans: readonly P[],
  { hasPremiumTemplates, allowed, resolution }: PlanFilter,
): P[] {
  const restrict =
    hasPremiumTemplates && Array.isArray(allowed) && !allowed.includes("all")
      ? new Set(allowed)
      : null;
  return plans.filter(
    (plan) =>
      (restrict === null || restrict.has(plan.code)) &&
      (resolution == null || resolutionAllows(resolution, plan.maxPublishResolution)),
  );
}
