// The catalogue the server tests price with: the spec's section 9 plans (from the shared
// builders), plus the free plan, the trials, the teacher plan, campaigns around the tests' clock,
// tax rates and a blocked domain. Independent of catalog/, so the pricing team's edits do not
// break server tests.
import type { Catalog, PlanEntry } from "../../domain/catalog/catalog-schema.ts";
import { makeCampaign, makePlan, makeSpecCatalog } from "../../domain/testing/builders.ts";

/** The tests' clock starts here: 15 January 2026, noon UTC. */
export const TEST_NOW = Date.UTC(2026, 0, 15, 12);

function trialPlan(code: string, overrides: Partial<PlanEntry>): PlanEntry {
  return makePlan({
    code,
    price: 0,
    isTrial: true,
    recurring: false,
    showYearly: false,
    trialDuration: 14,
    ...overrides,
  });
}

export function fixtureCatalog(): Catalog {
  const spec = makeSpecCatalog();
  const trials: Record<string, string> = {
    unlimited: "wv_unlimited_trial",
    professional: "wv_bizindiv_trial",
    business: "wv_bizoct17_trial",
  };
  const plans = spec.plans.map((p) => {
    const trialProduct = trials[p.family];
    return trialProduct ? { ...p, trialProduct, trialDuration: 14 } : p;
  });
  return {
    ...spec,
    plans: [
      makePlan({
        code: "wv_free",
        family: "free",
        name: "Free",
        price: 0,
        recurring: false,
        showYearly: false,
        termDuration: 12,
      }),
      ...plans,
      makePlan({
        code: "wv_teacher_12m",
        family: "teacher",
        name: "Teacher",
        tier: "education",
        category: "education",
        vertical: "education",
        price: 8900,
      }),
      trialPlan("wv_unlimited_trial", {
        family: "trial-unlimited",
        name: "Unlimited trial",
        tier: "unlimited",
      }),
      trialPlan("wv_bizindiv_trial", {
        family: "trial-professional",
        name: "Professional trial",
        tier: "professional",
      }),
      trialPlan("wv_bizoct17_trial", {
        family: "trial-business",
        name: "Business trial",
        tier: "business",
        category: "business",
        vertical: "business",
        multiUser: true,
        includedSeats: 3,
      }),
      trialPlan("wv_edu_trial", {
        family: "trial-education",
        name: "Education trial",
        tier: "education",
        category: "education",
        vertical: "education",
        trialDuration: 30,
      }),
    ],
    campaigns: [
      makeCampaign({
        id: "winter",
        name: "Winter sale",
        coupon: "winter2026",
        targeted: false,
        validFrom: Date.UTC(2026, 0, 10),
        validTo: Date.UTC(2026, 1, 1),
        prices: { wv_single_12m: 2994 },
        products: ["wv_single_12m"],
      }),
      makeCampaign({
        id: "vip",
        name: "VIP offer",
        coupon: "vipcoupon",
        targeted: true,
        validFrom: Date.UTC(2026, 0, 1),
        validTo: Date.UTC(2027, 0, 1),
        prices: { wv_unloct17_12m: 4794 },
        products: ["wv_unloct17_12m"],
      }),
      makeCampaign({
        id: "old",
        name: "Old offer",
        coupon: "oldcoupon",
        targeted: true,
        validFrom: Date.UTC(2020, 0, 1),
        validTo: Date.UTC(2020, 1, 1),
        prices: { wv_single_12m: 1000 },
        products: ["wv_single_12m"],
      }),
    ],
    taxRates: [
      { country: "US", state: null, ratePercent: 0, assumed: true },
      { country: "US", state: "CA", ratePercent: 7.25, assumed: true },
      { country: "DE", state: null, ratePercent: 19, assumed: true },
      { country: "FR", state: null, ratePercent: 20, assumed: true },
      // A GST country (issue 33, item 6: the tax line is called as the country calls it).
      { country: "AU", state: null, ratePercent: 10, assumed: true },
    ],
    blockedEmailDomains: ["mailinator.com"],
  };
}

/** The price experiment of experimentCatalog(). */
export const TEST_EXPERIMENT = "professional-price-test";

/**
 * The fixture catalogue with a price experiment running at TEST_NOW (issue 36): half of the new
 * and former customers see the sample prices of the Professional plans. Apart from
 * fixtureCatalog, so that the other server tests keep one price per plan.
 */
export function experimentCatalog(): Catalog {
  const catalog = fixtureCatalog();
  return {
    ...catalog,
    experiments: [
      {
        id: TEST_EXPERIMENT,
        description: "Do the sample prices sell the Professional plans better?",
        groups: [
          { set: "control", share: 50 },
          { set: "sample", share: 50 },
        ],
        plans: ["wv_bizindiv_1m", "wv_bizindiv_12m"],
        audiences: ["new", "former"],
        from: TEST_NOW - 30 * 86_400_000,
        // Far enough for the child servers of the several-servers tests, on the real clock.
        to: Date.UTC(2036, 0, 1),
      },
    ],
  };
}
