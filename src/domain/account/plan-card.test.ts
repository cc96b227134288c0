// The account page's plan card: the badge and the one next step (issue 34, item 3).
import { describe, expect, it } from "vitest";
import { type PlanCardFacts, planCard } from "./plan-card.ts";

const paying: PlanCardFacts = {
  productCode: "wv_unloct17_12m",
  freeProduct: "wv_free",
  planName: "Unlimited",
  orderState: "automatic",
  orderEndDate: Date.UTC(2027, 2, 3),
  isTrial: false,
  remainingTrialDays: null,
  isExpired: false,
  isMember: false,
  teamName: null,
  itunesSubscription: false,
  androidSubscription: false,
  isManaged: false,
};

describe("planCard", () => {
  it("says Active for a renewing plan, with Change plan", () => {
    expect(planCard(paying)).toEqual({ badge: "Active", tone: "success", action: "Change plan" });
  });

  it("says Flex is paid once and does not renew, never Active or Cancels on (issue 33 item 7)", () => {
    expect(
      planCard({ ...paying, productCode: "wv_flex2", planName: "Flex", oneTime: true }),
    ).toEqual({ badge: "Paid once, does not renew", tone: "info", action: "Change plan" });
  });

  it("says when a cancelled plan ends, and offers to renew it", () => {
    expect(planCard({ ...paying, orderState: "cancelled" })).toMatchObject({
      badge: "Cancels on March 3, 2027",
      action: "Renew",
    });
  });

  it("says Active for the free plan after a switch to free, never cancelled", () => {
    expect(
      planCard({ ...paying, productCode: "wv_free", planName: "Free", orderState: "cancelled" }),
    ).toMatchObject({ badge: "Active", action: "Change plan" });
    // The app flags such an account expired (its last order ended): the free plan does not end.
    expect(
      planCard({ ...paying, productCode: "wv_free", planName: "Free", isExpired: true }),
    ).toMatchObject({ badge: "Active", action: "Change plan" });
  });

  it("names the team's plan for a member, with nothing to change here", () => {
    expect(
      planCard({ ...paying, isMember: true, teamName: "Acme Video", planName: "Business" }),
    ).toEqual({ badge: "Member of Acme Video's Business plan", tone: "info", action: null });
  });

  it("says where an app store plan is managed", () => {
    expect(planCard({ ...paying, itunesSubscription: true })).toMatchObject({
      badge: "Managed in the App Store",
      action: null,
    });
    expect(planCard({ ...paying, androidSubscription: true }).badge).toBe("Managed in Google Play");
  });

  it("counts a trial's days left, and offers the plans", () => {
    expect(planCard({ ...paying, isTrial: true, remainingTrialDays: 9 })).toMatchObject({
      badge: "Trial, 9 days left",
      action: "Choose a plan",
    });
    expect(planCard({ ...paying, isTrial: true, remainingTrialDays: 1 }).badge).toBe(
      "Trial, 1 day left",
    );
  });

  it("says Expired, with Buy again", () => {
    expect(planCard({ ...paying, isExpired: true, orderState: "unknown" })).toMatchObject({
      badge: "Expired",
      action: "Buy again",
    });
  });
});
