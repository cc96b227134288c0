import { describe, expect, it } from "vitest";
import { trialTarget } from "./trial.ts";

// The plans of the options call, as far as trial selection reads them.
const plans = [
  { code: "wv_unloct17_12m", tier: "unlimited" },
  { code: "wv_bizindiv_1m", tier: "professional" },
  { code: "wv_bizoct17_12m", tier: "business" },
  { code: "wv_k12_12m", tier: "education" },
  { code: "wv_single_12m", tier: "personal" },
];

describe("trial links", () => {
  it("start the trial of the plan's tier, whatever tier the link names", () => {
    // The static pricing page's link says tier=personal for Unlimited: the plan's tier decides.
    expect(trialTarget({ productCode: "wv_unloct17_12m", tier: "personal" }, plans)).toEqual({
      vertical: "unlimited",
      trialCode: "wv_unlimited_trial",
      landing: "biztrial-account-completed",
      asksWorkspace: false,
    });
    expect(trialTarget({ productCode: "wv_bizindiv_1m", tier: null }, plans)).toMatchObject({
      vertical: "professional",
      trialCode: "wv_bizindiv_trial",
      landing: "biztrial-account-completed",
    });
    expect(trialTarget({ productCode: "wv_bizoct17_12m", tier: null }, plans)).toMatchObject({
      vertical: "business",
      trialCode: "wv_bizoct17_trial",
      landing: "biztrial-account-completed",
      asksWorkspace: true,
    });
  });

  it("send education trials to the education trial's completed screen", () => {
    for (const link of [
      { productCode: "wv_k12_12m", tier: null },
      { productCode: null, tier: "education" },
      // A product the plans do not list still counts by its code (k12 is education).
      { productCode: "wv_k12_6m", tier: null },
    ]) {
      expect(trialTarget(link, plans)).toMatchObject({
        vertical: "education",
        trialCode: "wv_edu_trial",
        landing: "edutrial-account-completed",
        asksWorkspace: false,
      });
    }
  });

  it("have no trial for plans and tiers without one", () => {
    expect(trialTarget({ productCode: "wv_single_12m", tier: null }, plans)).toBeNull();
    expect(trialTarget({ productCode: null, tier: "personal" }, plans)).toBeNull();
    expect(trialTarget({ productCode: null, tier: null }, plans)).toBeNull();
    expect(trialTarget({ productCode: null, tier: "playposit" }, plans)).toBeNull();
  });
});
