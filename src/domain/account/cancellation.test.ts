import { describe, expect, it } from "vitest";
import { type AccountFacts, availableActions, notice } from "./cancellation.ts";

function facts(overrides: Partial<AccountFacts> = {}): AccountFacts {
  return {
    productCode: "wv_unloct17_1m",
    orderState: "automatic",
    orderEndDate: Date.UTC(2026, 2, 3),
    isTrial: false,
    remainingTrialDays: null,
    isMember: false,
    isOwner: false,
    isManaged: false,
    mobileStore: false,
    hasEssentials: false,
    instanceId: null,
    instanceName: null,
    ...overrides,
  };
}

describe("available cancellations", () => {
  it("follows the account", () => {
    expect(availableActions(facts())).toEqual(["cancelSubscription", "convertToFree"]);
    expect(availableActions(facts({ productCode: "wv_free", orderState: "unknown" }))).toEqual([]);
    expect(
      availableActions(facts({ isTrial: true, orderState: "trial", remainingTrialDays: 3 })),
    ).toEqual(["cancelTrial"]);
    expect(availableActions(facts({ isMember: true, instanceId: 7 }))).toEqual(["leaveInstance"]);
    expect(availableActions(facts({ isOwner: true, instanceId: 7 }))).toEqual([
      "cancelSubscription",
      "convertToFree",
      "deleteMembers",
    ]);
    expect(availableActions(facts({ isManaged: true }))).toEqual([]);
    expect(availableActions(facts({ mobileStore: true }))).toEqual([]);
  });
});

describe("notices", () => {
  it("say what happens and from when", () => {
    expect(notice("cancelSubscription", facts()).what).toMatchInlineSnapshot(
      `"Your subscription will not renew. You keep your plan until March 3, 2026; after that your account moves to the free plan. Your projects stay."`,
    );
    expect(notice("convertToFree", facts()).what).toMatchInlineSnapshot(
      `"Your account moves to the free plan now, not on March 3, 2026 when the paid period ends: paid features stop today and nothing more is charged. Your projects stay."`,
    );
    expect(notice("cancelTrial", facts({ remainingTrialDays: 1 })).what).toContain("1 day early");
    expect(notice("deleteMembers", facts({ instanceName: "demo-team" })).what).toMatch(
      /^The team workspace demo-team closes now\./,
    );
  });

  it("tell a team's owner that switching to free closes the team, in the button too", () => {
    const owner = notice(
      "convertToFree",
      facts({ isOwner: true, instanceId: 7, instanceName: "t" }),
    );
    expect(owner.open).toBe("Close the team and switch to the free plan");
    expect(owner.what).toMatchInlineSnapshot(
      `"The team workspace t closes now, not on March 3, 2026: its members are detached from it and keep their own accounts, on the free plan unless they buy one. Your account moves to the free plan now; paid features stop today and nothing more is charged. Your projects stay."`,
    );
  });
});

describe("one-time products and Essentials (issue 33, items 7 and 8)", () => {
  it("offers no subscription to cancel for Flex, which is paid once", () => {
    expect(availableActions(facts({ productCode: "wv_flex2", oneTime: true }))).toEqual([
      "convertToFree",
    ]);
  });

  it("keeps Essentials to the end of the paid period, and says until when", () => {
    const withEssentials = facts({ productCode: "wv_single_plus_1m", hasEssentials: true });
    expect(availableActions(withEssentials)).toContain("cancelEssentials");
    expect(notice("cancelEssentials", withEssentials).what).toMatchInlineSnapshot(
      `"You keep Essentials until March 3, 2026, the end of the period you paid for. Your plan then renews without Essentials, at the lower price."`,
    );
    expect(notice("cancelEssentials", withEssentials).done).toMatchInlineSnapshot(
      `"Essentials is cancelled. You keep it until March 3, 2026; your plan then renews without it."`,
    );
    // Once cancelled it is not offered again while it runs out.
    expect(
      availableActions({ ...withEssentials, essentialsEndsAt: Date.UTC(2026, 2, 3) }),
    ).not.toContain("cancelEssentials");
  });
});
