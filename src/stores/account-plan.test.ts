// The account page's plan in words (issue 22, item 1).
import { describe, expect, it } from "vitest";
import { accountPlan } from "./account-plan.ts";

const base = {
  productCode: "wv_unloct17_12m",
  subscriptionName: "Unlimited",
  TermDurationMonths: 12,
  orderState: "automatic",
  nextBillingDate: Date.UTC(2027, 10, 25),
  nextBillingAmount: 9588,
  FreeProduct: "wv_free",
};

describe("accountPlan", () => {
  it("names a paying plan and how it is billed, with the next renewal", () => {
    expect(accountPlan(base)).toEqual({
      name: "Unlimited",
      plan: "Unlimited, billed annually",
      renewsOn: "November 25, 2027",
      renewalAmount: "$95.88",
    });
    expect(
      accountPlan({ ...base, productCode: "wv_unloct17_1m", TermDurationMonths: 1 }).plan,
    ).toBe("Unlimited, billed monthly");
  });

  it("says Free for the free plan, and no renewal for a plan that does not renew", () => {
    expect(accountPlan({ ...base, productCode: "wv_free", subscriptionName: "Free" })).toEqual({
      name: "Free",
      plan: "Free",
      renewsOn: null,
      renewalAmount: null,
    });
    expect(accountPlan({ ...base, orderState: "cancelled" })).toEqual({
      name: "Unlimited",
      plan: "Unlimited",
      renewsOn: null,
      renewalAmount: null,
    });
  });

  it("never shows a code", () => {
    expect(accountPlan({ ...base, subscriptionName: "wv_unloct17_12m" }).plan).toBe(
      "Your plan, billed annually",
    );
  });
});
