// Tiers, trial selection and product-code classification (spec sections 3.11 and 4).
import { TIERS } from "../catalog/tiers.ts";

export type Tier = (typeof TIERS)[number];
export type TrialKind = "eduTrial" | "businessTrial" | "professionalTrial";

export const FREE_PRODUCT = "wv_free";

/** Codes containing k12 count as education; so do the teacher plan and the education trial. */
export function isEducationCode(code: string): boolean {
  return code.includes("k12") || code.includes("teacher") || code === "wv_edu_trial";
}

/** The team licence (Business) products. Professional (wv_bizindiv_*) is a personal-tier plan. */
export function isBusinessCode(code: string): boolean {
  return code.startsWith("wv_bizoct17");
}

export function isTrialCode(code: string): boolean {
  return code.endsWith("_trial");
}

/**
 * The tier a request runs in: the education product forces education, business products force
 * business, a known tier is kept, anything else falls back to personal (the default).
 */
export function resolveTier(input: { tier?: string | null; productCode?: string | null }): Tier {
  const code = input.productCode ?? "";
  if (code && isEducationCode(code)) return "education";
  if (code && isBusinessCode(code)) return "business";
  const tier = input.tier ?? "";
  return (TIERS as readonly string[]).includes(tier) ? (tier as Tier) : "personal";
}

const TRIAL_PRODUCT_BY_TIER: Partial<Record<Tier, string>> = {
  unlimited: "wv_unlimited_trial",
  professional: "wv_bizindiv_trial",
  business: "wv_bizoct17_trial",
  education: "wv_edu_trial",
};

/** Trial selection maps tier to trial product; other tiers have no trial. */
export function trialProductForTier(tier: Tier): string | null {
  return TRIAL_PRODUCT_BY_TIER[tier] ?? null;
}

export function trialKindForTier(tier: Tier): TrialKind | null {
  if (tier === "education") return "eduTrial";
  if (tier === "business") return "businessTrial";
  if (tier === "professional") return "professionalTrial";
  return null;
}

/** `activatefreetrial` sends a vertical; it names the tier whose trial starts. */
export function tierForVertical(vertical: string): Tier {
  const v = vertical.toLowerCase();
  if (v === "education" || v === "edu" || v === "k12") return "education";
  if (v === "business") return "business";
  if (v === "professional") return "professional";
  if (v === "unlimited" || v === "personal") return "unlimited";
  return resolveTier({ tier: v });
}
