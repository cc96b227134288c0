// Which free trial a trial link starts and where the person lands afterwards (spec 2.1, 4, 7).
// A trial link is the checkout with p=trial: /cart?p=trial&product=wv_unloct17_12m#checkout (the
// plan whose trial it is) or /cart?p=trial&tier=education#checkout (a tier). Trial selection maps
// the tier to the trial product (spec 4); activatefreetrial takes that tier as its vertical.
// Landing: docs/decisions/0021-trial-landing.md.
import { resolveTier, type Tier, trialProductForTier } from "../account/tier.ts";

export type TrialLanding = "edutrial-account-completed" | "biztrial-account-completed";

export type TrialTarget = {
  /** The vertical activatefreetrial is sent: the tier whose trial starts. */
  vertical: Tier;
  /** The trial product that tier maps to (wv_unlimited_trial, wv_edu_trial, …). */
  trialCode: string;
  landing: TrialLanding;
  /** Business trials name the team's workspace (instanceName). */
  asksWorkspace: boolean;
};

/** The fields of a plan option this reads. */
type PlanTier = { code: string; tier: string };

/**
 * The trial a link asks for, or null when that plan or tier has none (Power, Flex, Creator and
 * the free plan have no trial; the link then offers to buy). The plan's own tier decides when the
 * product is known (Unlimited is tier unlimited, Professional tier professional); otherwise the
 * link's tier, with spec 4's fallbacks (education and business products force their tier).
 */
export function trialTarget(
  link: { productCode: string | null; tier: string | null },
  plans: readonly PlanTier[],
): TrialTarget | null {
  const plan = link.productCode ? plans.find((p) => p.code === link.productCode) : undefined;
  const tier = resolveTier({ tier: plan?.tier ?? link.tier, productCode: link.productCode });
  const trialCode = trialProductForTier(tier);
  if (trialCode === null) return null;
  return {
    vertical: tier,
    trialCode,
    landing: tier === "education" ? "edutrial-account-completed" : "biztrial-account-completed",
    asksWorkspace: tier === "business",
  };
}
